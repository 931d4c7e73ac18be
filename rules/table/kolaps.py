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
from django.utils.translation import gettext_lazy, ngettext

from characters.kolaps.models import KolapsCharacter, KolapsUnit
from characters.permissions import Refusal
from rules.engine.registry import resolver_get
from rules.engine.systems.kolaps import at_the_table as k18
from rules.engine.systems.kolaps.attack import OWN_SIDE_STRAYS
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import Catalogue
from rules.engine.systems.kolaps.ranged import ORDERS
from rules.table.adapter import TableAdapter
from rules.table.models import Combatant, EntryKind, Phase
from rules.templatetags.outcomes import row_label

SYSTEM = "kolaps"
# The side a character played for before K12 sent it to the other (kept in its state).
K12_FROM = "k12_from"
# K18's talent rolls (their dice are the talent's level in the catalogue) and the fall.
TALENT_KINDS = {
    "sonar": k18.SONAR,
    "terreur": k18.TERREUR,
    "ralliement": k18.RALLIEMENT,
    "shield": k18.SHIELD,
}
# The rolls a combatant makes for itself: the target is not read.
SELF_KINDS = ("shield", "fall")
KINDS = ("ranged", "melee", "wound", *TALENT_KINDS, "fall")
KIND_LABELS = {
    "ranged": gettext_lazy("Shoot"),
    "melee": gettext_lazy("Fight in melee"),
    "wound": gettext_lazy("Apply a wound (organisers)"),
    "sonar": gettext_lazy("Sonar (seek the target)"),
    "terreur": gettext_lazy("Terreur (on the target)"),
    "ralliement": gettext_lazy("Ralliement (rally the target, an ally)"),
    "shield": gettext_lazy("Bouclier roll (does the shield protect?)"),
    "fall": gettext_lazy("Fall roll"),
}
# The kinds an organiser applies directly, without an actor.
MANAGER_KINDS = ("wound",)
# The action form's fields this system shows, and the dice typed in by hand (the resolvers'
# field names).
FORM_FIELDS = (
    "kind",
    "actor",
    "target",
    "weapon",
    "distance_cm",
    "cover",
    "wound",
    "allies_near",
    "armed_fist",
    "melee_figures",
    "stray_ally",
    "roll",
)
HAND_DICE = ("dice", "a_dice", "b_dice", "power_dice", "death_die", "stray_die", "stray_death_die")
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
    # K18's Moral events of the turn (`moral_events`), counted until the end phase.
    "state",
)
# The action's own fields handed to the adapter: the target's allies the acting player says
# were within 25 cm of it (K8's lethal wound; the server knows no distances).
# K18's armed fists (`armed_fist`: a pistol in melee), and a shot into a melee: the figures in
# it (`melee_figures`) and the shooter's ally a stray shot on its own side hits (`stray_ally`).
OPTION_FIELDS = ("allies_near", "armed_fist", "melee_figures", "stray_ally")
# A stray shot that reaches the target's side (Tir dans une mêlée 2-3 and 6) waits in the
# target's `state` (`PENDING_STRAY`: what an undo of the shot takes back with it) for its
# player to choose the figure hit: an action of its own (`STRAY_CHOICE`, not in `KINDS`: its
# page and API call `rules.table.services.encounter_choose_stray`). Until then no other
# action, no next phase and no end (docs/table.md, "The stray shot on the target's side").
PENDING_STRAY = "stray_pending"
STRAY_CHOICE = "stray_choice"
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


def pistols_for(combatant, catalogue: Catalogue) -> list[str]:
    """The combatant's pistols, if it has armed fists (K18; Poing armé: "peuvent utiliser une
    arme de type pistolet au corps à corps"), else none."""
    if k18.ARMED_FIST not in _talents(combatant, catalogue):
        return []
    return [
        w
        for w in combatant.weapons
        if w in catalogue.weapons and catalogue.weapons[w].talent == k18.PISTOL_TALENT
    ]


def armed_fist_of(combatant, catalogue: Catalogue | None = None) -> bool:
    """Whether the combatant may fight in melee with armed fists (the card offers it)."""
    return bool(pistols_for(combatant, catalogue or load_catalogue()))


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


