"""Reading the KOLAPS catalogue file into its records (`read_catalogue`), then checking
every reference from one entry to another (`broken_references`). Pure Python."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from rules.engine.dice import BANDS
from rules.engine.systems.kolaps.catalogue_fields import Fields, frozen, section
from rules.engine.systems.kolaps.catalogue_records import (
    ATTACK_EFFECTS,
    INTERVENTION_AUTOMATIC,
    INTERVENTION_IMPOSSIBLE,
    LEVEL_DICE,
    LEVEL_INTEGERS,
    LEVEL_LENGTHS,
    ROLL_OUTCOMES,
    TALENT_KINDS,
    TALENT_TYPES,
    UNLIMITED,
    WEAPON_KINDS,
    Affiliation,
    Archetype,
    Armour,
    Band,
    Catalogue,
    CatalogueError,
    Cost,
    DamageType,
    MentionedOnly,
    Prerequisite,
    Rank,
    Requirement,
    Talent,
    TalentLevel,
    VeteranTrait,
    Weapon,
    parse_dice,
)
from rules.engine.systems.kolaps.catalogue_tables import (
    AFFILIATION,
    ARCHETYPE,
    DAMAGE_TYPE,
    MENTIONED,
    RANK,
    read_tables,
)


def read_catalogue(raw: object) -> Catalogue:
    root = Fields(raw, "catalogue")
    system = root.text("system")
    if system != "kolaps":
        raise root.error("system", f"expected 'kolaps', got {system!r}")
    catalogue = Catalogue(
        system=system,
        version=_read_version(root),
        source=root.text("source"),
        damage_types=section(root, "damage_types", "damage type", _read_damage_type),
        ranks=section(root, "ranks", "rank", _read_rank),
        affiliations=section(root, "affiliations", "affiliation", _read_affiliation),
        archetypes=section(root, "archetypes", "archetype", _read_archetype),
        talents=section(root, "talents", "talent", _read_talent),
        mentioned_only=section(root, "mentioned_only", "mentioned-only name", _read_mentioned),
        weapons=section(root, "weapons", "weapon", _read_weapon),
        armours=section(root, "armours", "armour", _read_armour),
        veteran_traits=section(root, "veteran_traits", "veteran trait", _read_veteran_trait),
        tables=read_tables(root.obj("tables")),
    )
    root.close()
    return catalogue


def _read_version(root: Fields) -> str:
    version = root.text("version")
    if not re.fullmatch(r"\d{4}\.\d+\.\d+", version):
        raise root.error("version", f"{version!r} is not a version like '2026.11.1'")
    return version


def _read_damage_type(fields: Fields, slug: str) -> DamageType:
    return DamageType(slug=slug, **fields.read(DAMAGE_TYPE))


def _read_rank(fields: Fields, slug: str) -> Rank:
    rank = Rank(slug=slug, **fields.read(RANK))
    if not 2 <= rank.success_threshold <= 6:
        raise fields.error("success_threshold", "a D6 threshold is between 2 and 6")
    return rank


def _read_affiliation(fields: Fields, slug: str) -> Affiliation:
    return Affiliation(slug=slug, **fields.read(AFFILIATION))


def _read_archetype(fields: Fields, slug: str) -> Archetype:
    archetype = Archetype(slug=slug, **fields.read(ARCHETYPE))
    if not archetype.ranks:
        raise fields.error("ranks", "an archetype allows at least one rank")
    return archetype


def _read_talent(fields: Fields, slug: str) -> Talent:
    types = fields.slugs("types")
    for talent_type in types:
        if talent_type not in TALENT_TYPES:
            raise fields.error("types", f"{talent_type!r} is not one of {sorted(TALENT_TYPES)}")
    levels = tuple(
        _read_level(raw, slug, index) for index, raw in enumerate(fields.items("levels"))
    )
    numbers = [level.level for level in levels]
    if not levels or numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        raise fields.error("levels", f"levels must be consecutive and ascending, got {numbers}")
    return Talent(
        slug=slug,
        label=fields.text("label"),
        kind=fields.one_of("kind", TALENT_KINDS),
        types=types,
        affiliation=fields.nullable_slug("affiliation"),
        specialises=fields.slugs("specialises"),
        levels=levels,
        summary=fields.text("summary"),
        ref=fields.text("ref"),
        uncertain=fields.optional_text("uncertain"),
    )


def _read_level(raw: object, talent: str, index: int) -> TalentLevel:
    fields = Fields(raw, f"talent {talent!r} level #{index + 1}")
    number = fields.integer("level")
    if not 0 <= number <= 3:
        raise fields.error("level", f"an expertise level is 0 to 3, got {number}")
    fields.where = f"talent {talent!r} level {number}"
    numbers: dict[str, Any] = {}
    for key in LEVEL_INTEGERS:
        if fields.has(key):
            numbers[key] = fields.integer(key)
    for key in LEVEL_LENGTHS:
        if fields.has(key):
            numbers[key] = fields.length(key)
    for key in LEVEL_DICE:
        if fields.has(key):
            numbers[key] = fields.dice(key)
    if fields.has("intervention_dice"):
        numbers["intervention_dice"] = _read_intervention_dice(fields)
    if fields.has("dice_by_target_sante"):
        numbers["dice_by_target_sante"] = _read_dice_by_sante(fields)
    if fields.has("groups"):
        groups = fields.value("groups")
        if groups != UNLIMITED and (isinstance(groups, bool) or not isinstance(groups, int)):
            raise fields.error("groups", f"expected an integer or {UNLIMITED!r}, got {groups!r}")
        numbers["groups"] = groups
    if fields.has("weapon"):
        numbers["weapon"] = fields.slug("weapon")
    level = TalentLevel(
        level=number,
        cost=fields.cost("cost"),
        prerequisite=_read_prerequisite(fields),
        **numbers,
    )
    fields.close()
    return level


def _read_prerequisite(fields: Fields) -> Prerequisite | None:
    if fields.value("prerequisite") is None:
        return None
    prerequisite = fields.obj("prerequisite")
    requirements: list[Requirement] = []
    for index, raw in enumerate(prerequisite.items("any_of")):
        requirement = Fields(raw, f"{prerequisite.where}, requirement {index + 1}")
        requirements.append(
            Requirement(talent=requirement.slug("talent"), level=requirement.integer("level"))
        )
        requirement.close()
    prerequisite.close()
    if not requirements:
        raise fields.error("prerequisite", "any_of lists no requirement (use null for none)")
    return Prerequisite(any_of=tuple(requirements))


def _read_intervention_dice(fields: Fields) -> Mapping[str, Mapping[str, str]]:
    table: dict[str, Mapping[str, str]] = {}
    for row, cells in fields.mapping("intervention_dice").items():
        if not isinstance(cells, dict):
            raise fields.error("intervention_dice", f"row {row!r} is not an object")
        parsed: dict[str, str] = {}
        for column, cell in cells.items():
            if not isinstance(cell, str):
                raise fields.error("intervention_dice", f"{row}/{column}: {cell!r} is not text")
            if cell not in (INTERVENTION_AUTOMATIC, INTERVENTION_IMPOSSIBLE):
                try:
                    parse_dice(cell)
                except CatalogueError as exc:
                    raise fields.error("intervention_dice", f"{row}/{column}: {exc}") from None
            parsed[column] = cell
        table[row] = frozen(parsed)
    return frozen(table)


def _read_dice_by_sante(fields: Fields) -> Mapping[int, str]:
    table: dict[int, str] = {}
    for sante, dice in fields.int_keyed("dice_by_target_sante").items():
        if not isinstance(dice, str):
            raise fields.error("dice_by_target_sante", f"Santé {sante}: {dice!r} is not text")
        try:
            parse_dice(dice)
        except CatalogueError as exc:
            raise fields.error("dice_by_target_sante", f"Santé {sante}: {exc}") from None
        table[sante] = dice
    if sorted(table) != list(range(1, 7)):
        raise fields.error("dice_by_target_sante", "needs one row per Santé from 1 to 6")
    return frozen(table)


def _read_mentioned(fields: Fields, slug: str) -> MentionedOnly:
    return MentionedOnly(slug=slug, **fields.read(MENTIONED))


def _read_weapon(fields: Fields, slug: str) -> Weapon:
    kind = fields.one_of("kind", WEAPON_KINDS)
    power = fields.power("power")
    range_cm = _read_range(fields) if fields.value("range_cm") is not None else None
    if (kind == "ranged") != (range_cm is not None):
        raise fields.error("range_cm", "a ranged weapon has range bands and a melee one none")
    if kind == "melee" and "/" in power:
        raise fields.error("power", "a melee weapon has one power, not one per range band")
    modes: dict[str, int] = {}
    if fields.has("db_modifier_by_mode"):
        for mode, modifier in fields.mapping("db_modifier_by_mode").items():
            if isinstance(modifier, bool) or not isinstance(modifier, int):
                raise fields.error("db_modifier_by_mode", f"{mode!r}: expected an integer")
            modes[mode] = modifier
    return Weapon(
        slug=slug,
        label=fields.text("label"),
        kind=kind,
        damage_type=fields.slug("damage_type"),
        talent=fields.slug("talent"),
        range_cm=range_cm,
        power=power,
        specials=tuple(_strings(fields, "specials")),
        db_modifier_by_mode=frozen(modes),
        value=fields.nullable_cost("value"),
        ref=fields.text("ref"),
        uncertain=fields.optional_text("uncertain"),
    )


def _read_range(fields: Fields) -> Mapping[str, Band | None]:
    raw = fields.mapping("range_cm")
    if list(raw) != list(BANDS):
        raise fields.error(
            "range_cm", f"expected the bands {list(BANDS)} in order, got {list(raw)}"
        )
    bands: dict[str, Band | None] = {}
    previous_start = -1.0
    for name, value in raw.items():
        if value is None:  # "NA": the weapon cannot reach that band
            bands[name] = None
            continue
        if (
            not isinstance(value, list)
            or len(value) != 2
            or any(isinstance(limit, bool) for limit in value)
            or not isinstance(value[0], int | float)
            or not (value[1] is None or isinstance(value[1], int | float))
        ):
            raise fields.error("range_cm", f"{name}: expected [min, max] in cm, got {value!r}")
        band = Band(min_cm=float(value[0]), max_cm=None if value[1] is None else float(value[1]))
        if band.min_cm < previous_start or (band.max_cm is not None and band.max_cm <= band.min_cm):
            raise fields.error("range_cm", f"{name}: {value!r} does not follow the bands before it")
        previous_start = band.min_cm
        bands[name] = band
    return frozen(bands)


def _strings(fields: Fields, key: str) -> list[str]:
    values = fields.items(key)
    for value in values:
        if not isinstance(value, str) or not value:
            raise fields.error(key, f"{value!r} is not a non-empty string")
    return [str(value) for value in values]


def _read_armour(fields: Fields, slug: str) -> Armour:
    protection: dict[str, int] = {}
    for damage_type, amount in fields.mapping("protection").items():
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise fields.error("protection", f"{damage_type!r}: expected a DB bonus >= 0")
        protection[damage_type] = amount
    return Armour(
        slug=slug,
        label=fields.text("label"),
        protection=frozen(protection),
        specials=tuple(_strings(fields, "specials")),
        shooting_db_modifier=fields.nullable_integer("shooting_db_modifier"),
        weapon=fields.nullable_slug("weapon"),
        value=fields.nullable_cost("value"),
        ref=fields.text("ref"),
        uncertain=fields.optional_text("uncertain"),
    )


def _read_veteran_trait(fields: Fields, slug: str) -> VeteranTrait:
    raw_ignored = fields.items("ignored_cover_types")
    ignored = [t for t in raw_ignored if isinstance(t, int) and not isinstance(t, bool)]
    if len(ignored) != len(raw_ignored):
        raise fields.error("ignored_cover_types", "expected a list of cover types (1-4)")
    cover_as: dict[int, int] = {}
    for cover_type, counted_as in fields.int_keyed("cover_type_as").items():
        if isinstance(counted_as, bool) or not isinstance(counted_as, int):
            raise fields.error("cover_type_as", f"type {cover_type}: expected a cover type")
        cover_as[cover_type] = counted_as
    handled_as: dict[str, str] = {}
    for weapon_class, counted_as_class in fields.mapping("weapon_handled_as").items():
        if not isinstance(counted_as_class, str):
            raise fields.error("weapon_handled_as", f"{weapon_class!r}: expected a weapon class")
        handled_as[weapon_class] = counted_as_class
    return VeteranTrait(
        slug=slug,
        label=fields.text("label"),
        affiliation=fields.slug("affiliation"),
        summary=fields.text("summary"),
        ignored_cover_types=tuple(ignored),
        cover_type_as=frozen(cover_as),
        melee_db_modifier=fields.nullable_integer("melee_db_modifier"),
        weapon_handled_as=frozen(handled_as),
        value=fields.nullable_cost("value"),
        ref=fields.text("ref"),
        uncertain=fields.optional_text("uncertain"),
    )


# --- Cross-references ---------------------------------------------------------------------


def broken_references(catalogue: Catalogue) -> Iterator[str]:
    """Every reference from one entry to another that does not hold, as a sentence."""
    yield from _check_ranks(catalogue)
    yield from _check_affiliations(catalogue)
    yield from _check_archetypes(catalogue)
    yield from _check_talents(catalogue)
    yield from _check_equipment(catalogue)
    yield from _check_tables(catalogue)
    for slug in catalogue.mentioned_only:
        if slug in catalogue.talents:
            yield f"mentioned-only name {slug!r}, field 'slug': it is also a talent"


def _check_ranks(catalogue: Catalogue) -> Iterator[str]:
    numbers = [rank.number for rank in catalogue.ranks.values()]
    if numbers != list(range(1, len(numbers) + 1)):
        yield f"ranks, field 'number': expected 1, 2, ... in order, got {numbers}"


def _check_affiliations(catalogue: Catalogue) -> Iterator[str]:
    for affiliation in catalogue.affiliations.values():
        where = f"affiliation {affiliation.slug!r}"
        if affiliation.named_only and (affiliation.archetypes or affiliation.effect_666):
            yield f"{where}, field 'named_only': a named-only affiliation has no archetypes or 666"
        if not affiliation.named_only and not affiliation.effect_666:
            yield f"{where}, field 'effect_666': missing (K5: every affiliation has a 666 effect)"
        for slug in affiliation.archetypes:
            archetype = catalogue.archetypes.get(slug)
            if archetype is None:
                yield f"{where}, field 'archetypes': unknown archetype {slug!r}"
            elif archetype.affiliation != affiliation.slug:
                yield f"{where}, field 'archetypes': {slug!r} belongs to {archetype.affiliation!r}"


def _check_archetypes(catalogue: Catalogue) -> Iterator[str]:
    for archetype in catalogue.archetypes.values():
        where = f"archetype {archetype.slug!r}"
        affiliation = catalogue.affiliations.get(archetype.affiliation)
        if affiliation is None:
            yield f"{where}, field 'affiliation': unknown affiliation {archetype.affiliation!r}"
        elif archetype.slug not in affiliation.archetypes:
            yield f"{where}, field 'affiliation': not listed by {affiliation.slug!r}"
        for rank in archetype.ranks:
            if rank not in catalogue.ranks:
                yield f"{where}, field 'ranks': unknown rank {rank!r}"
        for slug in archetype.talent_slugs:
            talent = catalogue.talents.get(slug)
            if talent is None:
                yield f"{where}, field 'talents': unknown talent {slug!r}"
            elif talent.kind != "talent":
                yield f"{where}, field 'talents': {slug!r} is a {talent.kind}, not a base talent"
            elif talent.affiliation not in (None, archetype.affiliation):
                yield f"{where}, field 'talents': {slug!r} belongs to {talent.affiliation!r}"
        for slug in archetype.equipment_slugs:
            if slug not in catalogue.weapons and slug not in catalogue.armours:
                yield f"{where}, field 'equipment': unknown weapon or armour {slug!r}"
        for slug in archetype.options:
            option = catalogue.talents.get(slug)
            if option is None or option.kind != "option":
                yield f"{where}, field 'options': {slug!r} is not an option talent"


def _check_talents(catalogue: Catalogue) -> Iterator[str]:
    for talent in catalogue.talents.values():
        where = f"talent {talent.slug!r}"
        if talent.affiliation is not None and talent.affiliation not in catalogue.affiliations:
            yield f"{where}, field 'affiliation': unknown affiliation {talent.affiliation!r}"
        for slug in talent.specialises:
            if slug not in catalogue.talents:
                yield f"{where}, field 'specialises': unknown talent {slug!r}"
        if talent.kind == "specialisation" and not talent.specialises:
            yield f"{where}, field 'specialises': a specialisation names the talent it refines"
        if talent.kind == "talent" and (
            talent.levels[0].level != 0 or talent.levels[0].cost != Cost()
        ):
            yield f"{where}, field 'levels': a base talent starts free at expertise 0 (K2)"
        if talent.kind == "specialisation" and talent.levels[0].prerequisite is None:
            yield f"{where}, field 'prerequisite': a specialisation requires a prerequisite (K2)"
        for level in talent.levels:
            yield from _check_level(catalogue, f"{where} level {level.level}", level)


def _check_level(catalogue: Catalogue, where: str, level: TalentLevel) -> Iterator[str]:
    for requirement in level.prerequisite.any_of if level.prerequisite else ():
        required = catalogue.talents.get(requirement.talent)
        if required is None:
            yield f"{where}, field 'prerequisite': unknown talent {requirement.talent!r}"
        elif requirement.level not in required.level_numbers:
            yield (
                f"{where}, field 'prerequisite': talent {requirement.talent!r} has no level "
                f"{requirement.level}"
            )
    if level.weapon is not None and level.weapon not in catalogue.weapons:
        yield f"{where}, field 'weapon': unknown weapon {level.weapon!r}"
    if level.intervention_dice is not None:
        ranks = set(catalogue.ranks)
        if set(level.intervention_dice) != ranks or any(
            set(row) != ranks for row in level.intervention_dice.values()
        ):
            yield f"{where}, field 'intervention_dice': rows and columns must be the ranks"


def _check_equipment(catalogue: Catalogue) -> Iterator[str]:
    damage_types = set(catalogue.damage_types)
    for weapon in catalogue.weapons.values():
        where = f"weapon {weapon.slug!r}"
        if weapon.damage_type not in damage_types:
            yield f"{where}, field 'damage_type': unknown damage type {weapon.damage_type!r}"
        if weapon.talent not in catalogue.talents:
            yield f"{where}, field 'talent': unknown talent {weapon.talent!r}"
    for armour in catalogue.armours.values():
        where = f"armour {armour.slug!r}"
        if set(armour.protection) != damage_types:
            yield f"{where}, field 'protection': needs one value per type {sorted(damage_types)}"
        if armour.weapon is not None and armour.weapon not in catalogue.weapons:
            yield f"{where}, field 'weapon': unknown weapon {armour.weapon!r}"
    for trait in catalogue.veteran_traits.values():
        if trait.affiliation not in catalogue.affiliations:
            yield (
                f"veteran trait {trait.slug!r}, field 'affiliation': "
                f"unknown affiliation {trait.affiliation!r}"
            )


def _check_follow_ups(catalogue: Catalogue) -> Iterator[str]:
    follow = catalogue.tables.follow_ups
    where = "tables.follow_ups"
    wounds = set(catalogue.tables.wounds.rows)
    if set(follow.major_incident) != {"ranged", "melee"}:
        yield f"{where}, field 'major_incident': needs the tables ranged and melee"
    if set(follow.wound_moral) != set(catalogue.ranks):
        yield f"{where}, field 'wound_moral': needs a row for each rank"
    if follow.next_attacker_min_rank not in catalogue.ranks:
        yield f"{where}, field 'next_attacker': unknown rank {follow.next_attacker_min_rank!r}"
    for affiliation in follow.six_six_six:
        if affiliation not in catalogue.affiliations:
            yield f"{where}, field 'six_six_six': unknown affiliation {affiliation!r}"
    for row, worse in follow.one_level_worse.items():
        if row not in wounds or worse not in wounds:
            yield f"{where}, field 'one_level_worse': {row!r} -> {worse!r} are not both wounds"


def _check_tables(catalogue: Catalogue) -> Iterator[str]:
    yield from _check_follow_ups(catalogue)
    tables = catalogue.tables
    wounds = set(tables.wounds.rows)
    for name, table in (("ranged", tables.ranged_damage), ("melee", tables.melee_damage)):
        where = f"tables.damage.{name}"
        if set(table.by_outcome) != ROLL_OUTCOMES:
            yield f"{where}, field 'by_outcome': needs {sorted(ROLL_OUTCOMES)}"
        for outcome, effect in table.by_outcome.items():
            if effect not in ATTACK_EFFECTS and effect not in wounds:
                yield f"{where}, field 'by_outcome': {outcome} gives unknown effect {effect!r}"
        for row in table.by_value:
            if row.wound not in wounds:
                yield f"{where}, field 'by_value': unknown wound {row.wound!r}"
    if set(tables.melee_opposition.rank_bonus) != set(catalogue.ranks):
        yield "tables.melee_opposition, field 'rank_bonus': needs one value per rank"
    if tables.effective_rank.floor not in catalogue.ranks:
        yield f"tables.effective_rank, field 'floor': unknown rank {tables.effective_rank.floor!r}"
    outcomes = tables.roll_outcomes
    for field, rank in (
        ("critical_success_min_rank", outcomes.critical_success_min_rank),
        ("critical_failure_max_rank", outcomes.critical_failure_max_rank),
        ("failure_with_one_max_rank", outcomes.failure_with_one_max_rank),
    ):
        if rank not in catalogue.ranks:
            yield f"tables.roll_outcomes, field '{field}': unknown rank {rank!r}"
