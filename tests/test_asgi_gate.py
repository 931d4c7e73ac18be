"""What reaches daphne: WebSocket upgrades, and pages only where daphne serves them; a
body is refused before it is read (config/asgi_gate.py)."""

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from config.asgi import application

ROOT = Path(__file__).resolve().parent.parent


class CountingReceive:
    """An ASGI `receive` handing out a body 64 KB at a time (1 MB in all), counting reads."""

    def __init__(self) -> None:
        self.reads = 0

    async def __call__(self) -> dict:
        self.reads += 1
        if self.reads > 16:  # the body is over: the client stays connected
            await asyncio.Event().wait()
        return {"type": "http.request", "body": b"x" * 65536, "more_body": self.reads < 16}


def _call(method: str, path: str, headers: list[tuple[bytes, bytes]] = ()) -> tuple[dict, int]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"localhost"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    receive, sent = CountingReceive(), []

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(application(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return {"status": start["status"], "body": body.decode()}, receive.reads


def test_it_refuses_a_post_to_a_websocket_address_without_reading_its_body():
    answer, reads = _call("POST", "/ws/x/", [(b"content-length", b"1073741824")])
    assert answer["status"] == 426
    assert "WebSocket" in answer["body"]
    assert reads == 0


def test_it_says_the_refusal_in_the_visitors_language():
    answer, _reads = _call("GET", "/ws/table/1/", [(b"accept-language", b"en")])
    assert answer["body"].strip() == "This address takes WebSocket connections only."
    answer, _reads = _call("GET", "/ws/table/1/", [(b"accept-language", b"fr")])
    assert "WebSocket" in answer["body"]
    assert "This address" not in answer["body"]


def test_it_refuses_a_body_declared_larger_than_the_limit_unread(settings):
    settings.REQUEST_BODY_MAX = 1000
    answer, reads = _call("POST", "/accounts/login/", [(b"content-length", b"1001")])
    assert answer["status"] == 413
    assert reads == 0


@pytest.mark.django_db
def test_where_daphne_serves_only_the_table_a_page_is_refused_and_health_answers(settings):
    settings.ASGI_SERVES_PAGES = False
    answer, reads = _call("POST", "/accounts/login/", [(b"content-length", b"10")])
    assert (answer["status"], reads) == (404, 0)
    answer, reads = _call("GET", "/")
    assert (answer["status"], reads) == (404, 0)
    answer, _reads = _call("GET", "/healthz")
    assert answer["status"] != 404


@pytest.mark.django_db
def test_where_daphne_serves_the_pages_a_page_still_answers(settings):
    settings.ASGI_SERVES_PAGES = True
    answer, _reads = _call("GET", "/healthz")
    assert answer["status"] in (200, 503)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def daphne_port():
    """A real daphne on config.asgi (as `make run` and compose's ws start it)."""
    port = _free_port()
    environment = {**os.environ, "DATABASE_URL": "sqlite://:memory:", "REQUEST_BODY_MAX": "4096"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    yield port
    server.terminate()
    server.wait(timeout=10)


def _answer_before_body(port: int, head: bytes) -> bytes:
    """Send only the headers of a request and read what daphne answers, with no body sent."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(head)
        return connection.recv(4096)


def test_daphne_answers_a_gigabyte_post_to_ws_before_any_body_is_sent(daphne_port):
    answer = _answer_before_body(
        daphne_port,
        b"POST /ws/x/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1073741824\r\n"
        b"Expect: 100-continue\r\n\r\n",
    )
    assert answer.startswith(b"HTTP/1.1 426 ")
    assert b"100 Continue" not in answer


def test_daphne_answers_a_body_over_the_limit_before_it_is_sent(daphne_port):
    answer = _answer_before_body(
        daphne_port,
        b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000\r\n\r\n",
    )
    assert answer.startswith(b"HTTP/1.1 413 ")


def test_daphne_stops_a_chunked_body_at_the_limit(daphne_port):
    chunk = b"1000\r\n" + b"x" * 4096 + b"\r\n"
    with socket.create_connection(("127.0.0.1", daphne_port), timeout=10) as connection:
        connection.sendall(
            b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n" + chunk + chunk
        )
        assert connection.recv(4096).startswith(b"HTTP/1.1 413 ")
