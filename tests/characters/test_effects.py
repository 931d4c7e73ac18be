"""The sheet's numbers, computed from scratch (RULES-NOTES O1)."""

import pytest

from rules.engine.systems.of_the_dead.effects import (
    creation_problems,
    effect_problems,
    sheet_numbers,
)

BASE = {"physique": 3, "psychique": 2, "reflexes": 2, "combat": 2}


def test_it_derives_life_markers_and_moral_as_twice_physique_and_psychique():
    """O1: "Life markers = 2 x Physique; Moral = 2 x Psychique." """
    numbers = sheet_numbers(BASE, [])
    assert (numbers.life_markers, numbers.moral) == (6, 4)


def test_it_counts_active_trauma_effects_and_never_goes_below_zero():
    numbers = sheet_numbers(BASE, [{"physique": -1}, None, {"psychique": -5}])
    assert numbers.attributes == {"physique": 2, "psychique": 0, "reflexes": 2, "combat": 2}
    assert (numbers.life_markers, numbers.moral) == (4, 0)


@pytest.mark.parametrize(
    ("attributes", "expected"),
    [
        (BASE, []),
        ({"physique": 6, "psychique": 1, "reflexes": 1, "combat": 1}, []),
        ({"physique": 0, "psychique": 3, "reflexes": 3, "combat": 3}, [("physique", "minimum")]),
        ({"physique": 3, "psychique": 3, "reflexes": 3, "combat": 3}, [(None, "total")]),
        (
            {"physique": 0, "psychique": 0, "reflexes": 4, "combat": 4},
            [("physique", "minimum"), ("psychique", "minimum"), (None, "total")],
        ),
    ],
)
def test_it_checks_nine_points_at_least_one_each(attributes, expected):
    """O1: "9 points at creation, at least 1 each." """
    assert [(p.field, p.code) for p in creation_problems(attributes)] == expected


@pytest.mark.parametrize(
    ("effect", "problem"),
    [
        (None, None),
        ({"physique": -1}, None),
        ({"combat": 1, "reflexes": -2}, None),
        ({}, "shape"),
        ([1], "shape"),
        ({"charisme": -1}, "attribute"),
        ({"physique": 0}, "change"),
        ({"physique": "-1"}, "change"),
        ({"physique": True}, "change"),
    ],
)
def test_it_accepts_only_attribute_changes_as_trauma_effects(effect, problem):
    assert effect_problems(effect) == problem
