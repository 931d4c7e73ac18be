"""The Rapid 40000 resolvers: JSON in, odds / evaluate / roll out.

`rules.engine.registry` lists them (`RESOLVER_SPECS`); the rules API and the calculators
run them. Every bonus is read from the catalogue (weapon bonuses, special-rule effects,
aimed and power attacks, the overwatch malus, the Quality roll's dice and thresholds);
the arithmetic is `combat.py`'s. A refusal names the field, and an unknown catalogue name
names the slug (`kind="unknown"`), which the API turns into a 400 sentence.

Readings where the text is silent (docs/rules.md, Rapid 40000):

- a template weapon (lance-flammes, lance-missile, canon) rolls one die for its bearer;
  a blast weapon first makes the deviation roll, and a deviated shot hits nothing aimed
  at (it lands at 12 ps, where the players place the template and shoot again);
- the leader's special rules give the squad's bonuses (the texts add "les bonus de règles
  spéciales" to the leader's C); Armure and Armure légère protect the squad they lead;
- Chef within command distance improves the morale Quality by 1; a Héro's "1d6 gagné
  automatiquement" is one of the three dice counted as a success without rolling it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

from rules.engine.dice import DiceError, all_rolls, check_dice, roll_d6
from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.rapid40k import combat as c
from rules.engine.systems.rapid40k.catalogue import Catalogue, load_catalogue
from rules.engine.systems.rapid40k.costing import (
    profile_breakdown,
    profile_from,
    vehicle_breakdown,
)

MAX_FIGURES = 8  # a leader and seven fighters

Odds = Callable[[Mapping[str, Any]], dict[str, Any]]
Evaluate = Callable[[Mapping[str, Any]], dict[str, Any]]
Roll = Callable[[Mapping[str, Any], random.Random], dict[str, Any]]


def exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _answer(outcomes: Mapping[str, Fraction]) -> dict[str, Any]:
    return {
        "outcomes": {k: float(v) for k, v in outcomes.items()},
        "outcomes_exact": {k: exact(v) for k, v in outcomes.items()},
    }


def _rules(data: Mapping[str, Any], catalogue: Catalogue, path: str) -> tuple[str, ...]:
    value = data.get("special_rules", [])
    field = f"{path}special_rules"
    if not isinstance(value, list):
        raise RuleInputError(field, f"{field} is a list", kind="list")
    for slug in value:
        if slug not in catalogue.special_rules:
            raise RuleInputError(field, f"unknown rule {slug!r}", kind="unknown", slug=slug)
    # A figure has a rule or has it not: naming it twice gives it once (FORT "reçoit un
    # bonus de +1", not +1 per mention).
    return tuple(dict.fromkeys(value))


def _effect(rules: tuple[str, ...], name: str, catalogue: Catalogue) -> int:
    return sum(catalogue.special_rules[s].effect(name) for s in rules)


def _protection(rules: tuple[str, ...], catalogue: Catalogue) -> int:
    """The loss a squad's armour makes harmless. ARMURE "ne subit pas d'effet si il perd le
    combat de 1 point", ARMURE LEGERE "protégé si le combat est perdu d'un point": each
    saves a loss by one point, so wearing both still saves a loss by one (the best one
    counts, they do not add up)."""
    return max((catalogue.special_rules[s].effect("ignores_loss_by") for s in rules), default=0)


def _typed(data: Mapping[str, Any], key: str, count: int) -> tuple[int, ...]:
    try:
        return check_dice(data.get(key) or (), count)
    except (DiceError, TypeError) as exc:
        raise RuleInputError(key, str(exc), kind="dice", count=count) from exc


def _quality(data: Mapping[str, Any], catalogue: Catalogue, key: str = "quality") -> int:
    return inputs.integer(data, key, *catalogue.quality_range)


def _combat(data: Mapping[str, Any], catalogue: Catalogue, path: str = "") -> int:
    return inputs.integer(data, "combat", *catalogue.combat_range, path=path)


def _bonus(data: Mapping[str, Any], path: str = "") -> int:
    return inputs.integer(data, "bonus", -5, 5, default=0, path=path)


# --- cost ------------------------------------------------------------------------------------


def cost_evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    """A profile's points (RULES-NOTES R1), or a catalogue vehicle's with `"vehicle"`."""
    catalogue = catalogue or load_catalogue()
    if data.get("vehicle") is not None:
        vehicle = data["vehicle"]
        out = asdict(vehicle_breakdown(vehicle, catalogue))
        return {**out, "vehicle": vehicle, "catalogue_version": catalogue.version}
    profile = profile_from(data, catalogue)
    out = asdict(profile_breakdown(profile, catalogue))
    return {
        **out,
        "quality": profile.quality,
        "combat": profile.combat,
        "weapon": profile.weapon,
        "special_rules": list(profile.special_rules),
        "catalogue_version": catalogue.version,
    }


def cost_roll(data: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A price has no dice: rolling prices it as well."""
    return cost_evaluate(data)


