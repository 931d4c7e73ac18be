"""The pieces the resolvers' input JSON schemas are built from, shared by every system.

A resolver's schema is what the API documents and the calculators' forms are drawn from;
these helpers keep the pieces every system writes alike (a bounded integer, the dice an
`evaluate` call names, the campaign's open settings) spelled one way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.systems.setting import Setting


def integer(lo: int, hi: int, description: str, default: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "integer",
        "minimum": lo,
        "maximum": hi,
        "description": description,
    }
    if default is not None:
        out["default"] = default
    return out


def schema_object(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema of an object with its required properties."""
    return {"type": "object", "required": required, "properties": properties}


def faces(description: str, sides: int = 6) -> dict[str, Any]:
    """Dice given rather than rolled (`evaluate`): each face from 1 to `sides`."""
    return {
        "type": "array",
        "items": {"type": "integer", "minimum": 1, "maximum": sides},
        "description": f"evaluate only: {description}",
    }


def settings_schema(settings: Mapping[str, Setting]) -> dict[str, Any]:
    """The campaign's picks where the text is open (reading C1), as a body's `settings`."""
    return {
        "type": "object",
        "description": "the campaign's choices where the text is open (docs/rules.md)",
        "properties": {
            key: {"enum": list(s.choices), "default": s.default, "description": s.reading}
            for key, s in settings.items()
        },
    }


def object_with_settings(
    required: list[str], properties: dict[str, Any], settings: dict[str, Any]
) -> dict[str, Any]:
    """A resolver's body: its fields and the campaign's open `settings`."""
    return {
        "type": "object",
        "required": required,
        "properties": {**properties, "settings": settings},
    }
