"""The live table's page alone: phones poll it, and a table played all evening
holds a long log. Its organiser's page is measured through the test client after 0, 100 and
300 wounds applied and undone through the API (as the load test's phones do), and printed as
medians and as ratios to the fresh table's page, measured in one run: the page's cost should
not grow with its log (it draws the last versions' lines). Its queries stay the same.

Each size is measured twice, taking turns request by request: as a phone polling an
unchanged encounter sees it (the page kept as sent, `TABLE_PAGE_CACHE_SECONDS`), and rendered
afresh as after every change (`TABLE_PAGE_CACHE_SECONDS=0`), whose ratio is printed. The
actions and undos that grow the log print their own CPU time (the API's writes).

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
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
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
# (getattr: the same bench runs on a tree before the page was kept, for an A/B.)
KEPT = getattr(settings, "TABLE_PAGE_CACHE_SECONDS", 0) or 3600


def _median_ms(client: Client, url: str, **headers) -> tuple[float, float, float, float]:
    """The medians of the page kept and rendered afresh, the two taking turns: wall clock,
    then this process's CPU time (which other work on a shared machine moves less)."""
    kept, fresh, kept_cpu, fresh_cpu = [], [], [], []
    for _ in range(ROUNDS):
        for seconds, times, cpu in ((KEPT, kept, kept_cpu), (0, fresh, fresh_cpu)):
            with override_settings(TABLE_PAGE_CACHE_SECONDS=seconds):
                start, start_cpu = time.perf_counter(), time.process_time()
                assert client.get(url, headers=headers).status_code == 200
                cpu.append(time.process_time() - start_cpu)
                times.append(time.perf_counter() - start)
    return tuple(statistics.median(t) * 1000 for t in (kept, fresh, kept_cpu, fresh_cpu))


@override_settings(TABLE_PAGE_CACHE_SECONDS=0)
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


@override_settings(CELERY_BROKER_URL="")
def test_bench_the_table_page_as_its_log_grows():
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
    rows, done, writes = [], 0, {"act": [], "undo": []}
    for pairs in PAIRS:
        while done < pairs:
            body = {"kind": "wound", "target": targets[done % len(targets)], "wound": "superficial"}
            for name, url, data in (("act", act, body), ("undo", undo, {})):
                start = time.process_time()
                assert api.post(url, data, content_type="application/json").status_code == 200
                writes[name].append(time.process_time() - start)
            done += 1
        for _ in range(5):  # warm: templates compiled, session and player cached
            client.get(page)
        whole, whole_fresh, whole_cpu, whole_fresh_cpu = _median_ms(client, page)
        state, state_fresh, *_cpu = _median_ms(
            client, page, HX_Request="true", HX_Target="table-state"
        )
        with CaptureQueriesContext(connection) as queries:
            size = len(client.get(page).content)
        with (
            override_settings(TABLE_PAGE_CACHE_SECONDS=0),
            CaptureQueriesContext(connection) as fresh_queries,
        ):
            client.get(page)
        rows.append(
            {
                "pairs": pairs, "whole": whole, "state": state, "count": len(queries),
                "size": size, "whole_fresh": whole_fresh, "state_fresh": state_fresh,
                "fresh_count": len(fresh_queries), "whole_cpu": whole_cpu,
                "whole_fresh_cpu": whole_fresh_cpu,
            }
        )  # fmt: skip
        if os.environ.get("PROFILE"):
            _profile(client, page, pairs)
    print(f"\nthe table page alone, {ROUNDS} GETs each (load average {os.getloadavg()[0]:.1f}):")
    first = rows[0]["whole_fresh"]
    for row in rows:
        print(
            f"  after {row['pairs']} actions and their undos, rendered afresh (after a change): "
            f"median {row['whole_fresh']:.1f} ms ({row['whole_fresh'] / first:.2f}x the first; "
            f"CPU {row['whole_fresh_cpu']:.2f} ms), the state partial {row['state_fresh']:.1f} "
            f"ms, {row['fresh_count']} queries, {row['size'] // 1024} KiB\n"
            f"    shown again unchanged (kept): {row['whole']:.1f} ms "
            f"({row['whole'] / row['whole_fresh']:.2f}x afresh; CPU {row['whole_cpu']:.2f} ms, "
            f"{row['whole_cpu'] / row['whole_fresh_cpu']:.2f}x), the state partial "
            f"{row['state']:.1f} ms ({row['state'] / row['state_fresh']:.2f}x), "
            f"{row['count']} queries"
        )
    if writes["act"]:
        act_cpu, undo_cpu = (statistics.median(writes[n]) * 1000 for n in ("act", "undo"))
        print(
            f"  the writes that grew the log, through the API: an action {act_cpu:.2f} ms of CPU, "
            f"its undo {undo_cpu:.2f} ms (medians of {len(writes['act'])})"
        )
    assert len({row["count"] for row in rows}) == 1
    assert len({row["fresh_count"] for row in rows}) == 1
