"""KOLAPS at the table (RULES-NOTES K18). Pure: no Django.

K18: "Rules of the text that a tracker applies at the table, as written: Moral effects by
value (both tables), Moral changes from events (ally killed -1, Novices -2; enemy taken out
+1; an order that cannot be followed -1), falls (a Novice rolling 1 takes a light wound), a
figure on the ground (static, +3 DB, quarter move), 1 Souffle per melee turn after the
first, the Bouclier roll deciding whether a shield's protection counts, the Sonar, Terreur
and Ralliement rolls, armed fists (a pistol in melee), the stray shot that hits the
shooter's own figure (-1 Moral) when the target is alone, and level 0 of inhuman metabolism
regenerating 1 Santé in the end phase."

Where the numbers live: the dice of Bouclier, Sonar, Terreur and Ralliement, the Moral
Ralliement gives back and the Santé inhuman metabolism regenerates are the talents' levels
in the KOLAPS catalogue (`catalogues/<version>.json`), read from the catalogue each resolver
is given; the rest (the two Moral tables, the events, falls, the ground, melee breath, the
stray shot on one's own side) is `table_rules/<version>.json`, a data file of its own so
that no shipped catalogue version changes, validated when loaded like the catalogue.

Readings (docs/rules.md, "KOLAPS at the table"): a talent's `nD6` is a test of n dice and
`nC6` the DB that keeps the best of n (as for Vigilance); any success, mitigated included,
succeeds; the threshold is the roller's effective rank (K4). A fall is one die at the
threshold of the effective rank; "un novice" is the printed rank. The Avatar's Moral never
changes (K13), so events and Ralliement leave it at 6.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from rules.engine.dice import SIDES, Dice, all_rolls
from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import consequences as c
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.kolaps import talent_test as t
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import Catalogue, CatalogueError
from rules.engine.systems.kolaps.steps import DiceSource, GivenDice, Pending, RolledDice
from rules.engine.systems.kolaps.vigilance import db_of

TABLE_RULES_DIR: Final = Path(__file__).with_name("table_rules")
MORAL_VALUES: Final = tuple(range(1, 7))
EVENTS: Final = ("order_not_followed", "ally_taken_out", "enemy_taken_out")
SHIELD, SONAR, TERREUR, RALLIEMENT = "bouclier", "sonar", "terreur", "ralliement"
ARMED_FIST, PISTOL_TALENT = "poing-arme", "pistolet"


# --- The data file -------------------------------------------------------------------------

FaceRows = tuple[tuple[int, int, str], ...]


@dataclass(frozen=True, eq=False)
class TableRules:
    version: str
    moral_effects: Mapping[str, Mapping[int, FaceRows]]  # affiliation -> Moral -> D6 rows
    moral_events: Mapping[str, int]
    novice_ally_taken_out: int
    fall_dice: str
    fall_novice_one_wound: str
    ground_db: int
    ground_move_divisor: int
    ground_get_up_order: str
    melee_free_turns: int
    melee_souffle_per_turn: int
    stray_faces: tuple[int, ...]
    stray_wound: str
    stray_shooter_moral: int
    # Tir dans une mêlée on the target's side: the stray effect its player answers after the
    # roll, and the faces whose figure must be "présent dans la mêlée" (none may be there).
    target_stray_effect: str
    target_stray_in_melee_faces: tuple[int, ...]


def _object(raw: object, where: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(raw, dict) or set(raw) - {"ref"} != set(keys):
        raise CatalogueError(f"table rules, {where}: the keys are {sorted(keys)}")
    return raw


def _int(raw: Mapping[str, Any], key: str, where: str) -> int:
    value = raw[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise CatalogueError(f"table rules, {where}.{key}: a whole number")
    return int(value)


def _text(raw: Mapping[str, Any], key: str, where: str) -> str:
    value = raw[key]
    if not isinstance(value, str) or not value:
        raise CatalogueError(f"table rules, {where}.{key}: a text")
    return value


def _face_rows(raw: object, where: str) -> FaceRows:
    """A D6 table: rows [low, high, effect] covering the faces 1 to 6 once, in order."""
    rows = []
    face = 1
    if not isinstance(raw, list):
        raise CatalogueError(f"table rules, {where}: a list of rows")
    for row in raw:
        if (
            not isinstance(row, list)
            or len(row) != 3
            or row[0] != face
            or not isinstance(row[1], int)
            or row[1] < row[0]
            or not isinstance(row[2], str)
        ):
            raise CatalogueError(f"table rules, {where}: rows cover the faces 1 to 6 in order")
        rows.append((int(row[0]), int(row[1]), str(row[2])))
        face = row[1] + 1
    if face != SIDES + 1:
        raise CatalogueError(f"table rules, {where}: rows cover the faces 1 to 6 in order")
    return tuple(rows)


def read_table_rules(data: Mapping[str, Any], catalogue: Catalogue) -> TableRules:
    """The table rules from their JSON data, checked against the catalogue they go with."""
    top = _object(
        data,
        "top",
        ("version", "moral_effects", "moral_events", "fall", "on_the_ground", "melee_breath",
         "stray_shot_own_side", "stray_shot_target_side"),
    )  # fmt: skip
    effects: dict[str, Mapping[int, FaceRows]] = {}
    raw_effects = top["moral_effects"]
    if not isinstance(raw_effects, dict) or not raw_effects:
        raise CatalogueError("table rules, moral_effects: an object by affiliation")
    for affiliation, table in raw_effects.items():
        if affiliation not in catalogue.affiliations:
            raise CatalogueError(f"table rules, moral_effects: no affiliation {affiliation!r}")
        rows = _object(table, f"moral_effects.{affiliation}", tuple(map(str, MORAL_VALUES)))
        effects[affiliation] = MappingProxyType(
            {m: _face_rows(rows[str(m)], f"moral_effects.{affiliation}.{m}") for m in MORAL_VALUES}
        )
    events = _object(top["moral_events"], "moral_events", (*EVENTS, "ally_taken_out_novice"))
    fall = _object(top["fall"], "fall", ("dice", "novice_one_wound"))
    if fall["novice_one_wound"] not in catalogue.tables.wounds.rows:
        raise CatalogueError("table rules, fall.novice_one_wound: a wound of the catalogue")
    ground = _object(top["on_the_ground"], "on_the_ground", ("db", "move_divisor", "get_up_order"))
    breath = _object(top["melee_breath"], "melee_breath", ("free_turns", "souffle_per_turn"))
    stray = _object(top["stray_shot_own_side"], "stray_shot_own_side",
                    ("faces", "wound", "shooter_moral"))  # fmt: skip
    faces = stray["faces"]
    if not isinstance(faces, list) or not faces or any(f not in range(1, SIDES + 1) for f in faces):
        raise CatalogueError("table rules, stray_shot_own_side.faces: faces of a D6")
    if stray["wound"] not in catalogue.tables.wounds.rows:
        raise CatalogueError("table rules, stray_shot_own_side.wound: a wound of the catalogue")
    theirs = _object(top["stray_shot_target_side"], "stray_shot_target_side",
                     ("effect", "in_melee_faces"))  # fmt: skip
    in_melee = theirs["in_melee_faces"]
    if not isinstance(in_melee, list) or any(f not in range(1, SIDES + 1) for f in in_melee):
        raise CatalogueError("table rules, stray_shot_target_side.in_melee_faces: faces of a D6")
    stray_rows_of = catalogue.tables.follow_ups.stray_shot
    if not any(
        effect == theirs["effect"] and extra.get("ally_wound") in catalogue.tables.wounds.rows
        for _low, _high, effect, extra in stray_rows_of
    ):
        raise CatalogueError(
            "table rules, stray_shot_target_side.effect: a stray shot of the catalogue with a wound"
        )
    return TableRules(
        version=_text(top, "version", "top"),
        moral_effects=MappingProxyType(effects),
        moral_events=MappingProxyType({e: _int(events, e, "moral_events") for e in EVENTS}),
        novice_ally_taken_out=_int(events, "ally_taken_out_novice", "moral_events"),
        fall_dice=_text(fall, "dice", "fall"),
        fall_novice_one_wound=_text(fall, "novice_one_wound", "fall"),
        ground_db=_int(ground, "db", "on_the_ground"),
        ground_move_divisor=_int(ground, "move_divisor", "on_the_ground"),
        ground_get_up_order=_text(ground, "get_up_order", "on_the_ground"),
        melee_free_turns=_int(breath, "free_turns", "melee_breath"),
        melee_souffle_per_turn=_int(breath, "souffle_per_turn", "melee_breath"),
        stray_faces=tuple(int(f) for f in faces),
        stray_wound=_text(stray, "wound", "stray_shot_own_side"),
        stray_shooter_moral=_int(stray, "shooter_moral", "stray_shot_own_side"),
        target_stray_effect=_text(theirs, "effect", "stray_shot_target_side"),
        target_stray_in_melee_faces=tuple(int(f) for f in in_melee),
    )


def table_rules_versions() -> tuple[str, ...]:
    versions = (path.stem for path in TABLE_RULES_DIR.glob("*.json"))
    return tuple(sorted(versions, key=lambda v: tuple(int(p) for p in v.split("."))))


@cache
def load_table_rules(version: str | None = None) -> TableRules:
    """The table rules of `version` (the current one when None), checked against the
    current KOLAPS catalogue."""
    wanted = version or table_rules_versions()[-1]
    if wanted not in table_rules_versions():
        raise CatalogueError(f"no KOLAPS table rules {wanted!r}")
    data = json.loads((TABLE_RULES_DIR / f"{wanted}.json").read_text(encoding="utf-8"))
    return read_table_rules(data, load_catalogue())


# --- Plain rules (no dice) -----------------------------------------------------------------


def moral_from_events(
    rank: str,
    avatar: bool,
    events: Mapping[str, int],
    rules: TableRules | None = None,
) -> int:
    """K18: "Moral changes from events (ally killed -1, Novices -2; enemy taken out +1; an
    order that cannot be followed -1)", applied in the end phase (K14's `moral_changes`).
    The Avatar's Moral never changes (K13)."""
    rules = rules or load_table_rules()
    if avatar:
        return 0
    total = 0
    for event, count in events.items():
        per = rules.moral_events[event]
        if event == "ally_taken_out" and rank == "novice":
            per = rules.novice_ally_taken_out
        total += per * count
    return total


