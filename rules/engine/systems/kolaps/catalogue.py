"""The KOLAPS : GROUND ZERO rules catalogue: ranks, archetypes, talents, equipment, tables.

Why the numbers live in a data file (`catalogues/<version>.json`) and not in Python: the rule text
(`shared/seeds/000_54d039a2b5ac2f23.txt`, read through `shared/RULES-NOTES.md` K1-K16) is a
draft that will change, and a table of numbers is easier to review against that text, to
diff and to version when it lives in one data file than when it is spread over `if`s. Each
entry carries a `ref` (the reading or section it comes from) and, where the extracted PDF is
too scrambled to be sure, an `uncertain` note saying what is unclear.

Why it is validated when loaded: a data file has no compiler. The loader reads every field
into frozen dataclasses with type checks, refuses unknown fields, parses every dice
expression with the K3 notation, and checks every cross-reference (archetype talents and
equipment, prerequisites, weapon profiles, table rows) before anything uses the catalogue.
A broken catalogue is refused with one `CatalogueError` naming the entry and the field, so
a typo fails at start-up and in the tests instead of in the middle of a player's turn.

Reading conventions (documented here because the data relies on them):

- A talent is one entry with its levels (expertise). "Fusil 2" is the talent `fusil` at
  level 2; "Tir instinctif 1" is the specialisation `tir-instinctif` at level 1.
- Each level carries its own cost and prerequisite. Levels are taken in order, so a level's
  price is the sum of the costs of the levels up to it. A base talent's level 0 costs
  nothing, and each level above 0 costs 1 PP (K2).
- A prerequisite is satisfied by any one of its `any_of` requirements ("Expertise fusil ou
  pistolet 1").
- An archetype's talents and equipment are lists of choice groups: each group is a list of
  alternatives, and a group with one alternative is always included.
- A same-named talent whose numbers differ between the two annexes is one entry per
  affiliation (K16): `charge-apc` and `charge-sheol`, `se-cacher-apc` and `se-cacher-sheol`.
- `db_modifier` is the signed change a talent makes to the DB of the attack roll it applies
  to (Esquive +1 raises the attacker's DB, Ambidextre -1 lowers the vampire's own).

Pure Python: no Django, no third-party packages; the only I/O is reading the JSON file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, Literal, TypeVar

from rules.engine.dice import BANDS, Dice, DiceError, parse, parse_bands
from rules.engine.systems.catalogue_file import load_version, read_json

# Every version that ever shipped stays here, side by side: a unit records the version it was
# built with and is costed with that one after a newer catalogue ships.
CATALOGUES_DIR: Final = Path(__file__).with_name("catalogues")

TALENT_KINDS: Final = frozenset({"talent", "specialisation", "option"})
TALENT_TYPES: Final = frozenset({"speech", "support", "movement", "offensive", "defensive"})
WEAPON_KINDS: Final = frozenset({"ranged", "melee"})
ORDER_DIRECTIVES: Final = frozenset({"support", "defensive", "offensive", "movement"})
ROLL_OUTCOMES: Final = frozenset(
    {"critical_failure", "failure_with_one", "failure", "mitigated_success", "critical_success"}
)
ATTACK_EFFECTS: Final = frozenset({"major_incident", "minor_incident", "miss", "hit_but"})
INTERVENTION_AUTOMATIC: Final = "-"
INTERVENTION_IMPOSSIBLE: Final = "X"
UNLIMITED: Final = "unlimited"
UNTOUCHABLE: Final = "untouchable"

_SLUG = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*")
_DICE = re.compile(r"(?:(?P<count>[1-9][0-9]*)?(?P<kind>[DC])6)|(?P<constant>0|[1-9][0-9]*)")


class CatalogueError(ValueError):
    """The catalogue is malformed, or an entry asked of it does not exist."""


# --- K3 dice notation ---------------------------------------------------------------------
# Parsing and the `Dice` type are rules.engine.dice's; the catalogue only insists that its data be
# written in the plain form of the texts (no lower case, no `+k`, no `!`, no sign).


def parse_dice(text: str) -> Dice:
    """Parse one K3 dice expression (RULES-NOTES K3); raise `CatalogueError` otherwise."""
    if _DICE.fullmatch(text) is None:
        raise CatalogueError(
            f"{text!r} is not a dice expression of K3 (D6, nD6, nC6, an integer or 0)"
        )
    try:
        return parse(text)
    except DiceError as exc:
        raise CatalogueError(f"{text!r}: {exc}") from None


def parse_power(text: str) -> tuple[Dice, ...]:
    """A weapon's power (K3) at each of the five bands: point blank, short, effective, long
    and extreme range; one expression applies at every band."""
    for part in text.split("/"):
        parse_dice(part)
    try:
        return parse_bands(text)
    except DiceError as exc:
        raise CatalogueError(f"{exc}; K3 needs one power or exactly {len(BANDS)}") from None


# --- The entries --------------------------------------------------------------------------


@dataclass(frozen=True)
class Cost:
    """A price in personalisation points (PP) or unit points (PU) (K2)."""

    pp: int = 0
    pu: int = 0


@dataclass(frozen=True)
class DamageType:
    slug: str
    label: str
    ref: str


@dataclass(frozen=True)
class Rank:
    slug: str
    label: str
    number: int
    pu: int
    pp: int
    success_threshold: int
    ref: str


@dataclass(frozen=True)
class Affiliation:
    slug: str
    label: str
    effect_666: str | None
    archetypes: tuple[str, ...]
    named_only: bool
    ref: str


@dataclass(frozen=True)
class Archetype:
    slug: str
    label: str
    affiliation: str
    family: str | None
    ranks: tuple[str, ...]
    talents: tuple[tuple[str, ...], ...]
    equipment: tuple[tuple[str, ...], ...]
    options: tuple[str, ...]
    summary: str
    ref: str
    uncertain: str | None

    @property
    def talent_slugs(self) -> tuple[str, ...]:
        """Every talent the archetype may start with, choices included, in order."""
        return _flatten(self.talents)

    @property
    def equipment_slugs(self) -> tuple[str, ...]:
        """Every item the archetype may carry, choices included, in order."""
        return _flatten(self.equipment)

    def allows_rank(self, rank: str) -> bool:
        return rank in self.ranks


@dataclass(frozen=True)
class Requirement:
    talent: str
    level: int


@dataclass(frozen=True)
class Prerequisite:
    """Satisfied by any one of its requirements."""

    any_of: tuple[Requirement, ...]


@dataclass(frozen=True)
class TalentLevel:
    """One level (expertise) of a talent, with the numbers the text gives for it."""

    level: int
    cost: Cost
    prerequisite: Prerequisite | None
    base_db: int | None = None
    db_modifier: int | None = None
    melee_attacker_bonus: int | None = None
    breath_cost: int | None = None
    walk_cm: float | None = None
    sustained_walk_cm: float | None = None
    run_cm: float | None = None
    run_breath_cost: int | None = None
    jump_cm: float | None = None
    move_divisor: int | None = None
    cover_type_bonus: int | None = None
    dice: str | None = None
    intervention_dice: Mapping[str, Mapping[str, str]] | None = None
    dice_by_target_sante: Mapping[int, str] | None = None
    target_moral_loss: int | None = None
    moral_regained: int | None = None
    radius_cm: float | None = None
    groups: int | Literal["unlimited"] | None = None
    chain_spacing_cm: float | None = None
    dice_ignored_or_rerolled: int | None = None
    power_bonus: str | None = None
    shots: int | None = None
    melee_expertise: int | None = None
    sante_regenerated: int | None = None
    power_divisor: int | None = None
    death_threshold_modifier: int | None = None
    escape_move_cm: float | None = None
    min_distance_cm: float | None = None
    weapon: str | None = None


_LEVEL_INTEGERS: Final = (
    "base_db",
    "db_modifier",
    "melee_attacker_bonus",
    "breath_cost",
    "run_breath_cost",
    "move_divisor",
    "cover_type_bonus",
    "target_moral_loss",
    "moral_regained",
    "dice_ignored_or_rerolled",
    "shots",
    "melee_expertise",
    "sante_regenerated",
    "power_divisor",
    "death_threshold_modifier",
)
_LEVEL_LENGTHS: Final = (
    "walk_cm",
    "sustained_walk_cm",
    "run_cm",
    "jump_cm",
    "radius_cm",
    "chain_spacing_cm",
    "escape_move_cm",
    "min_distance_cm",
)
_LEVEL_DICE: Final = ("dice", "power_bonus")


@dataclass(frozen=True)
class Talent:
    slug: str
    label: str
    kind: str
    types: tuple[str, ...]
    affiliation: str | None
    specialises: tuple[str, ...]
    levels: tuple[TalentLevel, ...]
    summary: str
    ref: str
    uncertain: str | None

    def level(self, number: int) -> TalentLevel:
        for level in self.levels:
            if level.level == number:
                return level
        known = ", ".join(str(level.level) for level in self.levels)
        raise CatalogueError(f"talent {self.slug!r} has no level {number} (levels: {known})")

    @property
    def level_numbers(self) -> tuple[int, ...]:
        return tuple(level.level for level in self.levels)


@dataclass(frozen=True)
class Band:
    """A range band in cm; `max_cm` is None when the band is open ("90cm+")."""

    min_cm: float
    max_cm: float | None


@dataclass(frozen=True)
class Weapon:
    slug: str
    label: str
    kind: str
    damage_type: str
    talent: str
    range_cm: Mapping[str, Band | None] | None
    power: str
    specials: tuple[str, ...]
    db_modifier_by_mode: Mapping[str, int]
    value: Cost | None
    ref: str
    uncertain: str | None

    @property
    def power_dice(self) -> tuple[Dice, ...]:
        return parse_power(self.power)

    def power_at(self, band: str) -> Dice:
        """The power at a range band; a single expression applies at every band."""
        if band not in BANDS:
            raise CatalogueError(f"weapon {self.slug!r}: {band!r} is not a range band {BANDS}")
        return self.power_dice[BANDS.index(band)]


@dataclass(frozen=True)
class Armour:
    slug: str
    label: str
    protection: Mapping[str, int]
    specials: tuple[str, ...]
    shooting_db_modifier: int | None
    weapon: str | None
    value: Cost | None
    ref: str
    uncertain: str | None


@dataclass(frozen=True)
class VeteranTrait:
    slug: str
    label: str
    affiliation: str
    summary: str
    ignored_cover_types: tuple[int, ...]
    cover_type_as: Mapping[int, int]
    melee_db_modifier: int | None
    weapon_handled_as: Mapping[str, str]
    value: Cost | None
    ref: str
    uncertain: str | None


@dataclass(frozen=True)
class MentionedOnly:
    """A name the core rules use without giving it an entry: kept so nobody invents one."""

    slug: str
    label: str
    summary: str
    ref: str


# --- The tables ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DamageRow:
    """Damage values from `min` to `max` inclusive; None is unbounded."""

    min: int | None
    max: int | None
    wound: str


@dataclass(frozen=True)
class DamageTable:
    by_outcome: Mapping[str, str]
    by_value: tuple[DamageRow, ...]
    ref: str

    def wound_for(self, value: int) -> str:
        """The wound of a successful attack's damage value (RULES-NOTES K7)."""
        for row in self.by_value:
            if (row.min is None or value >= row.min) and (row.max is None or value <= row.max):
                return row.wound
        raise CatalogueError(f"damage table ({self.ref}): no row for the value {value}")


