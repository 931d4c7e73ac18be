"""The modern RPG rules catalogue: thresholds, attitudes, protections, creation budget and
chase tables, as data (`catalogues/<version>.json`).

Why a data file: the text (`shared/seeds/001_0b8cdc51948c6499.txt`, RULES-NOTES C1) is a
working draft; a versioned table is reviewed against it and diffed, and a character records
the version it was built with. Why validated at load: a data file has no compiler, so the
loader checks every section, that attitudes name the same keys in `order` and `rows`, that
die sides are ones the dice know, and that each open setting's default is one of its
choices, and refuses a broken file with one `CatalogueError` naming the place.
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
ATTITUDE_FIELDS: Final = frozenset(
    {"own_shift", "target_shift", "protection", "ammo_max", "ammo_bonus", "initiative_die", "melee"}
)


class CatalogueError(ValueError):
    """The catalogue file is malformed."""


@dataclass(frozen=True)
class Catalogue:
    version: str
    settings: Mapping[str, Setting]
    dice: Mapping[str, Any]
    attitude_order: tuple[str, ...]
    attitudes: Mapping[str, Mapping[str, Any]]
    protection: Mapping[str, Any]
    ranges: tuple[str, ...]
    creation: Mapping[str, Any]
    chase: Mapping[str, Any]


def _section(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise CatalogueError(f"{key} is missing or not an object")
    return value


def _settings(data: Mapping[str, Any]) -> dict[str, Setting]:
    return read_settings(data, CatalogueError)


def parse_catalogue(data: Mapping[str, Any]) -> Catalogue:
    """Validate a decoded catalogue file and freeze it."""
    if data.get("system") != "modern-rpg" or not isinstance(data.get("version"), str):
        raise CatalogueError("not a modern RPG catalogue with a version")
    dice = _section(data, "dice")
    sides = dice.get("sides")
    if not isinstance(sides, list) or not all(isinstance(s, int) and s >= 2 for s in sides):
        raise CatalogueError("dice.sides lists die sizes")
    attitudes = _section(data, "attitudes")
    order = attitudes.get("order")
    rows = _section(attitudes, "rows")
    if not isinstance(order, list) or set(order) != set(rows):
        raise CatalogueError("attitudes.order and attitudes.rows name the same attitudes")
    for key, row in rows.items():
        if set(row) != ATTITUDE_FIELDS:
            raise CatalogueError(f"attitudes.rows.{key} has exactly {sorted(ATTITUDE_FIELDS)}")
        if row["protection"] and row["protection"] not in sides:
            raise CatalogueError(f"attitudes.rows.{key}.protection is not a die size")
    creation = _section(data, "creation")
    for key in (
        "characteristic_total",
        "xp",
        "speciality_cost",
        "speciality_increase",
        "skill_level_max",
    ):
        if not isinstance(creation.get(key), int):
            raise CatalogueError(f"creation.{key} is a whole number")
    if not set(creation.get("stress_threshold_from", [])) <= set(creation["characteristics"]):
        raise CatalogueError("creation.stress_threshold_from names characteristics")
    skills = creation.get("skills")
    if not isinstance(skills, list) or len(set(skills)) != len(skills) or not skills:
        raise CatalogueError("creation.skills lists each skill once")
    specialities = creation.get("specialities")
    if not isinstance(specialities, dict) or not set(specialities.values()) <= set(
        creation["characteristics"]
    ):
        raise CatalogueError("creation.specialities gives each speciality its characteristic")
    chase = _section(data, "chase")
    for terrain, events in _section(chase, "events").items():
        keys = [e.get("key") for e in events]
        if len(set(keys)) != len(keys) or not all(isinstance(k, str) for k in keys):
            raise CatalogueError(f"chase.events.{terrain}: one key per event")
    return Catalogue(
        version=data["version"],
        settings=MappingProxyType(_settings(_section(data, "settings"))),
        dice=MappingProxyType(dice),
        attitude_order=tuple(order),
        attitudes=MappingProxyType({k: MappingProxyType(v) for k, v in rows.items()}),
        protection=MappingProxyType(_section(data, "protection")),
        ranges=tuple(_section(data, "ranges")["bands"]),
        creation=MappingProxyType(creation),
        chase=MappingProxyType(chase),
    )


@cache
def load_catalogue(version: str = CURRENT_VERSION) -> Catalogue:
    path = CATALOGUES_DIR / f"{version}.json"
    if not path.is_file():
        raise CatalogueError(f"no modern RPG catalogue {version}")
    return parse_catalogue(json.loads(path.read_text(encoding="utf-8")))
