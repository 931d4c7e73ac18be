"""Two devices acting at once on PostgreSQL: no update lost, no log out of step.

Each device sends the version it saw; a stale one gets "this changed" (Stale, 409) and the
device tries again on the new state, as the page does."""

import threading

import pytest
from django.db import connection, connections, transaction

from characters.permissions import Refusal
from rules.table.models import Combatant, Encounter, EncounterEntry, EntryKind
from rules.table.services import ActionInput, Stale, encounter_act, encounter_undo
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]


def _version(encounter_id):
    return EncounterEntry.objects.filter(encounter_id=encounter_id).order_by("-version")[0].version


def _device(fn, count, errors):
    def run():
        try:
            done = 0
            while done < count:
                try:
                    fn()
                    done += 1
                except Stale:
                    continue
        except Exception as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    return threading.Thread(target=run)


def test_two_devices_fifty_wounds_each_on_one_combatant_lose_none():
    organiser = PlayerFactory(username="orga")
    encounter = pick_up_encounter(organiser)
    target = Combatant.objects.filter(encounter=encounter).last()
    Combatant.objects.filter(pk=target.pk).update(sante=6)

    def wound():
        encounter_act(
            actor=organiser,
            encounter=encounter,
            version=_version(encounter.pk),
            action=ActionInput(kind="wound", target=target.pk, wound="superficial"),
        )

    errors: list = []
    devices = [_device(wound, 50, errors) for _ in range(2)]
    for device in devices:
        device.start()
    for device in devices:
        device.join(120)
    assert not errors
    target.refresh_from_db()
    encounter.refresh_from_db()
    # 100 superficial wounds (K8: -1 Santé each, never below 1), each once.
    assert target.wounds == 100 and target.sante == 1
    entries = list(EncounterEntry.objects.filter(encounter=encounter).order_by("version"))
    assert [e.version for e in entries] == list(range(1, 102)) and encounter.version == 101
    assert sum(e.kind == EntryKind.ACTION for e in entries) == 100


def test_an_action_and_an_undo_racing_leave_a_consistent_log():
    organiser = PlayerFactory(username="orga")
    encounter = pick_up_encounter(organiser)
    target = Combatant.objects.filter(encounter=encounter).last()

    def act():
        encounter_act(
            actor=organiser,
            encounter=encounter,
            version=None,
            action=ActionInput(kind="wound", target=target.pk, wound="superficial"),
        )

    def undo():
        try:
            encounter_undo(actor=organiser, encounter=encounter, version=None)
        except Stale:
            raise
        except Refusal:
            pass  # nothing to undo yet: the undo came first, and the page would say so

    errors: list = []
    for _ in range(15):
        devices = [_device(act, 1, errors), _device(undo, 1, errors)]
        for device in devices:
            device.start()
        for device in devices:
            device.join(60)
    assert not errors
    target.refresh_from_db()
    entries = list(EncounterEntry.objects.filter(encounter=encounter).order_by("version"))
    actions = [e for e in entries if e.kind == EntryKind.ACTION]
    undos = [e for e in entries if e.kind == EntryKind.UNDO]
    assert [e.version for e in entries] == list(range(1, len(entries) + 1))
    # Every undo undid exactly one action, made before it; the wounds left are the rest.
    undone = {e.pk: e.undone_by_id for e in actions if e.undone_by_id}
    assert sorted(undone.values()) == sorted(u.pk for u in undos)
    by_pk = {e.pk: e for e in entries}
    assert all(by_pk[u].version > by_pk[a].version for a, u in undone.items())
    assert target.wounds == len(actions) - len(undos) == 15 - len(undos)


