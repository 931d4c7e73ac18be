"""The modern RPG resolvers as the registry lists them: name, summary, the passage, the
input JSON schema, the module with its odds / evaluate / roll, and the typed-dice fields."""

from __future__ import annotations

from typing import Any

from rules.engine.systems.modern import (
    attitudes,
    chase,
    chase_test,
    cold_blood,
    combat,
    healing,
    skill_test,
)
from rules.engine.systems.modern.catalogue import load_catalogue
from rules.engine.systems.schema import faces, object_with_settings, settings_schema
from rules.engine.systems.schema import integer as _int

_CATALOGUE = load_catalogue()
_SIDES = list(_CATALOGUE.dice["sides"])


def _enum(choices: Any, default: Any, description: str) -> dict[str, Any]:
    return {"enum": list(choices), "default": default, "description": description}


def _d12(description: str) -> dict[str, Any]:
    return faces(description, sides=12)


SETTINGS_SCHEMA = settings_schema(_CATALOGUE.settings)

POOL: dict[str, Any] = {
    "characteristic": _enum(_SIDES, 8, "the characteristic die"),
    "skill": _enum([0, *_SIDES], 0, "the skill die (0: untrained)"),
    "equipment_dice": _int(0, 4, "equipment dice", 0),
    "stress": _int(0, 12, "stress points (a d6 of stress each)", 0),
    "advantage": _int(0, 5, "advantages", 0),
    "disadvantage": _int(0, 5, "disadvantages", 0),
    "needed": _int(1, 10, "successes needed", 1),
    "force": {"type": "boolean", "default": False, "description": "force the test"},
    "dice": _d12("first roll, in pool order"),
    "forced_dice": _d12("the rerolled dice (neither 1 nor success), in pool order"),
}
ATTITUDE = _enum(_CATALOGUE.attitude_order, "normal", "attitude this round")


