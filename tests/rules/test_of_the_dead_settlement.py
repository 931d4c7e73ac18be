"""RULES-NOTES O6 and the reputation formula, as tables."""

import pytest

from rules.engine.systems.of_the_dead.reputation import WEIGHTS, reputation
from rules.engine.systems.of_the_dead.settlement import (
    SurvivalRule,
    TraumaFate,
    survival_points,
    trauma_fate,
)


@pytest.mark.parametrize(
    ("result", "fate"),
    [("victory", TraumaFate.HEAL), ("defeat", TraumaFate.PERMANENT)],
)
def test_it_heals_on_victory_and_makes_permanent_on_defeat(result, fate):
    """O6: "on victory a character's temporary traumas heal, on defeat they become
    permanent"."""
    assert trauma_fate(result) == fate


@pytest.mark.parametrize(
    ("result", "died", "rule", "points"),
    [
        ("victory", False, SurvivalRule(), 2),  # "+1 for surviving a chapter, +1 more"
        ("defeat", False, SurvivalRule(), 1),
        ("victory", True, SurvivalRule(), 0),  # our reading: the bonus is on top of surviving
        ("defeat", True, SurvivalRule(), 0),
        ("victory", False, SurvivalRule(survive=2, victory=3), 5),  # "unless the campaign sets"
        ("defeat", False, SurvivalRule(survive=0, victory=1), 0),
    ],
)
def test_it_counts_survival_points(result, died, rule, points):
    assert survival_points(result=result, died=died, rule=rule) == points


def test_it_refuses_a_result_that_is_neither():
    with pytest.raises(ValueError):
        trauma_fate("draw")
    with pytest.raises(ValueError):
        survival_points(result="draw", died=False)


@pytest.mark.parametrize(
    ("statistics", "total", "floored"),
    [
        ({}, 0, False),
        (
            {"chapters_played": 1, "chapters_survived": 1, "chapters_won": 1, "kills_total": 2},
            8,
            False,
        ),
        ({"chapters_played": 1, "deaths": 1}, 0, True),  # 1 - 3 is floored at 0
        (
            {"chapters_played": 3, "chapters_survived": 2, "traumas_permanent": 2, "deaths": 1},
            6,
            False,
        ),
    ],
)
def test_it_sums_reputation_with_its_breakdown(statistics, total, floored):
    result = reputation(statistics)
    assert (result.total, result.floored) == (total, floored)
    assert [t.statistic for t in result.terms] == [w.statistic for w in WEIGHTS]
    assert max(0, sum(t.points for t in result.terms)) == result.total
