"""Language selection, refusals and restores.

A visitor's language is the one they picked in the header (a cookie, remembered); on a
first visit, the first of French and English their browser asks for (Accept-Language);
French when it asks for neither, Chronique being French first.

French typography is in the French translations themselves (non-breaking spaces) and
where a name is written into a sentence (elision: `characters/typography.py`), not applied
to the pages afterwards.
"""

import os

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.shortcuts import render
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import parse_accept_lang_header

from characters.bounds import out_of_range_sentence
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
        if language is None:
            language = _asked_for(request.META.get("HTTP_ACCEPT_LANGUAGE", ""))
        language = language or settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        patch_vary_headers(response, ["Cookie", "Accept-Language"])
        response.headers.setdefault("Content-Language", language)
        return response


def _asked_for(header: str) -> str | None:
    """The first language of Accept-Language (by preference) that Chronique speaks."""
    for code, _quality in parse_accept_lang_header(header):
        if code == "*":
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return None


class RefusalMiddleware:
    """A `Refusal` escaping a page view becomes a page with its sentence (and a 4xx); so
    does an `OverflowError`: a form's number beyond 64 bits that SQLite would not bind
    (`characters.bounds`)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, Refusal):
            return render(
                request, "refusal.html", {"message": exception.message}, status=exception.status
            )
        if isinstance(exception, OverflowError):
            return render(request, "refusal.html", {"message": out_of_range_sentence()}, status=400)
        return None


def _restore_stamp() -> int | None:
    try:
        return os.stat(settings.RESTORE_STAMP).st_mtime_ns
    except OSError:
        return None


class RestoreStampMiddleware:
    """A server that keeps its cache in its own memory (the default, `make run`) empties it
    on its first request after `manage.py restore`, told by the restore stamp's change
    (config/backup.py): the sessions, tokens and players it keeps are those of the database
    replaced. One `stat` per request; a shared cache (Redis) is emptied by the restore."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.seen = _restore_stamp()

    def __call__(self, request):
        if isinstance(caches["default"], LocMemCache):
            stamp = _restore_stamp()
            if stamp != self.seen:
                caches["default"].clear()
                self.seen = stamp
        return self.get_response(request)
