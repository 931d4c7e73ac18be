"""What an attack does once its dice are judged: table row, wound, death roll, incidents.

Shared by the ranged and melee resolvers and the `death` resolver. Every table of numbers
is the catalogue's: K7 damage tables, K8 wounds and death-roll thresholds, and the
follow-ups (K9 incidents, stray shots, the temper roll, each affiliation's 666).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.engine.systems.kolaps.catalogue_records import Catalogue, DamageTable, Wound

# The talent whose levels change power, death rolls and regeneration (K7, K8, K18).
METABOLISM = "metabolisme-inhumain-vampire"

# K7: the rows of both damage tables, in order of gravity, as the calculator shows them.
ROWS = (
    "major_incident",
    "minor_incident",
    "miss",
    "hit_but",
    "superficial",
    "benign",
    "light",
    "serious",
    "grave",
    "very_grave",
    "lethal",
)
WOUNDS = ROWS[4:]

# The follow-up tables (K9 incidents, the stray shots of a shot into a melee, the miss's
# temper roll, the 666 of each affiliation, the Shéol's wounds one level worse) are the
# catalogue's `tables.follow_ups`, each citing its passage there.


def face_row(rows: tuple[tuple[Any, ...], ...], face: int) -> tuple[Any, ...]:
    for row in rows:
        if row[0] <= face <= row[1]:
            return row
    raise ValueError(f"no row for the face {face}")


def table_row(table: DamageTable, outcome: str, value: int | None) -> str:
    """K7: the row of the damage table: by outcome, or by damage value on a success.

    "Damage value = referent die + weapon power (rolled) + talent effects ... Ranged:
    critical failure: major incident; failure with a 1: minor incident; failure: miss;
    mitigated success: 'hit but...' (no wound); value <= 0: superficial; ... critical
    success: lethal."
    """
    if outcome in table.by_outcome:
        return table.by_outcome[outcome]
    if value is None:
        raise ValueError("a success needs its damage value")
    return table.wound_for(value)


def divided_power(power: int, divisor: int) -> int:
    """K7: "Inhuman metabolism divides the rolled weapon power by 2 (expertise 1) or 3
    (expertise 2 and 3), rounded down." """
    return power // divisor if divisor > 1 else power


@dataclass(frozen=True)
class WoundResult:
    wound: str
    sante_before: int
    sante_after: int
    killed: bool
    death_threshold: int | None  # None: no death roll


def apply_wound(
    catalogue: Catalogue, wound: str, sante: int, death_modifier: int = 0
) -> WoundResult:
    """K8: the Santé a wound leaves and the death roll it calls for.

    "superficial -1 Santé; benign -2; light -2 and a death roll; serious -3, death roll ...;
    very grave Santé set to 1, death roll ...; lethal: killed ... Damage never takes Santé
    below 1: death comes from death rolls. A death roll is 1D6 after the loss, threshold
    by the new Santé (6: none, 5: 2, 4: 3, 3: 4, 2: 5, 1: 6; inhuman metabolism 3 lowers
    it by 1); below the threshold the character dies."
    """
    wounds = catalogue.tables.wounds
    row: Wound = wounds.rows[wound]
    if row.killed:
        return WoundResult(wound, sante, sante, True, None)
    if row.sante_set_to is not None:
        after = row.sante_set_to
    else:
        after = max(wounds.sante_floor, sante - (row.sante_loss or 0))
    threshold = death_threshold(catalogue, after, death_modifier) if row.death_roll else None
    return WoundResult(wound, sante, after, False, threshold)


def death_threshold(catalogue: Catalogue, sante: int, modifier: int = 0) -> int | None:
    """K8: the death-roll threshold at a Santé; None when there is none (Santé 6)."""
    base = catalogue.tables.death_roll.threshold_by_sante[sante]
    return None if base is None else base + modifier


def death_chance(threshold: int | None) -> Fraction:
    """K8: "below the threshold the character dies": (threshold - 1) faces of six."""
    if threshold is None:
        return Fraction(0)
    return Fraction(min(6, max(0, threshold - 1)), 6)


def dies(threshold: int | None, die: int) -> bool:
    return threshold is not None and die < threshold


def wound_json(result: WoundResult) -> dict[str, Any]:
    return {
        "wound": result.wound,
        "sante_before": result.sante_before,
        "sante_after": result.sante_after,
        "death_roll_threshold": result.death_threshold,
        "killed": result.killed,
    }


def exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"
