"""Rapid 40000 at the table: the table's adapter for the system (`rules.table.systems`).

Two armies face each other; each squad of their lists is a combatant whose figures live in
`Combatant.state["figures"]`, weakest first and the leader last (R2: "en commençant par la
figurine la plus faible, le joueur qui perd retire une figurine du jeu (le chef le dernier à
être retiré du jeu)"; the weakest is the cheapest by R1, "Plus il est puissant, plus il est
cher"). The last figure leads: the leader while it lives, then the strongest left (the text
names "le chef ou le sous-officier"; a squad whose leader fell is led by who is left). A
vehicle is a squad of one figure (Véhicules blindés: "considéré comme une unité à part
entière").

Every roll goes through the engine's Rapid 40000 resolvers (`rules.engine.systems.rapid40k
.resolvers`): shooting and overwatch (the squad's figures with the weapon chosen against the
target's figures), melee (both sides' figures), morale and disengagement (the leader's
Quality), an attack on a vehicle (missile or explosive charge). A lost combat removes one
figure from the loser; a rout or a destroyed vehicle takes the squad out of the game. The
turn's alternating activations (two action points a squad) are the players' to keep: the
table does not enforce them.
"""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.permissions import Refusal
from characters.rapid40k.models import Rapid40kArmy, Rapid40kSquad
from rules.engine.systems.rapid40k.campaign import points_lost
from rules.engine.systems.rapid40k.catalogue import Catalogue, Profile, load_catalogue
from rules.engine.systems.rapid40k.costing import profile_cost, vehicle_breakdown
from rules.engine.systems.rapid40k.resolvers import MAX_FIGURES
from rules.labels import RAPID40K_OUTCOME_LABELS as OUTCOME_LABELS
from rules.table.adapter import hand_suffix
from rules.table.checks import require_kind_and_actor
from rules.table.fighters import FightersTable
from rules.table.models import Combatant, EntryKind, Phase

# The rolls a squad makes for itself: the target is not read.
SELF_KINDS = ("set_overwatch", "morale", "disengage")
VEHICLE_ATTACKS = {
    "missile": gettext_lazy("A missile launcher"),
    "explosive_charge": gettext_lazy("An explosive charge (in contact)"),
}
MORALE_LABELS = {
    "holds": gettext_lazy("holds"),
    "flees_one_move": gettext_lazy("flees one move"),
    "flees_two_moves": gettext_lazy("flees two moves"),
    "routs": gettext_lazy("routs: out of the game"),
}


def _figure(profile: dict[str, Any], catalogue: Catalogue, *, leader: bool = False) -> dict:
    rules = list(profile.get("special_rules") or [])
    costed = Profile(profile["quality"], profile["combat"], profile["weapon"], tuple(rules))
    return {
        "quality": profile["quality"],
        "combat": profile["combat"],
        "weapon": profile["weapon"],
        "special_rules": rules,
        "points": profile_cost(costed, catalogue),
        "leader": leader,
    }


def weapon_choices() -> list[tuple[str, str]]:
    """The catalogue's weapons, for the action form."""
    return [(slug, w.label) for slug, w in load_catalogue().weapons.items()]


def squad_state(squad: Rapid40kSquad, catalogue: Catalogue) -> dict[str, Any]:
    """A squad's live state: its figures weakest first and the leader last (R2), or its
    vehicle as one figure with the vehicle's weapons."""
    if squad.vehicle:
        vehicle = catalogue.vehicles[squad.vehicle]
        figures = [
            {
                "quality": vehicle.quality,
                "combat": vehicle.combat,
                "weapon": vehicle.weapons[0] if vehicle.weapons else "",
                "special_rules": list(vehicle.special_rules),
                "points": vehicle_breakdown(squad.vehicle, catalogue).points,
                "leader": True,
            }
        ]
        weapons = list(vehicle.weapons)
    else:
        fighters = [
            _figure(row, catalogue)
            for row in squad.fighters or []
            for _n in range(int(row.get("count", 1)))
        ]
        fighters.sort(key=lambda f: f["points"])
        leader = [_figure(squad.leader, catalogue, leader=True)] if squad.leader else []
        figures = fighters + leader
        weapons = [f["weapon"] for f in figures]
    return {
        "army": squad.army_id,
        "squad": squad.pk,
        "vehicle": squad.vehicle,
        "weapons": weapons,
        "figures": figures,
        "start": len(figures),
        # Its cost (R1): what its casualties are priced from (CL2, `points_lost`).
        "cost": squad.points,
        "lost": [],
        "overwatch": False,
        "engaged": False,
        "immobilised": False,
        "fleeing": "",
        "morale_due": False,
        "routed": False,
    }