# --- K18 at the table: Moral from events, the allies within 25 cm, regeneration --------------


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


def _lethal_for_allies(row: str | None, struck, action, everyone, catalogue) -> list[str]:
    """K8: "lethal: killed, attacker +2 Moral, the target's allies within 25 cm -1 Moral",
    at once, for the allies ticked (`allies_near`)."""
    wound = catalogue.tables.wounds.rows.get(row or "")
    if wound is None or not wound.allies_moral or not struck.dead:
        return []
    near = allies_near(action, struck, everyone)
    for ally in near:
        _moral(ally, wound.allies_moral, catalogue)
    return ["allies_moral"] if near else []


def regeneration_of(combatant, catalogue: Catalogue) -> int:
    """K18: "level 0 of inhuman metabolism regenerating 1 Santé in the end phase"."""
    return k18.regeneration(_talents(combatant, catalogue), catalogue)


def melee_breath_of(combatant) -> dict[str, int]:
    """K18: "1 Souffle per melee turn after the first" (Le Souffle: "où le personnage est
    offensif"): the turns in a row this combatant has been engaged, this one included, and
    the Souffle this turn costs it (an offensive order; taken in the end phase)."""
    turns = int((combatant.state or {}).get("melee_turns", 0)) + 1 if combatant.engaged else 0
    offensive = combatant.directive == "offensive"
    return {"turns": turns, "souffle": k18.melee_breath(turns, offensive) if turns else 0}


def moral_changes_of(combatant) -> int:
    """The Moral the turn's K18 events give or take (the Avatar's never changes, K13)."""
    events = (combatant.state or {}).get("moral_events") or {}
    counted = {e: int(n) for e, n in events.items() if e in k18.EVENTS and n}
    terreur = 0 if combatant.is_avatar else int((combatant.state or {}).get("terreur_moral", 0))
    return k18.moral_from_events(combatant.rank, combatant.is_avatar, counted) + terreur


# K18's Moral effects by value (the activation die), as the card says them.
MORAL_EFFECT_LABELS = {
    "may_change_order": gettext_lazy("may change its order"),
    "must_change_order": gettext_lazy("must take an order of another nature"),
    "flees": gettext_lazy("flees towards the table's edge"),
    "opponent_changes_order": gettext_lazy("the opponent changes its order"),
    "rogue_against_avatar": gettext_lazy("turns against the Avatar, a third faction"),
    "activates_with_another": gettext_lazy("activates with another vampire"),
    "charges_nearest_enemy": gettext_lazy("charges the nearest enemy"),
    "frenzy": gettext_lazy("frenzy: attacks on sight"),
}


