"""Dice as the rule texts write them: parsing, exact distributions, seeded rolling.

Notation (RULES-NOTES K3): `D6` or `1D6` one die; `nD6` the sum of n dice; `nC6` roll n
dice and keep the best one; an integer is a constant (`0` is nothing); a per-range-band
list such as `4C6/3C6/2C6/D6/0` gives one expression per band (point blank / short /
effective / long / extreme). `D6!` is the exploding D6 of KOLAPS melee (K10): a 6 adds
another D6, again and again.

Distributions are exact: `dict[int, Fraction]`. The exploding die is infinite, so its
distribution is cut at a depth and `exploding_d6` says how much probability the cut drops
(below 1e-9 from depth 12 on). Rolling takes a `random.Random` from the caller: the rules
never choose their own randomness, so a recorded seed replays the same dice.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

SIDES = 6
BANDS = ("point_blank", "short", "effective", "long", "extreme")

Distribution = dict[int, Fraction]


class DiceError(ValueError):
    """A dice expression or a set of dice the rules cannot read."""


@dataclass(frozen=True)
class Dice:
    """`count` dice (sum, or keep the best when `keep_best`), or a constant when count is 0."""

    count: int = 0
    keep_best: bool = False
    constant: int = 0
    exploding: bool = False

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.constant)
        if self.exploding:
            return "D6!"
        letter = "C" if self.keep_best else "D"
        text = f"{self.count}{letter}6" if self.count > 1 or self.keep_best else "D6"
        return text + (f"+{self.constant}" if self.constant else "")


_TERM = re.compile(r"^(?:(\d*)([DC])6(!?)(?:\+(\d+))?|(-?\d+))$")


def parse(text: str) -> Dice:
    """Read one expression: `D6`, `1D6`, `3D6`, `2C6`, `D6+1`, `D6!`, `4`, `0`."""
    cleaned = text.strip().upper().replace(" ", "")
    match = _TERM.match(cleaned)
    if not match:
        raise DiceError(f"unreadable dice expression {text!r}")
    count, letter, bang, plus, constant = match.groups()
    if constant is not None:
        return Dice(constant=int(constant))
    n = int(count) if count else 1
    if n < 1:
        raise DiceError(f"no dice to roll in {text!r}")
    if letter == "C" and n < 2:
        raise DiceError(f"nC6 keeps the best of n dice, so n is 2 or more in {text!r}")
    if bang and (n != 1 or letter != "D"):
        raise DiceError(f"only a single D6 explodes, not {text!r}")
    return Dice(count=n, keep_best=letter == "C", constant=int(plus or 0), exploding=bool(bang))


def parse_bands(text: str) -> tuple[Dice, ...]:
    """A per-range-band list (K3): one expression per band, five bands; one value is all."""
    parts = text.split("/")
    if len(parts) == 1:
        return (parse(parts[0]),) * len(BANDS)
    if len(parts) != len(BANDS):
        raise DiceError(f"{text!r} gives {len(parts)} bands instead of {len(BANDS)}")
    return tuple(parse(part) for part in parts)


def _single() -> Distribution:
    return {face: Fraction(1, SIDES) for face in range(1, SIDES + 1)}


def _convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Distribution:
    out: Distribution = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return out


def best_of(n: int) -> Distribution:
    """P(max of n D6 = k) = (k^n - (k-1)^n) / 6^n."""
    total = SIDES**n
    return {k: Fraction(k**n - (k - 1) ** n, total) for k in range(1, SIDES + 1)}


def exploding_d6(depth: int = 12) -> tuple[Distribution, Fraction]:
    """The exploding D6 (K10) up to `depth` sixes in a row, and the probability left out.

    A total of 6j + r (r in 1..5) needs j sixes then r: probability (1/6)^(j+1). The cut
    drops the chains of more than `depth` sixes: (1/6)^(depth+1).
    """
    dist: Distribution = {}
    for sixes in range(depth + 1):
        for last in range(1, SIDES):
            dist[SIDES * sixes + last] = Fraction(1, SIDES ** (sixes + 1))
    return dist, Fraction(1, SIDES ** (depth + 1))


def distribution(dice: Dice | str, *, depth: int = 12) -> Distribution:
    """The exact distribution of an expression's total."""
    if isinstance(dice, str):
        dice = parse(dice)
    if dice.count == 0:
        base: Distribution = {0: Fraction(1)}
    elif dice.exploding:
        base = exploding_d6(depth)[0]
    elif dice.keep_best:
        base = best_of(dice.count)
    else:
        base = {0: Fraction(1)}
        for _ in range(dice.count):
            base = _convolve(base, _single())
    return {value + dice.constant: p for value, p in base.items()}


@dataclass(frozen=True)
class Rolled:
    """What a roll showed: every die, and the total the expression makes of them."""

    dice: tuple[int, ...]
    total: int


def roll(dice: Dice | str, rng: random.Random) -> Rolled:
    """Roll an expression with the caller's random source."""
    if isinstance(dice, str):
        dice = parse(dice)
    if dice.count == 0:
        return Rolled((), dice.constant)
    if dice.exploding:
        faces = [rng.randint(1, SIDES)]
        while faces[-1] == SIDES:
            faces.append(rng.randint(1, SIDES))
        return Rolled(tuple(faces), sum(faces) + dice.constant)
    faces = [rng.randint(1, SIDES) for _ in range(dice.count)]
    value = max(faces) if dice.keep_best else sum(faces)
    return Rolled(tuple(faces), value + dice.constant)


def roll_d6(n: int, rng: random.Random) -> tuple[int, ...]:
    """n plain dice, in the order rolled."""
    return tuple(rng.randint(1, SIDES) for _ in range(n))


def check_dice(dice: Iterable[object], count: int) -> tuple[int, ...]:
    """Dice typed in by players: exactly `count` whole numbers from 1 to 6."""
    values = tuple(dice)
    if len(values) != count:
        raise DiceError(f"expected {count} dice, got {len(values)}")
    checked: list[int] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= SIDES:
            raise DiceError(f"a die shows a whole number from 1 to 6, not {value!r}")
        checked.append(value)
    return tuple(checked)


def all_rolls(n: int) -> Iterable[tuple[int, ...]]:
    """Every ordered outcome of n dice (6^n of them): the brute force the odds answer to."""
    return itertools.product(range(1, SIDES + 1), repeat=n)
