"""Of the Dead rolls against a number of dice: stumbling, the stun roll, encouragement,
evasion (RULES-NOTES O2-O4 and the rule text). Pure: no Django.

Each is an opposed roll (O3) whose other side is a number of dice, not a figure:
- Trébuchement: "RÉFLEXES + MODIFICATEURS* contre la structure de l'obstacle (dérisoire:1
  modéré:2 conséquent:3). Un succès est suffisant, une chance de pendu (3 critiques ou plus)
  permettra au personnage de se mettre à couvert près de l'obstacle, sinon, il tombe et le
  joueur supprime un marqueur de Moral et couchera sa figurine et empile 2 marqueurs de
  bruit";
- the stun roll of a moderate explosion ("Un personnage touché subit un jet
  d'Étourdissement"): the text does not say how it is rolled; our reading is the stumble
  roll's, Réflexes against the template's structure, a failure stuns;
- Encouragement: "MORAL + MODIFICATEURS* contre le nombre de dé équivalent aux marqueurs de
  Panique. Chaque succès supprime un marqueur";
- Évasion: "COMBAT + MODIFICATEURS* contre un jet de blocage [...] Une réussite suffit [...]
  sur une chance de pendu [...] elle s'enfuit, mais en plus l'attaquant subira un
  trébuchement. Sur un échec, elle reste sur place."

"A success" is one of the roller's successes left once the other side's have cancelled
theirs. O4 applies to every roll: a lucky break or a backfire moves the roller's team Moral.
Input: `kind`, `attribute` (the roller's Réflexes, Moral or Combat), `modifiers`,
`caution`, and `difficulty` (the other side's dice) or `obstacle` (slight / moderate /
substantial). Dice for evaluate: `roller_dice`, `against_dice`.
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
from rules.engine.systems.of_the_dead.catalogue import SIZES, Catalogue, load_catalogue

KINDS = ("stumble", "stun", "encouragement", "evasion")
DICE_FIELDS = ("roller_dice", "against_dice")


@dataclass(frozen=True)
class Check:
    kind: str
    roller: o.Side
    against: o.Side


def setup(data: Mapping[str, Any], catalogue: Catalogue) -> Check:
    kind = inputs.choice(data, "kind", KINDS)
    dice = inputs.integer(data, "attribute", 0, o.MAX_POOL)
    dice += inputs.integer(data, "modifiers", -o.MAX_POOL, o.MAX_POOL, 0)
    if data.get("obstacle") is not None:
        against = catalogue.obstacles[inputs.choice(data, "obstacle", SIZES)]
    else:
        against = inputs.integer(data, "difficulty", 0, o.MAX_POOL)
    if dice > o.MAX_POOL:
        raise RuleInputError("modifiers", "too many dice", kind="integer", lo=0, hi=o.MAX_POOL)
    return Check(
        kind=kind,
        roller=o.Side(dice=max(0, dice), caution=inputs.flag(data, "caution")),
        against=o.Side(dice=against),
    )


def consequences(
    check: Check, successes: int, lucky: bool, catalogue: Catalogue, who: str = "roller"
) -> dict[str, Any]:
    """What the roll's result does to the roller, by kind (effects as `states` reads them)."""
    passed = successes > 0
    effects: list[dict[str, Any]] = []
    out: dict[str, Any] = {"passed": passed, "successes_left": successes}
    if check.kind == "stumble":
        out["takes_cover"] = passed and lucky
        if not passed:
            effects.append(
                {
                    "who": who,
                    "moral": catalogue.fall_moral,
                    "markers": {"noise": catalogue.fall_noise},
                    "set": {"on_ground": True},
                }
            )
    elif check.kind == "stun":
        if not passed:
            effects.append({"who": who, "set": {"stunned": True}})
    elif check.kind == "encouragement":
        removed = min(successes, check.against.dice)
        out["panic_removed"] = removed
        if removed:
            effects.append({"who": who, "markers": {"panic": -removed}})
    else:
        out["escapes"] = passed
        out["blocker_stumbles"] = passed and lucky
    out["effects"] = effects
    return out


def walk(
    check: Check, source: DiceSource, catalogue: Catalogue, who: str = "roller"
) -> dict[str, Any]:
    roller = o.take_side(source, "roller", check.roller, catalogue)
    against = o.take_side(source, "against", check.against, catalogue)
    exchange = o.cancel(roller.counts, against.counts.hits)
    out = {
        "kind": check.kind,
        **consequences(check, exchange.damage, roller.lucky_break, catalogue, who),
    }
    out["roller"] = roller.as_json()
    out["against"] = against.as_json()
    if check.roller.caution and roller.turned is not None:
        out["effects"].append({"who": who, "markers": {"caution": -1}})
    if roller.lucky_break:
        out["effects"].append({"who": who, "team_moral": catalogue.lucky_break_moral})
    if roller.backfire:
        out["effects"].append({"who": who, "team_moral": catalogue.backfire_moral})
    return out


def check_odds(check: Check, catalogue: Catalogue) -> dict[str, Any]:
    roller = o.side_distribution(check.roller, catalogue)
    against = o.hits_distribution(o.side_distribution(check.against, catalogue))
    passed = Fraction(0)
    lucky_pass = Fraction(0)
    left: dict[int, Fraction] = {}
    for counts, pr in roller.items():
        for hits, pa in against.items():
            successes = o.cancel(counts, hits).damage
            left[successes] = left.get(successes, Fraction(0)) + pr * pa
            if successes:
                passed += pr * pa
                if o.lucky_break(counts.criticals, catalogue):
                    lucky_pass += pr * pa
    flags = o.flags_odds(roller, catalogue)
    out: dict[str, Any] = {
        "kind": check.kind,
        "roller_dice": check.roller.dice,
        "against_dice": check.against.dice,
        "passed": float(passed),
        "passed_exact": o.exact(passed),
        "successes_left": o.shares_json(left),
        "lucky_break": float(flags["lucky_break"]),
        "backfire": float(flags["backfire"]),
    }
    if check.kind == "stumble":
        out["falls"] = float(1 - passed)
        out["takes_cover"] = float(lucky_pass)
    elif check.kind == "stun":
        out["stunned"] = float(1 - passed)
    elif check.kind == "encouragement":
        removed: dict[int, Fraction] = {}
        for k, p in left.items():
            n = min(k, check.against.dice)
            removed[n] = removed.get(n, Fraction(0)) + p
        out["panic_removed"] = o.shares_json(removed)
    else:
        out["blocker_stumbles"] = float(lucky_pass)
    return out


def _answer(check: Check, source: DiceSource, catalogue: Catalogue) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": check.kind}
    try:
        out.update(walk(check, source, catalogue))
    except Pending as pending:
        out["pending"] = {"field": pending.field, "dice": str(pending.dice)}
    out["dice"] = [face for used in source.used.values() for face in used]
    out["rolled"] = dict(source.used)
    return out


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    return check_odds(setup(data, catalogue), catalogue)


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    return _answer(setup(data, catalogue), GivenDice(data), catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    return _answer(setup(data, catalogue), RolledDice(rng), catalogue)
