"""The live table's page alone: phones poll it, and a table played all evening
holds a long log. Its organiser's page is measured through the test client after 0, 100 and
300 wounds applied and undone through the API (as the load test's phones do), and printed as
medians and as ratios to the fresh table's page, measured in one run: the page's cost should
not grow with its log (it draws the last versions' lines). Its queries stay the same.

`PROFILE=1` writes a cProfile of each size to `test-output/profile-table-<pairs>.txt`;
`TABLE_PAIRS=0,300` and `TABLE_ROUNDS=50` change the sizes and the rounds.
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

from rules.table.models import Combatant
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = pytest.mark.django_db
PAIRS = [int(n) for n in os.environ.get("TABLE_PAIRS", "0,100,300").split(",")]
ROUNDS = int(os.environ.get("TABLE_ROUNDS", "50"))
OUTPUT = Path(__file__).resolve().parent.parent.parent / "test-output"


def _median_ms(client: Client, url: str, **headers) -> float:
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        assert client.get(url, headers=headers).status_code == 200
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def _profile(client: Client, url: str, pairs: int) -> None:
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(20):
        client.get(url)
    profile.disable()
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
        whole = _median_ms(client, page)
        state = _median_ms(client, page, HX_Request="true", HX_Target="table-state")
        with CaptureQueriesContext(connection) as queries:
            size = len(client.get(page).content)
        rows.append((pairs, whole, state, len(queries), size))
        if os.environ.get("PROFILE"):
            _profile(client, page, pairs)
    print(f"\nthe table page alone, {ROUNDS} GETs each (load average {os.getloadavg()[0]:.1f}):")
    first = rows[0][1]
    for pairs, whole, state, count, size in rows:
        print(
            f"  after {pairs} actions and their undos: median {whole:.1f} ms "
            f"({whole / first:.2f}x the first), the state partial {state:.1f} ms, "
            f"{count} queries, {size // 1024} KiB"
        )
    assert len({count for _pairs, _whole, _state, count, _size in rows}) == 1
