"""The Of the Dead resolvers as the registry lists them (RULES-NOTES O2-O5): name,
summary, the passage, the input JSON schema, the three verbs (odds, evaluate, roll) and the
typed-dice fields.

Kept beside the rules so a resolver and its schema change together; `rules.engine.registry`
turns each entry into a `Resolver`.
"""

from __future__ import annotations

from typing import Any

from rules.engine.systems.of_the_dead import checks as otd_checks
from rules.engine.systems.of_the_dead import combat as otd_combat
from rules.engine.systems.of_the_dead import explosives as otd_explosives
from rules.engine.systems.of_the_dead import turn as otd_turn
from rules.engine.systems.of_the_dead.catalogue import COVERS as OTD_COVERS
from rules.engine.systems.of_the_dead.catalogue import MOVES as OTD_MOVES
from rules.engine.systems.of_the_dead.catalogue import PHASES as OTD_PHASES
from rules.engine.systems.of_the_dead.catalogue import RANGES as OTD_RANGES
from rules.engine.systems.of_the_dead.catalogue import SIZES as OTD_SIZES
from rules.engine.systems.of_the_dead.opposed import MAX_POOL as OTD_MAX_POOL
from rules.engine.systems.schema import faces, schema_object

_OTD_POOL = {"type": "integer", "minimum": 0, "maximum": OTD_MAX_POOL}
_OTD_MODIFIERS = {
    "type": "integer",
    "minimum": -OTD_MAX_POOL,
    "maximum": OTD_MAX_POOL,
    "default": 0,
}
_OTD_FLAG = {"type": "boolean", "default": False}
_OTD_COUNT = {"type": "integer", "minimum": 0, "maximum": 20, "default": 0}
_OTD_LIFE = {"type": "integer", "minimum": 1, "maximum": 60}


def _otd_fighter(attribute: str, *extra: str) -> dict[str, Any]:
    properties: dict[str, Any] = {
        attribute: _OTD_POOL,
        "modifiers": _OTD_MODIFIERS,
        "caution": {**_OTD_FLAG, "description": "discards a caution marker: one die succeeds"},
        "zeal": {**_OTD_FLAG, "description": "a zeal marker rerolls the worst die"},
        "surrounded_by": _OTD_COUNT,
        "life": _OTD_LIFE,
        "stealth": _OTD_FLAG,
        "panic": _OTD_COUNT,
        "stunned": _OTD_FLAG,
        "burning": _OTD_FLAG,
    }
    for name in extra:
        properties[name] = {"type": "string", "enum": list(OTD_COVERS), "default": "none"}
    return schema_object([attribute], properties)


_OTD_SIDE_DICE = {
    "attacker_dice": faces("the attacker's dice"),
    "attacker_reroll": faces("the attacker's zeal reroll (one die)"),
    "defender_dice": faces("the defender's dice"),
    "defender_reroll": faces("the defender's zeal reroll (one die)"),
}

_OTD_BRAWL_SCHEMA: dict[str, Any] = schema_object(
    ["attacker", "defender"],
    {
        "attacker": _otd_fighter("combat"),
        "defender": _otd_fighter("combat"),
        **_OTD_SIDE_DICE,
    },
)

_OTD_SHOT_SCHEMA: dict[str, Any] = schema_object(
    ["attacker", "defender"],
    {
        "attacker": _otd_fighter("combat"),
        "defender": _otd_fighter("reflexes", "cover"),
        "range": {"type": "string", "enum": list(OTD_RANGES), "default": "useful"},
        "into_melee": {**_OTD_FLAG, "description": "the target assails an ally"},
        "ally": schema_object(
            [], {"reflexes": _OTD_POOL, "modifiers": _OTD_MODIFIERS, "life": _OTD_LIFE}
        ),
        **_OTD_SIDE_DICE,
        "ally_dice": faces("the ally's Réflexes after a backfire into the melee"),
    },
)

_OTD_THROW_SCHEMA: dict[str, Any] = schema_object(
    ["thrower", "distance_cm"],
    {
        "thrower": schema_object(
            ["combat", "physique"],
            {
                "combat": _OTD_POOL,
                "physique": {"type": "integer", "minimum": 0, "maximum": 20},
                "modifiers": _OTD_MODIFIERS,
                "caution": _OTD_FLAG,
                "surrounded_by": _OTD_COUNT,
                "panic": _OTD_COUNT,
                "stunned": _OTD_FLAG,
            },
        ),
        "item": {"type": "string", "enum": list(otd_explosives.ITEMS), "default": "explosive"},
        "size": {"type": "string", "enum": list(OTD_SIZES)},
        "distance_cm": {"type": "number", "minimum": 0, "maximum": 300},
        "zone_modifiers": _OTD_MODIFIERS,
        "thrower_dice": faces("the thrower's dice"),
        "zone_dice": faces("the zone's dice: its steps and modifiers"),
        "scatter_die": faces("the D6 of steps a missed throw scatters"),
        "scatter_angle": {"type": "integer", "description": "evaluate only: read off the disc"},
    },
)

_OTD_BLAST_SCHEMA: dict[str, Any] = schema_object(
    ["fighter"],
    {
        "item": {"type": "string", "enum": list(otd_explosives.ITEMS), "default": "explosive"},
        "size": {"type": "string", "enum": list(OTD_SIZES)},
        "fighter": schema_object(
            [],
            {
                "reflexes": _OTD_POOL,
                "modifiers": _OTD_MODIFIERS,
                "caution": _OTD_FLAG,
                "life": _OTD_LIFE,
            },
        ),
        "roller_dice": faces("the fighter's Réflexes for the stumble or stun roll"),
        "against_dice": faces("the template's dice"),
    },
)

