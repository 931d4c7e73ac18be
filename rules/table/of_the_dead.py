"""Of the Dead at the table: the table's adapter for the system (`rules.table.systems`).

A combatant's live state is the engine's (`rules.engine.systems.of_the_dead.states`): its
life markers, its Moral and its markers (panic, stun, noise, zeal, caution, stealth, sprint;
bleeding, burning, on the ground, unconscious), kept in `Combatant.state` with its
attributes (Réflexes, Combat, Physique), what it is (a player's character, a zombie of a
type, a non-player character), its kills by zombie type and the damage it dealt and took.

The turn is movement, action, wrap-up, each in initiative order (RULES-NOTES O5), read
afresh from the live state whenever the page is drawn or a figure acts (`order`), and
enforced (`check_turn`): a figure acts in its turn, once per phase (`state["played"]`,
which an undo puts back with the rest of its state), the organiser overriding. An action builds the
engine resolver's input from the live state (`resolver_input`: brawl, shot, throw, blast,
an evasion to flee, a move), and its outcome's `effects` go through the engine's
`apply_effects` at once (`apply_outcome`); the simple actions (pull together, first aid,
make noise) are the engine's named effects, without dice. Leaving the wrap-up phase runs
the engine's `wrap_up` (noise decay, stun countdown, bleeding and burning damage).

It changes the encounter and combatants it is given and never saves them: the service
does, under its lock.
"""

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.permissions import members_of
from characters.models import Profile
from characters.permissions import Refusal
from characters.profiles.models import ProfileStatus
from rules.engine.errors import RuleInputError
from rules.engine.systems.of_the_dead import states
from rules.engine.systems.of_the_dead import turn as turn_module
from rules.engine.systems.of_the_dead.catalogue import (
    COVERS,
    MOVES,
    RANGES,
    SIZES,
    load_catalogue,
)
from rules.engine.systems.of_the_dead.explosives import ITEMS
from rules.labels import (
    OTD_COVER_LABELS,
    OTD_ITEM_LABELS,
    OTD_MOVE_LABELS,
    OTD_RANGE_LABELS,
    OTD_SIZE_LABELS,
)
from rules.rolls.services import _sentence
from rules.table.adapter import TableAdapter, hand_suffix
from rules.table.models import Combatant, EntryKind, Phase

# Actions on oneself: the target is the actor.
SELF_KINDS = ("move", "pull_together", "make_noise", "pass")
# The turn (O5) goes figure by figure in initiative order: an action is the acting figure's
# turn in the phase, and it is done. Two kinds are not a turn: making noise is "une action
# gratuite" (made while acting, so in one's turn, and one still acts), and an explosive
# thrown last turn goes off "avant les joueurs" (whoever is to play).
FREE_KINDS = ("make_noise",)
UNORDERED_KINDS = ("blast",)

SURVIVORS, ZOMBIES, OTHERS = "survivors", "zombies", "others"
SIDE_LABELS = {
    SURVIVORS: gettext_lazy("Survivors"),
    ZOMBIES: gettext_lazy("Zombies"),
    OTHERS: gettext_lazy("Others"),
}
PC, ZOMBIE, NPC = "pc", "zombie", "npc"
MARKER_READ_MAX = 40
MARKERS = ("panic", "stun", "noise", "zeal", "caution", "stealth", "sprint")
FLAGS = ("bleeding", "burning", "on_ground", "unconscious")
MARKER_LABELS = {
    "panic": gettext_lazy("panic"),
    "stun": gettext_lazy("stun"),
    "noise": gettext_lazy("noise"),
    "zeal": gettext_lazy("zeal"),
    "caution": gettext_lazy("caution"),
    "stealth": gettext_lazy("stealth"),
    "sprint": gettext_lazy("sprint"),
    "bleeding": gettext_lazy("bleeding"),
    "burning": gettext_lazy("burning"),
    "on_ground": gettext_lazy("on the ground"),
    "unconscious": gettext_lazy("unconscious"),
}
BLOCKED = {
    "attacker_panicked": gettext_lazy("A panicked combatant cannot act in the action phase."),
    "attacker_stunned": gettext_lazy("A stunned combatant cannot attack."),
    "attacker_burning": gettext_lazy("A burning combatant cannot attack."),
    "defender_stealthy": gettext_lazy("A stealthy combatant cannot be attacked."),
    "defender_hidden": gettext_lazy("A hidden combatant cannot be attacked."),
    "shooter_surrounded": gettext_lazy("A surrounded combatant cannot shoot."),
    "thrower_surrounded": gettext_lazy("A surrounded combatant cannot throw."),
    "too_far": gettext_lazy("Too far: a throw reaches as many steps as the Physique."),
}
assert set(OTD_MOVE_LABELS) == set(MOVES) and set(OTD_RANGE_LABELS) == set(RANGES)
assert set(OTD_COVER_LABELS) == set(COVERS) and set(OTD_SIZE_LABELS) == set(SIZES)
assert set(OTD_ITEM_LABELS) == set(ITEMS)


