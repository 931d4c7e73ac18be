"""KOLAPS at the table: the table's adapter for the system (`rules.table.systems`).

The engine's resolvers take plain data and answer plain data; this module builds their
inputs from the live state of two combatants (`ranged_input`, `melee_input`, `wound_input`)
and applies their outcome to that state (`apply_attack`, `apply_wound`, `apply_end_phase`).
The adapter's verbs (`chapter_combatants`, `check_action`, `resolver_input`,
`apply_outcome`, `advance`, `summary`, `action_text`) are what the generic services call.
It changes the combatants and the encounter it is given and never saves them: the service
does, under its lock.
"""

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.kolaps.models import KolapsCharacter, KolapsUnit
from characters.permissions import Refusal
from rules.engine.registry import resolver_get
from rules.engine.systems.kolaps.catalogue import Catalogue, load_catalogue
from rules.engine.systems.kolaps.ranged import ORDERS
from rules.table.models import Combatant, EntryKind, Phase
from rules.templatetags.outcomes import row_label

SYSTEM = "kolaps"
KINDS = ("ranged", "melee", "wound")
KIND_LABELS = {
    "ranged": gettext_lazy("Shoot"),
    "melee": gettext_lazy("Fight in melee"),
    "wound": gettext_lazy("Apply a wound (organisers)"),
}
# The kinds an organiser applies directly, without an actor.
MANAGER_KINDS = ("wound",)
# The action form's fields this system shows, and the dice typed in by hand (the resolvers'
# field names).
FORM_FIELDS = ("kind", "actor", "target", "weapon", "distance_cm", "cover", "wound", "roll")
HAND_DICE = ("dice", "a_dice", "b_dice", "power_dice", "death_die")
PHASES = (Phase.SPEECH, Phase.ACTION)
FIRST_PHASE = Phase.SPEECH
ADVANCE_LABELS = {
    Phase.SPEECH: gettext_lazy("To the action phase"),
    Phase.ACTION: gettext_lazy("End phase, next turn"),
}
# The live state an action or an end phase changes (what a snapshot keeps and undo restores).
STATE_FIELDS = (
    "sante",
    "souffle",
    "moral",
    "directive",
    "revealed",
    "on_ground",
    "unconscious",
    "dead",
    "engaged",
    "breath_spent",
    "sante_lost",
    "wounds",
    "kills",
)
DEFAULT_ORDER = "movement"
# K11's order directives, as the table names them.
DIRECTIVE_LABELS = {
    "support": gettext_lazy("Support"),
    "defensive": gettext_lazy("Defensive"),
    "offensive": gettext_lazy("Offensive"),
    "movement": gettext_lazy("Movement"),
}


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


# --- The adapter's verbs (rules.table.systems) ---------------------------------------------


def unit_combatants(unit: KolapsUnit, side: str, player) -> list[Combatant]:
    """A unit's characters as (unsaved) combatants of one side, played by `player`."""
    catalogue = catalogue_of(unit.catalogue_version)
    members = KolapsCharacter.objects.filter(unit=unit).order_by("position", "pk")
    return [
        Combatant(
            side=side,
            name=character.name,
            player=player,
            kolaps_character=character,
            rank=character.rank,
            affiliation=character.affiliation,
            is_avatar=character.is_avatar,
            talents=character.talents,
            weapons=weapons_of(character.equipment, catalogue),
            armour=armour_of(character.equipment, catalogue),
            sante=character.sante,
            souffle=character.souffle,
            moral=character.moral,
        )
        for character in members
    ]


def chapter_combatants(chapter) -> tuple[list[str], list[Combatant], str]:
    """The KOLAPS chapter's encounter: each unit entered is a side (or the side it was
    entered on), each of its characters a combatant its player plays. Answers the sides,
    the unsaved combatants and the catalogue version."""
    entries = list(chapter.unit_entries.select_related("unit").order_by("entered_at", "pk"))
    sides = list(dict.fromkeys((e.side or e.unit.name) for e in entries))
    if len(sides) < 2:
        raise Refusal(_("An encounter needs two sides: enter at least two units."))
    combatants = [
        c
        for entry in entries
        for c in unit_combatants(entry.unit, entry.side or entry.unit.name, entry.player)
    ]
    return sides, combatants, entries[0].unit.catalogue_version


def check_action(encounter, actor, target, action) -> None:
    if action.kind not in KINDS:
        raise Refusal(_("Choose what the combatant does."), field="kind")
    if action.kind == "wound":
        if target.dead:
            raise Refusal(_("This combatant is dead."), field="target")
        return
    if encounter.phase != Phase.ACTION:
        raise Refusal(_("Attacks are made in the action phase."), field="kind")
    if actor is None:
        raise Refusal(_("Choose a combatant of this encounter."), field="actor")
    if actor.pk == target.pk:
        raise Refusal(_("A combatant does not attack itself."), field="target")
    if actor.dead or actor.unconscious:
        raise Refusal(_("This combatant cannot act now."), field="actor")
    if target.dead:
        raise Refusal(_("This combatant is dead."), field="target")
    if not 0 <= action.distance_cm <= 1000:
        raise Refusal(_("A distance from 0 to 1000 cm."), field="distance_cm")
    if not 0 <= action.cover <= 4:
        raise Refusal(_("Cover from 0 to 4."), field="cover")


