"""The only writer of KOLAPS characters and units.

Every operation: checks the actor owns what it changes, locks the row and compares the
version the client was shown (a stale one is refused with the current state, so two
devices never overwrite each other silently), validates against the catalogue, writes in
one transaction, appends a history row with the state before and after, and recomputes
the unit's VU and status from scratch with `rules.engine.systems.kolaps.costing`: the shape
every roster is written in (`characters.rosters.services.roster_write`).

A unit with problems is saved as a draft: building is allowed to be half-way. What is
refused outright is what the rules or the database cannot hold at all (a level a talent
does not have, an item outside the archetype's choices, a gauge outside 1-6, a second
Avatar) and anything not the actor's own.
"""

import secrets
from collections.abc import Iterable
from typing import TypeVar

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from characters.kolaps.models import GAUGE_MAX, GAUGE_MIN, KolapsChange, KolapsCharacter, KolapsUnit
from characters.kolaps.text import requirement_text
from characters.permissions import Refusal
from characters.rosters.services import (
    NAME_MAX,
    StaleVersion,
    check_owned,
    clean_name,
    lock_owned,
    owner_only,
    roster_write,
)
from rules.engine.systems.kolaps import costing
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import Catalogue

Owned = TypeVar("Owned", KolapsCharacter, KolapsUnit)
CREATION_VERBS = frozenset({"created", "duplicated", "imported"})
# What a chapter did to a unit is a fact of the campaign, not an edit to take back.
FINAL_VERBS = frozenset({"lost", "restored"})


def catalogue(version: str | None = None) -> Catalogue:
    """The catalogue `version` (the current one when None). A unit is costed with the version
    it records and a character with its own, also after a newer catalogue ships; new units and
    characters take the current one."""
    return load_catalogue(version)


# --- Plain data for the rules ----------------------------------------------------------------


def character_choices(character: KolapsCharacter) -> costing.CharacterChoices:
    return costing.CharacterChoices(
        key=str(character.pk),
        name=character.name,
        affiliation=character.affiliation,
        archetype=character.archetype,
        rank=character.rank,
        talents=character.talents,
        equipment=character.equipment,
        avatar=character.is_avatar,
    )


def character_state(character: KolapsCharacter) -> dict:
    return {
        "name": character.name,
        "rank": character.rank,
        "talents": dict(character.talents),
        "equipment": list(character.equipment),
        "sante": character.sante,
        "souffle": character.souffle,
        "moral": character.moral,
    }


def unit_state(unit: KolapsUnit, members: Iterable[KolapsCharacter]) -> dict:
    return {
        "name": unit.name,
        "share_token": unit.share_token,
        "members": [[member.pk, member.is_avatar] for member in members],
    }


# --- Locks, checks, history ------------------------------------------------------------------


def lock_for_change(actor, obj: Owned, version: int | None) -> Owned:
    """The character or unit locked for the change, if it is the actor's and still at the
    version the client was shown (None: whatever its version).

    Locks are taken in one order everywhere: a unit, then its characters. A character's
    change therefore locks the unit it is in before the character itself, so a change to
    the unit and one to its member at the same time wait for each other, never deadlock."""
    if isinstance(obj, KolapsUnit):
        return lock_owned(actor, obj, version)
    locked = _lock_character_unit_first(obj)
    check_owned(actor, locked, version)
    return locked


def _lock_character_unit_first(character: KolapsCharacter) -> KolapsCharacter:
    """The character locked after the unit it is in. Should it have moved to another unit
    between the two reads (a unit change committed meanwhile), the change is refused as
    stale rather than locking a second unit after the character."""
    rows = KolapsCharacter.objects.filter(pk=character.pk).values_list("unit_id", flat=True)
    unit_id = rows.first()
    if unit_id is not None:
        list(KolapsUnit.objects.select_for_update().filter(pk=unit_id).values_list("pk"))
    locked = KolapsCharacter.objects.select_for_update().get(pk=character.pk)
    if locked.unit_id != unit_id:
        raise StaleVersion(locked)
    return locked


def lock_unit_of(character: KolapsCharacter) -> KolapsUnit | None:
    """The unit the character is in, locked to be recomputed (None: in no unit)."""
    if not character.unit_id:
        return None
    return KolapsUnit.objects.select_for_update().get(pk=character.unit_id)


