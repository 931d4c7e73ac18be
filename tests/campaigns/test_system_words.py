"""Of the Dead's words only in Of the Dead campaigns: vocations, survival points, required
cards and items, drops. Pages ask the system's declaration (`GameSystem.uses_profiles`),
never its name."""

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.chapters.services import chapter_plan, vocation_choose
from campaigns.models import VocationAssignment
from campaigns.services import campaign_add_participant, campaign_create
from campaigns.votes.services import vote_open
from characters.permissions import Refusal
from characters.profiles.services import profile_create
from rules.engine.systems import SYSTEMS, profile_systems, uses_profiles
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(client):
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def two_campaigns():
    organiser, alice = PlayerFactory(), PlayerFactory(username="alice")
    profile_create(actor=alice, player=alice, physique=3, psychique=2, reflexes=2, combat=2)
    campaigns = {}
    for system, name in (("of-the-dead", "La Chute de Lyon"), ("rapid40k", "Armageddon")):
        campaign = campaign_create(organiser=organiser, name=name, system=system)
        campaign_add_participant(actor=organiser, campaign=campaign, player=alice)
        chapter = chapter_plan(actor=organiser, campaign=campaign, title=f"{name} 1")
        campaigns[system] = (campaign, chapter)
    return organiser, alice, campaigns


def test_only_of_the_dead_declares_profiles():
    assert profile_systems() == ("of-the-dead",)
    assert [s.slug for s in SYSTEMS if s.uses_profiles] == ["of-the-dead"]
    assert not uses_profiles("chess")