def _faces(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def combatant_notes(combatant, catalogue: Catalogue | None = None) -> list[str]:
    """What K18 lets a combatant do, on its card: the activation die's effects at its Moral
    (both tables), the ground, the regeneration and the Moral its turn's events will give."""
    if combatant.dead:
        return []
    catalogue = catalogue or load_catalogue()
    notes = []
    table = k18.load_table_rules().moral_effects.get(combatant.affiliation)
    if table is not None and not combatant.is_avatar:
        effects = [
            _("on %(faces)s, %(effect)s") % {"faces": _faces(low, high), "effect": label}
            for low, high, effect in table[combatant.moral]
            if (label := MORAL_EFFECT_LABELS.get(effect)) is not None
        ]
        if effects:
            notes.append(
                _("Activation die at Moral %(moral)s: %(effects)s.")
                % {"moral": combatant.moral, "effects": "; ".join(effects)}
            )
    if combatant.on_ground:
        rules = k18.load_table_rules()
        notes.append(
            _(
                "On the ground: static, +%(db)s DB, a quarter of its move; a turn in support "
                "to get up."
            )
            % {"db": rules.ground_db}
        )
    healing = regeneration_of(combatant, catalogue)
    if healing:
        notes.append(
            ngettext(
                "Regenerates %(count)s Santé in the end phase.",
                "Regenerates %(count)s Santé in the end phase.",
                healing,
            )
            % {"count": healing}
        )
    change = moral_changes_of(combatant)
    if change:
        notes.append(
            _("Moral in the end phase: %(change)+d (the turn's events).") % {"change": change}
        )
    return notes


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


def frozen_combatants(frozen: dict, side: str, players: dict, existing: set[int]):
    """A unit as it was frozen when its chapter started (`campaigns.chapters.entries`), as
    (unsaved) combatants: a character who changes sides under K12 (`changes_side_to`)
    plays for the other side, by its player, and remembers the side it came from.
    `existing`: the frozen characters still kept by the unit's player (a campaign imported
    from another site froze ids that are not this site's)."""
    catalogue = catalogue_of(frozen["catalogue_version"])
    combatants = []
    for member in frozen["members"]:
        plays_for = member.get("changes_side_to") or side
        combatants.append(
            Combatant(
                side=plays_for,
                name=member["name"],
                player=players[plays_for],
                kolaps_character_id=member["id"] if member["id"] in existing else None,
                rank=member["rank"],
                affiliation=member["affiliation"],
                is_avatar=member["is_avatar"],
                talents=member["talents"],
                weapons=weapons_of(member["equipment"], catalogue),
                armour=armour_of(member["equipment"], catalogue),
                sante=member["sante"],
                souffle=member["souffle"],
                moral=member["moral"],
                state={K12_FROM: side} if plays_for != side else {},
            )
        )
    return combatants


def chapter_combatants(chapter) -> tuple[list[str], list[Combatant], str]:
    """The KOLAPS chapter's encounter: each unit entered is a side (or the side it was
    entered on), each of its characters a combatant its player plays. A started chapter
    plays its units as they were frozen at the start, with K12's side changes. Answers
    the sides, the unsaved combatants and the catalogue version."""
    entries = list(chapter.unit_entries.select_related("unit").order_by("entered_at", "pk"))
    side_of = {e.pk: e.side or e.frozen.get("name") or e.unit.name for e in entries}
    sides = list(dict.fromkeys(side_of.values()))
    if len(sides) < 2:
        raise Refusal(_("An encounter needs two sides: enter at least two units."))
    if all(entry.frozen for entry in entries):
        players = {}
        for entry in entries:
            players.setdefault(side_of[entry.pk], entry.player)
        ids = [m["id"] for entry in entries for m in entry.frozen["members"]]
        kept = set(KolapsCharacter.objects.filter(pk__in=ids).values_list("pk", "owner_id"))
        combatants = [
            c
            for entry in entries
            for c in frozen_combatants(
                entry.frozen,
                side_of[entry.pk],
                players,
                {pk for pk, owner in kept if owner == entry.player_id},
            )
        ]
        return sides, combatants, entries[0].frozen["catalogue_version"]
    combatants = [
        c for entry in entries for c in unit_combatants(entry.unit, side_of[entry.pk], entry.player)
    ]
    return sides, combatants, entries[0].unit.catalogue_version


def check_action(encounter, actor, target, action) -> None:
    everyone = _living(encounter)
    if action.kind == STRAY_CHOICE:
        # The choice read before the lock must still be the one waiting under it.
        ally = None if target.pk == actor.pk else target.pk
        if stray_choice(everyone, ally) != (actor.pk, target.pk):
            raise Refusal(
                _("This changed while you were deciding: here is the new state."), status=409
            )
        return
    refuse_while_pending(everyone)
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
    if actor.dead or actor.unconscious:
        raise Refusal(_("This combatant cannot act now."), field="actor")
    if action.kind in SELF_KINDS:
        return
    if actor.pk == target.pk:
        raise Refusal(_("A combatant does not attack itself."), field="target")
    if action.kind == "ralliement" and target.side != actor.side:
        raise Refusal(_("Ralliement rallies an ally."), field="target")
    if target.dead:
        raise Refusal(_("This combatant is dead."), field="target")
    if not 0 <= _distance(action) <= 1000:
        raise Refusal(_("A distance from 0 to 1000 cm."), field="distance_cm")
    if not 0 <= action.cover <= 4:
        raise Refusal(_("Cover from 0 to 4."), field="cover")


# A shot whose distance is not given: the page's default too.
DEFAULT_DISTANCE_CM = 20


def _distance(action) -> float:
    return DEFAULT_DISTANCE_CM if action.distance_cm is None else action.distance_cm


def resolver_input(encounter, actor, target, action) -> tuple[str, dict]:
    """The resolver an action calls and its input, from the live state."""
    catalogue = catalogue_of(encounter.catalogue_version)
    if action.kind == STRAY_CHOICE:
        pending = (actor.state or {}).get(PENDING_STRAY) or {}
        if target.pk == actor.pk:
            return None, {"nobody": True, "stray": pending}
        return "death", wound_input(target, wound=pending.get("wound", ""), catalogue=catalogue)
    if action.kind == "wound":
        if action.wound not in catalogue.tables.wounds.rows:
            raise Refusal(_("Choose a wound."), field="wound")
        return "death", wound_input(target, wound=action.wound, catalogue=catalogue)
    if action.kind in TALENT_KINDS or action.kind == "fall":
        return roll_input(actor, target, action.kind, catalogue)
    kind = "ranged" if action.kind == "ranged" else "melee"
    weapons = weapons_for(actor, kind, catalogue)
    fists = kind == "melee" and bool((action.options or {}).get("armed_fist"))
    if fists:
        weapons = pistols_for(actor, catalogue)
        if not weapons:
            raise Refusal(
                _("Armed fists need the Poing armé talent and a pistol."), field="armed_fist"
            )
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
            distance_cm=_distance(action),
            cover=action.cover,
            catalogue=catalogue,
        )
        data.update(into_melee_input(encounter, actor, target, action))
        return "ranged", data
    if (action.options or {}).get("stray_ally") not in (None, ""):
        raise Refusal(_("A stray shot follows a shot into a melee."), field="stray_ally")
    data = melee_input(actor, target, weapon=weapon, catalogue=catalogue, armed_fist=fists)
    return "melee", data


