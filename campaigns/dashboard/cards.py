"""What a signed-in player sees first, on one phone screen: their next chapter and whether
they may play it, the votes waiting for their ballot, a death choice to make, their
characters and units, the latest lines of their campaigns' histories and, for organisers,
what is theirs to do (chapters to close, settlements to confirm).

Loaded in a fixed number of queries whatever the number of campaigns (pinned by
tests/campaigns/test_dashboard.py at 3 and 30): the campaigns with the viewer's role, the
chapters it shows (the next one and the organisers' chapters to close or settle, never
every chapter of every campaign), the viewer's profile, the open votes without their ballot,
the latest history lines, the viewer's KOLAPS characters in no unit (those in a unit are
neither read nor costed: the page does not show them), and their KOLAPS units, Rapid 40000
army lists and character sheets of every system that has them (one union, the sheets read
through `campaigns.chapters.entries.SHEET_KINDS`). Each read is written for a viewer's id
alone and compiled once per process (`characters.compiled.CompiledRead`): written as
querysets they took the page from 7.5 to 33 ms of CPU
(tests/benchmarks/test_browsing_pages_bench.py, "dashboard", 2026-11-28).
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from django.db.models import (
    BooleanField,
    CharField,
    Count,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    Q,
    Subquery,
    Value,
)
from django.db.models.functions import Now
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from campaigns.cards import viewer_profile
from campaigns.chapters.cards import ChapterHead
from campaigns.chapters.eligibility import eligibility
from campaigns.chapters.entries import SHEET_KINDS
from campaigns.chapters.services import facts_of, requirement_of
from campaigns.history import event_sentence
from campaigns.models import (
    Ballot,
    Campaign,
    CampaignEvent,
    Chapter,
    ChapterStatus,
    Membership,
    MembershipRole,
    Vote,
    VoteKind,
    VoteStatus,
)
from characters.compiled import CompiledRead
from characters.kolaps.cards import CharacterSummary, ListedCharacter, costed_line
from characters.models import (
    KolapsCharacter,
    KolapsUnit,
    ProfileStatus,
    Rapid40kArmy,
)
from rules.engine.systems import system_get

HISTORY_LINES = 6


@dataclass(frozen=True)
class DashboardChapter(ChapterHead):
    place: str
    eligible: bool | None  # None: the viewer organises it and does not play
    reasons: list[str]


@dataclass(frozen=True)
class DashboardVote:
    id: int
    campaign_name: str
    kind: str
    kind_label: str
    chapter_title: str  # the chapter a vocation vote is for; "" for the next chapter
    opened_at: datetime
    closes_at: datetime | None  # when it closes itself; None: when the organisers close it


@dataclass(frozen=True)
class DashboardHistoryLine:
    campaign_id: int
    campaign_name: str
    at: datetime
    sentence: str


@dataclass(frozen=True)
class DashboardTodo:
    kind: str  # "close": a chapter to close; "settle": a settlement to confirm
    chapter_id: int
    campaign_name: str
    number: int
    title: str


@dataclass(frozen=True)
class DashboardProfile:
    status: str
    status_label: str
    survival_points: int


@dataclass(frozen=True)
class DashboardUnit:
    id: int
    name: str
    vu: int
    valid: bool
    size: int


@dataclass(frozen=True)
class DashboardArmy:
    """A Rapid 40000 army list of the viewer's."""

    id: int
    name: str
    points: int
    valid: bool
    squads: int


@dataclass(frozen=True)
class DashboardLevel:
    label: str
    value: int


@dataclass(frozen=True)
class DashboardSheet:
    """A character sheet of the viewer's, in any system whose players bring sheets
    (`campaigns.chapters.entries.SHEET_KINDS`): its page and the levels it carries."""

    system: str
    system_name: str
    id: int
    name: str
    url: str
    levels: list[DashboardLevel]