def _points_lost(state: dict[str, Any]) -> int:
    """The points a squad's casualties cost it, counted as the settlement counts them
    (RULES-NOTES CL2, `points_lost`). A squad brought to the table before its state kept
    its cost is costed from its figures."""
    lost = state.get("lost", [])
    start = int(state.get("start") or len(lost) + len(state.get("figures", [])))
    cost = state.get("cost")
    if cost is None:
        cost = sum(f["points"] for f in [*state.get("figures", []), *lost])
    return points_lost(int(cost), start, len(lost))


def army_combatants(army: Rapid40kArmy, side: str, player) -> list[Combatant]:
    """An army's squads as (unsaved) combatants of one side, played by `player`."""
    catalogue = load_catalogue()
    squads = [s for s in army.squads.all() if s.vehicle or s.leader or s.fighters]
    return [
        Combatant(side=side, name=squad.name, player=player, state=squad_state(squad, catalogue))
        for squad in squads
    ]


def _lead(combatant) -> dict[str, Any]:
    """Who leads the squad's rolls: its last figure (the leader while it lives)."""
    return combatant.state["figures"][-1]


def _count(combatant) -> int:
    return min(MAX_FIGURES, len(combatant.state["figures"]))


def _carried(squad) -> list[str]:
    """The weapons of the squad's living figures (a vehicle's, while it stands)."""
    if squad.state["vehicle"]:
        return list(squad.state["weapons"])
    return [f["weapon"] for f in squad.state["figures"]]


def _weapon(actor, action) -> tuple[str, int]:
    """The weapon a squad shoots with (the option, or the one most of it carries) and how
    many of its figures carry it ("pour chaque figurine de l'unité ayant le même type
    d'arme, lancer 1d6")."""
    carried = _carried(actor)
    chosen = action.options.get("squad_weapon") or max(carried, key=carried.count, default="")
    if chosen not in carried:
        raise Refusal(_("No figure of this squad carries that weapon."), field="squad_weapon")
    return chosen, min(MAX_FIGURES, carried.count(chosen))


def _missile(actor, action) -> str:
    """The blast weapon a squad fires at a vehicle ("Détruire un véhicule blindé avec un
    lance missile/bazooka"): the one chosen, or the first it carries."""
    catalogue = load_catalogue()
    blast = {s for s, w in catalogue.weapons.items() if w.kind == "blast_template"}
    carried = [w for w in _carried(actor) if w in blast]
    chosen = action.options.get("squad_weapon") or (carried[0] if carried else "")
    if chosen not in carried:
        raise Refusal(
            _("This squad carries no missile launcher: use an explosive charge."),
            field="squad_weapon",
        )
    return chosen


def _flag(action, name: str) -> bool:
    return action.options.get(name) is True


def remove_figure(squad) -> list[str]:
    """The squad loses its weakest figure, the leader last (R2); out of the game when none is
    left. A squad brought to half its starting number, or that lost a Chef, tests its morale
    (Le Moral: "quand le nombre de départ de l'unité est diminué de moitié (en arrondissant
    à l'entier inférieur)"; CHEF: "lors de la perte d'un chef ... l'équipe doit immédiatement
    faire un test de moral")."""
    state = squad.state
    figures = list(state["figures"])
    if not figures:
        return []
    lost = figures.pop(0)
    effects = ["figure_lost"]
    half = state["start"] // 2
    halved = len(figures) <= half < len(state["figures"])
    chef_lost = lost["leader"] and "chef" in lost["special_rules"]
    due = bool(figures) and (state["morale_due"] or halved or chef_lost)
    squad.state = {**state, "figures": figures, "lost": [*state["lost"], lost], "morale_due": due}
    if due and not state["morale_due"]:
        effects.append("morale_due")
    if not figures:
        squad.dead = True
        effects.append("wiped_out")
    return effects


def _remove(loser, winner) -> list[str]:
    effects = remove_figure(loser)
    if effects and winner is not None:
        winner.kills += 1
    return effects


