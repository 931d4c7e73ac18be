"""Statistics, reputation and leaderboards, computed from the ledger with set-based SQL.

`statistics_recompute` rebuilds `CharacterStatistics` rows (one per player and campaign)
with one `INSERT ... SELECT ... GROUP BY` over `SettlementEntry`: never a loop or a task
per character, never a delta. Overall figures are sums of a player's campaign rows, taken
when a leaderboard reads them. The SELECT is written with the ORM (aggregates with
FILTER, the reputation as an expression built from `rules.engine.systems.of_the_dead.reputation.
WEIGHTS`) and compiled, so the same statement runs on PostgreSQL and on SQLite.

Readers (`leaderboard`, `character_history`) are single queries too; ranks come from a
window function at read time, so a settlement never rewrites anyone else's rank.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, make_dataclass
from datetime import datetime

from django.db import connection
from django.db.models import (
    BooleanField,
    Count,
    ExpressionWrapper,
    F,
    IntegerField,
    Q,
    Sum,
    Value,
    Window,
)
from django.db.models.functions import Coalesce, Greatest, Rank

from campaigns.models import CharacterStatistics, SettlementEntry
from campaigns.statistics.columns import (
    BY_NAME,
    COLUMNS,
    COUNTED,
    DATABASE_COLUMNS,
    NULLABLE,
    RECORDED,
    figure_fields,
    figures,
)
from rules.engine.systems import SYSTEMS
from rules.engine.systems.of_the_dead.reputation import FLOOR, WEIGHTS, reputation
from rules.engine.systems.seam import Standings, Term

STATS_LOCK = 0x5E771E  # advisory lock: one statistics rebuild at a time (PostgreSQL)
# The systems whose players bring their own character from campaign to campaign: the
# overall leaderboard and a character's history sum their campaigns only (reputation is
# their measure; a KOLAPS victory is not an Of the Dead survivor's).
OVERALL_SYSTEMS = tuple(system.slug for system in SYSTEMS if system.uses_profiles)


def _sum(name: str):
    # A nullable column stays null for a player who never played an encounter in Chronique.
    return Sum(name) if name in NULLABLE else Coalesce(Sum(name), Value(0))


def _aggregates() -> dict:
    """Statistic name -> its aggregate over ledger rows: a count of the rows a counted
    column matches (an empty Q counts them all), the sum of a recorded one."""
    return {
        **{column.name: Count("pk", filter=column.counts or None) for column in COUNTED},
        **{name: _sum(name) for column in RECORDED for name, _field in column.model_fields()},
    }


def _annotations(scope, aggregates: dict) -> dict:
    # Aliases are prefixed: several statistics share their name with a ledger column.
    return {
        "s_scope": scope,
        **{f"s_{name}": expression for name, expression in aggregates.items()},
        "s_reputation": _reputation_expression(aggregates),
    }


def _reputation_expression(aggregates: dict):
    total = Value(0)
    for weight in WEIGHTS:
        total = total + Value(weight.points) * aggregates[weight.statistic]
    return Greatest(Value(FLOOR), total, output_field=IntegerField())


def _rollup() -> dict:
    """Statistic name -> its sum over a player's per-campaign rows (all are additive)."""
    return {name: _sum(name) for name in DATABASE_COLUMNS}


INSERTED = ("player_id", "campaign_id", *DATABASE_COLUMNS, "reputation")


def _select_sql(queryset) -> tuple[str, tuple]:
    selected = ["player_id", "s_scope", *(f"s_{name}" for name in INSERTED[2:])]
    return queryset.values_list(*selected).query.sql_with_params()


def _insert_select(queryset) -> None:
    sql, params = _select_sql(queryset)
    table = connection.ops.quote_name(CharacterStatistics._meta.db_table)
    quoted = ", ".join(connection.ops.quote_name(c) for c in INSERTED)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {table} ({quoted}) {sql}", params)


