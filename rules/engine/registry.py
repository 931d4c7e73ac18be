"""The registry of resolvers: what the rules API lists and runs.

A resolver answers three verbs over plain JSON-like data: `odds` (exact probabilities
before a roll), `evaluate` (dice the players rolled by hand), `roll` (dice rolled with the
caller's random source). Each declares the JSON schema of its input, so the API can
document it and a client can build its form.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from rules.engine.systems.corporates import resolvers as corporates_resolvers
from rules.engine.systems.kolaps import (
    at_the_table,
    death,
    end_phase,
    initial_morale,
    melee,
    next_attacker,
    ranged,
    six_six_six,
    talent_test,
    vigilance,
)
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.modern import resolvers as modern_resolvers
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
from rules.engine.systems.rapid40k.resolvers import SPECS as RAPID40K_SPECS

VERBS = ("odds", "evaluate", "roll")


@dataclass(frozen=True)
class Resolver:
    system: str
    name: str
    summary: str
    reference: str
    input_schema: Mapping[str, Any]
    odds: Callable[[Mapping[str, Any]], dict[str, Any]]
    evaluate: Callable[[Mapping[str, Any]], dict[str, Any]]
    roll: Callable[[Mapping[str, Any], random.Random], dict[str, Any]]
    # The fields that carry dice typed in by hand: evaluate reads them, a roll ignores them.
    dice_fields: tuple[str, ...] = ("dice",)


def _object(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema of an object with its required properties."""
    return {"type": "object", "required": required, "properties": properties}


def _exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


# --- kolaps/test ------------------------------------------------------------------------

_KOLAPS_TEST_SCHEMA: dict[str, Any] = _object(
    ["db", "rank"],
    {
        "db": {"type": "integer", "minimum": -20, "maximum": 30, "description": "difficulty"},
        "rank": {"type": "string", "enum": list(talent_test.rank_slugs())},
        "sante": {"type": "integer", "minimum": 1, "maximum": 6, "default": 6},
        "dice": {
            "type": "array",
            "items": {"type": "integer", "minimum": 1, "maximum": 6},
            "description": "evaluate only: db dice, or 2/3/4 when db is 0/-1/-2 or less",
        },
    },
)


def _kolaps_setup(data: Mapping[str, Any]) -> talent_test.TestSetup:
    return talent_test.setup(data.get("db"), data.get("rank"), data.get("sante", 6))


def _kolaps_result(test: talent_test.TestSetup, result: talent_test.TestResult) -> dict[str, Any]:
    out = asdict(result)
    out["dice"] = list(result.dice)
    out["keep_best"] = test.keep_best
    return out


def _kolaps_test_odds(data: Mapping[str, Any]) -> dict[str, Any]:
    # A fresh outer dict per call; the nested ones are shared by every caller of the
    # same setup and must not be changed (the API only renders them).
    return dict(_kolaps_test_odds_answer(_kolaps_setup(data)))


@lru_cache(maxsize=4096)
def _kolaps_test_odds_answer(test: talent_test.TestSetup) -> dict[str, Any]:
    """The odds of one setup as the API answers them, built once per setup (a few hundred
    setups exist): the calculator's most frequent request is a table lookup."""
    odds = talent_test.odds(test)
    return {
        "dice": test.dice_count,
        "keep_best": test.keep_best,
        "threshold": test.threshold,
        "effective_rank": test.numbers.ranks[test.effective_rank - 1],
        "outcomes": {k: float(v) for k, v in odds.outcomes.items()},
        "outcomes_exact": {k: _exact(v) for k, v in odds.outcomes.items()},
        "six_six_six": float(odds.six_six_six),
        "referent": {str(k): float(v) for k, v in odds.referent.items()},
    }


def _kolaps_test_evaluate(data: Mapping[str, Any]) -> dict[str, Any]:
    test = _kolaps_setup(data)
    return _kolaps_result(test, talent_test.evaluate(test, data.get("dice")))