def _living(encounter) -> list:
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
    everyone = _living(encounter)
    catalogue = catalogue_of(encounter.catalogue_version)
    alone = not any(c.side == target.side and c.pk != target.pk and not c.dead for c in everyone)
    data: dict[str, Any] = {"melee_figures": figures, "target_alone": alone}
    ally = stray_ally_of(action, actor, everyone)
    if ally is None:
        if any(c.side == actor.side and c.pk != actor.pk and not c.dead for c in everyone):
            raise Refusal(_("Name the shooter's ally a stray shot would hit."), field="stray_ally")
        return data
    data["stray_ally"] = {"sante": ally.sante, "talents": _talents(ally, catalogue)}
    return data


def roll_input(actor, target, kind: str, catalogue: Catalogue) -> tuple[str, dict]:
    """K18's rolls at the roller's effective rank and Santé: Sonar, Terreur (against the
    target's Santé), Ralliement and Bouclier at the roller's level of the talent, which it
    must have (the catalogue gives the dice); the fall, one die."""
    data: dict[str, Any] = {"rank": actor.rank, "sante": actor.sante}
    if kind == "fall":
        return "fall", data
    talent = TALENT_KINDS[kind]
    level = _talents(actor, catalogue).get(talent)
    lowest = 0 if kind in ("sonar", "shield") else 1
    if level is None or level < lowest:
        raise Refusal(_("This combatant has not the talent for that."), field="kind")
    data["level"] = level
    if kind == "terreur":
        data["target_sante"] = target.sante
    return kind, data


def _apply_roll(kind: str, outcome: dict[str, Any], actor, target, catalogue) -> list[str]:
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


def _apply_stray(outcome: dict[str, Any], action, actor, everyone, catalogue) -> list[str]:
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


def pending_stray(everyone) -> tuple[Any, dict[str, Any]] | None:
    """The combatant whose ally a stray shot hits, waiting for its player's choice, and what
    it waits for (`shooter`, `die`, `wound`, `in_melee_only`); None when nothing waits."""
    for combatant in everyone:
        pending = (combatant.state or {}).get(PENDING_STRAY)
        if pending:
            return combatant, pending
    return None


def stray_targets(target, everyone) -> list:
    """The figures a stray shot on the target's side may hit: its living allies."""
    return [c for c in everyone if c.side == target.side and c.pk != target.pk and not c.dead]


