"""API plumbing shared by every app: refusals become 4xx with their sentence, and what
arrives from outside is bounded before anything reads it.

- `JSONParser` refuses, each with a sentence in the request's language: a body larger than
  `DATA_UPLOAD_MAX_MEMORY_SIZE` (413), bytes that are not UTF-8, JSON that is not JSON,
  nesting deeper than `API_MAX_JSON_DEPTH`, `NaN` and `Infinity`, and integers outside the
  64-bit range every integer column holds (`API_INT_MIN`..`API_INT_MAX`): no number from
  outside reaches the database unbounded.
- `exception_handler` turns a `Refusal` into its status and sentence, and an `OverflowError`
  into the out-of-range sentence: a number beyond 64 bits that came as text (a quoted JSON
  number, a form field) passes the parser, and where PostgreSQL finds no row for it SQLite
  (the embedded default) refuses to bind it.
"""

import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework import parsers, status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from characters.bounds import API_INT_MAX, API_INT_MIN, out_of_range_sentence
from characters.permissions import Refusal


def too_large_sentence() -> str:
    """What a body over DATA_UPLOAD_MAX_MEMORY_SIZE is told, from DRF or from Django."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
    return str(_("This request is too large: send at most %(limit)s KB.") % {"limit": limit})


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"

    def __init__(self) -> None:
        super().__init__(too_large_sentence())


class _OutOfRange(ValueError):
    pass


def _integer(text: str) -> int:
    # Checked on the digits first: Python refuses to convert more than 4,300 of them.
    if len(text.lstrip("-")) > 19:
        raise _OutOfRange(text)
    value = int(text)
    if not API_INT_MIN <= value <= API_INT_MAX:
        raise _OutOfRange(text)
    return value


def _constant(name: str) -> Any:
    raise ValueError(name)  # NaN, Infinity and -Infinity are not JSON


def _depth(data: Any) -> int:
    """How deeply lists and objects nest in `data`, walked without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children)
    return deepest


def parse_json_bytes(raw: bytes) -> Any:
    """`raw` as JSON, or a ParseError (400) with the sentence saying what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ParseError(_("The body is not valid UTF-8 text.")) from None
    try:
        data = json.loads(text, parse_int=_integer, parse_constant=_constant)
    except RecursionError:
        raise ParseError(_too_deep()) from None
    except _OutOfRange:
        raise ParseError(out_of_range_sentence()) from None
    except ValueError:
        raise ParseError(_("The body is not valid JSON.")) from None
    if _depth(data) > settings.API_MAX_JSON_DEPTH:
        raise ParseError(_too_deep())
    return data


def _too_deep():
    return _("The JSON is nested too deeply: at most %(n)s levels.") % {
        "n": settings.API_MAX_JSON_DEPTH
    }


def read_bounded(stream) -> bytes:
    """The body, read up to the configured limit; larger is a 413."""
    if stream is None:
        return b""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    raw = stream.read(limit + 1)
    if len(raw) > limit:
        raise BodyTooLarge()
    return raw


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, bounded (see the module's docstring)."""

    def parse(self, stream, media_type=None, parser_context=None):
        return parse_json_bytes(read_bounded(stream))


def exception_handler(exc, context):
    if isinstance(exc, Refusal):
        body = {"detail": str(exc.message)}
        if exc.field:
            body = {exc.field: [str(exc.message)]}
        return Response(body, status=exc.status or status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, OverflowError):
        return Response({"detail": out_of_range_sentence()}, status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)
