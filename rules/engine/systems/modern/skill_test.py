"""A test (Actions, Avantages, Forcer le test, Stress): a pool of dice of several kinds, each
scoring successes against a threshold, with forcing and what its 1s do.

"Le seuil de réussite normal est de 6, les 10 11 et 12 donnent 2 réussites." Advantage and
disadvantage move "sur un unique dé" the threshold by one point (setting `advantage_die`).
"Un 1 naturel est un échec critique ... et empeche de forcer le test" (setting
`critical_failure`). Forcing: "relancer une fois un test ... On garde les 1 et les succès";
then the 1s that remain: characteristic dice (not skill) "font gagner 1 stress", equipment
dice "entrainent une casse de l'objet", stress dice "entrainent le gain de 1 stress (meme
avant de forcer)", ammunition dice (d8, "Chaque 6, 7 ou 8 ajoute un succès") "signifie
devoir recharger" ("valable également sans forcer"). Stress: "Pour chaque point de stress, un
D6 de stress est ajouté à tous les tests"; "Quand le seuil de stress est atteint, le Pj est
transit de peur."

The pool's order, as `dice` and `forced_dice` are typed: characteristic, skill, equipment,
ammunition, stress. `forced_dice` are the new faces of the dice rerolled (neither a 1 nor a
success), in the pool's order.
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

CHARACTERISTIC, SKILL, EQUIPMENT, AMMUNITION, STRESS = (
    "characteristic",
    "skill",
    "equipment",
    "ammunition",
    "stress",
)
CAN_BE_CRITICAL = frozenset({CHARACTERISTIC, SKILL})


@dataclass(frozen=True)
class Die:
    kind: str
    sides: int
    threshold: int


@dataclass(frozen=True)
class Test:
    dice: tuple[Die, ...]
    force: bool
    needed: int
    stress: int
    stress_threshold: int | None
    critical_rule: str


def successes(face: int, threshold: int, catalogue: Catalogue) -> int:
    """0, 1, or 2 when the face reaches 10 ("les 10 11 et 12 donnent 2 réussites")."""
    if face < threshold:
        return 0
    return 2 if face >= catalogue.dice["double_from"] else 1


def _sides(data: Mapping[str, Any], key: str, catalogue: Catalogue, allow_none: bool) -> int:
    allowed = [0, *catalogue.dice["sides"]] if allow_none else list(catalogue.dice["sides"])
    value = data.get(key, 0 if allow_none else None)
    if isinstance(value, bool) or value not in allowed:
        raise RuleInputError(
            key, f"{key} is a die size", kind="choice", choices=[str(s) for s in allowed]
        )
    return int(value)


def pool_from(
    data: Mapping[str, Any],
    catalogue: Catalogue,
    *,
    threshold: int,
    ammunition: int | None = None,
    extra_net: int = 0,
    extra_dice: tuple[tuple[str, int], ...] = (),
) -> Test:
    """The dice a test rolls: its characteristic die, skill die, equipment, ammunition,
    `extra_dice` (buckshot, a vehicle's bonus: no effect on a 1) and stress dice, each with
    its threshold after advantages and disadvantages (`extra_net` more disadvantages)."""
    settings = chosen_settings(data, catalogue)
    dice_rules = catalogue.dice
    characteristic = _sides(data, "characteristic", catalogue, allow_none=False)
    skill = _sides(data, "skill", catalogue, allow_none=True)
    equipment = inputs.integer(data, "equipment_dice", 0, 4, default=0)
    if ammunition is None:
        ammunition = inputs.integer(data, "ammunition_dice", 0, 6, default=0)
    stress = inputs.integer(data, "stress", 0, 12, default=0)
    risk = inputs.integer(data, "risk_dice", 0, 6, default=0)
    net = inputs.integer(data, "disadvantage", 0, 5, default=0) - inputs.integer(
        data, "advantage", 0, 5, default=0
    )
    lo, hi = dice_rules["min_threshold"], dice_rules["max_threshold"]
    shifted = max(lo, min(hi + 1, threshold + net + extra_net))
    kinds = [(CHARACTERISTIC, characteristic)]
    if skill:
        kinds.append((SKILL, skill))
    kinds += [(EQUIPMENT, dice_rules["equipment_sides"])] * equipment
    kinds += [(AMMUNITION, dice_rules["ammunition_sides"])] * ammunition
    kinds += list(extra_dice)
    kinds += [(STRESS, dice_rules["stress_sides"])] * (stress + risk)
    target = CHARACTERISTIC if settings["advantage_die"] == CHARACTERISTIC or not skill else SKILL
    dice = tuple(
        Die(kind, sides, shifted if kind == target else threshold) for kind, sides in kinds
    )
    raw_threshold = data.get("stress_threshold")
    return Test(
        dice=dice,
        force=inputs.flag(data, "force"),
        needed=inputs.integer(data, "needed", 1, 10, default=1),
        stress=stress,
        stress_threshold=None
        if raw_threshold is None
        else inputs.integer(data, "stress_threshold", 1, 24),
        critical_rule=settings["critical_failure"],
    )


def is_critical(faces: Sequence[int], test: Test, catalogue: Catalogue) -> bool:
    one = catalogue.dice["critical_face"]
    ones = any(
        f == one and d.kind in CAN_BE_CRITICAL for f, d in zip(faces, test.dice, strict=True)
    )
    if test.critical_rule == "any_one":
        return ones
    return ones and not any(
        successes(f, d.threshold, catalogue) for f, d in zip(faces, test.dice, strict=True)
    )


def rerolled(faces: Sequence[int], test: Test, catalogue: Catalogue) -> list[int]:
    """The positions forcing rolls again: neither a 1 nor a success."""
    one = catalogue.dice["critical_face"]
    return [
        i
        for i, (f, d) in enumerate(zip(faces, test.dice, strict=True))
        if f != one and not successes(f, d.threshold, catalogue)
    ]


def reading(
    first: Sequence[int], final: Sequence[int], forced: bool, test: Test, catalogue: Catalogue
) -> dict[str, Any]:
    """What a roll means: successes, critical failure, and what the 1s of the final roll do."""
    one = catalogue.dice["critical_face"]
    critical = is_critical(first, test, catalogue)
    total = (
        0
        if critical
        else sum(
            successes(f, d.threshold, catalogue) for f, d in zip(final, test.dice, strict=True)
        )
    )
    ones = dict.fromkeys((CHARACTERISTIC, EQUIPMENT, AMMUNITION, STRESS), 0)
    for face, die in zip(final, test.dice, strict=True):
        if face == one and die.kind in ones:
            ones[die.kind] += 1
    stress_gained = ones[STRESS] + (ones[CHARACTERISTIC] if forced else 0)
    answer: dict[str, Any] = {
        "successes": total,
        "success": total >= test.needed,
        "critical_failure": critical,
        "forced": forced,
        "stress_gained": stress_gained,
        "equipment_breaks": ones[EQUIPMENT] > 0,
        "reload": ones[AMMUNITION] > 0,
    }
    if test.stress_threshold is not None:
        answer["frozen_with_fear"] = test.stress + stress_gained >= test.stress_threshold
    return answer


# A state of the dynamic programme over the dice: (a success on the first roll, a
# characteristic or skill 1 on the first roll, successes, stress-die 1s, a characteristic 1,
# an equipment 1, an ammunition 1). Successes and 1s are those of the roll being read.
State = tuple[bool, bool, int, int, bool, bool, bool]


def _classes(die: Die, force: bool, catalogue: Catalogue) -> dict[tuple[Any, ...], int]:
    """One die's outcomes grouped by what the reading needs, weighted out of sides^2:
    (first roll succeeded, first roll a critical-able 1, successes read, 1 read)."""
    one = catalogue.dice["critical_face"]
    out: dict[tuple[Any, ...], int] = {}
    for first in range(1, die.sides + 1):
        first_success = successes(first, die.threshold, catalogue)
        first_one = first == one and die.kind in CAN_BE_CRITICAL
        if not force or first == one or first_success:
            finals = [(first, die.sides)]
        else:
            finals = [(again, 1) for again in range(1, die.sides + 1)]
        for last, weight in finals:
            key = (
                first_success > 0,
                first_one,
                successes(last, die.threshold, catalogue),
                last == one,
            )
            out[key] = out.get(key, 0) + weight
    return out


def _programme(test: Test, force: bool, catalogue: Catalogue) -> tuple[dict[State, int], int]:
    states: dict[State, int] = {(False, False, 0, 0, False, False, False): 1}
    denominator = 1
    for die in test.dice:
        denominator *= die.sides * die.sides
        classes = _classes(die, force, catalogue)
        nxt: dict[State, int] = {}
        for (any_first, one_first, total, stress, char, equip, ammo), w in states.items():
            for (succeeded, critical_one, got, is_one), weight in classes.items():
                key: State = (
                    any_first or succeeded,
                    one_first or critical_one,
                    total + got,
                    stress + (1 if is_one and die.kind == STRESS else 0),
                    char or (is_one and die.kind == CHARACTERISTIC),
                    equip or (is_one and die.kind == EQUIPMENT),
                    ammo or (is_one and die.kind == AMMUNITION),
                )
                nxt[key] = nxt.get(key, 0) + w * weight
        states = nxt
    return states, denominator


def distribution(test: Test, catalogue: Catalogue) -> dict[tuple[Any, ...], Fraction]:
    """The exact distribution of a test's reading: (successes, critical failure, stress
    gained, equipment breaks, reload). Forcing is tried whenever the first roll allows it
    (not a critical failure), as a player who always forces would: the first roll's
    programme gives the critical failures (never forced), the forcing programme the rest."""
    out: dict[tuple[Any, ...], Fraction] = {}

    def critical(any_first: bool, one_first: bool) -> bool:
        return one_first and (test.critical_rule == "any_one" or not any_first)

    first, denominator = _programme(test, False, catalogue)
    for (any_first, one_first, total, stress, _, equip, ammo), w in first.items():
        is_critical = critical(any_first, one_first)
        if test.force and not is_critical:
            continue
        key = (0 if is_critical else total, is_critical, stress, equip, ammo)
        out[key] = out.get(key, Fraction(0)) + Fraction(w, denominator)
    if test.force:
        forced, denominator = _programme(test, True, catalogue)
        for (any_first, one_first, total, stress, char, equip, ammo), w in forced.items():
            if critical(any_first, one_first):
                continue
            key = (total, False, stress + (1 if char else 0), equip, ammo)
            out[key] = out.get(key, Fraction(0)) + Fraction(w, denominator)
    return out


def odds_of(test: Test, catalogue: Catalogue) -> dict[str, Any]:
    dist = distribution(test, catalogue)
    success = sum((p for k, p in dist.items() if k[0] >= test.needed), Fraction(0))
    critical = sum((p for k, p in dist.items() if k[1]), Fraction(0))
    counts: dict[int, Fraction] = {}
    stress: dict[int, Fraction] = {}
    for (total, _, gained, _, _), p in dist.items():
        counts[total] = counts.get(total, Fraction(0)) + p
        stress[gained] = stress.get(gained, Fraction(0)) + p
    breaks = sum((p for k, p in dist.items() if k[3]), Fraction(0))
    reload = sum((p for k, p in dist.items() if k[4]), Fraction(0))
    outcomes = {"success": success, "failure": 1 - success - critical, "critical_failure": critical}
    return {
        "outcomes": {k: float(v) for k, v in outcomes.items()},
        "outcomes_exact": {k: exact(v) for k, v in outcomes.items()},
        "successes": {str(k): float(counts[k]) for k in sorted(counts)},
        "stress_gained": {str(k): float(stress[k]) for k in sorted(stress)},
        "equipment_breaks": float(breaks),
        "reload": float(reload),
        "pool": [{"kind": d.kind, "sides": d.sides, "threshold": d.threshold} for d in test.dice],
        "forced": test.force,
    }


def faces_of(values: object, dice: Sequence[Die], field: str) -> tuple[int, ...]:
    """One face per die of `dice`, each within its sides, or a refusal naming `field`."""
    faces = tuple(values) if isinstance(values, list | tuple) else ()
    if len(faces) != len(dice) or any(
        isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= d.sides
        for f, d in zip(faces, dice, strict=False)
    ):
        raise RuleInputError(field, f"{field}: one face per die", kind="faces", count=len(dice))
    return faces


def evaluate_test(data: Mapping[str, Any], test: Test, catalogue: Catalogue) -> dict[str, Any]:
    first = faces_of(data.get("dice"), test.dice, "dice")
    final = list(first)
    forced = data.get("forced_dice") not in (None, [])
    if forced:
        if is_critical(first, test, catalogue):
            raise RuleInputError(
                "forced_dice", "a critical failure cannot be forced", kind="unforceable"
            )
        positions = rerolled(first, test, catalogue)
        again = faces_of(data.get("forced_dice"), [test.dice[i] for i in positions], "forced_dice")
        for position, face in zip(positions, again, strict=True):
            final[position] = face
    return {
        **reading(first, final, forced, test, catalogue),
        "dice": list(first),
        "final_dice": final,
    }


def roll_test(rng: random.Random, test: Test, catalogue: Catalogue) -> dict[str, Any]:
    first = [rng.randint(1, d.sides) for d in test.dice]
    final = list(first)
    forced = test.force and not is_critical(first, test, catalogue)
    if forced:
        for position in rerolled(first, test, catalogue):
            final[position] = rng.randint(1, test.dice[position].sides)
    return {**reading(first, final, forced, test, catalogue), "dice": first, "final_dice": final}


def _setup(data: Mapping[str, Any], catalogue: Catalogue) -> Test:
    threshold = inputs.integer(
        data,
        "threshold",
        catalogue.dice["min_threshold"],
        catalogue.dice["max_threshold"],
        default=catalogue.dice["threshold"],
    )
    return pool_from(data, catalogue, threshold=threshold)


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    return odds_of(_setup(data, catalogue), catalogue)


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    return evaluate_test(data, _setup(data, catalogue), catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    return roll_test(rng, _setup(data, catalogue), catalogue)
