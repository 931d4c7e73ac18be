"""The one shape of a write to a versioned, undoable list of figures.

A KOLAPS unit (or one of its characters) and a Rapid 40000 army are changed alike: the row
is locked at the version the client was shown (a stale one is refused with the current
state, so two devices never overwrite each other silently), its plain state is read, one
edit gives the next state (validating it; a refusal leaves nothing written), the state is
stored with every derived number recomputed from scratch, and a history row keeps who,
when, what, and the state before and after. An undo is the same write whose edit is "the
`before` of the last change still standing". Each system's services say only what differs:
how its state is read and stored, and what its history row points at.
"""

import copy
from collections.abc import Callable
from typing import TypeVar

from django.db import transaction
from django.utils.translation import gettext as _

from characters.permissions import Forbidden, Refusal

NAME_MAX = 80
Row = TypeVar("Row")


class StaleVersion(Refusal):
    """The object changed since the client read it; `current` is its state now."""

    status = 409

    def __init__(self, current):
        super().__init__(
            _(
                "This was changed meanwhile (on another device?). Nothing was saved: here is "
                "its current state."
            ),
            field="version",
        )
        self.current = current


def owner_only(actor, obj) -> None:
    if actor is None or obj.owner_id != actor.pk:
        raise Forbidden(_("Only the owner changes this."))


def lock_owned(actor, obj: Row, version: int | None) -> Row:
    """`obj` locked for the change, if it is the actor's and still at the version the client
    was shown (None: whatever its version)."""
    locked = type(obj).objects.select_for_update().get(pk=obj.pk)  # type: ignore[attr-defined]
    check_owned(actor, locked, version)
    return locked


def check_owned(actor, locked, version: int | None) -> None:
    owner_only(actor, locked)
    if version is not None and locked.version != version:
        raise StaleVersion(locked)


def clean_name(name, field: str = "name") -> str:
    name = (name if isinstance(name, str) else "").strip()
    if not name:
        raise Refusal(_("Give it a name."), field=field)
    if len(name) > NAME_MAX:
        raise Refusal(_("A name has at most 80 characters."), field=field)
    return name


def last_undoable(changes, *, kept=frozenset()):
    """The latest change that is not an undo, has not been undone, and whose verb is not
    `kept` (what cannot be taken back: a creation, a fact of the campaign)."""
    return (
        changes.exclude(verb__in=kept)
        .filter(undoes__isnull=True, undone_by__isnull=True)
        .order_by("-at", "-pk")
        .first()
    )


def roster_write(
    obj: Row,
    *,
    lock: Callable[[Row], Row],
    state: Callable[[Row], dict],
    edit: Callable[[Row, dict], dict],
    store: Callable[[Row, dict], None],
    record: Callable[[Row, dict, dict], object],
    unchanged_too: bool = False,
) -> Row:
    """Lock `obj`, read its `state`, `edit` a copy of it into the next state, then `store`
    that (recomputing what is derived, moving the version on) and `record` the state before
    and after, all in one transaction. An edit that changes nothing writes nothing, unless
    `unchanged_too` (an undo always leaves its line, so the line it takes back is closed)."""
    with transaction.atomic():
        locked = lock(obj)
        before = state(locked)
        after = edit(locked, copy.deepcopy(before))
        if unchanged_too or after != before:
            store(locked, after)
            record(locked, before, after)
    return locked


# --- Character sheets (Corporates, modern RPG): one row, its `events` newest first -----------


def sheet_create(model, *, owner, catalogue_version: str, fields: dict, state: Callable):
    """A new sheet and its `created` line of history, in one transaction."""
    with transaction.atomic():
        character = model.objects.create(owner=owner, catalogue_version=catalogue_version, **fields)
        character.events.create(actor=owner, verb="created", before=None, after=state(character))
    return character


def sheet_lock(character: Row, version: int | None) -> Row:
    """The sheet locked at the version the client was shown (None: whatever its version)."""
    current = type(character).objects.select_for_update().get(pk=character.pk)  # type: ignore[attr-defined]
    if version is not None and current.version != version:
        raise Refusal(
            _("This character changed meanwhile: here it is as it is now."),
            field="version",
            status=409,
        )
    return current


def sheet_store(current, after: dict) -> None:
    """The sheet's fields set to `after`, its version moved on."""
    for field, value in after.items():
        setattr(current, field, value)
    current.version += 1
    current.save()