# --- The live state -------------------------------------------------------------------------


def new_state(
    *,
    kind: str,
    reflexes: int,
    combat: int,
    physique: int,
    life: int,
    moral: int,
    zombie_type: str = "",
    profile: int | None = None,
) -> dict[str, Any]:
    return {
        "kind": kind,
        "zombie_type": zombie_type,
        "profile": profile,
        "reflexes": reflexes,
        "combat": combat,
        "physique": physique,
        "life": life,
        "life_max": life,
        "moral": moral,
        **dict.fromkeys(MARKERS, 0),
        **dict.fromkeys(FLAGS, False),
        "bleeding_turns": 0,
        "treated": False,
        "kills_by_type": {},
        "damage_dealt": 0,
        "damage_taken": 0,
    }


def engine(c: Combatant) -> states.Combatant:
    """The engine's view of a combatant (keyed by its id, teamed by its side)."""
    s = c.state or {}
    return states.Combatant(
        key=str(c.pk),
        team=c.side,
        reflexes=int(s.get("reflexes", 0)),
        life=int(s.get("life", 0)),
        moral=int(s.get("moral", 0)),
        **{name: int(s.get(name, 0)) for name in MARKERS},
        bleeding=bool(s.get("bleeding")),
        bleeding_turns=int(s.get("bleeding_turns", 0)),
        burning=bool(s.get("burning")),
        on_ground=bool(s.get("on_ground")),
        unconscious=bool(s.get("unconscious")),
        dead=c.dead,
    )


def _store(c: Combatant, after: states.Combatant) -> None:
    state = dict(c.state or {})
    for name, value in states.as_json(after).items():
        if name not in ("key", "team", "dead"):
            state[name] = value
    c.state = state
    c.dead = after.dead


def profile_combatant(profile: Profile, side: str = SURVIVORS) -> Combatant:
    """A player's character from their Of the Dead profile (its life markers and Moral as
    the sheet has them, O1)."""
    return Combatant(
        side=side,
        name=profile.player.display_name or profile.player.username,
        player=profile.player,
        state=new_state(
            kind=PC,
            reflexes=profile.reflexes,
            combat=profile.combat,
            physique=profile.physique,
            life=profile.life_markers,
            moral=profile.moral,
            profile=profile.pk,
        ),
    )


def badges(c: Combatant) -> list[str]:
    """What the page shows of a combatant besides its numbers: what it is, its markers
    (with their count) and states, translated."""
    s = c.state or {}
    if s.get("kind") == ZOMBIE:
        what = _("zombie")
    elif s.get("kind") == PC:
        what = _("player's character")
    else:
        what = _("non-player character")
    shown = [str(what)]
    for name in MARKERS:
        count = int(s.get(name) or 0)
        if count:
            label = str(MARKER_LABELS[name])
            shown.append(f"{label} \u00d7{count}" if count > 1 else label)
    shown += [str(MARKER_LABELS[name]) for name in FLAGS if s.get(name)]
    if s.get("treated"):
        shown.append(_("treated this turn"))
    return shown


def _in_game(c: Combatant | None, field: str) -> None:
    if c is None:
        raise Refusal(_("Choose a combatant of this encounter."), field=field)
    if c.dead:
        raise Refusal(_("This combatant is dead."), field=field)


def _option(action, name: str, choices, default: str) -> str:
    value = str((action.options or {}).get(name) or default)
    if value not in choices:
        raise Refusal(_("Choose one of the options."), field=name)
    return value


def _surrounded(action) -> int:
    raw = (action.options or {}).get("surrounded_by") or 0
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw <= 20:
        raise Refusal(_("From 0 to 20 adversaries."), field="surrounded_by")
    return raw