def _object(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return object_with_settings(required, properties, SETTINGS_SCHEMA)


ENTRIES: tuple[tuple[str, str, str, dict[str, Any], Any, tuple[str, ...]], ...] = (
    (
        "test",
        "A test: successes on 6+ (two on 10-12), critical 1s, forcing, stress dice.",
        "Actions; Avantages; Forcer le test; Stress",
        _object(
            ["characteristic"],
            {
                **POOL,
                "threshold": _int(2, 12, "success threshold", 6),
                "ammunition_dice": _int(0, 6, "ammunition d8s", 0),
                "risk_dice": _int(0, 6, "chase risk dice, played as stress dice", 0),
                "stress_threshold": _int(1, 24, "stress threshold (max of Empathie, Sang-froid)"),
            },
        ),
        skill_test,
        ("dice", "forced_dice"),
    ),
    (
        "cold_blood",
        "The cold-blood test under fire: steady, or 1 stress and take cover.",
        "Test de sang froid; Stress",
        _object(
            ["characteristic"],
            {
                **POOL,
                "empathie": _enum(_SIDES, 6, "Empathie die"),
                "sang_froid": _enum(_SIDES, 6, "Sang-froid die"),
            },
        ),
        cold_blood,
        ("dice", "forced_dice"),
    ),
    (
        "attitude",
        "An attitude's threshold, protection die, ammunition dice and initiative.",
        "Attitudes; Initiative",
        _object(
            [],
            {
                "attitude": ATTITUDE,
                "target_attitude": ATTITUDE,
                "rate_of_fire": _int(0, 10, "the weapon's rate of fire", 1),
                "melee": {"type": "boolean", "default": False},
                "dice": _d12("the target's protection die"),
            },
        ),
        attitudes,
        ("dice",),
    ),
    (
        "combat",
        "An attack: successes less attitude protection, weapon damage, vest dice, hit points.",
        "Combat; Protections; Portées; PV, blessures et soins",
        _object(
            ["characteristic"],
            {
                **POOL,
                "attitude": ATTITUDE,
                "target_attitude": ATTITUDE,
                "rate_of_fire": _int(0, 6, "ammunition dice wanted (rate of fire)", 0),
                "range": _enum(_CATALOGUE.ranges, "short", "range band of the target"),
                "weapon_range": _enum(_CATALOGUE.ranges, "short", "the weapon's reference range"),
                "weapon_damage": _int(0, 20, "the weapon's damage", 0),
                "ammunition": _enum(_CATALOGUE.protection["ammunition"], "standard", "ammunition"),
                "vest": _enum(_CATALOGUE.protection["vests"], "none", "the target's vest"),
                "hp": _int(-100, 100, "the target's hit points now"),
                "hp_max": _int(1, 100, "the target's hit points", 10),
                "protection_dice": _d12("the target's attitude protection die"),
                "vest_dice": _d12("the vest's dice"),
                "damage_die": _d12("buckshot's damage die (short or medium range)"),
            },
        ),
        combat,
        ("dice", "forced_dice", "protection_dice", "vest_dice", "damage_die"),
    ),
    (
        "healing",
        "A care test: hit points back per success, 1 lost on a critical failure.",
        "Soins",
        _object(
            ["characteristic"],
            {
                **POOL,
                "hp": _int(-100, 100, "hit points now", 0),
                "hp_max": _int(1, 100, "hit points", 10),
            },
        ),
        healing,
        ("dice", "forced_dice"),
    ),
    (
        "chase",
        "A chase round: starting lead by range band, the successes' difference, an event.",
        "Courses poursuites; Evenements à pied; Evenements sur la route",
        _object(
            [],
            {
                "terrain": _enum(chase.TERRAINS, "foot", "on foot or on the road"),
                "band": _enum(chase.bands(_CATALOGUE), "short", "starting range band"),
                "lead": _int(0, 200, "the lead now (default: the band's)"),
                "risk": _enum(_CATALOGUE.chase["risks"], "normal", "risk taken"),
                "round": _int(1, 200, "the round (a pedestrian's endurance test from round 2)", 1),
                "pursued_successes": _int(0, 40, "the pursued's successes", 0),
                "pursuer_successes": _int(0, 40, "the pursuer's successes", 0),
                "event": {"type": "string", "description": "evaluate only: the event's key"},
                "side_die": _int(1, 6, "evaluate only: d6 for 50/50 events (1-3 the pursued)"),
                "loss_die": _int(1, 8, "evaluate only: the 1D of range points lost"),
            },
        ),
        chase,
        ("event", "side_die", "loss_die"),
    ),
    (
        "chase_test",
        "A chase test: endurance from round 2, running or driving, risk, vehicle bonuses.",
        "Courses poursuites; Véhicules; Evenements sur la route",
        _object(
            ["characteristic"],
            {
                "mover": _enum(chase_test.MOVERS, "foot", "on foot or driving"),
                "round": _int(1, 200, "the round of the chase", 1),
                "risk": _enum(_CATALOGUE.chase["risks"], "normal", "risk taken this round"),
                "risk_dice": _int(0, 6, "risk dice, flat out only (played as stress dice)", 0),
                "endurance": _enum(_SIDES, 8, "a pedestrian's Endurance die"),
                "characteristic": POOL["characteristic"],
                "skill": POOL["skill"],
                "equipment_dice": POOL["equipment_dice"],
                "stress": POOL["stress"],
                "advantage": POOL["advantage"],
                "disadvantage": POOL["disadvantage"],
                "stretch": _enum(_CATALOGUE.chase["stretches"], "open", "the stretch of road"),
                "sport": _int(-3, 3, "the vehicle's sportivité", 0),
                "handling": _int(-3, 3, "the vehicle's maniabilité", 0),
                "on_two_wheels": {"type": "boolean", "default": False, "description": "2 wheels"},
                "opponent_two_wheels": {
                    "type": "boolean",
                    "default": False,
                    "description": "the other side is on two wheels too",
                },
                "endurance_dice": _d12("the endurance test (from round 2, unless careful)"),
                "dice": _d12("the running or driving test, in pool order"),
            },
        ),
        chase_test,
        ("endurance_dice", "dice"),
    ),
)
