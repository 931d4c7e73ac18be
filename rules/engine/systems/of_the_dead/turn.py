"""Of the Dead turns: initiative, the order of each phase, movement allowances (RULES-NOTES
O5). Pure: no Django.

O5: "Initiative = Réflexes + current Moral + current life markers + modifiers (panic -1;
stun, bleeding, burning -2; sprint or caution +1). Movement phase: ascending initiative;
action phase: descending; wrap-up phase: ascending. Moves: careful 6 cm, normal 12, run 18
(2 noise, 1 zeal), sprint 24 (as run, plus 1 zeal per extra stride)."

Readings (docs/rules.md): each marker counts once, however many of it the figure has ("si
il dispose d'un jeton"); the dead and the unconscious take no turn; a tie keeps the order
the figures were given in, unless `tie_breaks` gives each one a die ("un jet de dé peut
faire la différence"): the higher die plays first in the action phase, last in the others.
Moving further than the declared move turns it into the next one; beyond a sprint "le
personnage subit un marqueur de Panique". A careful walk lays a caution marker and takes a
panic marker away ("pour supprimer un marqueur de Panique, le joueur devra marcher
prudemment"); a sprint lays the sprint indicator the initiative reads.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.of_the_dead.catalogue import MOVES, PHASES, Catalogue, load_catalogue
from rules.engine.systems.of_the_dead.states import (
    Combatant,
    as_json,
    read_combatant,
    read_combatants,
    wrap_up,
)


def initiative(c: Combatant, modifiers: int = 0, catalogue: Catalogue | None = None) -> int:
    """O5: Réflexes + Moral + life markers + each marker's modifier, once per kind."""
    catalogue = catalogue or load_catalogue()
    bonus = catalogue.initiative
    held = {
        "panic": c.panic > 0,
        "stun": c.stunned,
        "bleeding": c.bleeding,
        "burning": c.burning,
        "sprint": c.sprint > 0,
        "caution": c.caution > 0,
    }
    return c.reflexes + c.moral + c.life + modifiers + sum(bonus[k] for k, on in held.items() if on)


def phase_order(
    combatants: Sequence[Combatant],
    phase: str,
    tie_breaks: Mapping[str, int] | None = None,
    catalogue: Catalogue | None = None,
) -> list[dict[str, Any]]:
    """Who plays in `phase`, in order: `[{"key", "initiative", "tied"}]` (O5)."""
    catalogue = catalogue or load_catalogue()
    if phase not in PHASES:
        raise RuleInputError("phase", f"phase is one of {', '.join(PHASES)}", kind="choice",
                             choices=list(PHASES))  # fmt: skip
    descending = catalogue.phase_order[phase] == "descending"
    ties = tie_breaks or {}
    playing = [c for c in combatants if not c.dead and not c.unconscious]
    values = {c.key: initiative(c, catalogue=catalogue) for c in playing}
    position = {c.key: i for i, c in enumerate(playing)}

    def rank(c: Combatant) -> tuple[int, int, int]:
        value, die = values[c.key], ties.get(c.key, 0)
        if descending:
            return (-value, -die, position[c.key])
        return (value, die, position[c.key])

    counts: dict[int, int] = {}
    for value in values.values():
        counts[value] = counts.get(value, 0) + 1
    return [
        {"key": c.key, "initiative": values[c.key], "tied": counts[values[c.key]] > 1}
        for c in sorted(playing, key=rank)
    ]


def movement(
    c: Combatant, declared: str, distance_cm: float, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    """What a move of `distance_cm` declared as `declared` is, and the markers it lays.

    Rule text: a stunned figure "ne pourra que marcher"; a stealthy one moves "à la moitié de
    sa vitesse" and never runs or sprints; getting up "coutera le mouvement du tour suivant";
    a burning figure must move, in a random direction.
    """
    catalogue = catalogue or load_catalogue()
    out: dict[str, Any] = {"declared": declared, "distance_cm": distance_cm}
    if c.dead or c.unconscious:
        return {**out, "possible": False, "reason": "out_of_action", "effects": []}
    if c.on_ground:
        return {
            **out,
            "possible": distance_cm == 0,
            "reason": "getting_up",
            "move": None,
            "allowance_cm": 0,
            "effects": [{"who": c.key, "set": {"on_ground": False}}],
        }
    allowed = list(MOVES)
    if c.stunned or c.stealth:
        allowed = ["careful", "normal"]
    divisor = catalogue.stealth_speed_divisor if c.stealth else 1
    index = MOVES.index(declared)
    panic = 0
    while index < len(MOVES) - 1 and distance_cm > catalogue.moves[MOVES[index]].cm / divisor:
        index += 1
    move = MOVES[index]
    allowance = catalogue.moves[move].cm / divisor
    if distance_cm > allowance:
        panic = catalogue.overrun_panic
    if move not in allowed:
        return {
            **out,
            "possible": False,
            "reason": "stunned" if c.stunned else "stealth",
            "move": move,
            "allowance_cm": catalogue.moves[allowed[-1]].cm / divisor,
            "effects": [],
        }
    spec = catalogue.moves[move]
    markers = {"noise": spec.noise, "zeal": spec.zeal, "caution": spec.caution}
    markers["sprint"] = spec.sprint
    markers["panic"] = panic
    if move == "careful" and c.panic:
        markers["panic"] -= catalogue.panic_careful_walk_removes
    markers = {k: v for k, v in markers.items() if v}
    return {
        **out,
        "possible": True,
        "reason": None,
        "move": move,
        "allowance_cm": allowance,
        "random_direction": c.burning,
        "effects": [{"who": c.key, "markers": markers}] if markers else [],
    }


# --- Resolvers (no dice: the three verbs answer alike) ------------------------------------


def initiative_evaluate(
    data: Mapping[str, Any], catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    combatants = read_combatants(data)
    phase = inputs.choice(data, "phase", PHASES, "action")
    ties = data.get("tie_breaks", {})
    if not isinstance(ties, Mapping) or any(
        isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6 for v in ties.values()
    ):
        raise RuleInputError("tie_breaks", "tie_breaks maps keys to a die", kind="dice")
    return {
        "phase": phase,
        "order": phase_order(combatants, phase, ties, catalogue),
    }


def movement_evaluate(
    data: Mapping[str, Any], catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    combatant = read_combatant(inputs.section(data, "combatant"), "combatant.")
    declared = inputs.choice(data, "move", MOVES, "normal")
    distance = inputs.number(data, "distance_cm", 0, 200)
    return movement(combatant, declared, distance, catalogue)


def _certain(evaluate: Any) -> tuple[Any, Any]:
    def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
        return {**evaluate(data, catalogue), "probability": 1.0}

    def roll(
        data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
    ) -> dict[str, Any]:
        return dict(evaluate(data, catalogue))

    return odds, roll


initiative_odds, initiative_roll = _certain(initiative_evaluate)
movement_odds, movement_roll = _certain(movement_evaluate)


def wrap_up_evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    """The wrap-up phase of a set of combatants (`states.wrap_up`)."""
    catalogue = catalogue or load_catalogue()
    combatants = read_combatants(data)
    treated = inputs.slugs(data, "treated", [c.key for c in combatants])
    applied = wrap_up(combatants, treated, catalogue)
    return {
        "order": phase_order(combatants, "wrap_up", None, catalogue),
        "combatants": [as_json(c) for c in applied.combatants],
        "events": [dict(e) for e in applied.events],
    }


wrap_up_odds, wrap_up_roll = _certain(wrap_up_evaluate)
