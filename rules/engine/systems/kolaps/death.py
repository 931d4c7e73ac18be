"""KOLAPS wounds and the death roll (RULES-NOTES K8), on their own.

"Wounds: superficial -1 Santé; benign -2; light -2 and a death roll; serious -3, death
roll, attacker +1 Moral; grave -4, death roll, attacker +1 Moral; very grave Santé set to
1, death roll, attacker +1 Moral; lethal: killed, attacker +2 Moral, the target's allies
within 25 cm -1 Moral. Damage never takes Santé below 1: death comes from death rolls. A
death roll is 1D6 after the loss, threshold by the new Santé (6: none, 5: 2, 4: 3, 3: 4,
2: 5, 1: 6; inhuman metabolism 3 lowers it by 1); below the threshold the character dies."

Input body: `{"sante": 6, "wound": "serious", "talents": {"metabolisme-inhumain-vampire": 3}}`,
plus `"death_die": [4]` for evaluate.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.engine.dice import parse
from rules.engine.systems.kolaps import consequences as c
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import Catalogue
from rules.engine.systems.kolaps.ranged import metabolism
from rules.engine.systems.kolaps.steps import DiceSource, Pending, verbs

D6 = parse("D6")


def setup(
    data: Mapping[str, Any], catalogue: Catalogue | None = None
) -> tuple[c.WoundResult, Mapping[str, Any]]:
    catalogue = catalogue or load_catalogue()
    levels = {slug: talent.level_numbers for slug, talent in catalogue.talents.items()}
    sante = inputs.integer(data, "sante", 1, 6, 6)
    wound = inputs.choice(data, "wound", catalogue.tables.wounds.rows)
    talents = inputs.talents(data, "talents", levels)
    _divisor, modifier = metabolism(catalogue, talents)
    result = c.apply_wound(catalogue, wound, sante, modifier)
    rows = catalogue.tables.wounds.rows[wound]
    effects = {
        "attacker_moral": rows.attacker_moral,
        "allies_moral": rows.allies_moral,
        "allies_radius_cm": rows.allies_radius_cm,
    }
    return result, effects


def _walk(
    data: Mapping[str, Any], source: DiceSource, catalogue: Catalogue | None
) -> dict[str, Any]:
    wound, effects = setup(data, catalogue)
    out: dict[str, Any] = {**c.wound_json(wound), **effects}
    if wound.death_threshold is not None:
        try:
            die = source.take("death_die", D6)[0]
            out["killed"] = c.dies(wound.death_threshold, die)
        except Pending as pending:
            out["pending"] = {"field": pending.field, "dice": str(pending.dice)}
    out["dice"] = source.used.get("death_die", [])
    return out


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    """P(the character dies) of a wound at a Santé: (threshold - 1) / 6, or 1 if lethal."""
    wound, effects = setup(data, catalogue)
    p = Fraction(1) if wound.killed else c.death_chance(wound.death_threshold)
    return {
        **c.wound_json(wound),
        **effects,
        "outcomes": {"dies": float(p), "survives": float(1 - p)},
        "dies_exact": c.exact(p),
    }


evaluate, roll = verbs(_walk)