def _state(obj: KolapsCharacter | KolapsUnit) -> dict:
    """What a change to `obj` is compared and undone by."""
    if isinstance(obj, KolapsUnit):
        return unit_state(obj, members_of(obj))
    return character_state(obj)


def members_of(unit: KolapsUnit) -> list[KolapsCharacter]:
    return list(KolapsCharacter.objects.filter(unit=unit).order_by("position", "pk"))


def recompute_unit(unit: KolapsUnit, members: list[KolapsCharacter] | None = None) -> KolapsUnit:
    """VU and status from the members' choices, from scratch; the unit's version moves on."""
    members = members_of(unit) if members is None else members
    cat = catalogue(unit.catalogue_version)
    result = costing.cost_unit(cat, [character_choices(m) for m in members])
    unit.vu = result.vu
    unit.status = KolapsUnit.Status.VALID if result.valid else KolapsUnit.Status.DRAFT
    unit.version += 1
    unit.save(update_fields=["vu", "status", "version", "updated_at"])
    return unit


def history_record(*, actor, owner, target, verb, unit=None, character=None, before=None,
                   after=None, undoes=None, **data) -> KolapsChange:  # fmt: skip
    return KolapsChange.objects.create(
        owner=owner,
        actor=actor,
        target=target,
        verb=verb,
        unit=unit,
        character=character,
        before=before,
        after=after,
        undoes=undoes,
        data=data,
    )


def _record_new(*, actor, verb, obj, unit=None, members=(), **data) -> KolapsChange:
    """The history line of a character or a unit just made (created, duplicated, imported):
    who made it, when, and what it holds (a character's unit, a unit's `members`)."""
    if isinstance(obj, KolapsUnit):
        target, unit, character = KolapsChange.Target.UNIT, obj, None
        after = unit_state(obj, members)
    else:
        target, character = KolapsChange.Target.CHARACTER, obj
        after = character_state(obj)
    return history_record(actor=actor, owner=obj.owner, target=target, verb=verb, unit=unit,
                   character=character, after=after, name=obj.name, **data)  # fmt: skip


# --- Characters ------------------------------------------------------------------------------


def character_create(
    *, owner, name: str, archetype: str, rank: str, unit: KolapsUnit | None = None
) -> KolapsCharacter:
    """A new character of `archetype`: its talents at expertise 0 and the first item of each
    equipment choice (K2: both free). A rank the archetype does not allow is refused here
    (an imported file may still carry one, reported as a problem)."""
    name = clean_name(name)
    # A character made into a unit speaks the unit's catalogue; on its own, the current one.
    cat = catalogue(unit.catalogue_version if unit is not None else None)
    entry = cat.archetypes.get(archetype)
    if entry is None:
        raise Refusal(_("Choose an archetype of the catalogue."), field="archetype")
    if not entry.allows_rank(rank):
        raise Refusal(_("This archetype cannot have this rank."), field="rank")
    talents, equipment = costing.archetype_defaults(cat, archetype)
    with transaction.atomic():
        locked_unit = lock_for_change(owner, unit, None) if unit is not None else None
        character = KolapsCharacter.objects.create(
            owner=owner,
            name=name,
            affiliation=entry.affiliation,
            archetype=archetype,
            rank=rank,
            talents=talents,
            equipment=equipment,
            catalogue_version=cat.version,
            unit=locked_unit,
            position=_next_position(locked_unit) if locked_unit else 0,
        )
        _record_new(actor=owner, verb="created", obj=character, unit=locked_unit)
        if locked_unit is not None:
            recompute_unit(locked_unit)
    return character


def _next_position(unit: KolapsUnit) -> int:
    highest = KolapsCharacter.objects.filter(unit=unit).aggregate(top=Max("position"))["top"]
    return 0 if highest is None else highest + 1


