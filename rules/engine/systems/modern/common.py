"""What every modern RPG resolver reads the same way: the campaign's open settings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.modern.catalogue import Catalogue


def chosen_settings(data: Mapping[str, Any], catalogue: Catalogue) -> dict[str, Any]:
    """The campaign's open settings (`settings` in the body), each one of its choices; the
    missing ones take the catalogue's stated default."""
    given = inputs.section(data, "settings")
    out: dict[str, Any] = {}
    for key, setting in catalogue.settings.items():
        value = given.get(key, setting.default)
        if value not in setting.choices or type(value) is not type(setting.default):
            raise RuleInputError(
                f"settings.{key}",
                f"settings.{key} is one of {setting.choices}",
                kind="choice",
                choices=[str(c) for c in setting.choices],
            )
        out[key] = value
    if set(given) - set(catalogue.settings):
        raise RuleInputError(
            "settings", "unknown settings", kind="choice", choices=sorted(catalogue.settings)
        )
    return out


def exact(value: Any) -> str:
    return f"{value.numerator}/{value.denominator}"
