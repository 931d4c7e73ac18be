"""What an attack does once its dice are judged: table row, wound, death roll, incidents.

Shared by the ranged and melee resolvers and the `death` resolver. The tables of numbers
are the catalogue's (K7 damage tables, K8 wounds and death-roll thresholds); the follow-up
tables the catalogue does not hold yet (K9 incidents, the stray shots of a shot into a
melee, the miss's temper roll, the 666 of each affiliation) are data here, each citing
its passage.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.engine.systems.kolaps.catalogue import Catalogue, DamageTable, Wound

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

# K9: "The major-incident table (1 / 2-5 / 6) is read with a fresh 1D6." Rows: (lowest
# face, highest face, effect). Ranged: "1 : ... l'arme est détruite, l'Attaquent perd 3
# points de santé et effectue un jet de mort. 2-5 : Le tir ... n'atteint pas la cible
# souhaitée mais l'allié le plus proche de la cible et lui inflige une blessure légère. Le
# tireur perd un point de moral. 6 : ... le personnage est désarmé ... Il perd 1 point de
# moral." Melee: "1 : Une maladresse désastreuse envoie l'attaquant au sol ... Il perd 3
# points de santé et effectue un jet de mort. 2-5 : Le coup atteint l'allié le plus proche
# et lui inflige une blessure légère ... 6 : Par chance l'incident n'est que mineur."
MAJOR_INCIDENT = {
    "ranged": ((1, 1, "weapon_destroyed"), (2, 5, "ally_hit"), (6, 6, "disarmed")),
    "melee": ((1, 1, "attacker_falls"), (2, 5, "ally_hit"), (6, 6, "disarmed")),
}

# What each incident does to the attacker (and to whom else).
INCIDENT_EFFECTS: dict[str, dict[str, Any]] = {
    "weapon_destroyed": {"attacker_sante_loss": 3, "attacker_death_roll": True},
    "attacker_falls": {"attacker_sante_loss": 3, "attacker_death_roll": True},
    "ally_hit": {"ally_wound": "light", "attacker_moral": -1},
    # Minor incident (K7 "failure with a 1"): "le personnage est désarmé et devra passer
    # le tour suivant en « soutien » pour récupérer son arme. Il perd 1 point de moral."
    "disarmed": {"disarmed": True, "attacker_moral": -1},
}

# "Manqué : L'attaque n'atteint pas sa cible, et le tireur s'énerve. Le joueur lance 1D6
# avec un seuil de 3. En cas d'échec le personnage perd 1 point de moral."
TEMPER_THRESHOLD = 3

# "Tir dans une mêlée ... Tout résultat d'« échec » indique une possibilité d'avoir touché
# quelqu'un d'autre. On lance un D6 : 1: La figurine alliée du tireur ... reçoit une
# blessure sérieuse et le tireur perd un point de moral. 2-3: Une figurine alliée de la
# cible reçoit une blessure légère. 4-5: C'est un échec standard. 6: Un allié de la cible
# présent dans la mêlée ... subit une blessure légère."
STRAY_SHOT: tuple[tuple[int, int, str, dict[str, Any]], ...] = (
    (1, 1, "shooter_ally_hit", {"ally_wound": "serious", "attacker_moral": -1}),
    (2, 3, "target_ally_hit", {"ally_wound": "light"}),
    (4, 5, "plain_miss", {}),
    (6, 6, "target_ally_hit", {"ally_wound": "light"}),
)

# The 666 of each affiliation (K5: "the affiliation's 666 effect applies, besides the
# outcome"). Annexe 1 (APC): "le personnage agissant est envahi par une puissance
# surnaturelle. Ses jauges de moral, santé et souffle sont remises et bloquées a 6 pour le
# restant de la partie. Si le 666 est obtenu au combat alors l'adversaire est retiré du
# théatre sur le champ en tant que perte. Dans les autres cas ... c'est une réussite
# critique." Annexe 2 (Shéol): the same, "De plus toutes les blessures qu'il occasionne au
# corps a corps sont augmentées d'un niveau". Chrisme has no annex: no effect.
SIX_SIX_SIX: dict[str, dict[str, Any]] = {
    "apc": {
        "gauges_locked_at": 6,
        "in_combat": "opponent_removed",
        "otherwise": "critical_success",
        "melee_wounds_one_level_worse": False,
        "ref": "Annexe 1, Règles propres à l'APC, 666",
    },
    "sheol": {
        "gauges_locked_at": 6,
        "in_combat": "opponent_removed",
        "otherwise": "critical_success",
        "melee_wounds_one_level_worse": True,
        "ref": "Annexe 2, Règles propres au Shéol, 666",
    },
}

# Shéol 666, "augmentées d'un niveau (superficielles devient légères, légères devient
# sérieuses etc)": the text's own examples jump from superficial to light, so benign also
# becomes light, then one row down the table.
ONE_LEVEL_WORSE = {
    "superficial": "light",
    "benign": "light",
    "light": "serious",
    "serious": "grave",
    "grave": "very_grave",
    "very_grave": "lethal",
    "lethal": "lethal",
}


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