def _kolaps_test_roll(data: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    test = _kolaps_setup(data)
    return _kolaps_result(test, talent_test.roll(test, rng))


# --- The other KOLAPS resolvers ---------------------------------------------------------------

_CATALOGUE = load_catalogue()
_RANKS = {"type": "string", "enum": list(talent_test.rank_slugs())}
_SANTE = {"type": "integer", "minimum": 1, "maximum": 6, "default": 6}
_GAUGE = {"type": "integer", "minimum": 1, "maximum": 6}
_AFFILIATION = {"type": "string", "enum": list(_CATALOGUE.affiliations)}
_TALENTS = {
    "type": "object",
    "description": "talent slug -> expertise level, as in the catalogue",
    "propertyNames": {"enum": sorted(_CATALOGUE.talents)},
    "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 3},
}
_ARMOUR = {"type": ["string", "null"], "enum": [*sorted(_CATALOGUE.armours), None]}
_TRAITS = {"type": "array", "items": {"enum": sorted(_CATALOGUE.veteran_traits)}}
_FACES = {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}}
# The follow-up rolls of an attack, named as the resolvers' `dice` input names them (the
# calculators show one field each).
FOLLOW_UPS = (
    "power_dice",
    "power_bonus_dice",
    "death_die",
    "incident_die",
    "attacker_death_die",
    "stray_die",
    "stray_death_die",
    "temper_die",
)


def _faces(description: str) -> dict[str, Any]:
    return {**_FACES, "description": f"evaluate only: {description}"}


_FOLLOW_UP_SCHEMA = {
    "dice": _faces("the attack dice (db dice, or 2/3/4 kept best at db 0/-1/-2)"),
    "power_dice": _faces("the weapon's power at the range band, on a success"),
    "power_bonus_dice": _faces("a talent's power bonus (Précision, Frénésie), on a success"),
    "death_die": _faces("the target's death roll, after a wound that calls for one"),
    "incident_die": _faces("the major incident's fresh D6 (K9)"),
    "attacker_death_die": _faces("the attacker's death roll after a major incident 1"),
    "stray_die": _faces("the stray shot's D6 after a miss into a melee"),
    "stray_death_die": _faces("the death roll of the shooter's ally a stray shot wounds"),
    "temper_die": _faces("the miss's D6 at threshold 3 (1 Moral lost below)"),
}

_RANGED_SCHEMA: dict[str, Any] = _object(
    ["attacker", "weapon", "distance_cm"],
    {
        "attacker": _object(
            ["rank"],
            {
                "rank": _RANKS,
                "sante": _SANTE,
                "affiliation": _AFFILIATION,
                "talents": _TALENTS,
                "armour": _ARMOUR,
                "traits": _TRAITS,
            },
        ),
        "weapon": {
            "type": "string",
            "enum": sorted(w.slug for w in _CATALOGUE.weapons.values() if w.kind == "ranged"),
        },
        "mode": {"type": ["string", "null"], "description": "a firing mode of the weapon"},
        "use": {"type": "array", "items": {"type": "string"}, "description": "talents used"},
        "equipment_db": {"type": "integer", "minimum": -10, "maximum": 10, "default": 0},
        "distance_cm": {"type": "number", "minimum": 0, "maximum": 1000},
        "melee_figures": {"type": "integer", "minimum": 0, "maximum": 20, "default": 0},
        "target_alone": {
            "type": "boolean",
            "default": False,
            "description": "K18: the target is the only figure of its unit (stray shot 2-3)",
        },
        "stray_ally": {
            "type": "object",
            "description": "the shooter's ally a stray shot on the shooter's side hits",
            "properties": {"sante": _SANTE, "talents": _TALENTS},
        },
        "target": {
            "type": "object",
            "properties": {
                "sante": _SANTE,
                "order": {"type": "string", "enum": list(ranged.ORDERS), "default": "movement"},
                "cover": {"type": "integer", "minimum": 0, "maximum": 4, "default": 0},
                "against_cover": {"type": "boolean", "default": False},
                "unconscious": {"type": "boolean", "default": False},
                "moved_cm": {"type": "number", "minimum": 0, "default": 0},
                "closing_in": {"type": "boolean", "default": False},
                "armour": _ARMOUR,
                "extra_protection": {"type": "integer", "minimum": 0, "maximum": 10},
                "talents": _TALENTS,
                "traits": _TRAITS,
            },
        },
        **_FOLLOW_UP_SCHEMA,
    },
)

