"""A server roll's page shows the whole result: the Santé lost, the death roll that killed
the target and its die, never only "a wound" followed by a dead target."""

import pytest
from django.urls import reverse

from rules.rolls.models import RollRecord
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_a_killing_shot_shows_the_death_roll_that_killed(client):
    player = PlayerFactory()
    record = RollRecord.objects.create(
        player=player,
        system="kolaps",
        resolver="ranged",
        inputs={
            "attacker": {"rank": "veteran", "affiliation": "apc", "talents": {"fusil": 2}},
            "weapon": "fa-f4",
            "mode": "semi-auto",
            "distance_cm": 45,
            "target": {"order": "movement", "cover": 0},
        },
        seed=7,
        dice=[6, 5, 4],
        outcome={
            "outcome": "success",
            "row": "grave",
            "damage_value": 9,
            "dice": [6, 5, 4],
            "target": {
                "sante_before": 3,
                "sante_after": 0,
                "death_roll_threshold": 4,
                "killed": True,
            },
            "follow_up": {"death_die": [2]},
        },
    )
    client.force_login(player)
    html = client.get(reverse("roll-detail", args=[record.pk])).content.decode()
    assert "Santé de la cible 3 → 0" in html
    assert "Jet de mort de la cible" in html and ": 2" in html.replace("\u00a0", " ")
    assert "La cible est morte." in html
