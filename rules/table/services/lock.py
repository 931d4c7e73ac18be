"""What every write of the live encounter shares: the lock, the version, the log.

A write locks the encounter's row through `Encounter.objects.visible_to(actor)` (who may not
see it hears 404 and locks nothing), refuses a stale version (`Stale`, 409), changes the
combatants it read under the lock, and appends its line to the log (`log`), which counts the
write in the encounter's version and saves what changed of the encounter's own fields.
"""

import copy
import secrets
from typing import Any

from django.db import connection, transaction
from django.db.models.expressions import RawSQL
from django.db.models.sql import InsertQuery
from django.http import Http404
from django.utils.translation import gettext as _

from campaigns.permissions import CAN_MANAGE
from characters.compiled import CompiledRead, fields_of
from characters.permissions import Forbidden, Refusal, Role
from rules.rolls.models import RollRecord
from rules.table.live import encounter_changed
from rules.table.models import (
    UNDO_LOOKS_PAST,
    Combatant,
    Encounter,
    EncounterEntry,
    EncounterStatus,
)
from rules.table.selectors import (
    encounter_authorize,
    encounter_locked_for_user,
    require_transaction,
)
from rules.table.systems import adapter_for

ENCOUNTER_FIELDS = ("turn", "phase", "attacker_side")
# What a write may change in the encounter's row besides its version.
ENCOUNTER_WRITTEN = (*ENCOUNTER_FIELDS, "status", "ended_at", "summary")


class Stale(Refusal):
    """Another change came first: the author sees the new state and decides again."""

    status = 409


def require_for(actor, roles: set[Role], combatant: Combatant) -> None:
    """The organiser acts for everyone, a player for their own combatants."""
    if roles & CAN_MANAGE or combatant.player_id == actor.pk:
        return
    raise Forbidden(_("You act only for your own combatants."))


def new_token() -> str:
    return secrets.token_urlsafe(32)


def _locked(actor, pk: int) -> Encounter:
    """The encounter numbered `pk`, its row locked until the commit, with its chapter and
    campaign and what `actor` is to it: 404 to who may not see it, whose row is left out
    before PostgreSQL would lock it."""
    found = encounter_locked_for_user(actor, pk)
    if found is None:
        raise Http404
    return found


def lock(actor, encounter: Encounter, version: int | None, *, live: bool = True) -> Encounter:
    """Lock the encounter's row for a write `actor` was authorised to make (`log` counts it
    in the version and saves the encounter's fields the write changed). `live=False`: an
    ended encounter too (its spectator link outlives the game), whatever its version."""
    locked = _locked(actor, encounter.pk)
    if live:
        check_live(locked, version)
    else:
        locked.locked_state = _encounter_state(locked)
    return locked


def lock_by_id(actor, pk: int, version: int | None) -> tuple[Encounter, set[Role]]:
    """The encounter numbered `pk` locked (`lock`), authorised for `actor` to act (404,
    403) before anything is told of its state (ended, or changed since `version`): the API
    fetches, authorises and locks in one statement."""
    locked = _locked(actor, pk)
    roles = encounter_authorize(actor, locked, "act")
    check_live(locked, version)
    return locked, roles


def check_live(locked: Encounter, version: int | None) -> None:
    if locked.status != EncounterStatus.LIVE:
        raise Refusal(_("This encounter has ended."), status=409)
    if version is not None and version != locked.version:
        raise Stale(_("This changed while you were deciding: here is the new state."))
    locked.locked_state = _encounter_state(locked)


def _encounter_state(encounter: Encounter) -> dict[str, Any]:
    return copy.deepcopy({name: getattr(encounter, name) for name in ENCOUNTER_WRITTEN})


def _fields(combatant: Combatant) -> tuple[str, ...]:
    return adapter_for(combatant.encounter.system).STATE_FIELDS


def snapshot(combatant: Combatant) -> dict[str, Any]:
    """The combatant's live state (its system's fields). A system's adapter gives a field a
    new value, never changes a dict or list in place, so that a snapshot tells what changed."""
    return {name: getattr(combatant, name) for name in _fields(combatant)}