def statistics_recompute(*, player_ids=None, campaign_id: int | None = None) -> None:
    """Rebuild the statistics of `player_ids` (all players when None) in `campaign_id` (in
    every campaign when None): one row per (player, campaign) played, from the ledger.
    Overall figures are not stored: `leaderboard()` sums a player's campaign rows when it
    reads them, so a settlement writes one row per participant and a full rebuild writes
    each (player, campaign) once.

    Call it inside the transaction that changed the ledger. An empty `player_ids` means
    nobody (a KOLAPS chapter records unit results only): nothing to rebuild.
    """
    if player_ids is not None and not player_ids:
        return
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [STATS_LOCK])
    ledger = SettlementEntry.objects.filter(reverted_at__isnull=True)
    stats = CharacterStatistics.objects.all()
    if player_ids is not None:
        player_ids = sorted(set(player_ids))
        ledger = ledger.filter(player_id__in=player_ids)
        stats = stats.filter(player_id__in=player_ids)
    if campaign_id is not None:
        ledger = ledger.filter(campaign_id=campaign_id)
        stats = stats.filter(campaign_id=campaign_id)
    # One aggregate over the ledger rows, inserted as it is computed.
    by_campaign = (
        ledger.order_by()
        .values("player_id", "campaign_id")
        .annotate(**_annotations(F("campaign_id"), _aggregates()))
    )
    if player_ids is None and campaign_id is None and connection.vendor == "postgresql":
        # A full rebuild replaces every row: TRUNCATE leaves no dead row versions behind
        # for the unique index to step over while the new rows go in (DELETE did, and
        # they cost more than the aggregate itself). It locks the table until commit,
        # which a rebuild of everything may do.
        with connection.cursor() as cursor:
            cursor.execute(f"TRUNCATE {connection.ops.quote_name(stats.model._meta.db_table)}")
    else:
        stats.delete()
    _insert_select(by_campaign)


# --- Reading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BreakdownLine:
    label: str
    count: int
    weight: int
    points: int


def breakdown_lines(standing) -> list[BreakdownLine]:
    """The reputation's sum, one line per statistic, labelled for the reader."""
    return [
        BreakdownLine(
            label=str(BY_NAME[t.statistic].label),
            count=t.count,
            weight=t.weight,
            points=t.points,
        )
        for t in standing.breakdown.terms
    ]


# A leaderboard row: the player, every statistic of COLUMNS, the reputation; `breakdown`
# is the reputation's sum (rules.engine.systems.of_the_dead.reputation), `breakdown_lines`
# its labelled lines.
StandingRow = make_dataclass(
    "StandingRow",
    [
        ("rank", int),
        ("player_id", int),
        ("name", str),
        ("username", str),
        *figure_fields(COLUMNS),
        ("reputation", int),
        # What the campaign's system ranks by (`Standings.score`; overall: the reputation).
        ("score", int, field(default=0)),
        # Whether others may open the player's history (a public profile showing its
        # statistics): a leaderboard links the name only then, never to a page that is 404.
        ("history_public", bool, field(default=True)),
    ],
    frozen=True,
    namespace={
        "__module__": __name__,
        "breakdown": property(lambda row: reputation(vars(row))),
        "breakdown_lines": property(breakdown_lines),
    },
)


LEADERBOARD_SIZE = 100


def _weighted(terms: Sequence[Term]):
    total = Value(0)
    for term in terms:
        total = total + Value(term.weight) * F(term.statistic)
    return ExpressionWrapper(total, output_field=IntegerField())


def leaderboard(
    *,
    campaign_id: int | None = None,
    standings: Standings | None = None,
    player_filter: Q | None = None,
    only_player_id: int | None = None,
):
    """One query: the rows of a campaign, or overall (each player's campaign rows summed,
    reputation recomputed from the sums), at most LEADERBOARD_SIZE, ties sharing a rank
    (SQL `RANK()`). A campaign ranks as its system's `standings` say (a score, then its
    tie breaks; by reputation when not given), overall by reputation over the campaigns
    whose players bring their own profile (`OVERALL_SYSTEMS`). `player_filter` chooses who
    is ranked; `only_player_id` keeps one player's row, ranked among them all (overall
    only)."""
    rows = CharacterStatistics.objects.all()
    if campaign_id is not None:
        rows = rows.filter(campaign_id=campaign_id)
    if player_filter is not None:
        rows = rows.filter(player_filter)
    if campaign_id is None:
        return _overall(rows.filter(campaign__system__in=OVERALL_SYSTEMS), only_player_id)
    score = (Term("reputation"),) if standings is None else standings.score
    ranks = [_weighted(terms).desc() for terms in (score, *standings_ties(standings))]
    rows = rows.annotate(
        score=_weighted(score),
        rank=Window(Rank(), order_by=ranks),
        history_public=ExpressionWrapper(
            Q(player__otd_profile__is_public=True, player__otd_profile__show_statistics=True),
            output_field=BooleanField(),
        ),
        display=F("player__display_name"),
        username=F("player__username"),
    ).order_by(*ranks, "-chapters_won", "username")[:LEADERBOARD_SIZE]
    return [_standing(row) for row in rows.values()]


