"""A pick-up game takes your own units by their number, and another player's unit only by
the share token of its link: a unit's number is easy to guess, its token is not."""

import pytest
from django.urls import reverse

from characters.kolaps import services as kolaps
from tests.factories import PlayerFactory
from tests.table_fixtures import hunter_unit, pick_up_encounter, police_unit

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_players():
    mine, theirs = PlayerFactory(), PlayerFactory()
    police = police_unit(mine, "Brigade")
    hunters = hunter_unit(theirs, "Meute")
    hunters = kolaps.unit_share(actor=theirs, unit=hunters, version=hunters.version)
    return mine, police, hunters


def test_another_players_shared_unit_is_refused_by_its_number(client, two_players):
    mine, police, hunters = two_players
    client.force_login(mine)
    response = client.post(
        reverse("api-table-new"),
        {"units": [police.pk, hunters.pk]},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["units"] == ["Choisissez deux unités."]


def test_it_is_taken_by_the_token_of_its_link(client, two_players):
    mine, police, hunters = two_players
    client.force_login(mine)
    response = client.post(
        reverse("api-table-new"),
        {"units": [police.pk], "shared_units": [hunters.share_token]},
        content_type="application/json",
    )
    assert response.status_code == 201
    sides = [side["name"] for side in response.json()["sides"]]
    assert sides == ["Brigade", "Meute"]


def test_numbers_that_are_not_plain_digits_are_no_version_and_no_500(client):
    """ "²" passes `str.isdigit()` and fails `int()`: a catch-up from such a version, a write
    with it as its version, and typed dice made of it answer as for any bad number."""
    organiser = PlayerFactory()
    encounter = pick_up_encounter(organiser)
    client.force_login(organiser)
    state = client.get(reverse("api-table-encounter", args=[encounter.pk]), {"since": "²"})
    assert state.status_code == 200
    assert (
        client.get(
            reverse("api-table-encounter", args=[encounter.pk]), {"since": "9" * 5000}
        ).status_code
        == 200
    )
    page = client.post(
        reverse("table-advance", args=[encounter.pk]), {"version": "²"}, HTTP_HX_REQUEST="true"
    )
    assert page.status_code < 500