def _change(*, actor, obj: Owned, version, verb, change, character=None, **data) -> Owned:
    """Change a character or a unit (`characters.rosters.services.roster_write`): `change`
    validates and edits the locked row in place (a unit's change may move its members);
    when its state moved, the state before and after is recorded and the unit recomputed
    from scratch (a character's own, when it is in one). `character` names the member a
    unit's change is about."""

    def edit(locked: Owned, before: dict) -> dict:
        change(locked)
        return _state(locked)

    def store(locked: Owned, after: dict) -> None:
        if isinstance(locked, KolapsCharacter):
            locked.version += 1  # a unit's version moves on as it is recomputed
        locked.save()

    def record(locked: Owned, before: dict, after: dict) -> None:
        if isinstance(locked, KolapsUnit):
            target, unit, member, extra = KolapsChange.Target.UNIT, locked, character, data
        else:
            target, unit, member = KolapsChange.Target.CHARACTER, lock_unit_of(locked), locked
            extra = {"name": locked.name, **data}
        history_record(actor=actor, owner=locked.owner, target=target, verb=verb, unit=unit,
                character=member, before=before, after=after, **extra)  # fmt: skip
        if unit is not None:
            recompute_unit(unit)

    def lock(obj: Owned) -> Owned:
        return lock_for_change(actor, obj, version)

    return roster_write(obj, lock=lock, state=_state, edit=edit, store=store, record=record)


def character_set_level(
    *, actor, character: KolapsCharacter, version: int | None, talent: str, level: int | None
) -> KolapsCharacter:
    """Hold `talent` at `level` (None: drop a specialisation or option). A missing
    prerequisite or an overspent budget is allowed and reported (the unit is a draft)."""
    cat = catalogue(character.catalogue_version)
    entry = cat.talents.get(talent)
    if entry is None:
        raise Refusal(_("This talent is not in the catalogue."), field="talent")

    def change(locked: KolapsCharacter) -> None:
        talents = dict(locked.talents)
        steps = {step.slug: step for step in costing.steps(cat, character_choices(locked))}
        if talent not in steps:
            raise Refusal(_("This character cannot take this talent."), field="talent")
        if level is None:
            if entry.kind == "talent":
                raise Refusal(
                    _("A base talent of the archetype stays at 0 or more."), field="level"
                )
            talents.pop(talent, None)
        elif level not in entry.level_numbers:
            raise Refusal(
                _("%(talent)s has no level %(level)s.") % {"talent": entry.label, "level": level},
                field="level",
            )
        else:
            raising = level > locked.talents.get(talent, -1)
            talents[talent] = level
            if raising:
                _refuse_missing_prerequisite(cat, locked, talents, talent)
        locked.talents = talents

    return _change(actor=actor, obj=character, version=version, verb="level", change=change,
                   talent=talent, level=level)  # fmt: skip


def _refuse_missing_prerequisite(cat, locked, talents, talent) -> None:
    """Buying or raising a level needs its prerequisite (K2). Lowering what another talent
    requires is allowed: the problem is then listed and the unit is a draft."""
    trial = costing.CharacterChoices(
        key="", name=locked.name, affiliation=locked.affiliation, archetype=locked.archetype,
        rank=locked.rank, talents=talents, equipment=locked.equipment,
    )  # fmt: skip
    for problem in costing.cost_character(cat, trial).problems:
        if problem.code == costing.MISSING_PREREQUISITE and problem.params["talent"] == talent:
            raise Refusal(
                _("%(talent)s %(level)s requires %(requires)s.")
                % {
                    "talent": cat.talent(talent).label,
                    "level": problem.params["level"],
                    "requires": requirement_text(cat, problem.params["requires"]),
                },
                field="talent",
            )


def character_raise(*, actor, character, version, talent: str) -> KolapsCharacter:
    """One level up (or buy level 1 of a specialisation or option)."""
    step = _step(character, talent)
    if step.next_level is None:
        raise Refusal(_("This talent is at its highest level."), field="talent")
    return character_set_level(
        actor=actor, character=character, version=version, talent=talent, level=step.next_level
    )


def character_lower(*, actor, character, version, talent: str) -> KolapsCharacter:
    """One level down; a specialisation or option at its first level is dropped."""
    step = _step(character, talent)
    if step.level is None or not step.can_lower:
        raise Refusal(_("This talent cannot go lower."), field="talent")
    levels = catalogue(character.catalogue_version).talent(talent).level_numbers
    lower = [number for number in levels if number < step.level]
    return character_set_level(
        actor=actor,
        character=character,
        version=version,
        talent=talent,
        level=lower[-1] if lower else None,
    )


def _step(character: KolapsCharacter, talent: str) -> costing.Step:
    for step in costing.steps(catalogue(character.catalogue_version), character_choices(character)):
        if step.slug == talent:
            return step
    raise Refusal(_("This character cannot take this talent."), field="talent")


