"""Two opposite KOLAPS changes at once: one on a character, one on its unit.

A character's change used to lock the character then its unit, a unit's change the unit
then its member: run together, each held what the other waited for and PostgreSQL aborted
one of them (a 500 for that user). Both now lock the unit first."""

import contextlib
import threading

import pytest
from django.db import connection

from characters.kolaps import services as kolaps
from characters.permissions import Refusal
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_character_change_and_a_unit_change_at_once_both_finish_without_an_error(
    monkeypatch,
):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's")
    owner = PlayerFactory(username="racer")
    unit = kolaps.unit_create(owner=owner, name="Race")
    chief = kolaps.character_create(
        owner=owner, name="Chief", archetype="agent-de-police", rank="novice", unit=unit
    )
    unit.refresh_from_db()
    chief.refresh_from_db()

    # Each side waits, between its first and its second lock, for the other to have taken
    # its first one: the interleaving that deadlocked. With one lock order, the character's
    # side waits on the unit's lock instead, and the barrier gives up after a second.
    barrier = threading.Barrier(2, timeout=1.5)

    def meet():
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait()

    lock_unit_of, member = kolaps.lock_unit_of, kolaps._member
    monkeypatch.setattr(kolaps, "lock_unit_of", lambda c: (meet(), lock_unit_of(c))[1])
    monkeypatch.setattr(kolaps, "_member", lambda u, c: (meet(), member(u, c))[1])

    errors: list[BaseException] = []
    refusals: list[Refusal] = []

    def run(operation):
        try:
            operation()
        except Refusal as refusal:
            refusals.append(refusal)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [
        threading.Thread(
            target=run,
            args=(
                lambda: kolaps.character_rename(
                    actor=owner, character=chief, version=chief.version, name="Renamed"
                ),
            ),
        ),
        threading.Thread(
            target=run,
            args=(
                lambda: kolaps.unit_set_avatar(
                    actor=owner, unit=unit, version=unit.version, character=chief
                ),
            ),
        ),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert not errors, f"a change failed with an error instead of a sentence: {errors!r}"
    # Whichever took the unit first went through; the other either applied on the new
    # state or was refused as stale (409, "changed meanwhile"), never lost silently.
    assert all(r.status == 409 for r in refusals) and len(refusals) <= 1, refusals
    chief.refresh_from_db()
    applied = {"rename": chief.name == "Renamed", "avatar": chief.is_avatar}
    assert sum(applied.values()) == 2 - len(refusals), applied
