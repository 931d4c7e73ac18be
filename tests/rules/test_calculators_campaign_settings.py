"""Calculators opened for a campaign (`?campaign=<id>`, or `campaign` in the API body): they
run with the campaign's stored rules settings, not the catalogue's defaults, and say which
settings are in force. A campaign the user cannot see is a 404; another system's, a refusal."""

import html

import pytest
from django.urls import reverse

from campaigns.rules_settings.services import campaign_rules_settings_set
from campaigns.services import campaign_add_participant, campaign_create
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def page(system, resolver=None):
    if resolver is None:
        return reverse("dice-calculators", kwargs={"system": system})
    return reverse("dice-calculator", kwargs={"system": system, "resolver": resolver})


def api(system, resolver, verb="odds"):
    return reverse("api-resolve", kwargs={"system": system, "resolver": resolver, "verb": verb})


def text(response):
    body = html.unescape(response.content.decode())
    return body.replace("\u00a0", " ").replace("\u202f", " ")


@pytest.fixture
def table():
    organiser, participant, stranger = PlayerFactory(), PlayerFactory(), PlayerFactory()
    modern = campaign_create(organiser=organiser, name="Poursuite", system="modern-rpg")
    campaign_add_participant(actor=organiser, campaign=modern, player=participant)
    # A vest of d12s, and buckshot rolling d10s.
    modern = campaign_rules_settings_set(
        actor=organiser,
        campaign=modern,
        settings={"vest_die_sides": "12", "buckshot_die": "10"},
    )
    corporates = campaign_create(organiser=organiser, name="Arcologie", system="corporates")
    return {
        "organiser": organiser,
        "participant": participant,
        "stranger": stranger,
        "modern": modern,
        "corporates": corporates,
    }


SHOT = {"characteristic": "6", "ammunition": "buckshot", "range": "short", "vest": "class_ii"}


def test_a_participant_sees_the_campaigns_settings_in_force_and_the_odds_follow(client, table):
    client.force_login(table["participant"])
    default = client.get(page("modern-rpg", "combat"), SHOT)
    assert "Réglages de règles en vigueur : ceux par défaut" in text(default)
    chosen = client.get(page("modern-rpg", "combat"), {**SHOT, "campaign": table["modern"].pk})
    body = text(chosen)
    assert "Réglages de règles de Poursuite en vigueur" in body
    assert chosen.status_code == 200
    # The odds differ: d12 vest dice and a d10 buckshot die, as the campaign chose.
    assert chosen.content != default.content
    # Every calculator link keeps the campaign.
    assert f"?campaign={table['modern'].pk}" in body


def test_the_api_takes_the_campaign_in_the_body_or_the_query(client, table):
    client.force_login(table["participant"])
    body = {"characteristic": 6, "ammunition": "buckshot", "range": "short", "vest": "class_ii"}
    default = client.post(api("modern-rpg", "combat"), body, content_type="application/json")
    assert default.json()["pool"][1]["sides"] == 6
    chosen = client.post(
        api("modern-rpg", "combat"),
        {**body, "campaign": table["modern"].pk},
        content_type="application/json",
    )
    assert chosen.status_code == 200
    assert chosen.json()["pool"][1]["sides"] == 10
    query = client.post(
        api("modern-rpg", "combat") + f"?campaign={table['modern'].pk}",
        body,
        content_type="application/json",
    )
    assert query.json() == chosen.json()


def test_a_stranger_gets_a_404_and_another_systems_campaign_a_sentence(client, table):
    client.force_login(table["stranger"])
    assert (
        client.get(page("modern-rpg", "combat"), {"campaign": table["modern"].pk}).status_code
        == 404
    )
    refused = client.post(
        api("modern-rpg", "combat"),
        {"characteristic": 6, "campaign": table["modern"].pk},
        content_type="application/json",
    )
    assert refused.status_code == 404
    client.force_login(table["organiser"])
    other = client.post(
        api("modern-rpg", "combat"),
        {"characteristic": 6, "campaign": table["corporates"].pk},
        content_type="application/json",
    )
    assert other.status_code == 400
    assert "autre système de jeu" in str(other.json())
    malformed = client.post(
        api("modern-rpg", "combat"),
        {"characteristic": 6, "campaign": "douze"},
        content_type="application/json",
    )
    assert malformed.status_code == 400
    assert client.get(page("modern-rpg"), {"campaign": table["corporates"].pk}).status_code == 404


def test_the_campaign_page_links_to_its_calculators(client, table):
    client.force_login(table["participant"])
    response = client.get(reverse("campaign-detail", args=[table["modern"].pk]))
    assert f"{page('modern-rpg')}?campaign={table['modern'].pk}" in text(response)


@pytest.mark.parametrize("extra", [0, 1])
def test_a_calculator_for_a_campaign_costs_a_fixed_number_of_queries(
    client, table, extra, django_assert_num_queries
):
    for _ in range(extra * 20):
        campaign_add_participant(
            actor=table["organiser"], campaign=table["modern"], player=PlayerFactory()
        )
    client.force_login(table["participant"])
    client.get(page("modern-rpg", "combat"), {**SHOT, "campaign": table["modern"].pk})
    # the campaign (session and user from the cache since the first request)
    with django_assert_num_queries(1):
        response = client.get(
            page("modern-rpg", "combat"), {**SHOT, "campaign": table["modern"].pk}
        )
    assert response.status_code == 200


def test_the_chase_tracker_plays_with_the_campaigns_settings_and_names_the_risk(client, table):
    # The campaign's "1D" of chase events (`chase_loss_die`) is a d8; flat out from round
    # 2: "le pieton est en désavantage sur son test d'endurance".
    campaign_rules_settings_set(
        actor=table["organiser"], campaign=table["modern"], settings={"chase_loss_die": "8"}
    )
    client.force_login(table["participant"])
    url = reverse("modern-chase") + f"?campaign={table['modern'].pk}"
    assert "Poursuite" in text(client.get(url))
    response = client.post(
        url,
        {
            "terrain": "foot",
            "objective": "40",
            "points": "0",
            "lead": "6",
            "round": "2",
            "risk": "flat_out",
            "pursued_successes": "1",
            "pursuer_successes": "1",
        },
    )
    assert response.status_code == 200
    from rules.rolls.models import RollRecord

    record = RollRecord.objects.get(resolver="chase")
    assert record.inputs["settings"]["chase_loss_die"] == 8
    assert "À fond : le piéton est en désavantage sur son test d'Endurance" in text(response)
