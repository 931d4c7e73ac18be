"""Campaigns of chapters: invitations, co-organisers, eligibility, votes, vocations, close."""

from datetime import UTC, datetime

import pytest
from django.http import Http404
from django.utils import translation

from campaigns.chapters.services import (
    OutcomeInput,
    chapter_close,
    chapter_eligibility,
    chapter_plan,
    chapter_update,
    vocation_choose,
)
from campaigns.chapters.signals import chapter_closed
from campaigns.models import (
    CampaignEvent,
    ChapterOutcome,
    ChapterStatus,
    Membership,
    VocationAssignment,
    VoteStatus,
)
from campaigns.services import (
    campaign_create,
    campaign_join,
    campaign_leave,
    co_organiser_add,
    co_organiser_remove,
    invitation_create,
    invitation_revoke,
)
from campaigns.votes.services import ballot_cast, ballots_cast, vote_close, vote_open
from characters.models import Vocation
from characters.permissions import Refusal
from characters.profiles.services import (
    profile_create,
    profile_set_status,
    profile_set_survival_points,
)
from rules.engine.systems.of_the_dead.votes import count_next_chapter, count_vocations
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


@pytest.fixture
def table():
    """An organiser, a campaign and two players who joined through the link."""
    organiser = PlayerFactory(username="orga")
    campaign = campaign_create(organiser=organiser, name="Lyon", system="of-the-dead")
    invitation = invitation_create(actor=organiser, campaign=campaign)
    alice, bruno = PlayerFactory(username="alice"), PlayerFactory(username="bruno")
    for player in (alice, bruno):
        campaign_join(player=player, token=invitation.token)
    return {
        "organiser": organiser,
        "campaign": campaign,
        "invitation": invitation,
        "alice": alice,
        "bruno": bruno,
    }


# --- campaigns, invitations, members -----------------------------------------------------------


def test_it_creates_campaigns_of_the_systems_it_knows_only():
    organiser = PlayerFactory()
    assert campaign_create(organiser=organiser, name="K", system="kolaps").system == "kolaps"
    with pytest.raises(Refusal) as refusal:
        campaign_create(organiser=organiser, name="R", system="chess")
    assert refusal.value.field == "system"


def test_it_lets_players_join_by_the_link_until_it_is_revoked(table):
    assert set(table["campaign"].memberships.values_list("player__username", flat=True)) == {
        "alice",
        "bruno",
    }
    with pytest.raises(Refusal, match="already take part"):
        campaign_join(player=table["alice"], token=table["invitation"].token)
    invitation_revoke(actor=table["organiser"], invitation=table["invitation"])
    with pytest.raises(Refusal) as refusal:
        campaign_join(player=PlayerFactory(), token=table["invitation"].token)
    assert refusal.value.status == 404
    assert table["campaign"].memberships.count() == 2


def test_it_lets_no_player_create_or_revoke_invitations(table):
    with pytest.raises(Refusal) as refusal:
        invitation_create(actor=table["alice"], campaign=table["campaign"])
    assert refusal.value.status == 403
    with pytest.raises(Refusal):
        invitation_revoke(actor=table["alice"], invitation=table["invitation"])
    assert table["invitation"].revoked_at is None


def test_it_lets_a_player_leave_and_takes_their_vocations_with_them(table):
    chapter = chapter_plan(actor=table["organiser"], campaign=table["campaign"], title="Quais")
    vocation_choose(actor=table["alice"], chapter=chapter, player=table["alice"], vocation="meneur")
    campaign_leave(player=table["alice"], campaign=table["campaign"])
    assert not Membership.objects.filter(player=table["alice"]).exists()
    assert not VocationAssignment.objects.filter(player=table["alice"]).exists()
    assert CampaignEvent.objects.filter(verb="left").count() == 1


def test_it_lets_a_co_organiser_manage_but_only_the_organiser_name_one(table):
    helper = PlayerFactory(username="helper")
    with pytest.raises(Refusal):
        co_organiser_add(actor=table["alice"], campaign=table["campaign"], player=helper)
    co_organiser_add(actor=table["organiser"], campaign=table["campaign"], player=helper)
    chapter = chapter_plan(actor=helper, campaign=table["campaign"], title="Par le co-orga")
    assert chapter.number == 1
    co_organiser_remove(actor=table["organiser"], campaign=table["campaign"], player=helper)
    with pytest.raises(Http404):  # no longer in the campaign: it does not exist for them
        chapter_plan(actor=helper, campaign=table["campaign"], title="Plus le droit")


