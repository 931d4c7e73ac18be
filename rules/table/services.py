"""The only writer of the live encounter: create, act, undo, directives, phases, end.

Every service validates, then works in one transaction that locks the encounter row
(`select_for_update`): two devices acting at once are served one after the other. A write
carries the version of the encounter its author saw; when another change came first it is
refused with `Stale` (409: "this changed, here is the new state"), never applied on a state
its author did not see. Each change appends its line to the log (`EncounterEntry`: who,
when, what, at which version) and recomputes what follows from the state; the live pages
are told once the transaction has committed (`rules.table.live.encounter_changed`).
"""

import random
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.chapters.services import chapter_table_record
from campaigns.models import Chapter, ChapterStatus
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, campaign_role
from characters.kolaps.models import KolapsCharacter, KolapsUnit
from characters.permissions import Forbidden, Refusal, Role
from rules.engine.errors import RuleInputError
from rules.engine.registry import resolver_get
from rules.engine.systems.kolaps.ranged import ORDERS
from rules.rolls.models import RollRecord
from rules.rolls.services import _sentence
from rules.table import kolaps
from rules.table.live import encounter_changed
from rules.table.models import (
    Combatant,
    Encounter,
    EncounterEntry,
    EncounterStatus,
    EntryKind,
    Phase,
    System,
)

TITLE_MAX = 160
STATE_FIELDS = (
    "sante",
    "souffle",
    "moral",
    "directive",
    "revealed",
    "on_ground",
    "unconscious",
    "dead",
    "engaged",
    "breath_spent",
    "sante_lost",
    "wounds",
    "kills",
)
ENCOUNTER_FIELDS = ("turn", "phase", "attacker_side")
KOLAPS_PHASES = (Phase.SPEECH, Phase.ACTION)


class Stale(Refusal):
    """Another change came first: the author sees the new state and decides again."""

    status = 409


# --- Who may do what ----------------------------------------------------------------------


def encounter_role(user, encounter: Encounter) -> set[Role]:
    """Organisers (a chapter's campaign organisers, or who created a pick-up game) and
    participants (the campaign's players, or whoever plays a combatant)."""
    if not user.is_authenticated:
        return {Role.ANYONE}
    roles = {Role.ANYONE}
    if encounter.chapter_id is not None:
        roles |= campaign_role(user, encounter.chapter.campaign)
    elif encounter.created_by_id == user.pk:
        roles.add(Role.ORGANISER)
    if Role.ORGANISER not in roles and _plays(user, encounter):
        roles.add(Role.PARTICIPANT)
    return roles


def _plays(user, encounter: Encounter) -> bool:
    return encounter.combatants.filter(player=user).exists()


def _require(actor, encounter: Encounter, allowed: set[Role]) -> set[Role]:
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


def _lock(encounter: Encounter, version: int | None) -> Encounter:
    locked = Encounter.objects.select_for_update().get(pk=encounter.pk)
    locked.chapter = encounter.chapter if encounter.chapter_id else None
    if locked.status != EncounterStatus.LIVE:
        raise Refusal(_("This encounter has ended."), status=409)
    if version is not None and version != locked.version:
        raise Stale(_("This changed while you were deciding: here is the new state."))
    return locked


def _snapshot(combatant: Combatant) -> dict[str, Any]:
    return {field: getattr(combatant, field) for field in STATE_FIELDS}


def _log(encounter: Encounter, author, kind: str, *, before=None, **fields) -> EncounterEntry:
    encounter.version += 1
    encounter.save(update_fields=["version", *ENCOUNTER_FIELDS, "status", "ended_at", "summary"])
    entry = EncounterEntry.objects.create(
        encounter=encounter,
        version=encounter.version,
        turn=encounter.turn,
        phase=encounter.phase,
        kind=kind,
        author=author,
        before=before or {},
        **fields,
    )
    transaction.on_commit(lambda: encounter_changed(encounter.pk, encounter.version))
    return entry


