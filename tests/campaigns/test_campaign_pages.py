"""Campaign pages: members see them, others do not; a fixed number of queries."""

import re

import pytest
from django.urls import reverse

from campaigns.chapters.services import chapter_plan, chapter_update
from campaigns.models import CampaignEvent
from campaigns.services import campaign_add_participant, campaign_create
from characters.permissions import Refusal
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _campaign_with(n_participants: int, organiser=None):
    organiser = organiser or PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Lyon", system="of-the-dead")
    for _ in range(n_participants):
        campaign_add_participant(actor=organiser, campaign=campaign, player=PlayerFactory())
    return organiser, campaign


def test_it_records_who_created_the_campaign_and_added_whom():
    organiser, campaign = _campaign_with(2)
    events = list(CampaignEvent.objects.filter(campaign=campaign).values_list("verb", "actor"))
    assert events == [
        ("created", organiser.pk),
        ("participant_added", organiser.pk),
        ("participant_added", organiser.pk),
    ]


def test_it_refuses_a_participant_added_by_someone_else_and_writes_nothing():
    _organiser, campaign = _campaign_with(0)
    intruder = PlayerFactory()
    with pytest.raises(Refusal) as refusal:
        campaign_add_participant(actor=intruder, campaign=campaign, player=intruder)
    assert refusal.value.status == 403
    assert campaign.memberships.count() == 0
    assert CampaignEvent.objects.filter(campaign=campaign).count() == 1


def test_it_refuses_an_unknown_game_system():
    with pytest.raises(Refusal) as refusal:
        campaign_create(organiser=PlayerFactory(), name="X", system="chess")
    assert refusal.value.field == "system"


def test_it_shows_a_participant_the_campaign_and_its_history(client):
    _organiser, campaign = _campaign_with(2)
    participant = campaign.memberships.first().player
    client.force_login(participant)
    html = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert "Lyon" in html and "Of the Dead" in html
    assert "a créé la campagne" in html
    assert html.count("a ajouté") == 2


def test_it_renders_only_the_history_for_htmx(client):
    organiser, campaign = _campaign_with(1)
    client.force_login(organiser)
    response = client.get(
        reverse("campaign-detail", args=[campaign.pk]),
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="campaign-history",
    )
    html = response.content.decode()
    assert "<html" not in html
    assert html.strip().startswith('<ol id="campaign-history"')


def test_it_hides_a_campaign_from_a_player_outside_it(client):
    _organiser, campaign = _campaign_with(1)
    client.force_login(PlayerFactory())
    assert client.get(reverse("campaign-detail", args=[campaign.pk])).status_code == 404
    assert "Lyon" not in client.get(reverse("campaign-list")).content.decode()


@pytest.mark.parametrize("size", [3, 30])
def test_it_costs_the_same_queries_for_3_or_30_participants(
    client, django_assert_num_queries, size
):
    organiser, campaign = _campaign_with(size)
    client.force_login(organiser)
    # user (the session from the cache), campaign, memberships with players, history,
    # chapters, open votes, active invitations (the organiser's)
    with django_assert_num_queries(7):
        response = client.get(reverse("campaign-detail", args=[campaign.pk]))
    assert response.status_code == 200
    assert response.content.decode().count("a ajouté") == size


@pytest.mark.parametrize("size", [3, 30])
def test_it_lists_3_or_30_campaigns_in_the_same_queries(client, django_assert_num_queries, size):
    organiser = PlayerFactory()
    for _ in range(size):
        _campaign_with(2, organiser=organiser)
    client.force_login(organiser)
    with django_assert_num_queries(2):  # user (the session from the cache), campaigns
        response = client.get(reverse("campaign-list"))
    assert response.content.decode().count('class="card"') == size


def test_it_lists_a_players_campaigns_newest_first_with_all_their_participants(client):
    player = PlayerFactory(display_name="Zoé")
    older = campaign_create(organiser=PlayerFactory(), name="Lyon", system="of-the-dead")
    newer = campaign_create(organiser=PlayerFactory(), name="Paris", system="kolaps")
    mine = campaign_create(organiser=player, name="Nantes", system="of-the-dead")
    for campaign, others in ((older, 3), (newer, 1)):
        campaign_add_participant(actor=campaign.organiser, campaign=campaign, player=player)
        for _ in range(others):
            campaign_add_participant(
                actor=campaign.organiser, campaign=campaign, player=PlayerFactory()
            )
    client.force_login(player)
    client.cookies["django_language"] = "en"
    html = client.get(reverse("campaign-list")).content.decode()
    assert [html.index(name) for name in ("Nantes", "Paris", "Lyon")] == sorted(
        html.index(name) for name in ("Nantes", "Paris", "Lyon")
    )
    assert "4 participants" in html and "2 participants" in html and "0 participants" in html
    listed = client.get(reverse("api-campaign-list")).json()
    assert [(c["id"], c["participants"]) for c in listed] == [
        (mine.pk, 0),
        (newer.pk, 2),
        (older.pk, 4),
    ]


def test_it_answers_the_api_twin_with_the_same_card(client):
    organiser, campaign = _campaign_with(2)
    client.force_login(organiser)
    body = client.get(reverse("api-campaign-detail", args=[campaign.pk])).json()
    assert body["summary"]["name"] == "Lyon"
    assert body["summary"]["participants"] == 2
    assert [e["verb"] for e in body["history"]][-1] == "created"
    assert body["is_organiser"] is True
    listed = client.get(reverse("api-campaign-list")).json()
    assert [c["id"] for c in listed] == [campaign.pk]


def test_its_kept_chapters_and_history_show_a_change_at_once(client, settings):
    """The chapters and the history are kept as rendered under keys naming all they show:
    a renamed chapter, a new history line, another reader's eligibility, another language
    show on the very next page."""
    organiser, campaign = _campaign_with(0)
    alice = PlayerFactory()
    campaign_add_participant(actor=organiser, campaign=campaign, player=alice)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Les quais")
    url = reverse("campaign-detail", args=[campaign.pk])
    client.force_login(organiser)
    html = client.get(url).content.decode()
    assert "1. Les quais" in html and "not-eligible" not in html
    chapter_update(actor=organiser, chapter=chapter, title="Le port")
    html = client.get(url).content.decode()
    assert "1. Le port" in html and "1. Les quais" not in html
    assert "a modifié le chapitre Le port" in html  # the history's new line
    history = client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="campaign-history")
    assert "a modifié le chapitre Le port" in history.content.decode()
    client.force_login(alice)  # a player without a profile: her own verdict, not the organiser's
    assert "not-eligible" in client.get(url).content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(url).content.decode()
    assert "1. Le port" in html and ">planned</span>" in html


def test_it_renders_the_same_page_with_its_fragments_kept_or_not(client, settings):
    organiser, campaign = _campaign_with(3)
    for n in range(3):
        chapter_plan(actor=organiser, campaign=campaign, title=f"Chapitre {n}")
    url = reverse("campaign-detail", args=[campaign.pk])
    client.force_login(organiser)
    settings.CAMPAIGN_FRAGMENT_CACHE_SECONDS = 0
    fresh = client.get(url).content.decode()
    settings.CAMPAIGN_FRAGMENT_CACHE_SECONDS = 3600
    client.get(url)  # kept
    kept = client.get(url).content.decode()
    token = re.compile(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]*')
    assert token.sub("", kept) == token.sub("", fresh)
