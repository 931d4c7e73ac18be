"""Costing a 1,000-character roster in rules/ (target: under 10 ms), printed, not asserted.

The roster mixes every archetype and rank it allows, with talents raised and
specialisations bought, as one unit (so the unit checks run over all 1,000 too).
"""

import random
import time

from rules.engine.systems.kolaps import costing
from rules.engine.systems.kolaps.catalogue import load_catalogue

ROSTER = 1000
ROUNDS = 20


def _roster(catalogue, rng: random.Random) -> list[costing.CharacterChoices]:
    archetypes = list(catalogue.archetypes.values())
    roster = []
    for number in range(ROSTER):
        archetype = archetypes[number % len(archetypes)]
        talents, equipment = costing.archetype_defaults(catalogue, archetype.slug)
        for slug in list(talents):
            talents[slug] = rng.randint(0, 3)
        for step in costing.steps(catalogue, costing.CharacterChoices(
            key="", name="", affiliation=archetype.affiliation, archetype=archetype.slug,
            rank=archetype.ranks[0], talents=talents, equipment=equipment,
        )):  # fmt: skip
            if step.level is None and not step.missing and rng.random() < 0.5:
                talents[step.slug] = step.next_level
        roster.append(
            costing.CharacterChoices(
                key=str(number),
                name=f"Character {number}",
                affiliation=archetype.affiliation,
                archetype=archetype.slug,
                rank=rng.choice(archetype.ranks),
                talents=talents,
                equipment=[rng.choice(group) for group in archetype.equipment],
                avatar=number == 0,
            )
        )
    return roster


def test_bench_costing_a_1000_character_roster():
    catalogue = load_catalogue()
    roster = _roster(catalogue, random.Random(1000))
    costing.cost_unit(catalogue, roster)  # warm-up: the catalogue index is built once
    timings = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        unit = costing.cost_unit(catalogue, roster)
        timings.append(time.perf_counter() - start)
    best, median = min(timings) * 1000, sorted(timings)[ROUNDS // 2] * 1000
    print(
        f"\ncosting {ROSTER} characters: best {best:.2f} ms, median {median:.2f} ms "
        f"(target < 10 ms); VU {unit.vu}, {len(unit.problems)} problems"
    )
    assert len(unit.characters) == ROSTER