def _save(*combatants: Combatant) -> None:
    for combatant in combatants:
        combatant.save(update_fields=list(STATE_FIELDS))


def _combatant(encounter: Encounter, pk, field: str) -> Combatant:
    found = None
    if pk is not None:
        found = Combatant.objects.select_for_update().filter(encounter=encounter, pk=pk).first()
    if found is None:
        raise Refusal(_("Choose a combatant of this encounter."), field=field)
    return found


# --- Creating -----------------------------------------------------------------------------


def _token() -> str:
    return secrets.token_urlsafe(32)


def _add_unit(encounter: Encounter, unit: KolapsUnit, side: str, player, start: int) -> int:
    catalogue = kolaps.catalogue_of(unit.catalogue_version)
    members = KolapsCharacter.objects.filter(unit=unit).order_by("position", "pk")
    position = start
    for character in members:
        Combatant.objects.create(
            encounter=encounter,
            position=position,
            side=side,
            name=character.name,
            player=player,
            kolaps_character=character,
            rank=character.rank,
            affiliation=character.affiliation,
            is_avatar=character.is_avatar,
            talents=character.talents,
            weapons=kolaps.weapons_of(character.equipment, catalogue),
            armour=kolaps.armour_of(character.equipment, catalogue),
            sante=character.sante,
            souffle=character.souffle,
            moral=character.moral,
        )
        position += 1
    return position


def _clean_title(title: str, default: str) -> str:
    title = " ".join(str(title or "").split()) or default
    if len(title) > TITLE_MAX:
        raise Refusal(_("A title has at most 160 characters."), field="title")
    return title


def _created(actor, encounter: Encounter, sides: list[str]) -> Encounter:
    encounter.attacker_side = sides[0]
    _log(encounter, actor, EntryKind.CREATED, data={"sides": sides})
    return encounter


def encounter_create_for_chapter(*, actor, chapter: Chapter, title: str = "") -> Encounter:
    """An organiser opens the live encounter of a KOLAPS chapter being played: each unit
    entered is a side (or the side it was entered on), each of its characters a combatant
    its player plays."""
    roles = campaign_role(actor, chapter.campaign)
    if not roles & CAN_VIEW:
        raise Forbidden(_("You are not allowed to do this."))
    if not roles & CAN_MANAGE:
        raise Forbidden(_("Only the campaign's organisers open an encounter."))
    if chapter.campaign.system != System.KOLAPS:
        raise Refusal(_("The live encounter plays KOLAPS chapters."), field="chapter")
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().get(pk=chapter.pk)
        if locked.status != ChapterStatus.CURRENT:
            raise Refusal(_("An encounter opens while the chapter is being played."))
        entries = list(locked.unit_entries.select_related("unit").order_by("entered_at", "pk"))
        sides = list(dict.fromkeys((e.side or e.unit.name) for e in entries))
        if len(sides) < 2:
            raise Refusal(_("An encounter needs two sides: enter at least two units."))
        encounter = Encounter.objects.create(
            system=System.KOLAPS,
            chapter=locked,
            created_by=actor,
            title=_clean_title(title, locked.title),
            spectator_token=_token(),
            catalogue_version=entries[0].unit.catalogue_version,
        )
        position = 0
        for entry in entries:
            position = _add_unit(
                encounter, entry.unit, entry.side or entry.unit.name, entry.player, position
            )
        chapter_table_record(
            actor=actor, chapter=locked, record={"encounter": encounter.pk, "ended": False}
        )
        return _created(actor, encounter, sides)


