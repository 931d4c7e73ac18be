"""The cold-blood test (Test de sang froid) and the stress threshold.

"Test de sang froid, à tirer dans une rencontre quand on est la cible d'une attaque par arme
à feu. Une réussite permet de ne plus tirer ce test de la rencontre alors qu'un échec vous
donne 1 stress et vous oblige à prendre la posture planqué jusqu'a la fin du prochain tour
de jeu." "Le seuil de stress est la valeur max entre empathie et le sang froid"; "Quand le
seuil de stress est atteint, le Pj est transit de peur."

Input: the test's pool (`characteristic`: the Sang-froid die, `stress`...) plus `empathie`
and `sang_froid` (die sizes) for the threshold; `dice` / `forced_dice` for evaluate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.engine.systems.kolaps import inputs
from rules.engine.systems.modern import skill_test
from rules.engine.systems.modern.catalogue import Catalogue, load_catalogue
from rules.engine.systems.modern.common import exact


def stress_threshold(characteristics: Mapping[str, int], catalogue: Catalogue) -> int:
    """The highest of the characteristics the threshold comes from (Empathie, Sang-froid)."""
    return max(characteristics[name] for name in catalogue.creation["stress_threshold_from"])


def _setup(data: Mapping[str, Any], catalogue: Catalogue) -> skill_test.Test:
    sides = [str(s) for s in catalogue.dice["sides"]]
    values = {
        name: int(inputs.choice({name: str(data.get(name, 6))}, name, sides))
        for name in catalogue.creation["stress_threshold_from"]
    }
    body = {**data, "stress_threshold": stress_threshold(values, catalogue)}
    return skill_test.pool_from(body, catalogue, threshold=catalogue.dice["threshold"])


def consequence(reading: Mapping[str, Any], test: skill_test.Test) -> dict[str, Any]:
    failed = not reading["success"]
    gained = reading["stress_gained"] + (1 if failed else 0)
    return {
        **reading,
        "steady_for_the_encounter": not failed,
        "stress_gained": gained,
        "takes_cover_until_end_of_next_round": failed,
        "stress_threshold": test.stress_threshold,
        "frozen_with_fear": test.stress + gained >= (test.stress_threshold or 0),
    }


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    test = _setup(data, catalogue)
    answer = skill_test.odds_of(test, catalogue)
    frozen = Fraction(0)
    # "un échec vous donne 1 stress": on top of the stress dice's own, as evaluate counts it.
    stress: dict[int, Fraction] = {}
    for (total, _, gained, _, _), p in skill_test.distribution(test, catalogue).items():
        gained += 1 if total < test.needed else 0
        stress[gained] = stress.get(gained, Fraction(0)) + p
        if test.stress + gained >= (test.stress_threshold or 0):
            frozen += p
    return {
        **answer,
        "stress_gained": {str(k): float(stress[k]) for k in sorted(stress)},
        "stress_threshold": test.stress_threshold,
        "frozen_with_fear": float(frozen),
        "frozen_with_fear_exact": exact(frozen),
    }


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    test = _setup(data, catalogue)
    return consequence(skill_test.evaluate_test(data, test, catalogue), test)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    test = _setup(data, catalogue)
    return consequence(skill_test.roll_test(rng, test, catalogue), test)
