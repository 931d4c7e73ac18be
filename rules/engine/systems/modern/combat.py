"""A shot or blow and its damage (Combat, Protections, Portées, PV, blessures et soins).

The attack is a test (skill_test) at the threshold the attitudes give, with the ammunition
dice the attitude allows, a disadvantage "par portée d'écart" from the weapon's reference
range. "A sa ou ses réussites, on retranche le cas échéant les réussites de protection dues
à l'attitude. S'il reste une réussite, on calcule les dégats en additionant les réussites
restantes + les dégats de l'arme. A cela on tire des dés de protection (gilet par balle)":
one die per vest class ("Habits renforcés 1" ... "classe IV 6"), "chaque réussite annule 1
point de dégat"; armour-piercing "ignore 1D de protection", subsonic "dégats -2"; buckshot
("chevrotine : portée courte toucher et dégats +1D. portée moyenne : toucher +1D dégats -1D
(dispersion) -1D. Protection doublée quelque soit la portée", its die a campaign setting
`buckshot_die`, d6 by default): one more die in the attack pool at short and medium range,
one die added to (short) or taken off (medium) the damage, the vest's dice doubled. Hit
points: "Arrivé à 0 PV, le PJ n'a plus d'actions. Dans les PV négatifs, toute autre blessure
entraine la mort"; "Etre blessé à plus de la moitié de ses PV" gives 1 stress.

Evaluate takes `dice` (and `forced_dice`) of the attack, `protection_dice` (the target's
attitude die, if any), `vest_dice` and `damage_die` (buckshot's damage die, when it has one).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.modern import skill_test
from rules.engine.systems.modern.attitudes import ammunition_dice, attack_threshold, protection_odds
from rules.engine.systems.modern.catalogue import Catalogue, load_catalogue
from rules.engine.systems.modern.common import chosen_settings, exact


@dataclass(frozen=True)
class Attack:
    test: skill_test.Test
    protection_die: int
    vest_dice: int
    vest_sides: int
    weapon_damage: int
    hp: int
    hp_max: int
    damage_die_sign: int = 0
    damage_die_sides: int = 0


def setup(data: Mapping[str, Any], catalogue: Catalogue) -> Attack:
    settings = chosen_settings(data, catalogue)
    attitude = inputs.choice(data, "attitude", catalogue.attitude_order, default="normal")
    target = inputs.choice(data, "target_attitude", catalogue.attitude_order, default="normal")
    threshold = attack_threshold(attitude, target, settings["threshold_combination"], catalogue)
    bands = catalogue.ranges
    offset = abs(
        bands.index(inputs.choice(data, "range", bands, default="short"))
        - bands.index(inputs.choice(data, "weapon_range", bands, default="short"))
    )
    rate = inputs.integer(data, "rate_of_fire", 0, 6, default=0)
    body = {**data, "disadvantage": inputs.integer(data, "disadvantage", 0, 5, default=0) + offset}
    protection = catalogue.protection
    ammo = protection["ammunition"][
        inputs.choice(data, "ammunition", tuple(protection["ammunition"]), default="standard")
    ]
    at_range = ammo.get("by_range", {}).get(inputs.choice(data, "range", bands, default="short"))
    at_range = at_range or {"hit_dice": 0, "damage_dice": 0}
    die = settings["buckshot_die"]
    test = skill_test.pool_from(
        body,
        catalogue,
        threshold=threshold,
        ammunition=ammunition_dice(attitude, rate, catalogue),
        extra_dice=(("buckshot", die),) * at_range["hit_dice"],
    )
    vest = protection["vests"][
        inputs.choice(data, "vest", tuple(protection["vests"]), default="none")
    ]
    hp_max = inputs.integer(data, "hp_max", 1, 100, default=10)
    return Attack(
        test=test,
        protection_die=catalogue.attitudes[target]["protection"],
        vest_dice=max(0, vest - ammo["ignore_protection_dice"]) * ammo.get("vest_multiplier", 1),
        vest_sides=settings["vest_die_sides"],
        weapon_damage=inputs.integer(data, "weapon_damage", 0, 20, default=0) + ammo["damage"],
        hp=inputs.integer(data, "hp", -100, 100, default=hp_max),
        hp_max=hp_max,
        damage_die_sign=at_range["damage_dice"],
        damage_die_sides=die if at_range["damage_dice"] else 0,
    )


def damage_of(remaining: int, vest_successes: int, attack: Attack, die: int = 0) -> int:
    """Remaining successes + weapon damage (+ or - buckshot's damage die) - vest successes."""
    if remaining < 1:
        return 0
    return max(0, remaining + attack.weapon_damage + attack.damage_die_sign * die - vest_successes)


def _damage_faces(attack: Attack) -> list[int]:
    return list(range(1, attack.damage_die_sides + 1)) if attack.damage_die_sides else [0]


def health(damage: int, attack: Attack) -> dict[str, Any]:
    after = attack.hp - damage
    return {
        "damage": damage,
        "hp": after,
        "dead": damage > 0 and attack.hp < 0,
        "out_of_action": after <= 0,
        "stress_from_wound": int(damage > 0 and after < attack.hp_max / 2 <= attack.hp),
    }


def _vest_odds(attack: Attack, catalogue: Catalogue) -> dict[int, Fraction]:
    one = protection_odds(attack.vest_sides, catalogue)
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(attack.vest_dice):
        nxt: dict[int, Fraction] = {}
        for a, pa in total.items():
            for b, pb in one.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + pa * pb
        total = nxt
    return total


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    attack = setup(data, catalogue)
    hits: dict[int, Fraction] = {}
    for (total, *_), p in skill_test.distribution(attack.test, catalogue).items():
        hits[total] = hits.get(total, Fraction(0)) + p
    shield = (
        protection_odds(attack.protection_die, catalogue)
        if attack.protection_die
        else {0: Fraction(1)}
    )
    vest = _vest_odds(attack, catalogue)
    faces = _damage_faces(attack)
    per_face = Fraction(1, len(faces))
    damage: dict[int, Fraction] = {}
    hit = Fraction(0)
    for got, p_got in hits.items():
        for saved, p_saved in shield.items():
            remaining = got - saved
            if remaining >= 1:
                hit += p_got * p_saved
            for stopped, p_stopped in vest.items():
                for face in faces:
                    d = damage_of(remaining, stopped, attack, face)
                    p = p_got * p_saved * p_stopped * per_face
                    damage[d] = damage.get(d, Fraction(0)) + p
    down = sum((p for d, p in damage.items() if health(d, attack)["out_of_action"]), Fraction(0))
    dead = sum((p for d, p in damage.items() if health(d, attack)["dead"]), Fraction(0))
    outcomes = {
        "hit": hit,
        "wounded": 1 - damage.get(0, Fraction(0)),
        "out_of_action": down,
        "dead": dead,
    }
    return {
        "threshold": attack.test.dice[0].threshold,
        "pool": [
            {"kind": d.kind, "sides": d.sides, "threshold": d.threshold} for d in attack.test.dice
        ],
        "protection_die": attack.protection_die,
        "vest_dice": attack.vest_dice,
        "damage_die": attack.damage_die_sign * attack.damage_die_sides,
        "outcomes": {k: float(v) for k, v in outcomes.items()},
        "outcomes_exact": {k: exact(v) for k, v in outcomes.items()},
        "damage": {str(k): float(v) for k, v in sorted(damage.items())},
    }


def _check(values: object, count: int, sides: int, field: str) -> list[int]:
    faces = list(values) if isinstance(values, list | tuple) else []
    if len(faces) != count or any(
        isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= sides for f in faces
    ):
        raise RuleInputError(field, f"{field}: {count} dice of {sides}", kind="faces", count=count)
    return faces


def _answer(
    rolled: dict[str, Any],
    shield: list[int],
    vest: list[int],
    attack: Attack,
    catalogue: Catalogue,
    damage_die: list[int],
) -> dict[str, Any]:
    threshold = catalogue.dice["threshold"]
    saved = sum(skill_test.successes(f, threshold, catalogue) for f in shield)
    stopped = sum(skill_test.successes(f, threshold, catalogue) for f in vest)
    remaining = rolled["successes"] - saved
    return {
        **rolled,
        "protection_dice": shield,
        "protection_successes": saved,
        "remaining_successes": max(0, remaining),
        "vest_dice": vest,
        "vest_successes": stopped,
        "damage_die": damage_die,
        **health(damage_of(remaining, stopped, attack, sum(damage_die)), attack),
    }


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    attack = setup(data, catalogue)
    rolled = skill_test.evaluate_test(data, attack.test, catalogue)
    shield = _check(
        data.get("protection_dice", []),
        1 if attack.protection_die else 0,
        attack.protection_die or 1,
        "protection_dice",
    )
    vest = _check(data.get("vest_dice", []), attack.vest_dice, attack.vest_sides, "vest_dice")
    damage_die = _check(
        data.get("damage_die", []),
        1 if attack.damage_die_sides else 0,
        attack.damage_die_sides or 1,
        "damage_die",
    )
    return _answer(rolled, shield, vest, attack, catalogue, damage_die)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    attack = setup(data, catalogue)
    rolled = skill_test.roll_test(rng, attack.test, catalogue)
    shield = [rng.randint(1, attack.protection_die)] if attack.protection_die else []
    vest = [rng.randint(1, attack.vest_sides) for _ in range(attack.vest_dice)]
    damage_die = [rng.randint(1, attack.damage_die_sides)] if attack.damage_die_sides else []
    answer = _answer(rolled, shield, vest, attack, catalogue, damage_die)
    answer["dice"] = [*rolled["dice"], *shield, *vest, *damage_die]
    return answer