def encounter_create_standalone(*, actor, units: list[KolapsUnit | None], title: str = ""):
    """A pick-up game between two KOLAPS units: your own, or units shared with you by link.
    You organise it; each unit's owner plays its characters."""
    if not actor.is_authenticated:
        raise Refusal(_("Log in to open an encounter."), status=401)
    if len(units) != 2 or any(u is None for u in units):
        raise Refusal(_("Choose two units."), field="units")
    if units[0].pk == units[1].pk:
        raise Refusal(_("Choose two different units."), field="units")
    for unit in units:
        if unit.owner_id != actor.pk and not unit.share_token:
            raise Refusal(_("Choose your own units or units shared with you."), field="units")
        if not KolapsCharacter.objects.filter(unit=unit).exists():
            raise Refusal(_("A unit without characters cannot fight."), field="units")
    names = [u.name for u in units]
    sides = names if names[0] != names[1] else [f"{names[0]} (1)", f"{names[1]} (2)"]
    with transaction.atomic():
        encounter = Encounter.objects.create(
            system=System.KOLAPS,
            created_by=actor,
            title=_clean_title(title, " / ".join(names)),
            spectator_token=_token(),
            catalogue_version=units[0].catalogue_version,
        )
        position = 0
        for unit, side in zip(units, sides, strict=True):
            position = _add_unit(encounter, unit, side, unit.owner, position)
        return _created(actor, encounter, sides)


# --- Acting -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionInput:
    kind: str
    actor: int | None = None
    target: int | None = None
    weapon: str = ""
    distance_cm: float = 0
    cover: int = 0
    wound: str = ""
    # None: the server rolls; otherwise the dice typed in by hand, by the resolver's fields.
    dice: dict[str, list[int]] | None = None


def _resolver_input(encounter, actor, target, action: ActionInput) -> tuple[str, dict]:
    catalogue = kolaps.catalogue_of(encounter.catalogue_version)
    if action.kind == "wound":
        if action.wound not in catalogue.tables.wounds.rows:
            raise Refusal(_("Choose a wound."), field="wound")
        return "death", kolaps.wound_input(target, wound=action.wound, catalogue=catalogue)
    kind = "ranged" if action.kind == "ranged" else "melee"
    weapons = kolaps.weapons_for(actor, kind, catalogue)
    if not weapons:
        raise Refusal(_("This combatant has no weapon for that."), field="weapon")
    weapon = action.weapon or weapons[0]
    if weapon not in weapons:
        raise Refusal(_("Choose one of the combatant's weapons."), field="weapon")
    if kind == "ranged":
        data = kolaps.ranged_input(
            actor,
            target,
            weapon=weapon,
            distance_cm=action.distance_cm,
            cover=action.cover,
            catalogue=catalogue,
        )
        return "ranged", data
    return "melee", kolaps.melee_input(actor, target, weapon=weapon, catalogue=catalogue)


def _check_action(encounter, actor, target, action: ActionInput) -> None:
    if action.kind not in kolaps.KINDS:
        raise Refusal(_("Choose what the combatant does."), field="kind")
    if action.kind == "wound":
        if target.dead:
            raise Refusal(_("This combatant is dead."), field="target")
        return
    if encounter.phase != Phase.ACTION:
        raise Refusal(_("Attacks are made in the action phase."), field="kind")
    if actor is None:
        raise Refusal(_("Choose a combatant of this encounter."), field="actor")
    if actor.pk == target.pk:
        raise Refusal(_("A combatant does not attack itself."), field="target")
    if actor.dead or actor.unconscious:
        raise Refusal(_("This combatant cannot act now."), field="actor")
    if target.dead:
        raise Refusal(_("This combatant is dead."), field="target")
    if not 0 <= action.distance_cm <= 1000:
        raise Refusal(_("A distance from 0 to 1000 cm."), field="distance_cm")
    if not 0 <= action.cover <= 4:
        raise Refusal(_("Cover from 0 to 4."), field="cover")


def _odds_of(name: str, data: dict) -> dict:
    try:
        return resolver_get("kolaps", name).odds(data)
    except RuleInputError as error:
        raise Refusal(_sentence(error), field=error.field) from error