@dataclass(frozen=True)
class Wound:
    slug: str
    label: str
    sante_loss: int | None
    sante_set_to: int | None
    death_roll: bool
    killed: bool
    attacker_moral: int
    allies_moral: int
    allies_radius_cm: float | None


@dataclass(frozen=True)
class Wounds:
    sante_floor: int
    rows: Mapping[str, Wound]
    ref: str


@dataclass(frozen=True)
class DeathRoll:
    dice: str
    threshold_by_sante: Mapping[int, int | None]
    ref: str


@dataclass(frozen=True)
class MovementBand:
    min_cm: float
    max_cm: float | None
    db: int


@dataclass(frozen=True)
class RangedDb:
    base_db_by_expertise: Mapping[int, int]
    static_target_base_db: int
    range_band_modifiers: Mapping[str, int]
    target_movement_modifiers: tuple[MovementBand, ...]
    melee_extra_figure_modifier: int
    ref: str


@dataclass(frozen=True)
class CoverType:
    """DB adjustment by the target's order directive, against the cover or not."""

    type: int
    label: str
    against: Mapping[str, int | Literal["untouchable"]]
    not_against: Mapping[str, int | Literal["untouchable"]]


@dataclass(frozen=True)
class Cover:
    point_blank_keeps_only_type: int
    types: tuple[CoverType, ...]
    ref: str


