"""The KOLAPS catalogue's records: one frozen dataclass per kind of entry (ranks, talents,
weapons, tables…) and `Catalogue`, which holds them; read and checked by
`catalogue_reading`, loaded through `catalogue.load_catalogue`. Pure Python."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeVar

from rules.engine.dice import BANDS, Dice, DiceError, parse, parse_bands

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

SLUG = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*")
_DICE = re.compile(r"(?:(?P<count>[1-9][0-9]*)?(?P<kind>[DC])6)|(?P<constant>0|[1-9][0-9]*)")


def flatten(groups: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(slug for group in groups for slug in group))


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
        return flatten(self.talents)

    @property
    def equipment_slugs(self) -> tuple[str, ...]:
        """Every item the archetype may carry, choices included, in order."""
        return flatten(self.equipment)

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


LEVEL_INTEGERS: Final = (
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
LEVEL_LENGTHS: Final = (
    "walk_cm",
    "sustained_walk_cm",
    "run_cm",
    "jump_cm",
    "radius_cm",
    "chain_spacing_cm",
    "escape_move_cm",
    "min_distance_cm",
)
LEVEL_DICE: Final = ("dice", "power_bonus")


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

Entry = TypeVar("Entry")


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

    def _lookup(self, entries: Mapping[str, Entry], kind: str, slug: str) -> Entry:
        try:
            return entries[slug]
        except KeyError:
            raise CatalogueError(
                f"no {kind} {slug!r} in the KOLAPS catalogue {self.version}"
            ) from None
