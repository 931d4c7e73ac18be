"""A table write sent again with its key acts once and gets the first answer: a retry after
a timeout, the offline queue sent again once back, a double tap (rules.table.idempotency)."""

import threading

import pytest
from django.db import connection, connections
from django.urls import reverse
from rest_framework.test import APIClient

from characters.kolaps import services as kolaps
from rules.table.idempotency import HEADER, REPLAYED
from rules.table.models import Combatant, EncounterEntry, TableWrite
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_advance,
    encounter_create_for_chapter,
    encounter_create_standalone,
    encounter_set_directive,
)
from tests.factories import PlayerFactory
from tests.rules.table import test_kolaps_stray_target_side as stray_shots
from tests.rules.table.otd_fixtures import otd_chapter
from tests.table_fixtures import hunter_unit, pick_up_encounter, police_unit

KEY = "phone-1-0001"


def _api(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def _wound(encounter) -> dict:
    target = Combatant.objects.filter(encounter=encounter, side="Meute").first()
    return {"kind": "wound", "target": target.pk, "wound": "superficial"}


def _lines(encounter) -> int:
    return EncounterEntry.objects.filter(encounter=encounter).count()


@pytest.mark.django_db
def test_the_same_key_twice_acts_once_and_answers_the_first_answer():
    orga = PlayerFactory(username="orga")
    encounter = pick_up_encounter(orga)
    api, url = _api(orga), reverse("api-table-act", args=[encounter.pk])
    first = api.post(url, _wound(encounter), format="json", headers={HEADER: KEY})
    assert first.status_code == 200
    lines = _lines(encounter)
    again = api.post(url, _wound(encounter), format="json", headers={HEADER: KEY})
    assert again.status_code == 200 and again[REPLAYED] == "true"
    assert again.json() == first.json()
    assert again["X-Encounter-Version"] == first["X-Encounter-Version"]
    assert _lines(encounter) == lines
    # Another key is another write.
    other = api.post(url, _wound(encounter), format="json", headers={HEADER: "phone-1-0002"})
    assert other.status_code == 200 and _lines(encounter) == lines + 1


@pytest.mark.django_db
def test_a_refused_write_keeps_nothing_and_the_same_key_is_judged_again():
    orga = PlayerFactory(username="orga")
    encounter = pick_up_encounter(orga)
    api, url = _api(orga), reverse("api-table-act", args=[encounter.pk])
    stale = {**_wound(encounter), "version": encounter.version + 5}
    assert api.post(url, stale, format="json", headers={HEADER: KEY}).status_code == 409
    assert not TableWrite.objects.exists()
    fresh = {**_wound(encounter), "version": encounter.version}
    answer = api.post(url, fresh, format="json", headers={HEADER: KEY})
    assert answer.status_code == 200 and REPLAYED not in answer


@pytest.mark.django_db
def test_a_key_is_each_players_own():
    orga, bruno = PlayerFactory(username="orga"), PlayerFactory(username="bruno")
    encounter = pick_up_encounter(orga, bruno)
    hunters = Combatant.objects.filter(encounter=encounter, side="Meute")
    url = reverse("api-table-directive", args=[encounter.pk])
    for player, figure in ((orga, hunters[0]), (bruno, hunters[1])):
        body = {"combatant": figure.pk, "directive": "offensive"}
        # orga acts for everyone; bruno for his own hunters: the same key, two writes.
        answer = _api(player).post(url, body, format="json", headers={HEADER: KEY})
        assert answer.status_code == 200 and REPLAYED not in answer
    assert TableWrite.objects.filter(key=KEY).count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["short", "x" * 65, "a key with spaces", "clé-accentuée"])
def test_a_malformed_key_is_refused_with_a_sentence_and_nothing_acts(key):
    orga = PlayerFactory(username="orga")
    encounter = pick_up_encounter(orga)
    lines = _lines(encounter)
    answer = _api(orga).post(
        reverse("api-table-act", args=[encounter.pk]),
        _wound(encounter),
        format="json",
        headers={HEADER: key},
    )
    assert answer.status_code == 400 and "idempotency_key" in answer.json()
    assert _lines(encounter) == lines


@pytest.mark.django_db
def test_an_outsider_with_a_key_hears_404_and_keeps_nothing():
    orga, eve = PlayerFactory(username="orga"), PlayerFactory(username="eve")
    encounter = pick_up_encounter(orga)
    answer = _api(eve).post(
        reverse("api-table-act", args=[encounter.pk]),
        _wound(encounter),
        format="json",
        headers={HEADER: KEY},
    )
    assert answer.status_code == 404 and not TableWrite.objects.exists()


@pytest.mark.django_db
def test_a_page_form_sent_twice_with_its_key_acts_once(client):
    orga = PlayerFactory(username="orga")
    encounter = pick_up_encounter(orga)
    client.force_login(orga)
    url = reverse("table-act", args=[encounter.pk])
    body = {**_wound(encounter), "roll": "server", "idempotency_key": KEY}
    body["version"] = encounter.version
    assert client.post(url, body).status_code == 302  # back to the table
    lines = _lines(encounter)
    # Sent again (a timeout, a double tap): the table as it stands, not "this changed".
    assert client.post(url, body).status_code == 302
    assert _lines(encounter) == lines


