"""Reading one JSON object of the KOLAPS catalogue (`Fields`): each read checks the type,
names the entry and the field of a fault, and refuses the fields nobody read. Pure Python."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from rules.engine.systems.kolaps.catalogue_records import (
    SLUG,
    CatalogueError,
    Cost,
    Entry,
    parse_dice,
    parse_power,
)

# --- Reading: structure and types ---------------------------------------------------------


class Fields:
    """One JSON object being read. A failed read names the entry and the field; `close`
    refuses the fields nobody read, so a misspelt key is an error rather than ignored."""

    def __init__(self, raw: object, where: str) -> None:
        if not isinstance(raw, dict):
            raise CatalogueError(f"{where}: expected an object, got {_json_type(raw)}")
        self.raw: dict[str, object] = raw
        self.where = where
        self._read: set[str] = set()

    def error(self, key: str, problem: str) -> CatalogueError:
        return CatalogueError(f"{self.where}, field {key!r}: {problem}")

    def has(self, key: str) -> bool:
        return key in self.raw

    def value(self, key: str) -> object:
        self._read.add(key)
        if key not in self.raw:
            raise self.error(key, "is missing")
        return self.raw[key]

    def text(self, key: str) -> str:
        value = self.value(key)
        if not isinstance(value, str) or not value.strip():
            raise self.error(key, f"expected a non-empty string, got {_json_type(value)}")
        return value

    def optional_text(self, key: str) -> str | None:
        """A string that may be null or absent."""
        if self.raw.get(key) is None:
            self._read.add(key)
            return None
        return self.text(key)

    def slug(self, key: str) -> str:
        value = self.text(key)
        if not SLUG.fullmatch(value):
            raise self.error(key, f"{value!r} is not a slug (lower-case words joined by '-')")
        return value

    def nullable_slug(self, key: str) -> str | None:
        """A slug that must be present but may be null."""
        if self.value(key) is None:
            return None
        return self.slug(key)

    def integer(self, key: str) -> int:
        value = self.value(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, f"expected an integer, got {_json_type(value)}")
        return value

    def nullable_integer(self, key: str) -> int | None:
        if self.value(key) is None:
            return None
        return self.integer(key)

    def length(self, key: str) -> float:
        value = self.value(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise self.error(key, f"expected a length in cm (>= 0), got {value!r}")
        return float(value)

    def nullable_length(self, key: str) -> float | None:
        if self.value(key) is None:
            return None
        return self.length(key)

    def flag(self, key: str) -> bool:
        value = self.value(key)
        if not isinstance(value, bool):
            raise self.error(key, f"expected true or false, got {_json_type(value)}")
        return value

    def dice(self, key: str) -> str:
        value = self.text(key)
        try:
            parse_dice(value)
        except CatalogueError as exc:
            raise self.error(key, str(exc)) from None
        return value

    def power(self, key: str) -> str:
        value = self.text(key)
        try:
            parse_power(value)
        except CatalogueError as exc:
            raise self.error(key, str(exc)) from None
        return value

    def items(self, key: str) -> list[object]:
        value = self.value(key)
        if not isinstance(value, list):
            raise self.error(key, f"expected a list, got {_json_type(value)}")
        return value

    def slugs(self, key: str) -> tuple[str, ...]:
        values = self.items(key)
        for value in values:
            if not isinstance(value, str) or not SLUG.fullmatch(value):
                raise self.error(key, f"{value!r} is not a slug")
        if len(set(values)) != len(values):
            raise self.error(key, "lists a slug twice")
        return tuple(str(value) for value in values)

    def choice_groups(self, key: str) -> tuple[tuple[str, ...], ...]:
        groups: list[tuple[str, ...]] = []
        for number, group in enumerate(self.items(key), start=1):
            if not isinstance(group, list) or not group:
                raise self.error(key, f"group {number} is not a non-empty list of alternatives")
            for value in group:
                if not isinstance(value, str) or not SLUG.fullmatch(value):
                    raise self.error(key, f"group {number}: {value!r} is not a slug")
            groups.append(tuple(str(value) for value in group))
        return tuple(groups)

    def obj(self, key: str) -> Fields:
        return Fields(self.value(key), f"{self.where}, field {key!r}")

    def mapping(self, key: str) -> dict[str, object]:
        value = self.value(key)
        if not isinstance(value, dict):
            raise self.error(key, f"expected an object, got {_json_type(value)}")
        return value

    def int_keyed(self, key: str) -> dict[int, object]:
        """An object whose keys are integers written as strings ("6": ...)."""
        result: dict[int, object] = {}
        for name, value in self.mapping(key).items():
            try:
                result[int(name)] = value
            except ValueError:
                raise self.error(key, f"key {name!r} is not an integer") from None
        return result

    def cost(self, key: str) -> Cost:
        value = self.mapping(key)
        if len(value) != 1 or next(iter(value)) not in ("pp", "pu"):
            raise self.error(key, f'expected {{"pp": n}} or {{"pu": n}} (K2), got {value!r}')
        unit, amount = next(iter(value.items()))
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise self.error(key, f"a cost is a whole number of {unit.upper()} >= 0")
        return Cost(pp=amount) if unit == "pp" else Cost(pu=amount)

    def nullable_cost(self, key: str) -> Cost | None:
        if self.value(key) is None:
            return None
        return self.cost(key)

    def one_of(self, key: str, allowed: frozenset[str]) -> str:
        value = self.text(key)
        if value not in allowed:
            raise self.error(key, f"{value!r} is not one of {sorted(allowed)}")
        return value

    def read(self, spec: Spec) -> dict[str, Any]:
        """Read every field of `spec` in its order, each with its reader: the same checks
        and the same first error as reading them one by one."""
        return {key: reader(self, key) for key, reader in spec}

    def close(self) -> None:
        unknown = sorted(set(self.raw) - self._read)
        if unknown:
            raise CatalogueError(f"{self.where}: unknown field(s) {', '.join(map(repr, unknown))}")


Spec = tuple[tuple[str, Callable[[Fields, str], Any]], ...]


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}.get(
        type(value), "a list" if isinstance(value, list) else "an object"
    )


def frozen(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(mapping))


def section(
    root: Fields, key: str, entry_kind: str, read: Callable[[Fields, str], Entry]
) -> Mapping[str, Entry]:
    """Read a list of entries keyed by their unique slug."""
    entries: dict[str, Entry] = {}
    for index, raw in enumerate(root.items(key)):
        fields = Fields(raw, f"{entry_kind} #{index + 1}")
        slug = fields.slug("slug")
        fields.where = f"{entry_kind} {slug!r}"
        if slug in entries:
            raise CatalogueError(f"{fields.where}: the slug is used by two {entry_kind} entries")
        entries[slug] = read(fields, slug)
        fields.close()
    return MappingProxyType(entries)