def on_the_ground(move_cm: float, rules: TableRules | None = None) -> dict[str, Any]:
    """K18: "a figure on the ground (static, +3 DB, quarter move)"; Chutes: "Elle doit passer
    un tour en soutien pour se relever"."""
    rules = rules or load_table_rules()
    return {
        "static": True,
        "db": rules.ground_db,
        "move_cm": move_cm / rules.ground_move_divisor,
        "get_up_order": rules.ground_get_up_order,
    }


def melee_breath(turn_in_melee: int, offensive: bool, rules: TableRules | None = None) -> int:
    """K18: "1 Souffle per melee turn after the first" (Le Souffle: "où le personnage est
    offensif"). `turn_in_melee` counts from 1."""
    rules = rules or load_table_rules()
    if not offensive or turn_in_melee <= rules.melee_free_turns:
        return 0
    return rules.melee_souffle_per_turn


def regeneration(talents: Mapping[str, int], catalogue: Catalogue | None = None) -> int:
    """K18: "level 0 of inhuman metabolism regenerating 1 Santé in the end phase" (every
    level carries its `sante_regenerated` in the catalogue); feeds K14's `healing`."""
    catalogue = catalogue or load_catalogue()
    if c.METABOLISM not in talents:
        return 0
    return catalogue.talent(c.METABOLISM).level(talents[c.METABOLISM]).sante_regenerated or 0


