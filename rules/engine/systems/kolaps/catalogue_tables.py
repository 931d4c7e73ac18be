"""Reading the KOLAPS catalogue's tables (damage, wounds, death, ranged DB, cover, follow-ups…)
into their records, and the fields of each record in reading order (JSON key, reader).
Pure Python."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise
from typing import Any, Literal

from rules.engine.dice import BANDS
from rules.engine.systems.kolaps.catalogue_fields import Fields, Spec, frozen
from rules.engine.systems.kolaps.catalogue_records import (
    ORDER_DIRECTIVES,
    ROLL_OUTCOMES,
    UNTOUCHABLE,
    CatalogueError,
    Cover,
    CoverType,
    DamageRow,
    DamageTable,
    DeathRoll,
    EffectiveRank,
    FollowUps,
    KeepBestDice,
    MeleeOpposition,
    MovementBand,
    RangedDb,
    RollOutcomes,
    StartingMoral,
    Tables,
    Wound,
    Wounds,
    parse_dice,
)

# --- Reading: the tables ------------------------------------------------------------------


def read_tables(fields: Fields) -> Tables:
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


def _read_face_rows(fields: Fields, key: str, raw: object, width: int) -> list[list[Any]]:
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


def _read_follow_ups(fields: Fields) -> FollowUps:
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
        (low, high, effect, frozen(extra))
        for low, high, effect, extra in _read_face_rows(
            fields, "stray_shot", fields.value("stray_shot"), 4
        )
    )
    wound_moral: dict[str, Mapping[str, tuple[tuple[int, int], ...]]] = {}
    for rank, by_kind in _objects(fields, "wound_moral").items():
        if set(by_kind) != {"loss_at_least", "sante_at_most"}:
            raise fields.error("wound_moral", f"{rank}: expected loss_at_least and sante_at_most")
        wound_moral[rank] = frozen(
            {kind: tuple((int(a), int(b)) for a, b in pairs) for kind, pairs in by_kind.items()}
        )
    next_attacker = fields.obj("next_attacker")
    end_phase = fields.obj("end_phase")
    follow_ups = FollowUps(
        major_incident=frozen(major),
        minor_incident=minor,
        incident_effects=frozen(effects),
        temper_threshold=fields.integer("temper_threshold"),
        stray_shot=stray,
        six_six_six=frozen(_objects(fields, "six_six_six")),
        one_level_worse=frozen(
            {row: str(worse) for row, worse in fields.mapping("one_level_worse").items()}
        ),
        wound_moral=frozen(wound_moral),
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


def _objects(fields: Fields, key: str) -> dict[str, Mapping[str, Any]]:
    """An object of objects: each inner object frozen as it is."""
    objects: dict[str, Mapping[str, Any]] = {}
    for name, value in fields.mapping(key).items():
        if not isinstance(value, dict):
            raise fields.error(key, f"{name}: expected an object")
        objects[name] = frozen(value)
    return objects


def _read_damage_table(fields: Fields) -> DamageTable:
    by_outcome: dict[str, str] = {}
    for outcome, effect in fields.mapping("by_outcome").items():
        if outcome not in ROLL_OUTCOMES or not isinstance(effect, str):
            raise fields.error("by_outcome", f"{outcome!r}: not an outcome of K5 with an effect")
        by_outcome[outcome] = effect
    rows: list[DamageRow] = []
    for index, raw in enumerate(fields.items("by_value")):
        row = Fields(raw, f"{fields.where}, row {index + 1}")
        rows.append(
            DamageRow(
                min=row.nullable_integer("min"),
                max=row.nullable_integer("max"),
                wound=row.slug("wound"),
            )
        )
        row.close()
    _check_value_rows(fields, rows)
    table = DamageTable(by_outcome=frozen(by_outcome), by_value=tuple(rows), ref=fields.text("ref"))
    fields.close()
    return table


def _check_value_rows(fields: Fields, rows: list[DamageRow]) -> None:
    """The rows must cover every damage value once: open below, contiguous, open above."""
    if not rows or rows[0].min is not None or rows[-1].max is not None:
        raise fields.error("by_value", "the first row must be open below and the last open above")
    for before, after in pairwise(rows):
        if before.max is None or after.min != before.max + 1:
            raise fields.error("by_value", f"rows {before} and {after} are not contiguous")
        if after.max is not None and after.max < after.min:
            raise fields.error("by_value", f"row {after} is empty")


def _read_wounds(fields: Fields) -> Wounds:
    rows: dict[str, Wound] = {}
    for index, raw in enumerate(fields.items("rows")):
        row = Fields(raw, f"{fields.where}, row {index + 1}")
        wound = Wound(**row.read(_WOUND))
        row.close()
        if [wound.sante_loss, wound.sante_set_to, wound.killed or None].count(None) != 2:
            raise row.error("sante_loss", "a wound takes Santé, sets it, or kills: exactly one")
        if wound.slug in rows:
            raise row.error("slug", f"{wound.slug!r} appears twice")
        rows[wound.slug] = wound
    wounds = Wounds(
        sante_floor=fields.integer("sante_floor"), rows=frozen(rows), ref=fields.text("ref")
    )
    fields.close()
    return wounds


def _read_death_roll(fields: Fields) -> DeathRoll:
    thresholds: dict[int, int | None] = {}
    for sante, threshold in fields.int_keyed("threshold_by_sante").items():
        if threshold is None or (isinstance(threshold, int) and not isinstance(threshold, bool)):
            thresholds[sante] = threshold
        else:
            raise fields.error("threshold_by_sante", f"Santé {sante}: expected a threshold or null")
    if sorted(thresholds) != list(range(1, 7)):
        raise fields.error("threshold_by_sante", "needs one row per Santé from 1 to 6")
    death_roll = DeathRoll(
        dice=fields.dice("dice"), threshold_by_sante=frozen(thresholds), ref=fields.text("ref")
    )
    fields.close()
    return death_roll


def _int_values(fields: Fields, key: str) -> dict[str, int]:
    result: dict[str, int] = {}
    for name, value in fields.mapping(key).items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise fields.error(key, f"{name!r}: expected an integer, got {value!r}")
        result[name] = value
    return result


def _int_keyed_ints(fields: Fields, key: str) -> dict[int, int]:
    result: dict[int, int] = {}
    for name, value in fields.int_keyed(key).items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise fields.error(key, f"{name}: expected an integer, got {value!r}")
        result[name] = value
    return result


def _read_ranged_db(fields: Fields) -> RangedDb:
    bands = _int_values(fields, "range_band_modifiers")
    if list(bands) != list(BANDS):
        raise fields.error("range_band_modifiers", f"expected the bands {list(BANDS)} in order")
    movement: list[MovementBand] = []
    for index, raw in enumerate(fields.items("target_movement_modifiers")):
        row = Fields(raw, f"{fields.where}, movement row {index + 1}")
        movement.append(
            MovementBand(
                min_cm=row.length("min_cm"),
                max_cm=row.nullable_length("max_cm"),
                db=row.integer("db"),
            )
        )
        row.close()
    ranged_db = RangedDb(
        base_db_by_expertise=frozen(_int_keyed_ints(fields, "base_db_by_expertise")),
        static_target_base_db=fields.integer("static_target_base_db"),
        range_band_modifiers=frozen(bands),
        target_movement_modifiers=tuple(movement),
        melee_extra_figure_modifier=fields.integer("melee_extra_figure_modifier"),
        ref=fields.text("ref"),
    )
    fields.close()
    return ranged_db


def _read_cover(fields: Fields) -> Cover:
    types: list[CoverType] = []
    for index, raw in enumerate(fields.items("types")):
        row = Fields(raw, f"{fields.where}, cover row {index + 1}")
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


def _read_cover_effects(row: Fields, key: str) -> Mapping[str, int | Literal["untouchable"]]:
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
    return frozen(effects)


def _read_keep_best(fields: Fields) -> KeepBestDice:
    dice: dict[int, str] = {}
    for db, expression in fields.int_keyed("dice").items():
        if not isinstance(expression, str):
            raise fields.error("dice", f"DB {db}: expected a dice expression")
        try:
            parse_dice(expression)
        except CatalogueError as exc:
            raise fields.error("dice", f"DB {db}: {exc}") from None
        dice[db] = expression
    keep_best = KeepBestDice(dice=frozen(dice), ref=fields.text("ref"))
    fields.close()
    return keep_best


def _read_effective_rank(fields: Fields) -> EffectiveRank:
    effective_rank = EffectiveRank(**fields.read(_EFFECTIVE_RANK))
    fields.close()
    return effective_rank


def _read_roll_outcomes(fields: Fields) -> RollOutcomes:
    outcomes = RollOutcomes(**fields.read(_ROLL_OUTCOMES))
    fields.close()
    return outcomes


def _read_melee_opposition(fields: Fields) -> MeleeOpposition:
    melee = MeleeOpposition(**fields.read(_MELEE_OPPOSITION))
    fields.close()
    return melee


def _read_starting_moral(fields: Fields) -> StartingMoral:
    moral = StartingMoral(**fields.read(_STARTING_MORAL))
    fields.close()
    return moral


def _frozen_int_values(fields: Fields, key: str) -> Mapping[str, int]:
    return frozen(_int_values(fields, key))


def _frozen_int_keyed_ints(fields: Fields, key: str) -> Mapping[int, int]:
    return frozen(_int_keyed_ints(fields, key))


# --- The fields of each record, in reading order: (JSON key, reader) -----------------------
# A record's dataclass field has the JSON key's name; the reader checks its type.

_F = Fields
DAMAGE_TYPE: Spec = (("label", _F.text), ("ref", _F.text))
RANK: Spec = (
    ("label", _F.text),
    ("number", _F.integer),
    ("pu", _F.integer),
    ("pp", _F.integer),
    ("success_threshold", _F.integer),
    ("ref", _F.text),
)
AFFILIATION: Spec = (
    ("label", _F.text),
    ("effect_666", _F.optional_text),
    ("archetypes", _F.slugs),
    ("named_only", _F.flag),
    ("ref", _F.text),
)
ARCHETYPE: Spec = (
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
MENTIONED: Spec = (("label", _F.text), ("summary", _F.text), ("ref", _F.text))
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
