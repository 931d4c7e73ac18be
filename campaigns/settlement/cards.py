"""What the settlement, leaderboard and history pages show, loaded in a fixed number of
queries and handed over as plain data; the page and its API twin share these loaders,
given what `campaigns.selectors` and `characters.profiles.selectors` fetched and
authorised."""

from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.translation import gettext as _

from campaigns.chapters.entries import SHEET_KINDS
from campaigns.models import (
    Campaign,
    Chapter,
    ChapterSettlement,
    ChapterStatus,
    SettlementEntry,
    SettlementStatus,
)
from campaigns.settlement.plan import ParticipantPlan, SettlementPlan, settlement_plan
from campaigns.statistics.services import (
    BreakdownLine,
    HistoryPoint,
    StandingRow,
    character_history,
    leaderboard,
)
from campaigns.systems import campaign_system
from characters.models import Player, Profile, Trauma
from rules.engine.systems import GameSystem, system_get

RUNNING = (SettlementStatus.QUEUED, SettlementStatus.RUNNING)
# The overall leaderboard ranks the players who bring their own character (Of the Dead).
OVERALL = system_get("of-the-dead")


@dataclass(frozen=True)
class LeaderboardColumn:
    name: str
    heading: str


# The ledger's figures a system's own settlement keeps (`rules.engine.systems.seam.Figures`),
# shown on the settlement page under the headings its standings give them.
KEPT = ("value_destroyed", "value_lost", "characters_lost", "xp")


def _kept(system: GameSystem) -> list[LeaderboardColumn]:
    """The figures the system's settlement keeps, headed as its standings head them."""
    return [
        LeaderboardColumn(c.statistic, _(c.heading))
        for c in system.standings.columns
        if c.statistic in KEPT
    ]


@dataclass(frozen=True)
class SettledLine:
    """What the settlement did for one participant, read back from the ledger."""

    name: str
    result: str
    died: bool
    survival_points: int
    healed: list[str]
    made_permanent: list[str]
    status: str  # the status the settlement set ("" when none)
    # KEPT's figures, headed as the campaign's standings head them.
    figures: list[tuple[str, int]] = field(default_factory=list)


@dataclass(frozen=True)
class SettlementCard:
    chapter: Chapter
    campaign: Campaign
    status: str  # "open" (not closed), "awaiting", a SettlementStatus, or "done"
    settlement: ChapterSettlement | None
    plan: SettlementPlan | None
    # Once settled, each participant's outcome stays on the page (the ledger's rows).
    outcomes: list[SettledLine] = field(default_factory=list)

    @property
    def system(self) -> GameSystem:
        return system_get(self.campaign.system)

    @property
    def uses_profiles(self) -> bool:
        return self.system.uses_profiles

    @property
    def kept(self) -> list[LeaderboardColumn]:
        return _kept(self.system)

    @property
    def settles(self) -> str:
        return _(self.system.close.settles)

    @property
    def previews(self) -> list[tuple[ParticipantPlan, list[tuple[str, int]]]]:
        """Each participant of the plan with KEPT's figures, headed."""
        kept = self.kept
        participants = self.plan.participants if self.plan else ()
        return [(p, [(c.heading, getattr(p, c.name)) for c in kept]) for p in participants]

    @property
    def in_progress(self) -> bool:
        return (
            self.settlement is not None
            and self.settlement.status in RUNNING
            and not self.settlement.is_stale
        )

    @property
    def stalled(self) -> bool:
        return self.settlement is not None and self.settlement.is_stale

    @property
    def settled(self) -> bool:
        return self.chapter.settled_at is not None

    @property
    def attempts(self) -> int:
        return self.settlement.attempts if self.settlement else 0

    @property
    def summary(self) -> dict:
        return self.settlement.summary if self.settlement else {}

    @property
    def can_confirm(self) -> bool:
        return (
            self.chapter.status == ChapterStatus.CLOSED
            and not self.settled
            and not self.in_progress
        )


def _settled_lines(chapter: Chapter, kept: list[LeaderboardColumn]) -> list[SettledLine]:
    """Two queries: the ledger's rows of the chapter with their players, and the names of
    the traumas their effects touched."""
    entries = list(
        SettlementEntry.objects.filter(chapter=chapter, reverted_at__isnull=True)
        .select_related("player")
        .order_by("pk")
    )
    trauma_ids = {e.get("trauma") for entry in entries for e in entry.effects if e.get("trauma")}
    names = dict(Trauma.objects.filter(pk__in=trauma_ids).values_list("pk", "name"))

    def traumas(entry, op: str) -> list[str]:
        return [names.get(e.get("trauma"), "?") for e in entry.effects if e.get("op") == op]

    return [
        SettledLine(
            name=entry.player.public_name,
            result=entry.result,
            died=entry.died,
            survival_points=getattr(entry, "survival_points", 0) or 0,
            healed=traumas(entry, "trauma_healed"),
            made_permanent=traumas(entry, "trauma_made_permanent"),
            status=next(
                (str(e.get("after", "")) for e in entry.effects if e.get("op") == "status"), ""
            ),
            figures=[(c.heading, getattr(entry, c.name)) for c in kept],
        )
        for entry in entries
    ]


def _settlement_of(chapter: Chapter) -> ChapterSettlement | None:
    """The chapter's settlement row: read with the chapter when its fetch asked for it
    (`chapter_get_for_user(..., with_settlement=True)`), else one query."""
    if Chapter.settlement.is_cached(chapter):
        return getattr(chapter, "settlement", None)  # None: read, and there is none
    return ChapterSettlement.objects.filter(chapter=chapter).first()


