"""The form renderer of the pages with a hundred widgets (the chapter close, the live
table's action form): Django's Jinja2 renderer, with the usual widgets' templates in
templates/jinja2/ (an input, a select, checkboxes or radios: each one template, its
options and attributes drawn in its own loop rather than an `include` each, which was most
of such a form's time); Django's own templates for the other widgets."""

from pathlib import Path

from django import forms
from django.conf import settings
from django.forms.renderers import Jinja2
from django.utils.functional import cached_property

_WIDGETS = "django/forms/widgets/"
# Django's templates of these only include the one named.
_SAME = {
    **{
        f"{_WIDGETS}{name}.html": f"{_WIDGETS}input.html"
        for name in ("text", "number", "hidden", "checkbox", "email", "url", "password")
    },
    **{
        f"{_WIDGETS}{name}.html": f"{_WIDGETS}multiple_input.html"
        for name in ("checkbox_select", "radio")
    },
}


class Widgets(Jinja2):
    @cached_property
    def engine(self):
        dirs = [settings.BASE_DIR / "templates" / "jinja2", Path(forms.__file__).parent / "jinja2"]
        return self.backend({"APP_DIRS": False, "DIRS": dirs, "NAME": "widgets", "OPTIONS": {}})

    def get_template(self, template_name):
        return super().get_template(_SAME.get(template_name, template_name))


RENDERER = Widgets()  # one engine for the process: the forms' `default_renderer`