def armed_fist(
    weapon: str, talents: Mapping[str, int], catalogue: Catalogue | None = None
) -> dict[str, Any]:
    """K18 "armed fists (a pistol in melee)"; Poing armé: "Ils utilisent la valeur du talent
    pistolet au C à C et appliquent la puissance de l'arme a bout portant". Without the
    specialisation, a pistol is no melee weapon (`possible: false`)."""
    catalogue = catalogue or load_catalogue()
    pistol = catalogue.weapon(weapon)
    if pistol.talent != PISTOL_TALENT or ARMED_FIST not in talents:
        return {"possible": False}
    return {
        "possible": True,
        "melee_expertise": talents.get(PISTOL_TALENT, 0),
        "power": str(pistol.power_dice[0]),
    }


def stray_shot(
    die: int,
    target_alone: bool,
    catalogue: Catalogue | None = None,
    rules: TableRules | None = None,
) -> dict[str, Any]:
    """The stray shot of a miss into a melee (Tir dans une mêlée) with K18: "the stray shot
    that hits the shooter's own figure (-1 Moral) when the target is alone"."""
    catalogue = catalogue or load_catalogue()
    rules = rules or load_table_rules()
    _low, _high, effect, extra = c.face_row(catalogue.tables.follow_ups.stray_shot, die)
    out: dict[str, Any] = {"effect": effect, **extra}
    if target_alone and die in rules.stray_faces:
        out = {
            "effect": "shooter_own_figure_hit",
            "ally_wound": rules.stray_wound,
            "attacker_moral": rules.stray_shooter_moral,
        }
    return out


