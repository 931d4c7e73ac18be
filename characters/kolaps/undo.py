"""Undo for KOLAPS characters and units: the last change taken back, itself a change with
its history row, written as every change is (`characters.kolaps.services`). A creation, or
a loss in a chapter, is never undone."""

from django.db import transaction
from django.utils.translation import gettext as _

from characters.kolaps.models import KolapsChange, KolapsCharacter, KolapsUnit
from characters.kolaps.services import (
    CREATION_VERBS,
    FINAL_VERBS,
    character_state,
    history_record,
    lock_for_change,
    lock_unit_of,
    members_of,
    new_share_token,
    recompute_unit,
    unit_state,
)
from characters.permissions import Refusal


def _last_undoable(changes) -> KolapsChange | None:
    """The latest change that is not an undo and has not been undone."""
    return (
        changes.filter(undoes__isnull=True, undone_by__isnull=True).order_by("-at", "-pk").first()
    )


def _undo_candidates(obj: KolapsCharacter | KolapsUnit):
    if isinstance(obj, KolapsUnit):
        return KolapsChange.objects.filter(unit=obj)
    return KolapsChange.objects.filter(character=obj, target=KolapsChange.Target.CHARACTER)


def can_undo(obj: KolapsCharacter | KolapsUnit) -> bool:
    """Whether an undo would take something back: the history page shows its button only
    then (a creation, or a loss in a chapter, is never undone). One query."""
    change = _last_undoable(_undo_candidates(obj))
    return change is not None and change.verb not in CREATION_VERBS | FINAL_VERBS


def unit_undo(*, actor, unit: KolapsUnit, version: int | None) -> KolapsChange:
    """Undo the unit's last change (its own, or one of its characters' while in it)."""
    return _undo_last(actor, unit, version)


def character_undo(*, actor, character: KolapsCharacter, version: int | None) -> KolapsChange:
    """Undo the character's last change to its own sheet."""
    return _undo_last(actor, character, version)


def _undo_last(actor, obj: KolapsCharacter | KolapsUnit, version: int | None) -> KolapsChange:
    with transaction.atomic():
        locked = lock_for_change(actor, obj, version)
        unit = locked if isinstance(locked, KolapsUnit) else lock_unit_of(locked)
        return _undo(actor, _last_undoable(_undo_candidates(locked)), unit)


def _undo(actor, change: KolapsChange | None, unit: KolapsUnit | None) -> KolapsChange:
    if change is None:
        raise Refusal(_("There is nothing left to undo."))
    if change.verb in CREATION_VERBS:
        raise Refusal(
            _("There is nothing left to undo: a creation is not undone (delete it instead).")
        )
    if change.verb in FINAL_VERBS:
        raise Refusal(_("Characters lost in a chapter do not come back by an undo."))
    changed_since = Refusal(
        _("This change cannot be undone: what it changed has been changed again since."),
        status=409,
    )
    if change.target == KolapsChange.Target.CHARACTER:
        character = KolapsCharacter.objects.select_for_update().get(pk=change.character_id)
        if character_state(character) != change.after:
            raise changed_since
        for field, value in change.before.items():
            setattr(character, field, value)
        character.version += 1
        character.save()
        restored_unit = unit if unit is not None else lock_unit_of(character)
        undo = history_record(
            actor=actor,
            owner=character.owner,
            target=change.target,
            verb="undo",
            unit=restored_unit,
            character=character,
            before=change.after,
            after=change.before,
            undoes=change,
            undone=change.verb,
            undone_data=change.data,
        )
        if restored_unit is not None:
            recompute_unit(restored_unit)
        return undo
    target = unit if unit is not None and unit.pk == change.unit_id else None
    target = target or KolapsUnit.objects.select_for_update().get(pk=change.unit_id)
    members = members_of(target)
    if unit_state(target, members) != change.after:
        raise changed_since
    before_ids = [pk for pk, _avatar in change.before["members"]]
    rejoining = KolapsCharacter.objects.select_for_update().filter(pk__in=before_ids)
    if any(m.unit_id not in (None, target.pk) for m in rejoining):
        raise changed_since
    KolapsCharacter.objects.filter(unit=target).exclude(pk__in=before_ids).update(
        unit=None, is_avatar=False
    )
    KolapsCharacter.objects.filter(unit=target).update(is_avatar=False)
    for position, (pk, avatar) in enumerate(change.before["members"]):
        KolapsCharacter.objects.filter(pk=pk).update(
            unit=target, position=position, is_avatar=avatar
        )
    target.name = change.before["name"]
    restored = change.before["share_token"]
    if restored and restored != target.share_token:
        # A revoked link stays dead: undoing its revocation shares the unit under a new one.
        restored = new_share_token()
    target.share_token = restored
    target.save(update_fields=["name", "share_token", "updated_at"])
    undo = history_record(
        actor=actor,
        owner=target.owner,
        target=change.target,
        verb="undo",
        unit=target,
        character=change.character,
        before=change.after,
        after={**change.before, "share_token": restored},
        undoes=change,
        undone=change.verb,
        undone_data=change.data,
    )
    recompute_unit(target)
    return undo


# A character and a unit are undone alike: the pages and API classes that serve both name
# the object by kind.
UNDO = {"character": character_undo, "unit": unit_undo}
