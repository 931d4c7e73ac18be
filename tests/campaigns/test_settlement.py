"""The post-chapter settlement (RULES-NOTES O6) as a service: preview, apply once,
reopen and settle again."""

import pytest
from django.db.models import Q
from django.test import TestCase
from django.utils import translation

from campaigns.chapters.services import encounter_event_record
from campaigns.models import (
    CampaignEvent,
    ChapterSettlement,
    CharacterStatistics,
    SettlementEntry,
    SettlementStatus,
)
from campaigns.settlement.apply import ApplyResult, settlement_apply
from campaigns.settlement.plan import settlement_plan
from campaigns.settlement.services import death_choice_make, settlement_reopen, settlement_request
from campaigns.statistics.services import character_history, leaderboard, statistics_recompute
from characters.models import Profile, ProfileEvent, ProfileStatus, Trauma
from characters.permissions import Refusal
from tests.settlement_fixtures import closed_chapter, of_the_dead_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


@pytest.fixture
def table():
    organiser, campaign, players = of_the_dead_table(players=3)
    chapter = closed_chapter(organiser, campaign, players)
    return organiser, campaign, players, chapter


def settle(organiser, chapter):
    """Confirm as the organiser; the task, sent on commit, runs in-process."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        settlement_request(actor=organiser, chapter=chapter)


def world(chapter):
    """Everything the settlement may change, as plain values."""
    profiles = Profile.objects.filter(player__in=chapter.outcomes.values("player")).order_by("pk")
    return (
        [(p.pk, p.status, p.survival_points, p.life_markers, p.moral) for p in profiles],
        sorted(Trauma.objects.values_list("pk", "active", "permanence")),
        sorted(
            SettlementEntry.objects.filter(reverted_at__isnull=True).values_list(
                "chapter_id", "player_id", "survival_points", "kills_total", "traumas_healed"
            )
        ),
        sorted(
            CharacterStatistics.objects.values_list(
                "player_id", "campaign_id", "chapters_played", "reputation", "survival_points"
            ),
            key=repr,
        ),
    )


def test_it_previews_every_change_without_writing_anything(table):
    """O6: "on victory a character's temporary traumas heal, on defeat they become
    permanent ... +1 for surviving a chapter, +1 more for a victory"."""
    _organiser, _campaign, _players, chapter = table
    before = world(chapter)
    plan = settlement_plan(chapter)
    assert world(chapter) == before
    winner, loser, dead = plan.participants
    assert [c.fate for c in winner.trauma_changes] == ["heal"]
    assert (winner.sheet_before.life_markers, winner.sheet_after.life_markers) == (4, 6)
    assert [c.fate for c in loser.trauma_changes] == ["permanent"]
    assert loser.sheet_after.life_markers == 4  # the effect stays for good
    assert (winner.survival_points, loser.survival_points, dead.survival_points) == (2, 1, 0)
    assert dead.death_choice_pending and dead.status_after == "dead"
    assert winner.kills == {**dict.fromkeys(winner.kills, 0), "zonard": 1, "mastard": 1}
    assert winner.damage_dealt is None  # not played in Chronique


def test_it_applies_the_settlement_once(table, django_capture_on_commit_callbacks):
    organiser, _campaign, players, chapter = table
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        settlement_request(actor=organiser, chapter=chapter)
    # The task is sent on commit (run in-process here); the notification follows its own.
    assert len([c for c in callbacks if "chapter_settle" in repr(c)]) == 1
    chapter.refresh_from_db()
    assert chapter.settled_at is not None
    assert ChapterSettlement.objects.get(chapter=chapter).status == SettlementStatus.DONE
    winner, loser, dead = (Profile.objects.get(player=p) for p in players)
    assert winner.survival_points == 2 and winner.life_markers == 6
    assert loser.survival_points == 1 and loser.life_markers == 4
    assert dead.status == ProfileStatus.DEAD and dead.survival_points == 0
    assert Trauma.objects.get(profile=winner).active is False
    assert Trauma.objects.get(profile=loser).permanence == "permanent"
    assert SettlementEntry.objects.filter(chapter=chapter).count() == 3
    after = world(chapter)
    events = ProfileEvent.objects.count()

    assert settlement_apply(chapter_id=chapter.pk) == ApplyResult.ALREADY_SETTLED
    assert world(chapter) == after and ProfileEvent.objects.count() == events
    with pytest.raises(Refusal):
        settle(organiser, chapter)