@dataclass(frozen=True)
class KeepBestDice:
    """The dice of a DB of 0, -1 and -2 (below -2 as -2) (K6)."""

    dice: Mapping[int, str]
    ref: str


@dataclass(frozen=True)
class EffectiveRank:
    rank_drop_by_sante: Mapping[int, int]
    floor: str
    ref: str


@dataclass(frozen=True)
class RollOutcomes:
    """What the effective rank and the 1s change in the outcome of a roll, and the dice of a
    666 (K5): a critical success needs at least `critical_success_min_rank`; a critical
    failure at most `critical_failure_max_rank` and `critical_failure_min_ones` dice showing
    1; a failure with a 1 at most `failure_with_one_max_rank`."""

    critical_success_min_rank: str
    critical_failure_max_rank: str
    critical_failure_min_ones: int
    failure_with_one_max_rank: str
    six_six_six_dice: int
    ref: str


@dataclass(frozen=True)
class MeleeOpposition:
    db_base: int
    rank_bonus: Mapping[str, int]
    support_bonus: int
    charged_support_bonus: int
    ref: str


@dataclass(frozen=True)
class StartingMoral:
    dice: str
    total_at_least: int
    when_total_reached: int
    when_die_shows_one: int
    otherwise: int
    avatar: int
    ref: str


# A row of a D6 table: the lowest and highest faces it covers, what it means and, for the
# stray shot, what that does.
FaceRow = tuple[int, int, str]
EffectRow = tuple[int, int, str, Mapping[str, Any]]


@dataclass(frozen=True)
class FollowUps:
    """What follows an attack's roll and the end of a turn: the K9 incident tables, the
    stray shot into a melee, the miss's temper roll, each affiliation's 666, the Shéol's
    wounds one level worse, the Moral a wound costs by rank, the K14 and K15 thresholds."""

    major_incident: Mapping[str, tuple[FaceRow, ...]]  # by damage table: "ranged", "melee"
    minor_incident: str
    incident_effects: Mapping[str, Mapping[str, Any]]
    temper_threshold: int
    stray_shot: tuple[EffectRow, ...]
    six_six_six: Mapping[str, Mapping[str, Any]]  # by affiliation; none: no effect
    one_level_worse: Mapping[str, str]
    # by rank: "loss_at_least" rows (Santé lost, Moral lost), "sante_at_most" rows (Santé left,
    # Moral lost)
    wound_moral: Mapping[str, Mapping[str, tuple[tuple[int, int], ...]]]
    unconscious_at_most: int
    breath_recovery_min_sante: int
    next_attacker_min_rank: str
    next_attacker_min_moral: int
    # K14: "Gauges stay within 1..6"; the breath a rested character recovers; the Moral a
    # frightened one pays to recover.
    gauge_min: int
    gauge_max: int
    rested_breath_gain: int
    frightened_moral_loss: int
    ref: str


@dataclass(frozen=True)
class Tables:
    ranged_damage: DamageTable
    melee_damage: DamageTable
    wounds: Wounds
    death_roll: DeathRoll
    ranged_db: RangedDb
    cover: Cover
    keep_best_dice_by_db: KeepBestDice
    effective_rank: EffectiveRank
    roll_outcomes: RollOutcomes
    melee_opposition: MeleeOpposition
    starting_moral: StartingMoral
    follow_ups: FollowUps


# --- The catalogue ------------------------------------------------------------------------

_Entry = TypeVar("_Entry")


# Compared and hashed by identity: each shipped version is read once, so what is cached by
# catalogue (a talent test's numbers, an attack's odds) is cached by version.
@dataclass(frozen=True, eq=False)
class Catalogue:
    system: str
    version: str
    source: str
    damage_types: Mapping[str, DamageType]
    ranks: Mapping[str, Rank]
    affiliations: Mapping[str, Affiliation]
    archetypes: Mapping[str, Archetype]
    talents: Mapping[str, Talent]
    mentioned_only: Mapping[str, MentionedOnly]
    weapons: Mapping[str, Weapon]
    armours: Mapping[str, Armour]
    veteran_traits: Mapping[str, VeteranTrait]
    tables: Tables

    def rank(self, slug: str) -> Rank:
        return self._lookup(self.ranks, "rank", slug)

    def affiliation(self, slug: str) -> Affiliation:
        return self._lookup(self.affiliations, "affiliation", slug)

    def archetype(self, slug: str) -> Archetype:
        return self._lookup(self.archetypes, "archetype", slug)

    def talent(self, slug: str) -> Talent:
        return self._lookup(self.talents, "talent", slug)

    def vigilance_talent(self) -> Talent:
        """The talent whose level is a character's vigilance: the one whose levels carry the
        intervention table (`vigilance` up to 2026.11.1; `discipline` from 2026.11.2,
        RULES-NOTES K17)."""
        for talent in self.talents.values():
            if any(level.intervention_dice for level in talent.levels):
                return talent
        raise CatalogueError(f"no talent with an intervention table in {self.version}")

    def weapon(self, slug: str) -> Weapon:
        return self._lookup(self.weapons, "weapon", slug)

    def armour(self, slug: str) -> Armour:
        return self._lookup(self.armours, "armour", slug)

    def veteran_trait(self, slug: str) -> VeteranTrait:
        return self._lookup(self.veteran_traits, "veteran trait", slug)

    def equipment(self, slug: str) -> Weapon | Armour:
        """A weapon or an armour: archetype equipment lists mix both."""
        if slug in self.weapons:
            return self.weapons[slug]
        return self._lookup(self.armours, "weapon or armour", slug)

    def archetypes_of(self, affiliation: str) -> tuple[Archetype, ...]:
        self.affiliation(affiliation)
        return tuple(a for a in self.archetypes.values() if a.affiliation == affiliation)

    def talents_labelled(self, label: str, *, affiliation: str | None = None) -> tuple[Talent, ...]:
        """Talents whose label is `label` (case-insensitive), usable by `affiliation`.

        A same-named talent can be two entries (K16); with an affiliation, only the common
        entry and that affiliation's own are returned.
        """
        wanted = label.casefold()
        return tuple(
            talent
            for talent in self.talents.values()
            if talent.label.casefold() == wanted
            and (affiliation is None or talent.affiliation in (None, affiliation))
        )

    def _lookup(self, entries: Mapping[str, _Entry], kind: str, slug: str) -> _Entry:
        try:
            return entries[slug]
        except KeyError:
            raise CatalogueError(
                f"no {kind} {slug!r} in the KOLAPS catalogue {self.version}"
            ) from None


