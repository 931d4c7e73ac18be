"""Rosters entered into chapters, whatever the system: the only writer of chapter entries.

A system whose players bring a roster to a chapter (KOLAPS units, Rapid 40000 army lists,
a roleplaying system's character sheets) names it in its declaration
(`campaigns.systems.base.CampaignSystem.entry_kind`, an `EntryKind` of
`campaigns.systems.entry_kinds`): which roster model enters, the entry row that records it,
the derived number that says what it is worth (VU, points), who may enter it, what it checks
on the way in, and the sentences a player reads. Everything else is one
shape: a participant enters one of their own valid rosters into a planned chapter of a
campaign of that system (one per player and chapter) and may withdraw it until the chapter
starts; an organiser may withdraw any. A roster that became a draft after it was entered
holds the chapter's start until it is fixed or withdrawn.

When the chapter starts, each entry is frozen (`chapter_entries_freeze`): the roster's name,
value, catalogue version and figures as they are then, and for KOLAPS who changes sides
under K12. The chapter page, the close and the live table read the frozen entry, so a
roster edited (or settled by another chapter) during play changes the next chapter, not
the one being played.

Same rules as `campaigns.chapters.services`: validate, one transaction, append a
`CampaignEvent`.
"""

from collections.abc import Iterable, Mapping

from django.db import IntegrityError, models, transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import (
    Chapter,
    ChapterStatus,
)
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, campaign_role
from campaigns.services import _record
from campaigns.systems import campaign_system
from campaigns.systems.entry_kinds import (
    ARMY,
    UNIT,
    EntryKind,
)
from characters.kolaps.models import KolapsUnit
from characters.permissions import Forbidden, Refusal, Role
from characters.rapid40k.models import Rapid40kArmy
from rules.engine.systems import SYSTEMS, UnknownSystem

SIDE_MAX = 80


def clean_side(side: str) -> str:
    """The side a roster plays on, spaces collapsed; blank is its own side."""
    side = " ".join(str(side or "").split())
    if len(side) > SIDE_MAX:
        raise Refusal(_("A side's name has at most 80 characters."), field="side")
    return side


def chapter_roles(actor, chapter: Chapter) -> set[Role]:
    """The actor's roles in the chapter's campaign; a campaign they cannot see is a 404."""
    roles = campaign_role(actor, chapter.campaign)
    if not roles & CAN_VIEW:
        raise Http404
    return roles


def require_planned(chapter: Chapter) -> None:
    """Rosters enter and leave a chapter only while it is planned."""
    if chapter.status == ChapterStatus.CLOSED:
        raise Refusal(_("This chapter is closed."), field="chapter")
    if chapter.status != ChapterStatus.PLANNED:
        raise Refusal(_("This chapter has started: its units no longer change."), field="chapter")


def entry_kind_of(system: str) -> EntryKind | None:
    """What the players of `system` enter into its chapters, as its declaration says
    (`CampaignSystem.entry_kind`; None: nothing)."""
    try:
        return campaign_system(system).entry_kind
    except UnknownSystem:
        return None


# The character sheet each roleplaying system's players bring, read from the declarations.
SHEET_KINDS: Mapping[str, EntryKind] = {
    game.slug: kind
    for game in SYSTEMS
    if (kind := entry_kind_of(game.slug)) is not None and kind.sheet_fields
}


def sheet_kind_of(system: str) -> EntryKind:
    """The character sheet the players of `system` enter; a system whose players enter no
    sheet has no such page (404)."""
    kind = entry_kind_of(system)
    if kind is None or not kind.sheet_fields:
        raise Http404
    return kind


# --- Enter, withdraw, ready -------------------------------------------------------------------


def _entries_of(kind: EntryKind, chapter: Chapter) -> models.QuerySet:
    return kind.entry.objects.filter(chapter=chapter)


def chapter_entry_enter(*, actor, chapter: Chapter, kind: EntryKind, roster, side: str = ""):
    """A participant enters one of their own valid rosters into a planned chapter of a
    campaign of the kind's system, on `side` (blank: the roster is its own side)."""
    words, field = kind.words, kind.name
    roles = chapter_roles(actor, chapter)
    if not roles & kind.may_enter:
        raise Forbidden(str(words.not_player))
    if entry_kind_of(chapter.campaign.system) is not kind:
        raise Refusal(str(words.wrong_system), field=field)
    if roster is None or roster.owner_id != actor.pk:
        raise Refusal(str(words.not_own), field=field)
    side = clean_side(side)
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().select_related("campaign").get(pk=chapter.pk)
        require_planned(locked)
        roster = kind.roster.objects.select_for_update().get(pk=roster.pk)
        kind.require_enterable(roster, locked)
        mine = _entries_of(kind, locked).filter(player=actor).select_related(kind.name).first()
        if mine is not None:
            entered = getattr(mine, kind.name)
            if entered.pk == roster.pk:
                raise Refusal(str(words.entered_already), field=field)
            raise Refusal(
                _("You already entered %(name)s into this chapter: withdraw it first.")
                % {"name": entered.name},
                field=field,
            )
        value = getattr(roster, kind.value) if kind.value else 0
        fields = {kind.name: roster, "chapter": locked, "player": actor, "side": side}
        if kind.records_value_on_entry:
            fields[kind.value] = value
        try:
            with transaction.atomic():
                entry = kind.entry.objects.create(**fields)
        except IntegrityError:  # a concurrent entry of the same player won
            raise Refusal(str(words.entered_concurrently), field=field) from None
        _record(
            campaign=locked.campaign,
            actor=actor,
            verb=f"{kind.name}_entered",
            chapter=locked.pk,
            side=side,
            **{kind.name: roster.pk, f"{kind.name}_name": roster.name},
            **({kind.value: value} if kind.value else {}),
        )
    return entry


