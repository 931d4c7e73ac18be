"""The quick start's embedded default: SQLite, in-process tasks, the real server.

This runs what `make run` runs (migrate, collectstatic, demo_load, runserver) against a
fresh SQLite file, then visits the main pages as the demo players would.
"""

import http.cookiejar
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sqlite")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "CELERY_"))},
        "DATABASE_URL": f"sqlite:///{tmp / 'chronique.sqlite3'}",
        "STATIC_ROOT": str(tmp / "static"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)

    def manage(*args):
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    manage("migrate", "--noinput", "-v", "0")
    manage("collectstatic", "--noinput", "-v", "0")
    demo = manage("demo_load")
    assert "alice  / demo-alice-2026" in demo
    assert manage("demo_load").count("Demo accounts") == 1  # re-running keeps the data
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/healthz", timeout=2)
            break
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2)
    yield base
    server.terminate()
    server.wait(timeout=10)


def _opener():
    return urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )


@pytest.mark.parametrize("path", ["/", "/healthz", "/api/schema/", "/api/docs/", "/api/v1/"])
def test_it_serves_the_public_pages_on_sqlite(sqlite_server, path):
    response = urllib.request.urlopen(sqlite_server + path, timeout=10)
    assert response.status == 200


def test_it_serves_the_home_page_in_french_with_its_static_files(sqlite_server):
    html = urllib.request.urlopen(sqlite_server + "/", timeout=10).read().decode()
    assert '<html lang="fr">' in html
    stylesheet = re.search(r'href="(/static/css/chronique[^"]*\.css)"', html).group(1)
    assert urllib.request.urlopen(sqlite_server + stylesheet, timeout=10).status == 200
    script = re.search(r'src="(/static/vendor/htmx[^"]*\.js)"', html).group(1)
    assert urllib.request.urlopen(sqlite_server + script, timeout=10).status == 200


def test_it_lets_a_demo_player_log_in_and_see_the_demo_campaign(sqlite_server):
    opener = _opener()
    login = opener.open(sqlite_server + "/accounts/login/", timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login).group(1)
    data = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": "alice", "password": "demo-alice-2026"}
    ).encode()
    request = urllib.request.Request(
        sqlite_server + "/accounts/login/", data=data, headers={"Referer": sqlite_server}
    )
    account = opener.open(request, timeout=10)
    assert account.geturl().endswith("/dashboard/")
    campaigns = opener.open(sqlite_server + "/campaigns/", timeout=10).read().decode()
    assert "La Chute de Lyon" in campaigns
    link = re.search(r'href="(/campaigns/\d+/)"', campaigns).group(1)
    detail = opener.open(sqlite_server + link, timeout=10).read().decode()
    assert "Alice" in detail and "Bruno" in detail
    # From one of her server rolls to the encounter log of the chapter being played.
    rolls = opener.open(sqlite_server + "/rolls/", timeout=10).read().decode()
    # (a roll of hers the KOLAPS chapter being played may note: her Rapid 40000 ones may not)
    for roll in re.findall(r'href="(/rolls/\d+/)"', rolls):
        page = opener.open(sqlite_server + roll, timeout=10).read().decode()
        log = re.search(r'<a class="button small" href="([^"]+)">La rue Mercière<', page)
        if log:
            break
    encounter = opener.open(sqlite_server + log.group(1).replace("&amp;", "&"), timeout=10)
    html = encounter.read().decode()
    assert "La rue Mercière" in html and html.count("data-event=") == 3


