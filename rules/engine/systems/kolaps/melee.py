"""KOLAPS melee: an opposed exploding roll decides who strikes, then one attack roll.

Reading K10 (RULES-NOTES): "Each side scores an exploding D6 (a 6 adds another D6, again
and again) + melee expertise + specialisation bonus + 1 for Vétéran and Expert + 1 per
support (2 if that support charged). The higher score is the attacker; DB = 6 -
difference; a tie is a harmless exchange. Then defender, attacker and support talents and
the target's protection against the weapon type adjust the DB, and the attacker rolls
against its own threshold. Exact odds may cap the explosions at a depth whose error stays
below 1e-9."

Then the attack is `attack.Attack` with the melee damage table (K7), wounds and death roll
(K8), melee incidents (K9). Input body (fighters `a` and `b`, slugs from the catalogue):

    {"a": {"rank": "veteran", "sante": 6, "affiliation": "apc",
           "talents": {"corps-a-corps": 2, "charge-apc": 1}, "charged": true,
           "weapon": "matraque-composite", "armour": "armure-anti-emeute",
           "use": [], "traits": [], "ablaze": false,
           "supports": [{"charged": false, "talents": {"immobiliser": 1}}]},
     "b": {...}}

`armed_fist: true` (K18 "armed fists (a pistol in melee)"; Poing armé: "peuvent utiliser une
arme de type pistolet au corps à corps. Ils utilisent la valeur du talent pistolet au C à C
et appliquent la puissance de l'arme a bout portant"): the weapon is a pistol, the fighter
must have Poing armé, and its Pistolet expertise stands for its melee expertise.

`use` lists the talents the fighter uses in this melee (Esquive when defending,
Ambidextre and Frénésie when attacking). For `evaluate`: `a_dice` and `b_dice` (the
exploding dice as rolled, e.g. [6, 3]), then `dice` and the follow-ups as for a shot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.engine.dice import Dice, exploding_d6, parse
from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import consequences as c
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.kolaps import talent_test as t
from rules.engine.systems.kolaps.at_the_table import armed_fist
from rules.engine.systems.kolaps.attack import (
    Attack,
    Modifier,
    attack_odds,
    resolve,
    test_setup,
)
from rules.engine.systems.kolaps.attack import describe as attack_description
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import Catalogue
from rules.engine.systems.kolaps.ranged import metabolism
from rules.engine.systems.kolaps.steps import DiceSource, Pending, verbs

SIDES = ("a", "b")
EXPLODING = parse("D6!")
MELEE_TALENT = "corps-a-corps"
CHARGES = ("charge-apc", "charge-sheol")  # K16: each affiliation keeps its own numbers
FRENZY = "frenesie"
# K10 "defender, attacker and support talents ... adjust the DB": which talents adjust
# the DB from which seat (their `db_modifier` per level is the catalogue's).
DB_TALENTS_BY_SEAT = {
    "defender": ("esquive",),  # "esquive, parade, tirailleur, feinte": only Esquive has numbers
    "attacker": ("ambidextre",),
    "support": ("immobiliser",),
}
# K10 exact odds cut the exploding die after this many sixes: 2 x (1/6)^13 < 1e-9.
DEPTH = 12


@dataclass(frozen=True)
class Fighter:
    rank: str
    sante: int
    affiliation: str | None
    talents: Mapping[str, int]
    charged: bool
    weapon: str
    armour: str | None
    use: tuple[str, ...]
    traits: tuple[str, ...]
    ablaze: bool
    supports: tuple[tuple[bool, tuple[tuple[str, int], ...]], ...]
    # K18 armed fists: the Pistolet expertise that stands for the melee expertise, or None.
    armed_fist_expertise: int | None = None

    def level(self, catalogue: Catalogue, slug: str, field: str) -> Any:
        """The value of `field` at this fighter's level of the talent, or None."""
        if slug not in self.talents:
            return None
        return getattr(catalogue.talent(slug).level(self.talents[slug]), field)


@dataclass(frozen=True)
class Melee:
    a: Fighter
    b: Fighter
    score_a: tuple[Modifier, ...]
    score_b: tuple[Modifier, ...]
    catalogue: Catalogue = field(repr=False, compare=False)

    def fighter(self, side: str) -> Fighter:
        return self.a if side == "a" else self.b

    def bonus(self, side: str) -> int:
        return sum(m.db for m in (self.score_a if side == "a" else self.score_b))


