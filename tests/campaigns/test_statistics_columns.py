"""The statistics are declared once (campaigns.statistics.columns): the models, the rows the
leaderboards and histories read and the reputation's weights all follow that declaration."""

from dataclasses import fields

from campaigns.models import CharacterStatistics, SettlementEntry, ZombieType
from campaigns.statistics.columns import COLUMNS, COUNTED, DATABASE_COLUMNS, RECORDED
from campaigns.statistics.services import HistoryPoint, StandingRow
from rules.engine.systems.of_the_dead.reputation import WEIGHTS


def _columns_of(model) -> set[str]:
    return {f.name for f in model._meta.get_fields() if f.concrete}


def test_it_gives_each_statistic_its_database_columns():
    kills = {f"kills_{kind}" for kind in ZombieType.values}
    assert kills <= set(DATABASE_COLUMNS)
    assert set(DATABASE_COLUMNS) <= _columns_of(CharacterStatistics)
    recorded = {name for column in RECORDED for name, _field in column.model_fields()}
    assert recorded <= _columns_of(SettlementEntry)
    # The ledger records figures; what is counted comes from its rows, not a column.
    assert not {column.name for column in COUNTED} & _columns_of(SettlementEntry)


def test_it_shows_every_statistic_in_a_standing_and_the_recorded_ones_in_a_history():
    # history_public: whether the name links to the player's history (not a statistic).
    standing = [f.name for f in fields(StandingRow) if f.name != "history_public"]
    assert standing[:4] == ["rank", "player_id", "name", "username"]
    # Then the reputation, and the score the campaign's system ranks by.
    assert standing[-2:] == ["reputation", "score"]
    assert {column.name for column in COLUMNS} | {"kills"} == set(standing[4:-2])
    history = {f.name for f in fields(HistoryPoint)}
    assert {column.name for column in RECORDED} | {
        "kills",
        "kills_running",
        "survival_total",
    } <= history
    assert not {column.name for column in COUNTED} & history


def test_it_weighs_only_declared_statistics_into_the_reputation():
    assert {weight.statistic for weight in WEIGHTS} <= {column.name for column in COLUMNS}