def test_it_shows_the_demo_chapters_vote_and_closed_chapter(sqlite_server):
    """The demo: planned chapters, an open vote, a closed chapter settled."""
    opener = _opener()
    login = opener.open(sqlite_server + "/accounts/login/", timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login).group(1)
    data = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": "bruno", "password": "demo-bruno-2026"}
    ).encode()
    opener.open(
        urllib.request.Request(
            sqlite_server + "/accounts/login/", data=data, headers={"Referer": sqlite_server}
        ),
        timeout=10,
    )
    campaigns = opener.open(sqlite_server + "/campaigns/", timeout=10).read().decode()
    # The Of the Dead campaign, wherever the list (newest first) puts it.
    link = re.search(r'href="(/campaigns/\d+/)">La Chute de Lyon<', campaigns).group(1)
    detail = opener.open(sqlite_server + link, timeout=10).read().decode()
    # Three chapters and the one being played at the table (config/demo/table_of_the_dead.py).
    assert detail.count('data-chapter="') == 4
    assert 'data-status="settled"' in detail
    assert 'id="campaign-votes"' in detail
    profile = opener.open(sqlite_server + "/profile/", timeout=10).read().decode()
    assert "Bras en écharpe" in profile
    # The leaderboards after the settled chapter: the overall one sums campaign rows when
    # read, with SQL that differs on SQLite (no WITH TIES).
    ranked = opener.open(sqlite_server + link + "leaderboard/", timeout=10).read().decode()
    overall = opener.open(sqlite_server + "/leaderboard/", timeout=10).read().decode()
    history = opener.open(sqlite_server + "/players/bruno/history/", timeout=10).read().decode()
    for page in (ranked, overall, history):
        assert "Bruno" in page


def _signed_in(base: str, username: str, password: str):
    opener = _opener()
    login = opener.open(base + "/accounts/login/", timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login).group(1)
    data = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": username, "password": password}
    ).encode()
    opener.open(
        urllib.request.Request(base + "/accounts/login/", data=data, headers={"Referer": base}),
        timeout=10,
    )
    return opener


def _status(opener, request) -> tuple[int, str]:
    try:
        response = opener.open(request, timeout=10)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    return response.status, response.read().decode()


def test_it_refuses_a_number_beyond_64_bits_sent_as_text_or_a_form_field(sqlite_server):
    """SQLite cannot hold such a number where PostgreSQL finds no row: the JSON parser bounds
    only literal numbers, so a quoted one, a form field or an id in the path reached SQLite
    and was a 500 (the OpenAPI fuzzer against `make run`)."""
    base, big = sqlite_server, str(2**63)
    anonymous = _opener()
    request = urllib.request.Request(
        base + "/api/v1/auth/token/",
        data=b'{"username": "orga", "password": "demo-orga-2026"}',
        headers={"Content-Type": "application/json"},
    )
    api = {"Authorization": "Token " + json.load(anonymous.open(request, timeout=10))["token"]}
    listed = json.load(
        anonymous.open(urllib.request.Request(base + "/api/v1/campaigns/", headers=api))
    )
    campaign = next(c["id"] for c in listed if c["system"] == "of-the-dead")
    votes = f"{base}/api/v1/campaigns/{campaign}/votes/"
    sent = [
        (votes, json.dumps({"kind": "next_chapter", "candidates": [big]}), "application/json"),
        (votes, f"kind=next_chapter&candidates={big}", "application/x-www-form-urlencoded"),
        (f"{base}/api/v1/table/{big}/act/", '{"version": 0, "kind": "ranged"}', "application/json"),
    ]
    for url, body, kind in sent:
        request = urllib.request.Request(
            url, data=body.encode(), headers={**api, "Content-Type": kind}
        )
        code, answer = _status(anonymous, request)
        assert 400 <= code < 500, (url, body, code, answer)
        assert "detail" in json.loads(answer) or json.loads(answer), answer

    browser = _signed_in(base, "orga", "demo-orga-2026")
    page = f"{base}/campaigns/{campaign}/votes/new/"
    form = browser.open(page, timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    data = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "kind": "next_chapter", "candidates": [big, "1"]},
        doseq=True,
    ).encode()
    code, html = _status(
        browser, urllib.request.Request(page, data=data, headers={"Referer": page})
    )
    assert code == 400, (code, html[:500])
    assert "hors limites" in html, html
