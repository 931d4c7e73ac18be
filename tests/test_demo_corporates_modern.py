"""The demo shows Corporates and the modern RPG: a campaign each, and worked examples
rolled on the server once, however often the demo is loaded."""

import io

import pytest
from django.core.management import call_command

from campaigns.models import Campaign
from rules.rolls.models import RollRecord


@pytest.mark.django_db
def test_the_demo_has_a_campaign_and_worked_examples_of_each_system():
    call_command("demo_load", stdout=io.StringIO())
    call_command("demo_load", stdout=io.StringIO())
    assert Campaign.objects.filter(system="corporates").count() == 1
    assert Campaign.objects.filter(system="modern-rpg").count() == 1
    corporates = RollRecord.objects.filter(system="corporates")
    assert sorted(corporates.values_list("resolver", flat=True)) == [
        "damage",
        "ramming",
        "shot",
        "takedown",
    ]
    modern = RollRecord.objects.filter(system="modern-rpg")
    assert sorted(modern.values_list("resolver", flat=True)) == [
        "chase",
        "chase_test",
        "combat",
        "combat",
        "test",
    ]
    # Bruno's buckshot rolls the campaign's d8 (its setting `buckshot_die`).
    buckshot = modern.get(resolver="combat", player__username="bruno")
    assert buckshot.inputs["settings"]["buckshot_die"] == 8
    second_round = modern.get(resolver="chase_test")
    assert second_round.outcome["round"] == 2 and second_round.outcome["endurance_disadvantage"]
    shot = corporates.get(resolver="shot")
    # "La difficulté est de 12": medium range 15, less the weapon's burst bonus 3.
    assert shot.outcome["difficulty"] == 12
