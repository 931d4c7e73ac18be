"""One open setting (reading C1): where a rule text leaves a choice open, its catalogue names the
choices, the stated default and the passage read; a campaign picks one, and a resolver's
body carries the campaign's picks under `settings`. Shared by every system that has them;
`open_settings` lists them per system for the campaign pages."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import inputs


@dataclass(frozen=True)
class Setting:
    key: str
    default: Any
    choices: tuple[Any, ...]
    ref: str
    reading: str


def read_settings(data: Mapping[str, Any], error: type[Exception]) -> dict[str, Setting]:
    """A catalogue's `settings` section, validated (`error` is the catalogue's own)."""
    out: dict[str, Setting] = {}
    for key, entry in data.items():
        where = f"settings.{key}"
        if not isinstance(entry, dict) or not {"default", "choices", "ref", "reading"} <= set(
            entry
        ):
            raise error(f"{where} needs default, choices, ref and reading")
        if entry["default"] not in entry["choices"]:
            raise error(f"{where}: the default is not one of the choices")
        out[key] = Setting(
            key, entry["default"], tuple(entry["choices"]), entry["ref"], entry["reading"]
        )
    return out


def chosen_settings(data: Mapping[str, Any], settings: Mapping[str, Setting]) -> dict[str, Any]:
    """The campaign's open settings (`settings` in the body), each one of its choices; the
    missing ones take the catalogue's stated default."""
    given = inputs.section(data, "settings")
    out: dict[str, Any] = {}
    for key, setting in settings.items():
        value = given.get(key, setting.default)
        if value not in setting.choices or type(value) is not type(setting.default):
            raise RuleInputError(
                f"settings.{key}",
                f"settings.{key} is one of {setting.choices}",
                kind="choice",
                choices=[str(c) for c in setting.choices],
            )
        out[key] = value
    if set(given) - set(settings):
        raise RuleInputError(
            "settings", "unknown settings", kind="choice", choices=sorted(settings)
        )
    return out
