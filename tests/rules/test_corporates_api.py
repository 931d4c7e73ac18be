"""The Corporates resolvers through the rules API: listed with their schemas, answering the
three verbs, refusing bad input with a sentence."""

import pytest
from django.urls import reverse

from rules.rolls.models import RollRecord

NAMES = [
    "action",
    "reaction",
    "schedule",
    "shot",
    "damage",
    "covering_fire",
    "melee",
    "critical",
    "cyber",
    "takedown",
    "ramming",
]


def resolve_url(name, verb):
    return reverse("api-resolve", kwargs={"system": "corporates", "resolver": name, "verb": verb})


@pytest.mark.django_db
def test_it_lists_every_corporates_resolver_with_its_input_schema(client):
    systems = {s["slug"]: s for s in client.get(reverse("api-rules")).json()["systems"]}
    resolvers = {r["name"]: r for r in systems["corporates"]["resolvers"]}
    assert list(resolvers) == NAMES
    for resolver in resolvers.values():
        assert resolver["verbs"] == ["odds", "evaluate", "roll"]
        assert resolver["input_schema"]["type"] == "object"
        assert "settings" in resolver["input_schema"]["properties"]


@pytest.mark.django_db
def test_it_answers_the_odds_of_a_shot(client):
    body = {"pool": 4, "bonus": 5, "range": "medium", "size": "head"}
    response = client.post(resolve_url("shot", "odds"), body, content_type="application/json")
    assert response.status_code == 200
    assert response.json()["difficulty"] == 25


@pytest.mark.django_db
def test_it_judges_typed_damage_dice(client):
    body = {"damage_dice": 1, "soak_dice": 1, "damage_rolled": [6, 2], "soak_rolled": [3]}
    response = client.post(resolve_url("damage", "evaluate"), body, content_type="application/json")
    assert response.json()["levels"] == 1


@pytest.mark.django_db
def test_it_refuses_a_bad_body_with_a_sentence(client):
    body = {"damage_dice": 1, "damage_rolled": [6], "soak_rolled": []}
    response = client.post(resolve_url("damage", "evaluate"), body, content_type="application/json")
    assert response.status_code == 400
    assert "6" in str(response.json())


@pytest.mark.django_db
def test_a_server_roll_is_recorded_and_replays(client, player):
    client.force_login(player)
    body = {"pool": 3, "difficulty": 10}
    response = client.post(resolve_url("action", "roll"), body, content_type="application/json")
    assert response.status_code == 201
    record = RollRecord.objects.get(pk=response.json()["roll_id"])
    assert record.system == "corporates"
    assert len(record.dice) == 3
