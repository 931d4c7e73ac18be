"""The campaign settings of each game system: what its rule text leaves open (RULES-NOTES
C1), each with its stated default, its choices, the passage it interprets and the reading the
default makes. A campaign stores its choices; resolvers take them as their `settings` input.

Pure: reads the systems' catalogues; a system without open settings has none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems import UnknownSystem, system_get


def settings_of(system: str) -> dict[str, dict[str, Any]]:
    """key -> {default, choices, ref, reading} for the system (empty when none), as its
    declaration reads them (`GameSystem.open_settings`)."""
    try:
        open_settings = system_get(system).open_settings
    except UnknownSystem:
        return {}
    if open_settings is None:
        return {}
    settings = open_settings()
    return {
        key: {
            "default": s.default,
            "choices": list(s.choices),
            "ref": s.ref,
            "reading": s.reading,
        }
        for key, s in settings.items()
    }


def _read(value: Any, choices: list[Any]) -> Any:
    """A choice as typed in a form ("true", "5") or sent as JSON, as the catalogue has it."""
    for choice in choices:
        if value == choice and type(value) is type(choice):
            return choice
        if isinstance(value, str) and str(choice).lower() == value.lower():
            return choice
    raise ValueError(value)


def check_settings(system: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """The campaign's choices, each one of its setting's choices; a setting left out takes
    its default. Unknown settings are refused."""
    known = settings_of(system)
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise RuleInputError("settings", "unknown settings", kind="choice", choices=sorted(known))
    out: dict[str, Any] = {}
    for key, setting in known.items():
        if key not in values:
            out[key] = setting["default"]
            continue
        try:
            out[key] = _read(values[key], setting["choices"])
        except ValueError:
            raise RuleInputError(
                key,
                f"{key} is one of {setting['choices']}",
                kind="choice",
                choices=[str(c) for c in setting["choices"]],
            ) from None
    return out
