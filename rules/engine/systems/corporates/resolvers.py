"""The Corporates resolvers as the registry lists them: name, summary, the passage, the
input JSON schema, the module with its odds / evaluate / roll, and the typed-dice fields.

Kept beside the rules so a resolver and its schema change together; `rules.engine.registry`
turns each entry into a `Resolver`.
"""

from __future__ import annotations

from typing import Any

from rules.engine.systems.corporates import (
    actions,
    covering_fire,
    critical,
    cyber,
    damage,
    melee,
    ramming,
    reaction,
    schedule,
    shot,
    takedown,
)
from rules.engine.systems.corporates.catalogue import load_catalogue
from rules.engine.systems.corporates.pool import MAX_POOL
from rules.engine.systems.schema import faces, object_with_settings, settings_schema
from rules.engine.systems.schema import integer as _int

_CATALOGUE = load_catalogue()


def _enum(choices: Any, default: str, description: str) -> dict[str, Any]:
    return {"type": "string", "enum": list(choices), "default": default, "description": description}


def _flag(description: str) -> dict[str, Any]:
    return {"type": "boolean", "default": False, "description": description}


SETTINGS_SCHEMA = settings_schema(_CATALOGUE.settings)

POOL: dict[str, Any] = {
    "pool": _int(1, MAX_POOL, "dice of the skill before malus"),
    "bonus": _int(-50, 50, "flat bonus added to the dice", 0),
    "declared": _int(1, 5, "declared actions this turn (-1d each beyond the first)", 1),
    "undeclared_before": _int(0, 10, "undeclared actions already made this turn (-1d each)", 0),
    "double_action": _flag("a double action (-1d)"),
    "confidence": _int(0, 5, "confidence points spent (+1d to the 1d floor each)", 0),
    "survival": _flag("in survival mode (counts as 5 declared actions)"),
}


