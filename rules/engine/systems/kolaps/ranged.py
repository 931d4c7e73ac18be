"""KOLAPS ranged combat: the DB of a shot, its dice, the damage table and what follows.

Readings (RULES-NOTES): K11 (every DB modifier), K4-K6 (the roll, through
`talent_test`), K7 (damage value and table), K8 (wounds and death roll), K9 (incidents),
and the text's "Tir dans une mêlée" (stray shots). The DB is a list of named modifiers
so the calculator can show where each point comes from; the dice are walked once by
`resolve` for both `evaluate` (typed dice) and `roll` (server dice), and `odds` sums the
same steps exactly over every face.

Input body (every slug is the catalogue's):

    {"attacker": {"rank": "veteran", "sante": 6, "affiliation": "apc",
                  "talents": {"fusil": 2}, "armour": "tenue-legere-sti-europa",
                  "traits": []},
     "weapon": "fa-f4", "mode": "semi-auto", "use": [], "equipment_db": 0,
     "distance_cm": 40,
     "target": {"sante": 6, "order": "movement", "cover": 3, "against_cover": false,
                "unconscious": false, "moved_cm": 0, "closing_in": false,
                "armour": null, "extra_protection": 3, "talents": {}, "traits": []},
     "melee_figures": 0, "target_alone": false,
     "stray_ally": {"sante": 6, "talents": {}}}

`target_alone` and `stray_ally` (K18, "the stray shot that hits the shooter's own figure (-1
Moral) when the target is alone"): whether the target is the only figure of its unit, and
the shooter's ally a stray shot on the shooter's own side hits (Tir dans une mêlée: "1: La
figurine alliée du tireur ... reçoit une blessure sérieuse"; "2-3: ... Si la cible est la
seule de son unité, alors le tireur choisi une figurine de son unité et lui applique la
blessure légère"); that ally takes the wound at once, with its death roll
(`stray_death_die`).

plus, for `evaluate`, the dice as they are rolled: `dice`, then when asked `power_dice`,
`power_bonus_dice`, `death_die`, `incident_die`, `attacker_death_die`, `stray_die`,
`stray_death_die`, `temper_die`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.engine.dice import BANDS, Dice, parse
from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import at_the_table as k18
from rules.engine.systems.kolaps import consequences as c
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.kolaps import talent_test as t
from rules.engine.systems.kolaps.attack import (
    Attack,
    Modifier,
    attack_odds,
    odds_json,
    resolve,
    test_setup,
)
from rules.engine.systems.kolaps.attack import describe as attack_description
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import UNTOUCHABLE, Catalogue, Weapon
from rules.engine.systems.kolaps.steps import DiceSource, verbs

ORDERS = ("support", "defensive", "offensive", "movement")
METABOLISM = c.METABOLISM


@dataclass(frozen=True)
class Shot:
    """A shot once its inputs are read: where it stands and the attack it makes."""

    weapon: str
    band: str
    attack: Attack
    possible: bool
    catalogue: Catalogue = field(repr=False, compare=False)
    why_impossible: str | None = None
    # Into a melee, the target alone on its side: no ally of its for a stray shot to hit.
    target_alone: bool = False


def _levels(catalogue: Catalogue) -> dict[str, tuple[int, ...]]:
    return {slug: talent.level_numbers for slug, talent in catalogue.talents.items()}


def range_band(weapon: Weapon, distance_cm: float) -> str | None:
    """K11 "range band from the weapon's bands and the distance".

    Reading: a band reaches up to its upper bound inclusive (a PA at 5 cm is point blank);
    a distance in a gap the table leaves between two bands takes the next band; beyond the
    last band the weapon cannot reach (None).
    """
    assert weapon.range_cm is not None
    for name in BANDS:
        band = weapon.range_cm.get(name)
        if band is None:
            continue
        if band.max_cm is None or distance_cm <= band.max_cm:
            return name
    return None


def movement_modifier(catalogue: Catalogue, moved_cm: float, closing_in: bool) -> int:
    """K11 "target movement when it moves fast without closing in (15-25 cm +1, 25-35 +2,
    35-45 +3, 45-55 +4, 55 and more +5)". Reading: a band runs from its lower bound
    included to its upper bound excluded ("+ de 15 cm à - de 25 cm")."""
    if closing_in:
        return 0
    for row in catalogue.tables.ranged_db.target_movement_modifiers:
        if moved_cm >= row.min_cm and (row.max_cm is None or moved_cm < row.max_cm):
            return row.db
    return 0


def cover_modifier(
    catalogue: Catalogue,
    cover_type: int,
    order: str,
    against: bool,
    band: str,
    target_talents: Mapping[str, int],
    target_traits: tuple[str, ...],
) -> tuple[int, int | str]:
    """K11 "cover (types 1-4 by the target's order directive and whether it is against the
    cover, as written; point blank ignores all but type 4)".

    Before the table: a Metasteroides target "ne peut bénéficier des couverts de type 1 et
    2, le type 3 compte comme type 2"; Se cacher in Defensive order counts the cover as a
    higher type (reading: up to heavy cover, type 3: a wall is not a way of hiding).
    Returns the type used and its DB, or "untouchable" when the shot cannot be made.
    """
    kind = cover_type
    for slug in target_traits:
        trait = catalogue.veteran_trait(slug)
        if kind in trait.ignored_cover_types:
            kind = 0
        kind = trait.cover_type_as.get(kind, kind)
    if order == "defensive" and 1 <= kind < 3:
        for slug, level in target_talents.items():
            bonus = catalogue.talent(slug).level(level).cover_type_bonus
            if bonus:
                kind = min(3, kind + bonus)
    if kind == 0:
        return 0, 0
    cover = catalogue.tables.cover
    if band == "point_blank" and kind != cover.point_blank_keeps_only_type:
        return 0, 0
    row = cover.types[kind - 1]
    effect = (row.against if against else row.not_against).get(order, 0)
    return kind, effect


def setup(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> Shot:
    """Read a shot and add up its DB (K11), naming each modifier."""
    catalogue = catalogue or load_catalogue()
    levels = _levels(catalogue)
    attacker = inputs.section(data, "attacker")
    target = inputs.section(data, "target")
    rank = inputs.choice(attacker, "rank", t.rank_slugs(catalogue), path="attacker.")
    sante = inputs.integer(attacker, "sante", 1, 6, 6, path="attacker.")
    affiliations = tuple(catalogue.affiliations)
    affiliation = inputs.optional_choice(attacker, "affiliation", affiliations, "attacker.")
    talents = inputs.talents(attacker, "talents", levels, path="attacker.")
    armour_slug = inputs.optional_choice(attacker, "armour", catalogue.armours, "attacker.")
    traits = inputs.slugs(attacker, "traits", catalogue.veteran_traits, path="attacker.")
    ranged = [w.slug for w in catalogue.weapons.values() if w.kind == "ranged"]
    weapon = catalogue.weapon(inputs.choice(data, "weapon", ranged))
    mode = inputs.optional_choice(data, "mode", weapon.db_modifier_by_mode)
    used = inputs.slugs(data, "use", talents)
    equipment_db = inputs.integer(data, "equipment_db", -10, 10, 0)
    distance = inputs.number(data, "distance_cm", 0, 1000)
    melee_figures = inputs.integer(data, "melee_figures", 0, 20, 0)
    target_alone = inputs.flag(data, "target_alone")
    stray_ally = data.get("stray_ally")
    ally_sante: int | None = None
    ally_death_modifier = 0
    if stray_ally is not None:
        ally = inputs.section(data, "stray_ally")
        ally_sante = inputs.integer(ally, "sante", 1, 6, 6, path="stray_ally.")
        ally_talents = inputs.talents(ally, "talents", levels, path="stray_ally.")
        ally_death_modifier = metabolism(catalogue, ally_talents)[1]

    target_sante = inputs.integer(target, "sante", 1, 6, 6, path="target.")
    order = inputs.choice(target, "order", ORDERS, "movement", path="target.")
    cover_type = inputs.integer(target, "cover", 0, 4, 0, path="target.")
    against = inputs.flag(target, "against_cover", path="target.")
    unconscious = inputs.flag(target, "unconscious", path="target.")
    moved = inputs.number(target, "moved_cm", 0, 1000, 0, path="target.")
    closing_in = inputs.flag(target, "closing_in", path="target.")
    target_armour = inputs.optional_choice(target, "armour", catalogue.armours, "target.")
    extra_protection = inputs.integer(target, "extra_protection", 0, 10, 0, path="target.")
    target_talents = inputs.talents(target, "talents", levels, path="target.")
    target_traits = inputs.slugs(target, "traits", catalogue.veteran_traits, path="target.")

    band = range_band(weapon, distance)
    if band is None:
        raise RuleInputError(
            "distance_cm", f"{weapon.slug} does not reach {distance} cm", kind="range"
        )
    tables = catalogue.tables.ranged_db
    modifiers: list[Modifier] = []
    # K11: "base DB from expertise (0: 5, 1: 3, 2: 1, 3: 0; a static target, i.e. in
    # Support order or unconscious, makes it 0)".
    if order == "support" or unconscious:
        modifiers.append(Modifier("static_target", tables.static_target_base_db))
    else:
        handled_as = weapon.talent
        for slug in traits:
            handled_as = catalogue.veteran_trait(slug).weapon_handled_as.get(handled_as, handled_as)
        expertise = talents.get(handled_as, 0)
        modifiers.append(
            Modifier(f"expertise:{handled_as}", tables.base_db_by_expertise[expertise])
        )
    # "+ specialisations": each talent used for this shot, at the attacker's level.
    power_bonus = Dice()
    for slug in used:
        level = catalogue.talent(slug).level(talents[slug])
        if level.db_modifier:
            modifiers.append(Modifier(f"talent:{slug}", level.db_modifier))
        if level.power_bonus:
            power_bonus = parse(level.power_bonus)
    # "+ equipment": the weapon's mode, the shooter's gear, anything else typed in.
    if mode is not None:
        modifiers.append(Modifier(f"mode:{mode}", weapon.db_modifier_by_mode[mode]))
    if armour_slug is not None:
        gear = catalogue.armour(armour_slug).shooting_db_modifier
        if gear:
            modifiers.append(Modifier(f"equipment:{armour_slug}", gear))
    if equipment_db:
        modifiers.append(Modifier("equipment", equipment_db))
    # "+ the target's protection against the weapon type".
    if target_armour is not None:
        protection = catalogue.armour(target_armour).protection[weapon.damage_type]
        if protection:
            modifiers.append(Modifier(f"protection:{target_armour}", protection))
    if extra_protection:
        modifiers.append(Modifier("protection", extra_protection))
    # "+ range band (point blank -3, short -1, effective 0, long +1, extreme +3)".
    modifiers.append(Modifier(f"range:{band}", tables.range_band_modifiers[band]))
    moving = movement_modifier(catalogue, moved, closing_in)
    if moving:
        modifiers.append(Modifier("target_movement", moving))
    kind, cover = cover_modifier(
        catalogue, cover_type, order, against, band, target_talents, target_traits
    )
    possible = cover != UNTOUCHABLE
    if kind and possible and cover:
        modifiers.append(Modifier(f"cover:{kind}", int(cover)))
    # "+ 1 per figure beyond the first when shooting into a melee".
    if melee_figures >= 2:
        modifiers.append(
            Modifier("melee", (melee_figures - 1) * tables.melee_extra_figure_modifier)
        )
    divisor, death_modifier = metabolism(catalogue, target_talents)
    _own_divisor, own_death_modifier = metabolism(catalogue, talents)
    attack = Attack(
        table="ranged",
        modifiers=tuple(modifiers),
        test=test_setup(sum(m.db for m in modifiers), rank, sante, catalogue),
        power=weapon.power_at(band),
        power_bonus=power_bonus,
        power_divisor=divisor,
        affiliation=affiliation,
        attacker_sante=sante,
        target_sante=target_sante,
        target_death_modifier=death_modifier,
        attacker_death_modifier=own_death_modifier,
        into_melee=melee_figures >= 2,
        stray_rows=k18.stray_rows(target_alone, catalogue) if melee_figures >= 2 else (),
        stray_ally_sante=ally_sante,
        stray_ally_death_modifier=ally_death_modifier,
    )
    return Shot(
        weapon=weapon.slug,
        band=band,
        attack=attack,
        possible=possible,
        catalogue=catalogue,
        why_impossible=None if possible else f"cover:{kind}",
        target_alone=target_alone,
    )


def metabolism(catalogue: Catalogue, talents: Mapping[str, int]) -> tuple[int, int]:
    """K7 and K8: inhuman metabolism divides the rolled power against its holder (1 when
    none) and lowers the holder's death-roll threshold, whether the holder is the target or
    an attacker whose own incident calls for a death roll."""
    level = talents.get(METABOLISM)
    if level is None:
        return 1, 0
    numbers = catalogue.talent(METABOLISM).level(level)
    return numbers.power_divisor or 1, numbers.death_threshold_modifier or 0


def describe(shot: Shot) -> dict[str, Any]:
    return {
        "weapon": shot.weapon,
        "band": shot.band,
        "possible": shot.possible,
        "why_impossible": shot.why_impossible,
        **attack_description(shot.attack),
    }


def _walk(
    data: Mapping[str, Any], source: DiceSource, catalogue: Catalogue | None
) -> dict[str, Any]:
    """A shot and everything after it (K4-K9, K11), with dice typed in (`evaluate`: names
    the next roll if one is missing) or rolled (`roll`)."""
    return _resolve(setup(data, catalogue), source)


def _resolve(shot: Shot, source: DiceSource) -> dict[str, Any]:
    out = describe(shot)
    if shot.possible:
        resolve(shot.attack, source, out, shot.catalogue)
    else:
        out["row"] = None
    used = dict(source.used)
    out["dice"] = used.pop("dice", [])
    out["follow_up"] = used
    return out


evaluate, roll = verbs(_walk)


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    """Exact odds of every row of the ranged damage table and of the target's death."""
    shot = setup(data, catalogue)
    if not shot.possible:
        return {**describe(shot), "rows": {}, "rows_exact": {}, "target_dies": 0.0}
    result = attack_odds(shot.attack, shot.catalogue)
    out = {**describe(shot), **odds_json(result)}
    if shot.attack.into_melee and not shot.target_alone:
        # Tir dans une mêlée 2-3 and 6: a stray shot reaches one of the target's allies
        # (`k18.target_side_stray`), whom its player chooses after the roll.
        rules = k18.load_table_rules()
        out["stray_target_side_exact"] = c.exact(
            result.follow_up.get(f"stray:{rules.target_stray_effect}", Fraction(0))
        )
    return out