def target_side_stray(
    stray: Mapping[str, Any], die: int, target_alone: bool, rules: TableRules | None = None
) -> dict[str, Any] | None:
    """The stray shot that hits the target's ally (Tir dans une mêlée, "2-3: Une figurine
    alliée de la cible reçoit une blessure légère. La figurine est choisie par le joueur
    contrôlant la cible"; "6: Un allié de la cible présent dans la mêlée ( au choix du joueur
    de la cible) subit une blessure légère"): the wound the figure its player chooses after
    the roll takes, and whether that figure must be in the melee (then there may be none).
    None for any other stray shot, or when the target is alone (it has no ally to hit)."""
    rules = rules or load_table_rules()
    wound = stray.get("ally_wound")
    if target_alone or stray.get("effect") != rules.target_stray_effect or not wound:
        return None
    return {"wound": str(wound), "in_melee_only": die in rules.target_stray_in_melee_faces}


def stray_rows(
    target_alone: bool, catalogue: Catalogue | None = None, rules: TableRules | None = None
) -> tuple[tuple[int, int, str, tuple[tuple[str, Any], ...]], ...]:
    """The stray-shot D6 face by face as K18 reads it for one shot (`stray_shot`): the
    ranged resolver's rows when the shot goes into a melee."""
    catalogue = catalogue or load_catalogue()
    rules = rules or load_table_rules()
    rows = []
    for face in range(1, SIDES + 1):
        read = stray_shot(face, target_alone, catalogue, rules)
        effect = str(read.pop("effect"))
        rows.append((face, face, effect, tuple(sorted(read.items()))))
    return tuple(rows)


# --- Rolls ---------------------------------------------------------------------------------


def moral_effect(affiliation: str, moral: int, die: int, rules: TableRules | None = None) -> str:
    """K18 "Moral effects by value (both tables)": the effect of the activation die."""
    rules = rules or load_table_rules()
    return str(c.face_row(rules.moral_effects[affiliation][moral], die)[2])


@dataclass(frozen=True)
class Roll:
    """One of the talent rolls of K18, as a talent test (K4-K6)."""

    kind: str
    test: t.TestSetup
    gain: int  # the Moral Ralliement gives back, the Moral Terreur 2 costs
    radius_cm: float | None


def _level(talent: str, data: Mapping[str, Any], catalogue: Catalogue, lo: int) -> Any:
    levels = catalogue.talent(talent).level_numbers
    return catalogue.talent(talent).level(inputs.integer(data, "level", lo, max(levels), lo))


def roll_setup(kind: str, data: Mapping[str, Any], catalogue: Catalogue) -> Roll:
    numbers = t.numbers_of(catalogue)
    rank = inputs.choice(data, "rank", numbers.ranks)
    sante = inputs.integer(data, "sante", 1, 6, 6)
    gain, radius = 0, None
    if kind in (SHIELD, SONAR):
        level = _level(kind, data, catalogue, 0)
        dice = level.dice
    elif kind == TERREUR:
        level = _level(TERREUR, data, catalogue, 1)
        target = inputs.integer(data, "target_sante", 1, 6, 6)
        dice = level.dice_by_target_sante[target]
        gain = level.target_moral_loss or 0
    elif kind == RALLIEMENT:
        level = _level(RALLIEMENT, data, catalogue, 1)
        dice, gain, radius = level.dice, level.moral_regained or 0, level.radius_cm
    else:  # the fall
        rules = load_table_rules()
        dice = rules.fall_dice
    if dice is None:
        raise RuleInputError("level", "this level has no roll", kind="integer", lo=0, hi=3)
    test = t.TestSetup(db=db_of(dice, numbers), rank=rank, sante=sante, numbers=numbers)
    return Roll(kind=kind, test=test, gain=gain, radius_cm=radius)


