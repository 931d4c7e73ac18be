"""What the live table answers a write, at the cost the table's bench measures: the card
built directly equals DRF's serialiser of the declared schema, and an action reads nothing
back (its answer is what it wrote), in a fixed number of queries however big the encounter."""

import random

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from rules.engine.registry import resolver_get
from rules.rolls.models import RollRecord
from rules.table.api import TableCardSerializer, table_card_data
from rules.table.cards import table_card
from rules.table.models import Combatant, EncounterEntry
from rules.table.selectors import encounter_get_for_user
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_advance,
    encounter_create_standalone,
    encounter_set_directive,
    encounter_undo,
)
from tests.factories import PlayerFactory
from tests.table_fixtures import hunter_unit, pick_up_encounter, police_unit

pytestmark = pytest.mark.django_db


def test_the_card_built_directly_is_the_serializers_answer():
    organiser = PlayerFactory(username="orga")
    opponent = PlayerFactory(username="oppo")
    encounter = pick_up_encounter(organiser, opponent)
    police = list(Combatant.objects.filter(encounter=encounter, side="Brigade"))
    hunters = list(Combatant.objects.filter(encounter=encounter, side="Meute"))
    encounter_set_directive(
        actor=opponent, encounter=encounter, version=None, combatant=hunters[0].pk,
        directive="offensive",
    )  # fmt: skip
    wound = ActionInput(kind="wound", target=hunters[1].pk, wound="light", dice={"death_die": [6]})
    encounter_act(actor=organiser, encounter=encounter, version=None, action=wound)
    encounter_undo(actor=organiser, encounter=encounter, version=None)
    encounter_advance(actor=organiser, encounter=encounter, version=None)
    shot = ActionInput(kind="ranged", actor=police[0].pk, target=hunters[0].pk)
    encounter_act(actor=organiser, encounter=encounter, version=None, action=shot)
    for viewer, spectator in ((organiser, False), (opponent, False), (None, True)):
        seen = encounter_get_for_user(viewer or organiser, encounter.pk)
        for since in (None, 3):
            card = table_card(viewer, seen, spectator=spectator, log_since=since)
            assert table_card_data(card) == TableCardSerializer(card).data


@pytest.mark.parametrize("extra_members", [0, 8])
def test_an_action_answers_its_new_state_in_a_fixed_number_of_queries(
    django_assert_num_queries, extra_members
):
    organiser = PlayerFactory(username="orga")
    members = ("A", "B", *(f"M{i}" for i in range(extra_members)))
    ours = police_unit(organiser, "Brigade", members)
    theirs = hunter_unit(organiser, "Meute", members)
    encounter = encounter_create_standalone(actor=organiser, units=[ours, theirs])
    target = Combatant.objects.filter(encounter=encounter, side="Meute").first()
    api = APIClient()
    api.force_authenticate(organiser)
    url = reverse("api-table-act", args=[encounter.pk])
    body = {"kind": "wound", "target": target.pk, "wound": "superficial"}
    assert api.post(url, body, format="json").status_code == 200
    # savepoint; the encounter fetched, authorised and locked in one SELECT ... FOR UPDATE
    # (`Encounter.objects.visible_to`); combatants; the combatant; the encounter's version;
    # the server's roll with the log line naming it (one INSERT); release: nothing read back
    # for the answer. (6 while the lock was a hand-written UPDATE ... RETURNING that
    # counted the version too.)
    with django_assert_num_queries(7):
        answer = api.post(url, body, format="json")
    assert answer.status_code == 200
    state = answer.json()
    assert state["version"] == 3 and [
        line["version"] for t in state["log"] for line in t["lines"]
    ] == [3]
    shown = next(c for s in state["sides"] for c in s["combatants"] if c["id"] == target.pk)
    target.refresh_from_db()
    assert shown["sante"] == target.sante and shown["wounds"] == 2
    # The roll written with the line is the one the line names, and it replays.
    line = EncounterEntry.objects.get(encounter=encounter, version=3)
    roll = RollRecord.objects.get(pk=line.roll_id)
    assert roll.player == organiser and roll.dice == line.data["outcome"]["dice"]
    replayed = resolver_get(roll.system, roll.resolver).roll(roll.inputs, random.Random(roll.seed))
    assert replayed == line.data["outcome"]


@pytest.mark.parametrize("extra_members", [0, 8])
def test_an_undo_answers_its_new_state_in_a_fixed_number_of_queries(
    django_assert_num_queries, extra_members
):
    organiser = PlayerFactory(username="orga")
    members = ("A", "B", *(f"M{i}" for i in range(extra_members)))
    ours = police_unit(organiser, "Brigade", members)
    theirs = hunter_unit(organiser, "Meute", members)
    encounter = encounter_create_standalone(actor=organiser, units=[ours, theirs])
    target = Combatant.objects.filter(encounter=encounter, side="Meute").first()
    api = APIClient()
    api.force_authenticate(organiser)
    act = reverse("api-table-act", args=[encounter.pk])
    undo = reverse("api-table-undo", args=[encounter.pk])
    body = {"kind": "wound", "target": target.pk, "wound": "superficial"}
    assert api.post(act, body, format="json").status_code == 200
    assert api.post(undo, {}, format="json").status_code == 200
    assert api.post(act, body, format="json").status_code == 200
    # savepoint; the encounter fetched, authorised and locked in one SELECT ... FOR UPDATE
    # (`Encounter.objects.visible_to`); the newest line (the action undone); combatants; the
    # target's changed fields; the encounter's version; the undo's line; the action marked
    # undone; release: nothing read back for the answer (8 while the lock was a hand-written
    # UPDATE ... RETURNING that counted the version too; 14 before that).
    with django_assert_num_queries(9):
        answer = api.post(undo, {}, format="json")
    assert answer.status_code == 200
    state = answer.json()
    assert state["version"] == 5 and state["can_undo"] is False
    assert [line["version"] for t in state["log"] for line in t["lines"]] == [5]
    shown = next(c for s in state["sides"] for c in s["combatants"] if c["id"] == target.pk)
    target.refresh_from_db()
    assert shown["sante"] == target.sante == 6 and shown["wounds"] == target.wounds == 0
    assert EncounterEntry.objects.get(encounter=encounter, version=4).undone_by.version == 5
