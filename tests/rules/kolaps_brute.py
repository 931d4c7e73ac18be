"""Brute force for the KOLAPS resolvers: walk every possible roll, one by one.

A scripted dice source hands out the faces of one branch; when the walk asks for a roll
the script has not decided, every possible face of that roll becomes a branch of its own,
with its exact probability. The odds a resolver computes by counting must equal the sums
over these branches.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from rules.engine.dice import Dice
from rules.engine.systems.kolaps.steps import DiceSource


class _Branch(Exception):
    def __init__(self, dice: Dice) -> None:
        self.dice = dice


class Scripted(DiceSource):
    def __init__(self, script: tuple[tuple[int, ...], ...]) -> None:
        super().__init__()
        self.script = script
        self.index = 0

    def _faces(self, field: str, dice: Dice) -> tuple[int, ...]:
        if self.index < len(self.script):
            self.index += 1
            return self.script[self.index - 1]
        raise _Branch(dice)


def faces_of(dice: Dice, depth: int) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    if dice.exploding:
        for sixes in range(depth + 1):
            for last in range(1, 6):
                yield (6,) * sixes + (last,), Fraction(1, 6 ** (sixes + 1))
        return
    for faces in itertools.product(range(1, 7), repeat=dice.count):
        yield faces, Fraction(1, 6**dice.count)


def every_roll(
    run: Callable[[DiceSource], dict[str, Any]], depth: int = 1
) -> Iterator[tuple[Fraction, dict[str, Any]]]:
    """(probability, answer) of every branch; exploding dice cut after `depth` sixes."""
    stack: list[tuple[tuple[tuple[int, ...], ...], Fraction]] = [((), Fraction(1))]
    while stack:
        script, p = stack.pop()
        try:
            answer = run(Scripted(script))
        except _Branch as branch:
            for faces, q in faces_of(branch.dice, depth):
                stack.append(((*script, faces), p * q))
            continue
        yield p, answer