def _object(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return object_with_settings(required, properties, SETTINGS_SCHEMA)


SHOT = _CATALOGUE.shot

MELEE_DEFENCE: dict[str, Any] = {
    "assailants": _int(1, 10, "assailants the defender faces", 1),
    "attacker_higher": _flag("the attacker is above"),
    "defender_back": _flag("the defender shows his back"),
    "defender_higher": _flag("the defender is above"),
    "defence": _enum(melee.DEFENCES, "engaged", "the defender's situation"),
    "combat_skill": _int(0, 30, "defender's combat skill", 0),
    "dodge_skill": _int(0, 30, "defender's dodge", 0),
    "weapon_defence": _int(0, 30, "defender's weapon defence bonus", 0),
    "wired_reflexes": _int(0, 30, "defender's wired reflexes level", 0),
    "athletics": _int(0, 30, "a fleeing defender's athletics", 0),
    "running": _flag("the attacker strikes while running (+3)"),
    "dodge_pool": _int(0, MAX_POOL, "defender's dodge dice (0: no dodge)", 0),
    "dodge_bonus": _int(-30, 40, "flat dodge bonus", 0),
    "crouched": _flag("the defender is crouched or down (-5 dodge)"),
    "directed_dodge": _flag("a directed dodge (-5)"),
}

ENTRIES: tuple[tuple[str, str, str, dict[str, Any], Any, tuple[str, ...]], ...] = (
    (
        "action",
        "An action or reaction roll: d6 pool less its malus dice, against a difficulty.",
        "Les actions; Les actions déclarées; Les actions non déclarées",
        _object(
            ["pool", "difficulty"],
            {
                **POOL,
                "difficulty": _int(0, 100, "difficulty"),
                "dice": faces("the pool after its malus"),
            },
        ),
        actions,
        ("dice",),
    ),
    (
        "reaction",
        "Opposed reaction rolls: who organises the segment (by 5 or more).",
        "Priorité des actions",
        _object(
            ["a_pool", "b_pool"],
            {
                "a_pool": _int(1, MAX_POOL, "first character's reaction dice"),
                "a_bonus": _int(-50, 50, "first character's bonus", 0),
                "b_pool": _int(1, MAX_POOL, "second character's reaction dice"),
                "b_bonus": _int(-50, 50, "second character's bonus", 0),
                "a_dice": faces("first character's dice"),
                "b_dice": faces("second character's dice"),
            },
        ),
        reaction,
        ("a_dice", "b_dice"),
    ),
    (
        "schedule",
        "The declared-action schedule of a turn: who acts in which segment, with what malus.",
        "Répartition des actions dans le tour; Le mode Survie",
        _object(
            ["characters"],
            {
                "characters": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 30,
                    "items": {
                        "type": "object",
                        "required": ["declared"],
                        "properties": {
                            "name": {"type": "string"},
                            "declared": _int(1, 5, "declared actions"),
                            "delays": {
                                "type": "object",
                                "description": "action number -> segments it is delayed",
                                "additionalProperties": {"type": "integer", "minimum": 0},
                            },
                            "survival_from": _int(1, 5, "segment survival mode starts"),
                            "undeclared": {"type": "array", "items": _int(1, 5, "segment")},
                        },
                    },
                }
            },
        ),
        schedule,
        (),
    ),
    (
        "shot",
        "A shot: difficulty from range and every modifier, the roll, burst hits, cover.",
        "Les tirs; Taille et mouvement de la cible; Se protéger; Autres modificateurs",
        _object(
            ["pool", "range"],
            {
                **POOL,
                "range": _enum(SHOT["range_base"], "short", "range band"),
                "distance_m": {"type": "number", "minimum": 0, "maximum": 5000, "default": 10},
                "shot_type": _enum(shot.SHOT_TYPES, "standard", "standard, snap or aimed"),
                "snap_malus": _int(0, 30, "the weapon's snap-shot malus", 0),
                "reflex": _enum(shot.REFLEX, "none", "a reflex-shot reaction roll was asked"),
                "reflex_failure_margin": _int(0, 60, "how much that reaction roll failed by", 0),
                "reflex_place": _enum(shot.REFLEX_PLACES, "usual", "where the target appears"),
                "on_guard_vigilance": _int(0, 20, "the shooter's vigilance when on guard", 0),
                "draw": _enum(shot.DRAWS, "none", "draw and shoot from"),
                "stance": _enum(shot.STANCES, "standing", "aimed shot stance"),
                "aim_actions": _int(0, 10, "successful aiming actions", 0),
                "aim_cap": _int(0, 30, "weapon score or sight bonus capping the aim", 30),
                "size": _enum(SHOT["size"], "standing", "visible surface of the target"),
                "movement": _enum(SHOT["movement"], "still", "target movement"),
                "combat_movement_feint": _int(0, 20, "target's feint level in combat movement", 0),
                "fall_segment": _int(0, 60, "segments the target has been falling", 0),
                "engaged_participants": _int(0, 20, "people in the melee the target is in", 0),
                "crowd": _enum(SHOT["crowd"], "none", "crowd density"),
                "unshouldered": _flag("a shoulder arm fired without shouldering"),
                "visibility": _enum(SHOT["visibility_divisor"], "normal", "visibility"),
                "perception": _int(1, 20, "the shooter's Pe", 3),
                "night_sight": _enum(SHOT["night_sight_dice"], "none", "night sight system"),
                "burst": _enum(shot.BURSTS, "none", "burst fired"),
                "burst_bonus": _int(0, 20, "the weapon's burst bonus", 0),
                "cover": {"enum": [*SHOT["protection"], None], "default": None},
                "cover_armour": _int(0, 30, "armour of a car door or car", 0),
                "other_modifier": _int(-30, 30, "any other modifier", 0),
                "dice": faces("the pool after its malus"),
            },
        ),
        shot,
        ("dice",),
    ),
    (
        "damage",
        "Damage against soak: exploding firearm dice, levels, fatigue and wound split.",
        "Les dommages; Répartition des niveaux de dommages",
        _object(
            ["damage_dice"],
            {
                "weapon": _enum(_CATALOGUE.damage["split"], "bullet", "weapon or ammunition type"),
                "firearm": {"type": "boolean", "default": True, "description": "dice explode on 6"},
                "damage_dice": _int(0, 12, "damage dice of the weapon"),
                "damage_bonus": _int(-20, 50, "flat damage bonus (ammunition, strength ...)", 0),
                "attack_margin": _int(0, 200, "margin of the attack (+1d per 10)", 0),
                "soak_dice": _int(0, 12, "soak dice", 0),
                "soak_bonus": _int(-20, 60, "protection and other flat soak", 0),
                "damage_rolled": faces("damage dice as rolled, each 6 followed by its extra die"),
                "soak_rolled": faces("soak dice"),
            },
        ),
        damage,
        ("damage_rolled", "soak_rolled"),
    ),
    (
        "covering_fire",
        "Covering fire: fire power, ammunition, penalties, forced dodge and bullets that hit.",
        "Le tir de couverture",
        _object(
            ["firearm_level"],
            {
                "firearm_level": _int(0, 20, "the shooter's firearm level"),
                "weapons": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 2,
                    "items": {"enum": list(_CATALOGUE.burst["fire_bonus"])},
                    "default": ["single"],
                },
                "metres": _int(0, 50, "width covered in metres", 0),
                "under_fire": _flag("the shooter is under fire this turn"),
                "seconds": _int(1, 25, "seconds of fire", 1),
                "target_feint": _int(0, 30, "the mover's feint level", 0),
                "target_protection": _int(0, 60, "the mover's protection", 0),
                "dice": faces("the d6 chain: rolled again after each 1"),
            },
        ),
        covering_fire,
        ("dice",),
    ),
    (
        "melee",
        "A melee blow: attack against defence or dodge, special blows, charges.",
        "Le corps à corps; Coups spéciaux; Charge et charge percutante",
        _object(
            ["pool"],
            {
                **POOL,
                **MELEE_DEFENCE,
                "special": _enum(melee.SPECIALS, "none", "special blow"),
                "skill_level": _int(0, 20, "the skill of a forceful blow", 0),
                "acrobatics_level": _int(0, 20, "acrobatics of an acrobatic attack", 0),
                "charge": _enum(_CATALOGUE.melee["charge"], "none", "charge"),
                "dice": faces("attack dice"),
                "dodge_dice": faces("dodge dice"),
            },
        ),
        melee,
        ("dice", "dodge_dice"),
    ),
    (
        "critical",
        "A critical wound: 2d6 + levels on the table, from 3 levels in one blow.",
        "Dommages critiques; Blessures critiques",
        _object(
            ["damage_levels"],
            {
                "damage_levels": _int(0, 30, "damage levels of the blow"),
                "wound_levels": _int(0, 30, "wound levels of the blow (default: all of them)"),
                "dice": faces("two dice"),
            },
        ),
        critical,
        ("dice",),
    ),
    (
        "cyber",
        "Damage to cybernetics: d100 location, d6 + wound levels, repair difficulty.",
        "Dommages et Cybernétique",
        _object(
            ["wound_levels"],
            {
                "wound_levels": _int(0, 30, "wound levels taken"),
                "location_die": _int(1, 100, "evaluate only: the d100"),
                "dice": faces("one d6"),
            },
        ),
        cyber,
        ("location_die", "dice"),
    ),
    (
        "takedown",
        "Trip (agility or strength) or hold after a blow lands: the opposed roll's levels.",
        "Coups spéciaux: Faire tomber, Immobiliser, Projeter",
        _object(
            ["attacker_pool", "defender_pool"],
            {
                "kind": _enum(takedown.KINDS, "trip_agility", "the opposed roll"),
                "attacker_pool": _int(1, MAX_POOL, "attacker's characteristic dice"),
                "attacker_bonus": _int(-20, 40, "attacker's other characteristic (bonus)", 0),
                "defender_pool": _int(1, MAX_POOL, "defender's characteristic dice"),
                "defender_bonus": _int(-20, 40, "defender's other characteristic (bonus)", 0),
                "attack_margin": _int(0, 200, "the attack's margin (+1d per 10 to trip)", 0),
                "attacker_too_light": _flag("the attacker weighs half the defender or less"),
                "attacker_dice": faces("attacker's dice"),
                "defender_dice": faces("defender's dice"),
            },
        ),
        takedown,
        ("attacker_dice", "defender_dice"),
    ),
    (
        "ramming",
        "A ramming charge: the blow, its damage with the charge bonus, knocked off balance.",
        "Charge et charge percutante",
        _object(
            ["pool"],
            {
                **POOL,
                **MELEE_DEFENCE,
                "charge": _enum(_CATALOGUE.melee["charge"], "foot", "charge"),
                "damage_dice": _int(0, 12, "damage dice", 1),
                "damage_bonus": _int(-20, 50, "flat damage bonus (charge bonus added)", 0),
                "soak_dice": _int(0, 12, "defender's soak dice", 0),
                "soak_bonus": _int(-20, 60, "defender's protection and flat soak", 0),
                "size_levels": _int(0, 3, "extra levels a much smaller attacker needs", 0),
                "dice": faces("attack dice"),
                "dodge_dice": faces("dodge dice"),
                "damage_rolled": faces("damage dice (when the blow lands)"),
                "soak_rolled": faces("soak dice (when the blow lands)"),
            },
        ),
        ramming,
        ("dice", "dodge_dice", "damage_rolled", "soak_rolled"),
    ),
)