def test_a_rapid40k_chapter_offers_no_vocation_and_refuses_one(client, two_campaigns):
    _organiser, alice, campaigns = two_campaigns
    _campaign, chapter = campaigns["rapid40k"]
    client.force_login(alice)
    html = client.get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    assert 'id="vocation-form"' not in html and "Baroudeur" not in html
    with pytest.raises(Refusal, match="Vocations are taken in Of the Dead chapters only"):
        vocation_choose(actor=alice, chapter=chapter, player=alice, vocation="meneur")
    answer = client.post(
        reverse("api-chapter-vocation", args=[chapter.pk]),
        {"vocation": "meneur"},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert not VocationAssignment.objects.filter(chapter=chapter).exists()
    _dead, dead_chapter = campaigns["of-the-dead"]
    html = client.get(reverse("chapter-detail", args=[dead_chapter.pk])).content.decode()
    assert 'id="vocation-form"' in html


def test_alices_profile_lists_only_her_of_the_dead_campaigns_and_vocations(client, two_campaigns):
    _organiser, alice, campaigns = two_campaigns
    _campaign, chapter = campaigns["rapid40k"]
    # A vocation recorded in a Rapid 40000 chapter before the service refused them.
    VocationAssignment.objects.create(chapter=chapter, player=alice, vocation="meneur")
    client.force_login(alice)
    html = client.get(reverse("profile-mine")).content.decode()
    assert "La Chute de Lyon" in html
    assert "Armageddon" not in html


def test_campaign_forms_ask_survival_points_only_for_of_the_dead(client, two_campaigns):
    organiser, _alice, campaigns = two_campaigns
    client.force_login(organiser)
    rapid, _chapter = campaigns["rapid40k"]
    dead, _chapter = campaigns["of-the-dead"]
    html = client.get(reverse("campaign-edit", args=[rapid.pk])).content.decode()
    assert "survival" not in html.lower()
    assert "survival" in client.get(reverse("campaign-edit", args=[dead.pk])).content.decode()
    html = client.get(reverse("campaign-create") + "?system=kolaps&name=Gare").content.decode()
    assert "survival" not in html.lower() and 'value="Gare"' in html
    response = client.post(reverse("campaign-create"), {"name": "Gare", "system": "kolaps"})
    assert response.status_code == 302


@pytest.mark.parametrize("system", ["rapid40k", "of-the-dead"])
def test_chapter_planning_asks_profile_conditions_only_for_of_the_dead(
    client, two_campaigns, system
):
    organiser, _alice, campaigns = two_campaigns
    campaign, chapter = campaigns[system]
    client.force_login(organiser)
    for url in (
        reverse("chapter-create", args=[campaign.pk]),
        reverse("chapter-edit", args=[chapter.pk]),
    ):
        html = client.get(url).content.decode()
        for word in ("Minimum survival points", "Required cards", "Required items", "drops"):
            assert (word in html) is (system == "of-the-dead"), (url, word)
        assert "Announced events" in html


def test_the_campaign_api_card_carries_survival_points_only_for_of_the_dead(client, two_campaigns):
    organiser, _alice, campaigns = two_campaigns
    client.force_login(organiser)
    rapid = client.get(reverse("api-campaign-detail", args=[campaigns["rapid40k"][0].pk])).json()
    dead = client.get(reverse("api-campaign-detail", args=[campaigns["of-the-dead"][0].pk])).json()
    assert "survival_points_survive" not in rapid and "survival_points_victory" not in rapid
    assert (dead["survival_points_survive"], dead["survival_points_victory"]) == (1, 1)
    schema = client.get("/api/schema/?format=json").json()["components"]["schemas"]
    card = schema["CampaignCard"]
    assert "survival_points_survive" not in card["required"]
    assert (
        "Of the Dead campaigns only" in card["properties"]["survival_points_survive"]["description"]
    )


def test_the_standings_api_carries_the_columns_its_system_declares(client, two_campaigns):
    """The standings' API twin shows what the page shows: Rapid 40000's columns (RULES-NOTES
    CL2: "win 3, draw 1, loss 0", points destroyed and lost), no reputation, kills or
    survival points; Of the Dead's keep theirs (a row's values: tests/test_system_words.py
    and the walkthrough)."""
    organiser, _alice, campaigns = two_campaigns
    client.force_login(organiser)
    rapid, _chapter = campaigns["rapid40k"]
    standings = client.get(reverse("api-campaign-leaderboard", args=[rapid.pk])).json()
    assert [(c["key"], c["label"]) for c in standings["columns"]] == [
        ("chapters_played", "Played"), ("chapters_won", "Wins"), ("chapters_drawn", "Draws"),
        ("chapters_lost", "Losses"), ("value_destroyed", "Points destroyed"),
        ("value_lost", "Points lost"),
    ]  # fmt: skip
    assert standings["score_heading"] == "Standing points" and standings["rows"] == []
    dead, _chapter = campaigns["of-the-dead"]
    standings = client.get(reverse("api-campaign-leaderboard", args=[dead.pk])).json()
    assert "survival_points" in {c["key"] for c in standings["columns"]}
    assert standings["score_heading"] == "Reputation"


def test_the_chapter_api_card_carries_no_other_systems_fields(client, two_campaigns):
    organiser, _alice, campaigns = two_campaigns
    client.force_login(organiser)
    _rapid, chapter = campaigns["rapid40k"]
    card = client.get(reverse("api-chapter-detail", args=[chapter.pk])).json()
    for name in ("my_vocation", "taken_vocations", "min_survival_points", "k12", "units"):
        assert name not in card
    assert "vocation" not in card["players"][0] and "armies" in card
    _dead, chapter = campaigns["of-the-dead"]
    card = client.get(reverse("api-chapter-detail", args=[chapter.pk])).json()
    assert "my_vocation" in card and "vocation" in card["players"][0]
    assert "armies" not in card and "k12" not in card


def test_a_vote_on_vocations_is_offered_and_opened_only_in_of_the_dead(client, two_campaigns):
    organiser, _alice, campaigns = two_campaigns
    client.force_login(organiser)
    for system, (campaign, _chapter) in campaigns.items():
        form = client.get(reverse("vote-open", args=[campaign.pk])).content.decode()
        assert ("vocation" in form.lower()) is (system == "of-the-dead"), system
        assert "Candidate chapters" in form
    rapid, rapid_chapter = campaigns["rapid40k"]
    with pytest.raises(Refusal, match="Vocations are voted on in Of the Dead campaigns only"):
        vote_open(actor=organiser, campaign=rapid, kind="vocations", chapter=rapid_chapter)
    answer = client.post(
        reverse("api-vote-open", args=[rapid.pk]),
        {"kind": "vocations", "chapter": rapid_chapter.pk},
        content_type="application/json",
    )
    assert answer.status_code == 400 and not rapid.votes.exists()