_FIGHTER = _object(
    ["rank", "weapon"],
    {
        "rank": _RANKS,
        "sante": _SANTE,
        "affiliation": _AFFILIATION,
        "talents": _TALENTS,
        "charged": {"type": "boolean", "default": False},
        "weapon": {
            "type": "string",
            "enum": sorted(w.slug for w in _CATALOGUE.weapons.values() if w.kind == "melee"),
            "description": "a melee weapon; with armed_fist, a pistol",
        },
        "armed_fist": {
            "type": "boolean",
            "default": False,
            "description": "K18 armed fists: a pistol in melee (Poing armé)",
        },
        "armour": _ARMOUR,
        "use": {"type": "array", "items": {"type": "string"}},
        "traits": _TRAITS,
        "ablaze": {"type": "boolean", "default": False},
        "supports": {
            "type": "array",
            "maxItems": 10,
            "items": {
                "type": "object",
                "properties": {"charged": {"type": "boolean"}, "talents": _TALENTS},
            },
        },
    },
)

_MELEE_SCHEMA: dict[str, Any] = _object(
    ["a", "b"],
    {
        "a": _FIGHTER,
        "b": _FIGHTER,
        "a_dice": _faces("a's exploding D6 as rolled: sixes, then a die that is not a six"),
        "b_dice": _faces("b's exploding D6 as rolled"),
        **_FOLLOW_UP_SCHEMA,
    },
)

_DEATH_SCHEMA: dict[str, Any] = _object(
    ["wound"],
    {
        "sante": {**_SANTE, "description": "Santé before the wound"},
        "wound": {"type": "string", "enum": list(_CATALOGUE.tables.wounds.rows)},
        "talents": _TALENTS,
        "death_die": _faces("the death roll"),
    },
)

_INITIAL_MORALE_SCHEMA: dict[str, Any] = _object(
    ["rank"],
    {
        "rank": _RANKS,
        "avatar": {"type": "boolean", "default": False},
        "dice": _faces("one die"),
    },
)

_END_PHASE_SCHEMA: dict[str, Any] = _object(
    ["characters"],
    {
        "characters": {
            "type": "array",
            "minItems": 1,
            "maxItems": 50,
            "items": _object(
                ["rank", "sante", "souffle", "moral"],
                {
                    "name": {"type": "string"},
                    "rank": _RANKS,
                    "avatar": {"type": "boolean"},
                    "sante": _GAUGE,
                    "souffle": _GAUGE,
                    "moral": _GAUGE,
                    "healing": {"type": "integer", "minimum": 0, "maximum": 6},
                    "sante_lost": {"type": "integer", "minimum": 0, "maximum": 6},
                    "moral_changes": {"type": "integer", "minimum": -10, "maximum": 10},
                    "breath_spent": {"type": "boolean"},
                    "engaged": {"type": "boolean"},
                    "recovery": {"type": "boolean"},
                    "unconscious": {"type": "boolean"},
                    "frightened": {"type": "boolean"},
                },
            ),
        }
    },
)

_NEXT_ATTACKER_SCHEMA: dict[str, Any] = _object(
    ["sides", "previous"],
    {
        "sides": {
            "type": "object",
            "minProperties": 2,
            "additionalProperties": {
                "type": "array",
                "items": _object(
                    ["rank", "moral"],
                    {
                        "rank": _RANKS,
                        "moral": _GAUGE,
                        "revealed": {"type": "boolean", "default": True},
                    },
                ),
            },
        },
        "previous": {"type": "string", "description": "the side that attacked this turn"},
    },
)

_VIGILANCE_SCHEMA: dict[str, Any] = _object(
    ["rank", "target_rank"],
    {
        "rank": _RANKS,
        "level": {"type": "integer", "minimum": 0, "maximum": 3, "default": 0},
        "target_rank": _RANKS,
        "sante": _SANTE,
        "dice": _faces("the dice of the table's cell"),
    },
)

_SIX_SIX_SIX_SCHEMA: dict[str, Any] = _object(
    ["affiliation"],
    {
        "affiliation": _AFFILIATION,
        "in_combat": {"type": "boolean", "default": False},
        "dice": _faces("three dice"),
    },
)


