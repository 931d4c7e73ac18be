"""What a campaign export holds: the tables, how each row becomes JSON and back.

A whole campaign (docs/campaign-export.md) is the rows of `TABLES`, in an order where a row
only refers to rows of tables before it. Each row keeps its source id as `id`, only to be
referred to from inside the file; references to players become usernames (the `players`
list), references to another exported row its `id`, references to anything else (a roll
of the live table, a share token) are left out. Ids inside JSON values (a history line's
`chapter`, a ledger effect's `trauma`) are listed in `JSON_IDS` and renumbered on import.

The JSON Schema the import validates against is generated from the same tables
(`json_schema()`) and kept in `campaign-export.schema.json`; a test checks they agree.
"""

import datetime
import json
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.db import models

from campaigns.chapters.entries import SHEET_KINDS
from campaigns.models import (
    Ballot,
    Campaign,
    CampaignEvent,
    Chapter,
    ChapterArmyEntry,
    ChapterCorporatesEntry,
    ChapterModernEntry,
    ChapterOutcome,
    ChapterSettlement,
    ChapterUnitEntry,
    ChapterUnitResult,
    EncounterEvent,
    Membership,
    SettlementEntry,
    VocationAssignment,
    Vote,
)
from campaigns.transfer import game
from characters.corporates.models import CorporatesCharacter
from characters.models import (
    KolapsCharacter,
    KolapsUnit,
    Player,
    Profile,
    Rapid40kArmy,
    Rapid40kSquad,
    Trauma,
)
from characters.modern.models import ModernCharacter
from rules.engine.systems import uses_profiles

FORMAT = "chronique.campaign"
VERSION = 1
# The tables every export has held since version 1 began; any other may be left out.
CORE_TABLES = ("campaign", "memberships", "chapters")
SCHEMA_FILE = Path(__file__).with_name("campaign-export.schema.json")
# Never exported: secrets and what belongs to the instance, not to the campaign.
LEFT_OUT = {"share_token"}
# Never exported either: what a player keeps to themselves on their sheet. The campaign's
# pages (campaign, chapters, settlement, leaderboard, history) show an organiser a sheet's
# name, attributes, life markers, moral, status, survival points and active traumas, the
# cards and items a chapter requires against those carried, and the player's history where
# their visibility choices make it public (so these travel); the portrait, the description
# and a trauma's notes stay home.
PRIVATE = {
    Profile: {"portrait_url", "description"},
    Trauma: {"notes"},
    CorporatesCharacter: {"description"},
    ModernCharacter: {"description"},
}


@dataclass(frozen=True)
class Table:
    name: str  # the key of the document's `tables`
    model: type[models.Model]
    # The rows of a campaign: a filter on the model (one query).
    rows: Any
    m2m: tuple[str, ...] = ()
    fields: tuple[models.Field, ...] = field(default=(), compare=False)


def _units(campaign: Campaign) -> models.Q:
    entered = ChapterUnitEntry.objects.filter(chapter__campaign=campaign).values("unit_id")
    resulted = ChapterUnitResult.objects.filter(chapter__campaign=campaign).values("unit_id")
    return models.Q(pk__in=entered) | models.Q(pk__in=resulted)


def _armies(campaign: Campaign) -> models.Q:
    entered = ChapterArmyEntry.objects.filter(chapter__campaign=campaign).values("army_id")
    return models.Q(pk__in=entered)


def _corporates_sheets(campaign: Campaign) -> models.Q:
    """The Corporates character sheets entered into the campaign's chapters."""
    entered = ChapterCorporatesEntry.objects.filter(chapter__campaign=campaign)
    return models.Q(pk__in=entered.values("character_id"))


def _modern_sheets(campaign: Campaign) -> models.Q:
    """The modern RPG character sheets entered into the campaign's chapters."""
    entered = ChapterModernEntry.objects.filter(chapter__campaign=campaign)
    return models.Q(pk__in=entered.values("character_id"))


def _profiles(campaign: Campaign) -> models.Q:
    """The Of the Dead sheets of the campaign's players (an Of the Dead campaign only)."""
    if not uses_profiles(campaign.system):
        return models.Q(pk__in=[])
    return models.Q(player__in=Membership.objects.filter(campaign=campaign).values("player_id"))


def _unit_members(campaign: Campaign) -> models.Q:
    return models.Q(unit__in=KolapsUnit.objects.filter(_units(campaign)))


def _army_squads(campaign: Campaign) -> models.Q:
    return models.Q(army__in=Rapid40kArmy.objects.filter(_armies(campaign)))


def _profile_traumas(campaign: Campaign) -> models.Q:
    """The traumas of those sheets taken in this campaign's chapters (never another's)."""
    return models.Q(profile__in=Profile.objects.filter(_profiles(campaign))) & models.Q(
        chapter__campaign=campaign
    )


