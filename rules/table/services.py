"""The only writer of the live encounter: create, act, undo, directives, phases, end.

Every service validates, then works in one transaction that locks the encounter row
(`select_for_update`): two devices acting at once are served one after the other. A write
carries the version of the encounter its author saw; when another change came first it is
refused with `Stale` (409: "this changed, here is the new state"), never applied on a state
its author did not see. Each change appends its line to the log (`EncounterEntry`: who,
when, what, at which version) and recomputes what follows from the state; the live pages
are told once the transaction has committed (`rules.table.live.encounter_changed`).
"""

import copy
import random
import secrets
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.db import connection, models, transaction
from django.db.models.expressions import RawSQL
from django.db.models.sql import InsertQuery
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.chapters.services import chapter_table_record
from campaigns.models import Chapter, ChapterStatus, ZombieType
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, campaign_role, member_role
from characters.compiled import CompiledRead, fields_of
from characters.corporates.models import CorporatesCharacter
from characters.kolaps.models import KolapsCharacter, KolapsUnit
from characters.models import Profile
from characters.permissions import Forbidden, Refusal, Role, require
from characters.profiles.models import ProfileStatus
from characters.rapid40k.models import Rapid40kArmy
from rules.engine.errors import RuleInputError
from rules.engine.registry import resolver_get
from rules.engine.systems.kolaps.ranged import ORDERS
from rules.rolls.models import RollRecord
from rules.rolls.services import _sentence
from rules.table import of_the_dead, rapid40k
from rules.table.kolaps import adapter as kolaps
from rules.table.kolaps.combatants import unit_combatants
from rules.table.live import encounter_changed, spectators_revoked
from rules.table.models import (
    UNDO_LOOKS_PAST,
    Combatant,
    Encounter,
    EncounterEntry,
    EncounterStatus,
    EntryKind,
    Phase,
)
from rules.table.systems import adapter_for, plays

TITLE_MAX = 160
ENCOUNTER_FIELDS = ("turn", "phase", "attacker_side")
# What a write may change in the encounter's row besides its version.
ENCOUNTER_WRITTEN = (*ENCOUNTER_FIELDS, "status", "ended_at", "summary")


class Stale(Refusal):
    """Another change came first: the author sees the new state and decides again."""

    status = 409


# --- Who may do what ----------------------------------------------------------------------


def encounter_role(user, encounter: Encounter) -> set[Role]:
    """Organisers (a chapter's campaign organisers, or who created a pick-up game) and
    participants (the campaign's players, or whoever plays a combatant)."""
    if not user.is_authenticated:
        return {Role.ANYONE}
    # What the viewer is to it, when read with the encounter (`rules.table.selectors`):
    # (their id, their membership of the campaign, whether they play a combatant).
    read = getattr(encounter, "viewer_read", None)
    if read is not None and read[0] != user.pk:
        read = None
    roles = {Role.ANYONE}
    if encounter.chapter_id is not None:
        campaign = encounter.chapter.campaign
        roles |= member_role(user, campaign, read[1]) if read else campaign_role(user, campaign)
    elif encounter.created_by_id == user.pk:
        roles.add(Role.ORGANISER)
    # A combatant's player takes part in a pick-up game; in a chapter's encounter, only
    # while a member of the campaign (who left it no longer sees or acts at its table).
    if (
        Role.ORGANISER not in roles
        and encounter.chapter_id is None
        and (read[2] if read else _plays(user, encounter))
    ):
        roles.add(Role.PARTICIPANT)
    return roles


def _plays(user, encounter: Encounter) -> bool:
    return encounter.combatants.filter(player=user).exists()


# What a view or API class asks of a viewer (`rules.table.selectors`): "view" and "act"
# (organisers and participants: a participant acts for their own combatants, which the
# service checks), "manage" (organisers).
NEEDS = {"view": CAN_VIEW, "act": CAN_VIEW, "manage": CAN_MANAGE}


def encounter_authorize(user, encounter: Encounter, need: str) -> set[Role]:
    """404 to who may not see the encounter, 403 (a sentence) to who sees it but may not do
    what `need` names; the viewer's roles, kept on the encounter (`viewer_roles`)."""
    roles = encounter_role(user, encounter)
    require(roles, NEEDS[need], visible=CAN_VIEW)
    encounter.viewer_roles, encounter.viewer_id = roles, user.pk
    return roles


def _require(actor, encounter: Encounter, allowed: set[Role]) -> set[Role]:
    # The roles the selector found for this actor (the request's viewer), else computed.
    roles = getattr(encounter, "viewer_roles", None)
    if not roles or getattr(encounter, "viewer_id", None) != actor.pk or actor.pk is None:
        roles = encounter_role(actor, encounter)
    if not roles & CAN_VIEW:
        raise Forbidden(_("You are not allowed to do this."))
    if not roles & allowed:
        raise Forbidden(_("Only the encounter's organisers may do this."))
    return roles


def _require_for(actor, roles: set[Role], combatant: Combatant) -> None:
    """The organiser acts for everyone, a player for their own combatants."""
    if roles & CAN_MANAGE or combatant.player_id == actor.pk:
        return
    raise Forbidden(_("You act only for your own combatants."))


# --- The lock, the version, the log -----------------------------------------------------------


