"""The load test's visitors (locust), driven by tests/benchmarks/test_load.py from a second
process: `locust -f tests/benchmarks/locustfile.py --headless ...` with CHRONIQUE_LOAD_WORLD
naming the JSON file of the world it made (sessions, tokens, ids).

- Players browse their dashboard, units (a unit of 30 characters) and campaigns (weight 6).
- Phones at the table watch the live encounter's page and act through its API, each action
  followed by its undo so that the encounter stays playable (weight 3).
- Organisers open a chapter's close form and close it through the API, then look at the
  settlement it proposes (weight 1), each at a desk of its own: a campaign whose chapters it
  closes one at a time.

Each request is named by its route (ids replaced), so the figures are per page.

With CHRONIQUE_LOAD_LOGINS=1 (test_load.py's `test_login_storm`), every signed-in visitor
logs in once through the login form as it arrives, as a browser does (the page for its
CSRF cookie and token, then the POST with the account's name and password), instead of
arriving with a session made beforehand; visitors who do not sign in (weight 2: one for
three signed in) read the home page, a calculator, the catalogue, the rules API and
`/healthz`; and each request's start and time go to CHRONIQUE_LOAD_TIMES, so that the
bench can tell the pages served while the others log in from those served after.

The visitors are `FastHttpUser`s (geventhttpclient, part of locust): they cost the machine
a fraction of the CPU of python-requests' `HttpUser`, and the load generator shares the
server's cores. Nothing here opens a WebSocket: the phones poll the table's page and act
through its API, all HTTP; a visitor that did would go to the ASGI server's port
(CHRONIQUE_LOAD_WS, `ws://...`), not to the WSGI one that serves the pages.
"""

import json
import os
import random
import re
from http.cookiejar import Cookie
from itertools import count
from urllib.parse import urlencode, urlsplit

from locust import FastHttpUser, between, events, task

WORLD = json.loads(open(os.environ["CHRONIQUE_LOAD_WORLD"]).read())  # noqa: SIM115
LOGINS = os.environ.get("CHRONIQUE_LOAD_LOGINS") == "1"
LOGIN = "login (form)"  # test_load.py reads the login's figures under this name
_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_serial = count()
_desks = count()  # each organiser visitor at a desk of its own (a campaign, its chapters)


def _cookie(host: str, name: str, value: str) -> Cookie:
    return Cookie(
        0, name, value, None, False, host, False, False, "/", True, False, None, False,
        None, None, {},
    )  # fmt: skip


class _Visitor(FastHttpUser):
    abstract = True
    wait_time = between(0.5, 2.5)

    def _session(self, session_key: str) -> None:
        host = urlsplit(self.host).hostname or "127.0.0.1"
        self.client.cookiejar.set_cookie(_cookie(host, "sessionid", session_key))
        self.headers = {"Accept-Language": random.choice(["fr", "fr", "en"])}

    def _sign_in(self, account: dict) -> None:
        """The session the world made for the account, or (LOGINS) a login through the form:
        the page, then its POST; a login that does not redirect is a failure."""
        if not LOGINS:
            self._session(account["session"])
            return
        self.headers = {"Accept-Language": random.choice(["fr", "fr", "en"])}
        page = self.client.get(WORLD["login"], name="login page", headers=self.headers)
        token = _CSRF.search(page.text or "")
        body = {
            "csrfmiddlewaretoken": token[1] if token else "",
            "username": account["username"],
            "password": WORLD["password"],
        }
        headers = {
            **self.headers,
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": self.host,
        }
        with self.client.post(
            WORLD["login"],
            data=urlencode(body),
            headers=headers,
            name=LOGIN,
            allow_redirects=False,
            catch_response=True,
        ) as response:
            if response.status_code != 302:
                response.failure(f"{response.status_code}: not signed in")

    def _page(self, url: str, name: str) -> None:
        self.client.get(url, name=name, headers=self.headers)