def _kolaps(
    name: str,
    summary: str,
    reference: str,
    schema: dict[str, Any],
    module: Any,
    dice_fields: tuple[str, ...] = ("dice",),
) -> Resolver:
    return Resolver(
        system="kolaps",
        name=name,
        summary=summary,
        reference=reference,
        input_schema=schema,
        odds=module.odds,
        evaluate=module.evaluate,
        roll=module.roll,
        dice_fields=dice_fields,
    )


RESOLVERS: tuple[Resolver, ...] = (
    Resolver(
        system="kolaps",
        name="test",
        summary="A talent test: db dice against the threshold of the effective rank.",
        reference="RULES-NOTES K4, K5, K6",
        input_schema=_KOLAPS_TEST_SCHEMA,
        odds=_kolaps_test_odds,
        evaluate=_kolaps_test_evaluate,
        roll=_kolaps_test_roll,
    ),
    _kolaps(
        "ranged",
        "A shot: DB from every modifier, dice, damage table row, wound, death roll, incidents.",
        "RULES-NOTES K4-K9, K11; Tir dans une mêlée",
        _RANGED_SCHEMA,
        ranged,
        ("dice", *FOLLOW_UPS),
    ),
    _kolaps(
        "melee",
        "A melee: opposed exploding scores, then the attacker's roll and the melee table.",
        "RULES-NOTES K4-K10, K16",
        _MELEE_SCHEMA,
        melee,
        ("dice", "a_dice", "b_dice", *FOLLOW_UPS),
    ),
    _kolaps(
        "death",
        "A wound's Santé loss and death roll.",
        "RULES-NOTES K8",
        _DEATH_SCHEMA,
        death,
        ("death_die",),
    ),
    _kolaps(
        "initial_morale",
        "Starting Moral: 1D6 + rank number.",
        "RULES-NOTES K13",
        _INITIAL_MORALE_SCHEMA,
        initial_morale,
    ),
    _kolaps(
        "end_phase",
        "The end phase of a set of characters: breath, Moral, unconsciousness.",
        "RULES-NOTES K14",
        _END_PHASE_SCHEMA,
        end_phase,
    ),
    _kolaps(
        "next_attacker",
        "Which side attacks next turn.",
        "RULES-NOTES K15",
        _NEXT_ATTACKER_SCHEMA,
        next_attacker,
    ),
    _kolaps(
        "vigilance",
        "May a character intervene, by rank and Vigilance level.",
        "Intervention; Annexe 1, Vigilance",
        _VIGILANCE_SCHEMA,
        vigilance,
    ),
    _kolaps(
        "six_six_six",
        "The 666 of each affiliation.",
        "RULES-NOTES K5; annexes, 666",
        _SIX_SIX_SIX_SCHEMA,
        six_six_six,
    ),
    *(
        Resolver("rapid40k", name, summary, ref, schema, odds, evaluate, roll, dice_fields)
        for name, summary, ref, schema, odds, evaluate, roll, dice_fields in RAPID40K_SPECS
    ),
)


# --- KOLAPS at the table (RULES-NOTES K18) -----------------------------------------------------

_TABLE_ROLL_BASE = {"rank": _RANKS, "sante": _SANTE}