_TABLES = (
    ("campaign", Campaign, lambda c: models.Q(pk=c.pk), ()),
    ("memberships", Membership, lambda c: models.Q(campaign=c), ()),
    ("chapters", Chapter, lambda c: models.Q(campaign=c), ()),
    ("votes", Vote, lambda c: models.Q(campaign=c), ("candidates",)),
    ("ballots", Ballot, lambda c: models.Q(vote__campaign=c), ()),
    ("vocations", VocationAssignment, lambda c: models.Q(chapter__campaign=c), ()),
    # Before the outcomes: a close's record names the sheet it carries to (`sheet`).
    ("corporates_characters", CorporatesCharacter, _corporates_sheets, ()),
    ("corporates_entries", ChapterCorporatesEntry, lambda c: models.Q(chapter__campaign=c), ()),
    ("modern_characters", ModernCharacter, _modern_sheets, ()),
    ("modern_entries", ChapterModernEntry, lambda c: models.Q(chapter__campaign=c), ()),
    ("outcomes", ChapterOutcome, lambda c: models.Q(chapter__campaign=c), ()),
    ("kolaps_units", KolapsUnit, _units, ()),
    ("kolaps_characters", KolapsCharacter, _unit_members, ()),
    ("unit_entries", ChapterUnitEntry, lambda c: models.Q(chapter__campaign=c), ()),
    ("unit_results", ChapterUnitResult, lambda c: models.Q(chapter__campaign=c), ()),
    ("rapid40k_armies", Rapid40kArmy, _armies, ()),
    ("rapid40k_squads", Rapid40kSquad, _army_squads, ()),
    ("army_entries", ChapterArmyEntry, lambda c: models.Q(chapter__campaign=c), ()),
    ("profiles", Profile, _profiles, ()),
    ("traumas", Trauma, _profile_traumas, ()),
    ("encounter_events", EncounterEvent, lambda c: models.Q(chapter__campaign=c), ()),
    ("settlements", ChapterSettlement, lambda c: models.Q(chapter__campaign=c), ()),
    ("ledger", SettlementEntry, lambda c: models.Q(campaign=c), ()),
    ("history", CampaignEvent, lambda c: models.Q(campaign=c), ()),
)  # fmt: skip


def _fields(model: type[models.Model]) -> tuple[models.Field, ...]:
    return tuple(
        f
        for f in model._meta.concrete_fields
        if not f.primary_key
        and f.name not in LEFT_OUT
        and f.name not in PRIVATE.get(model, ())
        and not _is_outside_reference(f)
    )


MODELS = {model for _name, model, _rows, _m2m in _TABLES}


def _is_outside_reference(f: models.Field) -> bool:
    """A reference to a row the file does not carry (a roll of the live table): left out,
    so the field must accept null."""
    return bool(f.is_relation and f.related_model is not Player and f.related_model not in MODELS)


TABLES = tuple(Table(name, model, rows, m2m, _fields(model)) for name, model, rows, m2m in _TABLES)
TABLE_OF = {t.model: t for t in TABLES}

# Ids inside JSON values: (table, field, key) → the table the id belongs to (`SHEETS`: the
# character sheets of the campaign's system, `id_table`).
SHEETS = "sheets"
JSON_IDS = {
    ("history", "data", "chapter"): "chapters",
    ("history", "data", "vote"): "votes",
    ("history", "data", "unit"): "kolaps_units",
    ("ledger", "effects", "trauma"): "traumas",
    ("outcomes", "record", "sheet"): SHEETS,
}
# Each roleplaying system's tables of chapter entries and of the sheets they enter, read
# from the systems' declarations (`CampaignSystem.entry_kind`).
SHEET_TABLES: dict[str, tuple[str, str]] = {
    slug: (TABLE_OF[kind.entry].name, TABLE_OF[kind.roster].name)
    for slug, kind in SHEET_KINDS.items()
}


def id_table(target: str, system: str) -> str | None:
    """The table a JSON id of `JSON_IDS` belongs to in a campaign of `system` (None: a
    system without sheets, whose rows name none)."""
    if target != SHEETS:
        return target
    tables = SHEET_TABLES.get(system)
    return tables[1] if tables else None


# --- Rows to JSON and back -----------------------------------------------------------------


def value_out(f: models.Field, value: Any) -> Any:
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    return value


def key_of(f: models.Field) -> str:
    """The field's key in a row: its name, a reference's name without `_id`."""
    return f.name


