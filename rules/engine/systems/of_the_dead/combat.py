"""Of the Dead brawls and shots: opposed dice pools (RULES-NOTES O3, O4). Pure: no Django.

O3: "Opposed roll: attacker rolls Combat + modifiers dice; defender Combat + modifiers
(brawl) or Réflexes + modifiers (shot). [...] a zeal marker rerolls one die (both sides in a
brawl, only the target when shot). Useful range: +1 attack die; effective range: +1 defence
die; partial cover +1 defence die, cover (more than half hidden) +2, hidden: cannot be
attacked."
Rule text, Bagarre: "Le personnage cerné perd un dé à chaque duel et un dé de défense par
assaillant si il se fait tirer dessus" (surrounded by 3 or more); "Si un personnage est cerné
par 4 ou plus d'adversaires, celui-ci sera mis au sol et perdra un point de Moral". Tir:
"cerné par au moins 4 adversaires, il ne pourra plus tirer"; "Si un personnage essaie de
tirer sur un ennemi assaillant un allié, sur un revers de médaille, c'est l'allié qui subira
les dommages (les fiascos deviennent alors des réussites, l'allié se défend avec un jet de
RÉFLEXES)". Furtivité: a stealthy figure "ne se fera pas attaquer"; leaving stealth to attack
"disposera automatiquement d'un dé d'attaque supplémentaire". Panique: "ne pourra pas agir
dans la phase d'action"; Étourdissement: no shooting "ni tout autre action"; Feu: "il ne
pourra plus attaquer".

Input (`brawl` and `shot`): `attacker` {combat, modifiers, caution, zeal (brawl only),
stealth, surrounded_by, panic, stunned, burning}; `defender` {combat (brawl) or reflexes
(shot), modifiers, caution, zeal, surrounded_by, life, cover (shot), stealth}; a shot adds
`range` (useful / effective) and `into_melee` with `ally` {reflexes, modifiers, life}.
Dice for evaluate: `attacker_dice`, `attacker_reroll`, `defender_dice`, `defender_reroll`,
then `ally_dice` after a backfire into a melee.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.kolaps.steps import DiceSource, GivenDice, Pending, RolledDice
from rules.engine.systems.of_the_dead import opposed as o
from rules.engine.systems.of_the_dead.catalogue import COVERS, RANGES, Catalogue, load_catalogue

KINDS = ("brawl", "shot")
ATTRIBUTE_MAX = 12
LIFE_MAX = 40


@dataclass(frozen=True)
class Attack:
    kind: str
    attacker: o.Side
    defender: o.Side
    modifiers: tuple[tuple[str, str, int], ...]  # (side, source, dice)
    blocked: tuple[str, ...]  # why the attack cannot be made (empty: it can)
    defender_life: int | None
    leaves_stealth: bool
    on_the_ground: bool  # the defender is surrounded by enough to be put on the ground
    ally: o.Side | None  # a shot into a melee: the ally who may take a backfire
    ally_life: int | None


def _pool(field: str, dice: int) -> int:
    if dice > o.MAX_POOL:
        raise RuleInputError(
            field, f"{field} makes more than {o.MAX_POOL} dice", kind="integer", lo=0, hi=o.MAX_POOL
        )
    return max(0, dice)


def setup(kind: str, data: Mapping[str, Any], catalogue: Catalogue) -> Attack:
    """Read a brawl or shot body (see the module docstring) into the two pools."""
    a = inputs.section(data, "attacker")
    d = inputs.section(data, "defender")
    defence_attribute = "combat" if kind == "brawl" else "reflexes"
    modifiers: list[tuple[str, str, int]] = []
    attack_dice = inputs.integer(a, "combat", 0, ATTRIBUTE_MAX, path="attacker.")
    attack_dice += inputs.integer(a, "modifiers", -ATTRIBUTE_MAX, ATTRIBUTE_MAX, 0, "attacker.")
    defence_dice = inputs.integer(d, defence_attribute, 0, ATTRIBUTE_MAX, path="defender.")
    defence_dice += inputs.integer(d, "modifiers", -ATTRIBUTE_MAX, ATTRIBUTE_MAX, 0, "defender.")
    leaves_stealth = inputs.flag(a, "stealth", path="attacker.")
    if leaves_stealth:
        modifiers.append(("attacker", "stealth", catalogue.stealth_attack_dice))
    attacker_surrounded = inputs.integer(a, "surrounded_by", 0, 20, 0, "attacker.")
    defender_surrounded = inputs.integer(d, "surrounded_by", 0, 20, 0, "defender.")
    blocked: list[str] = []
    if inputs.integer(a, "panic", 0, 20, 0, "attacker.") > 0:
        blocked.append("attacker_panicked")
    if inputs.flag(a, "stunned", path="attacker."):
        blocked.append("attacker_stunned")
    if inputs.flag(a, "burning", path="attacker."):
        blocked.append("attacker_burning")
    if inputs.flag(d, "stealth", path="defender."):
        blocked.append("defender_stealthy")
    ally = None
    ally_life = None
    if kind == "brawl":
        if attacker_surrounded >= catalogue.surrounded_from:
            modifiers.append(("attacker", "surrounded", -catalogue.surrounded_brawl_dice_lost))
        if defender_surrounded >= catalogue.surrounded_from:
            modifiers.append(("defender", "surrounded", -catalogue.surrounded_brawl_dice_lost))
    else:
        band = inputs.choice(data, "range", RANGES, "useful")
        attack_band, defence_band = catalogue.range_dice[band]
        if attack_band:
            modifiers.append(("attacker", f"range_{band}", attack_band))
        if defence_band:
            modifiers.append(("defender", f"range_{band}", defence_band))
        cover = inputs.choice(d, "cover", COVERS, "none", "defender.")
        cover_dice = catalogue.cover_dice[cover]
        if cover_dice is None:
            blocked.append("defender_hidden")
        elif cover_dice:
            modifiers.append(("defender", f"cover_{cover}", cover_dice))
        if attacker_surrounded >= catalogue.no_shot_from:
            blocked.append("shooter_surrounded")
        if defender_surrounded >= catalogue.surrounded_from:
            lost = catalogue.surrounded_shot_dice_lost * defender_surrounded
            modifiers.append(("defender", "surrounded", -lost))
        if inputs.flag(data, "into_melee"):
            al = inputs.section(data, "ally")
            ally_dice = inputs.integer(al, "reflexes", 0, ATTRIBUTE_MAX, path="ally.")
            ally_dice += inputs.integer(al, "modifiers", -ATTRIBUTE_MAX, ATTRIBUTE_MAX, 0, "ally.")
            ally = o.Side(dice=_pool("ally.modifiers", ally_dice))
            ally_life = (
                inputs.integer(al, "life", 1, LIFE_MAX, None, "ally.") if "life" in al else None
            )
    for side, _source, dice in modifiers:
        if side == "attacker":
            attack_dice += dice
        else:
            defence_dice += dice
    return Attack(
        kind=kind,
        attacker=o.Side(
            dice=_pool("attacker.modifiers", attack_dice),
            caution=inputs.flag(a, "caution", path="attacker."),
            zeal=kind == "brawl" and inputs.flag(a, "zeal", path="attacker."),
        ),
        defender=o.Side(
            dice=_pool("defender.modifiers", defence_dice),
            caution=inputs.flag(d, "caution", path="defender."),
            zeal=inputs.flag(d, "zeal", path="defender."),
        ),
        modifiers=tuple(modifiers),
        blocked=tuple(blocked),
        defender_life=inputs.integer(d, "life", 1, LIFE_MAX, path="defender.")
        if "life" in d
        else None,
        leaves_stealth=leaves_stealth,
        on_the_ground=kind == "brawl" and defender_surrounded >= catalogue.on_the_ground_from,
        ally=ally,
        ally_life=ally_life,
    )


def _head(attack: Attack) -> dict[str, Any]:
    return {
        "kind": attack.kind,
        "possible": not attack.blocked,
        "blocked": list(attack.blocked),
        "attack_dice": attack.attacker.dice,
        "defence_dice": attack.defender.dice,
        "modifiers": [
            {"side": side, "source": source, "dice": dice}
            for side, source, dice in attack.modifiers
        ],
        "on_the_ground": attack.on_the_ground,
    }


# --- Odds ----------------------------------------------------------------------------------


def attack_odds(attack: Attack, catalogue: Catalogue) -> dict[str, Any]:
    """The exact odds of every damage total, the critical card, the target's death, each
    side's lucky break and backfire, and an ally's wound after a backfire into a melee."""
    out = _head(attack)
    if attack.blocked:
        return out
    attacker = o.side_distribution(attack.attacker, catalogue)
    defender = o.hits_distribution(o.side_distribution(attack.defender, catalogue))
    ally = o.hits_distribution(o.side_distribution(attack.ally, catalogue)) if attack.ally else {}
    damage: dict[int, Fraction] = {}
    ally_damage: dict[int, Fraction] = {}
    card = Fraction(0)
    # What the cancelling reads of the attacker: its successes and criticals (the fiascos
    # only matter for a backfire into a melee), summed once per pair.
    striking: dict[o.Counts, Fraction] = {}
    for counts, pa in attacker.items():
        if attack.ally and o.backfire(counts.fiascos, catalogue):
            # The ally takes the shot: the fiascos become successes against its Réflexes.
            damage[0] = damage.get(0, Fraction(0)) + pa
            for hits, pd in ally.items():
                hurt = max(0, counts.fiascos - hits)
                ally_damage[hurt] = ally_damage.get(hurt, Fraction(0)) + pa * pd
            continue
        key = o.Counts(0, counts.successes, counts.criticals)
        striking[key] = striking.get(key, Fraction(0)) + pa
    for counts, pa in striking.items():
        for hits, pd in defender.items():
            exchange = o.cancel(counts, hits)
            damage[exchange.damage] = damage.get(exchange.damage, Fraction(0)) + pa * pd
            if exchange.critical_card:
                card += pa * pd
    out["damage"] = o.shares_json(damage)
    out["damage_exact"] = {str(k): o.exact(v) for k, v in sorted(damage.items())}
    out["hit"] = float(1 - damage.get(0, Fraction(0)))
    out["critical_card"] = float(card)
    if attack.defender_life is not None:
        dies = sum((p for k, p in damage.items() if k >= attack.defender_life), Fraction(0))
        out["target_dies"] = float(dies)
        out["target_dies_exact"] = o.exact(dies)
    out["attacker"] = {k: float(v) for k, v in o.flags_odds(attacker, catalogue).items()}
    out["defender"] = {
        k: float(v)
        for k, v in o.flags_odds(o.side_distribution(attack.defender, catalogue), catalogue).items()
    }
    if attack.ally:
        out["ally_hit"] = float(sum((v for k, v in ally_damage.items() if k), Fraction(0)))
        out["ally_damage"] = o.shares_json({k: v for k, v in ally_damage.items() if k})
    return out


# --- One walk through the dice -------------------------------------------------------------


def _markers_spent(who: str, judged: o.Judged, side: o.Side) -> list[dict[str, Any]]:
    effects = []
    if judged.rerolled is not None:
        effects.append({"who": who, "markers": {"zeal": -1}})
    if side.caution and judged.turned is not None:
        effects.append({"who": who, "markers": {"caution": -1}})
    return effects


def luck_effects(who: str, judged: o.Judged, catalogue: Catalogue) -> list[dict[str, Any]]:
    """O4: a lucky break or a backfire moves the Moral of the roller's whole team."""
    effects = []
    if judged.lucky_break:
        effects.append({"who": who, "team_moral": catalogue.lucky_break_moral})
    if judged.backfire:
        effects.append({"who": who, "team_moral": catalogue.backfire_moral})
    return effects