def refuse_while_pending(everyone) -> None:
    """Tir dans une mêlée: the stray shot's wound belongs to the shot, so its figure is
    chosen before anything else happens at the table."""
    found = pending_stray(everyone)
    if found is not None:
        raise Refusal(
            _(
                "A stray shot hit one of %(target)s's allies: its player chooses which one "
                "before anything else."
            )
            % {"target": found[0].name},
            status=409,
        )


def _pend_target_stray(outcome: dict[str, Any], actor, target, everyone) -> list[str]:
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


def stray_choice(everyone, ally: int | None) -> tuple[int, int]:
    """The choice of the figure a stray shot hits on the target's side: (the target's id,
    the id of the figure hit; the target's own id for nobody, which only a face whose
    figure must be in the melee allows). A `Refusal` sentence for a wrong choice."""
    found = pending_stray(everyone)
    if found is None:
        raise Refusal(_("There is no stray shot to choose for."))
    target, pending = found
    if ally is None:
        if not pending.get("in_melee_only"):
            raise Refusal(
                _("This stray shot hits one of %(target)s's allies: choose which.")
                % {"target": target.name},
                field="ally",
            )
        return target.pk, target.pk
    if ally not in {c.pk for c in stray_targets(target, everyone)}:
        raise Refusal(
            _("Choose one of %(target)s's living allies.") % {"target": target.name},
            field="ally",
        )
    return target.pk, ally


def stray_step(encounter, everyone) -> dict[str, Any] | None:
    """What the page shows of a pending choice: the target, the shooter, the wound, and each
    figure it may hit with the chance that the wound's death roll kills it (K8)."""
    found = pending_stray(everyone)
    if found is None:
        return None
    target, pending = found
    catalogue = catalogue_of(encounter.catalogue_version)
    death = resolver_get(SYSTEM, "death")
    names = {c.pk: c.name for c in everyone}
    wound = str(pending.get("wound", ""))
    return {
        "target": target,
        "shooter": names.get(pending.get("shooter"), "?"),
        "wound": wound,
        "in_melee_only": bool(pending.get("in_melee_only")),
        "options": [
            (c, death.odds(wound_input(c, wound=wound, catalogue=catalogue))["dies_exact"])
            for c in stray_targets(target, everyone)
        ],
    }


def _apply_stray_choice(outcome: dict[str, Any], chooser, hit, everyone) -> list[str]:
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


def refuse_end(encounter, combatants) -> None:
    """The encounter does not end on a stray shot whose figure is still to be chosen."""
    refuse_while_pending(combatants)


def apply_outcome(
    encounter, action, outcome: dict[str, Any], actor, target, everyone=()
) -> list[str]:
    """The outcome's consequences on the live state of the actor and the target, then K18's
    for everyone: the allies ticked within 25 cm of a lethal wound lose Moral at once, and a
    combatant taken out counts a Moral event for every other living combatant."""
    catalogue = catalogue_of(encounter.catalogue_version)
    everyone = list(everyone) or [c for c in (actor, target) if c is not None]
    dead_before = {c.pk for c in everyone if c.dead}
    if action.kind == "wound":
        effects = apply_wound(outcome, target)
        row = outcome.get("wound")
    elif action.kind in TALENT_KINDS or action.kind == "fall":
        effects, row = _apply_roll(action.kind, outcome, actor, target, catalogue), None
        actor.revealed = True
    elif action.kind == STRAY_CHOICE:
        effects, row = _apply_stray_choice(outcome, actor, target, everyone), None
    else:
        effects = apply_attack(outcome, actor, target, catalogue)
        effects += _apply_stray(outcome, action, actor, everyone, catalogue)
        effects += _pend_target_stray(outcome, actor, target, everyone)
        row = outcome.get("row")
    for struck in [c for c in everyone if c.dead and c.pk not in dead_before]:
        if struck.pk == target.pk:
            effects += _lethal_for_allies(row, struck, action, everyone, catalogue)
        effects += taken_out(struck, everyone)
    if not any(e == "allies_moral" for e in effects):
        allies_near(action, target, everyone)  # a wrong tick is refused all the same
    return effects


