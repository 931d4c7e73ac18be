"""The live encounter under load, against real ASGI servers (2 daphne processes) on
PostgreSQL with the Redis channel layer, as compose serves it; each device watches through
one process and acts through another, so every change crosses processes through Redis.

1. Latency from one device's action to another device's view: 10 encounters with 6 devices
   each, every device acting at once (60 actions through the API at the same moment, 5
   rounds); each other device of the encounter hears the new version on its WebSocket.
   Median and p95 of (heard - sent), over every (action, other device) pair. Target: p95
   under 1 s. Also the same with one device acting at a time (a quiet table).
2. Throughput of the action endpoint as a ratio of a minimal JSON view (/healthz: one
   SELECT 1) on the same server, with the same concurrent clients, acting on the 10
   encounters in turn (and, printed beside, all on one encounter, whose lock serves them one
   at a time). Target: at least 0.3x. Three rounds of the three measures, each ratio
   within its round (the load of a shared machine moves between measures); their median.
"""

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from rest_framework.authtoken.models import Token

from rules.table.models import Combatant
from tests.conftest import _database_url_for
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

websockets = pytest.importorskip("websockets")
pytestmark = pytest.mark.django_db(transaction=True)
BASE_DIR = Path(__file__).resolve().parent.parent.parent
ENCOUNTERS, DEVICES, ACTIONS_EACH = 10, 6, 5
# Server processes (BENCH_TABLE_SERVERS): on the 2-core machine 2 did better than 3 or 4.
SERVERS = int(os.environ.get("BENCH_TABLE_SERVERS", "2"))
THROUGHPUT_CLIENTS, THROUGHPUT_REQUESTS, THROUGHPUT_ROUNDS = 8, 200, 3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _redis_url() -> str:
    broker = settings.CELERY_BROKER_URL or "redis://127.0.0.1:6379/14"
    return broker if broker.startswith("redis://") else "redis://127.0.0.1:6379/14"