def _judged(setup: Roll, faces: tuple[int, ...], data: Mapping[str, Any]) -> dict[str, Any]:
    result = t.judge(setup.test, faces)
    out: dict[str, Any] = {
        "outcome": result.outcome,
        "succeeded": result.succeeded,
        "threshold": result.threshold,
    }
    if setup.kind == SHIELD:
        out["protection_counts"] = result.succeeded
    elif setup.kind == SONAR:
        out["finds"] = result.succeeded
        out["vampire_revealed"] = 1 in faces  # "Un résultat de 1 dévoile le Vampire"
    elif setup.kind == TERREUR:
        out["target_inert"] = result.succeeded
        out["target_moral"] = -setup.gain if result.succeeded else 0
    elif setup.kind == RALLIEMENT:
        out["moral_regained"] = setup.gain if result.succeeded else 0
        out["radius_cm"] = setup.radius_cm
    else:
        out["falls"] = not result.succeeded
        out["wound"] = None
    return out


def _walk(
    kind: str, data: Mapping[str, Any], source: DiceSource, catalogue: Catalogue
) -> dict[str, Any]:
    setup = roll_setup(kind, data, catalogue)
    out: dict[str, Any] = {"kind": kind, "db": setup.test.db, "dice_count": setup.test.dice_count}
    try:
        faces = source.take("dice", Dice(count=setup.test.dice_count))
        out.update(_judged(setup, faces, data))
        if kind == "fall" and setup.test.rank == "novice" and faces[0] == 1:
            rules = load_table_rules()
            wound = c.apply_wound(catalogue, rules.fall_novice_one_wound, setup.test.sante, 0)
            out["wound"] = c.wound_json(wound)
            if wound.death_threshold is not None:
                die = source.take("death_die", Dice(count=1))[0]
                out["killed"] = c.dies(wound.death_threshold, die)
    except Pending as pending:
        out["pending"] = {"field": pending.field, "dice": str(pending.dice)}
    out["dice"] = source.used.get("dice", [])
    out["rolled"] = dict(source.used)
    return out


def roll_odds(kind: str, data: Mapping[str, Any], catalogue: Catalogue) -> dict[str, Any]:
    """Exact odds, walking every face of the few dice these rolls use (four at most)."""
    setup = roll_setup(kind, data, catalogue)
    n = setup.test.dice_count
    share = Fraction(1, SIDES**n)
    succeeded = ones = novice_one = Fraction(0)
    for faces in all_rolls(n):
        if t.judge(setup.test, faces).succeeded:
            succeeded += share
        if 1 in faces:
            ones += share
            if kind == "fall" and setup.test.rank == "novice" and faces[0] == 1:
                novice_one += share
    out: dict[str, Any] = {
        "kind": kind,
        "db": setup.test.db,
        "dice_count": n,
        "threshold": setup.test.threshold,
        "succeeded": float(succeeded),
        "succeeded_exact": c.exact(succeeded),
    }
    if kind == SONAR:
        out["vampire_revealed"] = float(ones)
    if kind == "fall":
        out["falls"] = float(1 - succeeded)
        out["light_wound"] = float(novice_one)
        dies = Fraction(0)
        if novice_one:
            wound = c.apply_wound(
                catalogue, load_table_rules().fall_novice_one_wound, setup.test.sante, 0
            )
            dies = novice_one * c.death_chance(wound.death_threshold)
        out["dies"] = float(dies)
        out["dies_exact"] = c.exact(dies)
    return out


def _verbs(kind: str) -> tuple[Any, Any, Any]:
    def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
        return roll_odds(kind, data, catalogue or load_catalogue())

    def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
        return _walk(kind, data, GivenDice(data), catalogue or load_catalogue())

    def roll(
        data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
    ) -> dict[str, Any]:
        return _walk(kind, data, RolledDice(rng), catalogue or load_catalogue())

    return odds, evaluate, roll


shield_verbs = _verbs(SHIELD)
sonar_verbs = _verbs(SONAR)
terreur_verbs = _verbs(TERREUR)
ralliement_verbs = _verbs(RALLIEMENT)
fall_verbs = _verbs("fall")


# --- The Moral table and the bookkeeping as resolvers --------------------------------------


def _moral_setup(data: Mapping[str, Any], catalogue: Catalogue) -> tuple[str, int]:
    rules = load_table_rules()
    affiliation = inputs.choice(data, "affiliation", list(rules.moral_effects))
    return affiliation, inputs.integer(data, "moral", 1, 6)