def test_it_reopens_and_settles_again_to_the_same_result(table):
    organiser, _campaign, _players, chapter = table
    before = world(chapter)
    settle(organiser, chapter)
    settled = world(chapter)
    assert settled != before

    settlement_reopen(actor=organiser, chapter=chapter)
    chapter.refresh_from_db()
    assert chapter.settled_at is None and chapter.awaiting_settlement
    assert world(chapter) == before  # every effect reverted, statistics recomputed
    assert SettlementEntry.objects.filter(chapter=chapter, reverted_at__isnull=False).count() == 3
    assert CampaignEvent.objects.filter(verb="settlement_reopened").count() == 1

    settle(organiser, chapter)
    assert world(chapter) == settled


def test_it_lets_only_organisers_settle_or_reopen(table):
    organiser, _campaign, players, chapter = table
    with pytest.raises(Refusal) as refusal:
        settlement_request(actor=players[0], chapter=chapter)
    assert refusal.value.status == 403
    settle(organiser, chapter)
    with pytest.raises(Refusal):
        settlement_reopen(actor=players[0], chapter=chapter)


def test_it_counts_survival_points_from_the_ledger_over_chapters(table):
    organiser, campaign, players, chapter = table
    settle(organiser, chapter)
    second = closed_chapter(organiser, campaign, players[:2], title="La ferme", traumas=False)
    settle(organiser, second)
    winner = Profile.objects.get(player=players[0])
    assert winner.survival_points == 4  # 2 + 2: recomputed from the two ledger rows
    history = character_history(player_id=players[0].pk)
    assert [(h.chapter_title, h.survival_total, h.kills_running) for h in history] == [
        ("Le pont", 2, 2),
        ("La ferme", 4, 4),
    ]


def test_it_uses_the_campaigns_own_survival_points(table):
    _organiser, campaign, _players, chapter = table
    campaign.survival_points_survive, campaign.survival_points_victory = 2, 3
    campaign.save()
    chapter.refresh_from_db()
    plan = settlement_plan(chapter)
    assert [p.survival_points for p in plan.participants] == [5, 2, 0]


def test_it_lets_the_dead_player_choose_zombie_or_reincarnation(table):
    """O6: "A dead player character returns as a zombie or takes the reincarnation rule,
    the player's choice"."""
    organiser, _campaign, players, chapter = table
    with pytest.raises(Refusal):
        death_choice_make(actor=players[2], choice="zombie")  # not dead yet
    settle(organiser, chapter)
    with pytest.raises(Refusal) as refusal:
        death_choice_make(actor=players[2], choice="vampire")
    assert refusal.value.field == "choice"
    assert death_choice_make(actor=players[2], choice="zombie").status == "zombie"
    with pytest.raises(Refusal):
        death_choice_make(actor=players[2], choice="reincarnated")  # made once
    # Reopening the chapter undoes the death, and with it the choice.
    settlement_reopen(actor=organiser, chapter=chapter)
    assert Profile.objects.get(player=players[2]).status == ProfileStatus.ALIVE


def test_it_computes_statistics_and_reputation_with_its_breakdown(table):
    organiser, campaign, _players, chapter = table
    settle(organiser, chapter)
    rows = leaderboard(campaign_id=campaign.pk)
    assert [(r.rank, r.username) for r in rows] == [(1, "p-0"), (2, "p-1"), (3, "p-2")]
    first = rows[0]
    assert (first.chapters_played, first.chapters_won, first.kills_total) == (1, 1, 2)
    # 1 played + 2 survived + 3 won + 2 kills + 0 permanent - 0 deaths
    assert first.reputation == first.breakdown.total == 8
    # 1 played + 2 survived + 2 kills + 1 trauma made permanent
    assert rows[1].reputation == 6
    dead = rows[2]
    assert dead.deaths == 1 and dead.reputation == 1 + 3 + 3 - 3  # played, won, 3 kills, died
    overall = leaderboard()
    assert {r.username: r.reputation for r in overall} == {r.username: r.reputation for r in rows}
    # A full rebuild gives the same rows as the scoped one the settlement ran.
    rows = CharacterStatistics.objects.values_list("player_id", "campaign_id", "reputation")
    before = sorted(rows, key=repr)
    statistics_recompute()
    assert sorted(rows.all(), key=repr) == before


