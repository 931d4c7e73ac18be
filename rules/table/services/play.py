"""Playing the live encounter: an action (its dice rolled by the server or typed in), the
undo of the last one, order directives and their reveal, the next phase, the end, and the
spectator link.

Every write validates, then works in one transaction that locks the encounter row
(`rules.table.services.lock`): two devices acting at once are served one after the other.
A write carries the version of the encounter its author saw; when another change came first
it is refused with `Stale` (409: "this changed, here is the new state"), never applied on a
state its author did not see. Each change appends its line to the log (who, when, what, at
which version) with the state of what it changed before it (what an undo puts back); the
live pages are told once the transaction has committed (`rules.table.live`).
"""

import random
import secrets
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.chapters.services import chapter_table_record
from campaigns.permissions import CAN_MANAGE, CAN_VIEW
from characters.permissions import Forbidden, Refusal, Role
from rules.engine.errors import RuleInputError
from rules.engine.registry import resolver_get
from rules.engine.systems.kolaps.ranged import ORDERS
from rules.rolls.models import RollRecord
from rules.rolls.services import _sentence
from rules.table.live import spectators_revoked
from rules.table.models import (
    Combatant,
    Encounter,
    EncounterEntry,
    EncounterStatus,
    EntryKind,
    Phase,
)
from rules.table.selectors import require_role
from rules.table.services.lock import (
    combatant_locked,
    combatants_locked,
    lock,
    lock_by_id,
    log,
    new_token,
    newest_line,
    require_for,
    save_state,
    snapshot,
)
from rules.table.systems import adapter_for


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
    roles = require_role(actor, encounter, CAN_VIEW)
    with transaction.atomic():
        return _act(actor, roles, lock(actor, encounter, version), action)


def encounter_act_by_id(*, actor, pk: int, version: int | None, action: ActionInput):
    """`encounter_act` on the encounter numbered `pk`, which the API fetches, authorises and
    locks in one statement (`lock_by_id`; a view fetches the encounter for
    `encounter_get_for_user` and then locks it): 404 to who may not see it, 403 to who may
    not act, before anything is told of its state (ended, or changed since `version`)."""
    with transaction.atomic():
        locked, roles = lock_by_id(actor, pk, version)
        return _act(actor, roles, locked, action)