def catalogue_versions() -> tuple[str, ...]:
    """The versions shipped, oldest first; the last is the current catalogue. Listed once
    per process, as each version is read once: the live table looks a catalogue up a dozen
    times per action, and the listing cost more than the rest of the lookup."""
    return _versions_in(CATALOGUES_DIR)


@cache
def _versions_in(directory: Path) -> tuple[str, ...]:
    """The versions in `directory`, listed once per folder (a test may ship another)."""
    versions = (path.stem for path in directory.glob("*.json"))
    return tuple(sorted(versions, key=lambda v: tuple(int(n) for n in v.split("."))))


def _shipped(version: str | None) -> str:
    """`version` if shipped (the current one when None)."""
    versions = catalogue_versions()
    wanted = versions[-1] if version is None else version
    if wanted not in versions:
        raise CatalogueError(f"no KOLAPS catalogue {wanted!r} (shipped: {', '.join(versions)})")
    return wanted


def catalogue_path(version: str | None = None) -> Path:
    """The file of `version` (the current catalogue when None)."""
    return CATALOGUES_DIR / f"{_shipped(version)}.json"


def load_catalogue(version: str | None = None, *, path: Path | None = None) -> Catalogue:
    """Load and validate a catalogue: `version` (the current one when None), each shipped
    version read once and cached.

    `path` loads another file (a candidate edit, a test's broken copy) without caching.
    Raises `CatalogueError` naming the entry and the field of the first structural fault,
    or listing every broken cross-reference.
    """
    if path is not None:
        return _load(path)
    return _shipped_catalogue(CATALOGUES_DIR, version)


@cache
def _shipped_catalogue(directory: Path, version: str | None) -> Catalogue:
    """A shipped version (the current one when None), found once per folder and version:
    the live table asks for its catalogue a dozen times per action and per page; by name,
    not through `catalogue_path`, whose path cost more than the rest of the lookup."""
    return _packaged_catalogue(_shipped(version))


@cache
def _packaged_catalogue(version: str) -> Catalogue:
    return load_version(CATALOGUES_DIR, version, _load, CatalogueError)


def _load(path: Path) -> Catalogue:
    catalogue = _read_catalogue(read_json(path, CatalogueError))
    problems = list(_broken_references(catalogue))
    if problems:
        listed = "\n- ".join(problems)
        raise CatalogueError(f"{path.name} has {len(problems)} broken reference(s):\n- {listed}")
    return catalogue


# --- Reading: structure and types ---------------------------------------------------------


class _Fields:
    """One JSON object being read. A failed read names the entry and the field; `close`
    refuses the fields nobody read, so a misspelt key is an error rather than ignored."""

    def __init__(self, raw: object, where: str) -> None:
        if not isinstance(raw, dict):
            raise CatalogueError(f"{where}: expected an object, got {_json_type(raw)}")
        self.raw: dict[str, object] = raw
        self.where = where
        self._read: set[str] = set()

    def error(self, key: str, problem: str) -> CatalogueError:
        return CatalogueError(f"{self.where}, field {key!r}: {problem}")

    def has(self, key: str) -> bool:
        return key in self.raw

    def value(self, key: str) -> object:
        self._read.add(key)
        if key not in self.raw:
            raise self.error(key, "is missing")
        return self.raw[key]

    def text(self, key: str) -> str:
        value = self.value(key)
        if not isinstance(value, str) or not value.strip():
            raise self.error(key, f"expected a non-empty string, got {_json_type(value)}")
        return value

    def optional_text(self, key: str) -> str | None:
        """A string that may be null or absent."""
        if self.raw.get(key) is None:
            self._read.add(key)
            return None
        return self.text(key)

    def slug(self, key: str) -> str:
        value = self.text(key)
        if not _SLUG.fullmatch(value):
            raise self.error(key, f"{value!r} is not a slug (lower-case words joined by '-')")
        return value

    def nullable_slug(self, key: str) -> str | None:
        """A slug that must be present but may be null."""
        if self.value(key) is None:
            return None
        return self.slug(key)

    def integer(self, key: str) -> int:
        value = self.value(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, f"expected an integer, got {_json_type(value)}")
        return value

    def nullable_integer(self, key: str) -> int | None:
        if self.value(key) is None:
            return None
        return self.integer(key)

    def length(self, key: str) -> float:
        value = self.value(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise self.error(key, f"expected a length in cm (>= 0), got {value!r}")
        return float(value)

    def nullable_length(self, key: str) -> float | None:
        if self.value(key) is None:
            return None
        return self.length(key)

    def flag(self, key: str) -> bool:
        value = self.value(key)
        if not isinstance(value, bool):
            raise self.error(key, f"expected true or false, got {_json_type(value)}")
        return value

    def dice(self, key: str) -> str:
        value = self.text(key)
        try:
            parse_dice(value)
        except CatalogueError as exc:
            raise self.error(key, str(exc)) from None
        return value

    def power(self, key: str) -> str:
        value = self.text(key)
        try:
            parse_power(value)
        except CatalogueError as exc:
            raise self.error(key, str(exc)) from None
        return value

    def items(self, key: str) -> list[object]:
        value = self.value(key)
        if not isinstance(value, list):
            raise self.error(key, f"expected a list, got {_json_type(value)}")
        return value

    def slugs(self, key: str) -> tuple[str, ...]:
        values = self.items(key)
        for value in values:
            if not isinstance(value, str) or not _SLUG.fullmatch(value):
                raise self.error(key, f"{value!r} is not a slug")
        if len(set(values)) != len(values):
            raise self.error(key, "lists a slug twice")
        return tuple(str(value) for value in values)

    def choice_groups(self, key: str) -> tuple[tuple[str, ...], ...]:
        groups: list[tuple[str, ...]] = []
        for number, group in enumerate(self.items(key), start=1):
            if not isinstance(group, list) or not group:
                raise self.error(key, f"group {number} is not a non-empty list of alternatives")
            for value in group:
                if not isinstance(value, str) or not _SLUG.fullmatch(value):
                    raise self.error(key, f"group {number}: {value!r} is not a slug")
            groups.append(tuple(str(value) for value in group))
        return tuple(groups)

    def obj(self, key: str) -> _Fields:
        return _Fields(self.value(key), f"{self.where}, field {key!r}")

    def mapping(self, key: str) -> dict[str, object]:
        value = self.value(key)
        if not isinstance(value, dict):
            raise self.error(key, f"expected an object, got {_json_type(value)}")
        return value

    def int_keyed(self, key: str) -> dict[int, object]:
        """An object whose keys are integers written as strings ("6": ...)."""
        result: dict[int, object] = {}
        for name, value in self.mapping(key).items():
            try:
                result[int(name)] = value
            except ValueError:
                raise self.error(key, f"key {name!r} is not an integer") from None
        return result

    def cost(self, key: str) -> Cost:
        value = self.mapping(key)
        if len(value) != 1 or next(iter(value)) not in ("pp", "pu"):
            raise self.error(key, f'expected {{"pp": n}} or {{"pu": n}} (K2), got {value!r}')
        unit, amount = next(iter(value.items()))
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise self.error(key, f"a cost is a whole number of {unit.upper()} >= 0")
        return Cost(pp=amount) if unit == "pp" else Cost(pu=amount)

    def nullable_cost(self, key: str) -> Cost | None:
        if self.value(key) is None:
            return None
        return self.cost(key)

    def one_of(self, key: str, allowed: frozenset[str]) -> str:
        value = self.text(key)
        if value not in allowed:
            raise self.error(key, f"{value!r} is not one of {sorted(allowed)}")
        return value

    def read(self, spec: Spec) -> dict[str, Any]:
        """Read every field of `spec` in its order, each with its reader: the same checks
        and the same first error as reading them one by one."""
        return {key: reader(self, key) for key, reader in spec}

    def close(self) -> None:
        unknown = sorted(set(self.raw) - self._read)
        if unknown:
            raise CatalogueError(f"{self.where}: unknown field(s) {', '.join(map(repr, unknown))}")


Spec = tuple[tuple[str, Callable[[_Fields, str], Any]], ...]


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}.get(
        type(value), "a list" if isinstance(value, list) else "an object"
    )


