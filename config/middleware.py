"""Language selection and French typography.

A visitor's language is the one they picked in the header (a cookie, remembered); on a
first visit, the first of French and English their browser asks for (Accept-Language);
French when it asks for neither, Chronique being French first.

French pages then get French typography on what they show (`FrenchTypographyMiddleware`):
a non-breaking space before `: ; ? !` and inside « », and "de"/"que" elided before a
name that starts with a vowel ("Historique d'Alice"), names being interpolated after the
sentence was translated.
"""

import re

from django.conf import settings
from django.shortcuts import render
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import parse_accept_lang_header

from characters.permissions import Refusal
from config.bounds import out_of_range_sentence


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


NBSP = "\u00a0"
# Text between tags, outside the elements whose text is code or typed by the visitor.
# Only the text that holds something to change: most text between tags is white space or
# words without punctuation, skipped in C rather than handed to Python one by one.
_CANDIDATE_TEXT = re.compile(r">([^<]*(?:[ \t][:;?!»]|«|\b(?:[Dd]|[Qq]u)e )[^<]*)<")
_RAW = re.compile(r"<(script|style|pre|code|textarea)\b.*?</\1>", re.S | re.I)
_BEFORE_PUNCTUATION = re.compile(r"[ \t]+([:;?!»])")
_AFTER_GUILLEMET = re.compile(r"«[ \t]+")
# "de Alice" -> "d'Alice": a word of two letters or more starting with a vowel, not an
# acronym ("de l'APC" is the translator's to write), not an English name ("Of the Dead").
_ELISION = re.compile(r"\b([Dd]|[Qq]u)e (?=[AEIOUÀÂÉÈÊÎÔaeiouàâéèêîô][a-zàâçéèêëîïôûù'-])(?!Of )")


def french_typography(text: str) -> str:
    text = _BEFORE_PUNCTUATION.sub(lambda m: NBSP + m.group(1), text)
    text = _AFTER_GUILLEMET.sub("«" + NBSP, text)
    return _ELISION.sub(lambda m: m.group(1) + "'", text)


def _typeset_text(match: re.Match) -> str:
    return f">{french_typography(match.group(1))}<"


def _typeset(html: str) -> str:
    pieces, last = [], 0
    for raw in _RAW.finditer(html):
        pieces.append(_CANDIDATE_TEXT.sub(_typeset_text, html[last : raw.start()]))
        pieces.append(raw.group(0))
        last = raw.end()
    pieces.append(_CANDIDATE_TEXT.sub(_typeset_text, html[last:]))
    return "".join(pieces)


def _unchanged(html: str) -> str:
    return html


class FrenchTypographyMiddleware:
    """French pages (HTML) get French spacing and elision on their text, never inside tags,
    scripts, styles or code.

    A view that keeps a page as rendered (the KOLAPS unit page and print sheets) applies the
    typography once, before keeping it, rather than on every request that shows it: the
    request carries the page's typography (`request.typography`: this one for French,
    nothing changed for English; given here, the apps below `config` do not import it), and
    a response whose `typeset` is true is sent as it is."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.typography = _typeset if translation.get_language() == "fr" else _unchanged
        response = self.get_response(request)
        if (
            translation.get_language() == "fr"
            and not getattr(response, "typeset", False)
            and not response.streaming
            and response.get("Content-Type", "").startswith("text/html")
        ):
            response.content = _typeset(response.content.decode(response.charset)).encode(
                response.charset
            )
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        return response


class RefusalMiddleware:
    """A `Refusal` escaping a page view becomes a page with its sentence (and a 4xx); so
    does an `OverflowError`: a form's number beyond 64 bits that SQLite would not bind
    (`config.bounds`)."""

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
