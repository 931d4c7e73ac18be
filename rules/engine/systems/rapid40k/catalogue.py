"""The Rapid 40000 catalogue: base profiles, weapons, special rules, vehicles, the annex's
army profiles, the army structure and the combat numbers.

Why a data file (`catalogues/<version>.json`) and not Python: the rule text
(`shared/seeds/002_1a930dd7fe550b68.txt`, read through `shared/RULES-NOTES.md` R1-R2) is a
2011 draft with copy errors; a table of numbers is easier to review against it, to diff and
to version. An army list records the version it was priced with and keeps it.

Why it is validated when loaded: a data file has no compiler. The loader refuses unknown
and missing fields, wrong types, duplicate slugs and dangling references (an army profile's
weapon, a vehicle's rule), raising one `CatalogueError` that names the entry and the field,
so a typo fails at start-up and in the tests rather than in a player's list.

Pure Python: no Django; the only I/O is reading the JSON file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from rules.engine.systems.catalogue_file import load_version, read_json
from rules.engine.systems.setting import Setting, read_settings

CATALOGUES_DIR: Final = Path(__file__).with_name("catalogues")
SYSTEM: Final = "rapid40k"
WEAPON_KINDS: Final = frozenset({"standard", "flame_template", "blast_template"})
# The combat effects a special rule may carry (RULES-NOTES R2 and each rule's paragraph).
RULE_EFFECTS: Final = frozenset(
    {
        "ignores_loss_by",
        "aimed_shot_bonus",
        "morale_quality_bonus",
        "charge_melee_bonus",
        "melee_bonus_against_not_fort",
        "morale_free_success",
        "melee_bonus",
    }
)
_SLUG = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")


class CatalogueError(ValueError):
    """The catalogue is malformed, or an entry asked of it does not exist."""


@dataclass(frozen=True)
class Formula:
    combat_factor: int
    quality_base: int
    divisor: int


@dataclass(frozen=True)
class BaseProfile:
    slug: str
    label: str
    quality: int
    combat: int


@dataclass(frozen=True)
class Weapon:
    slug: str
    label: str
    kind: str
    range: int | None
    combat_bonus: int
    cost: int
    special: bool
    equivalent_of: str | None


@dataclass(frozen=True)
class SpecialRule:
    slug: str
    label: str
    cost: int
    effects: Mapping[str, int]

    def effect(self, name: str) -> int:
        return self.effects.get(name, 0)


@dataclass(frozen=True)
class Profile:
    """A figure's profile: Quality (the "3+" read as 3), Combat, a weapon, special rules."""

    quality: int
    combat: int
    weapon: str
    special_rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class PrintedProfile:
    slug: str
    label: str
    profile: Profile
    printed_cost: int
    erratum: str | None


@dataclass(frozen=True)
class Vehicle:
    slug: str
    label: str
    quality: int
    combat: int
    weapons: tuple[str, ...]
    special_rules: tuple[str, ...]
    printed_cost: int


@dataclass(frozen=True)
class Army:
    slug: str
    label: str
    profiles: Mapping[str, PrintedProfile]


@dataclass(frozen=True)
class Slot:
    slug: str
    label: str
    min: int


@dataclass(frozen=True)
class Structure:
    slots: Mapping[str, Slot]
    fighters_min: int
    fighters_max: int
    special_weapons_per_squad: int


@dataclass(frozen=True)
class CombatNumbers:
    quality_roll_dice: int
    aimed_bonus: int
    power_attack_bonus: int
    overwatch_target_malus: int
    deviation_failures: int
    deviated_range: int
    disengage_successes: int
    morale_outcomes: tuple[str, ...]
    vehicle_immobilised_margin: int
    explosive_charge_successes: int


