"""Chronique under real load: the product as deployed, driven by locust.

The server, as compose deploys it: the pages and the API from WSGI (gunicorn, `gthread`
workers: LOAD_WORKERS processes, one per core by default, of LOAD_THREADS threads each, so
that a worker serves another request while one waits for PostgreSQL or Redis, and no
request hops between an event loop and Django's thread), the live table's WebSockets from
ASGI (one daphne process on a port of its own, where compose's proxy sends `/ws/`).
`DEBUG` off, PostgreSQL (the suite's database, Django's connection pool), Redis for the
cache (sessions and players, config/auth.py), the channel layer and the broker, static
files collected and served by WhiteNoise.

The world: the demo (`demo_load`) plus generated data: 6 players with a KOLAPS unit of 30
characters each and 8 campaigns (Of the Dead, 12 participants, 6 chapters each) in which
they play, 3 organisers with a campaign of 12 other participants for each organiser visitor
(its desk) and enough chapters in it to close one every ~1.5 s all through each level, 6 live
encounters at the table.

The visitors (tests/benchmarks/locustfile.py, locust's FastHttpUser), from a second process
on loopback, headless and time-bounded (LOAD_SECONDS per level, 60 by default): players
browsing (weight 6), phones at the table (3), organisers closing chapters (1), at 50 and
then 200 users (LOAD_USERS, e.g. `200` for one level).

Printed, per level: requests/s in all and per core given; the cores the server's processes,
locust and the rest of the machine (PostgreSQL, Redis, other work) used, the server's CPU
milliseconds per request; p50/p95/p99 in all and per page, failures; then where the time
goes: py-spy's sample of one worker during the last level (by module), and each page's SQL
queries, its time through the test client and the share of it spent in SQL. No
absolute-time assertion: the figures depend on the machine.

`test_login_storm` (`-k login_storm`): the same server and world at the last level only,
every signed-in visitor logging in once through the login form as it arrives, all arriving
within STORM_SECONDS, one anonymous visitor for three signed in (public pages, the rules
API, `/healthz`). Printed: the login's p50/p95/p99, the pages' in all, while the others
log in and after the last login, each page's, and the targets (login p95 < 1 s, pages' p95
< 150 ms) as met or missed.
"""

import csv
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from importlib.util import find_spec
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authtoken.models import Token

from campaigns.chapters.services import chapter_plan
from campaigns.services import campaign_add_participant, campaign_create
from config.hashers import Argon2idHasher
from rules.table.models import Combatant
from tests.benchmarks.units import unit_of_30
from tests.conftest import _database_url_for
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

# Not imported here: locust patches the standard library (gevent) when it is imported.
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(find_spec("locust") is None, reason="locust: `make bench` installs it"),
]
BASE_DIR = Path(__file__).resolve().parent.parent.parent
BIN = Path(sys.executable).parent
SECONDS = int(os.environ.get("LOAD_SECONDS", "60"))
LEVELS = tuple(int(n) for n in os.environ.get("LOAD_USERS", "50,200").split(","))
CORES = os.cpu_count() or 1
# One worker per core by default, LOAD_THREADS threads each (measured: README, Measured).
WORKERS = int(os.environ.get("LOAD_WORKERS", CORES))
THREADS = int(os.environ.get("LOAD_THREADS", "4"))
PLAYERS, CAMPAIGNS, ORGANISERS, TABLES = 6, 8, 3, 6
BACKEND = "django.contrib.auth.backends.ModelBackend"
# The password of every account a visitor may sign in with (test_login_storm).
PASSWORD = "tour-de-garde-7"
# The login storm: every signed-in visitor logs in through the form within this many seconds.
STORM_SECONDS = 10


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _redis_url() -> str:
    broker = settings.CELERY_BROKER_URL or "redis://127.0.0.1:6379/14"
    return broker if broker.startswith("redis://") else "redis://127.0.0.1:6379/14"


def _session(player) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(player.pk)
    session[BACKEND_SESSION_KEY] = BACKEND
    session[HASH_SESSION_KEY] = player.get_session_auth_hash()
    session.create()
    return session.session_key


