"""Action rolls (Les actions): a pool of d6 plus a bonus against a difficulty, the pool
losing 1d per declared action beyond the first and per undeclared action before it, never
below 1d (+1d per confidence point). The same roll serves as a reaction roll: "La marge
d'échec sera un malus au jet d'action, une marge d'échec de 10 ou plus pouvant signifier
l'absence de réaction sur le segment."

Input: `{"pool": 5, "bonus": 3, "difficulty": 15, "declared": 2, "undeclared_before": 0,
"double_action": false, "confidence": 0, "survival": false}` plus `"dice": [..]` (the pool
after its malus) for evaluate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.engine.systems.corporates import pool as p
from rules.engine.systems.corporates.catalogue import Catalogue, load_catalogue
from rules.engine.systems.corporates.common import (
    Pool,
    action_pool,
    chosen_settings,
    needed,
    succeeds,
)
from rules.engine.systems.kolaps import inputs


def _setup(data: Mapping[str, Any], catalogue: Catalogue) -> tuple[Pool, int, bool]:
    pool = action_pool(data, catalogue)
    difficulty = inputs.integer(data, "difficulty", 0, 100)
    return pool, difficulty, chosen_settings(data, catalogue)["tie_succeeds"]


def judge(result: int, difficulty: int, tie_succeeds: bool, catalogue: Catalogue) -> dict[str, Any]:
    """A result against its difficulty: success, margin, the extra damage dice ("1d tous
    les 10 points de marge") and, for a reaction roll, whether a failure by 10 or more
    loses the segment."""
    margin = result - difficulty
    success = succeeds(result, difficulty, tie_succeeds)
    per_die = catalogue.damage["margin_per_extra_die"]
    return {
        "result": result,
        "difficulty": difficulty,
        "success": success,
        "margin": margin,
        "extra_damage_dice": max(0, margin) // per_die if success else 0,
        "failure_margin": 0 if success else -margin,
        "reaction_lost": not success and -margin >= catalogue.actions["no_reaction_margin"],
    }


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    pool, difficulty, tie = _setup(data, catalogue)
    success = p.at_least(pool.dice, needed(difficulty, pool.bonus, tie))
    per_die = catalogue.damage["margin_per_extra_die"]
    extra: dict[str, Fraction] = {}
    for margin, chance in p.margin_distribution(pool.dice, pool.bonus, difficulty).items():
        if succeeds(margin + difficulty, difficulty, tie):
            key = str(max(0, margin) // per_die)
            extra[key] = extra.get(key, Fraction(0)) + chance
    return {
        **p.outcome_answer({"success": success, "failure": 1 - success}),
        "dice": pool.dice,
        "malus_dice": pool.malus,
        "bonus": pool.bonus,
        "difficulty": difficulty,
        "extra_damage_dice": {
            k: float(v) for k, v in sorted(extra.items(), key=lambda kv: int(kv[0]))
        },
    }


def _answer(
    pool: Pool, difficulty: int, tie: bool, dice: tuple[int, ...], catalogue: Catalogue
) -> dict[str, Any]:
    return {
        **judge(sum(dice) + pool.bonus, difficulty, tie, catalogue),
        "dice": list(dice),
        "malus_dice": pool.malus,
    }


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    pool, difficulty, tie = _setup(data, catalogue)
    return _answer(pool, difficulty, tie, p.check_pool(data.get("dice"), pool.dice), catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    pool, difficulty, tie = _setup(data, catalogue)
    return _answer(pool, difficulty, tie, p.roll_pool(pool.dice, rng), catalogue)
