"""Load what the chapter, vote and upcoming pages show, in a fixed number of queries.

The chapter page's reads that every system makes (its members, vocations, outcomes, unit
results, open votes) are compiled once per process (`characters.compiled.CompiledRead`): on
the chapter page of tests/benchmarks/test_browsing_pages_bench.py (2026-11-28) the page's
reads written as plain querysets took it from 6.1 to 14.6 ms of CPU. The rest (the rosters
entered, a player's own) are plain querysets: no benchmark names them."""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.utils.translation import gettext

from campaigns.chapters.eligibility import Check, PlayerFacts, eligibility
from campaigns.chapters.entries import entry_kind_of
from campaigns.chapters.services import requirement_of
from campaigns.chapters.sheets import SheetChoice, SheetEntryLine, my_sheets, sheet_entries
from campaigns.models import (
    Chapter,
    ChapterArmyEntry,
    ChapterOutcome,
    ChapterStatus,
    ChapterUnitEntry,
    ChapterUnitResult,
    VocationAssignment,
    Vote,
    VoteKind,
    VoteStatus,
)
from campaigns.permissions import CAN_MANAGE, Member, campaign_role, member_role, members_of
from campaigns.systems import campaign_system
from campaigns.systems.base import CloseEntry
from campaigns.systems.entry_kinds import ARMY, UNIT
from campaigns.systems.k12 import EnteredUnit, K12Line, k12_balance
from characters.compiled import CompiledRead
from characters.kolaps import services as kolaps_services
from characters.kolaps import text as kolaps_text
from characters.kolaps.models import KolapsCharacter, KolapsUnit
from characters.models import Profile, ProfileStatus, Vocation
from characters.permissions import Role
from characters.profiles.cards import ProfileCard, profile_card_of, trauma_lines
from characters.rapid40k.models import Rapid40kArmy
from rules.engine.systems import system_get
from rules.engine.systems.seam import Close, Kind, Per, Words


@dataclass(frozen=True)
class PlayerLine:
    id: int
    name: str
    username: str
    vocation: str  # "" when none
    vocation_label: str
    eligible: bool | None  # None: not shown to this viewer
    checks: list[Check]


@dataclass(frozen=True)
class RecordedLevel:
    """One number a character sheet's close recorded (its levels at the end, its XP), under
    the close's own words (`rules.engine.systems.<system>.campaign`)."""

    name: str
    label: str
    value: int


@dataclass(frozen=True)
class OutcomeLine:
    player: str
    side: str
    result: str
    died: bool
    kills: dict[str, int]
    notes: str
    # A roleplaying system's close: the character sheet's name as recorded, and its numbers.
    sheet: str = ""
    levels: list[RecordedLevel] = field(default_factory=list)


@dataclass(frozen=True)
class LossLine:
    id: int | None  # the character's id at the close (null: recorded before ids were kept)
    name: str


@dataclass(frozen=True)
class UnitLine:
    """A unit's line of the close record."""

    unit_id: int | None  # null once the unit itself is gone; the name stays
    unit_name: str
    vu: int | None
    player: str
    side: str
    result: str
    losses: list[LossLine]
    notes: str


@dataclass(frozen=True)
class MemberLine:
    id: int
    name: str
    rank: str
    is_avatar: bool
    changes_side_to: str = ""  # K12, frozen at the start: the side this character plays for


@dataclass(frozen=True)
class EntryLine:
    """A KOLAPS unit entered into the chapter: as it is now while the chapter is planned,
    as it was frozen when it started (`frozen`) afterwards."""

    unit_id: int
    unit_name: str
    player_id: int
    player: str
    side: str
    vu: int
    valid: bool
    mine: bool
    members: list[MemberLine]
    frozen: bool = False


@dataclass(frozen=True)
class UnitChoice:
    """One of the viewer's units, for the form that enters a unit."""

    id: int
    name: str
    vu: int
    valid: bool


