"""The 666 of each affiliation (RULES-NOTES K5 and the affiliation annexes).

K5: "666: any roll of exactly three dice (3D6, or 3 dice kept best) all showing 6,
whatever the rank: the affiliation's 666 effect applies, besides the outcome." The
effects are the catalogue's `tables.follow_ups.six_six_six` (Annexe 1 and 2, "666"); the
Chrisme has no annex and so no effect. Input: `{"affiliation": "sheol", "in_combat": true}` plus
`"dice": [6, 6, 6]` for evaluate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.engine.dice import DiceError, check_dice, roll_d6
from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import consequences as c
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.ranged import AFFILIATIONS

DICE = 3
P_666 = Fraction(1, 6**DICE)


def effect(affiliation: str, in_combat: bool) -> dict[str, Any] | None:
    """What a 666 does for this affiliation, here: in combat the opponent is removed,
    elsewhere the roll counts as a critical success; gauges locked at 6."""
    rules = load_catalogue().tables.follow_ups.six_six_six.get(affiliation)
    if rules is None:
        return None
    return {
        "gauges_locked_at": rules["gauges_locked_at"],
        "result": rules["in_combat"] if in_combat else rules["otherwise"],
        "melee_wounds_one_level_worse": rules["melee_wounds_one_level_worse"],
        "ref": rules["ref"],
    }


def _setup(data: Mapping[str, Any]) -> tuple[str, bool]:
    return inputs.choice(data, "affiliation", AFFILIATIONS), inputs.flag(data, "in_combat")


def _judge(affiliation: str, in_combat: bool, dice: tuple[int, ...]) -> dict[str, Any]:
    happened = all(d == 6 for d in dice)
    return {
        "six_six_six": happened,
        "effect": effect(affiliation, in_combat) if happened else None,
        "dice": list(dice),
    }


def odds(data: Mapping[str, Any]) -> dict[str, Any]:
    affiliation, in_combat = _setup(data)
    return {
        "outcomes": {"six_six_six": float(P_666), "no_effect": float(1 - P_666)},
        "six_six_six_exact": c.exact(P_666),
        "effect": effect(affiliation, in_combat),
    }


def evaluate(data: Mapping[str, Any]) -> dict[str, Any]:
    affiliation, in_combat = _setup(data)
    try:
        dice = check_dice(data.get("dice") or (), DICE)
    except (DiceError, TypeError) as exc:
        raise RuleInputError("dice", str(exc), kind="dice", count=DICE) from exc
    return _judge(affiliation, in_combat, dice)


def roll(data: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    affiliation, in_combat = _setup(data)
    return _judge(affiliation, in_combat, roll_d6(DICE, rng))
