"""Dice expressions (RULES-NOTES K3) and their exact distributions."""

import random
from fractions import Fraction

import pytest

from rules.engine import dice
from rules.engine.dice import DiceError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("D6", dice.Dice(count=1)),
        ("1D6", dice.Dice(count=1)),
        ("3D6", dice.Dice(count=3)),
        ("2C6", dice.Dice(count=2, keep_best=True)),
        ("4c6", dice.Dice(count=4, keep_best=True)),
        ("D6+1", dice.Dice(count=1, constant=1)),
        ("D6!", dice.Dice(count=1, exploding=True)),
        ("2", dice.Dice(constant=2)),
        ("0", dice.Dice()),
    ],
)
def test_it_reads_the_notation_of_the_texts(text, expected):
    """K3: `D6` or `1D6` one die; `nC6` roll n dice and keep the best one; an integer is a
    constant; `0` nothing."""
    assert dice.parse(text) == expected


@pytest.mark.parametrize("text", ["", "D8", "C6x", "0D6", "2D6!", "six", "C6", "1C6"])
def test_it_refuses_what_it_cannot_read(text):
    with pytest.raises(DiceError):
        dice.parse(text)


def test_it_gives_one_power_per_range_band():
    """K3: `4C6/3C6/2C6/D6/0` gives one power per range band (point blank / short /
    effective / long / extreme)."""
    bands = dice.parse_bands("4C6/3C6/2C6/D6/0")
    assert [str(b) for b in bands] == ["4C6", "3C6", "2C6", "D6", "0"]
    assert dice.parse_bands("D6") == (dice.Dice(count=1),) * 5
    with pytest.raises(DiceError):
        dice.parse_bands("D6/2C6")


@pytest.mark.parametrize("text", ["D6", "3D6", "2C6", "4C6", "D6+2", "2"])
def test_it_matches_brute_force_enumeration(text):
    expr = dice.parse(text)
    counts: dict[int, int] = {}
    n = max(expr.count, 0)
    for faces in dice.all_rolls(n):
        value = (max(faces) if expr.keep_best else sum(faces)) if n else 0
        counts[value + expr.constant] = counts.get(value + expr.constant, 0) + 1
    expected = {v: Fraction(c, 6**n) for v, c in counts.items()}
    assert dice.distribution(expr) == expected


def test_it_keeps_the_exploding_die_error_below_a_billionth():
    """K10: a 6 adds another D6, again and again; exact odds may cap the explosions at a
    depth whose error stays below 1e-9."""
    dist, dropped = dice.exploding_d6(12)
    assert sum(dist.values()) + dropped == 1
    assert dropped < Fraction(1, 10**9)
    assert dist[6 + 3] == Fraction(1, 36)
    assert 6 not in dist and 12 not in dist  # a six always rolls on


def test_it_rolls_from_the_random_source_it_is_given():
    first = dice.roll("3D6", random.Random(42))
    again = dice.roll("3D6", random.Random(42))
    assert first == again
    assert first.total == sum(first.dice) and len(first.dice) == 3
    best = dice.roll("4C6", random.Random(7))
    assert best.total == max(best.dice)
    boom = dice.roll("D6!", random.Random(3))
    assert all(d == 6 for d in boom.dice[:-1]) and boom.dice[-1] != 6


@pytest.mark.parametrize(
    ("values", "count"), [([1, 2], 3), ([0, 2, 3], 3), ([7], 1), (["3"], 1), ([True], 1)]
)
def test_it_refuses_dice_no_die_could_show(values, count):
    with pytest.raises(DiceError):
        dice.check_dice(values, count)
