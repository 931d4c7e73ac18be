"""The site layout's fixed parts, rendered once per process and kind of visitor.

`{% layout "<part>" %}` renders `templates/layout/<part>.html` once per language, login
and theme (all a part shows of a request) and keeps it for the life of the process (a
deploy restarts it; with DEBUG on, rendered every time so that edits show). This
request's CSRF token and path are written into marks each time. Django's `{% cache %}`,
with the forms between its fragments, cost the minimal page nearly a fifth of its speed:
seven cache reads instead of four dictionary reads (docs/architecture.md, "Caching").
"""

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from characters.kept import CSRF, theme_of

register = template.Library()
NEXT = "\ue000next\ue000"  # private use: never in the templates themselves
_RENDERED: dict[tuple[str, str, bool, str], str] = {}


@register.simple_tag(takes_context=True)
def layout(context, part: str) -> SafeString:
    request = context["request"]
    language, user = translation.get_language(), context.get("user")
    key = (part, language, bool(user and user.is_authenticated), theme_of(request))
    html = _RENDERED.get(key)
    if html is None:
        html = render_to_string(
            f"layout/{part}.html",
            {"LANGUAGE_CODE": language, "authenticated": key[2], "theme": key[3], "csrf": CSRF,
             "next": NEXT},
        )  # fmt: skip
        if not settings.DEBUG:
            _RENDERED[key] = html
    # The context's token: this request's, or the mark of a page kept as rendered.
    if CSRF in html:
        html = html.replace(CSRF, str(context.get("csrf_token", "")))
    return mark_safe(html.replace(NEXT, escape(request.get_full_path())))