# --- chapters and eligibility --------------------------------------------------------------------


def test_it_numbers_chapters_and_stops_at_the_number_the_organiser_set(table):
    campaign = table["campaign"]
    from campaigns.services import campaign_update

    campaign_update(actor=table["organiser"], campaign=campaign, chapters_planned=2)
    first = chapter_plan(actor=table["organiser"], campaign=campaign, title="Un")
    second = chapter_plan(
        actor=table["organiser"],
        campaign=campaign,
        title="Deux",
        starts_at=datetime(2026, 6, 6, 18, tzinfo=UTC),
        required_cards=["Clé du hangar", " "],
    )
    assert (first.number, second.number, second.required_cards) == (1, 2, ["Clé du hangar"])
    with pytest.raises(Refusal, match="all planned"):
        chapter_plan(actor=table["organiser"], campaign=campaign, title="Trois")
    with pytest.raises(Refusal, match="minimum is above"):
        chapter_update(actor=table["organiser"], chapter=first, players_min=4, players_max=2)


def _profile(player, **kwargs):
    return profile_create(
        actor=player, player=player, physique=3, psychique=2, reflexes=2, combat=2, **kwargs
    )


def test_it_tells_each_player_which_requirement_they_miss(table):
    """Rule text, "Chapitre": "Elle demande des conditions, comme le nombre de joueur, le
    nombre de point de survie minimum, la possession de cartes spéciales"."""
    chapter = chapter_plan(
        actor=table["organiser"],
        campaign=table["campaign"],
        title="Le hangar",
        players_min=2,
        min_survival_points=2,
        required_cards=["Clé du hangar"],
        required_items=["Pied-de-biche"],
    )
    alice = _profile(table["alice"], cards=["clé  du HANGAR"], equipment=["Pied-de-biche"])
    alice = profile_set_survival_points(actor=None, profile=alice, points=2)
    ok = chapter_eligibility(chapter=chapter, profile=alice, players=2)
    assert ok.eligible and ok.reasons == []

    bruno = _profile(table["bruno"], equipment=["Batte"])
    verdict = chapter_eligibility(chapter=chapter, profile=bruno, players=2)
    assert not verdict.eligible
    assert verdict.reasons == [
        "Survival points: 0 of the 2 needed.",
        "Missing cards: Clé du hangar.",
        "Missing items: Pied-de-biche.",
    ]
    alone = chapter_eligibility(chapter=chapter, profile=alice, players=1)
    assert alone.reasons == ["This chapter needs at least 2 players; the campaign has 1."]
    assert chapter_eligibility(chapter=chapter, profile=None, players=2).reasons == [
        "Create your Of the Dead profile first."
    ]
    dead = profile_set_status(actor=None, profile=alice, status="dead")
    assert (
        "Your character is dead"
        in chapter_eligibility(chapter=chapter, profile=dead, players=2).reasons[0]
    )


def test_it_checks_only_the_number_of_players_in_a_kolaps_campaign():
    organiser = PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="K", system="kolaps")
    chapter = chapter_plan(
        actor=organiser,
        campaign=campaign,
        title="Ground zero",
        players_max=2,
        min_survival_points=5,
    )
    verdict = chapter_eligibility(chapter=chapter, profile=None, players=3)
    assert [c.key for c in verdict.checks] == ["players"]
    assert "at most 2 players" in verdict.reasons[0]


# --- votes ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ballots", "winner", "tied"),
    [
        ([10, 10, 20], 10, []),
        ([20, 30], 20, [20, 30]),  # tie: chapter 2 was planned before chapter 3
        ([30, 20, 30, 20], 20, [20, 30]),
        ([30], 30, []),
        ([], None, []),
        ([99], None, []),  # a ballot for a chapter that is not a candidate counts for nothing
    ],
)
def test_it_counts_next_chapter_ballots_and_breaks_ties_by_the_chapter_planned_first(
    ballots, winner, tied
):
    candidates = [(10, 1), (20, 2), (30, 3)]
    counted = count_next_chapter(ballots, candidates)
    assert (counted.winner, counted.tied) == (winner, tied)


