"""The Of the Dead resolvers through the rules API: listed with their input schema, odds and
hand-typed dice for anyone, server rolls recorded and replayed, bad input a sentence."""

import pytest
from django.urls import reverse

from rules.rolls.models import RollRecord
from rules.rolls.services import roll_replay

pytestmark = pytest.mark.django_db

BRAWL = {"attacker": {"combat": 3, "zeal": True}, "defender": {"combat": 2, "life": 2}}


def post(client, resolver, verb, body, system="of_the_dead"):
    url = reverse("api-resolve", kwargs={"system": system, "resolver": resolver, "verb": verb})
    return client.post(url, body, content_type="application/json")


def test_it_lists_the_of_the_dead_resolvers_with_their_input_schema(client):
    body = client.get(reverse("api-rules")).json()
    system = next(s for s in body["systems"] if s["slug"] == "of-the-dead")
    names = {r["name"] for r in system["resolvers"]}
    assert names >= {"brawl", "shot", "throw", "blast", "check", "initiative", "movement"}
    shot = next(r for r in system["resolvers"] if r["name"] == "shot")
    cover = shot["input_schema"]["properties"]["defender"]["properties"]["cover"]
    assert cover["enum"] == ["none", "partial", "cover", "hidden"]


@pytest.mark.parametrize("system", ["of_the_dead", "of-the-dead"])
def test_it_answers_the_odds_of_a_brawl(client, system):
    response = post(client, "brawl", "odds", BRAWL, system=system)
    assert response.status_code == 200
    body = response.json()
    assert body["attack_dice"] == 3 and body["defence_dice"] == 2
    assert sum(body["damage"].values()) == pytest.approx(1)
    assert 0 < body["target_dies"] < 1


def test_it_judges_typed_dice_and_asks_for_the_next_roll(client):
    body = {**BRAWL, "attacker_dice": [6, 2, 5]}
    assert post(client, "brawl", "evaluate", body).json()["pending"]["field"] == "attacker_reroll"
    done = post(
        client, "brawl", "evaluate", {**body, "attacker_reroll": [4], "defender_dice": [2, 3]}
    ).json()
    assert done["damage"] == 3 and done["target_killed"] is True


def test_a_server_roll_is_recorded_and_replays(client, player):
    client.force_login(player)
    response = post(
        client, "shot", "roll", {"attacker": {"combat": 2}, "defender": {"reflexes": 1}}
    )
    assert response.status_code == 201
    record = RollRecord.objects.get(pk=response.json()["roll_id"])
    assert record.player == player and record.resolver == "shot"
    assert record.system == "of-the-dead"  # the system's slug, however the URL spelt it
    assert roll_replay(record=record)["matches"] is True


def test_bad_input_is_a_sentence_naming_the_field(client):
    response = post(
        client, "brawl", "odds", {"attacker": {"combat": 99}, "defender": {"combat": 1}}
    )
    assert response.status_code == 400
    assert "attacker.combat" in response.content.decode()
    response = post(client, "check", "odds", {"kind": "juggle", "attribute": 2})
    assert response.status_code == 400