def _act(actor, roles: set[Role], locked: Encounter, action: ActionInput) -> EncounterEntry:
    adapter = adapter_for(locked.system)
    everyone = combatants_locked(locked)
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
        require_for(actor, roles, fighter)
    # The organiser may let a figure act out of its turn (a forgotten action, a house
    # rule); the others act in the order the system keeps (Of the Dead: O5).
    # (only `true` asks it, and only where the system keeps an order to step out of).
    out_of_turn = adapter.KEEPS_TURN and (action.options or {}).get("out_of_turn") is True
    if out_of_turn and not roles & CAN_MANAGE:
        raise Forbidden(_("Only the encounter's organisers let a combatant act out of turn."))
    if fighter is not None and not out_of_turn:
        adapter.check_turn(locked, everyone, fighter, action)
    name, data = adapter.resolver_input(locked, fighter, target, action)
    snapshots = {str(c.pk): snapshot(c) for c in everyone}
    if name is None:
        # An action without dice: the adapter's input is its outcome.
        outcome, record = dict(data), None
    else:
        outcome, record = _resolve(actor, locked.system, name, data, action.dice)
    effects = adapter.apply_outcome(locked, action, outcome, fighter, target, everyone=everyone)
    # What the action changed (the actor, the target, a team's Moral...): saved, and its
    # state before kept for an undo.
    changed = [c for c in everyone if snapshot(c) != snapshots[str(c.pk)]]
    before = {str(c.pk): snapshots[str(c.pk)] for c in changed}
    for c in (fighter, target):
        if c is not None and str(c.pk) not in before:
            before[str(c.pk)] = snapshots[str(c.pk)]
    save_state(*changed, before=snapshots)
    entry = log(
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
    roles = require_role(actor, encounter, CAN_VIEW)
    adapter = adapter_for(encounter.system)
    if not adapter.STRAY_CHOICE:
        raise Refusal(_("There is no stray shot to choose for."))
    everyone = list(Combatant.objects.filter(encounter=encounter))
    found = adapter.pending_stray(everyone)
    if found is not None:
        require_for(actor, roles, found[0])
    chooser, hit = adapter.stray_choice(everyone, ally)
    action = ActionInput(kind=adapter.STRAY_CHOICE, actor=chooser, target=hit, dice=dice)
    return encounter_act(actor=actor, encounter=encounter, version=version, action=action)


def encounter_undo(*, actor, encounter: Encounter, version: int | None) -> EncounterEntry:
    """Undo the last action, by who made it or an organiser: what it changed is put back as
    it was; both lines stay in the log. Only the last change of the encounter can be undone
    (an end phase or a directive after it keep it; an undo is one level deep)."""
    roles = require_role(actor, encounter, CAN_VIEW)
    with transaction.atomic():
        return _undo(actor, roles, lock(actor, encounter, version))


def encounter_undo_by_id(*, actor, pk: int, version: int | None) -> EncounterEntry:
    """`encounter_undo` on the encounter numbered `pk`, fetched and authorised with its lock
    (`encounter_act_by_id`)."""
    with transaction.atomic():
        locked, roles = lock_by_id(actor, pk, version)
        return _undo(actor, roles, locked)


def _undo(actor, roles: set[Role], locked: Encounter) -> EncounterEntry:
    # The encounter's newest line before this write but those an undo looks past (an undo,
    # a spectator link): an action not undone, of this turn.
    last = newest_line(locked)
    if (
        last is None
        or last.kind != EntryKind.ACTION
        or last.undone_by_id is not None
        or last.turn != locked.turn
    ):
        raise Refusal(_("There is no action to undo."))
    if last.author_id != actor.pk and not roles & CAN_MANAGE:
        raise Forbidden(_("Only who made the action or an organiser may undo it."))
    everyone = combatants_locked(locked)
    snapshots = {str(c.pk): snapshot(c) for c in everyone if str(c.pk) in last.before}
    changed = [c for c in everyone if str(c.pk) in snapshots]
    for combatant in changed:
        for name, value in last.before[str(combatant.pk)].items():
            setattr(combatant, name, value)
    save_state(*changed, before=snapshots)
    entry = log(
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
    roles = require_role(actor, encounter, CAN_VIEW)
    if directive not in ORDERS:
        raise Refusal(_("Choose an order directive."), field="directive")
    with transaction.atomic():
        locked = lock(actor, encounter, version)
        if locked.phase != Phase.SPEECH:
            raise Refusal(_("Order directives are given in the speech phase."))
        target = combatant_locked(locked, combatant, "combatant")
        require_for(actor, roles, target)
        if target.dead:
            raise Refusal(_("This combatant is dead."), field="combatant")
        before = {str(target.pk): snapshot(target)}
        target.directive = directive
        target.revealed = False
        save_state(target)
        return log(
            locked, actor, EntryKind.DIRECTIVE, before=before, actor=target,
            data={"directive": directive},
        )  # fmt: skip


def encounter_reveal(*, actor, encounter: Encounter, version: int | None, combatant: int | None):
    """Reveal a combatant's directive to the other side (it is, at the latest, when it acts)."""
    roles = require_role(actor, encounter, CAN_VIEW)
    with transaction.atomic():
        locked = lock(actor, encounter, version)
        # Nothing happens at the table while a stray shot's figure waits to be chosen.
        adapter_for(locked.system).refuse_while_pending(combatants_locked(locked))
        target = combatant_locked(locked, combatant, "combatant")
        require_for(actor, roles, target)
        if not target.directive:
            raise Refusal(_("This combatant has no directive to reveal."), field="combatant")
        if target.revealed:
            raise Refusal(_("This directive is revealed already."), field="combatant")
        before = {str(target.pk): snapshot(target)}
        target.revealed = True
        save_state(target)
        return log(
            locked, actor, EntryKind.REVEAL, before=before, actor=target,
            data={"directive": target.directive},
        )  # fmt: skip


def encounter_advance(*, actor, encounter: Encounter, version: int | None) -> EncounterEntry:
    """The organiser moves the turn on, as the system's adapter says (KOLAPS: speech ->
    action; action -> the end phase, K14, then K15's attacker, and the next turn's speech).
    The end-of-turn automation changes the combatants, whose state before is kept."""
    require_role(actor, encounter, CAN_MANAGE)
    with transaction.atomic():
        locked = lock(actor, encounter, version)
        combatants = combatants_locked(locked)
        before = {str(c.pk): snapshot(c) for c in combatants}
        kind, data = adapter_for(locked.system).advance(locked, combatants)
        if kind == EntryKind.PHASE:
            # A phase may place the combatants (an initiative order, a turn's segments).
            changed = [c for c in combatants if snapshot(c) != before[str(c.pk)]]
            save_state(*changed)
            return log(locked, actor, kind, data=data)
        save_state(*combatants)
        return log(locked, actor, kind, before=before, data=data)


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
    require_role(actor, encounter, CAN_MANAGE)
    with transaction.atomic():
        locked = lock(actor, encounter, version)
        adapter_for(locked.system).refuse_end(locked, combatants_locked(locked))
        locked.status = EncounterStatus.ENDED
        locked.ended_at = timezone.now()
        locked.summary = encounter_summary(locked)
        if locked.chapter_id is not None:
            chapter_table_record(actor=actor, chapter=locked.chapter, record=locked.summary)
        log(locked, actor, EntryKind.ENDED, data=locked.summary)
        return locked


# --- The spectator link -----------------------------------------------------------------------


def encounter_revoke_spectator_link(*, actor, encounter: Encounter) -> EncounterEntry:
    """The organiser takes the spectator link back: it answers 404 from this commit on, and
    the screens watching through it are closed (`rules.table.live.spectators_revoked`). A
    live or an ended encounter alike; no link until the organiser makes a new one."""
    require_role(actor, encounter, CAN_MANAGE)
    with transaction.atomic():
        locked = lock(actor, encounter, None, live=False)
        if not locked.spectator_token:
            raise Refusal(_("This encounter's spectator link is revoked already."))
        locked.spectator_token = None
        locked.save(update_fields=["spectator_token"])
        entry = log(locked, actor, EntryKind.LINK, data={"link": "revoked"})
        transaction.on_commit(lambda: spectators_revoked(locked.pk))
        return entry


def encounter_rotate_spectator_link(*, actor, encounter: Encounter) -> EncounterEntry:
    """The organiser makes a new spectator link: the old one, if there was one, answers 404
    from this commit on and its screens are closed, as by a revocation."""
    require_role(actor, encounter, CAN_MANAGE)
    with transaction.atomic():
        locked = lock(actor, encounter, None, live=False)
        replaced = bool(locked.spectator_token)
        locked.spectator_token = new_token()
        locked.save(update_fields=["spectator_token"])
        entry = log(
            locked, actor, EntryKind.LINK, data={"link": "replaced" if replaced else "made"}
        )
        if replaced:
            transaction.on_commit(lambda: spectators_revoked(locked.pk))
        return entry