@dataclass(frozen=True)
class ArmyEntryLine:
    """A Rapid 40000 army list entered into the chapter: as it is now while the chapter is
    planned, as it was frozen when it started (`frozen`) afterwards."""

    army_id: int
    army_name: str
    player: str
    side: str
    points: int
    valid: bool
    mine: bool
    frozen: bool = False


@dataclass(frozen=True)
class ArmyChoice:
    """One of the viewer's army lists, for the form that enters one."""

    id: int
    name: str
    points: int
    valid: bool


@dataclass(frozen=True)
class ChapterCard:
    id: int
    campaign_id: int
    campaign_name: str
    system: str
    number: int
    title: str
    scenario: str
    players_min: int | None
    players_max: int | None
    min_survival_points: int
    required_cards: list[str]
    required_items: list[str]
    objectives: str
    weather: str
    time_of_day: str
    announced_events: list[str]
    starts_at: datetime | None
    duration_minutes: int
    place: str
    status: str
    epilogue: str
    notable_events: list[str]
    closed_at: datetime | None
    settled_at: datetime | None
    players: list[PlayerLine]
    outcomes: list[OutcomeLine]
    unit_results: list[UnitLine]
    open_vocation_votes: list[int]
    can_manage: bool
    is_player: bool
    my_vocation: str
    taken_vocations: list[str]
    uses_units: bool = False  # a KOLAPS campaign: units enter its chapters
    plays_at_table: bool = False  # its system has a live encounter (GameSystem.plays_at_table)
    units: list[EntryLine] = field(default_factory=list)
    k12: K12Line | None = None
    my_units: list[UnitChoice] = field(default_factory=list)
    uses_armies: bool = False  # a Rapid 40000 campaign: army lists enter its chapters
    armies: list[ArmyEntryLine] = field(default_factory=list)
    my_armies: list[ArmyChoice] = field(default_factory=list)
    # What its players enter (`campaigns.systems.entry_kinds.EntryKind.name`): "unit", "army";
    # "" when nothing.
    entry_kind: str = ""
    # Its players bring their Of the Dead profile: vocations, survival points, cards.
    uses_profiles: bool = False
    # A roleplaying campaign: character sheets enter its chapters (`chapters.sheets`).
    uses_sheets: bool = False
    sheets: list[SheetEntryLine] = field(default_factory=list)
    my_sheets: list[SheetChoice] = field(default_factory=list)

    def can_enter_kind(self, kind) -> bool:
        """The viewer may enter a roster of `kind` now."""
        return (
            kind.name == self.entry_kind and self.is_player and self.status == ChapterStatus.PLANNED
        )

    @property
    def sheets_open(self) -> bool:
        """Characters enter and leave while the chapter is planned."""
        return self.uses_sheets and self.status == ChapterStatus.PLANNED

    @property
    def armies_open(self) -> bool:
        """Army lists enter and leave while the chapter is planned."""
        return self.uses_armies and self.status == ChapterStatus.PLANNED

    @property
    def can_enter_army(self) -> bool:
        return self.armies_open and self.is_player

    # The live encounter's record (`chapter_table_record`): its id, then what happened.
    table_record: dict = field(default_factory=dict)

    @property
    def units_open(self) -> bool:
        """Units enter and leave while the chapter is planned."""
        return self.uses_units and self.status == ChapterStatus.PLANNED

    @property
    def can_enter(self) -> bool:
        return self.units_open and self.is_player

    @property
    def awaiting_settlement(self) -> bool:
        return self.status == ChapterStatus.CLOSED and self.settled_at is None

    @property
    def is_closed(self) -> bool:
        return self.status == ChapterStatus.CLOSED


# What eligibility reads of each player's profile (`_facts`), with the members.
PLAYER_FACTS = (
    "player__otd_profile__id",
    "player__otd_profile__survival_points",
    "player__otd_profile__cards",
    "player__otd_profile__equipment",
    "player__otd_profile__status",
)