def log(encounter: Encounter, author, kind: str, *, before=None, **fields) -> EncounterEntry:
    """The write's line in the log, at the encounter's next version: the encounter's row
    saved with it (its version, and those of its fields the write changed since `lock`;
    all of them for a new encounter)."""
    locked_state = getattr(encounter, "locked_state", None)
    encounter.version += 1
    changed = [
        name
        for name in ENCOUNTER_WRITTEN
        if locked_state is None or getattr(encounter, name) != locked_state[name]
    ]
    encounter.save(update_fields=["version", *changed])
    encounter.locked_state = None  # a second line in the same write counts again
    entry = EncounterEntry(
        encounter=encounter,
        version=encounter.version,
        turn=encounter.turn,
        phase=encounter.phase,
        kind=kind,
        author=author,
        before=before or {},
        **fields,
    )
    roll = fields.get("roll")
    if roll is not None and roll.pk is None:
        _insert_with_roll(entry, roll)
    else:
        entry.save(force_insert=True)
    transaction.on_commit(lambda: encounter_changed(encounter.pk, encounter.version))
    return entry


def _insert_sql(obj, returning: list) -> tuple[str, tuple]:
    """The ORM's INSERT of `obj` (its automatic fields set as `save` sets them)."""
    meta = obj._meta
    query = InsertQuery(type(obj))
    query.insert_values([f for f in meta.local_concrete_fields if f is not meta.auto_field], [obj])
    compiler = query.get_compiler(connection=connection)
    compiler.returning_fields = returning
    [(sql, params)] = compiler.as_sql()
    return sql, tuple(params)


def _insert_with_roll(entry: EncounterEntry, roll: RollRecord) -> None:
    """The server's roll and the log line naming it: one statement on PostgreSQL (the roll's
    INSERT in a WITH), one round trip fewer for every action the server rolls."""
    if connection.vendor != "postgresql":
        roll.save(force_insert=True)
        entry.roll = roll
        entry.save(force_insert=True)
        return
    roll_sql, roll_params = _insert_sql(roll, [RollRecord._meta.pk])
    entry.roll_id = RawSQL('(SELECT "id" FROM "roll")', ())
    entry_sql, entry_params = _insert_sql(
        entry, [EncounterEntry._meta.pk, EncounterEntry._meta.get_field("roll")]
    )
    with connection.cursor() as cursor:
        cursor.execute(f'WITH "roll" AS ({roll_sql}) {entry_sql}', roll_params + entry_params)
        entry.pk, roll.pk = cursor.fetchone()
    for saved in (roll, entry):
        saved._state.adding, saved._state.db = False, connection.alias
    entry.roll = roll


def save_state(*combatants: Combatant, before: dict[str, dict] | None = None) -> None:
    """Write the combatants' live state: with `before` (their snapshots by id), only the
    fields that changed since (an action changes two or three of a figure's fifteen)."""
    for combatant in combatants:
        names = list(_fields(combatant))
        if before is not None:
            was = before[str(combatant.pk)]
            names = [name for name in names if getattr(combatant, name) != was[name]]
        if names:
            combatant.save(update_fields=names)


def combatant_locked(encounter: Encounter, pk, field: str) -> Combatant:
    """One combatant of the encounter, locked: a refusal naming `field` if it is not one."""
    found = None
    if pk is not None:
        found = Combatant.objects.select_for_update().filter(encounter=encounter, pk=pk).first()
    if found is None:
        raise Refusal(_("Choose a combatant of this encounter."), field=field)
    found.encounter = encounter
    return found


# Two reads of every action and undo, compiled once per process (characters.compiled):
# through the API, an action took 4.8-5.1 ms of CPU and its undo 5.6-6.0 ms with these
# querysets compiled on each write, 4.3 and 4.5 ms here (tests/benchmarks/
# test_table_page_bench.py, "the writes that grew the log", medians of 100, in turn
# 2026-11-28).
_COMBATANTS_LOCKED = CompiledRead(
    lambda pk: (
        Combatant.objects.select_for_update()
        .filter(encounter_id=pk)
        .order_by("position", "pk")
        .values_list(*fields_of(Combatant))
    )
)
# The newest line an undo does not look past, as a one-row list.
_NEWEST_LINE = CompiledRead(
    lambda pk: (
        EncounterEntry.objects.filter(encounter_id=pk)
        .exclude(kind__in=UNDO_LOOKS_PAST)
        .order_by("-version")
        .values_list(*fields_of(EncounterEntry))[:1]
    )
)


def combatants_locked(encounter: Encounter) -> list[Combatant]:
    """Every combatant of the encounter, locked, in their order: inside the write's
    transaction only (`require_transaction`)."""
    require_transaction()
    found = _COMBATANTS_LOCKED.objects(encounter.pk)
    for combatant in found:
        combatant.encounter = encounter
    return found


def newest_line(encounter: Encounter) -> EncounterEntry | None:
    """The encounter's newest line but those an undo looks past (an undo, a spectator
    link): what an undo takes back, if it is an action."""
    return next(iter(_NEWEST_LINE.objects(encounter.pk)), None)
