"""The organiser's chapter close, as ratios measured in one run on one process and database.

What the load bench's organiser does (tests/benchmarks/locustfile.py, `Organiser`), on an
Of the Dead campaign of 12 players with a profile each: open a chapter's close form, close
it through the API (a token, as a script would), then read the settlement's preview. Each
round takes a chapter of its own (a closed chapter is not closed again); the three requests
and the minimal page in the site layout ("check your e-mail") take turns, round by round,
so that the load of the machine weighs on each alike.

Printed for each: its median time and the median CPU time this process spent on it (the
database's own work aside: what a server process spends holding the GIL), each as a cost in
minimal pages (2.0x: as long as two minimal pages); then what does not depend on the
machine at all: its SQL queries (savepoints aside) and the Python function calls it makes
(counted by cProfile, once, warm).

`PROFILE=1 make bench PYTEST_ARGS=-k chapter_close` writes a cProfile of each request (CPU
time) to `test-output/profile-close-<request>.txt` (where the time goes).
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
from rest_framework.authtoken.models import Token

from campaigns.chapters.services import chapter_plan
from tests.settlement_fixtures import of_the_dead_table

pytestmark = pytest.mark.django_db
PLAYERS = 12
ROUNDS = int(os.environ.get("CLOSE_ROUNDS", "150"))
WARM_UP = 10
OUTPUT = Path(__file__).resolve().parent.parent.parent / "test-output"
MINIMAL = "minimal page"
STEPS = ("close form", "close (API)", "settlement preview")


def _request(client: Client, token: str, body: dict, name: str, chapter_id: int) -> int:
    """One request of the organiser's round (or the minimal page); its status."""
    if name == MINIMAL:
        return client.get(reverse("password_reset_done")).status_code
    if name == "close form":
        return client.get(reverse("chapter-close", args=[chapter_id])).status_code
    if name == "close (API)":
        return client.post(
            reverse("api-chapter-close", args=[chapter_id]),
            body,
            content_type="application/json",
            headers={"authorization": f"Token {token}"},
        ).status_code
    return client.get(reverse("chapter-settlement", args=[chapter_id])).status_code


def _counted(client, token, body, name, chapter_id) -> tuple[int, int]:
    """The request's SQL queries and Python function calls."""
    profile = cProfile.Profile()
    with CaptureQueriesContext(connection) as captured:
        profile.enable()
        _request(client, token, body, name, chapter_id)
        profile.disable()
    queries = len([q for q in captured if "SAVEPOINT" not in q["sql"]])
    return queries, pstats.Stats(profile).total_calls


def _profile(client, token, body, chapters) -> None:
    for name in STEPS:
        profile = cProfile.Profile(time.process_time)  # CPU: the machine's load aside
        for chapter_id in chapters:
            profile.enable()
            _request(client, token, body, name, chapter_id)
            profile.disable()
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats(os.environ.get("PROFILE_SORT", "cumulative")).print_stats(80)
        OUTPUT.mkdir(exist_ok=True)
        slug = name.split(" (")[0].replace(" ", "-")
        (OUTPUT / f"profile-close-{slug}.txt").write_text(out.getvalue())


def test_bench_the_chapter_close_against_a_minimal_page(settings):
    settings.CELERY_BROKER_URL = ""
    organiser, campaign, players = of_the_dead_table(players=PLAYERS, prefix="bench")
    profiled = 30 if os.environ.get("PROFILE") else 0
    chapters = [
        chapter_plan(actor=organiser, campaign=campaign, title=f"À clore {n}").pk
        for n in range(WARM_UP + 1 + ROUNDS + profiled)
    ]
    token = Token.objects.create(user=organiser).key
    outcomes = [{"player": p.pk, "result": "victory"} for p in players]
    body = {"epilogue": "Ils passent.", "outcomes": outcomes}
    client = Client()
    client.force_login(organiser)
    for chapter_id in chapters[:WARM_UP]:  # templates compiled, caches and connections warm
        for name in (MINIMAL, *STEPS):
            assert _request(client, token, body, name, chapter_id) == 200, name
    counted = {
        name: _counted(client, token, body, name, chapters[WARM_UP]) for name in (MINIMAL, *STEPS)
    }
    times: dict[str, list[float]] = {name: [] for name in (MINIMAL, *STEPS)}
    cpu_times: dict[str, list[float]] = {name: [] for name in times}
    for chapter_id in chapters[WARM_UP + 1 : WARM_UP + 1 + ROUNDS]:
        for name in times:
            start, cpu = time.perf_counter(), time.thread_time()
            status = _request(client, token, body, name, chapter_id)
            times[name].append(time.perf_counter() - start)
            cpu_times[name].append(time.thread_time() - cpu)
            assert status == 200, name
    wall = {name: statistics.median(spent) for name, spent in times.items()}
    cpu = {name: statistics.median(spent) for name, spent in cpu_times.items()}
    print(f"\norganiser's chapter close, {PLAYERS} players, medians of {ROUNDS} rounds:")
    for name in times:
        line = f"{name}: {wall[name] * 1000:.1f} ms, {cpu[name] * 1000:.1f} ms CPU"
        if name != MINIMAL:
            line += (
                f", {wall[name] / wall[MINIMAL]:.1f}x the minimal page"
                f" ({cpu[name] / cpu[MINIMAL]:.1f}x in CPU)"
            )
        queries, calls = counted[name]
        print(f"{line}; {queries} queries, {calls:,} function calls")
    if profiled:
        _profile(client, token, body, chapters[WARM_UP + 1 + ROUNDS :])
    assert all(median > 0 for median in wall.values())
