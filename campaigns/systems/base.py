"""The shapes of the campaign app's half of the seam (`campaigns.systems`): the hooks a
system may give (`CampaignSystem`, with defaults for a system whose players bring nothing but
themselves) and the plain data they exchange with the close and the settlement."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.db import models

from campaigns.models import Chapter, ChapterOutcome
from campaigns.systems.entry_kinds import EntryKind
from characters.permissions import Refusal
from rules.engine.systems import GameSystem
from rules.engine.systems.seam import Member, Record


@dataclass(frozen=True)
class CloseMember:
    """One member of a roster entered, as the close form lists it: a character, a squad."""

    id: int
    name: str
    figures: int = 1
    avatar: bool = False


@dataclass(frozen=True)
class CloseEntry:
    """A roster entered into the chapter, as the close form lists it."""

    id: int
    name: str
    player_id: int
    player: str
    side: str
    value: int
    members: list[CloseMember]
    # The first answers of its fields (a sheet's levels as it entered the chapter).
    initial: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class EntryResultInput:
    """What happened to one roster entered: its result, its side, and its members' fates
    (ids of the members dead, wounded, who changed sides; figures lost per member)."""

    entry_id: int
    result: str
    lost_ids: Sequence[int] = ()
    side: str = ""
    notes: str = ""
    wounded_ids: Sequence[int] = ()
    changed_side_ids: Sequence[int] = ()
    figures_lost: dict[int, int] = field(default_factory=dict)
    # The entry's own answers by declared field (a character's levels at the end, its XP).
    answers: dict[str, int] = field(default_factory=dict)

    @property
    def unit_id(self) -> int:
        return self.entry_id


@dataclass(frozen=True)
class UnitDeparture:
    """KOLAPS: a character lost in a chapter leaves its unit (kept in the unit's history)."""

    unit_id: int | None
    unit_name: str
    player_id: int | None
    character: str
    character_id: int | None = None


@dataclass(frozen=True)
class RowWords:
    """The sentences refusing a close's row of a roster (translated when raised), and the
    field they are shown on."""

    field: str
    not_entered: str
    twice: str
    result: str


def entered_rows(results: Sequence[EntryResultInput], entries: dict, allowed, words: RowWords):
    """Each row of a close with the roster entered it names, checked: only the rosters
    entered (`entries` by id), each once, a result among `allowed`."""
    seen: set[int] = set()
    for row in results:
        entry = entries.get(row.entry_id) if isinstance(row.entry_id, int) else None
        if entry is None:
            raise Refusal(str(words.not_entered), field=words.field)
        if row.entry_id in seen:
            raise Refusal(str(words.twice), field=words.field)
        seen.add(row.entry_id)
        if row.result not in allowed:
            raise Refusal(str(words.result), field=words.field)
        yield row, entry


def entry_outcome(chapter: Chapter, row: EntryResultInput, entry, record: dict) -> ChapterOutcome:
    """The outcome a close writes for the player of a roster entered: the row's result,
    its side (else the side it entered on), its notes, and the system's `record`."""
    return ChapterOutcome(
        chapter=chapter,
        player_id=entry.player_id,
        result=row.result,
        side=" ".join((row.side or entry.side).split())[:80],
        notes=row.notes.strip(),
        record=record,
    )


# The rows a close writes for the rosters entered: one outcome per player, and the system's
# own record rows (KOLAPS unit results).
EntryRows = tuple[list[ChapterOutcome], list[models.Model]]


def _no_entries(chapter: Chapter) -> list[CloseEntry]:
    return []


def _no_rows(chapter: Chapter, results: Sequence[EntryResultInput]) -> EntryRows:
    return [], []


def _no_departures(chapter: Chapter) -> list[UnitDeparture]:
    return []


def _no_depart(chapter: Chapter, departures: Sequence[UnitDeparture]) -> None:
    return None


def _no_restore(chapter: Chapter) -> int:
    return 0


@dataclass(frozen=True)
class CampaignSystem:
    game: GameSystem
    # What its players enter into its chapters (a KOLAPS unit, a character sheet); None:
    # they bring nothing but themselves.
    entry_kind: EntryKind | None = None
    # The close form's prefix of an entry's fields ("u12_result").
    entry_prefix: str = "e"
    close_entries: Callable[[Chapter], list[CloseEntry]] = _no_entries
    entry_rows: Callable[[Chapter, Sequence[EntryResultInput]], EntryRows] = _no_rows
    departures: Callable[[Chapter], list[UnitDeparture]] = _no_departures
    depart: Callable[[Chapter, Sequence[UnitDeparture]], None] = _no_depart
    restore: Callable[[Chapter], int] = _no_restore

    @property
    def slug(self) -> str:
        return self.game.slug


# What `ChapterOutcome.record` holds of a roster entered; the rest are the player's answers.
ENTRY_KEYS = ("entry", "value", "members", "sheet")


def record_of(outcome_player_id: int, result: str, side: str, record: dict) -> Record:
    """The engine's view of a participant's close (`ChapterOutcome.record`)."""
    return Record(
        player_id=outcome_player_id,
        result=result,
        side=side,
        entry=str(record.get("entry", "")),
        members=tuple(
            Member(
                name=str(m.get("name", "")),
                value=int(m.get("value") or 0),
                figures=int(m.get("figures") or 1),
                lost=int(m.get("lost") or 0),
                wounded=bool(m.get("wounded")),
                changed_side=bool(m.get("changed_side")),
                avatar=bool(m.get("avatar")),
            )
            for m in record.get("members", [])
        ),
        counts={
            name: int(value)
            for name, value in record.items()
            if name not in ENTRY_KEYS and isinstance(value, int | bool)
        },
    )
