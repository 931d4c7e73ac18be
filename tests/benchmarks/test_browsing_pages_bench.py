"""The pages a player browses in the load test (tests/benchmarks/locustfile.py, `Player`),
each alone through the test client, in the load test's world (`test_load._world`: the
player's unit of 30 characters, 8 campaigns of 12 players, 66 chapters in the first).

Under load a worker's CPU per request is what makes the tail, so each page is measured two
ways and printed as ratios to the minimal page (a sentence in the site layout) measured in
the same run: its median time, and the mean CPU time this process spent on it (the queries'
wait on PostgreSQL left out: on a shared machine the wall time mostly measures the others).
The pages take turns request by request, so the load of the machine weighs on each alike.
Queries are counted on the last request (warm: session and player cached). No absolute-time
assertion.

`BROWSING_ROUNDS` (200 by default) changes the rounds; `PROFILE=1` writes a cProfile of each
page to `test-output/profile-browsing-<page>.txt`. To compare two trees, run this file in
each (a git worktree of the older one) in turns.
"""

import cProfile
import io
import os
import pstats
import statistics
import time
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.benchmarks.test_load import _world

pytestmark = pytest.mark.django_db
ROUNDS = int(os.environ.get("BROWSING_ROUNDS", "200"))
OUTPUT = Path(__file__).resolve().parent.parent.parent / "test-output"


def _pages(world: dict) -> dict[str, str]:
    player = world["players"][0]
    return {
        "minimal page": reverse("password_reset_done"),
        "KOLAPS units and characters": world["urls"]["units"],
        "chapter page": player["chapters"][0],
        "campaign page": player["campaigns"][0],
        "dashboard": world["urls"]["dashboard"],
        "campaign list": world["urls"]["campaigns"],
        "KOLAPS unit (30 characters)": player["unit"],
    }


def _profile(client: Client, url: str, name: str) -> None:
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(100):
        client.get(url)
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(80)
    OUTPUT.mkdir(exist_ok=True)
    slug = name.split(" (")[0].replace(" ", "-").lower()
    (OUTPUT / f"profile-browsing-{slug}.txt").write_text(out.getvalue())


def test_bench_the_players_browsing_pages(settings):
    settings.CELERY_BROKER_URL = ""
    world = _world()
    pages = _pages(world)
    client = Client()
    client.cookies["sessionid"] = world["players"][0]["session"]
    for url in pages.values():  # warm: templates compiled, session and player cached
        for _ in range(10):
            assert client.get(url).status_code == 200, url
    wall: dict[str, list[float]] = {name: [] for name in pages}
    cpu: dict[str, list[float]] = {name: [] for name in pages}
    for _ in range(ROUNDS):
        for name, url in pages.items():
            started, spent = time.perf_counter(), time.process_time()
            client.get(url)
            cpu[name].append(time.process_time() - spent)
            wall[name].append(time.perf_counter() - started)
    queries = {}
    for name, url in pages.items():
        with CaptureQueriesContext(connection) as captured:
            client.get(url)
        queries[name] = len(captured)
    minimal_wall = statistics.median(wall["minimal page"])
    minimal_cpu = statistics.mean(cpu["minimal page"])
    print(f"\n{ROUNDS} rounds, load average {os.getloadavg()[0]:.1f}")
    for name in pages:
        page_wall, page_cpu = statistics.median(wall[name]), statistics.mean(cpu[name])
        print(
            f"{name}: {queries[name]} queries; median {page_wall * 1000:.2f} ms, "
            f"{minimal_wall / page_wall:.2f}x the minimal page; CPU {page_cpu * 1000:.2f} ms "
            f"a request, {minimal_cpu / page_cpu:.2f}x the minimal page's"
        )
    if os.environ.get("PROFILE"):
        for name, url in pages.items():
            _profile(client, url, name)
    assert all(times for times in wall.values())