def walk(attack: Attack, source: DiceSource, catalogue: Catalogue, out: dict[str, Any]) -> None:
    attacker = o.take_side(source, "attacker", attack.attacker, catalogue)
    defender = o.take_side(source, "defender", attack.defender, catalogue)
    out["attacker"] = attacker.as_json()
    out["defender"] = defender.as_json()
    effects: list[dict[str, Any]] = []
    out["effects"] = effects
    effects += _markers_spent("attacker", attacker, attack.attacker)
    effects += _markers_spent("defender", defender, attack.defender)
    if attack.leaves_stealth:
        effects.append({"who": "attacker", "markers": {"stealth": -1}})
    effects += luck_effects("attacker", attacker, catalogue)
    effects += luck_effects("defender", defender, catalogue)
    if attack.ally and attacker.backfire:
        ally = o.take_side(source, "ally", attack.ally, catalogue)
        hurt = max(0, attacker.counts.fiascos - ally.counts.hits)
        out.update(damage=0, critical_card=None, target_killed=False)
        out["ally"] = {**ally.as_json(), "damage": hurt}
        if hurt:
            effects.append({"who": "ally", "life": -hurt})
        out["ally"]["killed"] = attack.ally_life is not None and hurt >= attack.ally_life
        return
    exchange = o.cancel(attacker.counts, defender.counts.hits)
    out["cancelled"] = exchange.cancelled
    out["damage"] = exchange.damage
    out["critical_card"] = exchange.damage if exchange.critical_card else None
    out["target_killed"] = (
        attack.defender_life is not None and exchange.damage >= attack.defender_life
    )
    if exchange.damage:
        effects.append({"who": "defender", "life": -exchange.damage})


