"""Special blows after the attack has passed (Coups spéciaux): faire tomber, immobiliser,
projeter.

"Pour faire tomber un adversaire, on effectue un jet d'attaque que l'on compare à son score
de défense (ou d'esquive). Si l'attaque passe on effectue, au choix de l'attaquant, un jet
d'agilité contre agilité ou de force contre force. Dans chacun des 2 cas, l'autre
caractéristique est ajoutée en bonus au jet." "Dans le cas d'un jet d'agilité contre agilité,
si l'attaquant passe d'1 niveau, il déséquilibre son adversaire (perte d'1 action), de 2
niveaux ou plus il le fait chuter. Dans le cas d'un jet de force contre force, si l'attaquant
passe d'1 niveau, il chute avec son adversaire, de 2 niveaux ou plus il le fait chuter seul."
"Lorsqu'un défenseur chute il effectue un jet d'encaissement difficulté 15, et aura un malus
de 5 à toutes ses actions jusqu'à ce qu'il se relève." "l'attaquant gagne 1d au jet
d'opposition par marge de 10 à son jet pour toucher." "les jets d'agilité contre agilité ne
sont possibles que si l'attaquant est d'un poids supérieur à la moitié de celui de son
adversaire." Immobiliser: "on effectue un jet de force contre force, le niveau de réussite
indiquant la qualité de l'entrave et le malus en dé de l'adversaire"; Projeter: "dès lors
que la personne entravée à 3d de malus ou plus, alors le personnage peut le projeter".

What a level of an opposed roll is: the campaign setting `opposed_points_per_level` (5 by
default, as a damage level). The attack itself is `melee`; this is the opposed roll after it.
Input: `{"kind": "trip_agility", "attacker_pool": 4, "attacker_bonus": 3, "defender_pool": 3,
"defender_bonus": 2, "attack_margin": 12}`; evaluate takes `attacker_dice`, `defender_dice`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.corporates import pool as p
from rules.engine.systems.corporates.catalogue import Catalogue, load_catalogue
from rules.engine.systems.corporates.common import chosen_settings
from rules.engine.systems.corporates.damage import levels_for
from rules.engine.systems.kolaps import inputs

KINDS = ("trip_agility", "trip_strength", "hold")


@dataclass(frozen=True)
class Opposed:
    kind: str
    attacker_dice: int
    attacker_bonus: int
    defender_dice: int
    defender_bonus: int
    points_per_level: int


def setup(data: Mapping[str, Any], catalogue: Catalogue) -> Opposed:
    kind = inputs.choice(data, "kind", KINDS, default="trip_agility")
    if kind == "trip_agility" and inputs.flag(data, "attacker_too_light"):
        raise RuleInputError(
            "attacker_too_light", "agility against agility needs half the weight", kind="weight"
        )
    margin = inputs.integer(data, "attack_margin", 0, 200, default=0)
    extra = margin // catalogue.damage["margin_per_extra_die"] if kind != "hold" else 0
    return Opposed(
        kind=kind,
        attacker_dice=inputs.integer(data, "attacker_pool", 1, p.MAX_POOL) + extra,
        attacker_bonus=inputs.integer(data, "attacker_bonus", -20, 40, default=0),
        defender_dice=inputs.integer(data, "defender_pool", 1, p.MAX_POOL),
        defender_bonus=inputs.integer(data, "defender_bonus", -20, 40, default=0),
        points_per_level=chosen_settings(data, catalogue)["opposed_points_per_level"],
    )


def effect(levels: int, opposed: Opposed, catalogue: Catalogue) -> str:
    """What the levels passed do: unbalanced / falls / both fall, or a hold of that many dice."""
    rules = catalogue.melee["takedown"]
    if levels <= 0:
        return "no_effect"
    if opposed.kind == "hold":
        return "throw_possible" if levels >= rules["throw_from_hindrance_dice"] else "held"
    table = rules["effects"][opposed.kind]
    return str(table[str(min(levels, max(int(k) for k in table)))])


def reading(attack: int, defence: int, opposed: Opposed, catalogue: Catalogue) -> dict[str, Any]:
    rules = catalogue.melee["takedown"]
    margin = attack - defence
    levels = levels_for(margin, opposed.points_per_level)
    outcome = effect(levels, opposed, catalogue)
    falls = outcome in ("falls", "both_fall")
    return {
        "result": attack,
        "opposed_result": defence,
        "margin": margin,
        "levels_passed": levels,
        "key": outcome,
        "hindrance_dice": levels if opposed.kind == "hold" else 0,
        "fall_soak_difficulty": rules["fall_soak_difficulty"] if falls else None,
        "fallen_malus": rules["fallen_malus"] if falls else None,
    }


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    opposed = setup(data, catalogue)
    a_rows, a_den = p.plain_sum(opposed.attacker_dice)
    d_rows, d_den = p.plain_sum(opposed.defender_dice)
    effects: dict[str, Fraction] = {}
    levels: dict[int, Fraction] = {}
    for a, wa in a_rows:
        for d, wd in d_rows:
            read = reading(
                a + opposed.attacker_bonus, d + opposed.defender_bonus, opposed, catalogue
            )
            chance = Fraction(wa * wd, a_den * d_den)
            effects[read["key"]] = effects.get(read["key"], Fraction(0)) + chance
            passed = read["levels_passed"]
            levels[passed] = levels.get(passed, Fraction(0)) + chance
    return {
        **p.outcome_answer(effects),
        "levels_passed": {str(k): float(v) for k, v in sorted(levels.items())},
        "dice_count": opposed.attacker_dice,
        "opposed_dice": opposed.defender_dice,
    }


def _answer(
    attack: tuple[int, ...], defence: tuple[int, ...], opposed: Opposed, catalogue: Catalogue
) -> dict[str, Any]:
    return {
        **reading(
            sum(attack) + opposed.attacker_bonus,
            sum(defence) + opposed.defender_bonus,
            opposed,
            catalogue,
        ),
        "attacker_dice": list(attack),
        "defender_dice": list(defence),
        "dice": [*attack, *defence],
    }


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    opposed = setup(data, catalogue)
    attack = p.check_pool(data.get("attacker_dice"), opposed.attacker_dice, "attacker_dice")
    defence = p.check_pool(data.get("defender_dice"), opposed.defender_dice, "defender_dice")
    return _answer(attack, defence, opposed, catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    opposed = setup(data, catalogue)
    return _answer(
        p.roll_pool(opposed.attacker_dice, rng),
        p.roll_pool(opposed.defender_dice, rng),
        opposed,
        catalogue,
    )
