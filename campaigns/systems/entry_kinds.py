"""What each system's players bring to its chapters, as their declarations name it
(`campaigns.systems.base.CampaignSystem.entry_kind`): a KOLAPS unit, a Rapid 40000 army
list, a roleplaying system's character sheet. `campaigns.chapters.entries` enters, withdraws
and freezes them whatever the kind."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from campaigns.models import (
    Chapter,
    ChapterArmyEntry,
    ChapterCorporatesEntry,
    ChapterModernEntry,
    ChapterUnitEntry,
)
from campaigns.rules_settings.services import campaign_rules_settings
from campaigns.systems.k12 import EnteredUnit, k12_balance
from characters.corporates.models import CorporatesCharacter
from characters.kolaps.models import KolapsCharacter, KolapsUnit
from characters.kolaps.services import unit_require_valid
from characters.modern.models import ModernCharacter
from characters.permissions import Refusal, Role
from characters.rapid40k.models import Rapid40kArmy, Rapid40kSquad

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
    # Refusing the start of a chapter nothing was entered into (its close lists only what
    # was entered, so it could never close).
    none_entered: str


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
        none_entered=gettext_lazy("Enter at least one unit before the chapter starts."),
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
        none_entered=gettext_lazy("Enter at least one army list before the chapter starts."),
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
        none_entered=gettext_lazy("Enter at least one character before the chapter starts."),
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


def entered_unit(entry: ChapterUnitEntry) -> EnteredUnit:
    """A frozen KOLAPS entry as K12 reads it."""
    return EnteredUnit(
        unit_id=entry.unit_id,
        name=entry.frozen["name"],
        side=entry.side,
        catalogue_version=entry.frozen["catalogue_version"],
        members=entry.frozen["members"],
    )
