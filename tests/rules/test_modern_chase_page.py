"""The organiser's chase tracker: rounds drawn on the server, the state carried forward."""

import pytest
from django.urls import reverse

from rules.rolls.models import RollRecord

pytestmark = pytest.mark.django_db

ROUND = {
    "terrain": "foot",
    "objective": "40",
    "points": "36",
    "lead": "6",
    "round": "3",
    "risk": "normal",
    "pursued_successes": "5",
    "pursuer_successes": "0",
}


def test_a_round_is_drawn_recorded_and_carried_forward(client, player):
    client.force_login(player)
    response = client.post(reverse("modern-chase"), ROUND)
    body = response.content.decode()
    record = RollRecord.objects.get(system="modern-rpg", resolver="chase")
    assert record.inputs["pursued_successes"] == 5
    # "accumuler le plus de points possibles pour atteindre un but (40 points par exemple)"
    assert "Objectif atteint" in body or "Rattrapé" in body
    assert 'name="round" value="4"' in body
    assert 'name="points" value="41"' in body


def test_the_panel_comes_alone_to_htmx(client, player):
    client.force_login(player)
    response = client.post(
        reverse("modern-chase"), ROUND, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="chase-panel"
    )
    assert b"<html" not in response.content
    assert b'id="chase-panel"' in response.content


def test_a_bad_round_keeps_what_was_typed(client, player):
    client.force_login(player)
    response = client.post(reverse("modern-chase"), {**ROUND, "lead": "-3"})
    assert RollRecord.objects.count() == 0
    assert 'value="-3"' in response.content.decode()
