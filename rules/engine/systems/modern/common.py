"""What every modern RPG resolver reads the same way: the campaign's open settings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.systems import setting
from rules.engine.systems.modern.catalogue import Catalogue


def chosen_settings(data: Mapping[str, Any], catalogue: Catalogue) -> dict[str, Any]:
    """The campaign's open settings in the body, read against this catalogue's."""
    return setting.chosen_settings(data, catalogue.settings)


def exact(value: Any) -> str:
    return f"{value.numerator}/{value.denominator}"