def moral_effect_odds(
    data: Mapping[str, Any], catalogue: Catalogue | None = None
) -> dict[str, Any]:
    affiliation, moral = _moral_setup(data, catalogue or load_catalogue())
    shares: dict[str, Fraction] = {}
    for low, high, effect in load_table_rules().moral_effects[affiliation][moral]:
        shares[effect] = shares.get(effect, Fraction(0)) + Fraction(high - low + 1, SIDES)
    return {
        "affiliation": affiliation,
        "moral": moral,
        "effects": {k: float(v) for k, v in shares.items()},
        "effects_exact": {k: c.exact(v) for k, v in shares.items()},
    }


def _moral_effect_walk(
    data: Mapping[str, Any], source: DiceSource, catalogue: Catalogue
) -> dict[str, Any]:
    affiliation, moral = _moral_setup(data, catalogue)
    out: dict[str, Any] = {"affiliation": affiliation, "moral": moral}
    try:
        die = source.take("dice", Dice(count=1))[0]
        out["effect"] = moral_effect(affiliation, moral, die)
    except Pending as pending:
        out["pending"] = {"field": pending.field, "dice": str(pending.dice)}
    out["dice"] = source.used.get("dice", [])
    return out


def moral_effect_evaluate(
    data: Mapping[str, Any], catalogue: Catalogue | None = None
) -> dict[str, Any]:
    return _moral_effect_walk(data, GivenDice(data), catalogue or load_catalogue())


def moral_effect_roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    return _moral_effect_walk(data, RolledDice(rng), catalogue or load_catalogue())


def bookkeeping_evaluate(
    data: Mapping[str, Any], catalogue: Catalogue | None = None
) -> dict[str, Any]:
    """One character's table bookkeeping for the end phase, no dice: the Moral of its events,
    the Souffle of its melee turn, what inhuman metabolism regenerates, the ground."""
    catalogue = catalogue or load_catalogue()
    numbers = t.numbers_of(catalogue)
    levels = {slug: talent.level_numbers for slug, talent in catalogue.talents.items()}
    rank = inputs.choice(data, "rank", numbers.ranks)
    avatar = inputs.flag(data, "avatar")
    raw_events = inputs.section(data, "events")
    events = {e: inputs.integer(raw_events, e, 0, 20, 0, "events.") for e in EVENTS}
    turn = inputs.integer(data, "melee_turn", 0, 50, 0)
    talents = inputs.talents(data, "talents", levels)
    out: dict[str, Any] = {
        "moral_changes": moral_from_events(rank, avatar, events),
        "melee_souffle": melee_breath(turn, inputs.flag(data, "offensive", True)),
        "healing": regeneration(talents, catalogue),
    }
    if inputs.flag(data, "on_the_ground"):
        out["on_the_ground"] = on_the_ground(inputs.number(data, "move_cm", 0, 100, 0))
    weapon = data.get("weapon")
    if weapon is not None:
        pistols = [w.slug for w in catalogue.weapons.values() if w.talent == PISTOL_TALENT]
        out["armed_fist"] = armed_fist(inputs.choice(data, "weapon", pistols), talents, catalogue)
    return out


def stray_shot_walk(
    data: Mapping[str, Any], source: DiceSource, catalogue: Catalogue
) -> dict[str, Any]:
    alone = inputs.flag(data, "target_alone")
    out: dict[str, Any] = {"target_alone": alone}
    try:
        die = source.take("stray_die", Dice(count=1))[0]
        out.update(stray_shot(die, alone, catalogue))
    except Pending as pending:
        out["pending"] = {"field": pending.field, "dice": str(pending.dice)}
    out["dice"] = source.used.get("stray_die", [])
    return out


def stray_shot_odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    alone = inputs.flag(data, "target_alone")
    shares: dict[str, Fraction] = {}
    for face in range(1, SIDES + 1):
        effect = stray_shot(face, alone, catalogue)["effect"]
        shares[effect] = shares.get(effect, Fraction(0)) + Fraction(1, SIDES)
    own = shares.get("shooter_own_figure_hit", Fraction(0)) + shares.get(
        "shooter_ally_hit", Fraction(0)
    )
    return {
        "target_alone": alone,
        "effects": {k: float(v) for k, v in shares.items()},
        "shooter_loses_moral": float(own),
    }


def stray_shot_evaluate(
    data: Mapping[str, Any], catalogue: Catalogue | None = None
) -> dict[str, Any]:
    return stray_shot_walk(data, GivenDice(data), catalogue or load_catalogue())


def stray_shot_roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    return stray_shot_walk(data, RolledDice(rng), catalogue or load_catalogue())