@dataclass(frozen=True)
class DashboardCard:
    name: str
    campaigns: int
    next_chapter: DashboardChapter | None
    votes: list[DashboardVote] = field(default_factory=list)
    death_choice: bool = False  # the viewer's Of the Dead character died: a choice waits
    profile: DashboardProfile | None = None
    units: list[DashboardUnit] = field(default_factory=list)
    characters: list[CharacterSummary] = field(default_factory=list)
    armies: list[DashboardArmy] = field(default_factory=list)
    sheets: list[DashboardSheet] = field(default_factory=list)
    history: list[DashboardHistoryLine] = field(default_factory=list)
    todo: list[DashboardTodo] = field(default_factory=list)


def _memberships(viewer, role: str | None = None):
    """The viewer's membership of the campaign `campaign_id` of the outer row (any role,
    or `role`)."""
    mine = Membership.objects.filter(campaign=OuterRef("campaign_id"), player_id=viewer)
    return mine if role is None else mine.filter(role=role)


def _viewers(viewer) -> Q:
    """A row of a campaign the viewer organises or is a member of."""
    return Q(campaign__organiser_id=viewer) | Exists(_memberships(viewer))


@dataclass(frozen=True)
class _Campaign:
    pk: int
    name: str
    system: str
    n_players: int


# The viewer's campaigns, newest first, with their number of players and whether the
# viewer plays in it.
_CAMPAIGNS = CompiledRead(
    lambda viewer: (
        Campaign.objects.filter(
            Q(organiser_id=viewer)
            | Exists(Membership.objects.filter(campaign=OuterRef("pk"), player_id=viewer))
        )
        .annotate(
            n_players=Count(
                "memberships", filter=Q(memberships__role=MembershipRole.PLAYER), distinct=True
            ),
            is_player=Exists(
                Membership.objects.filter(
                    campaign=OuterRef("pk"), player_id=viewer, role=MembershipRole.PLAYER
                )
            ),
        )
        .order_by("-created_at", "-pk")
        .values_list("pk", "name", "system", "n_players", "is_player")
    )
)


def _campaigns(user) -> dict[int, tuple[_Campaign, str]]:
    """One query: the viewer's campaigns with their role ("player", else "organiser": the
    organiser or a co-organiser who does not play) and their number of players."""
    return {
        pk: (_Campaign(pk, name, system, n_players), "player" if is_player else "organiser")
        for pk, name, system, n_players, is_player in _CAMPAIGNS.rows(user.pk)
    }


def _next_chapter(chapters, campaigns, profile) -> DashboardChapter | None:
    """The chapter `_CHAPTERS` marked as the next one, with the viewer's eligibility when
    they play it."""
    chapter = next((c for c in chapters if c.is_next), None)
    if chapter is None:
        return None
    campaign, role = campaigns[chapter.campaign_id]
    verdict = None
    if role == "player":
        uses_profiles = system_get(campaign.system).uses_profiles
        verdict = eligibility(
            requirement_of(chapter),
            facts_of(profile if uses_profiles else None),
            players=campaign.n_players,
            uses_profiles=uses_profiles,
        )
    return DashboardChapter(
        id=chapter.pk,
        campaign_id=campaign.pk,
        campaign_name=campaign.name,
        number=chapter.number,
        title=chapter.title,
        status=chapter.status,
        starts_at=chapter.starts_at,
        place=chapter.place,
        eligible=verdict.eligible if verdict else None,
        reasons=verdict.reasons if verdict else [],
    )


class _ChapterRow(NamedTuple):
    pk: int
    campaign_id: int
    number: int
    title: str
    status: str
    starts_at: datetime | None
    place: str
    players_min: int | None
    players_max: int | None
    min_survival_points: int
    required_cards: list
    required_items: list
    is_next: bool