def _fighter(c: Combatant, attribute: str) -> dict[str, Any]:
    """A side of an opposed roll from the live state: its pool, the caution marker it
    discards and the zeal marker it spends when it has them (O3), its states."""
    s = c.state or {}
    return {
        attribute: int(s.get(attribute, 0)),
        "caution": int(s.get("caution", 0)) > 0,
        "zeal": int(s.get("zeal", 0)) > 0,
        "life": max(1, int(s.get("life", 0))),
        "stealth": int(s.get("stealth", 0)) > 0,
        "panic": int(s.get("panic", 0)),
        "stunned": int(s.get("stun", 0)) > 0,
        "burning": bool(s.get("burning")),
    }


def _effects_of(action, outcome: dict[str, Any], actor, target) -> tuple[list, dict]:
    kind = action.kind
    effects = list(outcome.get("effects") or [])
    roles: dict[str, str] = {}
    if actor is not None:
        roles.update(attacker=str(actor.pk), thrower=str(actor.pk), roller=str(actor.pk))
    if target is not None:
        roles.update(defender=str(target.pk), fighter=str(target.pk), ally=str(target.pk))
    if kind == "flee" and outcome.get("escapes"):
        effects += states.flee(str(actor.pk))
    surrounded = (action.options or {}).get("surrounded_by") or 0
    # Bagarre: "cerné par 4 ou plus d'adversaires, celui-ci sera mis au sol et perdra un
    # point de Moral" — once, when it is put on the ground.
    down = target is not None and (target.state or {}).get("on_ground")
    if kind == "brawl" and outcome.get("on_the_ground") and target is not None and not down:
        effects += states.surrounded(str(target.pk), int(surrounded))
    if kind == "throw" and outcome.get("item") == "molotov" and outcome.get("on_target"):
        # Feu: a Molotov does not explode, the figure aimed at catches fire at once.
        effects += states.ignite(str(target.pk))
    return effects, roles


def _phase_key(encounter) -> str:
    """What `state["played"]` holds once a figure has had its turn in this phase: the turn
    and the phase, so that the next phase finds everyone still to play without a write."""
    return f"{encounter.turn}:{encounter.phase}"


def _cm(distance: float) -> str:
    return number_format(distance, 0 if float(distance).is_integer() else 1)


def _effects_text(data: dict) -> str:
    outcome = data.get("outcome") or {}
    parts = []
    if outcome.get("damage"):
        parts.append(_("%(damage)s damage") % {"damage": outcome["damage"]})
    if outcome.get("target_killed") or outcome.get("fighter_killed"):
        parts.append(_("killed"))
    if data.get("kind") == "throw":
        parts.append(_("on target") if outcome.get("on_target") else _("missed, it scatters"))
        if outcome.get("item") == "explosive":
            parts.append(_("it goes off at the next action phase"))
    if data.get("kind") == "move" and outcome.get("move"):
        move = str(OTD_MOVE_LABELS.get(outcome["move"], outcome["move"]))
        declared = outcome.get("declared")
        if declared and declared != outcome["move"]:
            # Further than declared: "une marche normale devient une course".
            move = _("%(move)s instead of %(declared)s") % {
                "move": move,
                "declared": str(OTD_MOVE_LABELS.get(declared, declared)).lower(),
            }
        parts.append(_("%(move)s, %(cm)s cm") % {"move": move, "cm": _cm(outcome["distance_cm"])})
    if data.get("kind") == "flee":
        parts.append(_("escapes") if outcome.get("escapes") else _("held back"))
    if data.get("kind") in ("brawl", "shot") and not outcome.get("damage"):
        parts.append(_("no damage"))
    return ", ".join(str(p) for p in parts)


