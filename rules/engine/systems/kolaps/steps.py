"""Where a resolution's dice come from: typed in by players, or rolled by the server.

A combat resolution needs several rolls one after the other (the attack dice, then maybe
the weapon power, a death roll, an incident die...), and which ones depends on the dice
before. Each resolver walks its steps once, asking a `DiceSource` for each roll by name:

- `GivenDice` reads them from the request (`evaluate`); a roll the players have not typed
  yet stops the walk with `Pending`, and the answer says which roll to make next;
- `RolledDice` rolls them with the caller's random source (`roll`).

Both record what they handed out, so `evaluate` fed with the dice a `roll` used gives the
same answer: one walk, two sources (`verbs` makes both verbs of a walk). A resolver with no
dice answers its three verbs alike (`certain`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from rules.engine.dice import SIDES, Dice, DiceError, check_dice, roll_d6
from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps.catalogue_records import Catalogue

Answer = dict[str, Any]
Walk = Callable[[Mapping[str, Any], "DiceSource", Catalogue | None], Answer]
Evaluate = Callable[[Mapping[str, Any], Catalogue | None], Answer]
Roll = Callable[[Mapping[str, Any], random.Random, Catalogue | None], Answer]


class Pending(Exception):
    """The walk needs a roll the players have not typed yet."""

    def __init__(self, field: str, dice: Dice) -> None:
        super().__init__(field)
        self.field = field
        self.dice = dice


class DiceSource:
    def __init__(self) -> None:
        self.used: dict[str, list[int]] = {}

    def take(self, field: str, dice: Dice) -> tuple[int, ...]:
        """The faces of the roll `field` of `dice` (none for a constant)."""
        if dice.count == 0:
            return ()
        faces = self._faces(field, dice)
        self.used[field] = list(faces)
        return faces

    def _faces(self, field: str, dice: Dice) -> tuple[int, ...]:
        raise NotImplementedError


def total(dice: Dice, faces: tuple[int, ...]) -> int:
    """What an expression makes of its faces: the sum, or the best when kept best."""
    if dice.count == 0:
        return dice.constant
    value = max(faces) if dice.keep_best else sum(faces)
    return value + dice.constant


class RolledDice(DiceSource):
    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def _faces(self, field: str, dice: Dice) -> tuple[int, ...]:
        if dice.exploding:
            faces = [self.rng.randint(1, SIDES)]
            while faces[-1] == SIDES:
                faces.append(self.rng.randint(1, SIDES))
            return tuple(faces)
        return roll_d6(dice.count, self.rng)


class GivenDice(DiceSource):
    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__()
        self.data = data

    def _faces(self, field: str, dice: Dice) -> tuple[int, ...]:
        value = self.data.get(field)
        if value is None:
            raise Pending(field, dice)
        if not isinstance(value, list | tuple):
            raise RuleInputError(field, f"{field} is a list of dice", kind="dice")
        if dice.exploding:
            return _exploding(field, value)
        try:
            return check_dice(value, dice.count)
        except DiceError as exc:
            raise RuleInputError(field, str(exc), kind="dice", count=dice.count) from exc


def _exploding(field: str, value: list[Any] | tuple[Any, ...]) -> tuple[int, ...]:
    """An exploding D6 as rolled (K10): sixes, then one die that is not a six."""
    try:
        faces = check_dice(value, len(value))
    except DiceError as exc:
        raise RuleInputError(field, str(exc), kind="exploding") from exc
    if not faces or faces[-1] == SIDES or any(face != SIDES for face in faces[:-1]):
        raise RuleInputError(
            field, f"{field}: every 6 adds a die, and the last die is not a 6", kind="exploding"
        )
    return faces


def verbs(walk: Walk) -> tuple[Evaluate, Roll]:
    """`evaluate` (dice typed in by players) and `roll` (dice rolled with the caller's random
    source) of one walk through a resolution; each takes the catalogue to read (the current
    one when None)."""

    def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> Answer:
        return walk(data, GivenDice(data), catalogue)

    def roll(
        data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
    ) -> Answer:
        return walk(data, RolledDice(rng), catalogue)

    return evaluate, roll


def certain(evaluate: Evaluate) -> tuple[Evaluate, Roll]:
    """`odds` and `roll` of a resolver with no dice: `evaluate`'s answer, certain."""

    def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> Answer:
        return {**evaluate(data, catalogue), "probability": 1.0}

    def roll(
        data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
    ) -> Answer:
        return evaluate(data, catalogue)

    return odds, roll