@cache
def _lock_sql(*, visible: bool = False) -> str:
    """The lock and the version bump in one statement: the row, locked until the commit,
    comes back as it is now (its version already counts this write). `visible`: only when
    the user named by the further parameters may see it (`_visible_sql`)."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in Encounter._meta.concrete_fields)
    version = quote(Encounter._meta.get_field("version").column)
    where = f"{quote(Encounter._meta.pk.column)} = %s"
    if visible:
        where += f" AND {_visible_sql()}"
    return (
        f"UPDATE {quote(Encounter._meta.db_table)} SET {version} = {version} + 1 "
        f"WHERE {where} RETURNING {columns}"
    )


def _visible_sql() -> str:
    """`encounter_role`'s CAN_VIEW as SQL on the encounter's row, the user's id in each of
    its 4 parameters: the pick-up game's creator or a player of one of its combatants, the
    organiser or a member of its chapter's campaign (a test holds the two to agree)."""
    quote = connection.ops.quote_name

    def table(model: type[models.Model]) -> str:
        return quote(model._meta.db_table)

    def col(model: type[models.Model], name: str) -> str:
        return f"{table(model)}.{quote(model._meta.get_field(name).column)}"

    campaign = Chapter._meta.get_field("campaign").related_model
    member = campaign._meta.get_field("memberships").related_model
    return (
        f"({col(Encounter, 'chapter')} IS NULL AND ({col(Encounter, 'created_by')} = %s"
        f" OR EXISTS (SELECT 1 FROM {table(Combatant)}"
        f" WHERE {col(Combatant, 'encounter')} = {col(Encounter, 'id')}"
        f" AND {col(Combatant, 'player')} = %s))"
        f" OR EXISTS (SELECT 1 FROM {table(Chapter)} INNER JOIN {table(campaign)}"
        f" ON {col(campaign, 'id')} = {col(Chapter, 'campaign')}"
        f" WHERE {col(Chapter, 'id')} = {col(Encounter, 'chapter')}"
        f" AND ({col(campaign, 'organiser')} = %s OR EXISTS (SELECT 1 FROM {table(member)}"
        f" WHERE {col(member, 'campaign')} = {col(campaign, 'id')}"
        f" AND {col(member, 'player')} = %s))))"
    )


@cache
def _converters(model: type[models.Model], vendor: str) -> list[tuple[str, list, Any]]:
    """Each concrete field's column, and what turns its database value into the field's
    (a JSON field's text into its data), as the ORM applies them."""
    meta = model._meta
    found = []
    for f in meta.concrete_fields:
        col = f.get_col(meta.db_table)
        found.append(
            (f.column, connection.ops.get_db_converters(col) + f.get_db_converters(connection), col)
        )
    return found


