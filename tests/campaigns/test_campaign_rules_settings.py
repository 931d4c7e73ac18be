"""A campaign's rules settings (RULES-NOTES C1): what the text leaves open, each with its
stated default, chosen by the organisers, read by every member."""

import pytest
from django.urls import reverse

from campaigns.rules_settings.services import (
    campaign_rules_settings,
    campaign_rules_settings_set,
)
from campaigns.services import campaign_add_participant, campaign_create
from characters.permissions import Refusal
from rules.engine.systems.corporates import damage
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    organiser, participant = PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Arcologie", system="corporates")
    campaign_add_participant(actor=organiser, campaign=campaign, player=participant)
    return {"organiser": organiser, "participant": participant, "campaign": campaign}


def test_a_new_campaign_takes_every_stated_default(table):
    settings = campaign_rules_settings(table["campaign"])
    assert settings["damage_points_per_level"] == 5
    assert settings["tie_succeeds"] is True


def test_the_organiser_chooses_and_the_resolvers_follow(table):
    campaign = campaign_rules_settings_set(
        actor=table["organiser"],
        campaign=table["campaign"],
        settings={"damage_points_per_level": "1", "tie_succeeds": "false"},
    )
    settings = campaign_rules_settings(campaign)
    assert settings["damage_points_per_level"] == 1
    assert settings["tie_succeeds"] is False
    assert campaign.events.filter(verb="rules_settings").count() == 1
    # The table passes them to the resolvers: a margin of 7 is 7 levels, not 2.
    blow = {"damage_dice": 0, "damage_bonus": 7, "settings": settings}
    assert damage.evaluate({**blow, "damage_rolled": [], "soak_rolled": []})["levels"] == 7


def test_a_participant_cannot_change_them_and_a_bad_value_is_refused(table):
    with pytest.raises(Refusal) as refused:
        campaign_rules_settings_set(
            actor=table["participant"], campaign=table["campaign"], settings={}
        )
    assert refused.value.status == 403
    with pytest.raises(Refusal) as refused:
        campaign_rules_settings_set(
            actor=table["organiser"], campaign=table["campaign"], settings={"tie_succeeds": "7"}
        )
    assert refused.value.field == "tie_succeeds"


def test_the_page_saves_and_members_read(client, table):
    url = reverse("campaign-rules-settings", args=[table["campaign"].pk])
    client.force_login(table["organiser"])
    assert "(par défaut)" in client.get(url).content.decode()
    response = client.post(url, {"immobile_defence": "5"})
    assert response.status_code == 302
    client.force_login(table["participant"])
    body = client.get(url).content.decode()
    assert "csrfmiddlewaretoken" not in body.split("<main", 1)[1]  # read only
    table["campaign"].refresh_from_db()
    assert campaign_rules_settings(table["campaign"])["immobile_defence"] == 5


def test_the_api_answers_each_setting_with_its_default_and_passage(client, table):
    client.force_login(table["participant"])
    url = reverse("api-campaign-rules-settings", args=[table["campaign"].pk])
    answer = client.get(url).json()
    assert answer["open_settings"]["immobile_defence"]["default"] == 10
    assert "Défenseur immobile" in answer["open_settings"]["immobile_defence"]["ref"]