def character_set_talent_choice(
    *, actor, character, version, group: int, talent: str
) -> KolapsCharacter:
    """Pick the alternative of a talent choice ("Fusil ou Bouclier"): it starts at 0 and the
    other alternative is dropped with its levels."""
    cat = catalogue(character.catalogue_version)

    def change(locked: KolapsCharacter) -> None:
        groups = cat.archetype(locked.archetype).talents
        if not 1 <= group <= len(groups) or talent not in groups[group - 1]:
            raise Refusal(_("Choose one of the alternatives offered."), field="talent")
        talents = {k: v for k, v in locked.talents.items() if k not in groups[group - 1]}
        talents[talent] = locked.talents.get(talent, 0)
        locked.talents = talents

    return _change(actor=actor, obj=character, version=version, verb="talent_choice", change=change,
                   talent=talent)  # fmt: skip


def character_set_equipment(*, actor, character, version, group: int, item: str) -> KolapsCharacter:
    """Pick one item of an equipment choice ("A ou B ou C")."""
    cat = catalogue(character.catalogue_version)

    def change(locked: KolapsCharacter) -> None:
        groups = cat.archetype(locked.archetype).equipment
        if not 1 <= group <= len(groups) or item not in groups[group - 1]:
            raise Refusal(_("Choose one of the items offered."), field="item")
        equipment = list(locked.equipment)
        equipment += [g[0] for g in groups[len(equipment) :]]
        equipment[group - 1] = item
        locked.equipment = equipment[: len(groups)]

    return _change(actor=actor, obj=character, version=version, verb="equipment", change=change,
                   item=item)  # fmt: skip


def character_set_gauges(
    *, actor, character, version, sante: int, souffle: int, moral: int
) -> KolapsCharacter:
    """Santé, Souffle and Moral, each 1 to 6; the Avatar's Moral is always 6 (K13)."""
    values = {"sante": sante, "souffle": souffle, "moral": moral}
    for gauge, value in values.items():
        if not isinstance(value, int) or not GAUGE_MIN <= value <= GAUGE_MAX:
            raise Refusal(_("A gauge goes from 1 to 6."), field=gauge)

    def change(locked: KolapsCharacter) -> None:
        if locked.is_avatar and moral != GAUGE_MAX:
            raise Refusal(_("The Avatar's Moral is always 6."), field="moral")
        for gauge, value in values.items():
            setattr(locked, gauge, value)

    return _change(
        actor=actor, obj=character, version=version, verb="gauges", change=change, **values
    )


def character_rename(*, actor, character, version, name: str) -> KolapsCharacter:
    name = clean_name(name)

    def change(locked: KolapsCharacter) -> None:
        locked.name = name

    return _change(actor=actor, obj=character, version=version, verb="renamed", change=change)


def character_set_rank(*, actor, character, version, rank: str) -> KolapsCharacter:
    cat = catalogue(character.catalogue_version)

    def change(locked: KolapsCharacter) -> None:
        if not cat.archetype(locked.archetype).allows_rank(rank):
            raise Refusal(_("This archetype cannot have this rank."), field="rank")
        locked.rank = rank

    return _change(
        actor=actor, obj=character, version=version, verb="rank", change=change, rank=rank
    )


def character_duplicate(*, actor, character: KolapsCharacter) -> KolapsCharacter:
    """A copy of the character, outside any unit."""
    owner_only(actor, character)
    with transaction.atomic():
        copy = _copy_character(character, owner=actor, unit=None, avatar=False)
        _record_new(actor=actor, verb="duplicated", obj=copy, source=character.name)
    return copy


def _copy_character(character, *, owner, unit, avatar, name=None, position=0):
    return KolapsCharacter.objects.create(
        owner=owner,
        unit=unit,
        position=position,
        is_avatar=avatar,
        name=name or character.name,
        affiliation=character.affiliation,
        archetype=character.archetype,
        rank=character.rank,
        talents=dict(character.talents),
        equipment=list(character.equipment),
        sante=character.sante,
        souffle=character.souffle,
        moral=character.moral,
        catalogue_version=character.catalogue_version,
    )


# --- Units -----------------------------------------------------------------------------------


