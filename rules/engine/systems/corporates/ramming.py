"""The ramming charge (Charge et charge percutante): a charge that knocks the defender over.

"Un personnage peut aussi effectuer une charge percutante : Il charge son adversaire et le
bouscule dans le but de le faire tomber. Il effectue alors un jet de Corps à corps, auquel son
adversaire peut opposer son score de défense ou un jet d'esquive. S'il touche, on calcule les
dommages, en prenant en compte les bonus de charge. Si le défenseur reçoit un niveau de
dommages, il est déséquilibré (perte de la prochaine action), 2 niveaux il chute, 3 niveau il
est projeté en arrière et sonné. Les dommages réellement effectués sont réduits d'1."
"Si l'attaquant est d'un gabarit nettement inférieure au défenseur, alors le MJ peut demander
1 ou plusieurs niveaux de réussite supplémentaires avant de prendre en compte les effets de
la percussion" (`size_levels`). The attack is `melee`'s (defence or a higher dodge, charge
default on foot: +3 damage), the damage `damage`'s plain d6 against soak (+1d per 10 points of
attack margin), a level per `damage_points_per_level` of margin.

Evaluate takes `dice` (attack), `dodge_dice`, `damage_rolled` and `soak_rolled`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import Any

from rules.engine.systems.corporates import melee
from rules.engine.systems.corporates import pool as p
from rules.engine.systems.corporates.catalogue import Catalogue, load_catalogue
from rules.engine.systems.corporates.common import chosen_settings
from rules.engine.systems.corporates.damage import levels_for
from rules.engine.systems.kolaps import inputs


def _blow(data: Mapping[str, Any], catalogue: Catalogue) -> melee.Blow:
    return melee.setup({**data, "special": "none", "charge": data.get("charge", "foot")}, catalogue)


def _numbers(data: Mapping[str, Any], catalogue: Catalogue) -> dict[str, int]:
    return {
        "damage_dice": inputs.integer(data, "damage_dice", 0, 12, default=1),
        "damage_bonus": inputs.integer(data, "damage_bonus", -20, 50, default=0),
        "soak_dice": inputs.integer(data, "soak_dice", 0, 12, default=0),
        "soak_bonus": inputs.integer(data, "soak_bonus", -20, 60, default=0),
        "size_levels": inputs.integer(data, "size_levels", 0, 3, default=0),
        "per_level": chosen_settings(data, catalogue)["damage_points_per_level"],
    }


def effect(levels: int, size_levels: int, catalogue: Catalogue) -> str:
    table = catalogue.melee["ram"]["effects"]
    counted = levels - size_levels
    if counted <= 0:
        return "no_effect"
    return str(table[str(min(counted, max(int(k) for k in table)))])


def reading(levels: int, numbers: Mapping[str, int], catalogue: Catalogue) -> dict[str, Any]:
    reduction = catalogue.melee["ram"]["damage_reduction_levels"]
    return {
        "levels": levels,
        "key": effect(levels, numbers["size_levels"], catalogue),
        "levels_dealt": max(0, levels - reduction),
    }


@cache
def _levels(
    damage_dice: int, soak_dice: int, flat: int, per_level: int
) -> tuple[tuple[int, int], ...]:
    """Damage levels of `damage_dice` d6 + flat against `soak_dice` d6, as weights."""
    d_rows, _ = p.plain_sum(damage_dice)
    s_rows, _ = p.plain_sum(soak_dice)
    out: dict[int, int] = {}
    for d, wd in d_rows:
        for s, ws in s_rows:
            level = levels_for(d + flat - s, per_level)
            out[level] = out.get(level, 0) + wd * ws
    return tuple(sorted(out.items()))


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    blow = _blow(data, catalogue)
    numbers = _numbers(data, catalogue)
    flat = numbers["damage_bonus"] + blow.damage_bonus - numbers["soak_bonus"]
    a_rows, a_den = p.plain_sum(blow.attack.dice)
    d_rows, d_den = p.plain_sum(blow.dodge_dice)
    effects: dict[str, Fraction] = {"miss": Fraction(0)}
    dealt: dict[int, Fraction] = {}
    for a, wa in a_rows:
        for d, wd in d_rows:
            dodge = d + blow.dodge_bonus if blow.dodge_dice else None
            hit = melee.outcome(a + blow.attack.bonus + blow.situation, dodge, blow, catalogue)
            chance = Fraction(wa * wd, a_den * d_den)
            if not hit["hit"]:
                effects["miss"] += chance
                dealt[0] = dealt.get(0, Fraction(0)) + chance
                continue
            dice = numbers["damage_dice"] + hit["extra_damage_dice"]
            rows = _levels(dice, numbers["soak_dice"], flat, numbers["per_level"])
            denominator = 6 ** (dice + numbers["soak_dice"])
            for level, weight in rows:
                read = reading(level, numbers, catalogue)
                q = chance * Fraction(weight, denominator)
                effects[read["key"]] = effects.get(read["key"], Fraction(0)) + q
                dealt[read["levels_dealt"]] = dealt.get(read["levels_dealt"], Fraction(0)) + q
    return {
        **p.outcome_answer(effects),
        "levels_dealt": {str(k): float(v) for k, v in sorted(dealt.items())},
        "dice_count": blow.attack.dice,
        "malus_dice": blow.attack.malus,
        "defence": blow.defence,
        "damage_bonus": blow.damage_bonus,
    }


def _answer(
    attack: tuple[int, ...],
    dodge: tuple[int, ...],
    damage: tuple[int, ...] | None,
    soak: tuple[int, ...] | None,
    numbers: Mapping[str, int],
    blow: melee.Blow,
    catalogue: Catalogue,
) -> dict[str, Any]:
    dodge_score = sum(dodge) + blow.dodge_bonus if blow.dodge_dice else None
    hit = melee.outcome(
        sum(attack) + blow.attack.bonus + blow.situation, dodge_score, blow, catalogue
    )
    answer: dict[str, Any] = {
        **hit,
        "attack_dice": list(attack),
        "dodge_dice": list(dodge),
        "key": "miss",
        "levels": 0,
        "levels_dealt": 0,
        "dice": [*attack, *dodge],
    }
    if hit["hit"] and damage is not None and soak is not None:
        total = sum(damage) + numbers["damage_bonus"] + blow.damage_bonus
        against = sum(soak) + numbers["soak_bonus"]
        levels = levels_for(total - against, numbers["per_level"])
        answer.update(reading(levels, numbers, catalogue))
        answer.update(damage=total, soak=against, dice=[*attack, *dodge, *damage, *soak])
    return answer


def _damage_count(hit: Mapping[str, Any], numbers: Mapping[str, int]) -> int:
    return int(numbers["damage_dice"] + hit["extra_damage_dice"])


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    blow = _blow(data, catalogue)
    numbers = _numbers(data, catalogue)
    attack = p.check_pool(data.get("dice"), blow.attack.dice)
    dodge = p.check_pool(data.get("dodge_dice", []), blow.dodge_dice, "dodge_dice")
    dodge_score = sum(dodge) + blow.dodge_bonus if blow.dodge_dice else None
    hit = melee.outcome(
        sum(attack) + blow.attack.bonus + blow.situation, dodge_score, blow, catalogue
    )
    damage = soak = None
    if hit["hit"] and data.get("damage_rolled") is None:
        # The blow lands: its damage is rolled next.
        return {
            **_answer(attack, dodge, None, None, numbers, blow, catalogue),
            "key": "damage_to_roll",
        }
    if hit["hit"]:
        damage = p.check_pool(
            data.get("damage_rolled"), _damage_count(hit, numbers), "damage_rolled"
        )
        soak = p.check_pool(data.get("soak_rolled", []), numbers["soak_dice"], "soak_rolled")
    return _answer(attack, dodge, damage, soak, numbers, blow, catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    blow = _blow(data, catalogue)
    numbers = _numbers(data, catalogue)
    attack = p.roll_pool(blow.attack.dice, rng)
    dodge = p.roll_pool(blow.dodge_dice, rng)
    dodge_score = sum(dodge) + blow.dodge_bonus if blow.dodge_dice else None
    hit = melee.outcome(
        sum(attack) + blow.attack.bonus + blow.situation, dodge_score, blow, catalogue
    )
    damage = soak = None
    if hit["hit"]:
        damage = p.roll_pool(_damage_count(hit, numbers), rng)
        soak = p.roll_pool(numbers["soak_dice"], rng)
    return _answer(attack, dodge, damage, soak, numbers, blow, catalogue)
