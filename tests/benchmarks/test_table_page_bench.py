"""The live table's page alone: phones poll it, and a table played all evening
holds a long log. Its organiser's page is measured through the test client after 0, 100 and
300 wounds applied and undone through the API (as the load test's phones do), and printed as
medians and as ratios to the fresh table's page, measured in one run: the page's cost should
not grow with its log (it draws the last versions' lines). Its queries stay the same.

Each size is measured twice, taking turns request by request: as a phone polling an
unchanged encounter sees it (the page kept as sent, `TABLE_PAGE_CACHE_SECONDS`), and rendered
afresh as after every change (`TABLE_PAGE_CACHE_SECONDS=0`), whose ratio is printed.

`PROFILE=1` writes a cProfile of each size, rendered afresh, to
`test-output/profile-table-<pairs>.txt`; `TABLE_PAIRS=0,300` and `TABLE_ROUNDS=50` change
the sizes and the rounds.
"""

import cProfile
import io
import os
import pstats
import statistics
import time
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authtoken.models import Token

from rules.table.models import Combatant
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = pytest.mark.django_db
PAIRS = [int(n) for n in os.environ.get("TABLE_PAIRS", "0,100,300").split(",")]
ROUNDS = int(os.environ.get("TABLE_ROUNDS", "50"))
OUTPUT = Path(__file__).resolve().parent.parent.parent / "test-output"
KEPT = django_settings.TABLE_PAGE_CACHE_SECONDS or 3600


def _median_ms(settings, client: Client, url: str, **headers) -> tuple[float, float]:
    """The medians of the page kept and rendered afresh, the two taking turns."""
    kept, fresh = [], []
    for _ in range(ROUNDS):
        for seconds, times in ((KEPT, kept), (0, fresh)):
            settings.TABLE_PAGE_CACHE_SECONDS = seconds
            start = time.perf_counter()
            assert client.get(url, headers=headers).status_code == 200
            times.append(time.perf_counter() - start)
    settings.TABLE_PAGE_CACHE_SECONDS = KEPT
    return statistics.median(kept) * 1000, statistics.median(fresh) * 1000


def _profile(settings, client: Client, url: str, pairs: int) -> None:
    settings.TABLE_PAGE_CACHE_SECONDS = 0
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(20):
        client.get(url)
    profile.disable()
    settings.TABLE_PAGE_CACHE_SECONDS = KEPT
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(80)
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / f"profile-table-{pairs}.txt").write_text(out.getvalue())


def test_bench_the_table_page_as_its_log_grows(settings):
    settings.CELERY_BROKER_URL = ""
    organiser = PlayerFactory(username="bench-table")
    encounter = pick_up_encounter(organiser)
    token = Token.objects.create(user=organiser).key
    targets = list(Combatant.objects.filter(encounter=encounter).values_list("pk", flat=True))
    api = Client(HTTP_AUTHORIZATION=f"Token {token}")
    act = reverse("api-table-act", args=[encounter.pk])
    undo = reverse("api-table-undo", args=[encounter.pk])
    page = reverse("table-encounter", args=[encounter.pk])
    client = Client()
    client.force_login(organiser)
    rows, done = [], 0
    for pairs in PAIRS:
        while done < pairs:
            body = {"kind": "wound", "target": targets[done % len(targets)], "wound": "superficial"}
            assert api.post(act, body, content_type="application/json").status_code == 200
            assert api.post(undo, {}, content_type="application/json").status_code == 200
            done += 1
        for _ in range(5):  # warm: templates compiled, session and player cached
            client.get(page)
        whole, whole_fresh = _median_ms(settings, client, page)
        state, state_fresh = _median_ms(
            settings, client, page, HX_Request="true", HX_Target="table-state"
        )
        with CaptureQueriesContext(connection) as queries:
            size = len(client.get(page).content)
        settings.TABLE_PAGE_CACHE_SECONDS = 0
        with CaptureQueriesContext(connection) as fresh_queries:
            client.get(page)
        settings.TABLE_PAGE_CACHE_SECONDS = KEPT
        rows.append(
            (pairs, whole, state, len(queries), size, whole_fresh, state_fresh, len(fresh_queries))
        )
        if os.environ.get("PROFILE"):
            _profile(settings, client, page, pairs)
    print(f"\nthe table page alone, {ROUNDS} GETs each (load average {os.getloadavg()[0]:.1f}):")
    first = rows[0][5]
    for pairs, whole, state, count, size, whole_fresh, state_fresh, fresh_count in rows:
        print(
            f"  after {pairs} actions and their undos, rendered afresh (after a change): median "
            f"{whole_fresh:.1f} ms ({whole_fresh / first:.2f}x the first), the state partial "
            f"{state_fresh:.1f} ms, {fresh_count} queries, {size // 1024} KiB\n"
            f"    shown again unchanged (kept): {whole:.1f} ms ({whole / whole_fresh:.2f}x "
            f"afresh), the state partial {state:.1f} ms ({state / state_fresh:.2f}x), "
            f"{count} queries"
        )
    assert len({row[3] for row in rows}) == 1 and len({row[7] for row in rows}) == 1
