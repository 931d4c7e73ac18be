"""KOLAPS at the table: what the engine needs from a combatant, and what its answers change.

The engine's resolvers take plain data and answer plain data; this module builds their
inputs from the live state of two combatants (`ranged_input`, `melee_input`, `wound_input`)
and applies their outcome to that state (`apply_attack`, `apply_wound`, `apply_end_phase`).
It changes the combatants it is given and never saves them: the service does, under its lock.
"""

from collections.abc import Iterable
from typing import Any

from rules.engine.systems.kolaps.catalogue import Catalogue, load_catalogue
from rules.engine.systems.kolaps.ranged import ORDERS

KINDS = ("ranged", "melee", "wound")
DEFAULT_ORDER = "movement"


def catalogue_of(version: str) -> Catalogue:
    try:
        return load_catalogue(version) if version else load_catalogue()
    except (KeyError, ValueError, FileNotFoundError):
        return load_catalogue()


def weapons_of(equipment: Iterable[str], catalogue: Catalogue) -> list[str]:
    """The weapons among a character's equipment, in its order."""
    return [slug for slug in equipment if slug in catalogue.weapons]


def armour_of(equipment: Iterable[str], catalogue: Catalogue) -> str:
    return next((slug for slug in equipment if slug in catalogue.armours), "")


def weapons_for(combatant, kind: str, catalogue: Catalogue) -> list[str]:
    """The combatant's weapons of a kind ("ranged" or "melee")."""
    return [
        w for w in combatant.weapons if w in catalogue.weapons and catalogue.weapons[w].kind == kind
    ]


def _talents(combatant, catalogue: Catalogue) -> dict[str, int]:
    """The combatant's talents the resolvers know, at a level they accept."""
    return {
        slug: int(level)
        for slug, level in (combatant.talents or {}).items()
        if slug in catalogue.talents and 0 <= int(level) <= 3
    }


def _fighter(combatant, catalogue: Catalogue) -> dict[str, Any]:
    data: dict[str, Any] = {
        "rank": combatant.rank,
        "sante": combatant.sante,
        "talents": _talents(combatant, catalogue),
    }
    if combatant.affiliation in catalogue.affiliations:
        data["affiliation"] = combatant.affiliation
    if combatant.armour:
        data["armour"] = combatant.armour
    return data


def order_seen(target) -> str:
    """The order a shooter aims at: the target's directive once revealed (K11)."""
    if target.revealed and target.directive in ORDERS:
        return target.directive
    return DEFAULT_ORDER


def ranged_input(actor, target, *, weapon: str, distance_cm: float, cover: int, catalogue):
    """The ranged resolver's input (RULES-NOTES K4-K9, K11) from the live gauges."""
    shooter = _fighter(actor, catalogue)
    shot_at = _fighter(target, catalogue)
    shot_at.pop("affiliation", None)
    shot_at.update(order=order_seen(target), cover=cover, unconscious=target.unconscious)
    return {
        "attacker": shooter,
        "weapon": weapon,
        "distance_cm": distance_cm,
        "target": shot_at,
    }


def melee_input(actor, target, *, weapon: str, catalogue):
    """The melee resolver's input (RULES-NOTES K10, K16): a is the actor, b its target."""
    theirs = weapons_for(target, "melee", catalogue)
    a = {**_fighter(actor, catalogue), "weapon": weapon}
    b = {**_fighter(target, catalogue), "weapon": theirs[0] if theirs else weapon}
    return {"a": a, "b": b}


def wound_input(target, *, wound: str, catalogue):
    """The death resolver's input (RULES-NOTES K8): a wound decided at the table."""
    return {"sante": target.sante, "wound": wound, "talents": _talents(target, catalogue)}


def clamp(value: int, catalogue: Catalogue) -> int:
    follow = catalogue.tables.follow_ups
    return max(follow.gauge_min, min(follow.gauge_max, value))


