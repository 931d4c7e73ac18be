"""What the settlement, leaderboard and history pages show, loaded in a fixed number of
queries and handed over as plain data; the page and its API twin share these loaders
and their permission checks."""

from dataclasses import dataclass

from django.db.models import Q
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign, Chapter, ChapterSettlement, ChapterStatus, SettlementStatus
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, campaign_role
from campaigns.settlement.plan import SettlementPlan, settlement_plan
from campaigns.statistics.services import HistoryPoint, StandingRow, character_history, leaderboard
from characters.models import Player, Profile, Trauma
from characters.permissions import require

RUNNING = (SettlementStatus.QUEUED, SettlementStatus.RUNNING)
STATISTIC_LABELS = {
    "chapters_played": _("Chapters played"),
    "chapters_survived": _("Chapters survived"),
    "chapters_won": _("Victories"),
    "kills_total": _("Zombies killed"),
    "traumas_permanent": _("Traumas made permanent"),
    "deaths": _("Deaths"),
}


@dataclass(frozen=True)
class BreakdownLine:
    label: str
    count: int
    weight: int
    points: int


def breakdown_lines(standing: StandingRow) -> list[BreakdownLine]:
    """The reputation's sum, one line per statistic, labelled for the reader."""
    return [
        BreakdownLine(
            label=str(STATISTIC_LABELS[t.statistic]),
            count=t.count,
            weight=t.weight,
            points=t.points,
        )
        for t in standing.breakdown.terms
    ]


@dataclass(frozen=True)
class SettlementCard:
    chapter: Chapter
    campaign: Campaign
    status: str  # "open" (not closed), "awaiting", a SettlementStatus, or "done"
    settlement: ChapterSettlement | None
    plan: SettlementPlan | None

    @property
    def in_progress(self) -> bool:
        return self.settlement is not None and self.settlement.status in RUNNING

    @property
    def settled(self) -> bool:
        return self.chapter.settled_at is not None

    @property
    def can_confirm(self) -> bool:
        return (
            self.chapter.status == ChapterStatus.CLOSED
            and not self.settled
            and not self.in_progress
        )


def _chapter_for_manager(user, pk: int) -> Chapter:
    chapter = Chapter.objects.select_related("campaign").filter(pk=pk).first()
    if chapter is None:
        raise Http404
    require(campaign_role(user, chapter.campaign), CAN_MANAGE, visible=CAN_VIEW)
    return chapter


def settlement_card(user, pk: int, *, with_plan: bool = True) -> SettlementCard:
    """Organisers only. The preview (the plan) is computed while the chapter awaits its
    settlement: 3 queries, plus 7 for the plan."""
    chapter = _chapter_for_manager(user, pk)
    settlement = ChapterSettlement.objects.filter(chapter=chapter).first()
    plan = None
    if with_plan and chapter.status == ChapterStatus.CLOSED and chapter.settled_at is None:
        plan = settlement_plan(chapter)
    return SettlementCard(
        chapter=chapter,
        campaign=chapter.campaign,
        status=(settlement.status if settlement else "awaiting")
        if chapter.status == ChapterStatus.CLOSED
        else "open",
        settlement=settlement,
        plan=plan,
    )


@dataclass(frozen=True)
class LeaderboardCard:
    campaign: Campaign | None
    rows: list[StandingRow]


def campaign_leaderboard_card(user, pk: int) -> LeaderboardCard:
    """Organisers and participants: 3 queries (campaign, memberships, ranked rows)."""
    campaign = Campaign.objects.filter(pk=pk).first()
    if campaign is None:
        raise Http404
    require(campaign_role(user, campaign), CAN_VIEW, visible=CAN_VIEW)
    return LeaderboardCard(campaign=campaign, rows=leaderboard(campaign_id=campaign.pk))


def overall_leaderboard_card(user) -> LeaderboardCard:
    """Everyone signed in; lists the players whose profile shows its statistics publicly,
    and the viewer. One query."""
    shown = Q(player__otd_profile__is_public=True, player__otd_profile__show_statistics=True)
    return LeaderboardCard(campaign=None, rows=leaderboard(player_filter=shown | Q(player=user)))


@dataclass(frozen=True)
class HistoryCard:
    player: Player
    profile: Profile | None
    points: list[HistoryPoint]
    traumas: list[Trauma]
    standing: StandingRow | None
    is_owner: bool

    @property
    def breakdown(self) -> list[BreakdownLine]:
        return breakdown_lines(self.standing) if self.standing else []

    @property
    def kills_by_type(self) -> list[tuple[str, int]]:
        totals: dict[str, int] = {}
        for point in self.points:
            for kind, count in point.kills.items():
                totals[kind] = totals.get(kind, 0) + count
        return [(kind.title(), count) for kind, count in totals.items()]


def history_card(user, username: str) -> HistoryCard:
    """The owner, or anyone signed in when the profile is public and shows its statistics;
    4 queries: player with profile, settled chapters, traumas, overall standing."""
    player = Player.objects.select_related("otd_profile").filter(username=username).first()
    if player is None:
        raise Http404
    profile = getattr(player, "otd_profile", None)
    is_owner = user.is_authenticated and user.pk == player.pk
    public = profile is not None and profile.is_public and profile.show_statistics
    if not (is_owner or public):
        raise Http404
    show_traumas = is_owner or (profile is not None and profile.show_traumas)
    traumas = (
        list(
            Trauma.objects.filter(profile=profile)
            .select_related("chapter")
            .order_by("created_at", "pk")
        )
        if profile is not None and show_traumas
        else []
    )
    standing = leaderboard(player_filter=Q(player=player))
    return HistoryCard(
        player=player,
        profile=profile,
        points=character_history(player_id=player.pk),
        traumas=traumas,
        standing=standing[0] if standing else None,
        is_owner=is_owner,
    )
