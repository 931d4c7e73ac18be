"""The 666 of each affiliation (RULES-NOTES K5 and the affiliation annexes).

K5: "666: any roll of exactly three dice (3D6, or 3 dice kept best) all showing 6,
whatever the rank: the affiliation's 666 effect applies, besides the outcome." The dice
are the catalogue's `tables.roll_outcomes.six_six_six_dice`, the effects its
`tables.follow_ups.six_six_six` (Annexe 1 and 2, "666"); the Chrisme has no annex and so no
effect. Input: `{"affiliation": "sheol", "in_combat": true}` plus `"dice": [6, 6, 6]` for
evaluate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.engine.dice import SIDES, DiceError, check_dice, roll_d6
from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import consequences as c
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import Catalogue


def effect(
    affiliation: str, in_combat: bool, catalogue: Catalogue | None = None
) -> dict[str, Any] | None:
    """What a 666 does for this affiliation, here: in combat the opponent is removed,
    elsewhere the roll counts as a critical success; gauges locked at 6."""
    rules = (catalogue or load_catalogue()).tables.follow_ups.six_six_six.get(affiliation)
    if rules is None:
        return None
    return {
        "gauges_locked_at": rules["gauges_locked_at"],
        "result": rules["in_combat"] if in_combat else rules["otherwise"],
        "melee_wounds_one_level_worse": rules["melee_wounds_one_level_worse"],
        "ref": rules["ref"],
    }


def _setup(data: Mapping[str, Any], catalogue: Catalogue) -> tuple[str, bool, int]:
    affiliation = inputs.choice(data, "affiliation", tuple(catalogue.affiliations))
    dice = catalogue.tables.roll_outcomes.six_six_six_dice
    return affiliation, inputs.flag(data, "in_combat"), dice


def _judge(
    affiliation: str, in_combat: bool, dice: tuple[int, ...], catalogue: Catalogue
) -> dict[str, Any]:
    happened = all(d == SIDES for d in dice)
    return {
        "six_six_six": happened,
        "effect": effect(affiliation, in_combat, catalogue) if happened else None,
        "dice": list(dice),
    }


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    affiliation, in_combat, count = _setup(data, catalogue)
    p = Fraction(1, SIDES**count)
    return {
        "outcomes": {"six_six_six": float(p), "no_effect": float(1 - p)},
        "six_six_six_exact": c.exact(p),
        "effect": effect(affiliation, in_combat, catalogue),
    }


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    affiliation, in_combat, count = _setup(data, catalogue)
    try:
        dice = check_dice(data.get("dice") or (), count)
    except (DiceError, TypeError) as exc:
        raise RuleInputError("dice", str(exc), kind="dice", count=count) from exc
    return _judge(affiliation, in_combat, dice, catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    affiliation, in_combat, count = _setup(data, catalogue)
    return _judge(affiliation, in_combat, roll_d6(count, rng), catalogue)
