"""A melee blow (Le corps à corps): attack against the defence score, the dodge that may
replace it, special blows and charges.

"Calcul du score de défense": still or unaware, the campaign setting `immobile_defence`
(default 10); engaged, "Compétence de combat + Esquive + Bonus de défense des armes + Niveau
réflexes câblés"; fleeing, "Athlétisme". "Attaque : Compétence de combat + Modificateur de
l'arme blanche + Modificateur de situation" (+1 per assailant, +2 from above, +5 from behind,
-2 when the defender is above). "s'il dépasse le score de défense ... celui-ci doit réussir
un jet d'esquive"; the dodge "Si celui-ci est supérieur au score de défense ... il s'y
substitue": the blow lands when the attack beats the higher of the two. Coup en force: 1d
less to hit, damage + the skill level; attaque acrobatique: damage + acrobatics level;
"Frapper en pleine course augmente la difficulté pour touche de 3"; charges add damage
(3 on foot, 7 on horseback, 5 each when both charge on foot).

Input: see the registry's schema; evaluate takes `"dice"` (attack) and `"dodge_dice"`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.engine.systems.corporates import pool as p
from rules.engine.systems.corporates.catalogue import Catalogue, load_catalogue
from rules.engine.systems.corporates.common import Pool, action_pool, chosen_settings
from rules.engine.systems.kolaps import inputs

DEFENCES = ("immobile", "engaged", "fleeing")
SPECIALS = ("none", "forceful", "acrobatic")


@dataclass(frozen=True)
class Blow:
    attack: Pool
    situation: int
    defence: int
    dodge_dice: int
    dodge_bonus: int
    damage_bonus: int
    defender_damage_bonus: int
    special: str = "none"


def setup(data: Mapping[str, Any], catalogue: Catalogue) -> Blow:
    melee = catalogue.melee
    special = inputs.choice(data, "special", SPECIALS, default="none")
    forceful = melee["forceful_blow_malus_dice"] if special == "forceful" else 0
    attack = action_pool(data, catalogue, extra_malus=forceful)
    rules = melee["situation"]
    situation = (
        (inputs.integer(data, "assailants", 1, 10, default=1) - 1) * rules["per_extra_assailant"]
        + (rules["attacker_higher"] if inputs.flag(data, "attacker_higher") else 0)
        + (rules["defender_back"] if inputs.flag(data, "defender_back") else 0)
        + (rules["defender_higher"] if inputs.flag(data, "defender_higher") else 0)
    )
    kind = inputs.choice(data, "defence", DEFENCES, default="engaged")
    if kind == "immobile":
        defence = chosen_settings(data, catalogue)["immobile_defence"]
    elif kind == "fleeing":
        defence = inputs.integer(data, "athletics", 0, 30, default=0)
    else:
        defence = sum(
            inputs.integer(data, key, 0, 30, default=0)
            for key in ("combat_skill", "dodge_skill", "weapon_defence", "wired_reflexes")
        )
    if inputs.flag(data, "running"):
        defence += melee["running_difficulty"]
    dodge_bonus = inputs.integer(data, "dodge_bonus", -30, 40, default=0)
    if inputs.flag(data, "crouched"):
        dodge_bonus -= melee["crouched_dodge_malus"]
    if inputs.flag(data, "directed_dodge"):
        dodge_bonus -= melee["directed_dodge_malus"]
    skill = inputs.integer(data, "skill_level", 0, 20, default=0)
    acrobatics = inputs.integer(data, "acrobatics_level", 0, 20, default=0)
    charge = melee["charge"][inputs.choice(data, "charge", tuple(melee["charge"]), default="none")]
    damage_bonus = (
        charge["attacker"]
        + (skill if special == "forceful" else 0)
        + (acrobatics if special == "acrobatic" else 0)
    )
    return Blow(
        attack=attack,
        situation=situation,
        defence=defence,
        dodge_dice=inputs.integer(data, "dodge_pool", 0, p.MAX_POOL, default=0),
        dodge_bonus=dodge_bonus,
        damage_bonus=damage_bonus,
        defender_damage_bonus=charge["defender"],
        special=special,
    )


def outcome(attack: int, dodge: int | None, blow: Blow, catalogue: Catalogue) -> dict[str, Any]:
    against = blow.defence if dodge is None else max(blow.defence, dodge)
    hit = attack > against
    margin = attack - against
    return {
        "attack": attack,
        "defence": blow.defence,
        "dodge": dodge,
        "against": against,
        "hit": hit,
        "margin": margin,
        "extra_damage_dice": margin // catalogue.damage["margin_per_extra_die"] if hit else 0,
        "damage_bonus": blow.damage_bonus,
        "defender_damage_bonus": blow.defender_damage_bonus,
        **special_rolls(blow, catalogue),
    }


def special_rolls(blow: Blow, catalogue: Catalogue) -> dict[str, Any]:
    """What a special blow asks besides its attack: the forceful blow's fatigue roll ("le
    personnage doit réussir un jet de fatigue difficulté 15 ou perdre 1 niveau de fatigue"),
    the acrobatic attack's acrobatics roll first ("Le personnage doit réussir un jet
    d'acrobatie difficulté 15 ... S'il rate, il est déséquilibré et aura -1d supplémentaire
    jusqu'à la fin du tour"). Each is an action roll (`action`) against its difficulty."""
    melee = catalogue.melee
    if blow.special == "forceful":
        return {"fatigue_roll_difficulty": melee["forceful_fatigue_difficulty"]}
    if blow.special == "acrobatic":
        return {
            "acrobatics_roll_difficulty": melee["acrobatic_difficulty"],
            "acrobatics_failure_malus_dice": melee["acrobatic_failure_malus_dice"],
        }
    return {}


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    blow = setup(data, catalogue)
    a_rows, a_den = p.plain_sum(blow.attack.dice)
    d_rows, d_den = p.plain_sum(blow.dodge_dice)
    hit = 0
    for a, wa in a_rows:
        for d, wd in d_rows:
            dodge = d + blow.dodge_bonus if blow.dodge_dice else None
            if outcome(a + blow.attack.bonus + blow.situation, dodge, blow, catalogue)["hit"]:
                hit += wa * wd
    chance = Fraction(hit, a_den * d_den)
    return {
        **p.outcome_answer({"hit": chance, "miss": 1 - chance}),
        "dice_count": blow.attack.dice,
        "malus_dice": blow.attack.malus,
        "attack_bonus": blow.attack.bonus + blow.situation,
        "defence": blow.defence,
        "damage_bonus": blow.damage_bonus,
        **special_rolls(blow, catalogue),
    }


def _answer(
    attack: tuple[int, ...], dodge: tuple[int, ...], blow: Blow, catalogue: Catalogue
) -> dict[str, Any]:
    dodge_score = sum(dodge) + blow.dodge_bonus if blow.dodge_dice else None
    return {
        **outcome(sum(attack) + blow.attack.bonus + blow.situation, dodge_score, blow, catalogue),
        "attack_dice": list(attack),
        "dodge_dice": list(dodge),
        "dice": [*attack, *dodge],
    }


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    blow = setup(data, catalogue)
    attack = p.check_pool(data.get("dice"), blow.attack.dice)
    dodge = p.check_pool(data.get("dodge_dice", []), blow.dodge_dice, "dodge_dice")
    return _answer(attack, dodge, blow, catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    blow = setup(data, catalogue)
    return _answer(
        p.roll_pool(blow.attack.dice, rng), p.roll_pool(blow.dodge_dice, rng), blow, catalogue
    )
