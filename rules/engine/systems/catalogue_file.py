"""Reading a shipped catalogue file, the same way for every system that ships versions.

Each system keeps its own schema, reader and error type; what is alike (a file that cannot
be read or is not JSON, a file whose content names another version than its name) is
refused here with the system's own error, so every catalogue says it in the same words.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar


class _Versioned(Protocol):
    @property
    def version(self) -> str: ...


C = TypeVar("C", bound=_Versioned)


def read_json(path: Path, error: type[Exception]) -> Any:
    """The file's JSON; one that cannot be read or parsed raises `error` naming it."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read the catalogue {path}: {exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{path.name} is not valid JSON: {exc}") from exc


def load_version(
    directory: Path, version: str, load: Callable[[Path], C], error: type[Exception]
) -> C:
    """The shipped `version` (`<directory>/<version>.json`), refused when the file says it is
    another version: a catalogue is cited by its version, so the two must agree."""
    catalogue = load(directory / f"{version}.json")
    if catalogue.version != version:
        raise error(f"{version}.json says it is version {catalogue.version!r}")
    return catalogue