def settlement_card(chapter: Chapter, *, with_plan: bool = True) -> SettlementCard:
    """For organisers (`chapter_get_for_user(..., need="manage", with_settlement=True)`).
    The preview (the plan) is computed while the chapter awaits its settlement: no query
    of its own (1 when the fetch did not read the settlement), plus 3 for the plan."""
    settlement = _settlement_of(chapter)
    plan = None
    if with_plan and chapter.status == ChapterStatus.CLOSED and chapter.settled_at is None:
        plan = settlement_plan(chapter)
    kept = _kept(system_get(chapter.campaign.system))
    return SettlementCard(
        outcomes=_settled_lines(chapter, kept) if with_plan and chapter.settled_at else [],
        chapter=chapter,
        campaign=chapter.campaign,
        status=(settlement.status if settlement else "awaiting")
        if chapter.status == ChapterStatus.CLOSED
        else "open",
        settlement=settlement,
        plan=plan,
    )


@dataclass(frozen=True)
class PartySheet:
    """A character sheet that played in the campaign, with the levels it carries now."""

    name: str
    player: str
    levels: list[tuple[str, int]]


def party_sheets(campaign: Campaign) -> list[PartySheet]:
    """The sheets entered into the campaign's chapters (`chapters.entries.SHEET_KINDS`), as
    they are now: one query; none for a system whose players bring no sheet."""
    kind = SHEET_KINDS.get(campaign.system)
    if kind is None:
        return []
    rows = (
        kind.roster.objects.filter(chapter_entries__chapter__campaign=campaign)
        .distinct()
        .order_by("name", "pk")
        .values_list(
            "name", "owner__display_name", "owner__username", *(f for f, _w in kind.levels)
        )
    )
    return [
        PartySheet(
            name,
            display or username,
            [(_(word), value) for (_f, word), value in zip(kind.levels, values, strict=True)],
        )
        for name, display, username, *values in rows
    ]


@dataclass(frozen=True)
class LeaderboardCard:
    """A campaign's standings as its system declares them (`GameSystem.standings`: the
    columns, the score that ranks and its heading), or the overall leaderboard (Of the
    Dead's). A system that does not rank (`ranked` False) shows its party instead."""

    campaign: Campaign | None
    rows: list[StandingRow]
    system: GameSystem = OVERALL
    # The party's character sheets and their levels (a campaign whose players bring one).
    sheets: list[PartySheet] = field(default_factory=list)

    @property
    def ranked(self) -> bool:
        return self.system.standings.ranked

    @property
    def score_heading(self) -> str:
        return _(self.system.standings.score_heading)

    @property
    def score_formula(self) -> str:
        """What the score sums, headed as the table heads its statistics."""
        headings = {c.statistic: _(c.heading) for c in self.system.standings.columns}
        terms = " + ".join(
            f"{t.weight} \N{MULTIPLICATION SIGN} {headings.get(t.statistic, t.statistic)}"
            for t in self.system.standings.score
        )
        return f"{self.score_heading} = {terms}"

    @property
    def explains_reputation(self) -> bool:
        return self.system.uses_profiles

    @property
    def columns(self) -> list[LeaderboardColumn]:
        return [LeaderboardColumn(c.statistic, _(c.heading)) for c in self.system.standings.columns]

    @property
    def table(self) -> list[tuple[StandingRow, list[int]]]:
        """Each row with the figures of `columns`, in their order."""
        names = [c.statistic for c in self.system.standings.columns]
        return [(row, [getattr(row, name) for name in names]) for row in self.rows]


def campaign_leaderboard_card(campaign: Campaign) -> LeaderboardCard:
    """For organisers and participants (`campaign_get_for_user`): one query, the rows
    ranked as the campaign's system says; a party of sheets one more (`party_sheets`)."""
    system = campaign_system(campaign.system).game
    rows = leaderboard(campaign_id=campaign.pk, standings=system.standings)
    sheets = [] if system.standings.ranked else party_sheets(campaign)
    return LeaderboardCard(campaign=campaign, rows=rows, system=system, sheets=sheets)


# Who the overall leaderboard ranks: the players whose profile shows its statistics publicly
# (and whoever is looking at it).
SHOWN = Q(player__otd_profile__is_public=True, player__otd_profile__show_statistics=True)


def overall_leaderboard_card(user) -> LeaderboardCard:
    """Everyone signed in; lists the players whose profile shows its statistics publicly,
    and the viewer. One query."""
    return LeaderboardCard(campaign=None, rows=leaderboard(player_filter=SHOWN | Q(player=user)))


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
        return self.standing.breakdown_lines if self.standing else []

    @property
    def kills_by_type(self) -> list[tuple[str, int]]:
        totals: dict[str, int] = {}
        for point in self.points:
            for kind, count in point.kills.items():
                totals[kind] = totals.get(kind, 0) + count
        return [(kind.title(), count) for kind, count in totals.items()]


def history_card(user, player: Player) -> HistoryCard:
    """For the owner, or anyone signed in when the profile is public and shows its
    statistics (`statistics_player_get_for_user`, which reads the player with the profile);
    3 queries: settled chapters, traumas, overall standing."""
    profile = getattr(player, "otd_profile", None)
    is_owner = user.is_authenticated and user.pk == player.pk
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
    # Ranked as the overall leaderboard would rank them, among the players it shows.
    standing = leaderboard(player_filter=SHOWN | Q(player=player), only_player_id=player.pk)
    return HistoryCard(
        player=player,
        profile=profile,
        points=character_history(player_id=player.pk),
        traumas=traumas,
        standing=standing[0] if standing else None,
        is_owner=is_owner,
    )