def _end_phase(combatants: list[Combatant], catalogue: Catalogue) -> dict[str, Any]:
    """K14 for every living combatant; the next turn's trackers start afresh."""
    living = [c for c in combatants if not c.dead]
    result: dict[str, Any] = {"characters": []}
    if living:
        data = {"characters": end_phase_input(living, catalogue)}
        ends = resolver_get(SYSTEM, "end_phase").evaluate(data)["characters"]
        for combatant, end in zip(living, ends, strict=True):
            breath = melee_breath_of(combatant)
            apply_end_phase(end, combatant)
            if breath["souffle"]:
                combatant.souffle = clamp(combatant.souffle - breath["souffle"], catalogue)
                end = {**end, "souffle": combatant.souffle, "melee_souffle": breath["souffle"]}
            combatant.state = {**(combatant.state or {}), "melee_turns": breath["turns"]}
            result["characters"].append({"id": combatant.pk, **end})
    return result


def advance(encounter, combatants: list[Combatant]) -> tuple[str, dict[str, Any]]:
    """The organiser moves the turn on: speech -> action; action -> the end phase (K14,
    then K15's attacker) and the next turn's speech. Answers the log line's kind and data."""
    if encounter.phase == Phase.SPEECH:
        encounter.phase = Phase.ACTION
        return EntryKind.PHASE, {"phase": Phase.ACTION}
    refuse_while_pending(combatants)
    sides = next_attacker_input(combatants, encounter.attacker_side)
    # K15 counts this turn's revealed fighters, before the end phase hides them again.
    next_attacker = None
    if len(sides["sides"]) >= 2:
        next_attacker = resolver_get(SYSTEM, "next_attacker").evaluate(sides)
    result = _end_phase(combatants, catalogue_of(encounter.catalogue_version))
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
                    {
                        "side": (c.state or {}).get(K12_FROM, c.side),
                        "lost": [],
                        "lost_ids": [],
                        "wounded": [],
                        "moral": {},
                    },
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


def _roll_text(kind: str, outcome: dict, actor: str, target: str, by_hand) -> str:
    names = {"actor": actor, "target": target}
    succeeded = outcome.get("succeeded")
    if kind == "sonar":
        text = (
            _("%(actor)s's Sonar finds %(target)s.")
            if succeeded
            else _("%(actor)s's Sonar does not find %(target)s.")
        ) % names
        if outcome.get("vampire_revealed"):
            text += " " + _("A 1: the vampire is revealed.")
    elif kind == "terreur":
        text = (
            _("%(actor)s terrifies %(target)s: inert.")
            if succeeded
            else _("%(target)s resists %(actor)s's Terreur.")
        ) % names
        if outcome.get("target_moral"):
            text += " " + _("Moral %(change)+d.") % {"change": outcome["target_moral"]}
    elif kind == "ralliement":
        text = (
            _("%(actor)s rallies %(target)s: Moral +%(gain)s.")
            if succeeded
            else _("%(actor)s fails to rally %(target)s.")
        ) % {
            **names,
            "gain": outcome.get("moral_regained", 0),
        }
    elif kind == "shield":
        text = (
            _("%(actor)s's shield protects.")
            if succeeded
            else _("%(actor)s's shield does not protect.")
        ) % names
    else:
        text = (_("%(actor)s keeps their footing.") if succeeded else _("%(actor)s falls.")) % names
        wound = outcome.get("wound") or {}
        if wound.get("sante_after") is not None:
            text += " " + _("(Santé %(before)s → %(after)s)") % {
                "before": wound.get("sante_before"),
                "after": wound.get("sante_after"),
            }
        if outcome.get("killed"):
            text += " — " + _("killed")
    if by_hand:
        text += " · " + _("dice rolled by hand")
    return text


