"""Chase scenes (Courses poursuites): objective points, the starting lead by range band,
the risk taken each round, and the foot and road events drawn at random.

"il s'agit ici d'accumuler le plus de points possibles pour atteindre un but (40 points par
exemple)"; "Ces points d'avance correspondent généralement au maximum de la fourchette de
la portée: A portée d'interception : 0-2, Courte : 3-6, Proche : 7-11, Lointaine : 12-17,
A l'horizon : 18+"; risk: "Prudent ... ne peut utiliser ses bonus ... Le piéton ... est en
désavantage sur son test de course", "A fond ... le piéton est en désavantage sur son test
d'endurance ... Le conducteur ou le piéton choisit un nombre de dés représentant la prise
de risques. Ces dés sont joués comme des dés de Stress"; "Le MD peut tirer ou choisir un
évènement particulier", with "50% poursuivi, 50% poursuivant" and "Perdre 1D points de
portée" (setting `chase_loss_die`).

The round: the pursued's and the pursuer's successes ("chaque succès d'écart fait varier la
portée"), and one event drawn. Input: `{"terrain": "foot", "band": "short", "lead": 6,
"risk": "normal", "pursued_successes": 2, "pursuer_successes": 1}`; evaluate also takes
`"event"` (its key), `"side_die"` (d6: 1-3 the pursued, 4-6 the pursuer) and `"loss_die"`;
`"round"` says which risk effects apply ("Des le 2eme round le piétion débute par un test
d'Endurance"; each side's test itself is `chase_test`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.modern.catalogue import Catalogue, load_catalogue
from rules.engine.systems.modern.common import chosen_settings, exact

TERRAINS = ("foot", "road")
SIDE_DIE = 6


def starting_lead(band: str, catalogue: Catalogue) -> int:
    """The top of the band's bracket (the open last band starts at its `from`)."""
    for row in catalogue.chase["lead_bands"]:
        if row["key"] == band:
            return int(row["at_most"] if row["at_most"] is not None else row["from"])
    raise RuleInputError("band", "a range band", kind="choice", choices=bands(catalogue))


def bands(catalogue: Catalogue) -> list[str]:
    return [row["key"] for row in catalogue.chase["lead_bands"]]


def band_of_lead(lead: int, catalogue: Catalogue) -> str:
    for row in catalogue.chase["lead_bands"]:
        if row["at_most"] is None or lead <= row["at_most"]:
            return str(row["key"])
    return str(catalogue.chase["lead_bands"][-1]["key"])


def _setup(data: Mapping[str, Any], catalogue: Catalogue) -> dict[str, Any]:
    terrain = inputs.choice(data, "terrain", TERRAINS, default="foot")
    band = inputs.choice(data, "band", bands(catalogue), default="short")
    chase = {
        "terrain": terrain,
        "lead": inputs.integer(data, "lead", 0, 200, default=starting_lead(band, catalogue)),
        "risk": inputs.choice(data, "risk", catalogue.chase["risks"], default="normal"),
        "difference": inputs.integer(data, "pursued_successes", 0, 40, default=0)
        - inputs.integer(data, "pursuer_successes", 0, 40, default=0),
        "loss_sides": chosen_settings(data, catalogue)["chase_loss_die"],
        "round": inputs.integer(data, "round", 1, 200, default=1),
        "events": catalogue.chase["events"][terrain],
    }
    chase["risk_effects"] = risk_effects(chase, catalogue)
    return chase


def apply_event(
    chase: Mapping[str, Any], event: Mapping[str, Any], side_die: int, loss_die: int
) -> dict[str, Any]:
    """One event: who it strikes and the range points it moves (a loss of the pursued
    shortens the lead, a loss of the pursuer lengthens it)."""
    side = event.get("loses") or (
        ("pursued" if side_die <= SIDE_DIE // 2 else "pursuer") if event.get("side") else None
    )
    points = 0
    if "range" in event:
        points = event["range"]
    elif event.get("range_die"):
        points = -loss_die
    change = (points if side == "pursued" else -points) if side else 0
    return {
        "event": event["key"],
        "strikes": side,
        "stress": event.get("stress", 0),
        "test": event.get("test"),
        "lead_change": change,
    }


def _round(
    chase: Mapping[str, Any], event: Mapping[str, Any], side_die: int, loss_die: int
) -> dict[str, Any]:
    drawn = apply_event(chase, event, side_die, loss_die)
    lead = max(0, chase["lead"] + chase["difference"] + drawn["lead_change"])
    return {
        **drawn,
        "lead_before": chase["lead"],
        "lead": lead,
        "caught": lead == 0,
        "risk_dice_are_stress_dice": chase["risk"] == "flat_out",
        "risk_effects": chase["risk_effects"],
        "dice": [side_die, loss_die],
    }


def risk_effects(chase: Mapping[str, Any], catalogue: Catalogue) -> list[str]:
    """What the round's risk choice and its number change for the tests (chase_test rolls
    them): the keys a page translates."""
    effects = catalogue.chase["risk_effects"][chase["risk"]]
    out = []
    if chase["terrain"] == "foot":
        if not effects["foot_endurance_test"]:
            out.append("no_endurance_test")
        elif chase["round"] >= catalogue.chase["endurance_from_round"]:
            out.append("endurance_test_first")
        if (
            effects["endurance_disadvantage"]
            and chase["round"] >= catalogue.chase["endurance_from_round"]
        ):
            out.append("endurance_disadvantage")
        if effects["foot_run_disadvantage"]:
            out.append("run_disadvantage")
    elif not effects["vehicle_bonuses"]:
        out.append("no_vehicle_bonuses")
    if effects["risk_dice"]:
        out.append("risk_dice_as_stress")
    return out


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    chase = _setup(data, catalogue)
    each = Fraction(1, len(chase["events"]))
    return {
        "lead": chase["lead"],
        "risk_effects": chase["risk_effects"],
        "band": band_of_lead(chase["lead"], catalogue),
        "objective_points": catalogue.chase["objective_points"],
        "outcomes": {e["key"]: float(each) for e in chase["events"]},
        "outcomes_exact": {e["key"]: exact(each) for e in chase["events"]},
    }


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    chase = _setup(data, catalogue)
    keys = [e["key"] for e in chase["events"]]
    event = chase["events"][keys.index(inputs.choice(data, "event", keys))]
    side_die = inputs.integer(data, "side_die", 1, SIDE_DIE, default=1)
    loss_die = inputs.integer(data, "loss_die", 1, chase["loss_sides"], default=1)
    return _round(chase, event, side_die, loss_die)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    chase = _setup(data, catalogue)
    event = chase["events"][rng.randrange(len(chase["events"]))]
    return _round(chase, event, rng.randint(1, SIDE_DIE), rng.randint(1, chase["loss_sides"]))