def unit_create(*, owner, name: str) -> KolapsUnit:
    name = clean_name(name)
    with transaction.atomic():
        unit = KolapsUnit.objects.create(
            owner=owner, name=name, catalogue_version=catalogue().version, version=0
        )
        _record_new(actor=owner, verb="created", obj=unit)
        recompute_unit(unit, [])
    return unit


def unit_import(*, owner, name: str, characters: list[dict], source_version: str) -> KolapsUnit:
    """A unit and its characters from a checked unit file (`characters.kolaps.unit_file`):
    every row written in one transaction, each with its `imported` history line (the unit's
    keeps the file's catalogue version); the unit is costed with the current catalogue."""
    with transaction.atomic():
        unit = KolapsUnit.objects.create(
            owner=owner, name=name, catalogue_version=catalogue().version, version=0
        )
        members = []
        for position, row in enumerate(characters):
            member = KolapsCharacter.objects.create(
                owner=owner, unit=unit, position=position, **row
            )
            _record_new(actor=owner, verb="imported", obj=member, unit=unit)
            members.append(member)
        _record_new(
            actor=owner,
            verb="imported",
            obj=unit,
            members=members,
            catalogue_version=source_version,
        )
        recompute_unit(unit, members)
    return unit


def _member(unit: KolapsUnit, character: KolapsCharacter) -> KolapsCharacter:
    """`character`, locked, when it is in the unit; refused otherwise."""
    member = KolapsCharacter.objects.select_for_update().filter(pk=character.pk, unit=unit)
    found = member.first()
    if found is None:
        raise Refusal(_("This character is not in the unit."), field="character")
    return found


def unit_rename(*, actor, unit, version, name: str) -> KolapsUnit:
    name = clean_name(name)

    def change(locked):
        locked.name = name

    return _change(actor=actor, obj=unit, version=version, verb="renamed", change=change,
                   name=name)  # fmt: skip


def unit_add_character(*, actor, unit, version, character: KolapsCharacter) -> KolapsUnit:
    """Put one of the owner's characters, not in another unit, at the end of the unit."""

    def change(locked):
        member = KolapsCharacter.objects.select_for_update().get(pk=character.pk)
        if member.owner_id != locked.owner_id:
            raise Refusal(_("Only your own characters join your units."), field="character")
        if member.unit_id == locked.pk:
            raise Refusal(_("This character is already in the unit."), field="character")
        if member.unit_id is not None:
            raise Refusal(
                _("This character is in another unit: remove it from there first."),
                field="character",
            )
        if member.dead:  # RULES-NOTES CL1: "the dead leave their unit for good".
            raise Refusal(
                _("%(name)s died in a chapter: the dead do not rejoin a unit.")
                % {"name": member.name},
                field="character",
            )
        member.unit = locked
        member.position = _next_position(locked)
        member.is_avatar = False
        member.save(update_fields=["unit", "position", "is_avatar", "updated_at"])

    return _change(actor=actor, obj=unit, version=version, verb="added", change=change,
                   character=character, name=character.name)  # fmt: skip


def unit_remove_character(*, actor, unit, version, character: KolapsCharacter) -> KolapsUnit:
    """Take a character out of the unit (it stays among the owner's characters)."""

    def change(locked):
        member = _member(locked, character)
        member.unit = None
        member.is_avatar = False
        member.save(update_fields=["unit", "is_avatar", "updated_at"])

    return _change(actor=actor, obj=unit, version=version, verb="removed", change=change,
                   character=character, name=character.name)  # fmt: skip


def unit_set_avatar(*, actor, unit, version, character: KolapsCharacter) -> KolapsUnit:
    """Make `character` the unit's one Avatar (the previous one no longer is). The Avatar's
    Moral is always 6 (K13), so it is set to 6."""

    def change(locked):
        member = _member(locked, character)
        KolapsCharacter.objects.filter(unit=locked, is_avatar=True).exclude(pk=member.pk).update(
            is_avatar=False
        )
        if not member.is_avatar or member.moral != GAUGE_MAX:
            already = member.is_avatar
            member.is_avatar = True
            member.moral = GAUGE_MAX
            member.version += 1
            member.save(update_fields=["is_avatar", "moral", "version", "updated_at"])
            if already:  # the unit's state is the same, what its pages show is not
                recompute_unit(locked)

    return _change(actor=actor, obj=unit, version=version, verb="avatar", change=change,
                   character=character, name=character.name)  # fmt: skip