def _facts(row) -> PlayerFacts:
    """`row`: a member's `PLAYER_FACTS` by name (`Member.extra`)."""
    if row["player__otd_profile__id"] is None:
        return PlayerFacts(has_profile=False)
    return PlayerFacts(
        has_profile=True,
        survival_points=row["player__otd_profile__survival_points"],
        cards=tuple(row["player__otd_profile__cards"] or ()),
        equipment=tuple(row["player__otd_profile__equipment"] or ()),
        is_dead=row["player__otd_profile__status"] == ProfileStatus.DEAD,
    )


def _entries(chapter, viewer_id) -> tuple[list[EntryLine], K12Line | None]:
    """The entries with their units and players, and (while the chapter is planned) every
    character of the entered units, in two queries whatever the number of units; K12 from
    the same rows, costed in `rules/`. A started chapter reads its frozen entries: one."""
    lines, units = _entry_lines(chapter, viewer_id)
    return lines, k12_balance(units)


def _entry_lines(chapter, viewer_id) -> tuple[list[EntryLine], list[EnteredUnit]]:
    """The queries of `_entries`: the lines, and each unit as K12 reads it."""
    entries = list(
        ChapterUnitEntry.objects.filter(chapter=chapter)
        .select_related("unit", "player")
        .order_by("entered_at", "pk")
    )
    live: dict[int, list[dict]] = defaultdict(list)
    if any(not entry.frozen for entry in entries):
        characters = KolapsCharacter.objects.filter(unit__chapter_entries__chapter=chapter)
        for member in characters.order_by("unit_id", "position", "pk"):
            live[member.unit_id].append({f: getattr(member, f) for f in UNIT.member_fields})
    cat = kolaps_services.catalogue()
    lines, units = [], []
    for entry in entries:
        frozen, unit = entry.frozen, entry.unit
        name, vu, version = unit.name, unit.vu, unit.catalogue_version
        if frozen:
            name, vu, version = frozen["name"], frozen["value"], frozen["catalogue_version"]
        members = frozen["members"] if frozen else live[unit.pk]
        lines.append(
            EntryLine(
                unit_id=unit.pk,
                unit_name=name,
                player_id=entry.player_id,
                player=entry.player.public_name,
                side=entry.side,
                vu=vu,
                valid=bool(frozen) or unit.status == KolapsUnit.Status.VALID,
                mine=entry.player_id == viewer_id,
                members=[
                    MemberLine(
                        m["id"],
                        m["name"],
                        kolaps_text.rank_label(cat, m["rank"]),
                        m["is_avatar"],
                        m.get("changes_side_to", ""),
                    )
                    for m in members
                ],
                frozen=bool(frozen),
            )
        )
        units.append(EnteredUnit(unit.pk, name, entry.side, version, members))
    return lines, units


def _army_entries(chapter, viewer_id) -> list[ArmyEntryLine]:
    """One query whatever the number of armies: the entries with their lists and players
    (as frozen at the start once the chapter is played)."""
    entries = (
        ChapterArmyEntry.objects.filter(chapter=chapter)
        .select_related("army", "player")
        .order_by("entered_at", "pk")
    )
    return [
        ArmyEntryLine(
            entry.army_id,
            entry.frozen["name"] if entry.frozen else entry.army.name,
            entry.player.public_name,
            entry.side,
            entry.frozen["value"] if entry.frozen else entry.army.points,
            bool(entry.frozen) or entry.army.status == Rapid40kArmy.Status.VALID,
            entry.player_id == viewer_id,
            frozen=bool(entry.frozen),
        )
        for entry in entries
    ]


def _my_rosters(kind, user, choice: type) -> list:
    """One query: the viewer's rosters of `kind` (units, army lists), valid ones first, as
    `choice` lines for the form that enters one."""
    rosters = kind.roster.objects.filter(owner=user).order_by("-status", "name", "pk")
    return [
        choice(roster.pk, roster.name, getattr(roster, kind.value), roster.status == "valid")
        for roster in rosters
    ]