# What the databases accept (PostgreSQL's columns), so that no number reaches them unbounded.
_RANGES = {
    "SmallIntegerField": (-32768, 32767),
    "PositiveSmallIntegerField": (0, 32767),
    "IntegerField": (-2147483648, 2147483647),
    "PositiveIntegerField": (0, 2147483647),
    "BigIntegerField": (-(2**63), 2**63 - 1),
    "PositiveBigIntegerField": (0, 2**63 - 1),
}
ID = {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}
# RFC 3339 with its offset, as `datetime.isoformat()` writes it (years 1000-9999).
DATE_TIME = r"^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$"
# `(?!\n)`: Python's `$` also matches before a final newline ("alice\n"); ECMA's does not.
USERNAME_PATTERN = r"^[\w.@+-]+$(?!\n)"
USERNAME = {"type": "string", "minLength": 1, "maxLength": 150, "pattern": USERNAME_PATTERN}
# The deepest nesting a JSON value of a row may have (services._check_json counts it).
JSON_DEPTH = 16
# JSON values whose shape the pages rely on beyond their default's type.
JSON_SHAPES: dict[tuple[str, str], dict] = {
    ("ledger", "effects"): {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"op": {"type": "string", "minLength": 1, "maxLength": 40}},
            "required": ["op"],
        },
    },
}


def json_field_type(table: str, f: models.JSONField) -> dict:
    """A JSON column: the shape the rules or its pages read, else the type of its default
    (an object or an array), else (no default) any JSON value or null."""
    if (table, f.name) in game.JSON_RULES:
        return dict(game.JSON_RULES[table, f.name])
    if (table, f.name) in JSON_SHAPES:
        return dict(JSON_SHAPES[table, f.name])
    default = f.default if f.has_default() else None
    if default is dict:
        return {"type": "object"}
    if default is list:
        return {"type": "array"}
    return {}


def json_type(f: models.Field, table: str = "") -> dict:
    """The JSON Schema of one field."""
    if f.is_relation:
        schema: dict = (
            {"type": "string", "maxLength": 150} if f.related_model is Player else dict(ID)
        )
    elif isinstance(f, models.JSONField):
        schema = json_field_type(table, f)
    elif isinstance(f, models.BooleanField):
        schema = {"type": "boolean"}
    elif isinstance(f, models.IntegerField):
        low, high = _RANGES.get(type(f).__name__, _RANGES["BigIntegerField"])
        # The rules' range, as the API enforces it, where a player or organiser sets it.
        low, high = game.RULE_RANGES.get((table, f.name), (low, high))
        schema = {"type": "integer", "minimum": low, "maximum": high}
    elif isinstance(f, models.FloatField):
        schema = {"type": "number"}
    elif isinstance(f, models.DecimalField):
        schema = {"type": "string"}
    elif isinstance(f, models.DateTimeField):
        schema = {"type": "string", "format": "date-time", "pattern": DATE_TIME}
    elif isinstance(f, models.DateField):
        schema = {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
    elif isinstance(f, models.CharField | models.TextField | models.EmailField):
        schema = {"type": "string"}
        if getattr(f, "max_length", None):
            schema["maxLength"] = f.max_length
    else:  # pragma: no cover - a new kind of field must be described here first
        raise TypeError(f"{f.model.__name__}.{f.name}: {type(f).__name__}")
    if f.choices and not f.is_relation:
        schema["enum"] = [value for value, _label in f.flatchoices]
        if f.blank and "" not in schema["enum"]:
            schema["enum"].append("")
        if f.null:
            schema["enum"].append(None)
    if f.null and "type" in schema:
        schema["type"] = [schema["type"], "null"]
    return schema


def required(f: models.Field) -> bool:
    """A column a row must hold: one without a default. A column added later with a default
    (or that accepts null) keeps the files written before it importable."""
    return not (
        f.has_default()
        or f.null
        or (f.blank and f.empty_strings_allowed)
        or getattr(f, "auto_now_add", False)
    )


def json_schema() -> dict:
    """The JSON Schema (2020-12) of a campaign export, generated from `TABLES`."""
    tables = {}
    for table in TABLES:
        properties: dict = {"id": dict(ID)}
        for f in table.fields:
            properties[key_of(f)] = json_type(f, table.name)
        for name in table.m2m:
            properties[name] = {"type": "array", "items": dict(ID)}
        tables[table.name] = {
            "type": "array",
            "items": {
                "type": "object",
                "properties": properties,
                "required": sorted(["id", *(key_of(f) for f in table.fields if required(f))]),
                "additionalProperties": False,
            },
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://chronique.example/schemas/campaign-export-1.json",
        "title": "Chronique campaign export, version 1 (docs/campaign-export.md)",
        "type": "object",
        "properties": {
            "format": {"const": FORMAT},
            "version": {"const": VERSION},
            "exported_at": {"type": "string", "format": "date-time", "pattern": DATE_TIME},
            "players": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "username": USERNAME,
                        "display_name": {"type": "string", "maxLength": 80},
                    },
                    "required": ["username", "display_name"],
                    "additionalProperties": False,
                },
            },
            "tables": {
                "type": "object",
                "properties": tables,
                # A table added since version 1 (the sheets of 2026-11-28) may be missing
                # from an older file: it is read as empty (`campaigns.transfer.services`).
                "required": sorted(CORE_TABLES),
                "additionalProperties": False,
            },
        },
        "required": ["format", "version", "exported_at", "players", "tables"],
        "additionalProperties": False,
    }


def schema_text() -> str:
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