def _struck(combatant, target: dict[str, Any]) -> None:
    after = target.get("sante_after")
    if after is not None:
        combatant.sante_lost = min(6, combatant.sante_lost + max(0, combatant.sante - after))
        combatant.sante = after
        combatant.wounds += 1
    if target.get("killed"):
        combatant.dead = True
        combatant.on_ground = True


def _moral(combatant, change: int, catalogue: Catalogue) -> None:
    # K14: the Avatar's Moral "ne peut pas être modifié".
    if change and not combatant.is_avatar:
        combatant.moral = clamp(combatant.moral + change, catalogue)


def apply_attack(outcome: dict[str, Any], actor, target, catalogue: Catalogue) -> list[str]:
    """Apply a ranged or melee outcome: the wound and death roll of whoever was struck, the
    striker's Moral for a serious wound or worse (K8), the miss's temper roll, a major
    incident's cost to the attacker (K9). Returns the names of the effects applied."""
    striker, struck = actor, target
    if outcome.get("attacker") == "b":
        striker, struck = target, actor
    effects: list[str] = []
    hit = outcome.get("target") or {}
    if hit.get("sante_after") is not None or hit.get("killed"):
        _struck(struck, hit)
        effects.append("killed" if hit.get("killed") else "wounded")
    row = outcome.get("row")
    wound = catalogue.tables.wounds.rows.get(row or "")
    if wound is not None and (hit.get("wound") or hit.get("killed")):
        _moral(striker, wound.attacker_moral, catalogue)
        if wound.attacker_moral:
            effects.append("attacker_moral")
    if hit.get("killed"):
        striker.kills += 1
    temper = (outcome.get("temper") or {}).get("attacker_moral", 0)
    if temper:
        _moral(striker, temper, catalogue)
        effects.append("temper")
    incident = outcome.get("incident") or {}
    if incident.get("attacker_sante_after") is not None:
        _struck(striker, {"sante_after": incident["attacker_sante_after"]})
        effects.append("incident")
    if incident.get("attacker_killed") or incident.get("attacker_dies"):
        striker.dead = striker.on_ground = True
    if "a" in (outcome.get("scores") or {}):
        actor.engaged = target.engaged = True
    actor.revealed = True
    return effects


def apply_wound(outcome: dict[str, Any], target) -> list[str]:
    _struck(target, outcome)
    return ["killed" if outcome.get("killed") else "wounded"]


def end_phase_input(combatants) -> list[dict[str, Any]]:
    """K14's input for the living combatants, in order."""
    return [
        {
            "name": c.name,
            "rank": c.rank,
            "avatar": c.is_avatar,
            "sante": c.sante,
            "souffle": c.souffle,
            "moral": c.moral,
            "sante_lost": c.sante_lost,
            "breath_spent": c.breath_spent,
            "engaged": c.engaged,
            "unconscious": c.unconscious,
        }
        for c in combatants
    ]


def apply_end_phase(result: dict[str, Any], combatant) -> None:
    """K14 steps 2-6 for one combatant, then the next turn's fresh trackers."""
    combatant.sante = result["sante"]
    combatant.souffle = result["souffle"]
    combatant.moral = result["moral"]
    if result["gets_up"]:
        combatant.unconscious = combatant.on_ground = False
    if result["unconscious_next_turn"]:
        combatant.unconscious = combatant.on_ground = True
    combatant.sante_lost = 0
    combatant.breath_spent = combatant.engaged = False
    combatant.directive = ""
    combatant.revealed = False


def next_attacker_input(combatants, previous: str) -> dict[str, Any]:
    """K15's input: each side's living combatants, revealed or not."""
    sides: dict[str, list[dict[str, Any]]] = {}
    for c in combatants:
        sides.setdefault(c.side, [])
        if not c.dead:
            sides[c.side].append({"rank": c.rank, "moral": c.moral, "revealed": c.revealed})
    return {"sides": sides, "previous": previous if previous in sides else next(iter(sides))}