class Player(_Visitor):
    weight = 6

    def on_start(self) -> None:
        self.me = WORLD["players"][next(_serial) % len(WORLD["players"])]
        self._sign_in(self.me)

    @task(3)
    def dashboard(self) -> None:
        self._page(WORLD["urls"]["dashboard"], "dashboard")

    @task(3)
    def unit(self) -> None:
        self._page(self.me["unit"], "KOLAPS unit (30 characters)")

    @task(1)
    def units(self) -> None:
        self._page(WORLD["urls"]["units"], "KOLAPS units and characters")

    @task(2)
    def campaigns(self) -> None:
        self._page(WORLD["urls"]["campaigns"], "campaign list")

    @task(3)
    def campaign(self) -> None:
        self._page(random.choice(self.me["campaigns"]), "campaign page")

    @task(2)
    def chapter(self) -> None:
        self._page(random.choice(self.me["chapters"]), "chapter page")

    @task(1)
    def print_sheet(self) -> None:
        self._page(self.me["print"], "KOLAPS print (30 sheets)")


class Phone(_Visitor):
    weight = 3

    def on_start(self) -> None:
        self.table = WORLD["tables"][next(_serial) % len(WORLD["tables"])]
        self._sign_in(self.table)
        self.api = {**self.headers, "Authorization": f"Token {self.table['token']}"}

    @task(3)
    def page(self) -> None:
        self._page(self.table["page"], "table page")

    @task(2)
    def act_and_undo(self) -> None:
        body = {"kind": "wound", "target": random.choice(self.table["targets"])}
        body["wound"] = "superficial"
        for path, name, data in (
            (self.table["act"], "table action (API)", body),
            (self.table["undo"], "table undo (API)", {}),
        ):
            with self.client.post(
                path, json=data, headers=self.api, name=name, catch_response=True
            ) as response:
                if response.status_code in (400, 409):
                    # Another phone of the table moved first (nothing left to undo, or a
                    # newer version): a sentence for the phone, not a failure.
                    response.success()


class Organiser(_Visitor):
    weight = 1

    def on_start(self) -> None:
        self.me = WORLD["organisers"][next(_desks) % len(WORLD["organisers"])]
        self._sign_in(self.me)
        self.api = {**self.headers, "Authorization": f"Token {self.me['token']}"}
        # This level's chapters of its desk (each level closes chapters of its own).
        self.chapters = self.me["open_chapters"][os.environ["CHRONIQUE_LOAD_USERS"]]

    @task
    def close_a_chapter(self) -> None:
        if not self.chapters:
            self._page(self.me["campaign"], "campaign page")
            return
        chapter = self.chapters.pop()
        self._page(chapter["form"], "chapter close form")
        with self.client.post(
            chapter["close"],
            json={"epilogue": "Ils passent.", "outcomes": self.me["outcomes"]},
            headers=self.api,
            name="chapter close (API)",
            catch_response=True,
        ) as response:
            if response.status_code in (400, 409):
                response.success()  # the same organiser on another device closed it first
        self._page(chapter["settlement"], "chapter settlement")


class Anonymous(_Visitor):
    """A visitor who does not sign in (LOGINS only: the load test's mix stays as measured)."""

    abstract = not LOGINS
    weight = 2

    def on_start(self) -> None:
        self.headers = {"Accept-Language": random.choice(["fr", "fr", "en"])}

    @task(2)
    def home(self) -> None:
        self._page(WORLD["public"]["home"], "home")

    @task(2)
    def calculator(self) -> None:
        self._page(WORLD["public"]["calculator"], "KOLAPS test calculator")

    @task(1)
    def catalogue(self) -> None:
        self._page(WORLD["public"]["catalogue"], "KOLAPS catalogue")

    @task(1)
    def rules(self) -> None:
        self._page(WORLD["public"]["rules"], "rules (API)")

    @task(2)
    def odds(self) -> None:
        body = {"db": 3, "rank": random.choice(["novice", "veteran"])}
        self.client.post(WORLD["odds"], json=body, headers=self.headers, name="odds (API)")

    @task(1)
    def healthz(self) -> None:
        self._page(WORLD["public"]["healthz"], "healthz")


if os.environ.get("CHRONIQUE_LOAD_TIMES"):
    _times = open(os.environ["CHRONIQUE_LOAD_TIMES"], "w")  # noqa: SIM115 - closed on quitting

    @events.request.add_listener
    def _record(name: str, response_time: float, start_time: float, **kwargs) -> None:
        _times.write(f"{start_time:.3f}\t{name}\t{response_time:.1f}\n")

    @events.quitting.add_listener
    def _close(**kwargs) -> None:
        _times.close()
