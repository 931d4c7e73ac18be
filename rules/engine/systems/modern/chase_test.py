"""One participant's test in a chase round (Courses poursuites, Véhicules): the pedestrian's
endurance test from round 2, the running or driving test, the risk choice's disadvantages and
risk dice, and a vehicle's bonuses.

"Résolution des actions de poursuite, les pietons doivent tirer leur test de
Athlétisme(Course). Des le 2eme round le piétion débute par un test d'Endurance. Un échec
signifie que le piéton est essouflé et ralentit, il ne peut tirer son test de Course et donc
obtenir de succès." Risk: "Prudent: le conducteur/pilote ... ne peut utiliser ses bonus de
maniabilité ou sportivité ... Le piéton ne tire pas son test d'endurance mais est en
désavantage sur son test de course"; "A fond ou plein gaz : le pieton est en désavantage sur
son test d'endurance. Le conducteur ou le piéton choisit un nombre de dés représentant la
prise de risques. Ces dés sont joués comme des dés de Stress". Vehicles: "La sportivité ...
Ce bonus/malus peut etre utilisé par le MD dans les portions rapides"; "La maniabilité ...
en ville ou des lieux denses"; road events: "Voie rapide ... Le bonus sportivité est
doublé", "Ruelle ... le bonus maniabilité est doublé. un 2 roues par rapport à un 4 roues,
rajoute 1D12", "Travaux ... Les 2 roues multiplient par 2 leur bonus maniabilité". What a
point of bonus is, the text does not say: the campaign setting `vehicle_bonus` (an advantage
per point by default, a malus a disadvantage per point).

The endurance test rolls the Endurance die (and the stress dice); it passes with one success
that is not a critical failure. Tests are not forced here (a chase test is read as rolled).
Evaluate takes `endurance_dice` (from round 2, unless careful) and `dice` (the running or
driving test, in pool order: characteristic, skill, equipment, vehicle dice, stress and risk
dice).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.modern import skill_test
from rules.engine.systems.modern.catalogue import Catalogue, load_catalogue
from rules.engine.systems.modern.common import chosen_settings, exact

MOVERS = ("foot", "vehicle")
VEHICLE_DIE = "vehicle"


def _setup(
    data: Mapping[str, Any], catalogue: Catalogue
) -> tuple[skill_test.Test | None, skill_test.Test, dict[str, Any]]:
    """(the endurance test or None, the running / driving test, what the round applies)."""
    chase = catalogue.chase
    settings = chosen_settings(data, catalogue)
    mover = inputs.choice(data, "mover", MOVERS, default="foot")
    round_number = inputs.integer(data, "round", 1, 200, default=1)
    risk = inputs.choice(data, "risk", chase["risks"], default="normal")
    effects = chase["risk_effects"][risk]
    risk_dice = inputs.integer(data, "risk_dice", 0, 6, default=0)
    if risk_dice and not effects["risk_dice"]:
        raise RuleInputError("risk_dice", "risk dice are taken flat out only", kind="risk_dice")
    threshold = catalogue.dice["threshold"]
    stress = inputs.integer(data, "stress", 0, 12, default=0)
    applied: dict[str, Any] = {"mover": mover, "round": round_number, "risk": risk}
    endurance: skill_test.Test | None = None
    extra_net = 0
    extra_dice: tuple[tuple[str, int], ...] = ()
    if mover == "foot":
        if round_number >= chase["endurance_from_round"] and effects["foot_endurance_test"]:
            endurance = skill_test.pool_from(
                {
                    "characteristic": _endurance_die(data, catalogue),
                    "stress": stress,
                    "settings": data.get("settings", {}),
                },
                catalogue,
                threshold=threshold,
                extra_net=effects["endurance_disadvantage"],
            )
            applied["endurance_disadvantage"] = effects["endurance_disadvantage"]
        extra_net = effects["foot_run_disadvantage"]
        applied["run_disadvantage"] = extra_net
    else:
        stretch = inputs.choice(data, "stretch", tuple(chase["stretches"]), default="open")
        rule = chase["stretches"][stretch]
        two_wheels = inputs.flag(data, "on_two_wheels")
        bonus = (inputs.integer(data, rule["bonus"], -3, 3, default=0) if rule["bonus"] else 0) * (
            rule.get("two_wheels_times", rule["times"]) if two_wheels else rule["times"]
        )
        if bonus > 0 and not effects["vehicle_bonuses"]:
            bonus = 0
        dice_bonus = bonus > 0 and settings["vehicle_bonus"] == "dice"
        extra_net = 0 if dice_bonus else -bonus
        extra_dice = ((VEHICLE_DIE, chase["vehicle_bonus_die"]),) * (bonus if dice_bonus else 0)
        if two_wheels and not inputs.flag(data, "opponent_two_wheels") and "two_wheels_die" in rule:
            extra_dice += ((VEHICLE_DIE, rule["two_wheels_die"]),)
        applied.update(stretch=stretch, vehicle_bonus=bonus)
    body = {
        key: data[key]
        for key in ("characteristic", "skill", "equipment_dice", "advantage", "disadvantage")
        if key in data
    }
    test = skill_test.pool_from(
        {**body, "stress": stress, "risk_dice": risk_dice, "settings": data.get("settings", {})},
        catalogue,
        threshold=threshold,
        extra_net=extra_net,
        extra_dice=extra_dice,
    )
    return endurance, test, applied


def _endurance_die(data: Mapping[str, Any], catalogue: Catalogue) -> int:
    sides = list(catalogue.dice["sides"])
    value = data.get("endurance", 8)
    if isinstance(value, bool) or value not in sides:
        raise RuleInputError(
            "endurance", "endurance is a die size", kind="choice", choices=[str(s) for s in sides]
        )
    return int(value)


def _passes(reading: Mapping[str, Any]) -> bool:
    return bool(reading["successes"] >= 1 and not reading["critical_failure"])


def _joint(
    endurance: skill_test.Test | None, test: skill_test.Test, catalogue: Catalogue
) -> dict[tuple[int, bool, bool, int], Fraction]:
    """(successes, winded, critical failure, stress gained) -> probability."""
    run: dict[tuple[int, bool, bool, int], Fraction] = {}
    for (total, critical, stress, _, _), p in skill_test.distribution(test, catalogue).items():
        key = (total, False, critical, stress)
        run[key] = run.get(key, Fraction(0)) + p
    if endurance is None:
        return run
    out: dict[tuple[int, bool, bool, int], Fraction] = {}
    for (total, critical, stress, _, _), p in skill_test.distribution(endurance, catalogue).items():
        if total >= 1 and not critical:
            for (got, _, crit, more), q in run.items():
                key = (got, False, crit, stress + more)
                out[key] = out.get(key, Fraction(0)) + p * q
        else:
            key = (0, True, critical, stress)
            out[key] = out.get(key, Fraction(0)) + p
    return out


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    endurance, test, applied = _setup(data, catalogue)
    joint = _joint(endurance, test, catalogue)
    winded = sum((p for k, p in joint.items() if k[1]), Fraction(0))
    progress = sum((p for k, p in joint.items() if not k[1] and k[0] >= 1), Fraction(0))
    outcomes = {"winded": winded, "no_progress": 1 - winded - progress, "progress": progress}
    counts: dict[int, Fraction] = {}
    stress: dict[int, Fraction] = {}
    for (total, _, _, gained), p in joint.items():
        counts[total] = counts.get(total, Fraction(0)) + p
        stress[gained] = stress.get(gained, Fraction(0)) + p
    mean = sum((k * p for k, p in counts.items()), Fraction(0))
    return {
        **applied,
        "endurance_test": endurance is not None,
        "endurance_pool": [
            {"kind": d.kind, "sides": d.sides, "threshold": d.threshold}
            for d in (endurance.dice if endurance else ())
        ],
        "outcomes": {k: float(v) for k, v in outcomes.items()},
        "outcomes_exact": {k: exact(v) for k, v in outcomes.items()},
        "successes": {str(k): float(counts[k]) for k in sorted(counts)},
        "successes_mean": float(mean),
        "stress_gained": {str(k): float(stress[k]) for k in sorted(stress)},
        "pool": [{"kind": d.kind, "sides": d.sides, "threshold": d.threshold} for d in test.dice],
    }


def _answer(
    endurance_read: dict[str, Any] | None, run_read: dict[str, Any] | None, applied: dict[str, Any]
) -> dict[str, Any]:
    winded = endurance_read is not None and not _passes(endurance_read)
    stress = (endurance_read or {}).get("stress_gained", 0) + (run_read or {}).get(
        "stress_gained", 0
    )
    return {
        **applied,
        "winded": winded,
        "endurance_dice": (endurance_read or {}).get("dice", []),
        "successes": 0 if winded or run_read is None else run_read["successes"],
        "critical_failure": bool(
            (endurance_read or {}).get("critical_failure")
            or (run_read or {}).get("critical_failure")
        ),
        "stress_gained": stress,
        "final_dice": (run_read or {}).get("dice", []),
    }


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    endurance, test, applied = _setup(data, catalogue)
    endurance_read = None
    if endurance is not None:
        faces = skill_test.faces_of(data.get("endurance_dice"), endurance.dice, "endurance_dice")
        endurance_read = skill_test.evaluate_test({"dice": list(faces)}, endurance, catalogue)
        if not _passes(endurance_read):
            return _answer(endurance_read, None, applied)
    run_read = skill_test.evaluate_test({"dice": data.get("dice")}, test, catalogue)
    return _answer(endurance_read, run_read, applied)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    endurance, test, applied = _setup(data, catalogue)
    endurance_read = None
    dice: list[int] = []
    if endurance is not None:
        endurance_read = skill_test.roll_test(rng, endurance, catalogue)
        dice += endurance_read["dice"]
    run_read = None
    if endurance_read is None or _passes(endurance_read):
        run_read = skill_test.roll_test(rng, test, catalogue)
        dice += run_read["dice"]
    return {**_answer(endurance_read, run_read, applied), "dice": dice}