def _table_roll_schema(level: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return _object(
        ["rank"],
        {
            **_TABLE_ROLL_BASE,
            "level": level,
            **extra,
            "dice": _faces("the talent's dice"),
        },
    )


_LEVEL_0_3 = {"type": "integer", "minimum": 0, "maximum": 3, "default": 0}
_TABLE_RESOLVERS: tuple[Resolver, ...] = (
    Resolver(
        system="kolaps",
        name="shield",
        summary="The Bouclier roll: does the shield's protection count?",
        reference="RULES-NOTES K18; Annexe 1, Bouclier",
        input_schema=_table_roll_schema(_LEVEL_0_3),
        odds=at_the_table.shield_verbs[0],
        evaluate=at_the_table.shield_verbs[1],
        roll=at_the_table.shield_verbs[2],
    ),
    Resolver(
        system="kolaps",
        name="sonar",
        summary="The Sonar roll: find a hidden figure; a 1 reveals the vampire.",
        reference="RULES-NOTES K18; Annexe 2, Sonar",
        input_schema=_table_roll_schema(_LEVEL_0_3),
        odds=at_the_table.sonar_verbs[0],
        evaluate=at_the_table.sonar_verbs[1],
        roll=at_the_table.sonar_verbs[2],
    ),
    Resolver(
        system="kolaps",
        name="terreur",
        summary="The Terreur roll: dice by the target's Santé; the target is inert.",
        reference="RULES-NOTES K18; Annexe 2, Terreur 1-2",
        input_schema=_table_roll_schema(
            {"type": "integer", "minimum": 1, "maximum": 2, "default": 1},
            target_sante=_SANTE,
        ),
        odds=at_the_table.terreur_verbs[0],
        evaluate=at_the_table.terreur_verbs[1],
        roll=at_the_table.terreur_verbs[2],
    ),
    Resolver(
        system="kolaps",
        name="ralliement",
        summary="The Ralliement roll: Moral given back to a figure, or all within 40 cm.",
        reference="RULES-NOTES K18; Annexe 1, Ralliement 1-3",
        input_schema=_table_roll_schema({"type": "integer", "minimum": 1, "maximum": 3}),
        odds=at_the_table.ralliement_verbs[0],
        evaluate=at_the_table.ralliement_verbs[1],
        roll=at_the_table.ralliement_verbs[2],
    ),
    Resolver(
        system="kolaps",
        name="fall",
        summary="A fall: 1D6 at the threshold; a Novice's 1 is a light wound and a death roll.",
        reference="RULES-NOTES K18; Chutes",
        input_schema=_object(
            ["rank"],
            {**_TABLE_ROLL_BASE, "dice": _faces("one die"), "death_die": _faces("the death roll")},
        ),
        odds=at_the_table.fall_verbs[0],
        evaluate=at_the_table.fall_verbs[1],
        roll=at_the_table.fall_verbs[2],
        dice_fields=("dice", "death_die"),
    ),
    Resolver(
        system="kolaps",
        name="moral_effect",
        summary="The activation die of a Moral value (APC and Shéol tables).",
        reference="RULES-NOTES K18; Annexes 1 and 2, Moral",
        input_schema=_object(
            ["affiliation", "moral"],
            {
                "affiliation": {"type": "string", "enum": ["apc", "sheol"]},
                "moral": _GAUGE,
                "dice": _faces("one die"),
            },
        ),
        odds=at_the_table.moral_effect_odds,
        evaluate=at_the_table.moral_effect_evaluate,
        roll=at_the_table.moral_effect_roll,
    ),
    Resolver(
        system="kolaps",
        name="stray_shot",
        summary="A miss into a melee: whom the stray shot hits (the shooter's side if alone).",
        reference="RULES-NOTES K18; Tir dans une mêlée",
        input_schema=_object(
            [],
            {
                "target_alone": {"type": "boolean", "default": False},
                "stray_die": _faces("one die"),
            },
        ),
        odds=at_the_table.stray_shot_odds,
        evaluate=at_the_table.stray_shot_evaluate,
        roll=at_the_table.stray_shot_roll,
        dice_fields=("stray_die",),
    ),
    Resolver(
        system="kolaps",
        name="bookkeeping",
        summary="End-phase bookkeeping: event Moral, melee Souffle, regeneration, ground, fists.",
        reference="RULES-NOTES K18",
        input_schema=_object(
            ["rank"],
            {
                "rank": _RANKS,
                "avatar": {"type": "boolean", "default": False},
                "events": _object(
                    [],
                    {
                        name: {"type": "integer", "minimum": 0, "maximum": 20, "default": 0}
                        for name in at_the_table.EVENTS
                    },
                ),
                "melee_turn": {"type": "integer", "minimum": 0, "maximum": 50, "default": 0},
                "offensive": {"type": "boolean", "default": True},
                "talents": _TALENTS,
                "on_the_ground": {"type": "boolean", "default": False},
                "move_cm": {"type": "number", "minimum": 0, "maximum": 100, "default": 0},
                "weapon": {"type": "string", "description": "a pistol, for armed fists"},
            },
        ),
        odds=lambda data: {**at_the_table.bookkeeping_evaluate(data), "probability": 1.0},
        evaluate=at_the_table.bookkeeping_evaluate,
        roll=lambda data, rng: at_the_table.bookkeeping_evaluate(data),
        dice_fields=(),
    ),
)
RESOLVERS += _TABLE_RESOLVERS

# --- Of the Dead (RULES-NOTES O2-O5) ---------------------------------------------------------

OF_THE_DEAD = "of-the-dead"
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
    return _object([attribute], properties)


_OTD_SIDE_DICE = {
    "attacker_dice": _faces("the attacker's dice"),
    "attacker_reroll": _faces("the attacker's zeal reroll (one die)"),
    "defender_dice": _faces("the defender's dice"),
    "defender_reroll": _faces("the defender's zeal reroll (one die)"),
}

_OTD_BRAWL_SCHEMA: dict[str, Any] = _object(
    ["attacker", "defender"],
    {
        "attacker": _otd_fighter("combat"),
        "defender": _otd_fighter("combat"),
        **_OTD_SIDE_DICE,
    },
)

_OTD_SHOT_SCHEMA: dict[str, Any] = _object(
    ["attacker", "defender"],
    {
        "attacker": _otd_fighter("combat"),
        "defender": _otd_fighter("reflexes", "cover"),
        "range": {"type": "string", "enum": list(OTD_RANGES), "default": "useful"},
        "into_melee": {**_OTD_FLAG, "description": "the target assails an ally"},
        "ally": _object(
            [], {"reflexes": _OTD_POOL, "modifiers": _OTD_MODIFIERS, "life": _OTD_LIFE}
        ),
        **_OTD_SIDE_DICE,
        "ally_dice": _faces("the ally's Réflexes after a backfire into the melee"),
    },
)

_OTD_THROW_SCHEMA: dict[str, Any] = _object(
    ["thrower", "distance_cm"],
    {
        "thrower": _object(
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
        "thrower_dice": _faces("the thrower's dice"),
        "zone_dice": _faces("the zone's dice: its steps and modifiers"),
        "scatter_die": _faces("the D6 of steps a missed throw scatters"),
        "scatter_angle": {"type": "integer", "description": "evaluate only: read off the disc"},
    },
)

_OTD_BLAST_SCHEMA: dict[str, Any] = _object(
    ["fighter"],
    {
        "item": {"type": "string", "enum": list(otd_explosives.ITEMS), "default": "explosive"},
        "size": {"type": "string", "enum": list(OTD_SIZES)},
        "fighter": _object(
            [],
            {
                "reflexes": _OTD_POOL,
                "modifiers": _OTD_MODIFIERS,
                "caution": _OTD_FLAG,
                "life": _OTD_LIFE,
            },
        ),
        "roller_dice": _faces("the fighter's Réflexes for the stumble or stun roll"),
        "against_dice": _faces("the template's dice"),
    },
)

_OTD_CHECK_SCHEMA: dict[str, Any] = _object(
    ["kind", "attribute"],
    {
        "kind": {"type": "string", "enum": list(otd_checks.KINDS)},
        "attribute": {**_OTD_POOL, "description": "Réflexes, Moral or Combat, by kind"},
        "modifiers": _OTD_MODIFIERS,
        "caution": _OTD_FLAG,
        "difficulty": {**_OTD_POOL, "description": "the other side's dice"},
        "obstacle": {"type": "string", "enum": list(OTD_SIZES)},
        "roller_dice": _faces("the roller's dice"),
        "against_dice": _faces("the other side's dice"),
    },
)

_OTD_COMBATANT = _object(
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

_OTD_INITIATIVE_SCHEMA: dict[str, Any] = _object(
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

_OTD_MOVEMENT_SCHEMA: dict[str, Any] = _object(
    ["combatant", "distance_cm"],
    {
        "combatant": _OTD_COMBATANT,
        "move": {"type": "string", "enum": list(OTD_MOVES), "default": "normal"},
        "distance_cm": {"type": "number", "minimum": 0, "maximum": 200},
    },
)

_OTD_WRAP_UP_SCHEMA: dict[str, Any] = _object(
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


def _otd(
    name: str,
    summary: str,
    reference: str,
    schema: dict[str, Any],
    verbs: tuple[Any, Any, Any],
    dice_fields: tuple[str, ...] = (),
) -> Resolver:
    odds, evaluate, roll = verbs
    return Resolver(
        system=OF_THE_DEAD,
        name=name,
        summary=summary,
        reference=reference,
        input_schema=schema,
        odds=odds,
        evaluate=evaluate,
        roll=roll,
        dice_fields=dice_fields,
    )


RESOLVERS += (
    _otd(
        "brawl",
        "A brawl: Combat against Combat, successes cancelling, criticals first.",
        "RULES-NOTES O2-O4; Bagarre",
        _OTD_BRAWL_SCHEMA,
        (otd_combat.brawl_odds, otd_combat.brawl_evaluate, otd_combat.brawl_roll),
        otd_combat.DICE_FIELDS,
    ),
    _otd(
        "shot",
        "A shot: Combat against Réflexes, range and cover dice, a backfire into a melee.",
        "RULES-NOTES O2-O4; Tir, Modificateurs",
        _OTD_SHOT_SCHEMA,
        (otd_combat.shot_odds, otd_combat.shot_evaluate, otd_combat.shot_roll),
        otd_combat.DICE_FIELDS,
    ),
    _otd(
        "throw",
        "An explosive or Molotov thrown: the zone's steps as dice, the scatter of a miss.",
        "RULES-NOTES O2-O4; Explosifs",
        _OTD_THROW_SCHEMA,
        (otd_explosives.throw_odds, otd_explosives.throw_evaluate, otd_explosives.throw_roll),
        (*otd_explosives.THROW_DICE_FIELDS, "scatter_angle"),
    ),
    _otd(
        "blast",
        "A figure in a blast template: damage, then the stumble or stun roll; a Molotov's fire.",
        "Explosifs; Feu",
        _OTD_BLAST_SCHEMA,
        (otd_explosives.blast_odds, otd_explosives.blast_evaluate, otd_explosives.blast_roll),
        otd_explosives.BLAST_DICE_FIELDS,
    ),
    _otd(
        "check",
        "A roll against dice: stumble, stun, encouragement (panic), evasion.",
        "RULES-NOTES O2-O4; Trébuchement, Panique, Mêlée",
        _OTD_CHECK_SCHEMA,
        (otd_checks.odds, otd_checks.evaluate, otd_checks.roll),
        otd_checks.DICE_FIELDS,
    ),
    _otd(
        "initiative",
        "Initiative values and the order of a phase.",
        "RULES-NOTES O5",
        _OTD_INITIATIVE_SCHEMA,
        (otd_turn.initiative_odds, otd_turn.initiative_evaluate, otd_turn.initiative_roll),
    ),
    _otd(
        "movement",
        "A move's allowance and the markers it lays.",
        "RULES-NOTES O5; Mouvements",
        _OTD_MOVEMENT_SCHEMA,
        (otd_turn.movement_odds, otd_turn.movement_evaluate, otd_turn.movement_roll),
    ),
    _otd(
        "wrap_up",
        "The wrap-up phase: noise decay, stun countdown, bleeding and burning damage.",
        "RULES-NOTES O5; Phase de dénouement",
        _OTD_WRAP_UP_SCHEMA,
        (otd_turn.wrap_up_odds, otd_turn.wrap_up_evaluate, otd_turn.wrap_up_roll),
    ),
)


def _system_resolvers(system: str, entries: Any) -> tuple[Resolver, ...]:
    """A system's resolvers from its own module of entries (name, summary, reference,
    schema, module with odds / evaluate / roll, typed-dice fields)."""
    return tuple(
        Resolver(
            system=system,
            name=name,
            summary=summary,
            reference=reference,
            input_schema=schema,
            odds=module.odds,
            evaluate=module.evaluate,
            roll=module.roll,
            dice_fields=dice_fields,
        )
        for name, summary, reference, schema, module, dice_fields in entries
    )


RESOLVERS += _system_resolvers("corporates", corporates_resolvers.ENTRIES)
RESOLVERS += _system_resolvers("modern-rpg", modern_resolvers.ENTRIES)

_BY_KEY = {(r.system, r.name): r for r in RESOLVERS}


def resolver_get(system: str, name: str) -> Resolver | None:
    """The resolver of a system's slug; `of_the_dead` is also read as `of-the-dead`."""
    return _BY_KEY.get((system.replace("_", "-"), name))


def resolvers_of(system: str) -> list[Resolver]:
    return [r for r in RESOLVERS if r.system == system]