# Compared and hashed by identity: each shipped version is read once.
@dataclass(frozen=True, eq=False)
class Catalogue:
    version: str
    formula: Formula
    quality_range: tuple[int, int]
    combat_range: tuple[int, int]
    base_profiles: Mapping[str, BaseProfile]
    weapons: Mapping[str, Weapon]
    special_rules: Mapping[str, SpecialRule]
    vehicles: Mapping[str, Vehicle]
    armies: Mapping[str, Army]
    structure: Structure
    combat: CombatNumbers
    # What the text leaves to the players, a campaign's choice (reading C1).
    settings: Mapping[str, Setting] = field(default_factory=lambda: MappingProxyType({}))

    def weapon(self, slug: str) -> Weapon:
        try:
            return self.weapons[slug]
        except KeyError:
            raise CatalogueError(f"no weapon {slug!r} in the Rapid 40000 catalogue") from None


# --- Reading, field by field ----------------------------------------------------------------


def _fields(
    raw: Any, where: str, required: set[str], optional: frozenset[str] | set[str] = frozenset()
) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise CatalogueError(f"{where}: an object is expected")
    missing = required - raw.keys()
    if missing:
        raise CatalogueError(f"{where}: missing field {sorted(missing)[0]!r}")
    unknown = raw.keys() - required - optional
    if unknown:
        raise CatalogueError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    return raw


def _int(raw: dict[str, Any], key: str, where: str, lo: int = 0, hi: int = 1000) -> int:
    value = raw[key]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise CatalogueError(f"{where}.{key}: a whole number from {lo} to {hi}")
    number: int = value
    return number


def _str(raw: dict[str, Any], key: str, where: str) -> str:
    value = raw[key]
    if not isinstance(value, str) or not value:
        raise CatalogueError(f"{where}.{key}: a non-empty string")
    return value


def _slug(raw: dict[str, Any], where: str) -> str:
    slug = _str(raw, "slug", where)
    if not _SLUG.fullmatch(slug):
        raise CatalogueError(f"{where}.slug: {slug!r} is lower case words joined by _")
    return slug


def _list(raw: dict[str, Any], key: str, where: str) -> list[Any]:
    value = raw[key]
    if not isinstance(value, list):
        raise CatalogueError(f"{where}.{key}: a list is expected")
    return value


def _slugs(
    raw: dict[str, Any], key: str, where: str, known: Mapping[str, object]
) -> tuple[str, ...]:
    out = []
    for item in _list(raw, key, where):
        if item not in known:
            raise CatalogueError(
                f"{where}.{key}: unknown {key[:-1] if key.endswith('s') else key} {item!r}"
            )
        out.append(str(item))
    return tuple(out)


