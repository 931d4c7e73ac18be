"""What a signed-in player sees first, on one phone screen: their next chapter and whether
they may play it, the votes waiting for their ballot, a death choice to make, their
characters and units, the latest lines of their campaigns' histories and, for organisers,
what is theirs to do (chapters to close, settlements to confirm).

Loaded in a fixed number of queries whatever the number of campaigns (pinned by
tests/campaigns/test_dashboard.py at 3 and 30): the campaigns with the viewer's role, their
chapters not yet settled, the viewer's profile, the open votes without their ballot, the
latest history lines, and the viewer's KOLAPS units and characters.
"""

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Exists, F, OuterRef, Q
from django.utils import timezone

from campaigns.chapters.eligibility import eligibility
from campaigns.chapters.services import PROFILE_SYSTEMS, facts_of, requirement_of
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
from characters.kolaps.cards import lists_for
from characters.models import Profile, ProfileStatus

HISTORY_LINES = 6


@dataclass(frozen=True)
class DashboardChapter:
    id: int
    campaign_id: int
    campaign_name: str
    number: int
    title: str
    status: str
    starts_at: datetime | None
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
class DashboardCharacter:
    id: int
    name: str
    archetype_label: str
    rank_label: str
    value: int
    pp_left: int


@dataclass(frozen=True)
class DashboardCard:
    name: str
    campaigns: int
    next_chapter: DashboardChapter | None
    votes: list[DashboardVote] = field(default_factory=list)
    death_choice: bool = False  # the viewer's Of the Dead character died: a choice waits
    profile: DashboardProfile | None = None
    units: list[DashboardUnit] = field(default_factory=list)
    characters: list[DashboardCharacter] = field(default_factory=list)
    history: list[DashboardHistoryLine] = field(default_factory=list)
    todo: list[DashboardTodo] = field(default_factory=list)


def _campaigns(user) -> dict[int, tuple[Campaign, str]]:
    """One query: the viewer's campaigns with their role ("organiser", "co_organiser",
    "player") and their number of players."""
    mine = Membership.objects.filter(campaign=OuterRef("pk"), player=user)
    rows = (
        Campaign.objects.filter(Q(organiser=user) | Exists(mine))
        .annotate(
            n_players=Count(
                "memberships", filter=Q(memberships__role=MembershipRole.PLAYER), distinct=True
            ),
            is_player=Exists(mine.filter(role=MembershipRole.PLAYER)),
        )
        .order_by("-created_at", "-pk")
    )
    return {
        row.pk: (
            row,
            "player" if row.is_player else "organiser",
        )
        for row in rows
    }


def _next_chapter(user, chapters, campaigns, profile) -> DashboardChapter | None:
    """The first chapter not closed that the viewer plays in (dated ones first), else the
    first one they organise."""
    playing = [c for c in chapters if campaigns[c.campaign_id][1] == "player"]
    candidates = [c for c in (playing or chapters) if c.status != ChapterStatus.CLOSED]
    if not candidates:
        return None
    chapter = candidates[0]
    campaign, role = campaigns[chapter.campaign_id]
    verdict = None
    if role == "player":
        uses_profiles = campaign.system in PROFILE_SYSTEMS
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


def _todo(chapters, campaigns) -> list[DashboardTodo]:
    """For the campaigns the viewer manages: chapters being played or whose date is past
    (to close), and closed chapters not settled (a settlement to confirm)."""
    now = timezone.now()
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
    ids = list(campaigns)
    chapters = list(
        Chapter.objects.filter(campaign_id__in=ids)
        .filter(~Q(status=ChapterStatus.CLOSED) | Q(settled_at__isnull=True))
        .order_by(F("starts_at").asc(nulls_last=True), "campaign_id", "number")
    )
    profile = Profile.objects.filter(player=user).first()
    player_of = [pk for pk, (_campaign, role) in campaigns.items() if role == "player"]
    votes = (
        Vote.objects.filter(campaign_id__in=player_of, status=VoteStatus.OPEN)
        .exclude(Exists(Ballot.objects.filter(vote=OuterRef("pk"), voter=user)))
        .order_by("opened_at", "pk")
        .values_list("pk", "campaign__name", "kind", "chapter__title", "opened_at", "closes_at")
    )
    events = (
        CampaignEvent.objects.filter(campaign_id__in=ids)
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
    units, characters = lists_for(user)
    return DashboardCard(
        name=user.public_name,
        campaigns=len(campaigns),
        next_chapter=_next_chapter(user, chapters, campaigns, profile),
        votes=[
            DashboardVote(
                id=pk,
                campaign_name=campaign_name,
                kind=kind,
                kind_label=str(VoteKind(kind).label),
                chapter_title=title or "",
                opened_at=opened_at,
                closes_at=closes_at,
            )
            for pk, campaign_name, kind, title, opened_at, closes_at in votes
        ],
        death_choice=profile is not None and profile.status == ProfileStatus.DEAD,
        profile=DashboardProfile(
            status=profile.status,
            status_label=str(ProfileStatus(profile.status).label),
            survival_points=profile.survival_points,
        )
        if profile is not None
        else None,
        units=[DashboardUnit(u.id, u.name, u.vu, u.valid, u.size) for u in units],
        characters=[
            DashboardCharacter(c.id, c.name, c.archetype_label, c.rank_label, c.value, c.pp_left)
            for c in characters
            if c.unit_id is None
        ],
        history=[
            DashboardHistoryLine(
                campaign_id=campaign_id,
                campaign_name=campaign_name,
                at=at,
                sentence=event_sentence(display or username or "", verb, data),
            )
            for campaign_id, campaign_name, at, display, username, verb, data in events
        ],
        todo=_todo(chapters, campaigns),
    )