def test_the_overall_standing_sums_every_campaign_a_player_played(table):
    """Overall figures are not stored: the leaderboard sums a player's campaign rows and
    recomputes the reputation from the sums (1 played + 2 survived + 3 won + 1 per kill
    + 1 per trauma made permanent - 3 per death)."""
    organiser, campaign, players, chapter = table
    settle(organiser, chapter)
    from campaigns.services import campaign_add_participant, campaign_create

    second = campaign_create(organiser=organiser, name="Grenoble", system="of-the-dead")
    campaign_add_participant(actor=organiser, campaign=second, player=players[0])
    other = closed_chapter(organiser, second, players[:1], title="Le col", traumas=False)
    settle(organiser, other)
    rows = CharacterStatistics.objects.filter(player=players[0])
    assert sorted(rows.values_list("campaign_id", "chapters_played", "reputation")) == [
        (campaign.pk, 1, 8),  # won, 2 kills (zonard 1, mastard 1)
        (second.pk, 1, 8),
    ]
    overall = {r.username: r for r in leaderboard()}
    first = overall["p-0"]
    assert (first.rank, first.chapters_played, first.chapters_won, first.kills_total) == (
        1,
        2,
        2,
        4,
    )
    assert first.kills == {**dict.fromkeys(first.kills, 0), "zonard": 2, "mastard": 2}
    assert first.reputation == first.breakdown.total == 2 + 4 + 6 + 4 == 16
    # The others played one campaign: their overall standing is their campaign row.
    assert (overall["p-1"].rank, overall["p-1"].reputation) == (2, 6)
    assert (overall["p-2"].rank, overall["p-2"].reputation) == (3, 4)
    # A standing for one player sums that player's rows alone.
    [mine] = leaderboard(player_filter=Q(player=players[0]))
    assert (mine.chapters_played, mine.reputation) == (2, 16)


def test_a_rebuild_for_nobody_leaves_every_statistic_as_it_was(table):
    """A KOLAPS chapter records unit results only: its settlement rebuilds nobody's rows."""
    organiser, campaign, _players, chapter = table
    settle(organiser, chapter)
    rows = CharacterStatistics.objects.values_list("player_id", "campaign_id", "reputation")
    before = sorted(rows, key=repr)
    statistics_recompute(player_ids=[], campaign_id=campaign.pk)
    assert sorted(rows.all(), key=repr) == before and before


def test_it_sums_damage_and_rolls_of_encounters_played_in_chronique(table):
    organiser, campaign, players, _ = table
    chapter_players = players[:2]
    from campaigns.chapters.services import OutcomeInput, chapter_close, chapter_plan, chapter_start

    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Arène")
    chapter = chapter_start(actor=organiser, chapter=chapter)
    encounter_event_record(
        actor=players[0], chapter=chapter, player=players[0], target=players[1], damage=3
    )
    encounter_event_record(actor=organiser, chapter=chapter, player=players[0], damage=0)
    encounter_event_record(
        actor=players[1], chapter=chapter, player=players[1], target=players[0], damage=1
    )
    with pytest.raises(Refusal):
        encounter_event_record(actor=players[1], chapter=chapter, player=players[0], damage=1)
    chapter = chapter_close(
        actor=organiser,
        chapter=chapter,
        epilogue="Fin.",
        outcomes=[OutcomeInput(p.pk, "victory") for p in chapter_players],
    )
    plan = settlement_plan(chapter)
    assert [(p.damage_dealt, p.damage_taken, p.rolls) for p in plan.participants] == [
        (3, 1, 2),
        (1, 3, 1),
    ]
