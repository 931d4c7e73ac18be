"""Attitudes per round (Attitudes, Initiative): each character's attitude sets its success
threshold, its protection die, its ammunition dice and how fast it acts.

"Planqué ... Seuil de réussite 8, protection D12, Dé de munition max : 1"; "Prudent ...
Seuil de réussite 7, protection D10, Dé de munition max : 2"; "Normale ... n'influe pas";
"Agressif ... Initiative D10, Dé de munition +1, Seuil de réussite adverse : 5";
"Ultra violent ... Initiative D10, Dé de munition +1, Seuil de réussite adverse : 4".
How the attacker's and the target's attitudes combine is the setting
`threshold_combination`; what "surpris" does is the setting `surprised`.

"plus l'attitude tend vers agressif, plus l'initiative est rapide. A attitude égale, on tire
un test de réflexes opposé ... En cas d'égalité, celui dont la somme des dés est supérieure
est le plus rapide. Sinon, tirez au hasard." `initiative_order` is that order, a pure
function a live encounter can call for its turn structure.

Input of the resolver: `{"attitude": "careful", "target_attitude": "aggressive",
"rate_of_fire": 3}` plus `"dice": [face]` (the protection die) for evaluate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.modern.catalogue import Catalogue, load_catalogue
from rules.engine.systems.modern.common import chosen_settings, exact
from rules.engine.systems.modern.skill_test import successes


def attack_threshold(attitude: str, target: str, combination: str, catalogue: Catalogue) -> int:
    """The threshold of an attack from `attitude` against a target in `target`."""
    base: int = catalogue.dice["threshold"]
    lowest: int = catalogue.dice["min_threshold"]
    own: int = catalogue.attitudes[attitude]["own_shift"]
    against: int = catalogue.attitudes[target]["target_shift"]
    if combination == "target_first" and against:
        return base + against
    return max(lowest, base + own + against)


def ammunition_dice(attitude: str, rate_of_fire: int, catalogue: Catalogue) -> int:
    """ "Cadence de tir: nombre maximum de dés de munitions", +1 when aggressive, capped by
    a careful or hidden attitude."""
    row = catalogue.attitudes[attitude]
    dice: int = rate_of_fire + row["ammo_bonus"] if rate_of_fire else 0
    cap: int | None = row["ammo_max"]
    return dice if cap is None else min(dice, cap)


def protection_odds(sides: int, catalogue: Catalogue) -> dict[int, Fraction]:
    """Successes of one protection die at the normal threshold."""
    out: dict[int, Fraction] = {}
    for face in range(1, sides + 1):
        got = successes(face, catalogue.dice["threshold"], catalogue)
        out[got] = out.get(got, Fraction(0)) + Fraction(1, sides)
    return out


@dataclass(frozen=True)
class Fighter:
    """One character's place in the round: attitude, then the opposed reflexes test."""

    name: str
    attitude: str
    reflex_successes: int = 0
    reflex_sum: int = 0


def initiative_order(
    fighters: Sequence[Fighter],
    rng: random.Random,
    catalogue: Catalogue | None = None,
    surprised: str = "acts_last",
) -> list[list[str]]:
    """The round's order of action, fastest first, as groups (a group acts in the text's
    order: "Le personnage le plus lent indique ses actions ... Ensuite le plus rapide agit").
    A surprised character acts after everyone (setting `surprised`: or loses the round)."""
    catalogue = catalogue or load_catalogue()
    speed = {a: i for i, a in enumerate(catalogue.attitude_order)}
    ranked = sorted(
        fighters,
        key=lambda f: (
            f.attitude != "surprised",
            speed[f.attitude],
            f.reflex_successes,
            f.reflex_sum,
            rng.random(),
        ),
        reverse=True,
    )
    acting = [f for f in ranked if f.attitude != "surprised" or surprised == "acts_last"]
    return [[f.name] for f in acting]


def _setup(data: Mapping[str, Any], catalogue: Catalogue) -> tuple[str, str, int, dict[str, Any]]:
    settings = chosen_settings(data, catalogue)
    attitude = inputs.choice(data, "attitude", catalogue.attitude_order, default="normal")
    target = inputs.choice(data, "target_attitude", catalogue.attitude_order, default="normal")
    if inputs.flag(data, "melee") and not catalogue.attitudes[attitude]["melee"]:
        raise RuleInputError(
            "attitude",
            "hidden cannot attack in melee",
            kind="choice",
            choices=[a for a in catalogue.attitude_order if catalogue.attitudes[a]["melee"]],
        )
    return attitude, target, inputs.integer(data, "rate_of_fire", 0, 10, default=1), settings


def _summary(
    attitude: str, target: str, rate: int, settings: Mapping[str, Any], catalogue: Catalogue
) -> dict[str, Any]:
    row = catalogue.attitudes[attitude]
    return {
        "threshold": attack_threshold(
            attitude, target, settings["threshold_combination"], catalogue
        ),
        "ammunition_dice": ammunition_dice(attitude, rate, catalogue),
        "protection_die": row["protection"],
        "target_protection_die": catalogue.attitudes[target]["protection"],
        "initiative_die": row["initiative_die"],
        "speed_rank": catalogue.attitude_order.index(attitude),
    }


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    attitude, target, rate, settings = _setup(data, catalogue)
    summary = _summary(attitude, target, rate, settings, catalogue)
    sides = summary["target_protection_die"]
    protection = protection_odds(sides, catalogue) if sides else {0: Fraction(1)}
    return {
        **summary,
        "outcomes": {str(k): float(v) for k, v in sorted(protection.items())},
        "outcomes_exact": {str(k): exact(v) for k, v in sorted(protection.items())},
    }


def _answer(summary: dict[str, Any], dice: list[int], catalogue: Catalogue) -> dict[str, Any]:
    got = successes(dice[0], catalogue.dice["threshold"], catalogue) if dice else 0
    return {**summary, "protection_successes": got, "dice": dice}


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    attitude, target, rate, settings = _setup(data, catalogue)
    summary = _summary(attitude, target, rate, settings, catalogue)
    sides = summary["target_protection_die"]
    dice = data.get("dice") or []
    if sides and (
        not isinstance(dice, list)
        or len(dice) != 1
        or isinstance(dice[0], bool)
        or not isinstance(dice[0], int)
        or not 1 <= dice[0] <= sides
    ):
        raise RuleInputError("dice", "the protection die", kind="faces", count=1)
    return _answer(summary, list(dice) if sides else [], catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    attitude, target, rate, settings = _setup(data, catalogue)
    summary = _summary(attitude, target, rate, settings, catalogue)
    sides = summary["target_protection_die"]
    return _answer(summary, [rng.randint(1, sides)] if sides else [], catalogue)