# --- Quality rolls: deviation, morale, disengagement -----------------------------------------


@dataclass(frozen=True)
class QualityRoll:
    dice: int
    threshold: int
    free_successes: int = 0


def _morale_setup(data: Mapping[str, Any], catalogue: Catalogue) -> QualityRoll:
    quality = _quality(data, catalogue)
    rules = _rules(data, catalogue, "")
    # Several chefs do not add up (CHEF): the squad's own or one in command distance.
    chef = inputs.flag(data, "chef_nearby") or _effect(rules, "morale_quality_bonus", catalogue) > 0
    improvement = catalogue.special_rules["chef"].effect("morale_quality_bonus") if chef else 0
    free = min(_effect(rules, "morale_free_success", catalogue), catalogue.combat.quality_roll_dice)
    return QualityRoll(
        catalogue.combat.quality_roll_dice - free, max(1, quality - improvement), free
    )


def _plain_setup(data: Mapping[str, Any], catalogue: Catalogue) -> QualityRoll:
    return QualityRoll(catalogue.combat.quality_roll_dice, _quality(data, catalogue))


def _quality_odds(setup: QualityRoll) -> dict[int, Fraction]:
    """The number of successes, free ones included."""
    return {
        k + setup.free_successes: p
        for k, p in c.successes_distribution(setup.dice, setup.threshold).items()
    }


def deviation_outcome(successes: int, total_dice: int, catalogue: Catalogue) -> str:
    """Two failures deviate the shot; two successes or more hit (lance-missile)."""
    failures = total_dice - successes
    return "deviated" if failures >= catalogue.combat.deviation_failures else "on_target"


def morale_outcome(successes: int, total_dice: int, catalogue: Catalogue) -> str:
    return catalogue.combat.morale_outcomes[total_dice - successes]


def disengage_outcome(successes: int, total_dice: int, catalogue: Catalogue) -> str:
    return "disengages" if successes >= catalogue.combat.disengage_successes else "stays_engaged"


QualityJudge = Callable[[int, int, Catalogue], str]