def _account(username: str):
    """A player who can sign in through the server's login form. The suite hashes with MD5
    (tests/conftest.py), which the server does not know: this hash is the production
    hasher's (config/hashers.py), so the server checks it at its real cost and has nothing
    to rewrite on login."""
    player = PlayerFactory(username=username)
    player.password = make_password(PASSWORD, hasher=Argon2idHasher())
    player.save(update_fields=["password"])
    return player


def _desks(users: int) -> int:
    """The organiser visitors of a level (weight 1 of 10): each closes the chapters of a
    campaign of its own, one at a time, as an organiser does."""
    return max(users // 10, 1)


def _chapters_to_close(users: int) -> int:
    """Chapters one organiser visitor needs for a level: one every ~1.5 s (three requests and
    the wait) for the whole level, doubled."""
    return int(SECONDS / 1.5 * 2)


def _world() -> dict:
    call_command("demo_load", verbosity=0)
    players = [_account(f"load-player-{n}") for n in range(PLAYERS)]
    organisers = [_account(f"load-orga-{n}") for n in range(ORGANISERS)]
    crowd = [PlayerFactory(username=f"load-crowd-{n}") for n in range(6)]
    campaigns, chapters = [], []
    for n in range(CAMPAIGNS):
        organiser = organisers[n % ORGANISERS]
        campaign = campaign_create(organiser=organiser, name=f"Campagne {n}", system="of-the-dead")
        for player in players + crowd:
            campaign_add_participant(actor=organiser, campaign=campaign, player=player)
        campaigns.append(campaign)
        chapters += [
            chapter_plan(actor=organiser, campaign=campaign, title=f"Chapitre {n}.{c}")
            for c in range(6)
        ]
    # A desk per organiser visitor of the biggest level: a campaign of its own with 12
    # participants of its own (the browsing players' pages keep their size) and enough
    # chapters for each level's whole run, so the close is measured all along, not only
    # while the visitors arrive. Closes of one campaign queue on its row (the close locks
    # it, as membership changes do): one organiser closes one chapter at a time.
    closing = []
    for desk in range(_desks(max(LEVELS))):
        organiser = organisers[desk % ORGANISERS]
        campaign = campaign_create(
            organiser=organiser, name=f"Campagne à clore {desk}", system="of-the-dead"
        )
        table = [PlayerFactory(username=f"load-closed-{desk}-{n}") for n in range(12)]
        for player in table:
            campaign_add_participant(actor=organiser, campaign=campaign, player=player)
        open_chapters = {
            str(users): [
                chapter_plan(actor=organiser, campaign=campaign, title=f"À clore {users}.{c}")
                for c in range(_chapters_to_close(users) if desk < _desks(users) else 0)
            ]
            for users in LEVELS
        }
        closing.append(
            {
                "username": organiser.username,
                "session": _session(organiser),
                "token": Token.objects.get_or_create(user=organiser)[0].key,
                "campaign": reverse("campaign-detail", args=[campaign.pk]),
                "outcomes": [{"player": p.pk, "result": "victory"} for p in table],
                "open_chapters": {
                    users: [
                        {
                            "form": reverse("chapter-close", args=[c.pk]),
                            "close": reverse("api-chapter-close", args=[c.pk]),
                            "settlement": reverse("chapter-settlement", args=[c.pk]),
                        }
                        for c in chapters
                    ]
                    for users, chapters in open_chapters.items()
                },
            }
        )
    tables = []
    for n in range(TABLES):
        organiser = _account(f"load-table-{n}")
        encounter = pick_up_encounter(organiser)
        tables.append(
            {
                "username": organiser.username,
                "session": _session(organiser),
                "token": Token.objects.create(user=organiser).key,
                "page": reverse("table-encounter", args=[encounter.pk]),
                "act": reverse("api-table-act", args=[encounter.pk]),
                "undo": reverse("api-table-undo", args=[encounter.pk]),
                "targets": list(
                    Combatant.objects.filter(encounter=encounter).values_list("pk", flat=True)
                ),
            }
        )
    return {
        "urls": {
            "dashboard": reverse("dashboard"),
            "campaigns": reverse("campaign-list"),
            "units": reverse("kolaps-list"),
        },
        # What a visitor who does not sign in reads (test_login_storm).
        "public": {
            "home": reverse("home"),
            "calculator": reverse("kolaps-test"),
            "catalogue": reverse("catalogue", args=["kolaps"]),
            "rules": reverse("api-rules"),
            "healthz": reverse("healthz"),
        },
        "odds": reverse("api-resolve", args=["kolaps", "test", "odds"]),
        "login": reverse("login"),
        "password": PASSWORD,
        "players": [
            {
                "username": player.username,
                "session": _session(player),
                "unit": reverse("kolaps-unit", args=[unit.pk]),
                "print": reverse("kolaps-unit-print", args=[unit.pk]),
                "campaigns": [reverse("campaign-detail", args=[c.pk]) for c in campaigns],
                "chapters": [reverse("chapter-detail", args=[c.pk]) for c in chapters],
            }
            for player in players
            for unit in [unit_of_30(player, name=f"Unité de {player.username}", talents=())]
        ],
        "organisers": closing,
        "tables": tables,
    }


def _wait_for(base: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=5)
            return
        except OSError:  # not listening yet, or still starting its workers
            time.sleep(0.3)


@pytest.fixture
def server(tmp_path):
    """The pages on gunicorn's WSGI gthread workers, the WebSockets on daphne (ASGI), both
    on the test database, as deployed (DEBUG off)."""
    redis = _redis_url()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "CELERY_"))},
        "DATABASE_URL": _database_url_for(connection.settings_dict["NAME"]),
        # A connection for each thread of a worker, none waiting for another's.
        "DATABASE_POOL_MAX": str(max(THREADS, 10)),
        "DEBUG": "false",
        "CACHE_URL": redis,
        "CHANNEL_REDIS_URL": redis,
        "CELERY_BROKER_URL": redis,
        # A queue of its own that no worker reads: the settlement a close enqueues waits.
        "CELERY_QUEUE": f"load-{uuid.uuid4().hex[:8]}",
        "STATIC_ROOT": str(tmp_path / "static"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "WARNING",
        # Every simulated visitor logs in from 127.0.0.1.
        "LOGIN_ATTEMPTS_PER_MINUTE": "1000000",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=BASE_DIR, env=env, check=True,
    )  # fmt: skip
    port, ws_port = _free_port(), _free_port()
    log = open(tmp_path / "server.log", "w")  # noqa: SIM115 - closed in the teardown
    master = subprocess.Popen(
        [str(BIN / "gunicorn"), "config.wsgi:application", "-k", "gthread",
         "-w", str(WORKERS), "--threads", str(THREADS), "-b", f"127.0.0.1:{port}",
         "--log-level", "warning", "--backlog", "2048", "--keep-alive", "120",
         "--access-logfile", str(tmp_path / "access.log"),
         "--access-logformat", "%(m)s %(U)s %(s)s %(D)s"],
        cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    ws = subprocess.Popen(
        [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(ws_port), "--proxy-headers",
         "config.asgi:application"],
        cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    _wait_for(base)
    _wait_for(f"http://127.0.0.1:{ws_port}")
    yield base, f"ws://127.0.0.1:{ws_port}", master, ws, tmp_path
    for process in (master, ws):
        process.send_signal(signal.SIGTERM)
    for process in (master, ws):
        process.wait(timeout=30)
    log.close()
    errors = [
        line
        for line in (tmp_path / "server.log").read_text().splitlines()
        if "Error" in line or "Traceback" in line
    ]
    print("\n".join(errors[-20:]))


def _warm(base: str, world: dict) -> None:
    """Each page a few times from 4 threads, so that every worker has imported its views
    and compiled its templates before anything is measured (a server in service is warm)."""
    player, table = world["players"][0], world["tables"][0]
    pages = [(player["session"], url) for url in world["urls"].values()]
    pages += [(player["session"], player[key]) for key in ("unit", "print")]
    pages += [
        (player["session"], player["campaigns"][0]),
        (player["session"], player["chapters"][0]),
    ]
    pages += [(table["session"], table["page"])]
    pages += [("", url) for url in [*world["public"].values(), world["login"]]]

    def get(page: tuple[str, str]) -> None:
        session, url = page
        cookie = {"Cookie": f"sessionid={session}"} if session else {}
        request = urllib.request.Request(base + url, headers=cookie)
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(get, pages * 8))


def _workers(master: subprocess.Popen) -> list[int]:
    children = Path(f"/proc/{master.pid}/task/{master.pid}/children").read_text().split()
    return [int(pid) for pid in children]


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of the server's processes, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def _machine_busy_seconds() -> float:
    """CPU-seconds the whole machine spent outside idle and I/O wait, from /proc/stat."""
    fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def _children_cpu_seconds() -> float:
    """User + system CPU time of the finished children (locust, once it has exited)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _locust(
    base: str, ws: str, world_file: Path, users: int, out: Path, *, storm: Path | None = None
) -> dict[str, dict]:
    """Locust's figures by request name. With `storm` (a file for each request's start and
    time), every signed-in visitor logs in through the form as it arrives, and they all
    arrive within STORM_SECONDS; else they arrive within 5 s, signed in beforehand."""
    prefix = out / f"locust-{users}{'-storm' if storm else ''}"
    rate = users / STORM_SECONDS if storm else max(users // 5, 10)
    logins = {"CHRONIQUE_LOAD_LOGINS": "1", "CHRONIQUE_LOAD_TIMES": str(storm)} if storm else {}
    subprocess.run(
        [str(BIN / "locust"), "-f", str(BASE_DIR / "tests/benchmarks/locustfile.py"),
         "--headless", "-u", str(users), "-r", str(rate), "-t", f"{SECONDS}s",
         "--host", base, "--csv", str(prefix), "--only-summary", "--loglevel", "WARNING",
         "--stop-timeout", "10", "--exit-code-on-error", "0"],
        cwd=BASE_DIR,
        env={**os.environ, "CHRONIQUE_LOAD_WORLD": str(world_file),
             "CHRONIQUE_LOAD_USERS": str(users), "CHRONIQUE_LOAD_WS": ws, **logins},
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    with open(f"{prefix}_stats.csv") as stats:
        rows = {row["Name"]: row for row in csv.DictReader(stats)}
    failures = Path(f"{prefix}_failures.csv").read_text().strip().splitlines()[1:]
    rows["Aggregated"]["failures"] = failures
    return rows


def _page_lines(rows: dict[str, dict]) -> list[str]:
    """Each request name's figures from locust, the slowest p95 first, those over the pages'
    target (p95 < 150 ms) marked."""
    lines = []
    for name, row in sorted(rows.items(), key=lambda item: -int(item[1]["95%"] or 0)):
        verdict = "" if int(row["95%"]) < 150 else "  (p95 target < 150 ms: MISSED)"
        lines.append(
            f"  {name}: {row['Request Count']} req, p50/p95/p99 "
            f"{row['50%']}/{row['95%']}/{row['99%']} ms{verdict}"
        )
    return lines


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(len(ordered) * share), len(ordered) - 1)] if ordered else 0.0


def _server_times(access_log: Path, offset: int) -> tuple[int, list[str]]:
    """The time each request spent in a worker's thread, from gunicorn's access log (written
    from `offset`): from the thread taking the request to its last byte. Locust's figure
    minus this one is the wait before a thread took it (the queue, the GIL, the machine)."""
    times: dict[str, list[float]] = {}
    with open(access_log) as log:
        log.seek(offset)
        lines = log.read().splitlines()
        end = log.tell()
    for line in lines:
        method, path, _status, micros = line.split(" ")
        route = re.sub(r"/\d+", "/{id}", path)
        times.setdefault(f"{method} {route}", []).append(int(micros) / 1000)
    every = [t for ts in times.values() for t in ts]
    report = [
        f"  in the server (a worker's thread, gunicorn's access log): p50/p95/p99 "
        f"{_percentile(every, 0.5):.0f}/{_percentile(every, 0.95):.0f}/"
        f"{_percentile(every, 0.99):.0f} ms over {len(every)} requests; slowest p95:"
    ]
    by_p95 = sorted(times.items(), key=lambda item: -_percentile(item[1], 0.95))
    for route, ts in by_p95[:6]:
        report.append(
            f"    {route}: {len(ts)} req, p50/p95/p99 {_percentile(ts, 0.5):.0f}/"
            f"{_percentile(ts, 0.95):.0f}/{_percentile(ts, 0.99):.0f} ms"
        )
    return end, report


def _py_spy(pid: int, seconds: int, out: Path) -> subprocess.Popen | None:
    spy = shutil.which("py-spy", path=str(BIN)) or shutil.which("py-spy")
    if spy is None:
        return None
    return subprocess.Popen(
        [spy, "record", "--pid", str(pid), "--duration", str(seconds), "--rate", "50",
         "--format", "raw", "--output", str(out), "--nonblocking", "--gil"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


# py-spy names a frame "function (path:line)", the path relative to its sys.path entry.
AREAS = (
    ("templates (django.template, partials)", ("(django/template", "(template_partials")),
    ("forms (django.forms)", ("(django/forms",)),
    ("psycopg", ("(psycopg",)),
    ("ORM (django.db)", ("(django/db",)),
    ("Chronique's code", ("(characters/", "(campaigns/", "(rules/", "(config/")),
    ("REST framework", ("(rest_framework",)),
    ("Redis (cache, channels)", ("(redis", "(channels_redis", "(django/core/cache")),
    ("i18n (django.utils.translation)", ("(django/utils/translation",)),
    ("middleware and handlers", ("(django/core/handlers", "(django/middleware", "(csp/",
                                 "(django/contrib/sessions", "(django/contrib/auth/middleware",
                                 "(django/contrib/messages", "(whitenoise", "(axes",
                                 "(django_htmx")),
    ("server (gunicorn, uvicorn, asyncio, asgiref)",
     ("(gunicorn", "(uvicorn", "(asyncio", "(asgiref", "(selectors")),
)  # fmt: skip
_VIEW = re.compile(r"^(\w+) \(((?:characters|campaigns|rules|config)/[\w/]*(?:views|api)\.py)")


def _where_the_time_goes(raw: Path) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """py-spy's collapsed stacks, each sample given to the innermost known area, and to the
    view it serves (the outermost Chronique view or API function on its stack). Sampled
    with `--gil`: only the thread running Python at that instant, so a thread waiting for
    PostgreSQL or Redis (the GIL released) is not counted as working."""
    samples: Counter[str] = Counter()
    views: Counter[str] = Counter()
    for line in raw.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        frames = stack.split(";")
        area = "other"
        for frame in reversed(frames):
            found = next((name for name, keys in AREAS if any(k in frame for k in keys)), None)
            if found:
                area = found
                break
        samples[area] += int(n)
        view = next((m for m in map(_VIEW.match, frames) if m), None)
        views[f"{view[2]} {view[1]}" if view else "outside a view"] += int(n)
    total = sum(samples.values()) or 1
    return (
        [(area, n / total) for area, n in samples.most_common()],
        [(view, n / total) for view, n in views.most_common(10)],
    )


def _queries_per_page(world: dict) -> list[str]:
    player, table = world["players"][0], world["tables"][0]
    pages = {
        "dashboard": (player["session"], world["urls"]["dashboard"]),
        "KOLAPS unit (30 characters)": (player["session"], player["unit"]),
        "KOLAPS print (30 sheets)": (player["session"], player["print"]),
        "KOLAPS units and characters": (player["session"], world["urls"]["units"]),
        "campaign list": (player["session"], world["urls"]["campaigns"]),
        "campaign page": (player["session"], player["campaigns"][0]),
        "chapter page": (player["session"], player["chapters"][0]),
        "table page": (table["session"], table["page"]),
    }
    lines = []
    for name, (session, url) in pages.items():
        client = Client()
        client.cookies["sessionid"] = session
        client.get(url)  # warm: sessions and players cached, templates compiled
        times = []
        for _ in range(5):
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                assert client.get(url).status_code == 200, url
                times.append(time.perf_counter() - start)
        spent = sorted(times)[2]
        sql = sum(float(q["time"]) for q in queries.captured_queries)
        lines.append(
            f"  {name}: {len(queries)} queries, median {spent * 1000:.1f} ms through the "
            f"test client, {sql / times[-1]:.0%} of it in SQL"
        )
    return lines


def test_load_against_the_deployed_server(server):
    base, ws_base, master, ws, out = server
    world = _world()
    world_file = out / "world.json"
    world_file.write_text(json.dumps(world))
    workers = _workers(master)
    _warm(base, world)
    print(f"\nserver: gunicorn, {len(workers)} WSGI gthread workers x {THREADS} threads, "
          f"and daphne (ASGI, WebSockets) on {CORES} cores, DEBUG off, PostgreSQL, Redis; "
          f"locust (FastHttpUser) {SECONDS} s per level")  # fmt: skip
    server_pids = [master.pid, *workers, ws.pid]
    access_log = out / "access.log"
    offset = access_log.stat().st_size if access_log.exists() else 0
    for users in LEVELS:
        spy = None
        if users == LEVELS[-1]:
            spy = _py_spy(workers[0], max(SECONDS - 10, 5), out / "py-spy.txt")
        cpu_before, busy_before = _cpu_seconds(server_pids), _machine_busy_seconds()
        locust_before, started = _children_cpu_seconds(), time.monotonic()
        load_before = os.getloadavg()[0]
        rows = _locust(base, ws_base, world_file, users, out)
        wall = time.monotonic() - started
        cpu = _cpu_seconds(server_pids) - cpu_before
        locust_cpu = _children_cpu_seconds() - locust_before
        rest = _machine_busy_seconds() - busy_before - cpu - locust_cpu
        total = rows.pop("Aggregated")
        requests = int(total["Request Count"])
        rate = float(total["Requests/s"])
        print(
            f"\n{users} users: {requests} requests, {rate:.0f} req/s = {rate / CORES:.0f} req/s "
            f"per core given, {requests / cpu:.0f} per CPU-second of the server; "
            f"failures {total['Failure Count']}; p50/p95/p99 "
            f"{total['50%']}/{total['95%']}/{total['99%']} ms\n"
            f"  cores used: server {cpu / wall:.2f} ({cpu * 1000 / requests:.1f} ms of CPU a "
            f"request), locust {locust_cpu / wall:.2f}, the rest of the machine (PostgreSQL, "
            f"Redis, other work) {rest / wall:.2f}; load average {load_before:.1f} before, "
            f"{os.getloadavg()[0]:.1f} after"
        )
        print("\n".join(_page_lines(rows)))
        for failure in total["failures"][:5]:
            print(f"  failure: {failure}")
        if access_log.exists():
            offset, report = _server_times(access_log, offset)
            print("\n".join(report))
        if spy is not None:
            spy.wait(timeout=SECONDS + 30)
            if (out / "py-spy.txt").exists():
                areas, views = _where_the_time_goes(out / "py-spy.txt")
                print(f"\nwhere a worker's CPU time goes (py-spy, {users} users), by module:")
                for area, share in areas:
                    print(f"  {area}: {share:.0%}")
                print("by view (its middleware included):")
                for view, share in views:
                    print(f"  {view}: {share:.0%}")
    print("\neach page alone (one warm request at a time, through the test client):")
    print("\n".join(_queries_per_page(world)))
    assert requests > 0


# The login's request name in locustfile.py; every other request is a page (or its API).
LOGIN = "login (form)"


def _figures(times: list[float]) -> str:
    return (
        f"{len(times)} req, p50/p95/p99 {_percentile(times, 0.5):.0f}/"
        f"{_percentile(times, 0.95):.0f}/{_percentile(times, 0.99):.0f} ms"
    )


def _storm_lines(requests_file: Path, rows: dict[str, dict]) -> list[str]:
    """The login's figures and the pages', in all, while the visitors log in and after the
    last login, from locust's record of each request (start, name, milliseconds), with the
    targets' verdicts."""
    requests = []
    for line in requests_file.read_text().splitlines():
        start, name, millis = line.split("\t")
        requests.append((float(start), name, float(millis)))
    logins = [millis for _, name, millis in requests if name == LOGIN]
    pages = [(start, millis) for start, name, millis in requests if name != LOGIN]
    first = min(start for start, _, _ in requests)
    last_login = max(
        (start + millis / 1000 for start, name, millis in requests if name == LOGIN),
        default=first,
    )
    during = [millis for start, millis in pages if start < last_login]
    after = [millis for start, millis in pages if start >= last_login]
    login_p95 = _percentile(logins, 0.95)
    pages_p95 = _percentile([millis for _, millis in pages], 0.95)
    over = [name for name, row in rows.items() if name != LOGIN and int(row["95%"]) >= 150]
    return [
        f"  login (the form's POST, its password checked): {_figures(logins)}",
        f"    target login p95 < 1 s: {'met' if logins and login_p95 < 1000 else 'missed'}",
        f"  pages (every other request): {_figures([millis for _, millis in pages])}",
        f"    while the visitors log in (the first {last_login - first:.1f} s): {_figures(during)}",
        f"    after the last login: {_figures(after)}",
        f"    target pages' p95 < 150 ms: {'met' if pages_p95 < 150 else 'missed'} in all "
        f"({pages_p95:.0f} ms); page by page: "
        + (f"missed ({len(over)} over: {', '.join(sorted(over))})" if over else "met"),
    ]