def test_it_gives_vocations_most_voted_first_then_rule_order_then_seniority():
    alice, bruno, carole = 1, 2, 3
    ballots = [
        ("meneur", alice),
        ("meneur", alice),
        ("meneur", bruno),
        ("guerisseur", bruno),
        ("guerisseur", bruno),
        # tie at 1 between bruno-eclaireur and carole-baroudeur: bruno is settled already
        ("eclaireur", carole),
        ("baroudeur", carole),
    ]
    counted = count_vocations(ballots, [alice, bruno, carole], vocations=Vocation.values)
    assert counted.assignments == {alice: "meneur", bruno: "guerisseur", carole: "baroudeur"}
    # Already taken vocations and players are kept: Carole holds Meneur, so Alice's
    # Meneur votes give her nothing.
    kept = count_vocations(
        ballots, [alice, bruno, carole], taken={carole: "meneur"}, vocations=Vocation.values
    )
    assert kept.assignments == {bruno: "guerisseur"}


def test_it_gives_a_tied_vocation_to_the_player_who_joined_first():
    counted = count_vocations([("meneur", 2), ("meneur", 1)], [1, 2], vocations=Vocation.values)
    assert counted.assignments == {1: "meneur"}


def test_it_runs_a_next_chapter_vote_and_keeps_the_result(table):
    organiser, campaign = table["organiser"], table["campaign"]
    one = chapter_plan(actor=organiser, campaign=campaign, title="Un")
    two = chapter_plan(actor=organiser, campaign=campaign, title="Deux")
    with pytest.raises(Refusal, match="two planned chapters"):
        vote_open(actor=organiser, campaign=campaign, kind="next_chapter", candidates=[one])
    vote = vote_open(actor=organiser, campaign=campaign, kind="next_chapter", candidates=[one, two])
    ballot_cast(voter=table["alice"], vote=vote, chapter=one)
    ballot_cast(voter=table["alice"], vote=vote, chapter=two)  # changes her mind
    ballot_cast(voter=table["bruno"], vote=vote, chapter=one)
    with pytest.raises(Refusal) as refusal:
        ballot_cast(voter=organiser, vote=vote, chapter=one)
    assert refusal.value.status == 403
    vote = vote_close(actor=organiser, vote=vote)
    assert vote.status == VoteStatus.CLOSED
    assert vote.winner == one  # 1 ballot each: the chapter planned first wins
    assert vote.result == {
        "counts": {str(one.pk): 1, str(two.pk): 1},
        "winner": one.pk,
        "tied": [one.pk, two.pk],
    }
    with pytest.raises(Refusal, match="closed"):
        ballot_cast(voter=table["bruno"], vote=vote, chapter=two)


def test_it_runs_a_vocation_vote_into_assignments(table):
    organiser, campaign = table["organiser"], table["campaign"]
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Un")
    vote = vote_open(actor=organiser, campaign=campaign, kind="vocations", chapter=chapter)
    alice, bruno = table["alice"], table["bruno"]
    ballot_cast(voter=alice, vote=vote, vocation="meneur", nominee=bruno)
    ballot_cast(voter=bruno, vote=vote, vocation="meneur", nominee=bruno)
    ballot_cast(voter=bruno, vote=vote, vocation="guerisseur", nominee=alice)
    vote_close(actor=organiser, vote=vote)
    assert dict(chapter.vocations.values_list("player__username", "vocation")) == {
        "bruno": "meneur",
        "alice": "guerisseur",
    }


def test_it_casts_a_whole_vocation_ballot_or_nothing(table):
    """The ballot form sends every vocation at once: one refused choice keeps the others
    from being cast, and the refusal lands beside its vocation."""
    organiser, campaign = table["organiser"], table["campaign"]
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Un")
    vote = vote_open(actor=organiser, campaign=campaign, kind="vocations", chapter=chapter)
    alice, bruno = table["alice"], table["bruno"]
    with pytest.raises(Refusal) as refused:
        ballots_cast(voter=alice, vote=vote, nominations={"meneur": bruno, "guerisseur": None})
    assert refused.value.field == "guerisseur"
    assert not vote.ballots.exists()
    ballots = ballots_cast(
        voter=alice, vote=vote, nominations={"meneur": bruno, "guerisseur": alice}
    )
    assert len(ballots) == 2
    assert sorted(vote.ballots.values_list("vocation", flat=True)) == ["guerisseur", "meneur"]


