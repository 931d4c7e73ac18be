"""The KOLAPS resolvers as the registry lists them: name, summary, the passage, the input
JSON schema, the verbs (a module with its odds / evaluate / roll, or the three functions),
and the typed-dice fields.

Kept beside the rules so a resolver and its schema change together; `rules.engine.registry`
turns each entry into a `Resolver`. `ENTRIES` are the calculators' resolvers,
`TABLE_ENTRIES` the rolls made at the table (RULES-NOTES K18).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import asdict
from fractions import Fraction
from functools import lru_cache
from typing import Any

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


def _object(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema of an object with its required properties (`systems.schema`'s, which
    the KOLAPS rules cannot import: the open settings read KOLAPS's inputs)."""
    return {"type": "object", "required": required, "properties": properties}


def _faces(description: str) -> dict[str, Any]:
    """Dice given rather than rolled (`evaluate`), each a D6."""
    items = {"type": "integer", "minimum": 1, "maximum": 6}
    return {"type": "array", "items": items, "description": f"evaluate only: {description}"}


# An entry: name, summary, reference, input schema, verbs, typed-dice fields.
Entry = tuple[str, str, str, dict[str, Any], Any, tuple[str, ...]]


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


ENTRIES: tuple[Entry, ...] = (
    (
        "test",
        "A talent test: db dice against the threshold of the effective rank.",
        "RULES-NOTES K4, K5, K6",
        _KOLAPS_TEST_SCHEMA,
        (_kolaps_test_odds, _kolaps_test_evaluate, _kolaps_test_roll),
        ("dice",),
    ),
    (
        "ranged",
        "A shot: DB from every modifier, dice, damage table row, wound, death roll, incidents.",
        "RULES-NOTES K4-K9, K11; Tir dans une mêlée",
        _RANGED_SCHEMA,
        ranged,
        ("dice", *FOLLOW_UPS),
    ),
    (
        "melee",
        "A melee: opposed exploding scores, then the attacker's roll and the melee table.",
        "RULES-NOTES K4-K10, K16",
        _MELEE_SCHEMA,
        melee,
        ("dice", "a_dice", "b_dice", *FOLLOW_UPS),
    ),
    (
        "death",
        "A wound's Santé loss and death roll.",
        "RULES-NOTES K8",
        _DEATH_SCHEMA,
        death,
        ("death_die",),
    ),
    (
        "initial_morale",
        "Starting Moral: 1D6 + rank number.",
        "RULES-NOTES K13",
        _INITIAL_MORALE_SCHEMA,
        initial_morale,
        ("dice",),
    ),
    (
        "end_phase",
        "The end phase of a set of characters: breath, Moral, unconsciousness.",
        "RULES-NOTES K14",
        _END_PHASE_SCHEMA,
        end_phase,
        ("dice",),
    ),
    (
        "next_attacker",
        "Which side attacks next turn.",
        "RULES-NOTES K15",
        _NEXT_ATTACKER_SCHEMA,
        next_attacker,
        ("dice",),
    ),
    (
        "vigilance",
        "May a character intervene, by rank and Vigilance level.",
        "Intervention; Annexe 1, Vigilance",
        _VIGILANCE_SCHEMA,
        vigilance,
        ("dice",),
    ),
    (
        "six_six_six",
        "The 666 of each affiliation.",
        "RULES-NOTES K5; annexes, 666",
        _SIX_SIX_SIX_SCHEMA,
        six_six_six,
        ("dice",),
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
# The talents' rolls: name, summary, passage, the level's range, other fields.
_TALENT_ROLLS: tuple[tuple[str, str, str, dict[str, Any], dict[str, Any]], ...] = (
    (
        "shield",
        "The Bouclier roll: does the shield's protection count?",
        "Annexe 1, Bouclier",
        _LEVEL_0_3,
        {},
    ),
    (
        "sonar",
        "The Sonar roll: find a hidden figure; a 1 reveals the vampire.",
        "Annexe 2, Sonar",
        _LEVEL_0_3,
        {},
    ),
    (
        "terreur",
        "The Terreur roll: dice by the target's Santé; the target is inert.",
        "Annexe 2, Terreur 1-2",
        {"type": "integer", "minimum": 1, "maximum": 2, "default": 1},
        {"target_sante": _SANTE},
    ),
    (
        "ralliement",
        "The Ralliement roll: Moral given back to a figure, or all within 40 cm.",
        "Annexe 1, Ralliement 1-3",
        {"type": "integer", "minimum": 1, "maximum": 3},
        {},
    ),
)


def _bookkeeping_odds(data: Mapping[str, Any]) -> dict[str, Any]:
    return {**at_the_table.bookkeeping_evaluate(data), "probability": 1.0}


def _bookkeeping_roll(data: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    return at_the_table.bookkeeping_evaluate(data)


TABLE_ENTRIES: tuple[Entry, ...] = (
    *(
        (
            name,
            summary,
            f"RULES-NOTES K18; {passage}",
            _table_roll_schema(level, **extra),
            getattr(at_the_table, f"{name}_verbs"),
            ("dice",),
        )
        for name, summary, passage, level, extra in _TALENT_ROLLS
    ),
    (
        "fall",
        "A fall: 1D6 at the threshold; a Novice's 1 is a light wound and a death roll.",
        "RULES-NOTES K18; Chutes",
        _object(
            ["rank"],
            {**_TABLE_ROLL_BASE, "dice": _faces("one die"), "death_die": _faces("the death roll")},
        ),
        at_the_table.fall_verbs,
        ("dice", "death_die"),
    ),
    (
        "moral_effect",
        "The activation die of a Moral value (APC and Shéol tables).",
        "RULES-NOTES K18; Annexes 1 and 2, Moral",
        _object(
            ["affiliation", "moral"],
            {
                "affiliation": {"type": "string", "enum": ["apc", "sheol"]},
                "moral": _GAUGE,
                "dice": _faces("one die"),
            },
        ),
        (
            at_the_table.moral_effect_odds,
            at_the_table.moral_effect_evaluate,
            at_the_table.moral_effect_roll,
        ),
        ("dice",),
    ),
    (
        "stray_shot",
        "A miss into a melee: whom the stray shot hits (the shooter's side if alone).",
        "RULES-NOTES K18; Tir dans une mêlée",
        _object(
            [],
            {
                "target_alone": {"type": "boolean", "default": False},
                "stray_die": _faces("one die"),
            },
        ),
        (
            at_the_table.stray_shot_odds,
            at_the_table.stray_shot_evaluate,
            at_the_table.stray_shot_roll,
        ),
        ("stray_die",),
    ),
    (
        "bookkeeping",
        "End-phase bookkeeping: event Moral, melee Souffle, regeneration, ground, fists.",
        "RULES-NOTES K18",
        _object(
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
        (_bookkeeping_odds, at_the_table.bookkeeping_evaluate, _bookkeeping_roll),
        (),
    ),
)