def _flatten(groups: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(slug for group in groups for slug in group))


def _frozen(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(mapping))


def _section(
    root: _Fields, key: str, entry_kind: str, read: Callable[[_Fields, str], _Entry]
) -> Mapping[str, _Entry]:
    """Read a list of entries keyed by their unique slug."""
    entries: dict[str, _Entry] = {}
    for index, raw in enumerate(root.items(key)):
        fields = _Fields(raw, f"{entry_kind} #{index + 1}")
        slug = fields.slug("slug")
        fields.where = f"{entry_kind} {slug!r}"
        if slug in entries:
            raise CatalogueError(f"{fields.where}: the slug is used by two {entry_kind} entries")
        entries[slug] = read(fields, slug)
        fields.close()
    return MappingProxyType(entries)


def _read_catalogue(raw: object) -> Catalogue:
    root = _Fields(raw, "catalogue")
    system = root.text("system")
    if system != "kolaps":
        raise root.error("system", f"expected 'kolaps', got {system!r}")
    catalogue = Catalogue(
        system=system,
        version=_read_version(root),
        source=root.text("source"),
        damage_types=_section(root, "damage_types", "damage type", _read_damage_type),
        ranks=_section(root, "ranks", "rank", _read_rank),
        affiliations=_section(root, "affiliations", "affiliation", _read_affiliation),
        archetypes=_section(root, "archetypes", "archetype", _read_archetype),
        talents=_section(root, "talents", "talent", _read_talent),
        mentioned_only=_section(root, "mentioned_only", "mentioned-only name", _read_mentioned),
        weapons=_section(root, "weapons", "weapon", _read_weapon),
        armours=_section(root, "armours", "armour", _read_armour),
        veteran_traits=_section(root, "veteran_traits", "veteran trait", _read_veteran_trait),
        tables=_read_tables(root.obj("tables")),
    )
    root.close()
    return catalogue


def _read_version(root: _Fields) -> str:
    version = root.text("version")
    if not re.fullmatch(r"\d{4}\.\d+\.\d+", version):
        raise root.error("version", f"{version!r} is not a version like '2026.11.1'")
    return version


def _read_damage_type(fields: _Fields, slug: str) -> DamageType:
    return DamageType(slug=slug, **fields.read(_DAMAGE_TYPE))


def _read_rank(fields: _Fields, slug: str) -> Rank:
    rank = Rank(slug=slug, **fields.read(_RANK))
    if not 2 <= rank.success_threshold <= 6:
        raise fields.error("success_threshold", "a D6 threshold is between 2 and 6")
    return rank


def _read_affiliation(fields: _Fields, slug: str) -> Affiliation:
    return Affiliation(slug=slug, **fields.read(_AFFILIATION))


def _read_archetype(fields: _Fields, slug: str) -> Archetype:
    archetype = Archetype(slug=slug, **fields.read(_ARCHETYPE))
    if not archetype.ranks:
        raise fields.error("ranks", "an archetype allows at least one rank")
    return archetype


def _read_talent(fields: _Fields, slug: str) -> Talent:
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
    fields = _Fields(raw, f"talent {talent!r} level #{index + 1}")
    number = fields.integer("level")
    if not 0 <= number <= 3:
        raise fields.error("level", f"an expertise level is 0 to 3, got {number}")
    fields.where = f"talent {talent!r} level {number}"
    numbers: dict[str, Any] = {}
    for key in _LEVEL_INTEGERS:
        if fields.has(key):
            numbers[key] = fields.integer(key)
    for key in _LEVEL_LENGTHS:
        if fields.has(key):
            numbers[key] = fields.length(key)
    for key in _LEVEL_DICE:
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