def test_a_vocation_vote_closed_after_its_chapter_leaves_the_chapter_as_it_was(table):
    """A closed chapter's record no longer changes: the vote keeps its counts, no vocation
    is given."""
    organiser, campaign = table["organiser"], table["campaign"]
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Un")
    vote = vote_open(actor=organiser, campaign=campaign, kind="vocations", chapter=chapter)
    ballot_cast(voter=table["alice"], vote=vote, vocation="meneur", nominee=table["bruno"])
    chapter_close(
        actor=organiser,
        chapter=chapter,
        epilogue="Fin.",
        outcomes=[OutcomeInput(table["alice"].pk, "victory")],
    )
    vote = vote_close(actor=organiser, vote=vote)
    assert not chapter.vocations.exists()
    assert vote.result["counts"] == [["meneur", table["bruno"].pk, 1]]
    assert CampaignEvent.objects.filter(campaign=campaign, verb="ballot_cast").count() == 1


def test_it_gives_each_vocation_once_per_chapter(table):
    chapter = chapter_plan(actor=table["organiser"], campaign=table["campaign"], title="Un")
    vocation_choose(actor=table["alice"], chapter=chapter, player=table["alice"], vocation="meneur")
    with pytest.raises(Refusal) as refusal:
        vocation_choose(
            actor=table["bruno"], chapter=chapter, player=table["bruno"], vocation="meneur"
        )
    assert str(refusal.value.message) == "Meneur is already held by Alice in this chapter."
    # Alice changes hers: Meneur is free again.
    vocation_choose(
        actor=table["alice"], chapter=chapter, player=table["alice"], vocation="eclaireur"
    )
    vocation_choose(actor=table["bruno"], chapter=chapter, player=table["bruno"], vocation="meneur")
    assert chapter.vocations.count() == 2
    with pytest.raises(Refusal) as refusal:
        vocation_choose(
            actor=table["alice"], chapter=chapter, player=table["bruno"], vocation="guetteur"
        )
    assert refusal.value.status == 403


# --- closing -------------------------------------------------------------------------------------


def test_it_closes_a_chapter_in_one_operation_and_leaves_it_awaiting_settlement(
    table, django_capture_on_commit_callbacks
):
    organiser, campaign = table["organiser"], table["campaign"]
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Les quais")
    received = []

    def receiver(sender, chapter, **kwargs):
        from django.db import transaction

        transaction.on_commit(lambda: received.append(chapter.pk))

    chapter_closed.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            closed = chapter_close(
                actor=organiser,
                chapter=chapter,
                epilogue="Les survivants passent le pont.",
                outcomes=[
                    OutcomeInput(table["alice"].pk, "victory", kills={"zonard": 3, "mastard": 0}),
                    OutcomeInput(table["bruno"].pk, "defeat", died=True, side="Pillards"),
                ],
                notable_events=["Parachutage", "Le chien s'enfuit"],
            )
    finally:
        chapter_closed.disconnect(receiver)
    assert received == [chapter.pk]
    assert closed.status == ChapterStatus.CLOSED
    assert closed.closed_at is not None and closed.settled_at is None
    assert closed.awaiting_settlement
    rows = {o.player.username: o for o in ChapterOutcome.objects.filter(chapter=chapter)}
    assert rows["alice"].kills == {"zonard": 3}
    assert (rows["bruno"].died, rows["bruno"].side) == (True, "Pillards")
    with pytest.raises(Refusal, match="already closed"):
        chapter_close(actor=organiser, chapter=chapter, epilogue="Encore", outcomes=[])


def test_it_refuses_a_close_without_epilogue_or_by_a_player_and_writes_nothing(table):
    chapter = chapter_plan(actor=table["organiser"], campaign=table["campaign"], title="Un")
    outcome = OutcomeInput(table["alice"].pk, "victory")
    with pytest.raises(Refusal) as refusal:
        chapter_close(actor=table["organiser"], chapter=chapter, epilogue=" ", outcomes=[outcome])
    assert refusal.value.field == "epilogue"
    with pytest.raises(Refusal) as refusal:
        chapter_close(actor=table["alice"], chapter=chapter, epilogue="Fin", outcomes=[outcome])
    assert refusal.value.status == 403
    with pytest.raises(Refusal, match="players only"):
        chapter_close(
            actor=table["organiser"],
            chapter=chapter,
            epilogue="Fin",
            outcomes=[OutcomeInput(table["organiser"].pk, "victory")],
        )
    chapter.refresh_from_db()
    assert chapter.status == ChapterStatus.PLANNED and not chapter.outcomes.exists()