def standings_ties(standings: Standings | None) -> tuple[tuple[Term, ...], ...]:
    return () if standings is None else standings.tie_breaks


def _overall(rows, only_player_id: int | None = None) -> list["StandingRow"]:
    """Each player's campaign rows summed (the aggregate, compiled by the ORM so filters on
    the player apply), ranked, cut to the first LEADERBOARD_SIZE by (reputation, wins)
    with their ties, and only then joined to the players for names: the sums of every
    player are computed once, the names read for about a hundred."""
    sums = _rollup()
    # Aliases are prefixed: the sums share their names with the model's columns.
    named = {f"o_{name}": expression for name, expression in sums.items()}
    named["o_reputation"] = _reputation_expression(sums)
    totals_sql, params = (
        rows.order_by().values("player_id").annotate(**named).query.sql_with_params()
    )
    q = connection.ops.quote_name
    player = q(CharacterStatistics._meta.get_field("player").related_model._meta.db_table)
    # SQLite has no WITH TIES: it joins every total (small tables there). One player's
    # standing is ranked among all, then picked.
    cut = (
        f"ORDER BY o_reputation DESC, o_chapters_won DESC "
        f"FETCH FIRST {LEADERBOARD_SIZE} ROWS WITH TIES"
        if connection.vendor == "postgresql" and only_player_id is None
        else ""
    )
    pick = "" if only_player_id is None else "WHERE ranked.player_id = %s "
    params = (*params, only_player_id) if only_player_id is not None else params
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH totals AS ({totals_sql}), "
            "ranked AS (SELECT totals.*, RANK() OVER (ORDER BY o_reputation DESC) AS rank "
            f"FROM totals {cut}) "
            f"SELECT ranked.*, p.{q('display_name')} AS display, p.{q('username')} AS username "
            f"FROM ranked JOIN {player} p ON p.{q('id')} = ranked.player_id {pick}"
            f"ORDER BY o_reputation DESC, o_chapters_won DESC, p.{q('username')} "
            f"LIMIT {LEADERBOARD_SIZE}",
            params,
        )
        names = [column[0] for column in cursor.description]
        found = [dict(zip(names, values, strict=True)) for values in cursor.fetchall()]
    return [
        _standing({key.removeprefix("o_"): value for key, value in row.items()}) for row in found
    ]


def _standing(row: dict) -> StandingRow:
    return StandingRow(
        rank=row["rank"],
        player_id=row["player_id"],
        name=row["display"] or row["username"],
        username=row["username"],
        **figures(row, COLUMNS),
        reputation=row["reputation"],
        score=row.get("score", row["reputation"]),
        # The overall leaderboard lists only public histories (and the viewer's own).
        history_public=bool(row.get("history_public", True)),
    )


# The chapter and its result, as a history point and its ledger row (annotated) name them.
HISTORY_CHAPTER = (
    ("chapter_id", int),
    ("chapter_title", str),
    ("chapter_number", int),
    ("campaign_name", str),
    ("settled_at", datetime),
    ("result", str),
    ("died", bool),
)
HistoryPoint = make_dataclass(
    "HistoryPoint",
    [*HISTORY_CHAPTER, *figure_fields(RECORDED, running=True)],
    frozen=True,
    namespace={
        "__module__": __name__,
        "__doc__": "One settled chapter of a character (the ledger's figures of RECORDED), "
        "with running totals up to it.",
    },
)


def character_history(*, player_id: int) -> list[HistoryPoint]:
    """One query: the player's settled chapters in order, with running totals computed by
    window functions (survival points and kills over chapters)."""
    order = [F("settled_at").asc(), F("pk").asc()]
    rows = (
        SettlementEntry.objects.filter(
            player_id=player_id, reverted_at__isnull=True, campaign__system__in=OVERALL_SYSTEMS
        )
        .annotate(
            **{
                column.running: Window(Sum(column.name), order_by=order)
                for column in RECORDED
                if column.running
            },
            chapter_title=F("chapter__title"),
            chapter_number=F("chapter__number"),
            campaign_name=F("campaign__name"),
        )
        .order_by("settled_at", "pk")
        .values()
    )
    return [
        HistoryPoint(
            **{name: row[name] for name, _type in HISTORY_CHAPTER},
            **figures(row, RECORDED, running=True),
        )
        for row in rows
    ]