def _read_prerequisite(fields: _Fields) -> Prerequisite | None:
    if fields.value("prerequisite") is None:
        return None
    prerequisite = fields.obj("prerequisite")
    requirements: list[Requirement] = []
    for index, raw in enumerate(prerequisite.items("any_of")):
        requirement = _Fields(raw, f"{prerequisite.where}, requirement {index + 1}")
        requirements.append(
            Requirement(talent=requirement.slug("talent"), level=requirement.integer("level"))
        )
        requirement.close()
    prerequisite.close()
    if not requirements:
        raise fields.error("prerequisite", "any_of lists no requirement (use null for none)")
    return Prerequisite(any_of=tuple(requirements))


def _read_intervention_dice(fields: _Fields) -> Mapping[str, Mapping[str, str]]:
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
        table[row] = _frozen(parsed)
    return _frozen(table)


def _read_dice_by_sante(fields: _Fields) -> Mapping[int, str]:
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
    return _frozen(table)


def _read_mentioned(fields: _Fields, slug: str) -> MentionedOnly:
    return MentionedOnly(slug=slug, **fields.read(_MENTIONED))


def _read_weapon(fields: _Fields, slug: str) -> Weapon:
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
        db_modifier_by_mode=_frozen(modes),
        value=fields.nullable_cost("value"),
        ref=fields.text("ref"),
        uncertain=fields.optional_text("uncertain"),
    )


def _read_range(fields: _Fields) -> Mapping[str, Band | None]:
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
    return _frozen(bands)


def _strings(fields: _Fields, key: str) -> list[str]:
    values = fields.items(key)
    for value in values:
        if not isinstance(value, str) or not value:
            raise fields.error(key, f"{value!r} is not a non-empty string")
    return [str(value) for value in values]


def _read_armour(fields: _Fields, slug: str) -> Armour:
    protection: dict[str, int] = {}
    for damage_type, amount in fields.mapping("protection").items():
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise fields.error("protection", f"{damage_type!r}: expected a DB bonus >= 0")
        protection[damage_type] = amount
    return Armour(
        slug=slug,
        label=fields.text("label"),
        protection=_frozen(protection),
        specials=tuple(_strings(fields, "specials")),
        shooting_db_modifier=fields.nullable_integer("shooting_db_modifier"),
        weapon=fields.nullable_slug("weapon"),
        value=fields.nullable_cost("value"),
        ref=fields.text("ref"),
        uncertain=fields.optional_text("uncertain"),
    )


def _read_veteran_trait(fields: _Fields, slug: str) -> VeteranTrait:
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
        cover_type_as=_frozen(cover_as),
        melee_db_modifier=fields.nullable_integer("melee_db_modifier"),
        weapon_handled_as=_frozen(handled_as),
        value=fields.nullable_cost("value"),
        ref=fields.text("ref"),
        uncertain=fields.optional_text("uncertain"),
    )


# --- Reading: the tables ------------------------------------------------------------------


def _read_tables(fields: _Fields) -> Tables:
    damage = fields.obj("damage")
    tables = Tables(
        ranged_damage=_read_damage_table(damage.obj("ranged")),
        melee_damage=_read_damage_table(damage.obj("melee")),
        wounds=_read_wounds(fields.obj("wounds")),
        death_roll=_read_death_roll(fields.obj("death_roll")),
        ranged_db=_read_ranged_db(fields.obj("ranged_db")),
        cover=_read_cover(fields.obj("cover")),
        keep_best_dice_by_db=_read_keep_best(fields.obj("keep_best_dice_by_db")),
        effective_rank=_read_effective_rank(fields.obj("effective_rank")),
        roll_outcomes=_read_roll_outcomes(fields.obj("roll_outcomes")),
        melee_opposition=_read_melee_opposition(fields.obj("melee_opposition")),
        starting_moral=_read_starting_moral(fields.obj("starting_moral")),
        follow_ups=_read_follow_ups(fields.obj("follow_ups")),
    )
    damage.close()
    fields.close()
    return tables


def _read_face_rows(fields: _Fields, key: str, raw: object, width: int) -> list[list[Any]]:
    """A D6 table: rows [low, high, effect, ...] covering the faces 1 to 6 once, in order."""
    if not isinstance(raw, list) or not raw:
        raise fields.error(key, "expected a list of rows")
    rows: list[list[Any]] = []
    face = 1
    for row in raw:
        if (
            not isinstance(row, list)
            or len(row) != width
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in row[:2])
            or not isinstance(row[2], str)
        ):
            raise fields.error(key, f"{row!r}: expected [low face, high face, effect, ...]")
        if row[0] != face or row[1] < row[0]:
            raise fields.error(key, f"{row!r}: the rows cover the faces 1 to 6 in order")
        face = row[1] + 1
        rows.append(row)
    if face != 7:
        raise fields.error(key, "the rows cover the faces 1 to 6")
    return rows


