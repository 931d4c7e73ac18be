"""`{% jinja "name.html" %}`: a part of a Django page drawn by a Jinja2 template of the
form renderer's engine (`characters.widgets.RENDERER`, templates/jinja2/), with the page's
context, where Django's template language cost a page most of its time (the live table's
figures). Autoescaped as Django's; `bdi(name)` isolates user text as the `bdi` filter does
(`characters.bidi`) and `csrf_input` is the page's `{% csrf_token %}`. Its words come
translated from Python (gettext, so that makemessages finds them)."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from characters.bidi import isolate_html
from characters.widgets import RENDERER

register = template.Library()


def csrf_input(token) -> str:
    """What `{% csrf_token %}` writes for this token (nothing without one)."""
    if not token or token == "NOTPROVIDED":
        return ""
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)


@register.simple_tag(takes_context=True)
def jinja(context, name: str) -> SafeString:
    values = context.flatten()
    drawn = RENDERER.engine.env.get_template(name).render(
        values, csrf_input=csrf_input(values.get("csrf_token")), bdi=isolate_html
    )
    return mark_safe(drawn)  # autoescaped by the engine
