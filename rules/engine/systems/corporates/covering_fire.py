"""Covering fire (Le tir de couverture).

"Puissance de feu = niveau en arme à feu + bonus de rafale - 1 par mètre visé", the burst
bonus summed over the weapons used ("+1 ... coup par coup, +2 ... shotgun, +2 ... rafale de
trois, +3 ... rafale libre, +4 ... arme lourde, +5 ... arme lourde utilisée en rafale"),
halved (rounded down) when the shooter is under fire himself; ammunition "1 balle par
seconde en tir normal, 3 ... rafale de 3, 5 ... rafale libre". Opponents at short or medium
range take the fire power as a malus; crossing open ground (protection 5 or less) costs
1 m/s, and a mover whose feint level is below the fire power must dodge: "En cas de refus
ou d'échec critique, il est touché ... on jette 1d6 : si le résultat est 1 ... une seconde
balle l'a touché et on rejette le dé ... jusqu'à ce qu'on atteigne le nombre de balles
effectivement tirées".

Input: `{"firearm_level": 4, "weapons": ["free"], "metres": 3, "under_fire": false,
"seconds": 2, "target_feint": 2, "target_protection": 0}` plus `"dice"` (the d6 chain of a
hit mover, each 1 followed by another die) for evaluate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.corporates import pool as p
from rules.engine.systems.corporates.catalogue import Catalogue, load_catalogue
from rules.engine.systems.kolaps import inputs


def setup(data: Mapping[str, Any], catalogue: Catalogue) -> dict[str, Any]:
    burst = catalogue.burst
    weapons = data.get("weapons", ["single"])
    if (
        not isinstance(weapons, list)
        or not 1 <= len(weapons) <= 2
        or any(not isinstance(w, str) or w not in burst["fire_bonus"] for w in weapons)
    ):
        raise RuleInputError(
            "weapons", "one or two firing modes", kind="list", choices=list(burst["fire_bonus"])
        )
    power = (
        inputs.integer(data, "firearm_level", 0, 20)
        + sum(burst["fire_bonus"][w] for w in weapons)
        - inputs.integer(data, "metres", 0, 50, default=0)
    )
    if inputs.flag(data, "under_fire"):
        power //= 2
    power = max(0, power)
    per_second = sum(burst["ammunition_per_second"][w] for w in weapons)
    seconds = inputs.integer(data, "seconds", 1, 25, default=1)
    in_open = (
        inputs.integer(data, "target_protection", 0, 60, default=0)
        <= burst["open_ground_protection"]
    )
    feint = inputs.integer(data, "target_feint", 0, 30, default=0)
    return {
        "fire_power": power,
        "opponent_malus": power,
        "ammunition": per_second * seconds,
        "bullets_per_second": per_second,
        "in_open": in_open,
        "slowdown_m_per_s": burst["slowdown_m_per_s"] if in_open else 0,
        "forced_dodge": in_open and feint < power,
    }


def hits(chain: tuple[int, ...], bullets: int) -> int:
    """One bullet, and one more for each 1 in the chain, up to the bullets fired."""
    return min(bullets, 1 + sum(1 for face in chain if face == 1))


def _check_chain(dice: object, bullets: int) -> tuple[int, ...]:
    values = tuple(dice) if isinstance(dice, list | tuple) else ()
    longest = max(1, bullets - 1)
    ok = (
        1 <= len(values) <= longest
        and all(not isinstance(v, bool) and isinstance(v, int) and 1 <= v <= 6 for v in values)
        and all(v == 1 for v in values[:-1])
        and (values[-1] != 1 or len(values) == longest)
    )
    if not ok:
        raise RuleInputError("dice", "a d6 rolled again after each 1", kind="dice")
    return values


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    fire = setup(data, catalogue)
    bullets = fire["bullets_per_second"]
    counts: dict[str, Fraction] = {}
    for k in range(1, bullets + 1):
        counts[str(k)] = Fraction(1, 6) ** (k - 1) * (Fraction(5, 6) if k < bullets else 1)
    return {**fire, **p.outcome_answer(counts)}


def _answer(fire: dict[str, Any], chain: tuple[int, ...]) -> dict[str, Any]:
    return {**fire, "bullets_hit": hits(chain, fire["bullets_per_second"]), "dice": list(chain)}


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    fire = setup(data, catalogue)
    return _answer(fire, _check_chain(data.get("dice"), fire["bullets_per_second"]))


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    fire = setup(data, catalogue)
    chain = [rng.randint(1, 6)]
    while chain[-1] == 1 and len(chain) < fire["bullets_per_second"] - 1:
        chain.append(rng.randint(1, 6))
    return _answer(fire, tuple(chain))