def _fighter(data: Mapping[str, Any], side: str, catalogue: Catalogue) -> Fighter:
    path = f"{side}."
    levels = {slug: talent.level_numbers for slug, talent in catalogue.talents.items()}
    fighter = inputs.section(data, side)
    talents = inputs.talents(fighter, "talents", levels, path=path)
    fist = inputs.flag(fighter, "armed_fist", path=path)
    melee_weapons = [w.slug for w in catalogue.weapons.values() if w.kind == "melee"]
    if fist:
        melee_weapons = [w.slug for w in catalogue.weapons.values() if w.talent == "pistolet"]
    raw_supports = fighter.get("supports", [])
    if not isinstance(raw_supports, list) or len(raw_supports) > 10:
        raise RuleInputError(f"{path}supports", "supports is a list", kind="list")
    supports = []
    for index, raw in enumerate(raw_supports):
        if not isinstance(raw, Mapping):
            raise RuleInputError(f"{path}supports", "a support is an object", kind="object")
        where = f"{path}supports.{index}."
        supports.append(
            (
                inputs.flag(raw, "charged", path=where),
                tuple(sorted(inputs.talents(raw, "talents", levels, path=where).items())),
            )
        )
    weapon = inputs.choice(fighter, "weapon", melee_weapons, path=path)
    expertise = None
    if fist:
        fists = armed_fist(weapon, talents, catalogue)
        if not fists["possible"]:
            raise RuleInputError(
                f"{path}armed_fist", "armed fists need the Poing armé talent", kind="armed_fist"
            )
        expertise = int(fists["melee_expertise"])
    return Fighter(
        rank=inputs.choice(fighter, "rank", t.rank_slugs(catalogue), path=path),
        sante=inputs.integer(fighter, "sante", 1, 6, 6, path=path),
        affiliation=inputs.optional_choice(
            fighter, "affiliation", tuple(catalogue.affiliations), path
        ),
        talents=talents,
        charged=inputs.flag(fighter, "charged", path=path),
        weapon=weapon,
        armour=inputs.optional_choice(fighter, "armour", catalogue.armours, path),
        use=inputs.slugs(fighter, "use", talents, path=path),
        traits=inputs.slugs(fighter, "traits", catalogue.veteran_traits, path=path),
        ablaze=inputs.flag(fighter, "ablaze", path=path),
        supports=tuple(supports),
        armed_fist_expertise=expertise,
    )


def score_modifiers(fighter: Fighter, catalogue: Catalogue) -> tuple[Modifier, ...]:
    """K10: what a side adds to its exploding D6: "melee expertise + specialisation bonus +
    1 for Vétéran and Expert + 1 per support (2 if that support charged)".

    Readings: Frénésie used sets the Corps à corps expertise to its level's value; the
    charge bonus is the fighter's own Charge (APC or Shéol, K16) when it charged; the rank
    bonus follows the effective rank (K4: at Santé 3 or less a character "counts as" a
    lower rank).
    """
    opposition = catalogue.tables.melee_opposition
    expertise = fighter.talents.get(MELEE_TALENT, 0)
    if fighter.armed_fist_expertise is not None:
        # K18 armed fists: "la valeur du talent pistolet au C à C".
        expertise = fighter.armed_fist_expertise
    if FRENZY in fighter.use:
        frenzy = fighter.level(catalogue, FRENZY, "melee_expertise")
        expertise = expertise if frenzy is None else frenzy
    out = [Modifier("expertise", expertise)]
    if fighter.charged:
        for slug in CHARGES:
            bonus = fighter.level(catalogue, slug, "melee_attacker_bonus")
            if bonus:
                out.append(Modifier(f"talent:{slug}", bonus))
    numbers = t.numbers_of(catalogue)
    effective = t.TestSetup(db=1, rank=fighter.rank, sante=fighter.sante, numbers=numbers)
    rank_bonus = opposition.rank_bonus[numbers.ranks[effective.effective_rank - 1]]
    if rank_bonus:
        out.append(Modifier("rank", rank_bonus))
    for charged, _talents in fighter.supports:
        bonus = opposition.charged_support_bonus if charged else opposition.support_bonus
        out.append(Modifier("support_charged" if charged else "support", bonus))
    return tuple(out)


