"""Of the Dead explosives and Molotov cocktails: the throw, its scatter, the blast
(rule text, "Explosifs"; RULES-NOTES O2-O4). Pure: no Django.

The throw: "le personnage choisi exactement l'endroit visé, et vérifie si le lancer
correspond au nombre de pas équivalent aux points de physique puis il lance un jet : COMBAT +
MODIFICATEURS* contre le nombre de pas + MODIFICATEURS* de la zone ciblée [...] Le joueur peut
défausser un marqueur Prudence [...] Une réussite suffit [...] Si le jet échoue, alors le
joueur place le Disque de Direction Aléatoire sur 180° [...] lance 1D6 pour le nombre de pas
de distance du lancer. Si c'est un échec critique, [...] sur 360°". "Si un personnage est
cerné par au moins 3 adversaires, il ne pourra plus lancer un explosif".

Readings (docs/rules.md): a step is 3 cm and a throw reaches Physique steps, the distance
rounded up to whole steps; "a success" is one left once the zone's dice cancelled theirs; a
critical failure is a failed throw whose dice show no success at all and at least one
fiasco; the scatter's direction is read off the disc at the table (`scatter_angle`,
degrees from the thrower's front, typed in or drawn by a server roll).

The blast, next turn at the start of the action phase ("les explosifs se déclenchent avant
les joueurs"): a slight template does 1 damage and a stumble roll, a moderate one 2 and a
stun roll, a substantial one 3 and knocks out ("Évanouissement"). A Molotov does not
explode: the figures in its moderate template catch fire at once (`states.ignite`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.engine.dice import Dice
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.kolaps.steps import DiceSource, GivenDice, Pending, RolledDice
from rules.engine.systems.of_the_dead import checks
from rules.engine.systems.of_the_dead import opposed as o
from rules.engine.systems.of_the_dead.catalogue import SIZES, Catalogue, load_catalogue
from rules.engine.systems.of_the_dead.states import ignite

ITEMS = ("explosive", "molotov")
THROW_DICE_FIELDS = ("thrower_dice", "zone_dice", "scatter_die")
BLAST_DICE_FIELDS = checks.DICE_FIELDS


@dataclass(frozen=True)
class Throw:
    item: str
    size: str
    steps: int
    thrower: o.Side
    zone: o.Side
    blocked: tuple[str, ...]


def throw_setup(data: Mapping[str, Any], catalogue: Catalogue) -> Throw:
    t = inputs.section(data, "thrower")
    item = inputs.choice(data, "item", ITEMS, "explosive")
    size = catalogue.molotov_template if item == "molotov" else inputs.choice(data, "size", SIZES)
    distance = inputs.number(data, "distance_cm", 0, 300)
    steps = max(1, math.ceil(distance / catalogue.step_cm))
    physique = inputs.integer(t, "physique", 0, 20, path="thrower.")
    dice = inputs.integer(t, "combat", 0, o.MAX_POOL, path="thrower.")
    dice += inputs.integer(t, "modifiers", -o.MAX_POOL, o.MAX_POOL, 0, "thrower.")
    zone = steps + inputs.integer(data, "zone_modifiers", -o.MAX_POOL, o.MAX_POOL, 0)
    blocked = []
    if steps > physique:
        blocked.append("too_far")
    if inputs.integer(t, "surrounded_by", 0, 20, 0, "thrower.") >= catalogue.no_throw_from:
        blocked.append("thrower_surrounded")
    if inputs.integer(t, "panic", 0, 20, 0, "thrower.") > 0:
        blocked.append("attacker_panicked")
    if inputs.flag(t, "stunned", path="thrower."):
        blocked.append("attacker_stunned")
    return Throw(
        item=item,
        size=size,
        steps=steps,
        thrower=o.Side(
            dice=min(o.MAX_POOL, max(0, dice)), caution=inputs.flag(t, "caution", path="thrower.")
        ),
        zone=o.Side(dice=min(o.MAX_POOL, max(0, zone))),
        blocked=tuple(blocked),
    )


def critical_failure(counts: o.Counts) -> bool:
    return counts.hits == 0 and counts.fiascos > 0


def _head(throw: Throw, catalogue: Catalogue) -> dict[str, Any]:
    template = catalogue.templates[throw.size]
    return {
        "item": throw.item,
        "template": throw.size,
        "steps": throw.steps,
        "possible": not throw.blocked,
        "blocked": list(throw.blocked),
        "thrower_dice": throw.thrower.dice,
        "zone_dice": throw.zone.dice,
        "blast": {
            "when": "now" if throw.item == "molotov" else "next_action_phase",
            "damage": 0 if throw.item == "molotov" else template.damage,
            "effect": "fire" if throw.item == "molotov" else template.effect,
            "destroys_cover": template.destroys_cover,
        },
    }


def throw_odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    throw = throw_setup(data, catalogue)
    out = _head(throw, catalogue)
    if throw.blocked:
        return out
    thrower = o.side_distribution(throw.thrower, catalogue)
    zone = o.hits_distribution(o.side_distribution(throw.zone, catalogue))
    on_target = critical = Fraction(0)
    for counts, pt in thrower.items():
        if critical_failure(counts):
            critical += pt
            continue
        for hits, pz in zone.items():
            if o.cancel(counts, hits).damage:
                on_target += pt * pz
    scattered = 1 - on_target - critical
    flags = o.flags_odds(thrower, catalogue)
    out.update(
        on_target=float(on_target),
        on_target_exact=o.exact(on_target),
        scatter={
            str(catalogue.scatter_failure_arc): float(scattered),
            str(catalogue.scatter_critical_failure_arc): float(critical),
        },
        scatter_cm={str(n * catalogue.step_cm): 1 / 6 for n in range(1, 7)},
        lucky_break=float(flags["lucky_break"]),
        backfire=float(flags["backfire"]),
    )
    return out


def _throw_walk(
    throw: Throw,
    source: DiceSource,
    catalogue: Catalogue,
    data: Mapping[str, Any],
    rng: random.Random | None,
) -> dict[str, Any]:
    out = _head(throw, catalogue)
    if throw.blocked:
        return out
    effects: list[dict[str, Any]] = []
    try:
        thrower = o.take_side(source, "thrower", throw.thrower, catalogue)
        zone = o.take_side(source, "zone", throw.zone, catalogue)
        out["thrower"] = thrower.as_json()
        out["zone"] = zone.as_json()
        out["effects"] = effects
        if throw.thrower.caution and thrower.turned is not None:
            effects.append({"who": "thrower", "markers": {"caution": -1}})
        if thrower.lucky_break:
            effects.append({"who": "thrower", "team_moral": catalogue.lucky_break_moral})
        if thrower.backfire:
            effects.append({"who": "thrower", "team_moral": catalogue.backfire_moral})
        hit = o.cancel(thrower.counts, zone.counts.hits).damage > 0
        out["on_target"] = hit
        out["critical_failure"] = not hit and critical_failure(thrower.counts)
        if not hit:
            arc = (
                catalogue.scatter_critical_failure_arc
                if out["critical_failure"]
                else catalogue.scatter_failure_arc
            )
            steps = source.take("scatter_die", Dice(count=1))[0]
            scatter: dict[str, Any] = {"arc": arc, "steps": steps, "cm": steps * catalogue.step_cm}
            if rng is not None:
                scatter["angle"] = (
                    rng.randint(-arc // 2, arc // 2) if arc < 360 else rng.randrange(360)
                )
            elif isinstance(data.get("scatter_angle"), int):
                scatter["angle"] = data["scatter_angle"]
            out["scatter"] = scatter
    except Pending as pending:
        out["pending"] = {"field": pending.field, "dice": str(pending.dice)}
    out["dice"] = [face for used in source.used.values() for face in used]
    out["rolled"] = dict(source.used)
    return out


def throw_evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    return _throw_walk(throw_setup(data, catalogue), GivenDice(data), catalogue, data, None)


def throw_roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    return _throw_walk(throw_setup(data, catalogue), RolledDice(rng), catalogue, data, rng)


# --- The blast -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Blast:
    item: str
    size: str
    check: checks.Check | None
    life: int | None


def blast_setup(data: Mapping[str, Any], catalogue: Catalogue) -> Blast:
    item = inputs.choice(data, "item", ITEMS, "explosive")
    size = catalogue.molotov_template if item == "molotov" else inputs.choice(data, "size", SIZES)
    f = inputs.section(data, "fighter")
    life = inputs.integer(f, "life", 1, 60, path="fighter.") if "life" in f else None
    effect = catalogue.templates[size].effect
    check = None
    if item == "explosive" and effect in ("stumble", "stun"):
        dice = inputs.integer(f, "reflexes", 0, o.MAX_POOL, path="fighter.")
        dice += inputs.integer(f, "modifiers", -o.MAX_POOL, o.MAX_POOL, 0, "fighter.")
        check = checks.Check(
            kind=effect,
            roller=o.Side(
                dice=min(o.MAX_POOL, max(0, dice)),
                caution=inputs.flag(f, "caution", path="fighter."),
            ),
            against=o.Side(dice=catalogue.obstacles[size]),
        )
    return Blast(item=item, size=size, check=check, life=life)


def _blast_effects(blast: Blast, catalogue: Catalogue) -> list[dict[str, Any]]:
    if blast.item == "molotov":
        return ignite("fighter", catalogue)
    template = catalogue.templates[blast.size]
    effects: list[dict[str, Any]] = [{"who": "fighter", "life": -template.damage}]
    if template.effect == "unconscious":
        effects.append({"who": "fighter", "set": {"unconscious": True}})
    return effects


def _blast_damage(blast: Blast, catalogue: Catalogue) -> int:
    if blast.item == "molotov":
        return catalogue.fire_ignition_damage
    return catalogue.templates[blast.size].damage


def blast_odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    blast = blast_setup(data, catalogue)
    damage = _blast_damage(blast, catalogue)
    out: dict[str, Any] = {
        "item": blast.item,
        "template": blast.size,
        "damage": damage,
        "effect": "fire" if blast.item == "molotov" else catalogue.templates[blast.size].effect,
        "critical_card": blast.item == "molotov",
        "fighter_dies": float(blast.life is not None and damage >= blast.life),
        "probability": 1.0,
    }
    if blast.check is not None:
        out["check"] = checks.check_odds(blast.check, catalogue)
    return out


def _blast_walk(blast: Blast, source: DiceSource, catalogue: Catalogue) -> dict[str, Any]:
    effects = _blast_effects(blast, catalogue)
    damage = _blast_damage(blast, catalogue)
    out: dict[str, Any] = {
        "item": blast.item,
        "template": blast.size,
        "damage": damage,
        "critical_card": damage if blast.item == "molotov" else None,
        "fighter_killed": blast.life is not None and damage >= blast.life,
        "effects": effects,
    }
    if blast.check is not None and not out["fighter_killed"]:
        try:
            rolled = checks.walk(blast.check, source, catalogue, who="fighter")
            out["check"] = rolled
            effects.extend(rolled["effects"])
        except Pending as pending:
            out["pending"] = {"field": pending.field, "dice": str(pending.dice)}
    out["dice"] = [face for used in source.used.values() for face in used]
    out["rolled"] = dict(source.used)
    return out


def blast_evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    return _blast_walk(blast_setup(data, catalogue), GivenDice(data), catalogue)


def blast_roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    return _blast_walk(blast_setup(data, catalogue), RolledDice(rng), catalogue)