def _read_follow_ups(fields: _Fields) -> FollowUps:
    major = {
        table: tuple((low, high, effect) for low, high, effect in _read_face_rows(
            fields, f"major_incident.{table}", rows, 3
        ))
        for table, rows in fields.mapping("major_incident").items()
    }  # fmt: skip
    effects = _objects(fields, "incident_effects")
    for table, rows in major.items():
        for _low, _high, effect in rows:
            if effect not in effects:
                raise fields.error("major_incident", f"{table}: unknown incident {effect!r}")
    minor = fields.slug("minor_incident")
    if minor not in effects:
        raise fields.error("minor_incident", f"unknown incident {minor!r}")
    stray = tuple(
        (low, high, effect, _frozen(extra))
        for low, high, effect, extra in _read_face_rows(
            fields, "stray_shot", fields.value("stray_shot"), 4
        )
    )
    wound_moral: dict[str, Mapping[str, tuple[tuple[int, int], ...]]] = {}
    for rank, by_kind in _objects(fields, "wound_moral").items():
        if set(by_kind) != {"loss_at_least", "sante_at_most"}:
            raise fields.error("wound_moral", f"{rank}: expected loss_at_least and sante_at_most")
        wound_moral[rank] = _frozen(
            {kind: tuple((int(a), int(b)) for a, b in pairs) for kind, pairs in by_kind.items()}
        )
    next_attacker = fields.obj("next_attacker")
    end_phase = fields.obj("end_phase")
    follow_ups = FollowUps(
        major_incident=_frozen(major),
        minor_incident=minor,
        incident_effects=_frozen(effects),
        temper_threshold=fields.integer("temper_threshold"),
        stray_shot=stray,
        six_six_six=_frozen(_objects(fields, "six_six_six")),
        one_level_worse=_frozen(
            {row: str(worse) for row, worse in fields.mapping("one_level_worse").items()}
        ),
        wound_moral=_frozen(wound_moral),
        unconscious_at_most=fields.integer("unconscious_at_most"),
        breath_recovery_min_sante=fields.integer("breath_recovery_min_sante"),
        next_attacker_min_rank=next_attacker.slug("min_rank"),
        next_attacker_min_moral=next_attacker.integer("min_moral"),
        gauge_min=end_phase.integer("gauge_min"),
        gauge_max=end_phase.integer("gauge_max"),
        rested_breath_gain=end_phase.integer("rested_breath_gain"),
        frightened_moral_loss=end_phase.integer("frightened_moral_loss"),
        ref=fields.text("ref"),
    )
    next_attacker.close()
    end_phase.close()
    fields.close()
    return follow_ups


def _objects(fields: _Fields, key: str) -> dict[str, Mapping[str, Any]]:
    """An object of objects: each inner object frozen as it is."""
    objects: dict[str, Mapping[str, Any]] = {}
    for name, value in fields.mapping(key).items():
        if not isinstance(value, dict):
            raise fields.error(key, f"{name}: expected an object")
        objects[name] = _frozen(value)
    return objects


def _read_damage_table(fields: _Fields) -> DamageTable:
    by_outcome: dict[str, str] = {}
    for outcome, effect in fields.mapping("by_outcome").items():
        if outcome not in ROLL_OUTCOMES or not isinstance(effect, str):
            raise fields.error("by_outcome", f"{outcome!r}: not an outcome of K5 with an effect")
        by_outcome[outcome] = effect
    rows: list[DamageRow] = []
    for index, raw in enumerate(fields.items("by_value")):
        row = _Fields(raw, f"{fields.where}, row {index + 1}")
        rows.append(
            DamageRow(
                min=row.nullable_integer("min"),
                max=row.nullable_integer("max"),
                wound=row.slug("wound"),
            )
        )
        row.close()
    _check_value_rows(fields, rows)
    table = DamageTable(
        by_outcome=_frozen(by_outcome), by_value=tuple(rows), ref=fields.text("ref")
    )
    fields.close()
    return table


def _check_value_rows(fields: _Fields, rows: list[DamageRow]) -> None:
    """The rows must cover every damage value once: open below, contiguous, open above."""
    if not rows or rows[0].min is not None or rows[-1].max is not None:
        raise fields.error("by_value", "the first row must be open below and the last open above")
    for before, after in pairwise(rows):
        if before.max is None or after.min != before.max + 1:
            raise fields.error("by_value", f"rows {before} and {after} are not contiguous")
        if after.max is not None and after.max < after.min:
            raise fields.error("by_value", f"row {after} is empty")


def _read_wounds(fields: _Fields) -> Wounds:
    rows: dict[str, Wound] = {}
    for index, raw in enumerate(fields.items("rows")):
        row = _Fields(raw, f"{fields.where}, row {index + 1}")
        wound = Wound(**row.read(_WOUND))
        row.close()
        if [wound.sante_loss, wound.sante_set_to, wound.killed or None].count(None) != 2:
            raise row.error("sante_loss", "a wound takes Santé, sets it, or kills: exactly one")
        if wound.slug in rows:
            raise row.error("slug", f"{wound.slug!r} appears twice")
        rows[wound.slug] = wound
    wounds = Wounds(
        sante_floor=fields.integer("sante_floor"), rows=_frozen(rows), ref=fields.text("ref")
    )
    fields.close()
    return wounds


def _read_death_roll(fields: _Fields) -> DeathRoll:
    thresholds: dict[int, int | None] = {}
    for sante, threshold in fields.int_keyed("threshold_by_sante").items():
        if threshold is None or (isinstance(threshold, int) and not isinstance(threshold, bool)):
            thresholds[sante] = threshold
        else:
            raise fields.error("threshold_by_sante", f"Santé {sante}: expected a threshold or null")
    if sorted(thresholds) != list(range(1, 7)):
        raise fields.error("threshold_by_sante", "needs one row per Santé from 1 to 6")
    death_roll = DeathRoll(
        dice=fields.dice("dice"), threshold_by_sante=_frozen(thresholds), ref=fields.text("ref")
    )
    fields.close()
    return death_roll


def _int_values(fields: _Fields, key: str) -> dict[str, int]:
    result: dict[str, int] = {}
    for name, value in fields.mapping(key).items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise fields.error(key, f"{name!r}: expected an integer, got {value!r}")
        result[name] = value
    return result


def _int_keyed_ints(fields: _Fields, key: str) -> dict[int, int]:
    result: dict[int, int] = {}
    for name, value in fields.int_keyed(key).items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise fields.error(key, f"{name}: expected an integer, got {value!r}")
        result[name] = value
    return result


def _read_ranged_db(fields: _Fields) -> RangedDb:
    bands = _int_values(fields, "range_band_modifiers")
    if list(bands) != list(BANDS):
        raise fields.error("range_band_modifiers", f"expected the bands {list(BANDS)} in order")
    movement: list[MovementBand] = []
    for index, raw in enumerate(fields.items("target_movement_modifiers")):
        row = _Fields(raw, f"{fields.where}, movement row {index + 1}")
        movement.append(
            MovementBand(
                min_cm=row.length("min_cm"),
                max_cm=row.nullable_length("max_cm"),
                db=row.integer("db"),
            )
        )
        row.close()
    ranged_db = RangedDb(
        base_db_by_expertise=_frozen(_int_keyed_ints(fields, "base_db_by_expertise")),
        static_target_base_db=fields.integer("static_target_base_db"),
        range_band_modifiers=_frozen(bands),
        target_movement_modifiers=tuple(movement),
        melee_extra_figure_modifier=fields.integer("melee_extra_figure_modifier"),
        ref=fields.text("ref"),
    )
    fields.close()
    return ranged_db