_VOCATIONS = CompiledRead(
    lambda chapter: (
        VocationAssignment.objects.filter(chapter_id=chapter)
        .order_by("assigned_at", "pk")  # the model's order within one chapter, without joins
        .values_list("player_id", "vocation")
    )
)
_OUTCOMES = CompiledRead(
    lambda chapter: (
        ChapterOutcome.objects.filter(chapter_id=chapter)
        .order_by("pk")
        .values_list(
            "player__display_name",
            "player__username",
            "side",
            "result",
            "died",
            "kills",
            "notes",
            "record",
        )
    )
)
_UNIT_RESULTS = CompiledRead(
    lambda chapter: (
        ChapterUnitResult.objects.filter(chapter_id=chapter)
        .order_by("pk")
        .values_list(
            "unit_id",
            "unit_name",
            "vu",
            "player__display_name",
            "player__username",
            "side",
            "result",
            "losses",
            "notes",
        )
    )
)
_OPEN_VOCATION_VOTES = CompiledRead(
    lambda chapter: Vote.objects.filter(
        chapter_id=chapter, kind=VoteKind.VOCATIONS, status=VoteStatus.OPEN
    ).values_list("pk")
)


def chapter_card(user, chapter: Chapter) -> ChapterCard:
    """What `user` sees of a chapter they may see (`chapter_get_for_user`), in five queries
    whatever the number of players: the memberships with the players' profiles (none for
    the row `chapter_close` returns: it read them), the vocations, the outcomes, the unit
    results, the open vocation votes. A KOLAPS chapter planned adds two whatever the number
    of units (the entries, their characters), and one for a player's own units; started,
    one (the frozen entries). A Rapid 40000 chapter not closed adds one (the entries), and
    one for a player's own lists while it is planned."""
    campaign = chapter.campaign
    # Eligibility is shown until the chapter closes: the profiles' facts only until then.
    # The row `chapter_close` returns keeps the members it read under its lock.
    closed = chapter.status == ChapterStatus.CLOSED
    members = getattr(chapter, "members_read", None) if closed else None
    if members is None:
        members = members_of(campaign, *(() if closed else PLAYER_FACTS))
    players = members.players
    roles = campaign_role(user, campaign, members=members)
    can_manage = bool(roles & CAN_MANAGE)
    vocations = dict(_VOCATIONS.rows(chapter.pk))
    uses_profiles = system_get(campaign.system).uses_profiles
    requirement = requirement_of(chapter)
    lines = []
    for member in players:
        player_id = member.id
        shown = not closed and (can_manage or player_id == getattr(user, "pk", None))
        verdict = (
            eligibility(
                requirement, _facts(member.extra), players=len(players), uses_profiles=uses_profiles
            )
            if shown
            else None
        )
        vocation = vocations.get(player_id, "")
        lines.append(
            PlayerLine(
                id=player_id,
                name=member.name,
                username=member.username,
                vocation=vocation,
                vocation_label=Vocation(vocation).label if vocation else "",
                eligible=verdict.eligible if verdict else None,
                checks=verdict.checks if verdict else [],
            )
        )
    recorded = [
        (f.name, gettext(f.label))
        for f in system_get(campaign.system).close.asked(Per.ENTRY)
        if f.kind is Kind.COUNT
    ]
    outcomes = [
        OutcomeLine(
            player=display or username,
            side=side,
            result=result,
            died=died,
            kills=kills,
            notes=notes,
            **_sheet_record(record, recorded),
        )
        for display, username, side, result, died, kills, notes, record in _OUTCOMES.rows(
            chapter.pk
        )
    ]
    units = [
        UnitLine(
            unit_id=unit_id,
            unit_name=name,
            vu=vu,
            player=display or username or "",
            side=side,
            result=result,
            losses=[LossLine(loss.get("id"), loss.get("name", "")) for loss in losses],
            notes=notes,
        )
        for unit_id, name, vu, display, username, side, result, losses, notes in (
            _UNIT_RESULTS.rows(chapter.pk)
        )
    ]
    open_votes = [pk for (pk,) in _OPEN_VOCATION_VOTES.rows(chapter.pk)]
    entry_kind = entry_kind_of(campaign.system)
    uses_units = entry_kind is UNIT
    entries, k12, my_units = [], None, []
    if uses_units and not closed:  # closed: the record shows
        entries, k12 = _entries(chapter, getattr(user, "pk", None))
        if Role.PARTICIPANT in roles and chapter.status == ChapterStatus.PLANNED:
            my_units = _my_rosters(UNIT, user, UnitChoice)
    uses_armies = entry_kind is ARMY
    armies, my_armies = [], []
    if uses_armies and not closed:
        armies = _army_entries(chapter, getattr(user, "pk", None))
        if Role.PARTICIPANT in roles and chapter.status == ChapterStatus.PLANNED:
            my_armies = _my_rosters(ARMY, user, ArmyChoice)
    uses_sheets = entry_kind is not None and bool(entry_kind.sheet_fields)
    sheets, mine = [], []
    if uses_sheets and not closed:
        sheets = sheet_entries(entry_kind, chapter.pk, getattr(user, "pk", None))
        if Role.PARTICIPANT in roles and chapter.status == ChapterStatus.PLANNED:
            mine = my_sheets(entry_kind, user)
    return ChapterCard(
        id=chapter.pk,
        campaign_id=campaign.pk,
        campaign_name=campaign.name,
        system=campaign.system,
        number=chapter.number,
        title=chapter.title,
        scenario=chapter.scenario,
        players_min=chapter.players_min,
        players_max=chapter.players_max,
        min_survival_points=chapter.min_survival_points,
        required_cards=list(chapter.required_cards),
        required_items=list(chapter.required_items),
        objectives=chapter.objectives,
        weather=chapter.weather,
        time_of_day=chapter.time_of_day,
        announced_events=list(chapter.announced_events),
        starts_at=chapter.starts_at,
        duration_minutes=chapter.duration_minutes,
        place=chapter.place,
        status=chapter.status,
        epilogue=chapter.epilogue,
        notable_events=list(chapter.notable_events),
        closed_at=chapter.closed_at,
        settled_at=chapter.settled_at,
        players=lines,
        outcomes=outcomes,
        unit_results=units,
        open_vocation_votes=open_votes,
        can_manage=can_manage,
        is_player=Role.PARTICIPANT in roles,
        my_vocation=vocations.get(getattr(user, "pk", None), ""),
        taken_vocations=sorted(set(vocations.values())),
        uses_units=uses_units,
        plays_at_table=system_get(campaign.system).plays_at_table,
        units=entries,
        k12=k12,
        my_units=my_units,
        uses_armies=uses_armies,
        armies=armies,
        my_armies=my_armies,
        entry_kind=entry_kind.name if entry_kind else "",
        uses_profiles=uses_profiles,
        uses_sheets=uses_sheets,
        sheets=sheets,
        my_sheets=mine,
        table_record=dict(chapter.table_record or {}),
    )


