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
from typing import Any

from rules.systems.kolaps import talent_test

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


def _exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


# --- kolaps/test ------------------------------------------------------------------------

_KOLAPS_TEST_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["db", "rank"],
    "properties": {
        "db": {"type": "integer", "minimum": -20, "maximum": 30, "description": "difficulty"},
        "rank": {"type": "string", "enum": list(talent_test.RANKS)},
        "sante": {"type": "integer", "minimum": 1, "maximum": 6, "default": 6},
        "dice": {
            "type": "array",
            "items": {"type": "integer", "minimum": 1, "maximum": 6},
            "description": "evaluate only: db dice, or 2/3/4 when db is 0/-1/-2 or less",
        },
    },
}


def _kolaps_setup(data: Mapping[str, Any]) -> talent_test.TestSetup:
    return talent_test.setup(data.get("db"), data.get("rank"), data.get("sante", 6))


def _kolaps_result(test: talent_test.TestSetup, result: talent_test.TestResult) -> dict[str, Any]:
    out = asdict(result)
    out["dice"] = list(result.dice)
    out["keep_best"] = test.keep_best
    return out


def _kolaps_test_odds(data: Mapping[str, Any]) -> dict[str, Any]:
    test = _kolaps_setup(data)
    odds = talent_test.odds(test)
    return {
        "dice": test.dice_count,
        "keep_best": test.keep_best,
        "threshold": test.threshold,
        "effective_rank": talent_test.RANKS[test.effective_rank - 1],
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
)

_BY_KEY = {(r.system, r.name): r for r in RESOLVERS}


def resolver_get(system: str, name: str) -> Resolver | None:
    return _BY_KEY.get((system, name))


def resolvers_of(system: str) -> list[Resolver]:
    return [r for r in RESOLVERS if r.system == system]
