"""Who left a campaign no longer gets its live table; a write must say the version it was
made on (a profile's, an encounter's), else it is refused with a field error."""

import pytest
from django.urls import reverse

from campaigns.services import campaign_leave
from characters.models import Profile
from characters.profiles.services import profile_create
from rules.table.models import Combatant
from tests.factories import PlayerFactory
from tests.table_fixtures import otd_table_roles, pick_up_encounter

pytestmark = pytest.mark.django_db


def test_a_player_who_left_the_campaign_no_longer_gets_its_table(client):
    organiser, participant = PlayerFactory(), PlayerFactory()
    encounter = otd_table_roles(organiser=organiser, participant=participant)["table_otd"]
    survivor = Combatant.objects.get(encounter=encounter, player__isnull=False).player
    client.force_login(survivor)
    url = reverse("api-table-encounter", args=[encounter.pk])
    assert client.get(url).json()["can_act"] is True
    campaign_leave(player=survivor, campaign=encounter.chapter.campaign)
    assert client.get(url).status_code == 404
    assert client.get(reverse("table-encounter", args=[encounter.pk])).status_code == 404


def test_a_combatants_player_still_takes_part_in_a_pick_up_game(client):
    organiser, opponent = PlayerFactory(), PlayerFactory()
    encounter = pick_up_encounter(organiser, opponent)
    client.force_login(opponent)
    assert client.get(reverse("api-table-encounter", args=[encounter.pk])).status_code == 200


def test_a_table_write_with_a_null_version_is_refused_with_a_field_error(client):
    organiser = PlayerFactory()
    encounter = pick_up_encounter(organiser)
    target = Combatant.objects.filter(encounter=encounter).first().pk
    client.force_login(organiser)
    body = {"kind": "wound", "target": target, "wound": "benign", "version": None}
    response = client.post(
        reverse("api-table-act", args=[encounter.pk]), body, content_type="application/json"
    )
    assert response.status_code == 400
    assert "version" in response.json()
    response = client.post(
        reverse("api-table-advance", args=[encounter.pk]),
        {"version": None},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "version" in response.json()
    for write in ("api-table-advance", "api-table-undo", "api-table-end"):
        response = client.post(
            reverse(write, args=[encounter.pk]), {}, content_type="application/json"
        )
        assert response.status_code < 500, write


def test_a_profile_patch_without_its_version_is_refused_and_changes_nothing(client):
    player = PlayerFactory()
    profile_create(actor=player, player=player, physique=2, psychique=2, reflexes=3, combat=2)
    client.force_login(player)
    url = reverse("api-profile-mine")
    response = client.patch(url, {"description": "Écrasé"}, content_type="application/json")
    assert response.status_code == 400
    assert "version" in response.json()
    assert Profile.objects.get(player=player).description != "Écrasé"
    version = Profile.objects.get(player=player).version
    response = client.patch(
        url, {"description": "Tenace", "version": version}, content_type="application/json"
    )
    assert response.status_code == 200