@dataclass(frozen=True)
class CloseCard:
    """What the organiser's close form shows of a chapter: what its system's close asks
    (`close`, `rules.engine.systems.seam.Close`), the players whose outcome it records
    (a system whose players bring themselves) or the rosters entered (KOLAPS units, Rapid
    40000 armies, `entries`), and what a live encounter told the chapter
    (`table_close_initial`). Neither eligibility, vocations, votes nor K12: the form shows
    none of them."""

    id: int
    number: int
    title: str
    status: str
    can_manage: bool
    system: str
    close: Close
    words: Words
    entry_prefix: str
    players: list[Member]  # empty for a system of rosters, or when not shown
    entries: list[CloseEntry]
    table_record: dict

    @property
    def is_closed(self) -> bool:
        return self.status == ChapterStatus.CLOSED


def _table_record(chapter: Chapter) -> dict:
    """What the live table told the chapter: its encounter while it is played, what it
    played once it has ended (`rules.table` writes it through `chapter_table_record`; this
    app sits below the table and never reads it)."""
    return dict(chapter.table_record or {})


def close_card(user, chapter: Chapter) -> CloseCard:
    """For the close form of a chapter read by `chapter_get_for_user` (with the viewer's
    membership): one query, the members (a system of rosters: two, the rosters entered and
    their members);
    none when the viewer may not close it or it is closed already (the page refuses or sends
    them to the chapter)."""
    campaign = chapter.campaign
    can_manage = bool(member_role(user, campaign, chapter.viewer_membership) & CAN_MANAGE)
    system = campaign_system(campaign.system)
    shown = can_manage and chapter.status != ChapterStatus.CLOSED
    players: list[Member] = []
    entries: list[CloseEntry] = []
    if shown and system.game.close.per is Per.ENTRY:
        entries = system.close_entries(chapter)
    elif shown:
        players = members_of(campaign).players
    return CloseCard(
        id=chapter.pk,
        number=chapter.number,
        title=chapter.title,
        status=chapter.status,
        can_manage=can_manage,
        system=system.slug,
        close=system.game.close,
        words=system.game.words,
        entry_prefix=system.entry_prefix,
        players=players,
        entries=entries,
        table_record=_table_record(chapter) if shown else {},
    )