def _build_chapters(viewer):
    """The chapters the page shows, in their order (dated ones first).

    The next chapter (`is_next`): the first one not closed of the campaigns the viewer plays
    in, when any of them has a chapter not settled; else the first one not closed of those
    they organise. Then, for the campaigns they organise, the chapters to close (being
    played, or their date past) and the closed ones awaiting their settlement.
    """
    not_settled = ~Q(status=ChapterStatus.CLOSED) | Q(settled_at__isnull=True)
    order = (F("starts_at").asc(nulls_last=True), "campaign_id", "number")
    plays = Exists(_memberships(viewer, MembershipRole.PLAYER))
    playing = Chapter.objects.filter(not_settled, plays)
    first = (
        Chapter.objects.filter(_viewers(viewer))
        .exclude(status=ChapterStatus.CLOSED)
        .filter(plays | ~Exists(playing))
        .order_by(*order)
        .values("pk")[:1]
    )
    to_do = ~plays & (
        Q(status__in=[ChapterStatus.CLOSED, ChapterStatus.CURRENT]) | Q(starts_at__lt=Now())
    )
    return (
        Chapter.objects.filter(not_settled, _viewers(viewer))
        .annotate(is_next=ExpressionWrapper(Q(pk=Subquery(first)), output_field=BooleanField()))
        .filter(Q(is_next=True) | to_do)
        .order_by(*order)
        .values_list(*_ChapterRow._fields)
    )


_CHAPTERS = CompiledRead(_build_chapters)


_VOTES = CompiledRead(
    lambda viewer: (
        Vote.objects.filter(
            Exists(_memberships(viewer, MembershipRole.PLAYER)), status=VoteStatus.OPEN
        )
        .exclude(Exists(Ballot.objects.filter(vote=OuterRef("pk"), voter_id=viewer)))
        .order_by("opened_at", "pk")
        .values("pk", "campaign__name", "kind", "chapter__title", "opened_at", "closes_at")
    )
)
_EVENTS = CompiledRead(
    lambda viewer: (
        CampaignEvent.objects.filter(_viewers(viewer))
        .order_by("-at", "-pk")
        .values_list(
            "campaign_id",
            "campaign__name",
            "at",
            "actor__display_name",
            "actor__username",
            "verb",
            "data",
        )[:HISTORY_LINES]
    )
)
_LOOSE_CHARACTERS = CompiledRead(
    lambda viewer: (
        KolapsCharacter.objects.filter(owner_id=viewer, unit__isnull=True)
        .order_by("name", "pk")
        .values_list(*ListedCharacter._fields)
    )
)


# The tags of the rosters' union that are not a system's sheets (no system is named so).
_UNIT, _ARMY = "unit", "army"


def _tagged(queryset, tag: str, status, first: str, second: str):
    """A part of the rosters' union: its tag, the id, the name, a status (blank for a sheet)
    and two figures."""
    return queryset.order_by().values_list(
        Value(tag, output_field=CharField()), "pk", "name", status, first, second
    )


def _rosters_read(viewer):
    """Every roster of the viewer's but the loose KOLAPS characters, as one union: their
    KOLAPS units (VU, members), Rapid 40000 army lists (points, squads) and character sheets
    of every system that has them (the two levels their kind shows)."""
    reads = [
        _tagged(
            KolapsUnit.objects.filter(owner_id=viewer).annotate(size=Count("members")),
            _UNIT,
            "status",
            "vu",
            "size",
        ),
        _tagged(
            Rapid40kArmy.objects.filter(owner_id=viewer).annotate(size=Count("squads")),
            _ARMY,
            "status",
            "points",
            "size",
        ),
    ]
    for system, kind in SHEET_KINDS.items():
        (first, _word), (second, _word) = kind.levels
        reads.append(
            _tagged(
                kind.roster.objects.filter(owner_id=viewer),
                system,
                Value("", output_field=CharField()),
                first,
                second,
            )
        )
    return reads[0].union(*reads[1:], all=True).order_by("name", "pk")


# One query for three: the units, the army lists and the sheets read apart made the page
# 10 queries (its API 9), and the union 8 (7).
_ROSTERS = CompiledRead(_rosters_read)


