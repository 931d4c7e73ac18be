"""Sums of d6 as Corporates rolls them, with exact odds in whole-number weights.

A distribution here is `(weights, denominator)`: `weights[total]` ways out of `denominator`,
all integers, so convolving even twenty dice stays fast and exact (Fractions only at the end).

Firearm damage dice explode (Les dommages: "on rejette et ajoute chaque dé dont le résultat
est un 6"): an infinite distribution, cut here at a depth of sixes in a row chosen so that the
probability left out is below `MAX_DROPPED` (1e-9) for the whole pool; every answer says how
much it left out.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import cache

from rules.engine.dice import SIDES, DiceError
from rules.engine.errors import RuleInputError

MAX_DROPPED = Fraction(1, 10**9)
MAX_POOL = 20

Weights = dict[int, int]


def _convolve(a: Mapping[int, int], b: Mapping[int, int]) -> Weights:
    out: Weights = {}
    for x, wx in a.items():
        for y, wy in b.items():
            out[x + y] = out.get(x + y, 0) + wx * wy
    return out


@cache
def plain_sum(n: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """The sum of n d6: ((total, ways), ...) out of 6^n."""
    weights: Weights = {0: 1}
    for _ in range(n):
        weights = _convolve(weights, dict.fromkeys(range(1, SIDES + 1), 1))
    return tuple(sorted(weights.items())), SIDES**n


def exploding_depth(n: int) -> int:
    """The fewest sixes in a row kept per die so that n dice drop less than MAX_DROPPED:
    a die drops (1/6)^(depth+1), the pool at most n times that."""
    depth = 0
    while n * Fraction(1, SIDES ** (depth + 1)) >= MAX_DROPPED:
        depth += 1
    return depth


@cache
def exploding_sum(n: int) -> tuple[tuple[tuple[int, int], ...], int, Fraction]:
    """The sum of n exploding d6: ((total, ways), ...), the denominator, and the exact
    probability the cut leaves out (below MAX_DROPPED)."""
    depth = exploding_depth(n)
    # A die totalling 6j + r (r in 1..5) is j sixes then r: 6^(depth - j) ways out of 6^(depth+1).
    die = {SIDES * j + r: SIDES ** (depth - j) for j in range(depth + 1) for r in range(1, SIDES)}
    weights: Weights = {0: 1}
    for _ in range(n):
        weights = _convolve(weights, die)
    denominator = SIDES ** ((depth + 1) * n)
    dropped = 1 - Fraction(sum(weights.values()), denominator)
    return tuple(sorted(weights.items())), denominator, dropped


def at_least(n: int, needed: int) -> Fraction:
    """P(sum of n d6 >= needed)."""
    rows, denominator = plain_sum(n)
    return Fraction(sum(w for total, w in rows if total >= needed), denominator)


def margin_distribution(n: int, bonus: int, difficulty: int) -> dict[int, Fraction]:
    """P(result - difficulty = m) for n d6 + bonus."""
    rows, denominator = plain_sum(n)
    return {total + bonus - difficulty: Fraction(w, denominator) for total, w in rows}


def check_pool(dice: object, count: int, field: str = "dice") -> tuple[int, ...]:
    """Exactly `count` dice typed in, each 1 to 6."""
    values = tuple(dice) if isinstance(dice, list | tuple) else ()
    if len(values) != count or any(
        isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= SIDES for v in values
    ):
        raise RuleInputError(field, f"{field}: {count} dice from 1 to 6", kind="dice", count=count)
    return values


def check_exploding(dice: object, count: int, field: str) -> tuple[int, ...]:
    """`count` exploding dice as rolled: each 6 is followed by its extra die, so the faces
    that are not 6 number `count` and the last face is not a 6."""
    values = tuple(dice) if isinstance(dice, list | tuple) else ()
    try:
        if any(
            isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= SIDES for v in values
        ):
            raise DiceError("a die is 1 to 6")
        if sum(1 for v in values if v != SIDES) != count or (values and values[-1] == SIDES):
            raise DiceError("every six adds a die")
    except DiceError as exc:
        raise RuleInputError(field, f"{field}: {exc}", kind="exploding") from exc
    return values


def roll_pool(n: int, rng: random.Random) -> tuple[int, ...]:
    return tuple(rng.randint(1, SIDES) for _ in range(n))


def roll_exploding(n: int, rng: random.Random) -> tuple[int, ...]:
    faces: list[int] = []
    for _ in range(n):
        face = rng.randint(1, SIDES)
        faces.append(face)
        while face == SIDES:
            face = rng.randint(1, SIDES)
            faces.append(face)
    return tuple(faces)


def exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def shares(counts: Iterable[tuple[str, Fraction]]) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for key, p in counts:
        out[key] = out.get(key, Fraction(0)) + p
    return out


def outcome_answer(outcomes: Mapping[str, Fraction]) -> dict[str, object]:
    """The house's shape of an odds answer: floats to show, exact fractions to check."""
    return {
        "outcomes": {k: float(v) for k, v in outcomes.items()},
        "outcomes_exact": {k: exact(v) for k, v in outcomes.items()},
    }
