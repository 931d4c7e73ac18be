"""Fetch and authorise: one query per object, 404 for whoever may not see it, 403 for
whoever sees it but may not do what is asked."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from campaigns.chapters.services import chapter_plan
from campaigns.models import Campaign, Chapter
from campaigns.selectors import (
    campaign_get_for_user,
    chapter_get_for_user,
    invitation_get_for_user,
    vote_get_for_user,
)
from campaigns.services import (
    campaign_add_participant,
    campaign_create,
    co_organiser_add,
    invitation_create,
)
from campaigns.votes.services import vote_open
from characters.permissions import Forbidden
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    organiser, player, co_organiser = PlayerFactory(), PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Lyon", system="of-the-dead")
    campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    co_organiser_add(actor=organiser, campaign=campaign, player=co_organiser)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le pont")
    return {
        "organiser": organiser,
        "player": player,
        "co_organiser": co_organiser,
        "campaign": campaign,
        "chapter": chapter,
    }


GETS = [
    (campaign_get_for_user, "campaign"),
    (chapter_get_for_user, "chapter"),
]


@pytest.mark.parametrize(("get_for_user", "name"), GETS)
def test_it_fetches_and_authorises_in_one_query(
    world, django_assert_num_queries, get_for_user, name
):
    with django_assert_num_queries(1):
        found = get_for_user(world["player"], world[name].pk)
    assert found == world[name]


@pytest.mark.parametrize(("get_for_user", "name"), GETS)
def test_it_hides_the_object_from_a_stranger_and_from_anyone_anonymous(world, get_for_user, name):
    for stranger in (PlayerFactory(), AnonymousUser()):
        with pytest.raises(Http404):
            get_for_user(stranger, world[name].pk)
    with pytest.raises(Http404):
        get_for_user(world["player"], 10**9)


@pytest.mark.parametrize(("get_for_user", "name"), GETS)
def test_it_lets_organisers_manage_and_refuses_players_with_a_sentence(world, get_for_user, name):
    for organiser in (world["organiser"], world["co_organiser"]):
        assert get_for_user(organiser, world[name].pk, need="manage") == world[name]
    with pytest.raises(Forbidden) as refusal:
        get_for_user(world["player"], world[name].pk, need="manage")
    assert refusal.value.status == 403 and str(refusal.value.message)


def test_it_lets_only_players_vote(world):
    organiser, player = world["organiser"], world["player"]
    second = chapter_plan(actor=organiser, campaign=world["campaign"], title="La gare")
    vote = vote_open(
        actor=organiser,
        campaign=world["campaign"],
        kind="next_chapter",
        candidates=[world["chapter"], second],
    )
    assert vote_get_for_user(player, vote.pk, need="vote") == vote
    with pytest.raises(Forbidden):
        vote_get_for_user(organiser, vote.pk, need="vote")


def test_it_finds_an_invitation_only_in_its_own_campaign(world):
    organiser = world["organiser"]
    invitation = invitation_create(actor=organiser, campaign=world["campaign"])
    found = invitation_get_for_user(organiser, world["campaign"].pk, invitation.pk)
    assert found == invitation and found.campaign == world["campaign"]
    other = campaign_create(organiser=organiser, name="Paris", system="of-the-dead")
    with pytest.raises(Http404):
        invitation_get_for_user(organiser, other.pk, invitation.pk)
    with pytest.raises(Forbidden):
        invitation_get_for_user(world["player"], world["campaign"].pk, invitation.pk)


def _values(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_it_loads_each_object_and_what_it_leads_to_as_the_orm_does(world):
    """The fetch is compiled once and made into models by hand: every field, the campaign
    and organiser it carries, an empty relation as None."""
    organiser, player = world["organiser"], world["player"]
    second = chapter_plan(actor=organiser, campaign=world["campaign"], title="La gare")
    vote = vote_open(
        actor=organiser,
        campaign=world["campaign"],
        kind="next_chapter",
        candidates=[world["chapter"], second],
    )
    chapter = chapter_get_for_user(player, world["chapter"].pk)
    campaign = campaign_get_for_user(player, world["campaign"].pk)
    found = vote_get_for_user(player, vote.pk)
    vote.refresh_from_db()
    assert _values(chapter) == _values(Chapter.objects.get(pk=world["chapter"].pk))
    assert _values(chapter.campaign) == _values(Campaign.objects.get(pk=world["campaign"].pk))
    assert _values(campaign.organiser) == _values(organiser.__class__.objects.get(pk=organiser.pk))
    assert _values(found) == _values(vote)
    assert found.chapter is None and found.winner is None
    assert found.campaign.name == "Lyon" and chapter.viewer_membership == "player"


@pytest.mark.parametrize(("get_for_user", "name"), GETS)
def test_it_finds_nothing_for_an_id_beyond_64_bits(world, get_for_user, name):
    for pk in (2**63, 10**30):
        with pytest.raises(Http404):
            get_for_user(world["player"], pk)
