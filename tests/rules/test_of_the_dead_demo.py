"""The demo shows Of the Dead at the table: alice's brawl, shot and Molotov rolled on the
server, each once, each replaying to the same outcome."""

import pytest
from django.core.management import call_command

from rules.rolls.models import RollRecord
from rules.rolls.services import roll_replay

pytestmark = pytest.mark.django_db


def test_the_demo_records_of_the_dead_rolls_once(client):
    call_command("demo_load", verbosity=0)
    call_command("demo_load", verbosity=0)
    rolls = RollRecord.objects.filter(system="of-the-dead", player__username="alice")
    assert sorted(rolls.values_list("resolver", flat=True)) == ["brawl", "shot", "throw"]
    assert all(roll_replay(record=record)["matches"] for record in rolls)
    client.force_login(rolls[0].player)
    client.cookies["django_language"] = "en"
    html = client.get("/rolls/").content.decode()
    assert "Brawl" in html and "Throw" in html