def _quality_resolver(
    setup: Callable[[Mapping[str, Any], Catalogue], QualityRoll], judge: QualityJudge
) -> tuple[Odds, Evaluate, Roll]:
    def answer(s: QualityRoll, dice: tuple[int, ...], catalogue: Catalogue) -> dict[str, Any]:
        total = s.dice + s.free_successes
        won = c.successes(dice, s.threshold) + s.free_successes
        return {
            "dice": list(dice),
            "threshold": s.threshold,
            "successes": won,
            "failures": total - won,
            "outcome": judge(won, total, catalogue),
            "deviated_range": catalogue.combat.deviated_range,
        }

    def odds(data: Mapping[str, Any]) -> dict[str, Any]:
        catalogue = load_catalogue()
        s = setup(data, catalogue)
        total = s.dice + s.free_successes
        outcomes: dict[str, Fraction] = {}
        for won, p in _quality_odds(s).items():
            key = judge(won, total, catalogue)
            outcomes[key] = outcomes.get(key, Fraction(0)) + p
        return {**_answer(outcomes), "dice": s.dice, "threshold": s.threshold}

    def evaluate(data: Mapping[str, Any]) -> dict[str, Any]:
        catalogue = load_catalogue()
        s = setup(data, catalogue)
        return answer(s, _typed(data, "dice", s.dice), catalogue)

    def roll(data: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
        catalogue = load_catalogue()
        s = setup(data, catalogue)
        return answer(s, roll_d6(s.dice, rng), catalogue)

    return odds, evaluate, roll


deviation = _quality_resolver(_plain_setup, deviation_outcome)
morale = _quality_resolver(_morale_setup, morale_outcome)
disengage = _quality_resolver(_plain_setup, disengage_outcome)


# --- Contests: melee, shooting, overwatch, vehicles -------------------------------------------


@dataclass(frozen=True)
class Contest:
    """Two totals of D6 + modifier, how the margin reads, and an optional deviation roll
    the attacker makes first (blast weapons)."""

    kind: str  # melee, shot, vehicle
    a_dice: int
    a_modifier: int
    b_dice: int
    b_modifier: int
    a_ignores: int = 0
    b_ignores: int = 0
    deviation: QualityRoll | None = None
    immobilised_margin: int = 1
    # The outcome when a Quality roll alone decides (explosive charge): no contest.
    quality_only: bool = False


def judge_margin(contest: Contest, margin: int) -> str:
    if contest.kind == "melee":
        return c.melee_outcome(margin, contest.a_ignores, contest.b_ignores)
    if contest.kind == "vehicle":
        return c.vehicle_outcome(margin, contest.immobilised_margin)
    return c.shot_outcome(margin, contest.b_ignores)


def _keys(contest: Contest) -> tuple[str, ...]:
    return {"melee": c.MELEE_OUTCOMES, "vehicle": c.VEHICLE_OUTCOMES}.get(
        contest.kind, c.SHOT_OUTCOMES
    )


def _deviates(contest: Contest, dice: tuple[int, ...], catalogue: Catalogue) -> bool:
    assert contest.deviation is not None
    won = c.successes(dice, contest.deviation.threshold)
    return deviation_outcome(won, contest.deviation.dice, catalogue) == "deviated"


def contest_odds(contest: Contest, catalogue: Catalogue) -> dict[str, Fraction]:
    """Exact outcome probabilities (tested against every ordered roll of the dice)."""
    outcomes: dict[str, Fraction] = {}
    on_target = Fraction(1)
    if contest.deviation is not None:
        q = contest.deviation
        deviated = sum(
            (
                p
                for won, p in _quality_odds(q).items()
                if deviation_outcome(won, q.dice, catalogue) == "deviated"
            ),
            Fraction(0),
        )
        miss = "deviated"
        if contest.quality_only:
            return c.fold({miss: deviated, "immobilised": 1 - deviated}, _keys(contest))
        outcomes[miss] = deviated
        on_target = 1 - deviated
    margins = c.margin_distribution(
        contest.a_dice, contest.a_modifier, contest.b_dice, contest.b_modifier
    )
    for margin, p in margins.items():
        key = judge_margin(contest, margin)
        outcomes[key] = outcomes.get(key, Fraction(0)) + p * on_target
    return c.fold(outcomes, _keys(contest))


def contest_judge(
    contest: Contest,
    a: tuple[int, ...],
    b: tuple[int, ...],
    deviation_dice: tuple[int, ...],
    catalogue: Catalogue,
) -> dict[str, Any]:
    out: dict[str, Any] = {"a_dice": list(a), "b_dice": list(b)}
    if contest.deviation is not None:
        out["deviation_dice"] = list(deviation_dice)
        if _deviates(contest, deviation_dice, catalogue):
            out.update(outcome="deviated", deviated_range=catalogue.combat.deviated_range)
            out["dice"] = list(deviation_dice)
            return out
        if contest.quality_only:
            out.update(outcome="immobilised", dice=list(deviation_dice))
            return out
    a_total = sum(a) + contest.a_modifier
    b_total = sum(b) + contest.b_modifier
    out.update(
        a_total=a_total,
        b_total=b_total,
        margin=a_total - b_total,
        outcome=judge_margin(contest, a_total - b_total),
        dice=[*deviation_dice, *a, *b],
    )
    return out


def brute_force(contest: Contest, catalogue: Catalogue) -> dict[str, Fraction]:
    """Every ordered roll of every die, counted: the oracle the exact odds answer to."""
    counts: dict[str, int] = {}
    deviation_count = contest.deviation.dice if contest.deviation else 0
    b_dice = 0 if contest.quality_only else contest.b_dice
    a_dice = 0 if contest.quality_only else contest.a_dice
    n = deviation_count + a_dice + b_dice
    for faces in all_rolls(n):
        dev, rest = faces[:deviation_count], faces[deviation_count:]
        outcome = contest_judge(contest, rest[:a_dice], rest[a_dice:], dev, catalogue)["outcome"]
        counts[outcome] = counts.get(outcome, 0) + 1
    return c.fold({k: Fraction(v, 6**n) for k, v in counts.items()}, _keys(contest))


def _side(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    return inputs.section(data, key)


def _figures(data: Mapping[str, Any], path: str, hi: int = MAX_FIGURES) -> int:
    return inputs.integer(data, "figures", 1, hi, path=path)


def _melee_setup(data: Mapping[str, Any], catalogue: Catalogue) -> Contest:
    sides = {}
    for key in ("a", "b"):
        side = _side(data, key)
        sides[key] = (side, _rules(side, catalogue, f"{key}."))
    numbers = catalogue.combat
    modifiers: dict[str, int] = {}
    for key, other in (("a", "b"), ("b", "a")):
        side, rules = sides[key]
        path = f"{key}."
        modifier = _combat(side, catalogue, path) + _bonus(side, path)
        modifier += _effect(rules, "melee_bonus", catalogue)
        if inputs.flag(side, "charged", path=path):
            modifier += _effect(rules, "charge_melee_bonus", catalogue)
        if inputs.flag(side, "power_attack", path=path):
            modifier += numbers.power_attack_bonus
        if not _effect(sides[other][1], "melee_bonus_against_not_fort", catalogue):
            modifier += _effect(rules, "melee_bonus_against_not_fort", catalogue)
        modifiers[key] = modifier
    return Contest(
        kind="melee",
        a_dice=_figures(sides["a"][0], "a."),
        a_modifier=modifiers["a"],
        b_dice=_figures(sides["b"][0], "b."),
        b_modifier=modifiers["b"],
        a_ignores=_protection(sides["a"][1], catalogue),
        b_ignores=_protection(sides["b"][1], catalogue),
    )


def _shot_setup(data: Mapping[str, Any], catalogue: Catalogue, overwatch: bool) -> Contest:
    weapon_slug = data.get("weapon")
    if not isinstance(weapon_slug, str) or weapon_slug not in catalogue.weapons:
        raise RuleInputError(
            "weapon", f"unknown weapon {weapon_slug!r}", kind="unknown", slug=weapon_slug
        )
    weapon = catalogue.weapons[weapon_slug]
    rules = _rules(data, catalogue, "")
    numbers = catalogue.combat
    template = weapon.kind != "standard"
    shooters = 1 if template else inputs.integer(data, "shooters", 1, MAX_FIGURES, default=1)
    modifier = _combat(data, catalogue) + weapon.combat_bonus + _bonus(data)
    if not overwatch and inputs.flag(data, "aimed"):
        modifier += numbers.aimed_bonus + _effect(rules, "aimed_shot_bonus", catalogue)
    target = _side(data, "target")
    target_rules = _rules(target, catalogue, "target.")
    target_modifier = _combat(target, catalogue, "target.") + _bonus(target, "target.")
    if overwatch:
        target_modifier -= numbers.overwatch_target_malus
    deviation = None
    if weapon.kind == "blast_template":
        deviation = QualityRoll(numbers.quality_roll_dice, _quality(data, catalogue))
    return Contest(
        kind="shot",
        a_dice=shooters,
        a_modifier=modifier,
        b_dice=_figures(target, "target."),
        b_modifier=target_modifier,
        b_ignores=_protection(target_rules, catalogue),
        deviation=deviation,
    )


def _vehicle_setup(data: Mapping[str, Any], catalogue: Catalogue) -> Contest:
    numbers = catalogue.combat
    attack = inputs.choice(data, "attack", ("missile", "explosive_charge"), default="missile")
    quality = _quality(data, catalogue)
    if attack == "explosive_charge":
        return Contest(
            kind="vehicle",
            a_dice=0,
            a_modifier=0,
            b_dice=0,
            b_modifier=0,
            deviation=QualityRoll(numbers.quality_roll_dice, quality),
            quality_only=True,
        )
    weapon_slug = data.get("weapon", "lance_missile")
    weapon = catalogue.weapons.get(weapon_slug) if isinstance(weapon_slug, str) else None
    if weapon is None or weapon.kind != "blast_template":
        raise RuleInputError(
            "weapon", f"unknown weapon {weapon_slug!r}", kind="unknown", slug=weapon_slug
        )
    vehicle_slug = data.get("vehicle")
    if not isinstance(vehicle_slug, str) or vehicle_slug not in catalogue.vehicles:
        raise RuleInputError(
            "vehicle", f"unknown vehicle {vehicle_slug!r}", kind="unknown", slug=vehicle_slug
        )
    return Contest(
        kind="vehicle",
        a_dice=1,
        a_modifier=_combat(data, catalogue) + weapon.combat_bonus + _bonus(data),
        b_dice=1,
        b_modifier=catalogue.vehicles[vehicle_slug].combat,
        deviation=QualityRoll(numbers.quality_roll_dice, quality),
        immobilised_margin=numbers.vehicle_immobilised_margin,
    )


def _contest_resolver(
    setup: Callable[[Mapping[str, Any], Catalogue], Contest],
) -> tuple[Odds, Evaluate, Roll]:
    def describe(contest: Contest) -> dict[str, Any]:
        return {
            "a_dice_count": 0 if contest.quality_only else contest.a_dice,
            "a_modifier": contest.a_modifier,
            "b_dice_count": 0 if contest.quality_only else contest.b_dice,
            "b_modifier": contest.b_modifier,
            "deviation_dice_count": contest.deviation.dice if contest.deviation else 0,
        }

    def odds(data: Mapping[str, Any]) -> dict[str, Any]:
        catalogue = load_catalogue()
        contest = setup(data, catalogue)
        return {**_answer(contest_odds(contest, catalogue)), **describe(contest)}

    def evaluate(data: Mapping[str, Any]) -> dict[str, Any]:
        catalogue = load_catalogue()
        contest = setup(data, catalogue)
        dev = _typed(data, "deviation_dice", contest.deviation.dice) if contest.deviation else ()
        if contest.quality_only:
            return contest_judge(contest, (), (), dev, catalogue)
        a = _typed(data, "a_dice", contest.a_dice)
        b = _typed(data, "b_dice", contest.b_dice)
        return {**contest_judge(contest, a, b, dev, catalogue), **describe(contest)}

    def roll(data: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
        catalogue = load_catalogue()
        contest = setup(data, catalogue)
        dev = roll_d6(contest.deviation.dice, rng) if contest.deviation else ()
        if contest.quality_only:
            return contest_judge(contest, (), (), dev, catalogue)
        a = roll_d6(contest.a_dice, rng)
        b = roll_d6(contest.b_dice, rng)
        return {**contest_judge(contest, a, b, dev, catalogue), **describe(contest)}

    return odds, evaluate, roll


def melee_setup(data: Mapping[str, Any]) -> Contest:
    return _melee_setup(data, load_catalogue())


def shooting_setup(data: Mapping[str, Any], overwatch: bool = False) -> Contest:
    return _shot_setup(data, load_catalogue(), overwatch)


def vehicle_setup(data: Mapping[str, Any]) -> Contest:
    return _vehicle_setup(data, load_catalogue())


melee = _contest_resolver(_melee_setup)
shooting = _contest_resolver(lambda d, cat: _shot_setup(d, cat, False))
overwatch = _contest_resolver(lambda d, cat: _shot_setup(d, cat, True))
vehicle = _contest_resolver(_vehicle_setup)


# --- Schemas and the list the registry reads ---------------------------------------------------

_CAT = load_catalogue()
_Q = {
    "type": "integer",
    "minimum": _CAT.quality_range[0],
    "maximum": _CAT.quality_range[1],
    "description": "Quality: the '3+' of the profile, as 3",
}
_C = {"type": "integer", "minimum": _CAT.combat_range[0], "maximum": _CAT.combat_range[1]}
_RULES = {"type": "array", "items": {"type": "string", "enum": sorted(_CAT.special_rules)}}
_BONUS = {"type": "integer", "minimum": -5, "maximum": 5, "default": 0}
_FACES = {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}}


def _faces(description: str) -> dict[str, Any]:
    return {**_FACES, "description": f"evaluate only: {description}"}


def _obj(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": properties}


_FIGHTERS = {"type": "integer", "minimum": 1, "maximum": MAX_FIGURES}
_MELEE_SIDE = _obj(
    ["figures", "combat"],
    {
        "figures": {**_FIGHTERS, "description": "figures engaged"},
        "combat": {**_C, "description": "the leader's Combat"},
        "special_rules": _RULES,
        "charged": {"type": "boolean", "default": False},
        "power_attack": {"type": "boolean", "default": False},
        "bonus": _BONUS,
    },
)
_TARGET = _obj(
    ["figures", "combat"],
    {
        "figures": {**_FIGHTERS, "description": "figures of the target squad"},
        "combat": {**_C, "description": "the target leader's Combat"},
        "special_rules": _RULES,
        "bonus": _BONUS,
    },
)
_SHOT = _obj(
    ["weapon", "combat", "target"],
    {
        "weapon": {"type": "string", "enum": sorted(_CAT.weapons)},
        "shooters": {
            **_FIGHTERS,
            "default": 1,
            "description": "figures with this weapon (a template weapon is one)",
        },
        "combat": {**_C, "description": "the leader's Combat"},
        "quality": {**_Q, "description": "the leader's Quality (blast weapons' deviation roll)"},
        "special_rules": _RULES,
        "aimed": {"type": "boolean", "default": False},
        "bonus": _BONUS,
        "target": _TARGET,
        "deviation_dice": _faces("3 dice of the deviation roll (blast weapons)"),
        "a_dice": _faces("the shooters' dice"),
        "b_dice": _faces("the target's dice, one per figure"),
    },
)
_QUALITY = _obj(["quality"], {"quality": _Q, "dice": _faces("3 dice")})

SPECS: tuple[tuple[str, str, str, dict[str, Any], Odds, Evaluate, Roll, tuple[str, ...]], ...] = (
    (
        "cost",
        "A profile's points by the formula (every verb prices; there are no dice).",
        "RULES-NOTES R1; Construire les profils",
        _obj(
            [],
            {
                "quality": _Q,
                "combat": _C,
                "weapon": {"type": "string", "enum": sorted(_CAT.weapons)},
                "special_rules": _RULES,
                "vehicle": {
                    "type": "string",
                    "enum": sorted(_CAT.vehicles),
                    "description": "price a catalogue vehicle instead",
                },
            },
        ),
        cost_evaluate,
        cost_evaluate,
        cost_roll,
        (),
    ),
    (
        "melee",
        "A melee: one D6 per engaged figure + the leader's C + bonuses, each side.",
        "RULES-NOTES R2; Combat au corps à corps",
        _obj(
            ["a", "b"],
            {
                "a": _MELEE_SIDE,
                "b": _MELEE_SIDE,
                "a_dice": _faces("a's dice"),
                "b_dice": _faces("b's dice"),
            },
        ),
        *melee,
        ("a_dice", "b_dice"),
    ),
    (
        "shooting",
        "A shot: fire against resistance, every weapon type, template weapons included.",
        "RULES-NOTES R2; Combat à distance",
        _SHOT,
        *shooting,
        ("a_dice", "b_dice", "deviation_dice"),
    ),
    (
        "overwatch",
        "A shot from overwatch: the moving target takes -1 on its combat roll.",
        "Règles de l'OVERWATCH",
        _SHOT,
        *overwatch,
        ("a_dice", "b_dice", "deviation_dice"),
    ),
    (
        "deviation",
        "A missile's deviation roll: 3 dice against the leader's Quality.",
        "Résolution du combat avec un lance missile",
        _QUALITY,
        *deviation,
        ("dice",),
    ),
    (
        "morale",
        "A morale roll: 3 dice against the leader's Quality, failures counted.",
        "RULES-NOTES R2; Le Moral",
        _obj(
            ["quality"],
            {
                "quality": _Q,
                "special_rules": _RULES,
                "chef_nearby": {"type": "boolean", "default": False},
                "dice": _faces("3 dice (2 with a Héro)"),
            },
        ),
        *morale,
        ("dice",),
    ),
    (
        "disengage",
        "Disengaging from a melee: 3 dice against the leader's Quality.",
        "RULES-NOTES R2; Désengagement",
        _QUALITY,
        *disengage,
        ("dice",),
    ),
    (
        "vehicle",
        "An attack on a vehicle: a missile (immobilised or destroyed) or an explosive charge.",
        "Véhicules blindés",
        _obj(
            ["quality"],
            {
                "attack": {
                    "type": "string",
                    "enum": ["missile", "explosive_charge"],
                    "default": "missile",
                },
                "quality": _Q,
                "combat": _C,
                "weapon": {
                    "type": "string",
                    "enum": sorted(
                        s for s, w in _CAT.weapons.items() if w.kind == "blast_template"
                    ),
                    "default": "lance_missile",
                },
                "vehicle": {"type": "string", "enum": sorted(_CAT.vehicles)},
                "bonus": _BONUS,
                "deviation_dice": _faces("3 dice of the Quality roll"),
                "a_dice": _faces("the missile's die"),
                "b_dice": _faces("the vehicle's die"),
            },
        ),
        *vehicle,
        ("a_dice", "b_dice", "deviation_dice"),
    ),
)

SPECS_BY_NAME = {spec[0]: spec for spec in SPECS}