def _rows(model: type[models.Model], sql: str, params: list) -> list:
    """The instances a statement compiled once returns (every concrete column of `model`):
    what `model.objects.raw` gives, without its bookkeeping on every call."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        position = {d[0]: i for i, d in enumerate(cursor.description)}
        rows = cursor.fetchall()
    fields = _converters(model, connection.vendor)
    names = [f.attname for f in model._meta.concrete_fields]
    found = []
    for row in rows:
        values = []
        for column, converters, col in fields:
            value = row[position[column]]
            for convert in converters:
                value = convert(value, col, connection)
            values.append(value)
        found.append(model.from_db(connection.alias, names, values))
    return found


def _lock(encounter: Encounter, version: int | None, *, live: bool = True) -> Encounter:
    """Lock the encounter's row and count this write in its version (one `UPDATE ...
    RETURNING`; a refusal rolls the bump back with the rest). `_log` then saves the
    encounter's fields only when the write changed them. `live=False`: an ended encounter
    too (its spectator link outlives the game), whatever its version."""
    locked = _lock_row(encounter.pk)
    if locked is None:
        raise Encounter.DoesNotExist
    locked.chapter = encounter.chapter if encounter.chapter_id else None
    if live:
        _check_live(locked, version)
    else:
        locked.locked_state = _encounter_state(locked)
    return locked


def _lock_row(pk) -> Encounter | None:
    return next(iter(_rows(Encounter, _lock_sql(), [pk])), None)


def _lock_row_visible(pk, user) -> Encounter | None:
    """`_lock_row` when `user` may see the encounter; else None, and nothing locked: the
    row is filtered out by the UPDATE's WHERE before PostgreSQL would lock it, so an
    outsider neither waits for a player's action nor makes one wait."""
    return next(iter(_rows(Encounter, _lock_sql(visible=True), [pk, *[user.pk] * 4])), None)


def _check_live(locked: Encounter, version: int | None) -> None:
    if locked.status != EncounterStatus.LIVE:
        raise Refusal(_("This encounter has ended."), status=409)
    if version is not None and version != locked.version - 1:
        raise Stale(_("This changed while you were deciding: here is the new state."))
    locked.locked_state = _encounter_state(locked)


def _encounter_state(encounter: Encounter) -> dict[str, Any]:
    return copy.deepcopy({name: getattr(encounter, name) for name in ENCOUNTER_WRITTEN})


def _fields(combatant: Combatant) -> tuple[str, ...]:
    return adapter_for(combatant.encounter.system).STATE_FIELDS


def _snapshot(combatant: Combatant) -> dict[str, Any]:
    """The combatant's live state (its system's fields). A system's adapter gives a field a
    new value, never changes a dict or list in place, so that a snapshot tells what changed."""
    return {name: getattr(combatant, name) for name in _fields(combatant)}


def _log(encounter: Encounter, author, kind: str, *, before=None, **fields) -> EncounterEntry:
    locked_state = getattr(encounter, "locked_state", None)
    if locked_state is None:
        # A new encounter (its first line): not locked by `_lock`, its version counted here.
        encounter.version += 1
        encounter.save(update_fields=["version", *ENCOUNTER_WRITTEN])
    else:
        # Locked: the version is counted already; the other fields saved if they changed.
        changed = [n for n in ENCOUNTER_WRITTEN if getattr(encounter, n) != locked_state[n]]
        if changed:
            encounter.save(update_fields=changed)
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


def _insert_sql(obj: models.Model, returning: list) -> tuple[str, tuple]:
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


def _save(*combatants: Combatant, before: dict[str, dict] | None = None) -> None:
    """Write the combatants' live state: with `before` (their snapshots by id), only the
    fields that changed since (an action changes two or three of a figure's fifteen)."""
    for combatant in combatants:
        names = list(_fields(combatant))
        if before is not None:
            was = before[str(combatant.pk)]
            names = [name for name in names if getattr(combatant, name) != was[name]]
        if names:
            combatant.save(update_fields=names)


def _combatant(encounter: Encounter, pk, field: str) -> Combatant:
    found = None
    if pk is not None:
        found = Combatant.objects.select_for_update().filter(encounter=encounter, pk=pk).first()
    if found is None:
        raise Refusal(_("Choose a combatant of this encounter."), field=field)
    found.encounter = encounter
    return found


# Every write reads the encounter's combatants, locked, in their order: compiled once per
# process (compiling the ORM's statement cost the live table more than running it).
_LOCKED_COMBATANTS = CompiledRead(
    lambda pk: (
        Combatant.objects.select_for_update()
        .filter(encounter_id=pk)
        .order_by("position", "pk")
        .values_list(*fields_of(Combatant))
    ),
)


# The encounter's newest line (what an undo takes back), compiled once likewise.
_NEWEST_LINE = CompiledRead(
    lambda pk: (
        EncounterEntry.objects.filter(encounter_id=pk)
        .exclude(kind__in=UNDO_LOOKS_PAST)
        .order_by("-version")
        .values_list(*fields_of(EncounterEntry))[:1]
    ),
)


def _combatants(encounter: Encounter) -> list[Combatant]:
    """Every combatant of the encounter, locked, in their order."""
    found = _LOCKED_COMBATANTS.objects(encounter.pk)
    for combatant in found:
        combatant.encounter = encounter
    return found


# --- Creating -----------------------------------------------------------------------------


def _token() -> str:
    return secrets.token_urlsafe(32)


def _add(encounter: Encounter, combatants: list[Combatant]) -> None:
    for position, combatant in enumerate(combatants):
        combatant.encounter = encounter
        combatant.position = position
        combatant.save()


def _clean_title(title: str, default: str) -> str:
    title = " ".join(str(title or "").split()) or default
    if len(title) > TITLE_MAX:
        raise Refusal(_("A title has at most 160 characters."), field="title")
    return title


def _created(actor, encounter: Encounter, sides: list[str]) -> Encounter:
    if adapter_for(encounter.system).HAS_ATTACKER:
        encounter.attacker_side = sides[0]
    _log(encounter, actor, EntryKind.CREATED, data={"sides": sides})
    return encounter


def encounter_create_for_chapter(*, actor, chapter: Chapter, title: str = "") -> Encounter:
    """An organiser opens the live encounter of the chapter being played: its system's
    adapter says who fights on which side (KOLAPS: the units entered)."""
    roles = campaign_role(actor, chapter.campaign)
    if not roles & CAN_VIEW:
        raise Forbidden(_("You are not allowed to do this."))
    if not roles & CAN_MANAGE:
        raise Forbidden(_("Only the campaign's organisers open an encounter."))
    if not plays(chapter.campaign.system):
        raise Refusal(_("The live table does not play this game system."), field="chapter")
    adapter = adapter_for(chapter.campaign.system)
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().get(pk=chapter.pk)
        if locked.status != ChapterStatus.CURRENT:
            raise Refusal(_("An encounter opens while the chapter is being played."))
        locked.campaign = chapter.campaign
        sides, combatants, catalogue_version = adapter.chapter_combatants(locked)
        encounter = Encounter.objects.create(
            system=adapter.SYSTEM,
            chapter=locked,
            created_by=actor,
            title=_clean_title(title, locked.title),
            spectator_token=_token(),
            catalogue_version=catalogue_version,
            phase=adapter.FIRST_PHASE,
        )
        _add(encounter, combatants)
        chapter_table_record(
            actor=actor, chapter=locked, record={"encounter": encounter.pk, "ended": False}
        )
        return _created(actor, encounter, sides)


def encounter_create_pickup(
    *,
    actor,
    system: str,
    sides: list[str],
    combatants: list[Combatant],
    title: str,
    catalogue_version: str = "",
) -> Encounter:
    """A pick-up game of any system the table plays, from its adapter's sides and unsaved
    combatants: the actor organises it."""
    adapter = adapter_for(system)
    with transaction.atomic():
        encounter = Encounter.objects.create(
            system=adapter.SYSTEM,
            created_by=actor,
            title=title,
            spectator_token=_token(),
            catalogue_version=catalogue_version,
            phase=adapter.FIRST_PHASE,
        )
        _add(encounter, combatants)
        return _created(actor, encounter, sides)


def encounter_create_quick_party(*, actor, title: str = "") -> Encounter:
    """A pick-up Of the Dead game: your living character, if you have one; you organise it
    and add the zombies and the other characters (`encounter_add_combatants`)."""
    if not actor.is_authenticated:
        raise Refusal(_("Log in to open an encounter."), status=401)
    profile = (
        Profile.objects.filter(player=actor, status=ProfileStatus.ALIVE)
        .select_related("player")
        .first()
    )
    combatants = [of_the_dead.profile_combatant(profile)] if profile else []
    return encounter_create_pickup(
        actor=actor,
        system=of_the_dead.ADAPTER.SYSTEM,
        sides=[of_the_dead.SURVIVORS, of_the_dead.ZOMBIES],
        combatants=combatants,
        title=_clean_title(title, _("A quick party")),
    )


@dataclass(frozen=True)
class NewCombatants:
    """Combatants an organiser adds to an Of the Dead encounter: `count` zombies of a type
    (named after it, numbered) or one non-player character, with their attributes."""

    kind: str
    zombie_type: str = ""
    name: str = ""
    side: str = ""
    count: int = 1
    reflexes: int = 1
    combat: int = 1
    physique: int = 1
    life: int = 2
    moral: int = 0


ATTRIBUTE_MAX, LIFE_MAX, MORAL_MAX, ADD_MAX = 12, 40, 40, 20


def _new_combatants(spec: NewCombatants, taken: set[str]) -> list[Combatant]:
    if spec.kind not in (of_the_dead.ZOMBIE, of_the_dead.NPC):
        raise Refusal(_("Choose a zombie or a non-player character."), field="kind")
    if spec.kind == of_the_dead.ZOMBIE and spec.zombie_type not in ZombieType.values:
        raise Refusal(_("Choose a zombie type."), field="zombie_type")
    if not 1 <= spec.count <= ADD_MAX:
        raise Refusal(_("From 1 to 20 at once."), field="count")
    for field_name in ("reflexes", "combat", "physique"):
        if not 0 <= getattr(spec, field_name) <= ATTRIBUTE_MAX:
            raise Refusal(_("An attribute from 0 to 12."), field=field_name)
    if not 1 <= spec.life <= LIFE_MAX:
        raise Refusal(_("Life markers from 1 to 40."), field="life")
    if not 0 <= spec.moral <= MORAL_MAX:
        raise Refusal(_("A Moral from 0 to 40."), field="moral")
    side = spec.side or (
        of_the_dead.ZOMBIES if spec.kind == of_the_dead.ZOMBIE else of_the_dead.OTHERS
    )
    if side not in of_the_dead.SIDE_LABELS:
        raise Refusal(_("Choose a side."), field="side")
    base = " ".join(str(spec.name or "").split())
    if spec.kind == of_the_dead.ZOMBIE and not base:
        base = ZombieType(spec.zombie_type).label
    if not base:
        raise Refusal(_("Give the character a name."), field="name")
    if len(base) > 70:
        raise Refusal(_("A name has at most 70 characters."), field="name")
    made = []
    number = 1
    for _i in range(spec.count):
        name = base
        if spec.count > 1 or name in taken:
            while f"{base} {number}" in taken:
                number += 1
            name = f"{base} {number}"
        taken.add(name)
        made.append(
            Combatant(
                side=side,
                name=name,
                state=of_the_dead.new_state(
                    kind=spec.kind,
                    zombie_type=spec.zombie_type if spec.kind == of_the_dead.ZOMBIE else "",
                    reflexes=spec.reflexes,
                    combat=spec.combat,
                    physique=spec.physique,
                    life=spec.life,
                    moral=spec.moral,
                ),
            )
        )
    return made


def encounter_add_combatants(
    *, actor, encounter: Encounter, version: int | None, spec: NewCombatants
) -> EncounterEntry:
    """The organiser adds zombies by type, or a non-player character, to an Of the Dead
    encounter; the initiative order takes them in at once."""
    _require(actor, encounter, CAN_MANAGE)
    if encounter.system != of_the_dead.ADAPTER.SYSTEM:
        raise Refusal(_("Zombies and non-player characters join Of the Dead encounters."))
    with transaction.atomic():
        locked = _lock(encounter, version)
        everyone = _combatants(locked)
        made = _new_combatants(spec, {c.name for c in everyone})
        start = max((c.position for c in everyone), default=-1) + 1
        for position, combatant in enumerate(made, start=start):
            combatant.encounter = locked
            combatant.position = position
            combatant.save()
        return _log(
            locked, actor, EntryKind.CREATED,
            data={"added": [c.name for c in made], "side": made[0].side},
        )  # fmt: skip


def _two_sides(actor, rosters: list, *, field: str, sentences: dict[str, str]) -> list[str]:
    """Two different rosters (units, armies) for a pick-up game: the actor's own or shared
    with them by link (the callers find another player's by its share token only, never by
    its number). Their names are the sides."""
    if not actor.is_authenticated:
        raise Refusal(_("Log in to open an encounter."), status=401)
    if len(rosters) != 2 or any(r is None for r in rosters):
        raise Refusal(sentences["two"], field=field)
    if rosters[0].pk == rosters[1].pk:
        raise Refusal(sentences["different"], field=field)
    for roster in rosters:
        if roster.owner_id != actor.pk and not roster.share_token:
            raise Refusal(sentences["own"], field=field)
    names = [r.name for r in rosters]
    return names if names[0] != names[1] else [f"{names[0]} (1)", f"{names[1]} (2)"]


def encounter_create_standalone(*, actor, units: list[KolapsUnit | None], title: str = ""):
    """A pick-up game between two KOLAPS units: your own, or units shared with you by link.
    You organise it; each unit's owner plays its characters."""
    sides = _two_sides(
        actor,
        units,
        field="units",
        sentences={
            "two": _("Choose two units."),
            "different": _("Choose two different units."),
            "own": _("Choose your own units or units shared with you."),
        },
    )
    for unit in units:
        if not KolapsCharacter.objects.filter(unit=unit).exists():
            raise Refusal(_("A unit without characters cannot fight."), field="units")
    return encounter_create_pickup(
        actor=actor,
        system=kolaps.ADAPTER.SYSTEM,
        sides=sides,
        combatants=[
            c
            for unit, side in zip(units, sides, strict=True)
            for c in unit_combatants(unit, side, unit.owner)
        ],
        title=_clean_title(title, " / ".join(u.name for u in units)),
        catalogue_version=units[0].catalogue_version,
    )


def encounter_create_armies(*, actor, armies: list[Rapid40kArmy | None], title: str = ""):
    """A pick-up game of Rapid 40000 between two army lists: your own, or lists shared with
    you by link. You organise it; each list's owner plays its squads."""
    sides = _two_sides(
        actor,
        armies,
        field="armies",
        sentences={
            "two": _("Choose two army lists."),
            "different": _("Choose two different army lists."),
            "own": _("Choose your own army lists or lists shared with you."),
        },
    )
    combatants = [
        c
        for army, side in zip(armies, sides, strict=True)
        for c in rapid40k.army_combatants(army, side, army.owner)
    ]
    if {c.side for c in combatants} != set(sides):
        raise Refusal(_("An army list without squads cannot fight."), field="armies")
    return encounter_create_pickup(
        actor=actor,
        system=rapid40k.ADAPTER.SYSTEM,
        sides=sides,
        combatants=combatants,
        title=_clean_title(title, " / ".join(a.name for a in armies)),
        catalogue_version=armies[0].catalogue_version,
    )


QUICK_SYSTEMS = ("corporates", "modern-rpg")
FIGHTERS_MAX = 12


def encounter_create_quick(
    *,
    actor,
    system: str,
    sides: list[str],
    fighters: list[list[str]],
    title: str = "",
    sheets: list[list[int]] | None = None,
) -> Encounter:
    """A pick-up game of Corporates or the modern RPG: two sides of named fighters at the
    system's default numbers (its adapter's `fighter_state`), and for Corporates, fighters
    drawn from the actor's own character sheets (`sheets`: ids per side; the adapter's
    `sheet_state` feeds their numbers to the resolvers); the actor organises and plays them
    all."""
    if not actor.is_authenticated:
        raise Refusal(_("Log in to open an encounter."), status=401)
    if system not in QUICK_SYSTEMS:
        raise Refusal(_("The live table does not play this game system."), field="system")
    names = [" ".join(str(s or "").split())[:80] for s in sides]
    if len(names) != 2 or not all(names) or names[0] == names[1]:
        raise Refusal(_("Name two different sides."), field="sides")
    rosters = [[" ".join(str(n).split())[:80] for n in side if str(n).strip()] for side in fighters]
    drawn = _quick_sheets(actor, system, sheets)
    if len(rosters) != 2 or not all(r or d for r, d in zip(rosters, drawn, strict=False)):
        raise Refusal(_("Each side needs at least one fighter."), field="fighters")
    if sum(len(r) for r in rosters) + sum(len(d) for d in drawn) > FIGHTERS_MAX:
        raise Refusal(
            _("At most %(n)s fighters in a pick-up game.") % {"n": FIGHTERS_MAX}, field="fighters"
        )
    adapter = adapter_for(system)
    return encounter_create_pickup(
        actor=actor,
        system=system,
        sides=names,
        combatants=[
            *(
                Combatant(
                    side=side, name=sheet.name, player=actor, state=adapter.sheet_state(sheet)
                )
                for side, side_sheets in zip(names, drawn, strict=True)
                for sheet in side_sheets
            ),
            *(
                Combatant(side=side, name=name, player=actor, state=adapter.fighter_state())
                for side, roster in zip(names, rosters, strict=True)
                for name in roster
            ),
        ],
        title=_clean_title(title, " / ".join(names)),
    )


def _quick_sheets(actor, system: str, sheets: list[list[int]] | None) -> list[list]:
    """The actor's own Corporates sheets chosen for each side (another's, or one chosen
    twice, is refused)."""
    if not sheets or not any(sheets):
        return [[], []]
    if not adapter_for(system).DRAWS_FROM_SHEETS:
        raise Refusal(_("Only Corporates fighters are drawn from sheets."), field="sheets")
    if len(sheets) != 2:
        raise Refusal(_("Choose the sheets of each of the two sides."), field="sheets")
    ids = [pk for side in sheets for pk in side]
    own = {c.pk: c for c in CorporatesCharacter.objects.owned_by(actor).filter(pk__in=ids)}
    if len(set(ids)) != len(ids) or set(ids) - set(own):
        raise Refusal(_("Choose your own sheets, each once."), field="sheets")
    return [[own[pk] for pk in side] for side in sheets]


# --- Acting -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionInput:
    kind: str
    actor: int | None = None
    target: int | None = None
    weapon: str = ""
    # None: not given, each system reads its own default (an Of the Dead move: the declared
    # move's whole allowance).
    distance_cm: float | None = None
    cover: int = 0
    wound: str = ""
    # None: the server rolls; otherwise the dice typed in by hand, by the resolver's fields.
    dice: dict[str, list[int]] | None = None
    # What a system's actions need besides (its adapter reads them).
    options: dict[str, Any] = field(default_factory=dict)


def _odds_of(system: str, name: str, data: dict) -> dict:
    try:
        return resolver_get(system, name).odds(data)
    except RuleInputError as error:
        raise Refusal(_sentence(error), field=error.field) from error


def encounter_odds(*, encounter: Encounter, action: ActionInput) -> dict[str, Any]:
    """The exact odds of every outcome of an action before its dice, read only."""
    target = Combatant.objects.filter(encounter=encounter, pk=action.target).first()
    actor = Combatant.objects.filter(encounter=encounter, pk=action.actor).first()
    if target is None:
        raise Refusal(_("Choose a combatant of this encounter."), field="target")
    adapter = adapter_for(encounter.system)
    if action.kind not in adapter.MANAGER_KINDS and actor is None:
        raise Refusal(_("Choose a combatant of this encounter."), field="actor")
    for c in (actor, target):
        if c is not None:
            c.encounter = encounter
    name, data = adapter.resolver_input(encounter, actor, target, action)
    if name is None:
        return {"resolver": None, "certain": True}
    odds = _odds_of(encounter.system, name, data)
    adapter.refuse_blocked(odds)
    return {"resolver": name, **odds}


def _resolve(
    actor_user, system: str, name: str, data: dict, dice
) -> tuple[dict, RollRecord | None]:
    resolver = resolver_get(system, name)
    if not resolver.dice_fields:
        # A resolver without dice (an Of the Dead move): its answer is certain, no roll.
        try:
            return resolver.evaluate(data), None
        except RuleInputError as error:
            raise Refusal(_sentence(error), field=error.field) from error
    if dice is None:
        seed = secrets.randbits(63)
        try:
            outcome = resolver.roll(data, random.Random(seed))
        except RuleInputError as error:
            raise Refusal(_sentence(error), field=error.field) from error
        # Saved with the action's log line (`_log`).
        record = RollRecord(
            player=actor_user,
            system=system,
            resolver=name,
            inputs=data,
            seed=seed,
            dice=outcome.get("dice", []),
            outcome=outcome,
        )
        return outcome, record
    typed = {k: v for k, v in dice.items() if k in resolver.dice_fields and v}
    try:
        outcome = resolver.evaluate({**data, **typed})
    except RuleInputError as error:
        raise Refusal(_sentence(error), field="dice") from error
    pending = outcome.get("pending")
    if pending:
        raise Refusal(
            _("Type the %(field)s dice too (%(dice)s).") % pending, field=pending["field"]
        )
    return outcome, None


def encounter_act(*, actor, encounter: Encounter, version: int | None, action: ActionInput):
    """An action: its dice rolled by the server (recorded as a replayable roll) or typed in
    by hand, its consequences applied at once, its line in the log with the state of what it
    changed before it (what an undo puts back)."""
    roles = _require(actor, encounter, CAN_VIEW)
    with transaction.atomic():
        return _act(actor, roles, _lock(encounter, version), action)


def encounter_act_by_id(*, actor, pk: int, version: int | None, action: ActionInput):
    """`encounter_act` on the encounter numbered `pk`, which the API fetches and authorises
    with the lock (one statement for a pick-up game, where a view fetches the encounter for
    `encounter_get_for_user` and then locks it): 404 to who may not see it, 403 to who may
    not act, before anything is told of its state (ended, or changed since `version`). Who
    may not see it is refused by the statement itself, which then locks nothing."""
    with transaction.atomic():
        locked, roles = _lock_by_id(actor, pk, version)
        return _act(actor, roles, locked, action)


def _lock_by_id(actor, pk: int, version: int | None) -> tuple[Encounter, set[Role]]:
    """The encounter numbered `pk` locked and its version counted (`_lock`), authorised for
    `actor` to act (404, 403) before anything is told of its state (ended, or changed since
    `version`): one statement for a pick-up game, where a view fetches the encounter for
    `encounter_get_for_user` and then locks it. Who may not see it is refused by the
    statement itself, which then locks nothing (`_lock_row_visible`)."""
    locked = _lock_row_visible(pk, actor)
    if locked is None:
        raise Http404
    if locked.chapter_id is not None:
        locked.chapter = Chapter.objects.select_related("campaign").get(pk=locked.chapter_id)
    roles = encounter_authorize(actor, locked, "act")
    _check_live(locked, version)
    return locked, roles


def _act(actor, roles: set[Role], locked: Encounter, action: ActionInput) -> EncounterEntry:
    adapter = adapter_for(locked.system)
    everyone = _combatants(locked)
    by_pk = {c.pk: c for c in everyone}
    target = by_pk.get(action.target) if action.target is not None else None
    if target is None:
        raise Refusal(_("Choose a combatant of this encounter."), field="target")
    direct = action.kind in adapter.MANAGER_KINDS
    fighter = None
    if not direct:
        fighter = by_pk.get(action.actor) if action.actor is not None else None
        if fighter is None:
            raise Refusal(_("Choose a combatant of this encounter."), field="actor")
    if direct and not roles & CAN_MANAGE:
        raise Forbidden(_("Only the encounter's organisers apply a wound directly."))
    # The combatants already read, for an adapter that needs the others (no new query).
    locked.live_combatants = everyone
    adapter.check_action(locked, fighter, target, action)
    if fighter is not None:
        _require_for(actor, roles, fighter)
    # The organiser may let a figure act out of its turn (a forgotten action, a house
    # rule); the others act in the order the system keeps (Of the Dead: O5).
    # (only `true` asks it, and only where the system keeps an order to step out of).
    out_of_turn = adapter.KEEPS_TURN and (action.options or {}).get("out_of_turn") is True
    if out_of_turn and not roles & CAN_MANAGE:
        raise Forbidden(_("Only the encounter's organisers let a combatant act out of turn."))
    if fighter is not None and not out_of_turn:
        adapter.check_turn(locked, everyone, fighter, action)
    name, data = adapter.resolver_input(locked, fighter, target, action)
    snapshots = {str(c.pk): _snapshot(c) for c in everyone}
    if name is None:
        # An action without dice: the adapter's input is its outcome.
        outcome, record = dict(data), None
    else:
        outcome, record = _resolve(actor, locked.system, name, data, action.dice)
    effects = adapter.apply_outcome(locked, action, outcome, fighter, target, everyone=everyone)
    # What the action changed (the actor, the target, a team's Moral...): saved, and its
    # state before kept for an undo.
    changed = [c for c in everyone if _snapshot(c) != snapshots[str(c.pk)]]
    before = {str(c.pk): snapshots[str(c.pk)] for c in changed}
    for c in (fighter, target):
        if c is not None and str(c.pk) not in before:
            before[str(c.pk)] = snapshots[str(c.pk)]
    _save(*changed, before=snapshots)
    entry = _log(
        locked,
        actor,
        EntryKind.ACTION,
        before=before,
        actor=fighter,
        target=target,
        roll=record,
        data={
            "kind": action.kind,
            "resolver": name,
            "inputs": data,
            "outcome": outcome,
            "effects": effects,
            "by_hand": action.dice is not None,
            **({"out_of_turn": True} if out_of_turn else {}),
        },
    )
    # The state this write left, for its answer (read again, it would cost two queries).
    entry.written_combatants = everyone
    return entry


def encounter_choose_stray(
    *,
    actor,
    encounter: Encounter,
    version: int | None,
    ally: int | None,
    dice: dict[str, list[int]] | None = None,
) -> EncounterEntry:
    """The target's player (or an organiser) chooses the figure a stray shot hits on the
    target's side (KOLAPS, Tir dans une mêlée 2-3 and 6): `ally`, or None for nobody when
    the face asks for an ally in the melee and none is there. An action of its own
    (`encounter_act`, which checks the choice again under its lock): its wound's death roll
    rolled by the server or typed in by hand (`dice`), its line in the log, undone like any
    other."""
    roles = _require(actor, encounter, CAN_VIEW)
    adapter = adapter_for(encounter.system)
    if not adapter.STRAY_CHOICE:
        raise Refusal(_("There is no stray shot to choose for."))
    everyone = list(Combatant.objects.filter(encounter=encounter))
    found = adapter.pending_stray(everyone)
    if found is not None:
        _require_for(actor, roles, found[0])
    chooser, hit = adapter.stray_choice(everyone, ally)
    action = ActionInput(kind=adapter.STRAY_CHOICE, actor=chooser, target=hit, dice=dice)
    return encounter_act(actor=actor, encounter=encounter, version=version, action=action)


def encounter_undo(*, actor, encounter: Encounter, version: int | None) -> EncounterEntry:
    """Undo the last action, by who made it or an organiser: what it changed is put back as
    it was; both lines stay in the log. Only the last change of the encounter can be undone
    (an end phase or a directive after it keep it; an undo is one level deep)."""
    roles = _require(actor, encounter, CAN_VIEW)
    with transaction.atomic():
        return _undo(actor, roles, _lock(encounter, version))


def encounter_undo_by_id(*, actor, pk: int, version: int | None) -> EncounterEntry:
    """`encounter_undo` on the encounter numbered `pk`, fetched and authorised with its lock
    (`encounter_act_by_id`)."""
    with transaction.atomic():
        locked, roles = _lock_by_id(actor, pk, version)
        return _undo(actor, roles, locked)


def _undo(actor, roles: set[Role], locked: Encounter) -> EncounterEntry:
    # The encounter's newest line before this write but those an undo looks past (an undo,
    # a spectator link): an action not undone, of this turn.
    last = next(iter(_NEWEST_LINE.objects(locked.pk)), None)
    if (
        last is None
        or last.kind != EntryKind.ACTION
        or last.undone_by_id is not None
        or last.turn != locked.turn
    ):
        raise Refusal(_("There is no action to undo."))
    if last.author_id != actor.pk and not roles & CAN_MANAGE:
        raise Forbidden(_("Only who made the action or an organiser may undo it."))
    everyone = _combatants(locked)
    snapshots = {str(c.pk): _snapshot(c) for c in everyone if str(c.pk) in last.before}
    changed = [c for c in everyone if str(c.pk) in snapshots]
    for combatant in changed:
        for name, value in last.before[str(combatant.pk)].items():
            setattr(combatant, name, value)
    _save(*changed, before=snapshots)
    entry = _log(
        locked, actor, EntryKind.UNDO, actor_id=last.actor_id, target_id=last.target_id,
        # The action's own data, so that the undo's line names the action as its line did.
        data={"undoes": last.version, "kind": last.data.get("kind"), "action": last.data},
    )  # fmt: skip
    last.undone_by = entry
    last.save(update_fields=["undone_by"])
    # The state this write left, for its answer (read again, it would cost two queries).
    entry.written_combatants = everyone
    return entry


def encounter_set_directive(
    *, actor, encounter: Encounter, version: int | None, combatant: int | None, directive: str
):
    """The speech phase: a combatant's order directive, hidden from the other side until
    it is revealed."""
    roles = _require(actor, encounter, CAN_VIEW)
    if directive not in ORDERS:
        raise Refusal(_("Choose an order directive."), field="directive")
    with transaction.atomic():
        locked = _lock(encounter, version)
        if locked.phase != Phase.SPEECH:
            raise Refusal(_("Order directives are given in the speech phase."))
        target = _combatant(locked, combatant, "combatant")
        _require_for(actor, roles, target)
        if target.dead:
            raise Refusal(_("This combatant is dead."), field="combatant")
        before = {str(target.pk): _snapshot(target)}
        target.directive = directive
        target.revealed = False
        _save(target)
        return _log(
            locked, actor, EntryKind.DIRECTIVE, before=before, actor=target,
            data={"directive": directive},
        )  # fmt: skip


def encounter_reveal(*, actor, encounter: Encounter, version: int | None, combatant: int | None):
    """Reveal a combatant's directive to the other side (it is, at the latest, when it acts)."""
    roles = _require(actor, encounter, CAN_VIEW)
    with transaction.atomic():
        locked = _lock(encounter, version)
        # Nothing happens at the table while a stray shot's figure waits to be chosen.
        adapter_for(locked.system).refuse_while_pending(_combatants(locked))
        target = _combatant(locked, combatant, "combatant")
        _require_for(actor, roles, target)
        if not target.directive:
            raise Refusal(_("This combatant has no directive to reveal."), field="combatant")
        if target.revealed:
            raise Refusal(_("This directive is revealed already."), field="combatant")
        before = {str(target.pk): _snapshot(target)}
        target.revealed = True
        _save(target)
        return _log(
            locked, actor, EntryKind.REVEAL, before=before, actor=target,
            data={"directive": target.directive},
        )  # fmt: skip


def encounter_advance(*, actor, encounter: Encounter, version: int | None) -> EncounterEntry:
    """The organiser moves the turn on, as the system's adapter says (KOLAPS: speech ->
    action; action -> the end phase, K14, then K15's attacker, and the next turn's speech).
    The end-of-turn automation changes the combatants, whose state before is kept."""
    _require(actor, encounter, CAN_MANAGE)
    with transaction.atomic():
        locked = _lock(encounter, version)
        combatants = _combatants(locked)
        before = {str(c.pk): _snapshot(c) for c in combatants}
        kind, data = adapter_for(locked.system).advance(locked, combatants)
        if kind == EntryKind.PHASE:
            # A phase may place the combatants (an initiative order, a turn's segments).
            changed = [c for c in combatants if _snapshot(c) != before[str(c.pk)]]
            _save(*changed)
            return _log(locked, actor, kind, data=data)
        _save(*combatants)
        return _log(locked, actor, kind, before=before, data=data)


def encounter_summary(encounter: Encounter) -> dict[str, Any]:
    """What happened, for the chapter's close, in the words of the encounter's system."""
    combatants = list(
        Combatant.objects.filter(encounter=encounter)
        .select_related("kolaps_character")
        .order_by("position", "pk")
    )
    return adapter_for(encounter.system).summary(encounter, combatants)


def encounter_end(*, actor, encounter: Encounter, version: int | None) -> Encounter:
    """The organiser ends the encounter: the log is closed and what happened is summed up
    for the chapter's close."""
    _require(actor, encounter, CAN_MANAGE)
    with transaction.atomic():
        locked = _lock(encounter, version)
        adapter_for(locked.system).refuse_end(locked, _combatants(locked))
        locked.status = EncounterStatus.ENDED
        locked.ended_at = timezone.now()
        locked.summary = encounter_summary(locked)
        if locked.chapter_id is not None:
            chapter_table_record(actor=actor, chapter=locked.chapter, record=locked.summary)
        _log(locked, actor, EntryKind.ENDED, data=locked.summary)
        return locked


# --- The spectator link -----------------------------------------------------------------------


def encounter_revoke_spectator_link(*, actor, encounter: Encounter) -> EncounterEntry:
    """The organiser takes the spectator link back: it answers 404 from this commit on, and
    the screens watching through it are closed (`rules.table.live.spectators_revoked`). A
    live or an ended encounter alike; no link until the organiser makes a new one."""
    _require(actor, encounter, CAN_MANAGE)
    with transaction.atomic():
        locked = _lock(encounter, None, live=False)
        if not locked.spectator_token:
            raise Refusal(_("This encounter's spectator link is revoked already."))
        locked.spectator_token = None
        locked.save(update_fields=["spectator_token"])
        entry = _log(locked, actor, EntryKind.LINK, data={"link": "revoked"})
        transaction.on_commit(lambda: spectators_revoked(locked.pk))
        return entry


def encounter_rotate_spectator_link(*, actor, encounter: Encounter) -> EncounterEntry:
    """The organiser makes a new spectator link: the old one, if there was one, answers 404
    from this commit on and its screens are closed, as by a revocation."""
    _require(actor, encounter, CAN_MANAGE)
    with transaction.atomic():
        locked = _lock(encounter, None, live=False)
        replaced = bool(locked.spectator_token)
        locked.spectator_token = _token()
        locked.save(update_fields=["spectator_token"])
        entry = _log(
            locked, actor, EntryKind.LINK, data={"link": "replaced" if replaced else "made"}
        )
        if replaced:
            transaction.on_commit(lambda: spectators_revoked(locked.pk))
        return entry