def setup(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> Melee:
    catalogue = catalogue or load_catalogue()
    a = _fighter(data, "a", catalogue)
    b = _fighter(data, "b", catalogue)
    return Melee(a, b, score_modifiers(a, catalogue), score_modifiers(b, catalogue), catalogue)


def strike(melee: Melee, attacker_side: str, difference: int, catalogue: Catalogue) -> Attack:
    """K10: the attacker's roll once the scores differ by `difference` (> 0)."""
    attacker = melee.fighter(attacker_side)
    defender = melee.fighter("b" if attacker_side == "a" else "a")
    opposition = catalogue.tables.melee_opposition
    modifiers = [Modifier("opposition", opposition.db_base - difference)]
    for slug in DB_TALENTS_BY_SEAT["defender"]:
        if slug in defender.use and FRENZY not in defender.use:  # Frénésie: no Esquive
            modifiers.append(
                Modifier(f"defender:{slug}", defender.level(catalogue, slug, "db_modifier") or 0)
            )
    for slug in DB_TALENTS_BY_SEAT["attacker"]:
        if slug in attacker.use:
            modifiers.append(
                Modifier(f"talent:{slug}", attacker.level(catalogue, slug, "db_modifier") or 0)
            )
    for index, (_charged, talents) in enumerate(attacker.supports):
        for slug, level in talents:
            if slug in DB_TALENTS_BY_SEAT["support"]:
                modifier = catalogue.talent(slug).level(level).db_modifier or 0
                modifiers.append(Modifier(f"support:{index}:{slug}", modifier))
    for slug in attacker.traits:
        trait = catalogue.veteran_trait(slug).melee_db_modifier
        if trait:
            modifiers.append(Modifier(f"trait:{slug}", trait))
    weapon = catalogue.weapon(attacker.weapon)
    if defender.armour is not None:
        protection = catalogue.armour(defender.armour).protection[weapon.damage_type]
        if protection:
            modifiers.append(Modifier(f"protection:{defender.armour}", protection))
    bonus = Dice()
    if FRENZY in attacker.use:
        frenzy_power = attacker.level(catalogue, FRENZY, "power_bonus")
        bonus = parse(frenzy_power) if frenzy_power else bonus
    divisor, death_modifier = metabolism(catalogue, defender.talents)
    _own_divisor, own_death_modifier = metabolism(catalogue, attacker.talents)
    return Attack(
        table="melee",
        modifiers=tuple(modifiers),
        test=test_setup(sum(m.db for m in modifiers), attacker.rank, attacker.sante, catalogue),
        power=weapon.power_at("point_blank"),
        power_bonus=bonus,
        power_divisor=divisor,
        affiliation=attacker.affiliation,
        attacker_sante=attacker.sante,
        target_sante=defender.sante,
        target_death_modifier=death_modifier,
        attacker_death_modifier=own_death_modifier,
        ablaze=attacker.ablaze,
    )


def _describe(melee: Melee) -> dict[str, Any]:
    return {
        "score_modifiers": {
            side: [{"source": m.source, "value": m.db} for m in mods]
            for side, mods in (("a", melee.score_a), ("b", melee.score_b))
        },
        "score_bonus": {"a": melee.bonus("a"), "b": melee.bonus("b")},
    }


def _walk(
    data: Mapping[str, Any], source: DiceSource, catalogue: Catalogue | None
) -> dict[str, Any]:
    """A melee, opposition and attack, with dice typed in (`evaluate`: names the next roll
    if one is missing) or rolled (`roll`)."""
    melee = setup(data, catalogue)
    catalogue = melee.catalogue
    out = _describe(melee)
    try:
        scores = {}
        for side in SIDES:
            faces = source.take(f"{side}_dice", EXPLODING)
            scores[side] = sum(faces) + melee.bonus(side)
        out["scores"] = scores
        difference = scores["a"] - scores["b"]
        if difference == 0:
            # K10: "a tie is a harmless exchange".
            out.update(attacker=None, row="exchange")
        else:
            side = "a" if difference > 0 else "b"
            attack = strike(melee, side, abs(difference), catalogue)
            out.update(attacker=side, **attack_description(attack))
            resolve(attack, source, out, catalogue)
    except Pending as pending:
        out["pending"] = {"field": pending.field, "dice": str(pending.dice)}
    used = dict(source.used)
    out["dice"] = used.pop("dice", [])
    out["follow_up"] = used
    return out


evaluate, roll = verbs(_walk)


@dataclass(frozen=True)
class MeleeOdds:
    exchange: Fraction
    attacker: dict[str, Fraction]  # P(side strikes)
    rows: dict[str, dict[str, Fraction]]  # by striking side
    dies: dict[str, Fraction]  # P(side dies), as target or by its own incident
    dropped: Fraction  # the probability the exploding cut leaves out (K10)


def difference_weights(melee: Melee, depth: int = DEPTH) -> tuple[dict[int, int], int]:
    """The law of score a - score b as whole-number weights over one denominator,
    explosions cut at `depth` sixes: a total 6j + r weighs 6^(depth - j) out of
    6^(depth + 1), so a pair of dice weighs the product out of the square."""
    shift = melee.bonus("a") - melee.bonus("b")
    # a - b = 6 (j_a - j_b) + (r_a - r_b): the weight depends only on the sixes j, and
    # the last dice r_a, r_b in 1..5 differ by k in 5 - |k| ways.
    out: dict[int, int] = {}
    for j_a in range(depth + 1):
        for j_b in range(depth + 1):
            weight = 6 ** (2 * depth - j_a - j_b)
            base = 6 * (j_a - j_b) + shift
            for k in range(-4, 5):
                key = base + k
                out[key] = out.get(key, 0) + weight * (5 - abs(k))
    return out, 6 ** (2 * (depth + 1))


def melee_odds(melee: Melee, depth: int = DEPTH) -> MeleeOdds:
    """Exact odds (up to the explosion cut) of who strikes, every table row and each death.

    Every difference that gives the same striker and DB gives the same attack (DB -2 and
    below all roll four dice kept best, K6), so the weights of the differences are summed
    by (striker, DB) before the attack's odds multiply them once.
    """
    catalogue = melee.catalogue
    # K6: every DB at or below the lowest the kept-best table lists rolls the same dice.
    lowest_db = t.numbers_of(catalogue).keep_best[0][0]
    db_base = catalogue.tables.melee_opposition.db_base
    weights, denominator = difference_weights(melee, depth)
    _die, dropped = exploding_d6(depth)
    exchange = 0
    # The DB is 6 - difference plus adjustments that depend only on who strikes.
    adjustment = {side: strike(melee, side, 1, catalogue).db - (db_base - 1) for side in SIDES}
    by_key: dict[tuple[str, int], list[Any]] = {}
    for difference, weight in weights.items():
        if difference == 0:
            exchange += weight
            continue
        side = "a" if difference > 0 else "b"
        key = (side, max(lowest_db, db_base - abs(difference) + adjustment[side]))
        if key in by_key:
            by_key[key][1] += weight
        else:
            by_key[key] = [strike(melee, side, abs(difference), catalogue), weight]
    attacker = {"a": Fraction(0), "b": Fraction(0)}
    rows: dict[str, dict[str, Fraction]] = {"a": {}, "b": {}}
    dies = {"a": Fraction(0), "b": Fraction(0)}
    for (side, _db), (attack, weight) in by_key.items():
        other = "b" if side == "a" else "a"
        p = Fraction(weight, denominator)
        result = attack_odds(attack, catalogue)
        attacker[side] += p
        for row, q in result.rows.items():
            rows[side][row] = rows[side].get(row, Fraction(0)) + p * q
        dies[other] += p * result.target_dies
        dies[side] += p * result.attacker_dies
    return MeleeOdds(Fraction(exchange, denominator), attacker, rows, dies, 1 - (1 - dropped) ** 2)


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    """Exact odds of a melee (K10), explosions cut below a 1e-9 error."""
    melee = setup(data, catalogue)
    result = melee_odds(melee)
    return {
        **_describe(melee),
        "exchange": float(result.exchange),
        "attacker": {k: float(v) for k, v in result.attacker.items()},
        "rows": {
            side: {row: float(result.rows[side][row]) for row in c.ROWS if row in result.rows[side]}
            for side in SIDES
        },
        "dies": {k: float(v) for k, v in result.dies.items()},
        "dies_exact": {k: c.exact(v) for k, v in result.dies.items()},
        "truncation_error": float(result.dropped),
    }