def test_two_devices_fifty_noises_each_on_one_of_the_dead_figure_lose_none():
    """Faire du bruit: "le joueur empile alors 2 marqueurs de bruit" — 100 actions from two
    devices at once, each applied once on the state the other left."""
    from rules.table.services import encounter_create_for_chapter
    from tests.rules.table.otd_fixtures import otd_chapter

    chapter, organiser, _anna, _boris = otd_chapter()
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    figure = Combatant.objects.get(encounter=encounter, name="Anna")

    def noise():
        encounter_act(
            actor=organiser,
            encounter=encounter,
            version=_version(encounter.pk),
            action=ActionInput(kind="make_noise", actor=figure.pk, target=figure.pk),
        )

    # Make noise is an action-phase action.
    from rules.table.services import encounter_advance

    encounter_advance(actor=organiser, encounter=encounter, version=None)
    errors: list = []
    devices = [_device(noise, 50, errors) for _ in range(2)]
    for device in devices:
        device.start()
    for device in devices:
        device.join(120)
    assert not errors
    figure.refresh_from_db()
    assert figure.state["noise"] == 200
    entries = EncounterEntry.objects.filter(encounter=encounter, kind=EntryKind.ACTION)
    assert entries.count() == 100


def test_two_phones_playing_the_same_of_the_dead_figure_at_once_play_it_once():
    """O5 enforced under the lock: the organiser's phone and Anna's both send Anna's action
    in her turn, without a version; one plays, the other is told she has played."""
    from rules.table.services import encounter_advance, encounter_create_for_chapter
    from tests.rules.table.otd_fixtures import add_zombies, otd_chapter

    chapter, organiser, anna, _boris = otd_chapter()
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    add_zombies(organiser, encounter, "zonard", 2)
    encounter_advance(actor=organiser, encounter=encounter, version=None)
    me = Combatant.objects.get(encounter=encounter, name="Anna")
    start = threading.Barrier(2)
    refusals: list[str] = []
    errors: list = []

    def phone(user):
        def run():
            try:
                start.wait()
                encounter_act(
                    actor=user,
                    encounter=encounter,
                    version=None,
                    action=ActionInput(kind="pass", actor=me.pk, target=me.pk),
                )
            except Refusal as refusal:
                refusals.append(str(refusal.message))
            except Exception as exc:
                errors.append(exc)
            finally:
                connections.close_all()

        return threading.Thread(target=run)

    phones = [phone(organiser), phone(anna)]
    for t in phones:
        t.start()
    for t in phones:
        t.join()
    assert errors == []
    assert refusals == ["Anna a déjà joué dans cette phase."]
    passes = EncounterEntry.objects.filter(encounter=encounter, kind=EntryKind.ACTION)
    assert passes.count() == 1


def test_it_answers_an_outsider_at_once_while_a_players_action_holds_the_encounter():
    """The API's action authorises in the statement that locks: an outsider's request is
    refused (404) without taking the encounter's row lock, so it neither waits for the
    action holding it nor would make the next one wait."""
    from django.db import OperationalError
    from django.urls import reverse
    from rest_framework.test import APIClient

    organiser = PlayerFactory(username="orga")
    encounter = pick_up_encounter(organiser)
    target = Combatant.objects.filter(encounter=encounter).last()
    held, release = threading.Event(), threading.Event()
    errors: list = []

    def a_players_action_in_progress():
        try:
            with transaction.atomic():
                Encounter.objects.select_for_update().get(pk=encounter.pk)
                held.set()
                release.wait(30)
        except Exception as exc:
            errors.append(exc)
        finally:
            held.set()
            connections.close_all()

    holder = threading.Thread(target=a_players_action_in_progress)
    holder.start()
    try:
        assert held.wait(30)
        api = APIClient()
        api.force_authenticate(PlayerFactory(username="outsider"))
        body = {"kind": "wound", "target": target.pk, "wound": "superficial"}
        with connection.cursor() as cursor:
            # Waiting for the lock would fail the request instead of hanging the suite.
            cursor.execute("SET lock_timeout = '2s'")
        try:
            answer = api.post(reverse("api-table-act", args=[encounter.pk]), body, format="json")
        except OperationalError as error:
            pytest.fail(f"the outsider waited for the encounter's lock: {error}")
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
        assert answer.status_code == 404
    finally:
        release.set()
        holder.join(30)
    assert errors == []