def _walked(attack: Attack, source: DiceSource, catalogue: Catalogue) -> dict[str, Any]:
    out = _head(attack)
    if attack.blocked:
        return out
    try:
        walk(attack, source, catalogue, out)
    except Pending as pending:
        out["pending"] = {"field": pending.field, "dice": str(pending.dice)}
    out["dice"] = [face for used in source.used.values() for face in used]
    out["rolled"] = dict(source.used)
    return out


def _verbs(kind: str) -> tuple[Any, Any, Any]:
    def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
        catalogue = catalogue or load_catalogue()
        return attack_odds(setup(kind, data, catalogue), catalogue)

    def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
        catalogue = catalogue or load_catalogue()
        return _walked(setup(kind, data, catalogue), GivenDice(data), catalogue)

    def roll(
        data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
    ) -> dict[str, Any]:
        catalogue = catalogue or load_catalogue()
        return _walked(setup(kind, data, catalogue), RolledDice(rng), catalogue)

    return odds, evaluate, roll


brawl_odds, brawl_evaluate, brawl_roll = _verbs("brawl")
shot_odds, shot_evaluate, shot_roll = _verbs("shot")

DICE_FIELDS = (
    "attacker_dice",
    "attacker_reroll",
    "defender_dice",
    "defender_reroll",
    "ally_dice",
    "ally_reroll",
)