class OfTheDeadTable(TableAdapter):
    """The adapter (`rules.table.adapter.TableAdapter`): the system's actions, phases and
    verbs; the module's functions above build the engine's inputs and read its state."""

    SYSTEM = "of-the-dead"
    KINDS = (
        "move",
        "brawl",
        "shot",
        "throw",
        "blast",
        "flee",
        "pull_together",
        "first_aid",
        "make_noise",
        "pass",
    )
    KIND_LABELS = {
        "move": gettext_lazy("Move"),
        "brawl": gettext_lazy("Brawl"),
        "shot": gettext_lazy("Shoot"),
        "throw": gettext_lazy("Throw an explosive or a Molotov"),
        "blast": gettext_lazy("Caught in a blast (the thrower's, last turn)"),
        "flee": gettext_lazy("Flee the melee"),
        "pull_together": gettext_lazy("Pull together"),
        "first_aid": gettext_lazy("First aid"),
        "make_noise": gettext_lazy("Make noise"),
        "pass": gettext_lazy("Pass (done for this phase)"),
    }
    # The actions of each phase; the others wait for their phase.
    PHASE_KINDS = {
        Phase.MOVEMENT: ("move", "pass"),
        Phase.ACTION: tuple(k for k in KINDS if k != "move"),
        Phase.WRAP_UP: ("first_aid", "pass"),
    }
    FORM_FIELDS = (
        "kind",
        "actor",
        "target",
        "move",
        "distance_cm",
        "range",
        "otd_cover",
        "item",
        "size",
        "surrounded_by",
        "roll",
        "out_of_turn",
    )
    # The action form's first values on this system's page: a move's distance is left empty,
    # which moves the declared move's whole allowance (a default of 20 cm made every run a sprint).
    FORM_INITIAL = {"distance_cm": None}
    OPTION_FIELDS = ("move", "range", "otd_cover", "item", "size", "surrounded_by", "out_of_turn")
    HAND_DICE = (
        "attacker_dice",
        "attacker_reroll",
        "defender_dice",
        "defender_reroll",
        "thrower_dice",
        "zone_dice",
        "scatter_die",
        "roller_dice",
        "against_dice",
    )
    PHASES = (Phase.MOVEMENT, Phase.ACTION, Phase.WRAP_UP)
    FIRST_PHASE = Phase.MOVEMENT
    # The organisers add zombies and non-player characters (`encounter_add_combatants`).
    ADDS_COMBATANTS = True
    # Each phase goes in initiative order (O5), enforced (`check_turn`).
    KEEPS_TURN = True
    ADVANCE_LABELS = {
        Phase.MOVEMENT: gettext_lazy("To the action phase"),
        Phase.ACTION: gettext_lazy("To the wrap-up phase"),
        Phase.WRAP_UP: gettext_lazy("Wrap-up, next turn"),
    }
    STATE_FIELDS = ("state", "dead", "wounds", "kills")
    COMBATANT_TEMPLATE = "rules/table/systems/of_the_dead_combatant.html"

    def side_label(self, side: str) -> str:
        return str(SIDE_LABELS.get(side, side))

    def chapter_combatants(self, chapter) -> tuple[list[str], list[Combatant], str]:
        """An Of the Dead chapter's encounter: the campaign's players whose character is
        alive, each playing it; the organisers add the zombies and the non-player characters."""
        players = [m.id for m in members_of(chapter.campaign).players]
        by_player = {
            p.player_id: p
            for p in Profile.objects.filter(
                player_id__in=players, status=ProfileStatus.ALIVE
            ).select_related("player")
        }
        profiles = [by_player[pk] for pk in players if pk in by_player]
        if not profiles:
            raise Refusal(_("An encounter needs characters: no player has a living character."))
        return [SURVIVORS, ZOMBIES], [profile_combatant(p) for p in profiles], ""

    def check_action(self, encounter, actor, target, action) -> None:
        if action.kind not in self.KINDS:
            raise Refusal(_("Choose what the combatant does."), field="kind")
        if action.kind not in self.PHASE_KINDS.get(encounter.phase, ()):
            if encounter.phase == Phase.MOVEMENT:
                raise Refusal(_("The movement phase is for moving."), field="kind")
            if encounter.phase == Phase.WRAP_UP:
                raise Refusal(
                    _("The wrap-up phase allows only first aid, or passing."), field="kind"
                )
            raise Refusal(_("Moves are made in the movement phase."), field="kind")
        _in_game(actor, "actor")
        if (actor.state or {}).get("unconscious"):
            raise Refusal(_("This combatant cannot act now."), field="actor")
        if action.kind in SELF_KINDS:
            return
        _in_game(target, "target")
        if action.kind in ("brawl", "shot", "flee", "blast") and actor.pk == target.pk:
            raise Refusal(_("A combatant does not attack itself."), field="target")
        if action.kind == "flee" and actor.side == target.side:
            raise Refusal(_("One flees an adversary."), field="target")

    def resolver_input(self, encounter, actor, target, action) -> tuple[str | None, dict]:
        """The resolver an action calls and its input (None: an action without dice, whose
        input is its outcome)."""
        kind = action.kind
        if kind == "move":
            declared = _option(action, "move", MOVES, "normal")
            # "il n'est pas obligé d'aller jusqu'au bout du mouvement ... Cependant si il dépasse
            # alors ... une marche normale devient une course": a move without a distance is
            # the declared one, all of it, never the next one.
            distance = action.distance_cm
            if distance is None:
                distance = load_catalogue(encounter.catalogue_version or None).moves[declared].cm
            if not 0 <= distance <= 200:
                raise Refusal(_("A distance from 0 to 200 cm."), field="distance_cm")
            # The resolver reads at most 40 of a marker or of Moral (more changes no move).
            combatant = {
                name: min(value, MARKER_READ_MAX) if name in (*MARKERS, "moral") else value
                for name, value in states.as_json(engine(actor)).items()
            }
            return "movement", {
                "combatant": combatant,
                "move": declared,
                "distance_cm": distance,
            }
        if kind == "brawl":
            defender = _fighter(target, "combat")
            defender["surrounded_by"] = _surrounded(action)
            return "brawl", {"attacker": _fighter(actor, "combat"), "defender": defender}
        if kind == "shot":
            attacker = _fighter(actor, "combat")
            attacker.pop("zeal")  # O3: only the target rerolls when shot
            attacker["surrounded_by"] = _surrounded(action)
            defender = _fighter(target, "reflexes")
            defender["cover"] = _option(action, "otd_cover", COVERS, "none")
            return "shot", {
                "attacker": attacker,
                "defender": defender,
                "range": _option(action, "range", RANGES, "useful"),
            }
        if kind == "throw":
            s = actor.state or {}
            if action.distance_cm is None:
                raise Refusal(
                    _("How far is the throw? A distance from 0 to 300 cm."), field="distance_cm"
                )
            if not 0 <= action.distance_cm <= 300:
                raise Refusal(_("A distance from 0 to 300 cm."), field="distance_cm")
            item = _option(action, "item", ITEMS, "explosive")
            data: dict[str, Any] = {
                "thrower": {
                    "combat": int(s.get("combat", 0)),
                    "physique": int(s.get("physique", 0)),
                    "caution": int(s.get("caution", 0)) > 0,
                    "surrounded_by": _surrounded(action),
                    "panic": int(s.get("panic", 0)),
                    "stunned": int(s.get("stun", 0)) > 0,
                },
                "item": item,
                "distance_cm": action.distance_cm,
            }
            if item == "explosive":
                data["size"] = _option(action, "size", SIZES, "slight")
            return "throw", data
        if kind == "blast":
            s = target.state or {}
            item = _option(action, "item", ITEMS, "explosive")
            data = {
                "item": item,
                "fighter": {
                    "reflexes": int(s.get("reflexes", 0)),
                    "caution": int(s.get("caution", 0)) > 0,
                    "life": max(1, int(s.get("life", 0))),
                },
            }
            if item == "explosive":
                data["size"] = _option(action, "size", SIZES, "slight")
            return "blast", data
        if kind == "flee":
            # Fuir: an evasion roll, Réflexes against the blocker's Combat.
            s = actor.state or {}
            return "check", {
                "kind": "evasion",
                "attribute": int(s.get("reflexes", 0)),
                "caution": int(s.get("caution", 0)) > 0,
                "difficulty": int((target.state or {}).get("combat", 0)),
            }
        if kind == "pass":
            return None, {"effects": [], "certain": True}
        key = str(actor.pk) if kind != "first_aid" else str(target.pk)
        named = {
            "pull_together": states.pull_together,
            "first_aid": lambda who: states.first_aid(who),
            "make_noise": lambda who: states.make_noise(who),
        }[kind]
        return None, {"effects": named(key), "certain": True}

    def refuse_blocked(self, outcome: dict[str, Any]) -> None:
        """An action the rules forbid now (a panicked attacker, a hidden target, a throw too
        far...): its sentence, before any dice (the odds) and after (the outcome)."""
        if outcome.get("possible") is False:
            reasons = outcome.get("blocked") or [outcome.get("reason")]
            sentence = BLOCKED.get(str(reasons[0])) if reasons else None
            if outcome.get("reason") in ("stunned", "stealth"):
                sentence = _("This move is too far for the combatant now.")
            elif outcome.get("reason") == "getting_up":
                sentence = _("A combatant on the ground spends its move getting up (0 cm).")
            elif outcome.get("reason") == "out_of_action":
                sentence = _("This combatant cannot act now.")
            raise Refusal(str(sentence or _("This action is not possible now.")), field="kind")

    def apply_outcome(
        self, encounter, action, outcome: dict[str, Any], actor, target, everyone=()
    ) -> list[str]:
        """The outcome's effects through the engine's `apply_effects`, on everyone (a lucky
        break or a backfire moves a whole team's Moral, O4); a first aid marks its patient
        treated for the wrap-up; the damage, deaths and kills by zombie type are counted."""
        self.refuse_blocked(outcome)
        if actor is not None and action.kind not in (*FREE_KINDS, *UNORDERED_KINDS):
            actor.state = {**(actor.state or {}), "played": _phase_key(encounter)}
        if outcome.get("pending"):
            return []
        if action.kind == "pass":
            return []
        combatants = list(everyone)
        effects, roles = _effects_of(action, outcome, actor, target)
        try:
            applied = states.apply_effects([engine(c) for c in combatants], effects, roles)
        except RuleInputError as error:
            raise Refusal(_sentence(error), field="kind") from error
        by_key = applied.by_key()
        dead_before = {c.pk for c in combatants if c.dead}
        for c in combatants:
            _store(c, by_key[str(c.pk)])
        names: list[str] = []
        for event in applied.events:
            who = next((c for c in combatants if str(c.pk) == event["key"]), None)
            if who is None:
                continue
            if event["event"] == "life" and event["change"] < 0:
                who.state["damage_taken"] = who.state.get("damage_taken", 0) - event["change"]
                who.wounds += 1
                if actor is not None and who.pk != actor.pk and who.side != actor.side:
                    actor.state["damage_dealt"] = (
                        actor.state.get("damage_dealt", 0) - event["change"]
                    )
            names.append(str(event["event"]))
        for c in combatants:
            if c.dead and c.pk not in dead_before and actor is not None and c.pk != actor.pk:
                actor.kills += 1
                kind = (c.state or {}).get("zombie_type") or ""
                if kind:
                    kills = dict(actor.state.get("kills_by_type") or {})
                    kills[kind] = kills.get(kind, 0) + 1
                    actor.state["kills_by_type"] = kills
        if action.kind == "first_aid" and target is not None:
            target.state["treated"] = True
        return list(dict.fromkeys(names))

    def order(self, combatants, phase: str, turn: int = 0) -> list[dict[str, Any]]:
        """O5: who plays in the phase, in order, with their initiative (the living and
        conscious; ties keep the table's order), read from the live state: whether each has
        played in this phase of `turn`, and who plays now (`now`: the figures still to play at
        the first initiative not yet done; tied figures share their step, "ou groupe de
        personnages", the table settling who goes first among them)."""
        if phase not in self.PHASES:
            return []
        by_key = {str(c.pk): c for c in combatants}
        done = f"{turn}:{phase}"
        rows = [
            {
                **row,
                "name": by_key[row["key"]].name,
                "id": by_key[row["key"]].pk,
                "played": (by_key[row["key"]].state or {}).get("played") == done,
            }
            for row in turn_module.phase_order([engine(c) for c in combatants], str(phase))
        ]
        step = next((row["initiative"] for row in rows if not row["played"]), None)
        for row in rows:
            row["now"] = not row["played"] and row["initiative"] == step
        return rows

    def check_turn(self, encounter, combatants, actor, action) -> None:
        """O5: "Les actions se jouent dans l'ordre décroissant de valeur d'initiative" (and the
        movement and wrap-up in ascending order): a figure acts in its turn, once per phase.
        The refusal names who plays now; the organiser may let a figure act out of turn (the
        service's `out_of_turn`, which skips this check)."""
        if action.kind in UNORDERED_KINDS:
            return
        rows = self.order(combatants, encounter.phase, encounter.turn)
        row = next((r for r in rows if r["id"] == actor.pk), None)
        if row is None:
            return  # the dead and the unconscious: `check_action` has refused them
        if row["played"]:
            raise Refusal(
                _("%(name)s has already played in this phase.") % {"name": actor.name},
                field="actor",
            )
        if row["now"]:
            return
        now = [r for r in rows if r["now"]]
        raise Refusal(
            _("It is not %(name)s's turn. Playing now: %(now)s (initiative %(initiative)s).")
            % {
                "name": actor.name,
                "now": ", ".join(r["name"] for r in now),
                "initiative": now[0]["initiative"] if now else "",
            },
            field="actor",
        )

    def advance(self, encounter, combatants: list[Combatant]) -> tuple[str, dict[str, Any]]:
        """Movement -> action -> wrap-up; leaving the wrap-up runs it (noise decay, stun
        countdown, bleeding and burning damage, in ascending initiative) and opens the next
        turn's movement phase."""
        if encounter.phase == Phase.MOVEMENT:
            encounter.phase = Phase.ACTION
            return EntryKind.PHASE, {"phase": Phase.ACTION}
        if encounter.phase == Phase.ACTION:
            encounter.phase = Phase.WRAP_UP
            return EntryKind.PHASE, {"phase": Phase.WRAP_UP}
        ordered = {row["key"]: i for i, row in enumerate(self.order(combatants, Phase.WRAP_UP))}
        ranked = sorted(combatants, key=lambda c: ordered.get(str(c.pk), len(ordered)))
        treated = [str(c.pk) for c in combatants if (c.state or {}).get("treated")]
        applied = states.wrap_up([engine(c) for c in ranked], treated)
        by_key = applied.by_key()
        names = {str(c.pk): c.name for c in combatants}
        for c in combatants:
            before_life = int((c.state or {}).get("life", 0))
            _store(c, by_key[str(c.pk)])
            lost = before_life - int(c.state.get("life", 0))
            if lost > 0:
                c.state["damage_taken"] = c.state.get("damage_taken", 0) + lost
            c.state["treated"] = False
        ended_turn = encounter.turn
        encounter.turn += 1
        encounter.phase = Phase.MOVEMENT
        events = [{**event, "name": names.get(event["key"], "?")} for event in applied.events]
        return EntryKind.END_PHASE, {"turn": ended_turn, "events": events}

    def summary(self, encounter, combatants: list[Combatant]) -> dict[str, Any]:
        """What happened, for the chapter's close: per side, who died, who was hurt and their
        Moral; per player, their character's death, kills by zombie type and damage dealt and
        taken; the zombies killed by type."""
        sides: dict[str, dict[str, Any]] = {}
        players: dict[str, dict[str, Any]] = {}
        zombies: dict[str, int] = {}
        for c in combatants:
            s = c.state or {}
            row = sides.setdefault(
                self.side_label(c.side), {"lost": [], "wounded": [], "moral": {}, "kills": 0}
            )
            if c.dead:
                row["lost"].append(c.name)
            elif s.get("damage_taken"):
                row["wounded"].append(c.name)
            row["moral"][c.name] = s.get("moral", 0)
            row["kills"] += c.kills
            if c.dead and s.get("zombie_type"):
                zombies[s["zombie_type"]] = zombies.get(s["zombie_type"], 0) + 1
            if s.get("kind") == PC and c.player_id is not None:
                players[str(c.player_id)] = {
                    "name": c.name,
                    "side": self.side_label(c.side),
                    "died": c.dead,
                    "kills": {k: v for k, v in (s.get("kills_by_type") or {}).items() if v},
                    "damage_dealt": s.get("damage_dealt", 0),
                    "damage_taken": s.get("damage_taken", 0),
                }
        return {
            "encounter": encounter.pk,
            "ended": True,
            "system": self.SYSTEM,
            "turns": encounter.turn,
            "sides": sides,
            "players": players,
            "zombies_killed": zombies,
        }

    def action_text(self, data: dict, actor: str, target: str) -> str:
        """An action's line in the log."""
        kind = data.get("kind", "")
        label = str(self.KIND_LABELS.get(kind, kind))
        if kind in SELF_KINDS:
            text = _("%(actor)s: %(action)s") % {"actor": actor, "action": label}
        else:
            text = _("%(actor)s: %(action)s → %(target)s") % {
                "actor": actor,
                "action": label,
                "target": target,
            }
        detail = _effects_text(data)
        if detail:
            text += f" ({detail})"
        text += hand_suffix(data)
        if data.get("out_of_turn"):
            text += " · " + _("out of turn, by the organiser")
        return text

    def card_fields(self, combatant, *, sees: bool) -> dict[str, Any]:
        """A figure's card at the table: what it is, its markers and states (`badges`); its
        life and Moral are in its `state`."""
        return {"badges": badges(combatant)}


ADAPTER = OfTheDeadTable()