def _by_slug(items: list[Any], where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        if item.slug in out:
            raise CatalogueError(f"{where}: {item.slug!r} appears twice")
        out[item.slug] = item
    return out


def _read_weapon(raw: Any, where: str) -> Weapon:
    raw = _fields(
        raw,
        where,
        {"slug", "label", "kind", "range", "combat_bonus", "cost", "special", "ref"},
        {"equivalent_of"},
    )
    kind = _str(raw, "kind", where)
    if kind not in WEAPON_KINDS:
        raise CatalogueError(f"{where}.kind: one of {', '.join(sorted(WEAPON_KINDS))}")
    reach = raw["range"]
    if reach is not None:
        reach = _int(raw, "range", where, 1, 100)
    if not isinstance(raw["special"], bool):
        raise CatalogueError(f"{where}.special: true or false")
    return Weapon(
        slug=_slug(raw, where),
        label=_str(raw, "label", where),
        kind=kind,
        range=reach,
        combat_bonus=_int(raw, "combat_bonus", where, 0, 10),
        cost=_int(raw, "cost", where),
        special=raw["special"],
        equivalent_of=raw.get("equivalent_of"),
    )


def _read_rule(raw: Any, where: str) -> SpecialRule:
    raw = _fields(raw, where, {"slug", "label", "cost", "ref"}, set(RULE_EFFECTS))
    effects = {name: _int(raw, name, where, 1, 6) for name in RULE_EFFECTS if name in raw}
    return SpecialRule(
        slug=_slug(raw, where),
        label=_str(raw, "label", where),
        cost=_int(raw, "cost", where),
        effects=MappingProxyType(effects),
    )


def _read(raw: Any) -> Catalogue:
    top = _fields(
        raw,
        "catalogue",
        {
            "system",
            "version",
            "source",
            "formula",
            "limits",
            "base_profiles",
            "weapons",
            "special_rules",
            "vehicles",
            "armies",
            "structure",
            "combat",
            "settings",
        },
    )
    if top["system"] != SYSTEM:
        raise CatalogueError(f"catalogue.system: {SYSTEM!r} expected")
    formula_raw = _fields(
        top["formula"], "formula", {"combat_factor", "quality_base", "divisor", "rounding", "ref"}
    )
    if formula_raw["rounding"] != "up":
        raise CatalogueError("formula.rounding: only 'up' is read (R1 rounds up)")
    formula = Formula(
        combat_factor=_int(formula_raw, "combat_factor", "formula", 1, 100),
        quality_base=_int(formula_raw, "quality_base", "formula", 1, 20),
        divisor=_int(formula_raw, "divisor", "formula", 1, 100),
    )
    limits = _fields(top["limits"], "limits", {"quality", "combat", "ref"})
    bounds = {}
    for key in ("quality", "combat"):
        pair = _fields(limits[key], f"limits.{key}", {"min", "max"})
        lo, hi = (
            _int(pair, "min", f"limits.{key}", 0, 20),
            _int(pair, "max", f"limits.{key}", 0, 20),
        )
        if lo > hi:
            raise CatalogueError(f"limits.{key}: min above max")
        bounds[key] = (lo, hi)
    if bounds["quality"][1] >= formula.quality_base:
        raise CatalogueError(
            "limits.quality.max: below formula.quality_base, or a cost is not positive"
        )

    def profile_numbers(entry: dict[str, Any], where: str) -> tuple[int, int]:
        return (
            _int(entry, "quality", where, *bounds["quality"]),
            _int(entry, "combat", where, *bounds["combat"]),
        )

    base_profiles = []
    for i, item in enumerate(_list(top, "base_profiles", "catalogue")):
        where = f"base_profiles[{i}]"
        entry = _fields(item, where, {"slug", "label", "quality", "combat", "ref"})
        quality, combat = profile_numbers(entry, where)
        base_profiles.append(
            BaseProfile(_slug(entry, where), _str(entry, "label", where), quality, combat)
        )
    weapons = _by_slug(
        [
            _read_weapon(w, f"weapons[{i}]")
            for i, w in enumerate(_list(top, "weapons", "catalogue"))
        ],
        "weapons",
    )
    for weapon in weapons.values():
        if weapon.equivalent_of is not None and weapon.equivalent_of not in weapons:
            raise CatalogueError(f"weapons {weapon.slug!r}.equivalent_of: unknown weapon")
    rules = _by_slug(
        [
            _read_rule(r, f"special_rules[{i}]")
            for i, r in enumerate(_list(top, "special_rules", "catalogue"))
        ],
        "special_rules",
    )
    vehicles = []
    for i, item in enumerate(_list(top, "vehicles", "catalogue")):
        where = f"vehicles[{i}]"
        entry = _fields(
            item,
            where,
            {
                "slug",
                "label",
                "quality",
                "combat",
                "weapons",
                "special_rules",
                "printed_cost",
                "ref",
            },
        )
        quality, combat = profile_numbers(entry, where)
        vehicles.append(
            Vehicle(
                slug=_slug(entry, where),
                label=_str(entry, "label", where),
                quality=quality,
                combat=combat,
                weapons=_slugs(entry, "weapons", where, weapons),
                special_rules=_slugs(entry, "special_rules", where, rules),
                printed_cost=_int(entry, "printed_cost", where, 1, 10000),
            )
        )
    armies = []
    for i, item in enumerate(_list(top, "armies", "catalogue")):
        where = f"armies[{i}]"
        entry = _fields(item, where, {"slug", "label", "profiles", "ref"})
        printed = []
        for j, row in enumerate(_list(entry, "profiles", where)):
            row_where = f"{where}.profiles[{j}]"
            row = _fields(
                row,
                row_where,
                {"slug", "label", "quality", "combat", "weapon", "special_rules", "printed_cost"},
                {"erratum"},
            )
            quality, combat = profile_numbers(row, row_where)
            if row["weapon"] not in weapons:
                raise CatalogueError(f"{row_where}.weapon: unknown weapon {row['weapon']!r}")
            printed.append(
                PrintedProfile(
                    slug=_slug(row, row_where),
                    label=_str(row, "label", row_where),
                    profile=Profile(
                        quality,
                        combat,
                        row["weapon"],
                        _slugs(row, "special_rules", row_where, rules),
                    ),
                    printed_cost=_int(row, "printed_cost", row_where, 1, 10000),
                    erratum=row.get("erratum"),
                )
            )
        armies.append(
            Army(
                _slug(entry, where),
                _str(entry, "label", where),
                MappingProxyType(_by_slug(printed, where)),
            )
        )
    structure_raw = _fields(
        top["structure"],
        "structure",
        {"slots", "fighters_per_squad", "special_weapons_per_squad", "ref"},
    )
    slots = []
    for i, item in enumerate(_list(structure_raw, "slots", "structure")):
        where = f"structure.slots[{i}]"
        entry = _fields(item, where, {"slug", "label", "min", "ref"})
        slots.append(
            Slot(_slug(entry, where), _str(entry, "label", where), _int(entry, "min", where, 0, 10))
        )
    fighters = _fields(
        structure_raw["fighters_per_squad"], "structure.fighters_per_squad", {"min", "max"}
    )
    structure = Structure(
        slots=MappingProxyType(_by_slug(slots, "structure.slots")),
        fighters_min=_int(fighters, "min", "structure.fighters_per_squad", 0, 50),
        fighters_max=_int(fighters, "max", "structure.fighters_per_squad", 1, 50),
        special_weapons_per_squad=_int(
            structure_raw, "special_weapons_per_squad", "structure", 0, 10
        ),
    )
    combat_keys = set(CombatNumbers.__dataclass_fields__)
    combat_raw = _fields(top["combat"], "combat", combat_keys | {"ref"})
    outcomes = _list(combat_raw, "morale_outcomes", "combat")
    if len(outcomes) != _int(combat_raw, "quality_roll_dice", "combat", 1, 6) + 1:
        raise CatalogueError("combat.morale_outcomes: one per number of failures, 0 to the dice")
    numbers = CombatNumbers(
        **{
            key: _int(combat_raw, key, "combat", 0, 100)
            for key in combat_keys - {"morale_outcomes"}
        },
        morale_outcomes=tuple(str(o) for o in outcomes),
    )
    return Catalogue(
        version=_str(top, "version", "catalogue"),
        formula=formula,
        quality_range=bounds["quality"],
        combat_range=bounds["combat"],
        base_profiles=MappingProxyType(_by_slug(base_profiles, "base_profiles")),
        weapons=MappingProxyType(weapons),
        special_rules=MappingProxyType(rules),
        vehicles=MappingProxyType(_by_slug(vehicles, "vehicles")),
        armies=MappingProxyType(_by_slug(armies, "armies")),
        structure=structure,
        combat=numbers,
        settings=MappingProxyType(read_settings(raw.get("settings", {}), CatalogueError)),
    )


@cache
def catalogue_versions() -> tuple[str, ...]:
    """The versions shipped, oldest first; the last is the current catalogue (read once:
    the files ship with the code)."""
    versions = (path.stem for path in CATALOGUES_DIR.glob("*.json"))
    return tuple(sorted(versions, key=lambda v: tuple(int(n) for n in v.split("."))))


def current_version() -> str:
    return catalogue_versions()[-1]


def load_catalogue(version: str | None = None, *, path: Path | None = None) -> Catalogue:
    """Load and validate a catalogue: `version` (the current one when None), each shipped
    version read once; `path` loads another file (a test's broken copy) uncached."""
    if path is not None:
        return _load(path)
    wanted = current_version() if version is None else version
    if wanted not in catalogue_versions():
        raise CatalogueError(f"no Rapid 40000 catalogue {wanted!r}")
    return _packaged(wanted)


@cache
def _packaged(version: str) -> Catalogue:
    return load_version(CATALOGUES_DIR, version, _load, CatalogueError)


def _load(path: Path) -> Catalogue:
    return _read(read_json(path, CatalogueError))