@pytest.fixture
def asgi_servers(tmp_path):
    """SERVERS daphne processes on the test database, sharing the Redis channel layer: a
    device may watch through one process and act through another."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "CELERY_"))},
        "DATABASE_URL": _database_url_for(connection.settings_dict["NAME"]),
        "CHANNEL_REDIS_URL": _redis_url(),
        "STATIC_ROOT": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "WARNING",
        # Every simulated visitor logs in from 127.0.0.1.
        "LOGIN_ATTEMPTS_PER_MINUTE": "1000000",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    log = open(tmp_path / "daphne.log", "w")  # noqa: SIM115 - closed in the teardown
    servers, bases = [], []
    for _ in range(SERVERS):
        port = _free_port()
        servers.append(subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "config.asgi:application"],
            cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
        ))  # fmt: skip
        bases.append(f"127.0.0.1:{port}")
    deadline = time.monotonic() + 60
    for base in bases:
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://{base}/healthz", timeout=2)
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.2)
    PIDS[:] = [server.pid for server in servers]
    yield bases
    for server in servers:
        server.terminate()
        server.wait(timeout=10)
    log.close()
    errors = [
        line for line in (tmp_path / "daphne.log").read_text().splitlines() if "Error" in line
    ]
    print("\n".join(errors[-20:]))


PIDS: list[int] = []


def _cpu() -> float:
    """The CPU seconds the server processes have used (Linux's /proc; 0 elsewhere)."""
    total = 0.0
    for pid in PIDS:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _post(base: str, token: str, path: str, body: dict) -> int:
    """An action through the API; the version it made."""
    request = urllib.request.Request(
        f"http://{base}{path}",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()
        return int(response.headers["X-Encounter-Version"])


def _world():
    """10 encounters; each device is a player of the encounter's 2 sides or its organiser,
    acting with the organiser's API token (an organiser acts for everyone)."""
    games = []
    for index in range(ENCOUNTERS):
        organiser = PlayerFactory(username=f"bench-orga-{index}")
        encounter = pick_up_encounter(organiser)
        targets = list(Combatant.objects.filter(encounter=encounter).values_list("pk", flat=True))
        token = Token.objects.create(user=organiser).key
        games.append((encounter.pk, encounter.spectator_token, token, targets))
    return games


async def _latencies(bases: list[str], games) -> list[float]:
    heard: dict[tuple[int, int], dict[int, float]] = {}
    sent: dict[tuple[int, int], tuple[int, float]] = {}
    pool = ThreadPoolExecutor(max_workers=ENCOUNTERS * DEVICES)
    loop = asyncio.get_running_loop()

    async def device(game_index: int, device_index: int, ready, done, round_start):
        pk, spectator, token, targets = games[game_index]
        number = game_index * DEVICES + device_index
        watch, act = bases[number % SERVERS], bases[(number + 1) % SERVERS]
        url = f"ws://{watch}/ws/table/watch/{spectator}/"
        async with websockets.connect(url, origin="http://localhost") as socket_:
            await ready.wait()

            async def listen():
                async for message in socket_:
                    version = json.loads(message)["version"]
                    heard.setdefault((game_index, version), {})[device_index] = time.perf_counter()

            listener = asyncio.create_task(listen())
            for _ in range(ACTIONS_EACH):
                # Every device of every encounter acts at the same moment, round after round.
                await round_start.wait()
                body = {
                    "kind": "wound",
                    "target": targets[device_index % len(targets)],
                    "wound": "superficial",
                }
                started = time.perf_counter()
                version = await loop.run_in_executor(
                    pool, _post, act, token, f"/api/v1/table/{pk}/act/", body
                )
                sent[(game_index, version)] = (device_index, started)
            await done.wait()  # every device has acted: nobody stops listening early
            await asyncio.sleep(5)  # the last changes reach everyone
            listener.cancel()

    everybody = ENCOUNTERS * DEVICES
    ready, done = asyncio.Barrier(everybody), asyncio.Barrier(everybody)
    round_start = asyncio.Barrier(everybody)
    everyone = [
        device(g, d, ready, done, round_start) for g in range(ENCOUNTERS) for d in range(DEVICES)
    ]
    await asyncio.gather(*everyone)
    pool.shutdown()
    latencies = []
    for key, (actor, started) in sent.items():
        for other, at in heard.get(key, {}).items():
            if other != actor:
                latencies.append(at - started)
    missing = len(sent) * (DEVICES - 1) - len(latencies)
    assert missing == 0, f"{missing} (action, device) pairs never heard their change"
    return latencies


def _throughput(bases: list[str], method: str, requests: list[tuple[str, str, dict | None]]):
    """Requests per second, the clients taking the (path, token, body) in turn."""

    def one(index):
        path, token, body = requests[index % len(requests)]
        request = urllib.request.Request(
            f"http://{bases[index % len(bases)]}{path}",
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
            method=method,
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()

    with ThreadPoolExecutor(max_workers=THROUGHPUT_CLIENTS) as pool:
        list(pool.map(one, range(20)))  # warm-up
        started = time.perf_counter()
        list(pool.map(one, range(THROUGHPUT_REQUESTS)))
        return THROUGHPUT_REQUESTS / (time.perf_counter() - started)


async def _quiet(bases: list[str], game) -> list[float]:
    """One device acts at a time; the 5 others listen (through the other process)."""
    pk, spectator, token, targets = game
    loop = asyncio.get_running_loop()
    latencies: list[float] = []
    sockets = [
        await websockets.connect(
            f"ws://{bases[i % SERVERS]}/ws/table/watch/{spectator}/", origin="http://localhost"
        )
        for i in range(1, DEVICES)
    ]
    try:
        for _ in range(20):
            body = {"kind": "wound", "target": targets[0], "wound": "superficial"}
            started = time.perf_counter()
            version = await loop.run_in_executor(
                None, _post, bases[0], token, f"/api/v1/table/{pk}/act/", body
            )
            for socket_ in sockets:
                while json.loads(await socket_.recv())["version"] < version:
                    pass
                latencies.append(time.perf_counter() - started)
    finally:
        for socket_ in sockets:
            await socket_.close()
    return latencies


def test_bench_live_encounter_latency_and_action_throughput(asgi_servers):
    games = _world()
    quiet = sorted(asyncio.run(_quiet(asgi_servers, games[-1])))
    quiet_median, quiet_p95 = statistics.median(quiet), quiet[int(len(quiet) * 0.95) - 1]
    print(
        f"\nquiet table (one action at a time, 5 devices): median "
        f"{quiet_median * 1000:.0f} ms, p95 {quiet_p95 * 1000:.0f} ms"
    )
    cpu_before = _cpu()
    latencies = sorted(asyncio.run(_latencies(asgi_servers, games)))
    server_cpu = _cpu() - cpu_before
    median = statistics.median(latencies)
    p95 = latencies[int(len(latencies) * 0.95) - 1]
    print(
        f"\nlive encounter: {SERVERS} daphne processes, "
        f"{ENCOUNTERS} encounters x {DEVICES} devices, "
        f"{ENCOUNTERS * DEVICES * ACTIONS_EACH} actions, {len(latencies)} deliveries"
    )
    print(f"action -> other device: median {median * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms")
    actions = ENCOUNTERS * DEVICES * ACTIONS_EACH
    print(
        f"server CPU during the burst: {server_cpu:.1f} s, "
        f"{server_cpu / actions * 1000:.1f} ms per action with its {DEVICES - 1} deliveries"
    )

    def act(game) -> tuple[str, str, dict]:
        pk, _spectator, token, targets = game
        body = {"kind": "wound", "target": targets[0], "wound": "superficial"}
        return f"/api/v1/table/{pk}/act/", token, body

    # Rounds of the three, each ratio taken within its round: on a shared machine the load
    # moves between one measure and the next, and a ratio of two moments measures that.
    ratios, one_ratios = [], []
    for round_ in range(1, THROUGHPUT_ROUNDS + 1):
        minimal = _throughput(asgi_servers, "GET", [("/healthz", games[0][2], None)])
        # Every client on the same encounter: its lock serves them one after the other.
        one_table = _throughput(asgi_servers, "POST", [act(games[0])])
        # The clients on the 10 encounters in turn: a server with 10 tables being played.
        action = _throughput(asgi_servers, "POST", [act(game) for game in games])
        ratios.append(action / minimal)
        one_ratios.append(one_table / minimal)
        print(
            f"round {round_}: minimal JSON view: {minimal:.0f} req/s; action endpoint: "
            f"{action:.0f} req/s over {ENCOUNTERS} encounters ({action / minimal:.2f}x), "
            f"{one_table:.0f} req/s all on one encounter ({one_table / minimal:.2f}x)"
        )
    ratio, one_ratio = statistics.median(ratios), statistics.median(one_ratios)
    print(
        f"action endpoint: {ratio:.2f}x the minimal JSON view's rate "
        f"({one_ratio:.2f}x all on one encounter), the median of {THROUGHPUT_ROUNDS} rounds"
    )
    # The targets, reported rather than asserted: on a shared machine the numbers
    # measure its load as much as the code (docs/table.md keeps the figures).
    print(f"target p95 < 1 s: {'met' if p95 < 1.0 else 'MISSED'}")
    print(f"target ratio >= 0.3x: {'met' if ratio >= 0.3 else 'MISSED'}")
    assert latencies and action > 0
