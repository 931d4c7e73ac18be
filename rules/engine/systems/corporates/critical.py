"""Critical wounds (Dommages critiques): "Lorsqu'un personnage reçoit 3 niveaux de dommages
ou plus d'un seul coup ... Il lance 2d6 + Niveaux de blessures et consulte la table" ("≤5
Rien" ... "19+ ... Le personnage meurt sur le coup"). Which levels the roll adds is the
campaign setting `critical_adds` (default: the wound levels of that blow).

Input: `{"damage_levels": 4, "wound_levels": 4}` plus `"dice": [a, b]` for evaluate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.engine.systems.corporates import pool as p
from rules.engine.systems.corporates.catalogue import Catalogue, band_of, load_catalogue
from rules.engine.systems.corporates.common import chosen_settings
from rules.engine.systems.kolaps import inputs

DICE = 2  # "Il lance 2d6"


def _setup(data: Mapping[str, Any], catalogue: Catalogue) -> tuple[int, int]:
    damage_levels = inputs.integer(data, "damage_levels", 0, 30)
    wound_levels = inputs.integer(data, "wound_levels", 0, 30, default=damage_levels)
    adds = chosen_settings(data, catalogue)["critical_adds"]
    return damage_levels, wound_levels if adds == "wound_levels_of_the_blow" else damage_levels


def row_for(total: int, catalogue: Catalogue) -> dict[str, Any]:
    band = band_of(catalogue.criticals, total)
    return {"key": band.key, "text": band.row["text"]}


def _applies(damage_levels: int, catalogue: Catalogue) -> bool:
    threshold: int = catalogue.damage["critical_from_levels"]
    return damage_levels >= threshold


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    damage_levels, added = _setup(data, catalogue)
    if not _applies(damage_levels, catalogue):
        return {**p.outcome_answer({"no_roll": Fraction(1)}), "applies": False}
    rows, denominator = p.plain_sum(DICE)
    counts: dict[str, Fraction] = {}
    for total, ways in rows:
        key = row_for(total + added, catalogue)["key"]
        counts[key] = counts.get(key, Fraction(0)) + Fraction(ways, denominator)
    return {**p.outcome_answer(counts), "applies": True, "adds": added}


def _answer(
    damage_levels: int, added: int, dice: tuple[int, ...], catalogue: Catalogue
) -> dict[str, Any]:
    if not _applies(damage_levels, catalogue):
        return {"applies": False, "dice": []}
    total = sum(dice) + added
    return {"applies": True, "total": total, **row_for(total, catalogue), "dice": list(dice)}


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    damage_levels, added = _setup(data, catalogue)
    dice = p.check_pool(data.get("dice"), DICE) if _applies(damage_levels, catalogue) else ()
    return _answer(damage_levels, added, dice, catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    damage_levels, added = _setup(data, catalogue)
    dice = p.roll_pool(DICE, rng) if _applies(damage_levels, catalogue) else ()
    return _answer(damage_levels, added, dice, catalogue)
