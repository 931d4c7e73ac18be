"""Campaigns of Corporates and of the modern RPG can be created, by the service, the page
and the API; a system that offers nothing yet is still refused."""

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.services import campaign_create
from characters.permissions import Refusal
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("system", ["corporates", "modern-rpg"])
def test_it_creates_a_campaign_of_either_system(system):
    organiser = PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Night city", system=system)
    assert campaign.system == system
    assert campaign.events.filter(verb="created").exists()


def test_it_still_refuses_a_system_without_campaigns():
    with pytest.raises(Refusal) as refused:
        campaign_create(organiser=PlayerFactory(), name="R", system="chess")
    assert refused.value.field == "system"


def test_the_page_creates_a_modern_rpg_campaign(client):
    organiser = PlayerFactory()
    client.force_login(organiser)
    response = client.post(
        reverse("campaign-create"),
        {
            "name": "Poursuites",
            "system": "modern-rpg",
            "survival_points_survive": 1,
            "survival_points_victory": 1,
        },
    )
    assert response.status_code == 302
    assert Campaign.objects.get(name="Poursuites").system == "modern-rpg"


def test_the_api_creates_a_corporates_campaign(client):
    client.force_login(PlayerFactory())
    response = client.post(
        reverse("api-campaign-list"),
        {"name": "Arcologie", "system": "corporates"},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert Campaign.objects.get(name="Arcologie").system == "corporates"
