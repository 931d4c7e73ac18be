"""Names are user text: on the live page, in the figures' cards and in the log's lines (drawn
by its Jinja2 partial), a name holding HTML is shown as text, never run, and its page and
its partials say the same."""

import pytest
from django.test import Client
from django.urls import reverse

from rules.table.models import Combatant
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_create_standalone,
    encounter_undo,
)
from tests.factories import PlayerFactory
from tests.table_fixtures import hunter_unit, police_unit

pytestmark = pytest.mark.django_db
NAME = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


def test_a_name_holding_a_script_is_shown_as_text_in_the_cards_and_the_log():
    orga = PlayerFactory(username="orga")
    police = police_unit(orga, f"Brigade {NAME}", (NAME, "Roux"))
    hunters = hunter_unit(orga, "Meute")
    encounter = encounter_create_standalone(actor=orga, units=[police, hunters])
    target = Combatant.objects.get(encounter=encounter, name=NAME)
    wound = ActionInput(kind="wound", target=target.pk, wound="superficial")
    encounter_act(actor=orga, encounter=encounter, version=encounter.version, action=wound)
    encounter.refresh_from_db()
    encounter_undo(actor=orga, encounter=encounter, version=encounter.version)
    client = Client()
    client.force_login(orga)
    url = reverse("table-encounter", args=[encounter.pk])
    for headers in ({}, {"HX-Request": "true", "HX-Target": "table-state"}):
        page = client.get(url, headers=headers).content.decode()
        assert "<script>alert" not in page
        log = page.split('id="table-log"')[1]
        # The first line (the sides), the wound and its undo, each naming the figure.
        assert log.count(ESCAPED) >= 3, log
        assert f"<strong>{ESCAPED}</strong>" in page  # its card
