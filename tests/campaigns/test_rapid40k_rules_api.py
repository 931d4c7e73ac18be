"""The rules API serves Rapid 40000: the cost formula and the combat resolvers."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def post(client, resolver, verb, body, **extra):
    url = reverse("api-resolve", kwargs={"system": "rapid40k", "resolver": resolver, "verb": verb})
    return client.post(url, body, content_type="application/json", **extra)


def test_it_prices_the_sergeant_of_the_issue_at_88_points(client):
    body = {"quality": 3, "combat": 3, "weapon": "fusil_assaut", "special_rules": ["sous_officier"]}
    response = post(client, "cost", "evaluate", body)
    assert response.status_code == 200
    assert response.json()["points"] == 88


def test_it_refuses_an_unknown_slug_with_a_400_naming_it(client):
    body = {
        "quality": 3,
        "combat": 3,
        "weapon": "fusil_assaut",
        "special_rules": ["charge_ferroce"],
    }
    response = post(client, "cost", "evaluate", body, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert list(response.json()) == ["special_rules"]
    assert "charge_ferroce" in response.json()["special_rules"][0]
    weapon = post(client, "cost", "evaluate", {**body, "special_rules": [], "weapon": "laser"})
    assert weapon.status_code == 400
    assert "laser" in weapon.json()["weapon"][0]


def test_it_lists_rapid40k_and_its_resolvers(client):
    systems = client.get(reverse("api-rules")).json()["systems"]
    rapid = next(s for s in systems if s["slug"] == "rapid40k")
    assert {r["name"] for r in rapid["resolvers"]} == {
        "cost",
        "melee",
        "shooting",
        "overwatch",
        "deviation",
        "morale",
        "disengage",
        "vehicle",
    }


def test_it_rolls_a_melee_on_the_server_for_a_player(client, player):
    client.force_login(player)
    body = {"a": {"figures": 2, "combat": 3}, "b": {"figures": 4, "combat": 2}}
    response = post(client, "melee", "roll", body)
    assert response.status_code == 201
    assert response.json()["outcome"] in {"a_wins", "b_wins", "tie"}
    assert len(response.json()["a_dice"]) == 2


def test_it_gives_shooting_odds_with_a_template_weapon(client):
    body = {
        "weapon": "lance_missile",
        "quality": 3,
        "combat": 3,
        "target": {"figures": 3, "combat": 3},
    }
    odds = post(client, "shooting", "odds", body).json()
    assert odds["outcomes_exact"]["deviated"] == "7/27"
    assert abs(sum(odds["outcomes"].values()) - 1) < 1e-12
