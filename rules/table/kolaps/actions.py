"""KOLAPS at the table: the actions. The engine's resolvers take plain data and answer
plain data; these functions build their inputs from the live state of the combatants
(`ranged_input`, `melee_input`, `wound_input`, `roll_input`, `into_melee_input`) and apply
their outcome to that state (`apply_attack`, `apply_wound`, `apply_roll`, the stray shots,
`apply_end_phase`). The adapter (`rules.table.kolaps.adapter`) calls them.
"""

from typing import Any

from django.utils.translation import gettext as _

from characters.permissions import Refusal
from rules.engine.systems.kolaps import at_the_table as k18
from rules.engine.systems.kolaps.attack import OWN_SIDE_STRAYS
from rules.engine.systems.kolaps.catalogue_records import Catalogue
from rules.engine.systems.kolaps.ranged import ORDERS
from rules.table.kolaps.combatants import (
    catalogue_of,
    moral_changes_of,
    pistols_for,
    regeneration_of,
    talents_of,
    weapons_for,
)

# K18's talent rolls (their dice are the talent's level in the catalogue) and the fall.
TALENT_KINDS = {
    "sonar": k18.SONAR,
    "terreur": k18.TERREUR,
    "ralliement": k18.RALLIEMENT,
    "shield": k18.SHIELD,
}

# The rolls a combatant makes for itself: the target is not read.
SELF_KINDS = ("shield", "fall")

# A stray shot that reaches the target's side (Tir dans une mêlée 2-3 and 6) waits in the
# target's `state` (`PENDING_STRAY`: what an undo of the shot takes back with it) for its
# player to choose the figure hit: an action of its own (the adapter's `STRAY_CHOICE`). Until
# then no other action, no next phase and no end (docs/table.md, "The stray shot on the
# target's side").
PENDING_STRAY = "stray_pending"

DEFAULT_ORDER = "movement"


