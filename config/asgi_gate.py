"""What may reach the ASGI server (daphne), refused before any body is read.

daphne spools a request's whole body and then queues all of it for the application
before the application runs, so a `POST /ws/x/` of a gigabyte sat in daphne's memory even
though nothing there reads bodies. Two gates, one rule:

- `HttpGate` wraps the ASGI application: a plain HTTP request under /ws/ (only WebSocket
  upgrades belong there), a body declared larger than `REQUEST_BODY_MAX`, or, on a daphne
  that serves only the live table (`ASGI_SERVES_PAGES` off: compose's `ws`), anything but
  its health check, is answered 4xx without calling `receive`.
- `bound_daphne_bodies()` applies the same rule inside daphne as soon as a request's
  headers are in, before any body byte is stored: daphne has no body limit of its own, and
  the application gate alone would run only after daphne had read everything.

HAProxy (docker-compose.yml) sends only upgrades to daphne and caps bodies first; these
gates hold where no proxy stands (`make run`) or one is misconfigured.
"""

from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from config.middleware import _asked_for

WEBSOCKET_PREFIX = "/ws/"
HEALTH_PATH = "/healthz"

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def refusal(
    *, method: str, path: str, headers: dict[bytes, bytes], serves_pages: bool, body_max: int
) -> tuple[int, str] | None:
    """The status and English sentence a plain HTTP request is refused with, or None.

    `headers` are lower-cased names; a WebSocket upgrade is never refused here."""
    if headers.get(b"upgrade", b"").lower() == b"websocket":
        return None
    if path.startswith(WEBSOCKET_PREFIX):
        return 426, "This address takes WebSocket connections only."
    if not serves_pages and not (method in ("GET", "HEAD") and path == HEALTH_PATH):
        return 404, "This server takes the live table's WebSocket connections only."
    length = headers.get(b"content-length", b"0").strip()
    if not length.isdigit() or int(length) > body_max:
        return 413, "This request is too large."
    if not serves_pages and (int(length) or b"transfer-encoding" in headers):
        return 413, "This request is too large."
    return None


def _translated(sentence: str, accept_language: bytes) -> str:
    language = _asked_for(accept_language.decode("latin-1")) or settings.LANGUAGE_CODE
    with translation.override(language):
        return gettext(sentence)


def _plain_answer(status: int, text: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    body = text.encode() + b"\n"
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    if status == 426:
        headers.append((b"upgrade", b"websocket"))
    return headers, body


class HttpGate:
    """The ASGI application behind a gate that refuses, unread, what daphne must not take."""

    def __init__(self, application: Callable[..., Awaitable[None]]) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = {name.lower(): value for name, value in scope["headers"]}
            refused = refusal(
                method=scope["method"],
                path=scope["path"],
                headers=headers,
                serves_pages=settings.ASGI_SERVES_PAGES,
                body_max=settings.REQUEST_BODY_MAX,
            )
            if refused is not None:
                status, sentence = refused
                text = _translated(sentence, headers.get(b"accept-language", b""))
                answer_headers, body = _plain_answer(status, text)
                await send(
                    {"type": "http.response.start", "status": status, "headers": answer_headers}
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.application(scope, receive, send)


_REASONS = {404: b"Not Found", 413: b"Content Too Large", 426: b"Upgrade Required"}


def bound_daphne_bodies() -> None:
    """Have daphne answer a refused request as soon as its headers are in, never storing
    its body (and stop counting a body sent without a length at `REQUEST_BODY_MAX`).

    daphne builds its requests from `daphne.http_protocol.WebRequest` (a twisted
    `Request`): its hooks `gotLength` (headers complete, body not begun) and
    `handleContentChunk` are where twisted stores the body; the request line is the
    channel's. tests/test_asgi_gate.py runs a real daphne to hold this to twisted."""
    from daphne.http_protocol import WebRequest

    if getattr(WebRequest, "_chronique_bounded", False):
        return
    got_length, handle_chunk, process = (
        WebRequest.gotLength,
        WebRequest.handleContentChunk,
        WebRequest.process,
    )

    def refuse(request: Any, status: int, sentence: str) -> None:
        request._chronique_refused = True
        accept_language = (request.requestHeaders.getRawHeaders(b"accept-language") or [b""])[0]
        headers, body = _plain_answer(status, _translated(sentence, accept_language))
        head = b"HTTP/1.1 %d %s\r\n" % (status, _REASONS[status])
        head += b"".join(name + b": " + value + b"\r\n" for name, value in headers)
        # No "100 Continue" after the answer: the client must not start sending.
        request.requestHeaders.removeHeader(b"expect")
        request.channel.transport.write(head + b"\r\n" + body)
        request.channel.transport.loseConnection()

    def bounded_got_length(self: Any, length: int | None) -> None:
        self._chronique_received = 0
        path = getattr(self.channel, "_path", b"").split(b"?", 1)[0]
        headers = {
            name.lower(): values[0] for name, values in self.requestHeaders.getAllRawHeaders()
        }
        if length is not None:
            headers[b"content-length"] = str(length).encode()
        refused = refusal(
            method=getattr(self.channel, "_command", b"").decode("latin-1"),
            path=path.decode("latin-1"),
            headers=headers,
            serves_pages=settings.ASGI_SERVES_PAGES,
            body_max=settings.REQUEST_BODY_MAX,
        )
        if refused is not None:
            # A twisted request needs somewhere to put what still arrives before the close.
            got_length(self, 0)
            refuse(self, *refused)
            return
        got_length(self, length)

    def bounded_handle_chunk(self: Any, data: bytes) -> None:
        if getattr(self, "_chronique_refused", False):
            return
        self._chronique_received = getattr(self, "_chronique_received", 0) + len(data)
        if self._chronique_received > settings.REQUEST_BODY_MAX:
            refuse(self, 413, "This request is too large.")
            return
        handle_chunk(self, data)

    def bounded_process(self: Any) -> Any:
        if getattr(self, "_chronique_refused", False):
            return None
        return process(self)

    WebRequest.gotLength = bounded_got_length
    WebRequest.handleContentChunk = bounded_handle_chunk
    WebRequest.process = bounded_process
    WebRequest._chronique_bounded = True