def resolver_input(encounter, actor, target, action) -> tuple[str, dict]:
    """The resolver an action calls and its input, from the live state."""
    catalogue = catalogue_of(encounter.catalogue_version)
    if action.kind == "wound":
        if action.wound not in catalogue.tables.wounds.rows:
            raise Refusal(_("Choose a wound."), field="wound")
        return "death", wound_input(target, wound=action.wound, catalogue=catalogue)
    kind = "ranged" if action.kind == "ranged" else "melee"
    weapons = weapons_for(actor, kind, catalogue)
    if not weapons:
        raise Refusal(_("This combatant has no weapon for that."), field="weapon")
    weapon = action.weapon or weapons[0]
    if weapon not in weapons:
        raise Refusal(_("Choose one of the combatant's weapons."), field="weapon")
    if kind == "ranged":
        data = ranged_input(
            actor,
            target,
            weapon=weapon,
            distance_cm=action.distance_cm,
            cover=action.cover,
            catalogue=catalogue,
        )
        return "ranged", data
    return "melee", melee_input(actor, target, weapon=weapon, catalogue=catalogue)


def apply_outcome(
    encounter, action, outcome: dict[str, Any], actor, target, everyone=()
) -> list[str]:
    """The outcome's consequences on the live state of the actor and the target."""
    if action.kind == "wound":
        return apply_wound(outcome, target)
    return apply_attack(outcome, actor, target, catalogue_of(encounter.catalogue_version))


def _end_phase(combatants: list[Combatant]) -> dict[str, Any]:
    """K14 for every living combatant; the next turn's trackers start afresh."""
    living = [c for c in combatants if not c.dead]
    result: dict[str, Any] = {"characters": []}
    if living:
        ends = resolver_get(SYSTEM, "end_phase").evaluate({"characters": end_phase_input(living)})[
            "characters"
        ]
        for combatant, end in zip(living, ends, strict=True):
            apply_end_phase(end, combatant)
            result["characters"].append({"id": combatant.pk, **end})
    return result


def advance(encounter, combatants: list[Combatant]) -> tuple[str, dict[str, Any]]:
    """The organiser moves the turn on: speech -> action; action -> the end phase (K14,
    then K15's attacker) and the next turn's speech. Answers the log line's kind and data."""
    if encounter.phase == Phase.SPEECH:
        encounter.phase = Phase.ACTION
        return EntryKind.PHASE, {"phase": Phase.ACTION}
    sides = next_attacker_input(combatants, encounter.attacker_side)
    # K15 counts this turn's revealed fighters, before the end phase hides them again.
    next_attacker = None
    if len(sides["sides"]) >= 2:
        next_attacker = resolver_get(SYSTEM, "next_attacker").evaluate(sides)
    result = _end_phase(combatants)
    if next_attacker is not None:
        encounter.attacker_side = next_attacker["attacker"]
        result["next_attacker"] = next_attacker
    ended_turn = encounter.turn
    encounter.turn += 1
    encounter.phase = Phase.SPEECH
    return EntryKind.END_PHASE, {"turn": ended_turn, **result}


def summary(encounter, combatants: list[Combatant]) -> dict[str, Any]:
    """What happened, for the chapter's close: per side and per unit entered, the characters
    lost and wounded and the Moral they end with (KOLAPS speaks of nothing else)."""
    sides: dict[str, dict[str, Any]] = {}
    units: dict[str, dict[str, Any]] = {}
    for c in combatants:
        rows = [sides.setdefault(c.side, {"lost": [], "wounded": [], "moral": {}, "kills": 0})]
        unit_id = c.kolaps_character.unit_id if c.kolaps_character else None
        if unit_id is not None:
            rows.append(
                units.setdefault(
                    str(unit_id),
                    {"side": c.side, "lost": [], "lost_ids": [], "wounded": [], "moral": {}},
                )
            )
            if c.dead:
                units[str(unit_id)]["lost_ids"].append(c.kolaps_character_id)
        for row in rows:
            if c.dead:
                row["lost"].append(c.name)
            elif c.wounds:
                row["wounded"].append(c.name)
            row["moral"][c.name] = c.moral
        sides[c.side]["kills"] += c.kills
    return {
        "encounter": encounter.pk,
        "ended": True,
        "turns": encounter.turn,
        "sides": sides,
        "units": units,
    }


def action_text(data: dict, actor: str, target: str) -> str:
    """An action's line in the log."""
    outcome = data.get("outcome") or {}
    if data.get("kind") == "wound":
        text = _("%(target)s: %(wound)s") % {
            "target": target,
            "wound": row_label(outcome.get("wound")),
        }
    else:
        verb = _("shoots") if data.get("kind") == "ranged" else _("fights")
        text = _("%(actor)s %(verb)s %(target)s: %(row)s") % {
            "actor": actor,
            "verb": verb,
            "target": target,
            "row": row_label(outcome.get("row")),
        }
    hit = outcome.get("target") if data.get("kind") != "wound" else outcome
    if (hit or {}).get("sante_after") is not None:
        text += " " + _("(Santé %(before)s → %(after)s)") % {
            "before": hit.get("sante_before"),
            "after": hit.get("sante_after"),
        }
    if (hit or {}).get("killed"):
        text += " — " + _("killed")
    if data.get("by_hand"):
        text += " · " + _("dice rolled by hand")
    return text