_OTD_CHECK_SCHEMA: dict[str, Any] = schema_object(
    ["kind", "attribute"],
    {
        "kind": {"type": "string", "enum": list(otd_checks.KINDS)},
        "attribute": {**_OTD_POOL, "description": "Réflexes, Moral or Combat, by kind"},
        "modifiers": _OTD_MODIFIERS,
        "caution": _OTD_FLAG,
        "difficulty": {**_OTD_POOL, "description": "the other side's dice"},
        "obstacle": {"type": "string", "enum": list(OTD_SIZES)},
        "roller_dice": faces("the roller's dice"),
        "against_dice": faces("the other side's dice"),
    },
)

_OTD_COMBATANT = schema_object(
    ["key", "life", "moral"],
    {
        "key": {"type": "string"},
        "team": {"type": "string", "default": "survivors"},
        "reflexes": {"type": "integer", "minimum": 0, "maximum": 20},
        "life": {"type": "integer", "minimum": 0, "maximum": 60},
        "moral": {"type": "integer", "minimum": 0, "maximum": 40},
        **{
            name: {"type": "integer", "minimum": 0, "maximum": 40, "default": 0}
            for name in ("panic", "stun", "noise", "zeal", "caution", "stealth", "sprint")
        },
        "bleeding_turns": {"type": "integer", "minimum": 0, "maximum": 10, "default": 0},
        **dict.fromkeys(("bleeding", "burning", "on_ground", "unconscious", "dead"), _OTD_FLAG),
    },
)
_OTD_COMBATANTS = {"type": "array", "minItems": 1, "maxItems": 60, "items": _OTD_COMBATANT}

_OTD_INITIATIVE_SCHEMA: dict[str, Any] = schema_object(
    ["combatants"],
    {
        "combatants": _OTD_COMBATANTS,
        "phase": {"type": "string", "enum": list(OTD_PHASES), "default": "action"},
        "tie_breaks": {
            "type": "object",
            "description": "key -> a die rolled to break a tie",
            "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 6},
        },
    },
)

_OTD_MOVEMENT_SCHEMA: dict[str, Any] = schema_object(
    ["combatant", "distance_cm"],
    {
        "combatant": _OTD_COMBATANT,
        "move": {"type": "string", "enum": list(OTD_MOVES), "default": "normal"},
        "distance_cm": {"type": "number", "minimum": 0, "maximum": 200},
    },
)

_OTD_WRAP_UP_SCHEMA: dict[str, Any] = schema_object(
    ["combatants"],
    {
        "combatants": _OTD_COMBATANTS,
        "treated": {
            "type": "array",
            "items": {"type": "string"},
            "description": "keys given first aid this turn",
        },
    },
)


# name, summary, reference, input schema, (odds, evaluate, roll), typed-dice fields.
ENTRIES: tuple[tuple[str, str, str, dict[str, Any], Any, tuple[str, ...]], ...] = (
    (
        "brawl",
        "A brawl: Combat against Combat, successes cancelling, criticals first.",
        "RULES-NOTES O2-O4; Bagarre",
        _OTD_BRAWL_SCHEMA,
        (otd_combat.brawl_odds, otd_combat.brawl_evaluate, otd_combat.brawl_roll),
        otd_combat.DICE_FIELDS,
    ),
    (
        "shot",
        "A shot: Combat against Réflexes, range and cover dice, a backfire into a melee.",
        "RULES-NOTES O2-O4; Tir, Modificateurs",
        _OTD_SHOT_SCHEMA,
        (otd_combat.shot_odds, otd_combat.shot_evaluate, otd_combat.shot_roll),
        otd_combat.DICE_FIELDS,
    ),
    (
        "throw",
        "An explosive or Molotov thrown: the zone's steps as dice, the scatter of a miss.",
        "RULES-NOTES O2-O4; Explosifs",
        _OTD_THROW_SCHEMA,
        (otd_explosives.throw_odds, otd_explosives.throw_evaluate, otd_explosives.throw_roll),
        (*otd_explosives.THROW_DICE_FIELDS, "scatter_angle"),
    ),
    (
        "blast",
        "A figure in a blast template: damage, then the stumble or stun roll; a Molotov's fire.",
        "Explosifs; Feu",
        _OTD_BLAST_SCHEMA,
        (otd_explosives.blast_odds, otd_explosives.blast_evaluate, otd_explosives.blast_roll),
        otd_explosives.BLAST_DICE_FIELDS,
    ),
    (
        "check",
        "A roll against dice: stumble, stun, encouragement (panic), evasion.",
        "RULES-NOTES O2-O4; Trébuchement, Panique, Mêlée",
        _OTD_CHECK_SCHEMA,
        (otd_checks.odds, otd_checks.evaluate, otd_checks.roll),
        otd_checks.DICE_FIELDS,
    ),
    (
        "initiative",
        "Initiative values and the order of a phase.",
        "RULES-NOTES O5",
        _OTD_INITIATIVE_SCHEMA,
        (otd_turn.initiative_odds, otd_turn.initiative_evaluate, otd_turn.initiative_roll),
        (),
    ),
    (
        "movement",
        "A move's allowance and the markers it lays.",
        "RULES-NOTES O5; Mouvements",
        _OTD_MOVEMENT_SCHEMA,
        (otd_turn.movement_odds, otd_turn.movement_evaluate, otd_turn.movement_roll),
        (),
    ),
    (
        "wrap_up",
        "The wrap-up phase: noise decay, stun countdown, bleeding and burning damage.",
        "RULES-NOTES O5; Phase de dénouement",
        _OTD_WRAP_UP_SCHEMA,
        (otd_turn.wrap_up_odds, otd_turn.wrap_up_evaluate, otd_turn.wrap_up_roll),
        (),
    ),
)