@pytest.mark.django_db
def test_the_undo_button_tapped_twice_undoes_once(client):
    orga = PlayerFactory(username="orga")
    encounter = pick_up_encounter(orga)
    for _ in range(2):
        encounter_act(
            actor=orga, encounter=encounter, version=None, action=ActionInput(**_wound(encounter))
        )
    encounter.refresh_from_db()
    client.force_login(orga)
    undo = reverse("table-undo", args=[encounter.pk])
    tap = {"idempotency_key": "undo-tap-0001", "version": encounter.version}
    answers = [client.post(undo, tap).status_code for _ in range(2)]
    assert answers == [302, 302]
    assert EncounterEntry.objects.filter(encounter=encounter, undone_by__isnull=False).count() == 1


@pytest.mark.django_db
def test_without_a_key_a_page_write_costs_what_it_did(client):
    orga = PlayerFactory(username="orga")
    encounter = pick_up_encounter(orga)
    client.force_login(orga)
    url = reverse("table-undo", args=[encounter.pk])
    encounter_act(
        actor=orga,
        encounter=encounter,
        version=None,
        action=ActionInput(**_wound(encounter)),
    )
    client.post(url)
    assert not TableWrite.objects.exists()


# --- Every write, the same key from four devices at once, on PostgreSQL --------------------


def _kolaps():
    orga = PlayerFactory(username="orga")
    encounter = pick_up_encounter(orga)
    hunters = list(Combatant.objects.filter(encounter=encounter, side="Meute"))
    return orga, encounter, hunters


def _write_cases():
    """Each write of the table: setup() -> (author, encounter, its API route, its body)."""

    def act():
        orga, encounter, _ = _kolaps()
        return orga, encounter, "api-table-act", _wound(encounter)

    def undo():
        orga, encounter, _ = _kolaps()
        encounter_act(
            actor=orga, encounter=encounter, version=None, action=ActionInput(**_wound(encounter))
        )
        return orga, encounter, "api-table-undo", {}

    def directive():
        orga, encounter, hunters = _kolaps()
        body = {"combatant": hunters[0].pk, "directive": "offensive"}
        return orga, encounter, "api-table-directive", body

    def reveal():
        orga, encounter, hunters = _kolaps()
        encounter_set_directive(
            actor=orga,
            encounter=encounter,
            version=None,
            combatant=hunters[0].pk,
            directive="offensive",
        )
        return orga, encounter, "api-table-reveal", {"combatant": hunters[0].pk}

    def advance():
        orga, encounter, _ = _kolaps()
        return orga, encounter, "api-table-advance", {}

    def end():
        orga, encounter, _ = _kolaps()
        encounter_advance(actor=orga, encounter=encounter, version=None)
        return orga, encounter, "api-table-end", {}

    def add():
        chapter, organiser, _anna, _boris = otd_chapter()
        encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
        body = {"kind": "zombie", "zombie_type": "zonard", "count": 2, "reflexes": 2}
        body.update(combat=2, life=1)
        return organiser, encounter, "api-table-add", body

    def stray():
        orga, alice, bruno = (PlayerFactory(username=n) for n in ("orga", "alice", "bruno"))
        police = police_unit(alice, "Brigade", ("Martel", "Roux", "Blanc"))
        hunters = hunter_unit(bruno, "Meute", ("Croc", "Griffe", "Dent"))
        police = kolaps.unit_share(actor=alice, unit=police, version=police.version)
        hunters = kolaps.unit_share(actor=bruno, unit=hunters, version=hunters.version)
        encounter = encounter_create_standalone(actor=orga, units=[police, hunters])
        encounter_advance(actor=orga, encounter=encounter, version=None)
        game = {"orga": orga, "alice": alice, "bruno": bruno, "encounter": encounter}
        stray_shots._stray(game, 2)  # a miss, the stray die 2: bruno chooses Croc's ally
        dent = Combatant.objects.get(encounter=encounter, name="Dent")
        return bruno, encounter, "api-table-stray", {"ally": dent.pk, "dice": {"death_die": [5]}}

    return [act, undo, directive, reveal, advance, end, add, stray]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
@pytest.mark.parametrize("case", _write_cases(), ids=lambda case: case.__name__)
def test_every_write_sent_at_once_from_four_devices_with_one_key_acts_once(case):
    author, encounter, name, body = case()
    encounter.refresh_from_db()
    body = {**body, "version": encounter.version}  # the four devices saw the same state
    lines_before = _lines(encounter)
    url = reverse(name, args=[encounter.pk])
    answers: list = []
    errors: list = []
    start = threading.Barrier(4)

    def device():
        try:
            api = _api(author)
            start.wait(10)
            answers.append(api.post(url, body, format="json", headers={HEADER: KEY}))
        except Exception as exc:  # a thread's failure is the test's
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=device) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    assert [a.status_code for a in answers] == [200] * 4, [a.content[:300] for a in answers]
    # One effect: one line more in the log, one version more.
    assert _lines(encounter) == lines_before + 1
    assert len({a["X-Encounter-Version"] for a in answers}) == 1
    assert sum(1 for a in answers if a.get(REPLAYED) == "true") == 3
    # The same answer to every device.
    bodies = [a.json() for a in answers]
    assert all(b == bodies[0] for b in bodies)
