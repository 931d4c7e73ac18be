"""The statistics a player gathers over the chapters, declared once.

A `Column` is one number. The settlement's ledger (`SettlementEntry`) records it for each
chapter and participant, or it counts the ledger rows that match (`counts`); the
statistics (`CharacterStatistics`) hold its sum per player and campaign, and overall
figures sum those. From `COLUMNS` come the models' fields, the SQL that rebuilds and ranks
the statistics (`campaigns.statistics.services`), the leaderboard rows and a character's
history points (and so their API), the labels of the reputation's breakdown and the
leaderboard's table: a new statistic is one line here, and its migration.
"""

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import models
from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from campaigns.chapters.models import ZombieType


@dataclass(frozen=True)
class Column:
    name: str
    label: str | Promise
    # Its heading in the leaderboard's table; empty: the table leaves it out.
    heading: str | Promise = ""
    # The ledger rows it counts (Q(): every row); None: a figure each ledger row records.
    counts: Q | None = None
    # Null for a player none of whose chapters was played in Chronique (the figures that
    # come from the encounter log), where 0 would claim a number nobody recorded.
    nullable: bool = False
    # May be below 0 (its database column is signed).
    signed: bool = False
    # The name of its running total over a character's chapters (the history), if any.
    running: str = ""
    # Kept split by zombie type too: one database column `<by_type>_<type>` each, shown as
    # one mapping named `by_type` (type -> count).
    by_type: str = ""

    def parts(self) -> dict[str, str]:
        """Zombie type -> its database column, when kept split by type."""
        if not self.by_type:
            return {}
        return {kind: f"{self.by_type}_{kind}" for kind in ZombieType.values}

    def model_fields(self) -> Iterator[tuple[str, models.Field]]:
        """(name, field) of each database column it takes."""
        if self.nullable:
            yield self.name, models.PositiveIntegerField(null=True, blank=True)
        elif self.signed:
            yield self.name, models.IntegerField(default=0)
        else:
            yield self.name, models.PositiveIntegerField(default=0)
        for part in self.parts().values():
            yield part, models.PositiveIntegerField(default=0)


COLUMNS: tuple[Column, ...] = (
    Column("chapters_played", _("Chapters played"), heading=_("Played"), counts=Q()),
    Column(
        "chapters_survived",
        _("Chapters survived"),
        heading=_("Survived"),
        counts=Q(survived=True),
    ),
    Column("chapters_won", _("Victories"), heading=_("Won"), counts=Q(won=True)),
    Column("chapters_drawn", _("Draws"), counts=Q(result="draw")),
    Column("chapters_lost", _("Defeats"), counts=Q(result="defeat")),
    Column("deaths", _("Deaths"), heading=_("Deaths"), counts=Q(died=True)),
    Column(
        "kills_total",
        _("Zombies killed"),
        heading=_("Kills"),
        running="kills_running",
        by_type="kills",
    ),
    Column("traumas_gained", _("Traumas gained")),
    Column("traumas_healed", _("Traumas healed")),
    Column("traumas_permanent", _("Traumas made permanent")),
    Column("damage_dealt", _("Damage dealt"), nullable=True),
    Column("damage_taken", _("Damage taken"), nullable=True),
    Column("rolls", _("Rolls"), nullable=True),
    # What a system's settlement keeps beyond the result (`rules.engine.systems.seam.Figures`).
    Column("value_destroyed", _("Value destroyed")),
    Column("value_lost", _("Value lost")),
    Column("characters_lost", _("Characters lost")),
    Column("xp", _("Experience")),
    Column(
        "survival_points",
        _("Survival points"),
        heading=_("Survival points"),
        signed=True,
        running="survival_total",
    ),
)
BY_NAME: Mapping[str, Column] = {column.name: column for column in COLUMNS}
# Counted from the ledger rows / recorded on each of them.
COUNTED = tuple(column for column in COLUMNS if column.counts is not None)
RECORDED = tuple(column for column in COLUMNS if column.counts is None)
# Every database column, per-type parts included: what a statistics row sums.
DATABASE_COLUMNS = tuple(name for column in COLUMNS for name, _field in column.model_fields())
NULLABLE = tuple(column.name for column in COLUMNS if column.nullable)


def figure_fields(columns: Iterable[Column], *, running: bool = False) -> list[tuple[str, Any]]:
    """The dataclass fields (name, type) that carry `columns` (and their running totals)."""
    fields: list[tuple[str, Any]] = []
    for column in columns:
        fields.append((column.name, int | None if column.nullable else int))
        if running and column.running:
            fields.append((column.running, int))
        if column.by_type:
            fields.append((column.by_type, dict[str, int]))
    return fields


def figures(row: Mapping[str, Any], columns: Iterable[Column], *, running: bool = False) -> dict:
    """The values of `figure_fields(columns)`, read from a row of database columns."""
    values: dict[str, Any] = {}
    for column in columns:
        values[column.name] = row[column.name]
        if running and column.running:
            values[column.running] = row[column.running]
        if column.by_type:
            values[column.by_type] = {kind: row[part] for kind, part in column.parts().items()}
    return values


def database_values(source: Any, columns: Iterable[Column]) -> dict:
    """The database columns of `columns`, read from an object carrying their figures (the
    way round of `figures`)."""
    values: dict[str, Any] = {}
    for column in columns:
        values[column.name] = getattr(source, column.name)
        if column.by_type:
            by_type = getattr(source, column.by_type)
            values.update({part: by_type[kind] for kind, part in column.parts().items()})
    return values