def unit_share(*, actor, unit, version) -> KolapsUnit:
    """Give the unit a read-only link (a new one each time it is shared again)."""

    def change(locked):
        if not locked.share_token:
            locked.share_token = new_share_token()

    return _change(actor=actor, obj=unit, version=version, verb="shared", change=change)


def new_share_token() -> str:
    return secrets.token_urlsafe(24)


def unit_unshare(*, actor, unit, version) -> KolapsUnit:
    """Revoke the read-only link: whoever had it no longer sees the unit."""

    def change(locked):
        locked.share_token = None

    return _change(actor=actor, obj=unit, version=version, verb="unshared", change=change)


def unit_duplicate(*, actor, unit: KolapsUnit) -> KolapsUnit:
    """A copy of the unit and of each of its characters (not shared)."""
    owner_only(actor, unit)
    with transaction.atomic():
        copy = KolapsUnit.objects.create(
            owner=actor,
            name=(_("%(name)s (copy)") % {"name": unit.name})[:NAME_MAX],
            catalogue_version=unit.catalogue_version,
            version=0,
        )
        members = [
            _copy_character(m, owner=actor, unit=copy, avatar=m.is_avatar, position=m.position)
            for m in members_of(unit)
        ]
        _record_new(actor=actor, verb="duplicated", obj=copy, members=members, source=unit.name)
        recompute_unit(copy, members)
    return copy


def unit_require_valid(unit: KolapsUnit) -> None:
    """For encounters and chapters: a draft unit cannot enter them."""
    if not unit.is_valid:
        raise Refusal(
            _("This unit is a draft: solve its problems before it enters an encounter."),
            field="unit",
        )


def unit_remove_lost(
    *, actor, unit: KolapsUnit, character_ids: Iterable[int], chapter=None
) -> KolapsUnit:
    """Characters lost in a chapter leave their unit, for good (kept in the history).

    For the post-chapter settlement (`actor=None`, system work) or the unit's owner. The
    characters stay among the owner's characters (their sheets and history are kept), out
    of any unit; an Avatar lost leaves the unit without one, a draft until its owner names
    another. One history row (verb `lost`, with the chapter and the names) that undo
    refuses to reverse; VU and status recomputed from scratch.

    Idempotent by state: ids no longer in the unit (already removed by an earlier run, or
    taken out by hand meanwhile) are skipped; when none is left, nothing is written.
    """
    if actor is not None:
        owner_only(actor, unit)
    wanted = {int(pk) for pk in character_ids}
    with transaction.atomic():
        locked = KolapsUnit.objects.select_for_update().get(pk=unit.pk)
        members = members_of(locked)
        lost = [m for m in members if m.pk in wanted]
        if not lost:
            return locked
        before = unit_state(locked, members)
        KolapsCharacter.objects.filter(pk__in=[m.pk for m in lost]).update(
            unit=None, is_avatar=False, dead=True
        )
        remaining = [m for m in members if m.pk not in wanted]
        history_record(
            actor=actor,
            owner=locked.owner,
            target=KolapsChange.Target.UNIT,
            verb="lost",
            unit=locked,
            before=before,
            after=unit_state(locked, remaining),
            name=", ".join(m.name for m in lost),
            characters=[[m.pk, m.name] for m in lost],
            chapter=getattr(chapter, "pk", None),
            chapter_title=getattr(chapter, "title", ""),
        )
        recompute_unit(locked, remaining)
    return locked


