"""Care (Soins): "Pour chaque blessure/coup reçu, la cible peut bénéficier d'un unique test
de soin. Si le test est un échec critique, il fait perdre 1 PV. Si un test de soin génère 3
succès, un autre test peut etre effectué." What a success restores is the setting
`hp_per_healing_success` (default 1 hit point, never above the maximum).

Input: the care test's pool plus `{"hp": 3, "hp_max": 10}`; `dice` / `forced_dice` for
evaluate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.engine.systems.kolaps import inputs
from rules.engine.systems.modern import skill_test
from rules.engine.systems.modern.catalogue import Catalogue, load_catalogue
from rules.engine.systems.modern.common import chosen_settings, exact

ANOTHER_TEST_AT = 3  # "Si un test de soin génère 3 succès, un autre test peut etre effectué."
CRITICAL_LOSS = 1  # "Si le test est un échec critique, il fait perdre 1 PV."


def _setup(data: Mapping[str, Any], catalogue: Catalogue) -> tuple[skill_test.Test, int, int, int]:
    hp_max = inputs.integer(data, "hp_max", 1, 100, default=10)
    hp = inputs.integer(data, "hp", -100, hp_max, default=0)
    per_success = chosen_settings(data, catalogue)["hp_per_healing_success"]
    test = skill_test.pool_from(data, catalogue, threshold=catalogue.dice["threshold"])
    return test, hp, hp_max, per_success


def healed(total: int, critical: bool, hp: int, hp_max: int, per_success: int) -> dict[str, Any]:
    after = hp - CRITICAL_LOSS if critical else min(hp_max, hp + total * per_success)
    return {"hp": after, "hp_change": after - hp, "another_test": total >= ANOTHER_TEST_AT}


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    test, hp, hp_max, per_success = _setup(data, catalogue)
    after: dict[int, Fraction] = {}
    another = Fraction(0)
    for (total, critical, *_), p in skill_test.distribution(test, catalogue).items():
        result = healed(total, critical, hp, hp_max, per_success)
        after[result["hp"]] = after.get(result["hp"], Fraction(0)) + p
        if result["another_test"]:
            another += p
    return {
        "outcomes": {str(k): float(v) for k, v in sorted(after.items())},
        "outcomes_exact": {str(k): exact(v) for k, v in sorted(after.items())},
        "another_test": float(another),
    }


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    test, hp, hp_max, per_success = _setup(data, catalogue)
    reading = skill_test.evaluate_test(data, test, catalogue)
    return {
        **reading,
        **healed(reading["successes"], reading["critical_failure"], hp, hp_max, per_success),
    }


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    test, hp, hp_max, per_success = _setup(data, catalogue)
    reading = skill_test.roll_test(rng, test, catalogue)
    return {
        **reading,
        **healed(reading["successes"], reading["critical_failure"], hp, hp_max, per_success),
    }