def action_text(data: dict, actor: str, target: str) -> str:
    """An action's line in the log."""
    outcome = data.get("outcome") or {}
    if data.get("kind") in (*TALENT_KINDS, "fall"):
        return _roll_text(data.get("kind", ""), outcome, actor, target, data.get("by_hand"))
    if data.get("kind") == STRAY_CHOICE:
        return _stray_choice_text(data, actor, target)
    if data.get("kind") == "wound":
        text = _("%(target)s: %(wound)s") % {
            "target": target,
            "wound": row_label(outcome.get("wound")),
        }
    else:
        verb = _("shoots") if data.get("kind") == "ranged" else _("fights")
        # In a melee either may strike: the struck is named, or the line reads as if the
        # one attacked always took the wound.
        struck = actor if outcome.get("attacker") == "b" else target
        hit = outcome.get("target") or {}
        wounded = hit.get("sante_after") is not None or hit.get("killed")
        text = (
            _("%(actor)s %(verb)s %(target)s: %(row)s for %(struck)s")
            if data.get("kind") == "melee" and wounded
            else _("%(actor)s %(verb)s %(target)s: %(row)s")
        ) % {
            "actor": actor,
            "verb": verb,
            "target": target,
            "struck": struck,
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
    if "stray_pending" in (data.get("effects") or []):
        text += " — " + _(
            "a stray shot hits one of %(target)s's allies: its player chooses which"
        ) % {"target": target}
    if data.get("by_hand"):
        text += " · " + _("dice rolled by hand")
    return text


def _stray_choice_text(data: dict, chooser: str, hit: str) -> str:
    """The log line of the choice: the figure the stray shot hit, its wound and death roll."""
    outcome = data.get("outcome") or {}
    if outcome.get("nobody"):
        return _("Stray shot: no ally of %(target)s in the melee, nobody is hit.") % {
            "target": chooser
        }
    text = _("Stray shot on %(target)s's side: %(hit)s is hit, %(wound)s") % {
        "target": chooser,
        "hit": hit,
        "wound": row_label((data.get("inputs") or {}).get("wound")),
    }
    if outcome.get("sante_after") is not None:
        text += " " + _("(Santé %(before)s → %(after)s)") % {
            "before": outcome.get("sante_before"),
            "after": outcome.get("sante_after"),
        }
    if outcome.get("killed"):
        text += " — " + _("killed")
    if data.get("by_hand"):
        text += " · " + _("dice rolled by hand")
    return text


def card_fields(combatant, *, sees: bool) -> dict[str, Any]:
    """A figure's card at the table: its rank, the gauges (Santé, Souffle, Moral), its order
    directive (None while hidden from the viewer), what K18 lets it do."""
    return {
        "rank": combatant.rank,
        "is_avatar": combatant.is_avatar,
        "sante": combatant.sante,
        "souffle": combatant.souffle,
        "moral": combatant.moral,
        "directive": combatant.directive if sees else None,
        "revealed": combatant.revealed,
        "on_ground": combatant.on_ground,
        "weapons": list(combatant.weapons),
        "notes": combatant_notes(combatant),
        "armed_fist": not combatant.dead and armed_fist_of(combatant),
    }


class KolapsTable(TableAdapter):
    SYSTEM = SYSTEM
    KINDS = KINDS
    KIND_LABELS = KIND_LABELS
    MANAGER_KINDS = MANAGER_KINDS
    FORM_FIELDS = FORM_FIELDS
    HAND_DICE = HAND_DICE
    OPTION_FIELDS = OPTION_FIELDS
    PHASES = PHASES
    FIRST_PHASE = FIRST_PHASE
    STATE_FIELDS = STATE_FIELDS
    ADVANCE_LABELS = ADVANCE_LABELS
    COMBATANT_TEMPLATE = "rules/table/systems/kolaps_combatant.html"
    HAS_ATTACKER = True
    STRAY_CHOICE = STRAY_CHOICE

    chapter_combatants = staticmethod(chapter_combatants)
    check_action = staticmethod(check_action)
    resolver_input = staticmethod(resolver_input)
    apply_outcome = staticmethod(apply_outcome)
    advance = staticmethod(advance)
    summary = staticmethod(summary)
    action_text = staticmethod(action_text)
    card_fields = staticmethod(card_fields)
    refuse_while_pending = staticmethod(refuse_while_pending)
    refuse_end = staticmethod(refuse_end)
    pending_stray = staticmethod(pending_stray)
    stray_choice = staticmethod(stray_choice)
    stray_step = staticmethod(stray_step)


ADAPTER = KolapsTable()