def encounter_odds(*, encounter: Encounter, action: ActionInput) -> dict[str, Any]:
    """The exact odds of every outcome of an action before its dice, read only."""
    target = Combatant.objects.filter(encounter=encounter, pk=action.target).first()
    actor = Combatant.objects.filter(encounter=encounter, pk=action.actor).first()
    if target is None:
        raise Refusal(_("Choose a combatant of this encounter."), field="target")
    if action.kind != "wound" and actor is None:
        raise Refusal(_("Choose a combatant of this encounter."), field="actor")
    name, data = _resolver_input(encounter, actor, target, action)
    return {"resolver": name, **_odds_of(name, data)}


def _resolve(actor_user, name: str, data: dict, dice) -> tuple[dict, RollRecord | None]:
    resolver = resolver_get("kolaps", name)
    if dice is None:
        seed = secrets.randbits(63)
        try:
            outcome = resolver.roll(data, random.Random(seed))
        except RuleInputError as error:
            raise Refusal(_sentence(error), field=error.field) from error
        record = RollRecord.objects.create(
            player=actor_user,
            system="kolaps",
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
        locked = _lock(encounter, version)
        target = _combatant(locked, action.target, "target")
        fighter = _combatant(locked, action.actor, "actor") if action.kind != "wound" else None
        if action.kind == "wound" and not roles & CAN_MANAGE:
            raise Forbidden(_("Only the encounter's organisers apply a wound directly."))
        _check_action(locked, fighter, target, action)
        if fighter is not None:
            _require_for(actor, roles, fighter)
        name, data = _resolver_input(locked, fighter, target, action)
        before = {str(c.pk): _snapshot(c) for c in (fighter, target) if c is not None}
        outcome, record = _resolve(actor, name, data, action.dice)
        catalogue = kolaps.catalogue_of(locked.catalogue_version)
        if action.kind == "wound":
            effects = kolaps.apply_wound(outcome, target)
            _save(target)
        else:
            effects = kolaps.apply_attack(outcome, fighter, target, catalogue)
            _save(fighter, target)
        return _log(
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
            },
        )


def encounter_undo(*, actor, encounter: Encounter, version: int | None) -> EncounterEntry:
    """Undo the last action, by who made it or an organiser: what it changed is put back as
    it was; both lines stay in the log. Only the last change of the encounter can be undone
    (an end phase or a directive after it keep it)."""
    roles = _require(actor, encounter, CAN_VIEW)
    with transaction.atomic():
        locked = _lock(encounter, version)
        last = (
            EncounterEntry.objects.filter(encounter=locked)
            .exclude(kind=EntryKind.UNDO)
            .filter(undone_by__isnull=True)
            .order_by("-version")
            .first()
        )
        if last is None or last.kind != EntryKind.ACTION or last.turn != locked.turn:
            raise Refusal(_("There is no action to undo."))
        later = EncounterEntry.objects.filter(encounter=locked, version__gt=last.version)
        if later.exclude(kind=EntryKind.UNDO).exists():
            raise Refusal(_("There is no action to undo."))
        if last.author_id != actor.pk and not roles & CAN_MANAGE:
            raise Forbidden(_("Only who made the action or an organiser may undo it."))
        changed = Combatant.objects.select_for_update().filter(
            encounter=locked, pk__in=[int(pk) for pk in last.before]
        )
        for combatant in changed:
            for field, value in last.before[str(combatant.pk)].items():
                setattr(combatant, field, value)
            _save(combatant)
        entry = _log(
            locked, actor, EntryKind.UNDO, actor=last.actor, target=last.target,
            data={"undoes": last.version, "kind": last.data.get("kind")},
        )  # fmt: skip
        last.undone_by = entry
        last.save(update_fields=["undone_by"])
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