def _read_cover(fields: _Fields) -> Cover:
    types: list[CoverType] = []
    for index, raw in enumerate(fields.items("types")):
        row = _Fields(raw, f"{fields.where}, cover row {index + 1}")
        types.append(
            CoverType(
                type=row.integer("type"),
                label=row.text("label"),
                against=_read_cover_effects(row, "against"),
                not_against=_read_cover_effects(row, "not_against"),
            )
        )
        row.close()
    if [cover.type for cover in types] != [1, 2, 3, 4]:
        raise fields.error("types", "expected the cover types 1 to 4 in order")
    cover = Cover(
        point_blank_keeps_only_type=fields.integer("point_blank_keeps_only_type"),
        types=tuple(types),
        ref=fields.text("ref"),
    )
    fields.close()
    return cover


def _read_cover_effects(row: _Fields, key: str) -> Mapping[str, int | Literal["untouchable"]]:
    effects: dict[str, int | Literal["untouchable"]] = {}
    for directive, effect in row.mapping(key).items():
        if directive not in ORDER_DIRECTIVES:
            raise row.error(key, f"{directive!r} is not an order directive")
        if effect == UNTOUCHABLE:
            effects[directive] = UNTOUCHABLE
        elif isinstance(effect, int) and not isinstance(effect, bool):
            effects[directive] = effect
        else:
            raise row.error(key, f"{directive}: expected a DB or {UNTOUCHABLE!r}, got {effect!r}")
    return _frozen(effects)


def _read_keep_best(fields: _Fields) -> KeepBestDice:
    dice: dict[int, str] = {}
    for db, expression in fields.int_keyed("dice").items():
        if not isinstance(expression, str):
            raise fields.error("dice", f"DB {db}: expected a dice expression")
        try:
            parse_dice(expression)
        except CatalogueError as exc:
            raise fields.error("dice", f"DB {db}: {exc}") from None
        dice[db] = expression
    keep_best = KeepBestDice(dice=_frozen(dice), ref=fields.text("ref"))
    fields.close()
    return keep_best


def _read_effective_rank(fields: _Fields) -> EffectiveRank:
    effective_rank = EffectiveRank(**fields.read(_EFFECTIVE_RANK))
    fields.close()
    return effective_rank


def _read_roll_outcomes(fields: _Fields) -> RollOutcomes:
    outcomes = RollOutcomes(**fields.read(_ROLL_OUTCOMES))
    fields.close()
    return outcomes


def _read_melee_opposition(fields: _Fields) -> MeleeOpposition:
    melee = MeleeOpposition(**fields.read(_MELEE_OPPOSITION))
    fields.close()
    return melee


def _read_starting_moral(fields: _Fields) -> StartingMoral:
    moral = StartingMoral(**fields.read(_STARTING_MORAL))
    fields.close()
    return moral


def _frozen_int_values(fields: _Fields, key: str) -> Mapping[str, int]:
    return _frozen(_int_values(fields, key))


def _frozen_int_keyed_ints(fields: _Fields, key: str) -> Mapping[int, int]:
    return _frozen(_int_keyed_ints(fields, key))


# --- The fields of each record, in reading order: (JSON key, reader) -----------------------
# A record's dataclass field has the JSON key's name; the reader checks its type.

_F = _Fields
_DAMAGE_TYPE: Spec = (("label", _F.text), ("ref", _F.text))
_RANK: Spec = (
    ("label", _F.text),
    ("number", _F.integer),
    ("pu", _F.integer),
    ("pp", _F.integer),
    ("success_threshold", _F.integer),
    ("ref", _F.text),
)
_AFFILIATION: Spec = (
    ("label", _F.text),
    ("effect_666", _F.optional_text),
    ("archetypes", _F.slugs),
    ("named_only", _F.flag),
    ("ref", _F.text),
)
_ARCHETYPE: Spec = (
    ("label", _F.text),
    ("affiliation", _F.slug),
    ("family", _F.optional_text),
    ("ranks", _F.slugs),
    ("talents", _F.choice_groups),
    ("equipment", _F.choice_groups),
    ("options", _F.slugs),
    ("summary", _F.text),
    ("ref", _F.text),
    ("uncertain", _F.optional_text),
)
_MENTIONED: Spec = (("label", _F.text), ("summary", _F.text), ("ref", _F.text))
_WOUND: Spec = (
    ("slug", _F.slug),
    ("label", _F.text),
    ("sante_loss", _F.nullable_integer),
    ("sante_set_to", _F.nullable_integer),
    ("death_roll", _F.flag),
    ("killed", _F.flag),
    ("attacker_moral", _F.integer),
    ("allies_moral", _F.integer),
    ("allies_radius_cm", _F.nullable_length),
)
_EFFECTIVE_RANK: Spec = (
    ("rank_drop_by_sante", _frozen_int_keyed_ints),
    ("floor", _F.slug),
    ("ref", _F.text),
)
_ROLL_OUTCOMES: Spec = (
    ("critical_success_min_rank", _F.slug),
    ("critical_failure_max_rank", _F.slug),
    ("critical_failure_min_ones", _F.integer),
    ("failure_with_one_max_rank", _F.slug),
    ("six_six_six_dice", _F.integer),
    ("ref", _F.text),
)
_MELEE_OPPOSITION: Spec = (
    ("db_base", _F.integer),
    ("rank_bonus", _frozen_int_values),
    ("support_bonus", _F.integer),
    ("charged_support_bonus", _F.integer),
    ("ref", _F.text),
)
_STARTING_MORAL: Spec = (
    ("dice", _F.dice),
    ("total_at_least", _F.integer),
    ("when_total_reached", _F.integer),
    ("when_die_shows_one", _F.integer),
    ("otherwise", _F.integer),
    ("avatar", _F.integer),
    ("ref", _F.text),
)


# --- Cross-references ---------------------------------------------------------------------


def _broken_references(catalogue: Catalogue) -> Iterator[str]:
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