def _sheet_record(record: dict, recorded: list[tuple[str, str]]) -> dict:
    """What a character sheet's close recorded (`campaigns.systems.sheets`: its `sheet` and
    the close's answers), for the chapter's record; nothing for another system's record."""
    if not isinstance(record, dict) or "sheet" not in record:
        return {}
    return {
        "sheet": str(record.get("entry", "")),
        "levels": [
            RecordedLevel(name, label, record[name])
            for name, label in recorded
            if isinstance(record.get(name), int)
        ],
    }


# --- Upcoming chapters ------------------------------------------------------------------------


@dataclass(frozen=True)
class ChapterHead:
    """A chapter as a list names it (the upcoming chapters, the dashboard's next one)."""

    id: int
    campaign_id: int
    campaign_name: str
    number: int
    title: str
    status: str
    starts_at: datetime | None


@dataclass(frozen=True)
class UpcomingLine(ChapterHead):
    duration_minutes: int
    place: str
    objectives: str
    weather: str
    time_of_day: str


def upcoming_for(user) -> list[UpcomingLine]:
    """One query: the chapters not yet closed of the viewer's campaigns, dated ones first."""
    rows = (
        Chapter.objects.upcoming_for(user)
        .select_related("campaign")
        .order_by("starts_at", "campaign_id", "number")
    )
    return [
        UpcomingLine(
            id=row.pk,
            campaign_id=row.campaign_id,
            campaign_name=row.campaign.name,
            number=row.number,
            title=row.title,
            status=row.status,
            starts_at=row.starts_at,
            duration_minutes=row.duration_minutes,
            place=row.place,
            objectives=row.objectives,
            weather=row.weather,
            time_of_day=row.time_of_day,
        )
        for row in rows
    ]


# --- The sheet to print again for the next chapter -------------------------------------------


@dataclass(frozen=True)
class SheetCard:
    profile: ProfileCard
    next_chapter: UpcomingLine | None
    next_vocation: str


def sheet_card(user) -> SheetCard | None:
    """The paper sheet to print again: the profile, its active traumas, equipment and the
    next chapter's starting conditions (rule text: "refaire une nouvelle fiche et
    d'annoncer ses conditions de départ (équipement, trauma…)")."""
    profile = Profile.objects.filter(player=user).first()
    if profile is None:
        return None
    card = profile_card_of(profile, user, traumas=trauma_lines(profile), is_owner=True)
    upcoming = upcoming_for(user)
    next_chapter = upcoming[0] if upcoming else None
    vocation = ""
    if next_chapter is not None:
        vocation = (
            VocationAssignment.objects.filter(chapter_id=next_chapter.id, player=user)
            .values_list("vocation", flat=True)
            .first()
            or ""
        )
    return SheetCard(
        profile=card,
        next_chapter=next_chapter,
        next_vocation=Vocation(vocation).label if vocation else "",
    )