def chapter_entry_withdraw(*, actor, chapter: Chapter, kind: EntryKind, roster) -> None:
    """Take a roster back out of a planned chapter: its player, or an organiser."""
    roles = chapter_roles(actor, chapter)
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().select_related("campaign").get(pk=chapter.pk)
        entry = (
            _entries_of(kind, locked)
            .filter(**{kind.name: roster})
            .select_related(kind.name)
            .first()
        )
        if entry is None:
            raise Refusal(str(kind.words.not_entered), field=kind.name)
        if entry.player_id != actor.pk and not roles & CAN_MANAGE:
            raise Forbidden(str(kind.words.withdraw_forbidden))
        require_planned(locked)
        entry.delete()
        _record(
            campaign=locked.campaign,
            actor=actor,
            verb=f"{kind.name}_withdrawn",
            chapter=locked.pk,
            **{kind.name: roster.pk, f"{kind.name}_name": getattr(entry, kind.name).name},
        )


def chapter_unit_enter(*, actor, chapter: Chapter, unit: KolapsUnit | None, side: str = ""):
    """A KOLAPS unit enters a chapter (`chapter_entry_enter` with `UNIT`)."""
    return chapter_entry_enter(actor=actor, chapter=chapter, kind=UNIT, roster=unit, side=side)


def chapter_unit_withdraw(*, actor, chapter: Chapter, unit: KolapsUnit) -> None:
    chapter_entry_withdraw(actor=actor, chapter=chapter, kind=UNIT, roster=unit)


def chapter_army_enter(*, actor, chapter: Chapter, army: Rapid40kArmy | None, side: str = ""):
    """A Rapid 40000 army list enters a chapter (`chapter_entry_enter` with `ARMY`)."""
    return chapter_entry_enter(actor=actor, chapter=chapter, kind=ARMY, roster=army, side=side)


def chapter_army_withdraw(*, actor, chapter: Chapter, army: Rapid40kArmy) -> None:
    chapter_entry_withdraw(actor=actor, chapter=chapter, kind=ARMY, roster=army)


def require_entries_ready(chapter: Chapter) -> None:
    """Before a chapter starts: something was entered (the close of a system whose players
    enter rosters lists only those), and every roster entered is still valid (its owner may
    have edited it into a draft since it was entered)."""
    kind = entry_kind_of(chapter.campaign.system)
    if kind is None:
        return
    if not _entries_of(kind, chapter).exists():
        raise Refusal(str(kind.words.none_entered), field="chapter")
    if not kind.has_drafts:
        return
    drafts = list(
        _entries_of(kind, chapter)
        .exclude(**{f"{kind.name}__status": "valid"})
        .values_list(f"{kind.name}__name", flat=True)
    )
    if drafts:
        raise Refusal(
            _(
                "%(names)s became a draft since it was entered: its player fixes it or "
                "withdraws it before the chapter starts."
            )
            % {"names": ", ".join(drafts)},
            field="chapter",
        )


# --- The freeze at the start ------------------------------------------------------------------


def _members(kind: EntryKind, roster_ids: Iterable[int]) -> dict[int, list[dict]]:
    members: dict[int, list[dict]] = {pk: [] for pk in roster_ids}
    if kind.member_model is None:
        return members
    rows = (
        kind.member_model.objects.filter(**{f"{kind.member_of}__in": list(members)})
        .order_by(kind.member_of, "position", "pk")
        .values(kind.member_of, *kind.member_fields)
    )
    for row in rows:
        members[row.pop(kind.member_of)].append(row)
    return members


def chapter_entries_freeze(chapter: Chapter) -> None:
    """The rosters entered, as they are when the chapter starts: name, value, catalogue
    version and figures, written into each entry (`frozen`). Called by `chapter_start`
    inside its transaction (`chapter` locked); the rosters are locked so that an edit
    waits for the freeze. Four queries whatever the number of entries."""
    kind = entry_kind_of(chapter.campaign.system)
    if kind is None:
        return
    entries = list(_entries_of(kind, chapter).order_by("entered_at", "pk"))
    rosters = {
        roster.pk: roster
        for roster in kind.roster.objects.select_for_update().filter(
            pk__in=[getattr(entry, f"{kind.name}_id") for entry in entries]
        )
    }
    members = _members(kind, rosters)
    at = timezone.now().isoformat()
    for entry in entries:
        roster = rosters[getattr(entry, f"{kind.name}_id")]
        entry.frozen = {
            "name": roster.name,
            "value": getattr(roster, kind.value) if kind.value else 0,
            "value_unit": kind.value_unit,
            "catalogue_version": roster.catalogue_version,
            "members": members[roster.pk],
            "frozen_at": at,
        }
        if kind.sheet_fields:
            entry.frozen["sheet"] = {f: getattr(roster, f) for f in kind.sheet_fields}
    if kind.sides_rule is not None:
        kind.sides_rule(entries)
    kind.entry.objects.bulk_update(entries, ["frozen"])
