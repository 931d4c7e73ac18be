"""The Corporates rules catalogue: every number of the combat chapter, as data.

Why a data file (`catalogues/<version>.json`): the text (`shared/seeds/003_fde41e4e6014fd0d.txt`,
read through RULES-NOTES C1) is a web page that will be revised; a table of numbers is reviewed
against it, diffed and versioned far more easily than numbers spread through `if`s. Each section
carries a `ref` to the passage it transcribes.

Why it is validated when loaded: a data file has no compiler. The loader checks every section,
key and type, that banded tables ascend and end open, that the declared-action schedule has as
many segments as actions, and that each setting's default is one of its choices, and refuses a
broken file with one `CatalogueError` naming the place.

`settings` are what the text leaves open (reading C1): each has a default, its choices, the
passage it interprets and the reading the default makes; a campaign may choose another value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from rules.engine.systems.setting import Setting, read_settings

CATALOGUES_DIR: Final = Path(__file__).with_name("catalogues")
CURRENT_VERSION: Final = "2026.11.1"


class CatalogueError(ValueError):
    """The catalogue file is malformed."""


@dataclass(frozen=True)
class Band:
    """One row of a banded table: values up to `at_most` (None: and above)."""

    at_most: int | None
    key: str
    row: Mapping[str, Any]


@dataclass(frozen=True)
class Catalogue:
    version: str
    settings: Mapping[str, Setting]
    actions: Mapping[str, Any]
    schedule: Mapping[int, tuple[int, ...]]
    malus_dice: Mapping[int, int]
    shot: Mapping[str, Any]
    damage: Mapping[str, Any]
    burst: Mapping[str, Any]
    criticals: tuple[Band, ...]
    cyber_locations: tuple[Band, ...]
    cyber_effects: tuple[Band, ...]
    melee: Mapping[str, Any]
    sheet: Mapping[str, Any]

    def setting(self, key: str, chosen: Mapping[str, Any] | None = None) -> Any:
        """The campaign's value of an open setting, or the catalogue's stated default."""
        setting = self.settings[key]
        if chosen and key in chosen:
            return chosen[key]
        return setting.default


def _section(data: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise CatalogueError(f"{where}.{key} is missing or not an object")
    return value


def _ints(data: Mapping[str, Any], where: str) -> dict[str, int]:
    for key, value in data.items():
        if key != "ref" and (isinstance(value, bool) or not isinstance(value, int)):
            raise CatalogueError(f"{where}.{key} is not a whole number")
    return {k: v for k, v in data.items() if k != "ref"}


def _bands(rows: Any, where: str) -> tuple[Band, ...]:
    if not isinstance(rows, list) or not rows:
        raise CatalogueError(f"{where} is not a list of rows")
    bands: list[Band] = []
    previous = None
    for index, row in enumerate(rows):
        at_most = row.get("at_most") if isinstance(row, dict) else "?"
        key = row.get("key") if isinstance(row, dict) else None
        if not isinstance(key, str) or not (at_most is None or isinstance(at_most, int)):
            raise CatalogueError(f"{where}[{index}] needs a key and an at_most")
        if at_most is None and index != len(rows) - 1:
            raise CatalogueError(f"{where}[{index}]: only the last row is open")
        if previous is not None and at_most is not None and at_most <= previous:
            raise CatalogueError(f"{where}[{index}]: rows must ascend")
        previous = at_most
        bands.append(Band(at_most, key, MappingProxyType(dict(row))))
    return tuple(bands)


def _settings(data: Mapping[str, Any]) -> dict[str, Setting]:
    return read_settings(data, CatalogueError)


def band_of(bands: tuple[Band, ...], value: int) -> Band:
    """The row of a banded table that holds `value`."""
    for band in bands:
        if band.at_most is None or value <= band.at_most:
            return band
    return bands[-1]


def parse_catalogue(data: Mapping[str, Any]) -> Catalogue:
    """Validate a decoded catalogue file and freeze it."""
    if data.get("system") != "corporates" or not isinstance(data.get("version"), str):
        raise CatalogueError("not a Corporates catalogue with a version")
    actions = _section(data, "actions", "")
    segments = actions.get("segments")
    schedule: dict[int, tuple[int, ...]] = {}
    for count, cells in _section(actions, "schedule", "actions").items():
        slots = tuple(cells)
        if len(slots) != int(count) or any(not 1 <= s <= segments for s in slots):
            raise CatalogueError(f"actions.schedule.{count}: {count} segments from 1 to {segments}")
        schedule[int(count)] = slots
    malus = {int(k): v for k, v in _ints(_section(actions, "malus_dice", "actions"), "").items()}
    if set(malus) != set(schedule):
        raise CatalogueError("actions.malus_dice names the same counts as actions.schedule")
    shot = _section(data, "shot", "")
    for table in ("range_base", "size", "movement", "protection", "crowd", "reflex_difficulty"):
        _ints(_section(shot, table, "shot"), f"shot.{table}")
    damage = _section(data, "damage", "")
    for kind, split in _section(damage, "split", "damage").items():
        if split.get("first") not in ("fatigue", "wound") or not {"fatigue", "wound"} <= set(split):
            raise CatalogueError(f"damage.split.{kind} needs fatigue, wound and first")
    burst = _section(data, "burst", "")
    if set(_section(burst, "fire_bonus", "burst")) != set(
        _section(burst, "ammunition_per_second", "burst")
    ):
        raise CatalogueError("burst.fire_bonus and burst.ammunition_per_second name the same modes")
    criticals = _section(data, "criticals", "")
    cyber = _section(data, "cybernetics", "")
    sheet = _section(data, "sheet", "")
    for name, bounds in _section(sheet, "numbers", "sheet").items():
        lo, hi, default = bounds.get("min"), bounds.get("max"), bounds.get("default")
        if not all(isinstance(v, int) for v in (lo, hi, default)) or not lo <= default <= hi:
            raise CatalogueError(f"sheet.numbers.{name} needs min <= default <= max")
    if sheet.get("weapon_default") not in damage["split"]:
        raise CatalogueError("sheet.weapon_default is one of damage.split")
    if not isinstance(sheet.get("levels_max"), int) or sheet["levels_max"] < 1:
        raise CatalogueError("sheet.levels_max is a whole number from 1")
    return Catalogue(
        version=data["version"],
        settings=MappingProxyType(_settings(_section(data, "settings", ""))),
        actions=MappingProxyType(actions),
        schedule=MappingProxyType(schedule),
        malus_dice=MappingProxyType(malus),
        shot=MappingProxyType(shot),
        damage=MappingProxyType(damage),
        burst=MappingProxyType(burst),
        criticals=_bands(criticals.get("rows"), "criticals.rows"),
        cyber_locations=_bands(cyber.get("locations"), "cybernetics.locations"),
        cyber_effects=_bands(cyber.get("effects"), "cybernetics.effects"),
        melee=MappingProxyType(_section(data, "melee", "")),
        sheet=MappingProxyType(sheet),
    )


@cache
def load_catalogue(version: str = CURRENT_VERSION) -> Catalogue:
    path = CATALOGUES_DIR / f"{version}.json"
    if not path.is_file():
        raise CatalogueError(f"no Corporates catalogue {version}")
    return parse_catalogue(json.loads(path.read_text(encoding="utf-8")))
