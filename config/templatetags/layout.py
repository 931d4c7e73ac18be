"""The site layout's fixed parts, rendered once per process and kind of visitor.

The base layout (`templates/base.html`) was most of the cost of a small page: a dozen URL
reversals, static paths and translations for the same header on every request. Its parts
(`templates/layout/<part>.html`) depend only on the language, whether the visitor is logged
in and the theme they picked, so `{% layout "<part>" %}` renders each once per such triple
and keeps it; what belongs to one request, the CSRF token and the current path, is written
into placeholders each time. Kept for the life of the process (a deploy restarts it); with
`DEBUG` on, rendered on every request so that template edits show at once.
"""

from django import template
from django.conf import settings
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# Private-use characters: never produced by the templates themselves.
CSRF = "\ue000csrf\ue000"
NEXT = "\ue000next\ue000"
THEMES = ("light", "dark")
# (part, language, logged in, theme) -> the part.
_RENDERED: dict[tuple[str, str, bool, str], str] = {}


def _visitor(context, request) -> tuple[bool, str]:
    """Whether the visitor is logged in, and their theme: read once per request."""
    visitor = getattr(request, "_layout_visitor", None)
    if visitor is None:
        theme = request.COOKIES.get("theme") if request is not None else None
        user = context.get("user")
        visitor = (
            bool(user is not None and user.is_authenticated),
            theme if theme in THEMES else "auto",
        )
        if request is not None:
            request._layout_visitor = visitor
    return visitor


@register.simple_tag(takes_context=True)
def layout(context, part: str) -> SafeString:
    request = context.get("request")
    language = translation.get_language()
    authenticated, theme = _visitor(context, request)
    key = (part, language, authenticated, theme)
    html = _RENDERED.get(key)
    if html is None:
        html = render_to_string(
            f"layout/{part}.html",
            {
                "LANGUAGE_CODE": language,
                "authenticated": authenticated,
                "theme": theme,
                "csrf": CSRF,
                "next": NEXT,
            },
        )
        if not settings.DEBUG:
            _RENDERED[key] = html
    if CSRF in html:
        # The context's token: this request's (Django's `csrf_token`), or the placeholder a
        # page kept for several requests (characters/kolaps/views.py) puts there.
        token = context.get("csrf_token")
        if token is None:
            token = get_token(request) if request is not None else ""
        html = html.replace(CSRF, str(token))
    if NEXT in html:
        html = html.replace(NEXT, escape(request.get_full_path()) if request is not None else "")
    return mark_safe(html)
