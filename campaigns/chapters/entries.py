"""Rosters entered into chapters, whatever the system: the only writer of chapter entries.

A system whose players bring a roster of figures to a chapter (KOLAPS units, Rapid 40000
army lists) names it in its declaration (`GameSystem.roster`), and the roster is described
once here as an `EntryKind`: which roster model enters, the entry row
that records it, the derived number that says what it is worth (VU, points), who may enter
it, what it checks on the way in, and the sentences a player reads. Everything else is one
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

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, models, transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.chapters.k12 import EnteredUnit, k12_balance
from campaigns.models import (
    Chapter,
    ChapterArmyEntry,
    ChapterCorporatesEntry,
    ChapterModernEntry,
    ChapterStatus,
    ChapterUnitEntry,
)
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, campaign_role
from campaigns.rules_settings.services import campaign_rules_settings
from campaigns.services import _record
from characters.corporates.models import CorporatesCharacter
from characters.kolaps.models import KolapsCharacter, KolapsUnit
from characters.kolaps.services import unit_require_valid
from characters.modern.models import ModernCharacter
from characters.permissions import Forbidden, Refusal, Role
from characters.rapid40k.models import Rapid40kArmy, Rapid40kSquad
from rules.engine.systems import UnknownSystem, system_get
from rules.engine.systems.seam import Roster

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


# --- The descriptor ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EntryWords:
    """The sentences a player reads about one kind of roster (translated when read)."""

    not_player: str
    wrong_system: str
    not_own: str
    entered_already: str
    entered_concurrently: str
    not_entered: str
    withdraw_forbidden: str


@dataclass(frozen=True)
class EntryKind:
    """What one system's players bring to its chapters.

    `name` is the entry's foreign key to the roster, and the word of its form field, API
    field, URL and history verbs ("unit": `unit_entered`); `entry` the row that records it.
    `value` names the roster's derived number (recomputed by its own service) that the
    chapter shows and freezes (in `value_unit`: "VU", "points"); the freeze keeps the
    figures (`member_fields` of `member_model`, whose foreign key to the roster is
    `member_of`).
    `may_enter` are the campaign roles whose own rosters enter; `require_enterable` refuses
    a roster that cannot enter this chapter (a draft, over the agreed points).
    `sides_rule` marks, in the frozen entries, who changes sides (KOLAPS K12)."""

    name: str
    roster: type[models.Model]
    entry: type[models.Model]
    value: str
    value_unit: str
    member_model: type[models.Model] | None
    member_of: str
    member_fields: tuple[str, ...]
    may_enter: frozenset[Role]
    require_enterable: Callable[[Any, Chapter], None]
    words: EntryWords
    records_value_on_entry: bool = False
    sides_rule: Callable[[list[Any]], None] | None = None
    # A character sheet (no members, never a draft): the fields of the sheet itself the
    # freeze keeps (`frozen["sheet"]`), what the close asks about them starts from.
    sheet_fields: tuple[str, ...] = ()
    has_drafts: bool = True
    # A sheet's page (its URL name) and the two levels a list of sheets shows beside its
    # name (field, word): what the dashboard reads of every system's sheets.
    page: str = ""
    levels: tuple[tuple[str, str], ...] = ()


def _unit_enterable(unit: KolapsUnit, chapter: Chapter) -> None:
    unit_require_valid(unit)


def _army_enterable(army: Rapid40kArmy, chapter: Chapter) -> None:
    if not army.is_valid:
        raise Refusal(
            _("An army list with problems cannot be entered into a chapter: solve them first."),
            field="army",
        )
    agreed = campaign_rules_settings(chapter.campaign).get("army_points", 0)
    if agreed and army.points > agreed:
        raise Refusal(
            _(
                "%(name)s counts %(points)s points; the armies of this campaign count "
                "%(agreed)s at most."
            )
            % {"name": army.name, "points": army.points, "agreed": agreed},
            field="army",
        )


def _k12_sides(entries: list[ChapterUnitEntry]) -> None:
    """K12 at the start: each character who changes sides keeps, in its frozen entry, the
    side it now plays for (`changes_side_to`), which the live table reads."""
    balance = k12_balance([entered_unit(entry) for entry in entries])
    moves = {change.character_id: change.to_side for change in balance.changes} if balance else {}
    for entry in entries:
        for member in entry.frozen["members"]:
            member["changes_side_to"] = moves.get(member["id"], "")


UNIT = EntryKind(
    name="unit",
    roster=KolapsUnit,
    entry=ChapterUnitEntry,
    value="vu",
    value_unit="VU",
    member_model=KolapsCharacter,
    member_of="unit_id",
    member_fields=(
        "id",
        "name",
        "affiliation",
        "archetype",
        "rank",
        "talents",
        "equipment",
        "is_avatar",
        "sante",
        "souffle",
        "moral",
    ),
    may_enter=frozenset({Role.PARTICIPANT}),
    require_enterable=_unit_enterable,
    words=EntryWords(
        not_player=gettext_lazy("Only the campaign's players enter their units into its chapters."),
        wrong_system=gettext_lazy("Units enter chapters of KOLAPS campaigns only."),
        not_own=gettext_lazy("Enter one of your own units."),
        entered_already=gettext_lazy("This unit is already entered into this chapter."),
        entered_concurrently=gettext_lazy(
            "You already entered a unit into this chapter: withdraw it first."
        ),
        not_entered=gettext_lazy("This unit is not entered into this chapter."),
        withdraw_forbidden=gettext_lazy("Only its player or an organiser withdraws a unit."),
    ),
    sides_rule=_k12_sides,
)

ARMY = EntryKind(
    name="army",
    roster=Rapid40kArmy,
    entry=ChapterArmyEntry,
    value="points",
    value_unit="points",
    member_model=Rapid40kSquad,
    member_of="army_id",
    member_fields=("id", "name", "slot", "vehicle", "leader", "fighters", "points"),
    may_enter=frozenset({Role.PARTICIPANT}),
    require_enterable=_army_enterable,
    words=EntryWords(
        not_player=gettext_lazy(
            "Only the campaign's players enter their armies into its chapters."
        ),
        wrong_system=gettext_lazy("Army lists enter chapters of Rapid 40000 campaigns only."),
        not_own=gettext_lazy("Enter one of your own army lists."),
        entered_already=gettext_lazy("This army list is already entered into this chapter."),
        entered_concurrently=gettext_lazy(
            "You already entered an army into this chapter: withdraw it first."
        ),
        not_entered=gettext_lazy("This army is not entered into this chapter."),
        withdraw_forbidden=gettext_lazy("Only its player or an organiser withdraws an army."),
    ),
    records_value_on_entry=True,
)


def _sheet_enterable(sheet, chapter: Chapter) -> None:
    """A sheet always enters: its service never stores one the rules refuse."""


def _sheet_words() -> EntryWords:
    return EntryWords(
        not_player=gettext_lazy(
            "Only the campaign's players enter their characters into its chapters."
        ),
        wrong_system=gettext_lazy("This character belongs to another game system."),
        not_own=gettext_lazy("Enter one of your own characters."),
        entered_already=gettext_lazy("This character is already entered into this chapter."),
        entered_concurrently=gettext_lazy(
            "You already entered a character into this chapter: withdraw it first."
        ),
        not_entered=gettext_lazy("This character is not entered into this chapter."),
        withdraw_forbidden=gettext_lazy("Only its player or an organiser withdraws a character."),
    )


def _sheet_kind(
    roster, entry, sheet_fields: tuple[str, ...], page: str, levels: tuple[tuple[str, str], ...]
) -> EntryKind:
    """A roleplaying system's character sheet as a roster entered: one per player and
    chapter, frozen with its levels (`sheet_fields`) when the chapter starts."""
    return EntryKind(
        name="character",
        roster=roster,
        entry=entry,
        value="",
        value_unit="",
        member_model=None,
        member_of="",
        member_fields=(),
        may_enter=frozenset({Role.PARTICIPANT}),
        require_enterable=_sheet_enterable,
        words=_sheet_words(),
        sheet_fields=sheet_fields,
        has_drafts=False,
        page=page,
        levels=levels,
    )


CORPORATES_SHEET = _sheet_kind(
    CorporatesCharacter,
    ChapterCorporatesEntry,
    ("fatigue", "wounds", "numbers", "weapon"),
    page="corporates-character",
    levels=(("fatigue", gettext_noop("fatigue")), ("wounds", gettext_noop("wounds"))),
)
MODERN_SHEET = _sheet_kind(
    ModernCharacter,
    ChapterModernEntry,
    ("stress", "hp", "hp_max"),
    page="modern-character",
    levels=(("stress", gettext_noop("stress")), ("hp", gettext_noop("hit points"))),
)

# Each kind of roster a system may declare (`rules.engine.systems.GameSystem.roster`).
ENTRY_KINDS: Mapping[str, EntryKind] = {kind.name: kind for kind in (UNIT, ARMY)}
# The character sheet each roleplaying system's players bring (`Roster.SHEET`): one line a
# system with sheets of its own; a system of sheets not listed enters nothing.
SHEET_KINDS: Mapping[str, EntryKind] = {
    "corporates": CORPORATES_SHEET,
    "modern-rpg": MODERN_SHEET,
}


def entry_kind_of(system: str) -> EntryKind | None:
    """What the players of `system` enter into its chapters (None: nothing)."""
    try:
        roster = system_get(system).roster
    except UnknownSystem:
        return None
    if roster is Roster.SHEET:
        return SHEET_KINDS.get(system)
    return ENTRY_KINDS.get(roster)


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
    """Before a chapter starts: every roster entered is still valid (its owner may have
    edited it into a draft since it was entered)."""
    kind = entry_kind_of(chapter.campaign.system)
    if kind is None or not kind.has_drafts:
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


def entered_unit(entry: ChapterUnitEntry) -> EnteredUnit:
    """A frozen KOLAPS entry as K12 reads it."""
    return EnteredUnit(
        unit_id=entry.unit_id,
        name=entry.frozen["name"],
        side=entry.side,
        catalogue_version=entry.frozen["catalogue_version"],
        members=entry.frozen["members"],
    )