def test_login_storm(server):
    """The issue's storm: at the last level of LOAD_USERS (200 by default), one anonymous
    visitor for three who sign in, and each of those logs in once through the login form
    (the page for its CSRF token, then the POST) as it arrives, all arriving within
    STORM_SECONDS; then they browse as in the load test. The logins hash with the
    production hasher (config/hashers.py), as the server is deployed."""
    base, ws_base, master, ws, out = server
    world = _world()
    world_file = out / "world.json"
    world_file.write_text(json.dumps(world))
    workers = _workers(master)
    _warm(base, world)
    users = LEVELS[-1]
    server_pids = [master.pid, *workers, ws.pid]
    access_log = out / "access.log"
    offset = access_log.stat().st_size if access_log.exists() else 0
    cpu_before, started = _cpu_seconds(server_pids), time.monotonic()
    load_before = os.getloadavg()[0]
    requests_file = out / "requests.tsv"
    rows = _locust(base, ws_base, world_file, users, out, storm=requests_file)
    wall = time.monotonic() - started
    cpu = _cpu_seconds(server_pids) - cpu_before
    total = rows.pop("Aggregated")
    print(
        f"\nlogin storm: gunicorn, {len(workers)} WSGI gthread workers x {THREADS} threads "
        f"on {CORES} cores, DEBUG off, PostgreSQL, Redis, PASSWORD_HASHES_AT_ONCE "
        f"{settings.PASSWORD_HASHES_AT_ONCE} a worker; {users} users (1 anonymous : 3 signed "
        f"in, each logging in through the form as it arrives), all arriving within the first "
        f"{STORM_SECONDS} s, {SECONDS} s in all\n"
        f"  {total['Request Count']} requests, {float(total['Requests/s']):.0f} req/s, failures "
        f"{total['Failure Count']}; server {cpu / wall:.2f} cores; load average "
        f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    print("\n".join(_storm_lines(requests_file, rows)))
    print("\n".join(_page_lines({k: v for k, v in rows.items() if k != LOGIN})))
    for failure in total["failures"][:5]:
        print(f"  failure: {failure}")
    if access_log.exists():
        print("\n".join(_server_times(access_log, offset)[1]))
    assert int(rows[LOGIN]["Request Count"]) > 0