def badges(state: dict[str, Any]) -> list[str]:
    shown = []
    if state.get("overwatch"):
        shown.append(str(_("overwatch")))
    if state.get("engaged"):
        shown.append(str(_("in a melee")))
    if state.get("immobilised"):
        shown.append(str(_("immobilised")))
    if state.get("fleeing"):
        shown.append(str(MORALE_LABELS.get(state["fleeing"], state["fleeing"])))
    if state.get("morale_due"):
        shown.append(str(_("must test its morale")))
    return shown


class Rapid40kTable(FightersTable):
    SYSTEM = "rapid40k"
    KINDS = (
        "shoot",
        "overwatch",
        "set_overwatch",
        "melee",
        "morale",
        "disengage",
        "vehicle",
        "remove",
    )
    KIND_LABELS = {
        "shoot": gettext_lazy("Shoot"),
        "overwatch": gettext_lazy("Shoot from overwatch"),
        "set_overwatch": gettext_lazy("Go into overwatch"),
        "melee": gettext_lazy("Fight in melee"),
        "morale": gettext_lazy("Morale roll"),
        "disengage": gettext_lazy("Disengage from a melee"),
        "vehicle": gettext_lazy("Attack a vehicle"),
        "remove": gettext_lazy("Remove a figure (organisers)"),
    }
    MANAGER_KINDS = ("remove",)
    OPTION_FIELDS = (
        "squad_weapon",
        "aimed",
        "charged",
        "power_attack",
        "chef_nearby",
        "vehicle_attack",
    )
    FORM_FIELDS = ("kind", "actor", "target", *OPTION_FIELDS, "roll")
    HAND_DICE = ("dice", "deviation_dice", "a_dice", "b_dice")
    PHASES = (Phase.ACTION,)
    FIRST_PHASE = Phase.ACTION
    PICKUP_ARMIES = True
    ADVANCE_LABELS = {Phase.ACTION: gettext_lazy("Next turn")}
    FIELD_LABELS = {
        "a_dice": gettext_lazy("Dice of who acts (one per figure)"),
        "b_dice": gettext_lazy("Dice of the target (one per figure)"),
        "dice": gettext_lazy("Quality roll (3 dice)"),
    }

    def chapter_combatants(self, chapter) -> tuple[list[str], list[Combatant], str]:
        """The Rapid 40000 chapter's encounter: each army entered is a side (or the side it was
        entered on), each of its squads a combatant its player plays."""
        entries = list(
            chapter.army_entries.select_related("army")
            .prefetch_related("army__squads")
            .order_by("entered_at", "pk")
        )
        sides = list(dict.fromkeys((e.side or e.army.name) for e in entries))
        if len(sides) < 2:
            raise Refusal(_("An encounter needs two sides: enter at least two armies."))
        combatants = [
            c
            for entry in entries
            for c in army_combatants(entry.army, entry.side or entry.army.name, entry.player)
        ]
        return sides, combatants, entries[0].army.catalogue_version

    def check_action(self, encounter, actor, target, action) -> None:
        if require_kind_and_actor(action, actor, target, kinds=self.KINDS, applied="remove"):
            return
        state = actor.state
        if action.kind in SELF_KINDS:
            if action.kind == "disengage" and not state["engaged"]:
                raise Refusal(_("This squad is not engaged in a melee."), field="actor")
            if action.kind == "set_overwatch" and state["engaged"]:
                raise Refusal(_("A squad in a melee cannot go into overwatch."), field="actor")
            return
        self.require_other_living(actor, target)
        if action.kind == "vehicle":
            if not target.state["vehicle"]:
                raise Refusal(_("Choose a vehicle."), field="target")
            return
        if target.state["vehicle"]:
            raise Refusal(
                _("A vehicle is attacked with a missile or an explosive charge."), field="target"
            )
        if action.kind == "overwatch" and not state["overwatch"]:
            raise Refusal(_("This squad is not in overwatch."), field="actor")
        if action.kind == "melee" and state["vehicle"]:
            raise Refusal(_("A vehicle does not fight in melee."), field="actor")

    def resolver_input(self, encounter, actor, target, action) -> tuple[str | None, dict]:
        """The resolver of the action and its input from both squads' live figures."""
        kind = action.kind
        if kind == "remove":
            return None, {"removed": 1}
        if kind == "set_overwatch":
            return None, {"overwatch": True}
        lead = _lead(actor)
        if kind == "morale":
            return "morale", {
                "quality": lead["quality"],
                "special_rules": lead["special_rules"],
                "chef_nearby": _flag(action, "chef_nearby"),
            }
        if kind == "disengage":
            return "disengage", {"quality": lead["quality"]}
        if kind == "vehicle":
            attack = action.options.get("vehicle_attack") or "missile"
            if attack not in VEHICLE_ATTACKS:
                raise Refusal(_("Choose a missile or an explosive charge."), field="vehicle_attack")
            data = {
                "attack": attack,
                "quality": lead["quality"],
                "vehicle": target.state["vehicle"],
            }
            if attack == "missile":
                data.update(weapon=_missile(actor, action), combat=lead["combat"])
            return "vehicle", data
        other = _lead(target)
        if kind == "melee":
            return "melee", {
                "a": {
                    "figures": _count(actor),
                    "combat": lead["combat"],
                    "special_rules": lead["special_rules"],
                    "charged": _flag(action, "charged"),
                    "power_attack": _flag(action, "power_attack"),
                },
                "b": {
                    "figures": _count(target),
                    "combat": other["combat"],
                    "special_rules": other["special_rules"],
                },
            }
        weapon, shooters = _weapon(actor, action)
        return "overwatch" if kind == "overwatch" else "shooting", {
            "weapon": weapon,
            "shooters": shooters,
            "combat": lead["combat"],
            "quality": lead["quality"],
            "special_rules": lead["special_rules"],
            "aimed": kind == "shoot" and _flag(action, "aimed"),
            "target": {
                "figures": _count(target),
                "combat": other["combat"],
                "special_rules": other["special_rules"],
            },
        }

    def apply_outcome(self, encounter, action, outcome: dict[str, Any], actor, target, everyone=()):
        kind, result = action.kind, outcome.get("outcome")
        if kind == "remove":
            return remove_figure(target)
        if kind == "set_overwatch":
            actor.state = {**actor.state, "overwatch": True}
            return ["overwatch"]
        if kind == "morale":
            routed = result == "routs"
            fleeing = "" if result == "holds" else result
            actor.state = {**actor.state, "morale_due": False, "fleeing": fleeing, "routed": routed}
            if routed:
                # "l'unité est en déroute (l'unité est retirée du jeu)": its figures count as lost.
                state = actor.state
                actor.state = {**state, "figures": [], "lost": [*state["lost"], *state["figures"]]}
                actor.dead = True
            return [result]
        if kind == "disengage":
            if result == "disengages":
                actor.state = {**actor.state, "engaged": False}
            return [result]
        if kind == "vehicle":
            if result == "destroyed":
                state = target.state
                target.state = {**state, "figures": [], "lost": [*state["lost"], *state["figures"]]}
                target.dead = True
                actor.kills += 1
            elif result == "immobilised":
                target.state = {**target.state, "immobilised": True}
            return [result]
        if kind == "melee":
            # Overwatch: "Le marqueur est supprimé dès que l'unité ... entre dans un combat au
            # corps à corps".
            for squad in (actor, target):
                squad.state = {**squad.state, "engaged": True, "overwatch": False}
            if result == "a_wins":
                return [result, *_remove(target, actor)]
            if result == "b_wins":
                return [result, *_remove(actor, target)]
            return [result]
        if result == "hit":
            return [result, *_remove(target, actor)]
        return [result]

    def advance(self, encounter, combatants: list[Combatant]) -> tuple[str, dict[str, Any]]:
        """The turn ends when every squad has been played: the next one starts (the overwatch
        markers stay, "jusqu'à ce que le joueur n'en décide autrement")."""
        ended = encounter.turn
        encounter.turn += 1
        return EntryKind.END_PHASE, {"turn": ended, "characters": []}

    def summary(self, encounter, combatants: list[Combatant]) -> dict[str, Any]:
        """What happened, for the chapter's close: per side and per army, each squad's figures
        lost and their points (R1), and whether it was wiped out, routed or destroyed."""
        sides: dict[str, dict[str, Any]] = {}
        armies: dict[str, dict[str, Any]] = {}
        for c in combatants:
            state = c.state or {}
            lost = state.get("lost", [])
            row = {
                "squad": state.get("squad"),
                "name": c.name,
                "start": state.get("start", 0),
                "lost": len(lost),
                "points_lost": _points_lost(state),
                "out": c.dead,
                "routed": state.get("routed", False),
            }
            side = sides.setdefault(c.side, {"lost": [], "figures_lost": 0, "points_lost": 0})
            army = armies.setdefault(
                str(state.get("army")),
                {"side": c.side, "player": c.player_id, "squads": [], "figures_lost": 0},
            )
            army["squads"].append(row)
            army["figures_lost"] += row["lost"]
            side["figures_lost"] += row["lost"]
            side["points_lost"] += row["points_lost"]
            if c.dead:
                side["lost"].append(c.name)
        return {
            "encounter": encounter.pk,
            "ended": True,
            "turns": encounter.turn,
            "sides": sides,
            "armies": armies,
        }

    def action_text(self, data: dict, actor: str, target: str) -> str:
        outcome = data.get("outcome") or {}
        kind, result = data.get("kind"), outcome.get("outcome")
        names = {"actor": actor, "target": target}
        effects = data.get("effects") or []
        if kind == "remove":
            text = _("%(target)s loses a figure.") % names
        elif kind == "set_overwatch":
            text = _("%(actor)s goes into overwatch.") % names
        elif kind == "morale":
            text = _("%(actor)s tests its morale: %(result)s.") % {
                **names,
                "result": MORALE_LABELS.get(result, result),
            }
        elif kind == "disengage":
            text = (
                _("%(actor)s disengages.")
                if result == "disengages"
                else _("%(actor)s stays in the melee.")
            ) % names
        elif kind == "vehicle":
            text = {
                "destroyed": _("%(actor)s destroys %(target)s."),
                "immobilised": _("%(actor)s immobilises %(target)s."),
                "deviated": _("%(actor)s's shot at %(target)s deviates."),
            }.get(result, _("%(actor)s does not damage %(target)s.")) % names
        elif kind == "melee":
            text = {
                "a_wins": _(
                    "%(actor)s wins the melee against %(target)s: %(target)s loses a figure."
                ),
                "b_wins": _(
                    "%(target)s wins the melee against %(actor)s: %(actor)s loses a figure."
                ),
                "armour_saved": _("%(actor)s and %(target)s: the armour saves the loser."),
            }.get(result, _("%(actor)s and %(target)s: a tie, nobody falls.")) % names
        else:
            text = {
                "hit": _("%(actor)s shoots %(target)s: a figure falls."),
                "deviated": _("%(actor)s's shot at %(target)s deviates."),
                "armour_saved": _("%(actor)s shoots %(target)s: the armour saves it."),
            }.get(result, _("%(actor)s shoots %(target)s: no effect.")) % names
            if kind == "overwatch":
                text += " " + _("(overwatch)")
        if "wiped_out" in effects:
            text += " " + _("The squad is wiped out.")
        elif "morale_due" in effects:
            text += " " + _("It must test its morale.")
        return text + hand_suffix(data)

    def state_lines(self, state: dict[str, Any]) -> list[tuple[str, str]]:
        """What the page shows of a squad: its figures left and their leader's numbers."""
        figures = state.get("figures") or []
        if state.get("vehicle"):
            vehicle = load_catalogue().vehicles.get(state["vehicle"])
            lines = [(str(_("Vehicle")), vehicle.label if vehicle else state["vehicle"])]
        else:
            lines = [(str(_("Figures")), f"{len(figures)}/{state.get('start', 0)}")]
        if figures:
            lead = figures[-1]
            lines.append((str(_("Quality / Combat")), f"{lead['quality']}+ / {lead['combat']}"))
        return lines

    def card_fields(self, combatant, *, sees: bool) -> dict[str, Any]:
        state = combatant.state or {}
        return {"state_lines": tuple(self.state_lines(state)), "badges": badges(state)}

    def odds_rows(self, odds: dict[str, Any]) -> list[tuple[str, str]]:
        """Every outcome in the calculators' words (A: who acts, B: the target)."""
        exact = odds.get("outcomes_exact") or {}
        return [(str(OUTCOME_LABELS.get(key, key)), p) for key, p in exact.items()]


ADAPTER = Rapid40kTable()
