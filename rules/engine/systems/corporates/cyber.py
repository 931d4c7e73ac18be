"""Damage to cybernetics (Dommages et Cybernétique): "il lance 1d100 et regarde le résultat
dans la table" (01-40 rien ... 97-100 autre), then "le joueur jette 1d6 + Niveau blessures
encaissés" (2-3 dégâts esthétiques ... 10+ équipement détruit) with the repair difficulty
"Cybernétique diff. 10 + k x Niv Blessures" (20 to remove a destroyed piece).

Input: `{"wound_levels": 2}` plus `"location_die": 57` (1-100) and `"dice": [4]` for evaluate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.corporates import pool as p
from rules.engine.systems.corporates.catalogue import Catalogue, band_of, load_catalogue
from rules.engine.systems.kolaps import inputs

PERCENT = 100


def effect(die: int, wound_levels: int, catalogue: Catalogue) -> dict[str, Any]:
    band = band_of(catalogue.cyber_effects, die + wound_levels)
    repair = band.row["repair_base"] + band.row["repair_per_level"] * wound_levels
    return {"effect": band.key, "repair_difficulty": repair}


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    levels = inputs.integer(data, "wound_levels", 0, 30)
    locations: dict[str, Fraction] = {}
    low = 1
    for band in catalogue.cyber_locations:
        high = band.at_most or PERCENT
        locations[band.key] = Fraction(high - low + 1, PERCENT)
        low = high + 1
    effects: dict[str, Fraction] = {}
    for die in range(1, 7):
        key = effect(die, levels, catalogue)["effect"]
        effects[key] = effects.get(key, Fraction(0)) + Fraction(1, 6)
    return {
        "locations": {k: float(v) for k, v in locations.items()},
        **p.outcome_answer(effects),
        "repair_difficulty": {
            band.key: band.row["repair_base"] + band.row["repair_per_level"] * levels
            for band in catalogue.cyber_effects
        },
    }


def _answer(
    location_die: int, dice: tuple[int, ...], levels: int, catalogue: Catalogue
) -> dict[str, Any]:
    location = band_of(catalogue.cyber_locations, location_die).key
    answer: dict[str, Any] = {
        "location_die": location_die,
        "location": location,
        "dice": list(dice),
    }
    if location != "nothing":
        answer.update(effect(dice[0], levels, catalogue))
    return answer


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    levels = inputs.integer(data, "wound_levels", 0, 30)
    die = data.get("location_die")
    if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= PERCENT:
        raise RuleInputError(
            "location_die", "a d100 from 1 to 100", kind="integer", lo=1, hi=PERCENT
        )
    return _answer(die, p.check_pool(data.get("dice"), 1), levels, catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    levels = inputs.integer(data, "wound_levels", 0, 30)
    return _answer(rng.randint(1, PERCENT), p.roll_pool(1, rng), levels, catalogue)