def _rosters(
    user,
) -> tuple[list[DashboardUnit], list[DashboardArmy], list[DashboardSheet]]:
    """One query: the viewer's KOLAPS units, Rapid 40000 army lists and character sheets of
    every system, each in the order of their names."""
    units, armies, sheets = [], [], []
    for tag, pk, name, status, first, second in _ROSTERS.rows(user.pk):
        if tag == _UNIT:
            units.append(DashboardUnit(pk, name, first, status == KolapsUnit.Status.VALID, second))
        elif tag == _ARMY:
            valid = status == Rapid40kArmy.Status.VALID
            armies.append(DashboardArmy(pk, name, first, valid, second))
        else:
            kind = SHEET_KINDS[tag]
            sheets.append(
                DashboardSheet(
                    system=tag,
                    system_name=gettext(system_get(tag).name),
                    id=pk,
                    name=name,
                    url=reverse(kind.page, args=[pk]),
                    levels=[
                        DashboardLevel(gettext(word), value)
                        for (_name, word), value in zip(kind.levels, (first, second), strict=True)
                    ],
                )
            )
    return units, armies, sheets


def _loose_characters(user) -> list[CharacterSummary]:
    """One query: the viewer's KOLAPS characters in no unit, costed as their own page costs
    them (`characters.kolaps.cards.costed_line`)."""
    return [
        CharacterSummary(c.pk, c.name, *costed_line(c), unit_id=None)
        for c in map(ListedCharacter._make, _LOOSE_CHARACTERS.rows(user.pk))
    ]


def _todo(chapters, campaigns, now) -> list[DashboardTodo]:
    """For the campaigns the viewer manages: chapters being played or whose date is past
    (to close), and closed chapters not settled (a settlement to confirm)."""
    lines = []
    for chapter in chapters:
        campaign, role = campaigns[chapter.campaign_id]
        if role != "organiser":
            continue
        if chapter.status == ChapterStatus.CLOSED:
            kind = "settle"
        elif chapter.status == ChapterStatus.CURRENT or (
            chapter.starts_at is not None and chapter.starts_at < now
        ):
            kind = "close"
        else:
            continue
        lines.append(DashboardTodo(kind, chapter.pk, campaign.name, chapter.number, chapter.title))
    return lines


def dashboard_card(user) -> DashboardCard:
    """The signed-in viewer's dashboard (see the module docstring for its queries)."""
    campaigns = _campaigns(user)
    now = timezone.now()
    chapters = [_ChapterRow._make(row) for row in _CHAPTERS.rows(user.pk)]
    profile = viewer_profile(user.pk)
    # Past its date a vote is closed, whether or not the task has counted it yet.
    votes = [
        row for row in _VOTES.dicts(user.pk) if row["closes_at"] is None or row["closes_at"] > now
    ]
    events = _EVENTS.rows(user.pk)
    units, armies, sheets = _rosters(user)
    characters = _loose_characters(user)
    return DashboardCard(
        name=user.public_name,
        campaigns=len(campaigns),
        next_chapter=_next_chapter(chapters, campaigns, profile),
        votes=[
            DashboardVote(
                id=row["pk"],
                campaign_name=row["campaign__name"],
                kind=row["kind"],
                kind_label=str(VoteKind(row["kind"]).label),
                chapter_title=row["chapter__title"] or "",
                opened_at=row["opened_at"],
                closes_at=row["closes_at"],
            )
            for row in votes
        ],
        death_choice=profile is not None and profile.status == ProfileStatus.DEAD,
        profile=DashboardProfile(
            status=profile.status,
            status_label=str(ProfileStatus(profile.status).label),
            survival_points=profile.survival_points,
        )
        if profile is not None
        else None,
        units=units,
        characters=characters,
        armies=armies,
        sheets=sheets,
        history=[
            DashboardHistoryLine(
                campaign_id=campaign_id,
                campaign_name=campaign_name,
                at=at,
                sentence=event_sentence(display or username or "", verb, data),
            )
            for campaign_id, campaign_name, at, display, username, verb, data in events
        ],
        todo=_todo(chapters, campaigns, now),
    )