def _end_phase(locked: Encounter) -> dict[str, Any]:
    """K14 for every living combatant; the next turn's trackers start afresh."""
    combatants = list(Combatant.objects.select_for_update().filter(encounter=locked))
    living = [c for c in combatants if not c.dead]
    result: dict[str, Any] = {"characters": []}
    if living:
        ends = resolver_get("kolaps", "end_phase").evaluate(
            {"characters": kolaps.end_phase_input(living)}
        )["characters"]
        for combatant, end in zip(living, ends, strict=True):
            kolaps.apply_end_phase(end, combatant)
            result["characters"].append({"id": combatant.pk, **end})
    _save(*combatants)
    return result


def encounter_advance(*, actor, encounter: Encounter, version: int | None) -> EncounterEntry:
    """The organiser moves the turn on: speech -> action; action -> the end phase (K14,
    then K15's attacker) and the next turn's speech."""
    _require(actor, encounter, CAN_MANAGE)
    with transaction.atomic():
        locked = _lock(encounter, version)
        if locked.phase == Phase.SPEECH:
            locked.phase = Phase.ACTION
            return _log(locked, actor, EntryKind.PHASE, data={"phase": Phase.ACTION})
        sides = kolaps.next_attacker_input(
            Combatant.objects.filter(encounter=locked), locked.attacker_side
        )
        before = {str(c.pk): _snapshot(c) for c in Combatant.objects.filter(encounter=locked)}
        # K15 counts this turn's revealed fighters, before the end phase hides them again.
        next_attacker = None
        if len(sides["sides"]) >= 2:
            next_attacker = resolver_get("kolaps", "next_attacker").evaluate(sides)
        result = _end_phase(locked)
        if next_attacker is not None:
            locked.attacker_side = next_attacker["attacker"]
            result["next_attacker"] = next_attacker
        ended_turn = locked.turn
        locked.turn += 1
        locked.phase = Phase.SPEECH
        return _log(
            locked, actor, EntryKind.END_PHASE, before=before,
            data={"turn": ended_turn, **result},
        )  # fmt: skip


def encounter_summary(encounter: Encounter) -> dict[str, Any]:
    """What happened, for the chapter's close: per side and per unit entered, the characters
    lost and wounded and the Moral they end with (KOLAPS speaks of nothing else)."""
    sides: dict[str, dict[str, Any]] = {}
    units: dict[str, dict[str, Any]] = {}
    combatants = (
        Combatant.objects.filter(encounter=encounter)
        .select_related("kolaps_character")
        .order_by("position", "pk")
    )
    for c in combatants:
        rows = [sides.setdefault(c.side, {"lost": [], "wounded": [], "moral": {}, "kills": 0})]
        unit_id = c.kolaps_character.unit_id if c.kolaps_character else None
        if unit_id is not None:
            rows.append(
                units.setdefault(
                    str(unit_id),
                    {"side": c.side, "lost": [], "lost_ids": [], "wounded": [], "moral": {}},
                )
            )
            if c.dead:
                units[str(unit_id)]["lost_ids"].append(c.kolaps_character_id)
        for row in rows:
            if c.dead:
                row["lost"].append(c.name)
            elif c.wounds:
                row["wounded"].append(c.name)
            row["moral"][c.name] = c.moral
        sides[c.side]["kills"] += c.kills
    return {
        "encounter": encounter.pk,
        "ended": True,
        "turns": encounter.turn,
        "sides": sides,
        "units": units,
    }


def encounter_end(*, actor, encounter: Encounter, version: int | None) -> Encounter:
    """The organiser ends the encounter: the log is closed and what happened is summed up
    for the chapter's close."""
    _require(actor, encounter, CAN_MANAGE)
    with transaction.atomic():
        locked = _lock(encounter, version)
        locked.status = EncounterStatus.ENDED
        locked.ended_at = timezone.now()
        locked.summary = encounter_summary(locked)
        if locked.chapter_id is not None:
            chapter_table_record(actor=actor, chapter=locked.chapter, record=locked.summary)
        _log(locked, actor, EntryKind.ENDED, data=locked.summary)
        return locked
