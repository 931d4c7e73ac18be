"""Language selection: French unless the visitor chose otherwise.

Django's LocaleMiddleware follows the browser's Accept-Language, which would show most
visitors English pages; Chronique is French first, so pages follow only the language the
visitor picked in the header (a cookie). API clients may still ask for a language with
Accept-Language, since scripts have no header switch.
"""

from django.conf import settings
from django.shortcuts import render
from django.utils import translation
from django.utils.cache import patch_vary_headers

from characters.permissions import Refusal


def _supported(code: str | None) -> str | None:
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


class LanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = _supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
        if (
            language is None
            and "HTTP_ACCEPT_LANGUAGE" in request.META
            and request.path.startswith("/api/")
        ):
            language = _supported(translation.get_language_from_request(request))
        language = language or settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        patch_vary_headers(response, ["Cookie", "Accept-Language"])
        response.headers.setdefault("Content-Language", language)
        return response


class RefusalMiddleware:
    """A `Refusal` escaping a page view becomes a page with its sentence (and a 4xx)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, Refusal):
            return render(
                request, "refusal.html", {"message": exception.message}, status=exception.status
            )
        return None
