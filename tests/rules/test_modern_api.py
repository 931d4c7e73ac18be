"""The modern RPG resolvers through the rules API."""

import pytest
from django.urls import reverse


def resolve_url(name, verb):
    return reverse("api-resolve", kwargs={"system": "modern-rpg", "resolver": name, "verb": verb})


@pytest.mark.django_db
def test_it_lists_every_modern_resolver_with_its_input_schema(client):
    systems = {s["slug"]: s for s in client.get(reverse("api-rules")).json()["systems"]}
    names = [r["name"] for r in systems["modern-rpg"]["resolvers"]]
    assert names == ["test", "cold_blood", "attitude", "combat", "healing", "chase", "chase_test"]


@pytest.mark.django_db
def test_it_answers_the_odds_of_a_forced_test(client):
    body = {"characteristic": 8, "skill": 6, "force": True}
    response = client.post(resolve_url("test", "odds"), body, content_type="application/json")
    assert response.status_code == 200
    assert response.json()["forced"] is True


@pytest.mark.django_db
def test_it_refuses_a_face_the_die_cannot_show_with_a_sentence(client):
    body = {"characteristic": 8, "dice": [9]}
    response = client.post(resolve_url("test", "evaluate"), body, content_type="application/json")
    assert response.status_code == 400
    assert "1 dés" in str(response.json()) or "1 dice" in str(response.json())


@pytest.mark.django_db
def test_it_refuses_to_force_a_critical_failure(client):
    body = {"characteristic": 8, "dice": [1], "forced_dice": [3]}
    response = client.post(resolve_url("test", "evaluate"), body, content_type="application/json")
    assert response.status_code == 400
    assert "critique" in str(response.json()) or "critical" in str(response.json())
