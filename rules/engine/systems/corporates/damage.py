"""Damage against soak (Les dommages) and how the levels split (Répartition des niveaux).

"l'attaquant effectue un jet de dégâts et le défenseur un jet d'encaissement ; Si le premier
est supérieur au second, alors le défenseur est blessé, il perd 1 niveau de dommages par
niveau de marge"; "Ce jet est augmenté d'1d pour chaque tranche de 10 points de marge du
score d'attaque"; "Les jets de dégâts des armes à feu ... on rejette et ajoute chaque dé dont
le résultat est un 6". The soak is "Encaissement + protection du personnage". What a level of
margin is, and where the odd level of a 50/50 weapon goes, are campaign settings
(`damage_points_per_level`, `odd_level_goes_to`).

Exploding damage is cut at a depth (pool.exploding_sum): the answer's `truncated` is the
probability left out, below 1e-9.

Input: `{"weapon": "bullet", "firearm": true, "damage_dice": 3, "damage_bonus": 2,
"attack_margin": 12, "soak_dice": 3, "soak_bonus": 4}` plus `"damage_rolled"` (exploding:
every 6 followed by its extra die) and `"soak_rolled"` for evaluate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.engine.systems.corporates import pool as p
from rules.engine.systems.corporates.catalogue import Catalogue, load_catalogue
from rules.engine.systems.corporates.common import chosen_settings
from rules.engine.systems.kolaps import inputs


@dataclass(frozen=True)
class Blow:
    weapon: str
    firearm: bool
    damage_dice: int
    damage_bonus: int
    soak_dice: int
    soak_bonus: int
    settings: Mapping[str, Any]


def levels_for(margin: int, points_per_level: int) -> int:
    """Damage levels for a margin: none unless damage beats soak, then one per level of
    margin started (setting `damage_points_per_level`)."""
    if margin <= 0:
        return 0
    return -(-margin // points_per_level)


def split(
    levels: int, weapon: str, settings: Mapping[str, Any], catalogue: Catalogue
) -> dict[str, int]:
    """Répartition: fatigue and wound levels of a blow by weapon type."""
    rule = catalogue.damage["split"][weapon]
    if not rule["fatigue"]:
        return {"fatigue": 0, "wound": levels}
    if not rule["wound"]:
        return {"fatigue": levels, "wound": 0}
    odd_to = settings["odd_level_goes_to"]
    if odd_to == "first_named":
        odd_to = rule["first"]
    half, odd = divmod(levels, 2)
    return {
        "fatigue": half + (odd if odd_to == "fatigue" else 0),
        "wound": half + (odd if odd_to == "wound" else 0),
    }


def setup(data: Mapping[str, Any], catalogue: Catalogue) -> Blow:
    per_die = catalogue.damage["margin_per_extra_die"]
    extra = inputs.integer(data, "attack_margin", 0, 200, default=0) // per_die
    return Blow(
        weapon=inputs.choice(data, "weapon", tuple(catalogue.damage["split"]), default="bullet"),
        firearm=inputs.flag(data, "firearm", default=True),
        damage_dice=inputs.integer(data, "damage_dice", 0, 12) + extra,
        damage_bonus=inputs.integer(data, "damage_bonus", -20, 50, default=0),
        soak_dice=inputs.integer(data, "soak_dice", 0, 12, default=0),
        soak_bonus=inputs.integer(data, "soak_bonus", -20, 60, default=0),
        settings=chosen_settings(data, catalogue),
    )


def outcome(damage: int, soak: int, blow: Blow, catalogue: Catalogue) -> dict[str, Any]:
    levels = levels_for(damage - soak, blow.settings["damage_points_per_level"])
    return {
        "damage": damage,
        "soak": soak,
        "levels": levels,
        **split(levels, blow.weapon, blow.settings, catalogue),
        "critical_roll": levels >= catalogue.damage["critical_from_levels"],
    }


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    blow = setup(data, catalogue)
    if blow.firearm and blow.damage_dice:
        damage_rows, damage_den, dropped = p.exploding_sum(blow.damage_dice)
    else:
        damage_rows, damage_den = p.plain_sum(blow.damage_dice)
        dropped = Fraction(0)
    soak_rows, soak_den = p.plain_sum(blow.soak_dice)
    per_level = blow.settings["damage_points_per_level"]
    counts: dict[int, int] = {}
    for damage, wd in damage_rows:
        for soak, ws in soak_rows:
            level = levels_for(damage + blow.damage_bonus - soak - blow.soak_bonus, per_level)
            counts[level] = counts.get(level, 0) + wd * ws
    denominator = damage_den * soak_den
    levels = {k: Fraction(v, denominator) for k, v in sorted(counts.items())}
    critical_from = catalogue.damage["critical_from_levels"]
    wounded = sum((v for k, v in levels.items() if k > 0), Fraction(0))
    critical = sum((v for k, v in levels.items() if k >= critical_from), Fraction(0))
    shown = _shown(levels)
    return {
        "damage_dice": blow.damage_dice,
        "exploding": blow.firearm,
        "levels": {k: float(v) for k, v in shown.items()},
        **p.outcome_answer({"wounded": wounded, "critical_roll": critical}),
        "split": {
            k: split(int(k.rstrip("+")), blow.weapon, blow.settings, catalogue) for k in shown
        },
        "truncated": float(dropped),
        "truncated_exact": p.exact(dropped),
    }


def _shown(levels: Mapping[int, Fraction]) -> dict[str, Fraction]:
    """The levels a player reads: each one while the rest of the tail is at least 1e-9, then
    that tail as one "k+" row (an exploding pool reaches dozens of levels at vanishing odds)."""
    shown: dict[str, Fraction] = {}
    tail = sum(levels.values(), Fraction(0))
    for k, chance in levels.items():
        if tail < p.MAX_DROPPED:
            shown[f"{k}+"] = tail
            break
        shown[str(k)] = chance
        tail -= chance
    return shown


def _answer(
    damage_dice: tuple[int, ...], soak_dice: tuple[int, ...], blow: Blow, catalogue: Catalogue
) -> dict[str, Any]:
    answer = outcome(
        sum(damage_dice) + blow.damage_bonus, sum(soak_dice) + blow.soak_bonus, blow, catalogue
    )
    return {
        **answer,
        "damage_rolled": list(damage_dice),
        "soak_rolled": list(soak_dice),
        "dice": [*damage_dice, *soak_dice],
    }


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    blow = setup(data, catalogue)
    if blow.firearm:
        damage = p.check_exploding(data.get("damage_rolled"), blow.damage_dice, "damage_rolled")
    else:
        damage = p.check_pool(data.get("damage_rolled"), blow.damage_dice, "damage_rolled")
    soak = p.check_pool(data.get("soak_rolled"), blow.soak_dice, "soak_rolled")
    return _answer(damage, soak, blow, catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    blow = setup(data, catalogue)
    damage = (p.roll_exploding if blow.firearm else p.roll_pool)(blow.damage_dice, rng)
    return _answer(damage, p.roll_pool(blow.soak_dice, rng), blow, catalogue)