def _fighter(combatant, catalogue: Catalogue) -> dict[str, Any]:
    data: dict[str, Any] = {
        "rank": combatant.rank,
        "sante": combatant.sante,
        "talents": talents_of(combatant, catalogue),
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


def melee_input(actor, target, *, weapon: str, catalogue, armed_fist: bool = False):
    """The melee resolver's input (RULES-NOTES K10, K16): a is the actor, b its target.
    With armed fists (K18), the actor's weapon is a pistol and its Pistolet expertise stands
    for its melee expertise."""
    theirs = weapons_for(target, "melee", catalogue)
    a = {**_fighter(actor, catalogue), "weapon": weapon}
    b = {**_fighter(target, catalogue), "weapon": theirs[0] if theirs else weapon}
    if armed_fist:
        a["armed_fist"] = True
    their_pistols = pistols_for(target, catalogue)
    if not theirs and (armed_fist or their_pistols):
        # A target without a melee weapon fights back with its own armed fists if it has them.
        if not their_pistols:
            raise Refusal(_("The target has no weapon to fight back in melee."), field="target")
        b.update(weapon=their_pistols[0], armed_fist=True)
    return {"a": a, "b": b}


def wound_input(target, *, wound: str, catalogue):
    """The death resolver's input (RULES-NOTES K8): a wound decided at the table."""
    return {"sante": target.sante, "wound": wound, "talents": talents_of(target, catalogue)}


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


# --- K18 at the table: Moral from events, the allies within 25 cm --------------------------


def _count_event(combatant, event: str) -> None:
    """One more K18 Moral event of the turn for a living combatant (a new dict: the
    service's snapshot compares the old one)."""
    events = dict((combatant.state or {}).get("moral_events") or {})
    events[event] = events.get(event, 0) + 1
    combatant.state = {**(combatant.state or {}), "moral_events": events}


def taken_out(struck, everyone) -> list[str]:
    """K18: "Moral changes from events (ally killed -1, Novices -2; enemy taken out +1)";
    the text: "un personnage de l'Unité mis hors combat -1 à ses membres, -2 pour les
    novices; un adversaire mis hors combat +1". Each living member of the side of a
    combatant taken out counts an ally lost, each living member of the other sides an enemy
    taken out; the end phase turns the turn's count into Moral (K14's `moral_changes`)."""
    for other in everyone:
        if other.pk == struck.pk or other.dead:
            continue
        _count_event(other, "ally_taken_out" if other.side == struck.side else "enemy_taken_out")
    return ["moral_events"]


def allies_near(action, struck, everyone) -> list:
    """The struck combatant's allies the acting player ticked as within 25 cm of it (none
    unless ticked): the server knows no distances."""
    ticked = (getattr(action, "options", None) or {}).get("allies_near") or []
    try:
        wanted = {int(pk) for pk in ticked}
    except (TypeError, ValueError):
        raise Refusal(_("Tick only allies of the target."), field="allies_near") from None
    allies = [c for c in everyone if c.pk in wanted and c.side == struck.side and c.pk != struck.pk]
    if len(allies) != len(wanted):
        raise Refusal(_("Tick only allies of the target."), field="allies_near")
    return [c for c in allies if not c.dead]


def lethal_for_allies(row: str | None, struck, action, everyone, catalogue) -> list[str]:
    """K8: "lethal: killed, attacker +2 Moral, the target's allies within 25 cm -1 Moral",
    at once, for the allies ticked (`allies_near`)."""
    wound = catalogue.tables.wounds.rows.get(row or "")
    if wound is None or not wound.allies_moral or not struck.dead:
        return []
    near = allies_near(action, struck, everyone)
    for ally in near:
        _moral(ally, wound.allies_moral, catalogue)
    return ["allies_moral"] if near else []


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


def end_phase_input(combatants, catalogue: Catalogue | None = None) -> list[dict[str, Any]]:
    """K14's input for the living combatants, in order, with K18's regeneration (`healing`)
    and the Moral of the turn's events (`moral_changes`)."""
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
            "healing": regeneration_of(c, catalogue) if catalogue is not None else 0,
            "moral_changes": max(-10, min(10, moral_changes_of(c))),
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
    # The turn's K18 bookkeeping starts again (events, Terreur's Moral and inertia).
    turn_only = ("moral_events", "terreur_moral", "inert")
    combatant.state = {k: v for k, v in (combatant.state or {}).items() if k not in turn_only}


def next_attacker_input(combatants, previous: str) -> dict[str, Any]:
    """K15's input: each side's living combatants, revealed or not."""
    sides: dict[str, list[dict[str, Any]]] = {}
    for c in combatants:
        sides.setdefault(c.side, [])
        if not c.dead:
            sides[c.side].append({"rank": c.rank, "moral": c.moral, "revealed": c.revealed})
    return {"sides": sides, "previous": previous if previous in sides else next(iter(sides))}


# A shot whose distance is not given: the page's default too.
DEFAULT_DISTANCE_CM = 20


def distance_of(action) -> float:
    return DEFAULT_DISTANCE_CM if action.distance_cm is None else action.distance_cm


def combatants_of(encounter) -> list:
    """The encounter's combatants (those the service holds under its lock, when it does)."""
    held = getattr(encounter, "live_combatants", None)
    return list(held) if held is not None else list(encounter.combatants.all())


def stray_ally_of(action, actor, everyone) -> Any:
    """The shooter's ally the acting player names for a stray shot on the shooter's own
    side, or None when none is named."""
    raw = (action.options or {}).get("stray_ally")
    if raw in (None, ""):
        return None
    try:
        wanted = int(raw)
    except (TypeError, ValueError):
        wanted = None
    ally = next((c for c in everyone if c.pk == wanted), None)
    if ally is None or ally.side != actor.side or ally.pk == actor.pk or ally.dead:
        raise Refusal(
            _("A stray shot on the shooter's side hits one of its living allies: choose one."),
            field="stray_ally",
        )
    return ally


def into_melee_input(encounter, actor, target, action) -> dict[str, Any]:
    """A shot into a melee ("Tir dans une mêlée"): the figures in it, whether the target is
    alone on its side (K18: "the stray shot that hits the shooter's own figure (-1 Moral)
    when the target is alone") and the shooter's ally a stray shot on its side would hit,
    whom the acting player names before the dice (the server knows no distances)."""
    raw = (action.options or {}).get("melee_figures")
    try:
        figures = int(raw or 0)
    except (TypeError, ValueError):
        figures = -1
    if not 0 <= figures <= 20:
        raise Refusal(_("From 0 to 20 figures in the melee."), field="melee_figures")
    if figures < 2:
        if (action.options or {}).get("stray_ally") not in (None, ""):
            raise Refusal(_("A stray shot follows a shot into a melee."), field="stray_ally")
        return {}
    everyone = combatants_of(encounter)
    catalogue = catalogue_of(encounter.catalogue_version)
    alone = not any(c.side == target.side and c.pk != target.pk and not c.dead for c in everyone)
    data: dict[str, Any] = {"melee_figures": figures, "target_alone": alone}
    ally = stray_ally_of(action, actor, everyone)
    if ally is None:
        if any(c.side == actor.side and c.pk != actor.pk and not c.dead for c in everyone):
            raise Refusal(_("Name the shooter's ally a stray shot would hit."), field="stray_ally")
        return data
    data["stray_ally"] = {"sante": ally.sante, "talents": talents_of(ally, catalogue)}
    return data


def roll_input(actor, target, kind: str, catalogue: Catalogue) -> tuple[str, dict]:
    """K18's rolls at the roller's effective rank and Santé: Sonar, Terreur (against the
    target's Santé), Ralliement and Bouclier at the roller's level of the talent, which it
    must have (the catalogue gives the dice); the fall, one die."""
    data: dict[str, Any] = {"rank": actor.rank, "sante": actor.sante}
    if kind == "fall":
        return "fall", data
    talent = TALENT_KINDS[kind]
    level = talents_of(actor, catalogue).get(talent)
    lowest = 0 if kind in ("sonar", "shield") else 1
    if level is None or level < lowest:
        raise Refusal(_("This combatant has not the talent for that."), field="kind")
    data["level"] = level
    if kind == "terreur":
        data["target_sante"] = target.sante
    return kind, data


def apply_roll(kind: str, outcome: dict[str, Any], actor, target, catalogue) -> list[str]:
    """What K18's rolls change: Terreur's inert target (and its Moral at level 2),
    Ralliement's Moral given back to the ally, the fall's figure on the ground and a
    Novice's light wound. Sonar and Bouclier change nothing: their answer is in the log."""
    if kind == "terreur" and outcome.get("target_inert"):
        # "at level 2 it also loses 1 Moral in the end phase": kept until then.
        lost = int(outcome.get("target_moral") or 0) + (target.state or {}).get("terreur_moral", 0)
        target.state = {**(target.state or {}), "inert": True, "terreur_moral": lost}
        return ["target_inert"]
    if kind == "ralliement" and outcome.get("moral_regained"):
        _moral(target, int(outcome["moral_regained"]), catalogue)
        return ["moral_regained"]
    if kind == "fall" and outcome.get("falls"):
        actor.on_ground = True
        wound = outcome.get("wound") or {}
        if wound.get("sante_after") is not None or outcome.get("killed"):
            _struck(
                actor, {"sante_after": wound.get("sante_after"), "killed": outcome.get("killed")}
            )
            return ["fell", "wounded"]
        return ["fell"]
    return []


def apply_stray(outcome: dict[str, Any], action, actor, everyone, catalogue) -> list[str]:
    """A stray shot on the shooter's own side (Tir dans une mêlée 1, and 2-3 when the target
    is alone, K18): the shooter loses its Moral, the ally named takes the wound at once with
    its death roll."""
    stray = outcome.get("stray") or {}
    if stray.get("effect") not in OWN_SIDE_STRAYS:
        return []
    effects = []
    if stray.get("attacker_moral"):
        _moral(actor, int(stray["attacker_moral"]), catalogue)
        effects.append("stray_moral")
    hit = stray.get("ally")
    ally = stray_ally_of(action, actor, everyone)
    if hit and ally is not None:
        _struck(ally, hit)
        effects.append("stray_ally_killed" if hit.get("killed") else "stray_ally_wounded")
    return effects


# --- The stray shot on the target's side: chosen by its player after the roll --------------


def stray_targets(target, everyone) -> list:
    """The figures a stray shot on the target's side may hit: its living allies."""
    return [c for c in everyone if c.side == target.side and c.pk != target.pk and not c.dead]


def pend_target_stray(outcome: dict[str, Any], actor, target, everyone) -> list[str]:
    """A shot's stray shot that reaches the target's side (`k18.target_side_stray`) waits in
    the target's state for its player to choose the figure hit."""
    stray = outcome.get("stray") or {}
    faces = (outcome.get("follow_up") or {}).get("stray_die") or []
    if not stray or not faces:
        return []
    alone = not stray_targets(target, everyone)
    read = k18.target_side_stray(stray, int(faces[0]), alone)
    if read is None:
        return []
    pending = {"shooter": actor.pk, "die": int(faces[0]), **read}
    target.state = {**(target.state or {}), PENDING_STRAY: pending}
    return ["stray_pending"]


def apply_stray_choice(outcome: dict[str, Any], chooser, hit, everyone) -> list[str]:
    """The figure chosen takes the stray shot's wound with its death roll (K8), the shooter
    counting the kill; the pending step is over."""
    pending = (chooser.state or {}).get(PENDING_STRAY) or {}
    chooser.state = {k: v for k, v in (chooser.state or {}).items() if k != PENDING_STRAY}
    if hit.pk == chooser.pk:
        return ["stray_nobody"]
    _struck(hit, outcome)
    if not outcome.get("killed"):
        return ["stray_target_ally_wounded"]
    shooter = next((c for c in everyone if c.pk == pending.get("shooter")), None)
    if shooter is not None:
        shooter.kills += 1
    return ["stray_target_ally_killed"]