def unit_restore_lost(
    *, actor, unit: KolapsUnit, character_ids: Iterable[int], chapter
) -> KolapsUnit:
    """The settlement of `chapter` is reopened: the characters it took out of the unit
    come back (the only way back; an undo refuses).

    For the settlement reopen (`actor=None`, system work). Reads the unit's `lost` history
    rows of that chapter not restored yet: only characters one of them removed, and among
    `character_ids`, come back, at their old place, Avatar again if they were and the unit
    has none now. A character that joined another unit or was deleted meanwhile stays
    where it is (named in the history row). One history row per `lost` row (verb
    `restored`, pointing at it, so the `lost` row reads as undone); VU and status
    recomputed from scratch. Idempotent by state: nothing left to restore writes nothing.
    """
    if actor is not None:
        owner_only(actor, unit)
    wanted = {int(pk) for pk in character_ids}
    chapter_pk = getattr(chapter, "pk", chapter)
    with transaction.atomic():
        locked = KolapsUnit.objects.select_for_update().get(pk=unit.pk)
        lost_rows = list(
            KolapsChange.objects.filter(
                unit=locked, verb="lost", data__chapter=chapter_pk, undone_by__isnull=True
            ).order_by("-at", "-pk")
        )
        if not lost_rows:
            return locked
        members = members_of(locked)
        has_avatar = any(m.is_avatar for m in members)
        for row in lost_rows:
            removed = [pk for pk, _name in row.data.get("characters", []) if pk in wanted]
            was_avatar = {pk for pk, avatar in (row.before or {}).get("members", []) if avatar}
            candidates = {
                c.pk: c for c in KolapsCharacter.objects.select_for_update().filter(pk__in=removed)
            }
            back = [candidates[pk] for pk in removed if pk in candidates]
            back = [c for c in back if c.unit_id is None and c.owner_id == locked.owner_id]
            before = unit_state(locked, members)
            for character in back:
                character.unit = locked
                character.is_avatar = character.pk in was_avatar and not has_avatar
                character.dead = False
                has_avatar = has_avatar or character.is_avatar
                character.save(update_fields=["unit", "is_avatar", "dead", "updated_at"])
            members = members_of(locked)
            staying = [name for pk, name in row.data.get("characters", []) if pk in wanted
                       and pk not in {c.pk for c in back}]  # fmt: skip
            history_record(
                actor=actor,
                owner=locked.owner,
                target=KolapsChange.Target.UNIT,
                verb="restored",
                unit=locked,
                before=before,
                after=unit_state(locked, members),
                undoes=row,
                name=", ".join(c.name for c in back),
                characters=[[c.pk, c.name] for c in back],
                not_back=staying,
                chapter=row.data.get("chapter"),
                chapter_title=getattr(chapter, "title", "") or row.data.get("chapter_title", ""),
            )
        recompute_unit(locked, members)
    return locked


# --- One entry point per object, for the page and its API twin -------------------------------

CHARACTER_OPS = ("raise", "lower", "talent_choice", "equipment", "gauges", "rename", "rank")
UNIT_OPS = ("rename", "add", "remove", "avatar", "share", "unshare")


def character_change(*, actor, character, op: str, version: int | None, **fields):
    """Apply one builder operation by name (the page's form and the API send the same)."""

    def need(name):
        value = fields.get(name)
        if value in (None, ""):
            raise Refusal(_("This field is required."), field=name)
        return value

    common = {"actor": actor, "character": character, "version": version}
    if op == "raise":
        return character_raise(**common, talent=need("talent"))
    if op == "lower":
        return character_lower(**common, talent=need("talent"))
    if op == "talent_choice":
        return character_set_talent_choice(**common, group=need("group"), talent=need("talent"))
    if op == "equipment":
        return character_set_equipment(**common, group=need("group"), item=need("item"))
    if op == "gauges":
        return character_set_gauges(
            **common, sante=need("sante"), souffle=need("souffle"), moral=need("moral")
        )
    if op == "rename":
        return character_rename(**common, name=need("name"))
    if op == "rank":
        return character_set_rank(**common, rank=need("rank"))
    raise Refusal(_("Unknown operation."), field="op")


def unit_change(*, actor, unit, op: str, version: int | None, character=None, name: str = ""):
    """Apply one unit operation by name; `character` is one of the actor's characters."""
    common = {"actor": actor, "unit": unit, "version": version}
    if op in ("add", "remove", "avatar") and character is None:
        raise Refusal(_("Choose a character."), field="character")
    if op == "rename":
        return unit_rename(**common, name=name)
    if op == "add":
        return unit_add_character(**common, character=character)
    if op == "remove":
        return unit_remove_character(**common, character=character)
    if op == "avatar":
        return unit_set_avatar(**common, character=character)
    if op == "share":
        return unit_share(**common)
    if op == "unshare":
        return unit_unshare(**common)
    raise Refusal(_("Unknown operation."), field="op")


# A character and a unit are changed, copied and undone alike: the pages and API classes
# that serve both name the operation by kind.
CHANGE = {"character": character_change, "unit": unit_change}
DUPLICATE = {"character": character_duplicate, "unit": unit_duplicate}
