"""Settlement cost, as figures measured in one run (never asserted against absolute times).

- Settling one chapter of 50 participants (each with a temporary trauma) in one
  transaction, against computing its preview alone.
- Rebuilding every statistic (per campaign, reputation included) for 10,000
  characters from 100,000 ledger rows (10 settled chapters each), against a single bare
  SQL aggregate over the same rows (`SELECT player_id, count(*), sum(...) GROUP BY`).
  Target: within 5x of the bare aggregate, well under a second. Overall figures are summed
  when read, so the overall leaderboard's read over those rows is printed too.
"""

import statistics
import time

import pytest
from django.contrib.auth.hashers import make_password
from django.db import connection
from django.utils import timezone

from campaigns.models import (
    Campaign,
    Chapter,
    ChapterStatus,
    CharacterStatistics,
    SettlementEntry,
)
from campaigns.settlement.apply import settlement_apply
from campaigns.settlement.plan import settlement_plan
from campaigns.statistics.services import LEADERBOARD_SIZE, leaderboard, statistics_recompute
from characters.models import Player
from characters.profiles.services import trauma_add
from tests.settlement_fixtures import closed_chapter, of_the_dead_table

pytestmark = pytest.mark.django_db

CHARACTERS = 10_000
CHAPTERS_EACH = 10
CAMPAIGNS = 100


def _median_seconds(action, rounds=5) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def test_bench_settling_a_chapter_of_50_participants():
    organiser, campaign, players = of_the_dead_table(players=50, prefix="bench")
    chapter = closed_chapter(organiser, campaign, players, traumas=False)
    for index, player in enumerate(players):
        trauma_add(actor=player, profile=player.otd_profile, name=f"Plaie {index}", kind="physical")
    chapter = Chapter.objects.select_related("campaign").get(pk=chapter.pk)
    preview = _median_seconds(lambda: settlement_plan(chapter))
    start = time.perf_counter()
    assert settlement_apply(chapter_id=chapter.pk) == "settled"
    apply = time.perf_counter() - start
    assert SettlementEntry.objects.filter(chapter=chapter).count() == 50
    print(
        f"\nsettling 50 participants: {apply * 1000:.0f} ms in this run, "
        f"{apply / preview:.1f}x the preview alone ({preview * 1000:.1f} ms)"
    )


def _fill_ledger() -> None:
    password = make_password(None)
    Player.objects.bulk_create(
        Player(username=f"c{i}", email=f"c{i}@example.test", password=password)
        for i in range(CHARACTERS)
    )
    organiser = Player.objects.get(username="c0")
    Campaign.objects.bulk_create(
        Campaign(name=f"Bench {i}", system="of-the-dead", organiser=organiser)
        for i in range(CAMPAIGNS)
    )
    campaigns = list(Campaign.objects.order_by("pk").values_list("pk", flat=True))
    now = timezone.now()
    Chapter.objects.bulk_create(
        Chapter(
            campaign_id=campaign,
            number=n + 1,
            title=f"C{n}",
            status=ChapterStatus.CLOSED,
            closed_at=now,
            settled_at=now,
        )
        for campaign in campaigns
        for n in range(CHAPTERS_EACH)
    )
    ledger = SettlementEntry._meta.db_table
    player = Player._meta.db_table
    chapter = Chapter._meta.db_table
    with connection.cursor() as cursor:
        # Each character plays the 10 chapters of one campaign (character i -> campaign
        # i mod 100), with results, deaths and kills spread by a hash of the ids.
        cursor.execute(
            f"""
            INSERT INTO {ledger} (chapter_id, campaign_id, player_id, result, died, survived,
                won, survival_points, kills_total, kills_zonard, kills_braillard,
                kills_vicelard, kills_soudard, kills_mastard, kills_charognard,
                traumas_gained, traumas_healed, traumas_permanent, damage_dealt,
                damage_taken, rolls, effects, settled_at)
            SELECT c.id, c.campaign_id, p.id,
                CASE WHEN (p.id + c.id) % 3 = 0 THEN 'defeat' ELSE 'victory' END,
                (p.id * c.id) % 7 = 0, (p.id * c.id) % 7 <> 0, (p.id + c.id) % 3 <> 0,
                CASE WHEN (p.id * c.id) % 7 = 0 THEN 0
                     WHEN (p.id + c.id) % 3 = 0 THEN 1 ELSE 2 END,
                (p.id + c.id) % 5 + (p.id % 2), (p.id + c.id) % 5, p.id % 2, 0, 0, 0, 0,
                (p.id + c.id) % 2, 0, 0, NULL, NULL, NULL, '[]', now()
            FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM {player}
                  WHERE username LIKE 'c%') p
            JOIN (SELECT id, campaign_id, dense_rank() OVER (ORDER BY campaign_id) - 1 AS k
                  FROM {chapter} WHERE title LIKE 'C%') c
              ON c.k = p.n % {CAMPAIGNS}
            """
        )
        cursor.execute(f"ANALYZE {ledger}")


def test_bench_recomputing_all_statistics_against_a_bare_aggregate():
    _fill_ledger()
    rows = SettlementEntry.objects.count()
    assert rows == CHARACTERS * CHAPTERS_EACH
    ledger = SettlementEntry._meta.db_table

    def bare():
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT player_id, count(*), sum(kills_total) FROM {ledger} "
                "WHERE reverted_at IS NULL GROUP BY player_id"
            )
            cursor.fetchall()

    statistics_recompute()  # warm-up: pages in cache, plans ready
    bare()
    full = _median_seconds(statistics_recompute)
    base = _median_seconds(bare)
    stats = CharacterStatistics.objects.count()
    assert stats == CHARACTERS  # one row per campaign played (overall is their sum, read)
    # Overall figures are summed when read: what the overall leaderboard costs instead.
    assert len(leaderboard()) == LEADERBOARD_SIZE
    overall = _median_seconds(leaderboard)
    print(
        f"\nrecomputing all statistics of {CHARACTERS} characters from {rows} ledger rows "
        f"({stats} rows written, reputation included): {full * 1000:.0f} ms, "
        f"{full / base:.1f}x a bare SQL aggregate over the same rows ({base * 1000:.0f} ms); "
        f"the overall leaderboard summing them when read: {overall * 1000:.0f} ms"
    )
