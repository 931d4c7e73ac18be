"""Reading the JSON bodies of the KOLAPS resolvers: one refusal per bad field.

Every check raises `RuleInputError` with the dotted path of the field at fault
(`target.cover`, `attacker.talents`) and `params` the web layer turns into a translated
sentence: `kind` is one of `integer`, `choice`, `flag`, `object`, `talents`, `dice`,
`list`, with the bounds or choices that make the sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.engine.errors import RuleInputError

_MISSING = object()


def section(data: Mapping[str, Any], key: str, path: str = "") -> Mapping[str, Any]:
    """A nested object (absent means empty)."""
    field = f"{path}{key}"
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise RuleInputError(field, f"{field} is an object", kind="object")
    return value


def integer(
    data: Mapping[str, Any],
    key: str,
    lo: int,
    hi: int,
    default: Any = _MISSING,
    path: str = "",
) -> int:
    field = f"{path}{key}"
    value = data.get(key, default)
    if value is _MISSING or isinstance(value, bool) or not isinstance(value, int):
        raise RuleInputError(field, f"{field} is a whole number", kind="integer", lo=lo, hi=hi)
    number: int = value
    if not lo <= number <= hi:
        raise RuleInputError(
            field, f"{field} lies between {lo} and {hi}", kind="integer", lo=lo, hi=hi
        )
    return number


def number(
    data: Mapping[str, Any], key: str, lo: float, hi: float, default: Any = _MISSING, path: str = ""
) -> float:
    field = f"{path}{key}"
    value = data.get(key, default)
    if value is _MISSING or isinstance(value, bool) or not isinstance(value, int | float):
        raise RuleInputError(field, f"{field} is a number", kind="integer", lo=lo, hi=hi)
    if not lo <= value <= hi:
        raise RuleInputError(
            field, f"{field} lies between {lo} and {hi}", kind="integer", lo=lo, hi=hi
        )
    return float(value)


def choice(
    data: Mapping[str, Any],
    key: str,
    choices: Iterable[str],
    default: Any = _MISSING,
    path: str = "",
) -> str:
    field = f"{path}{key}"
    allowed = list(choices)
    value = data.get(key, default)
    if value is _MISSING or value not in allowed:
        raise RuleInputError(
            field, f"{field} is one of {', '.join(allowed)}", kind="choice", choices=allowed
        )
    return str(value)


def optional_choice(
    data: Mapping[str, Any], key: str, choices: Iterable[str], path: str = ""
) -> str | None:
    if data.get(key) is None:
        return None
    return choice(data, key, choices, path=path)


def flag(data: Mapping[str, Any], key: str, default: bool = False, path: str = "") -> bool:
    field = f"{path}{key}"
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise RuleInputError(field, f"{field} is true or false", kind="flag")
    return value


def slugs(
    data: Mapping[str, Any], key: str, choices: Iterable[str], path: str = ""
) -> tuple[str, ...]:
    """A list of names, each one of `choices`, none twice."""
    field = f"{path}{key}"
    allowed = list(choices)
    value = data.get(key, [])
    if (
        not isinstance(value, list)
        or any(item not in allowed for item in value)
        or len(set(value)) != len(value)
    ):
        raise RuleInputError(
            field, f"{field} lists names among {', '.join(allowed)}", kind="list", choices=allowed
        )
    return tuple(value)


def talents(
    data: Mapping[str, Any], key: str, levels: Mapping[str, tuple[int, ...]], path: str = ""
) -> dict[str, int]:
    """`{"fusil": 2, ...}`: catalogue talent slugs and one of each talent's levels."""
    field = f"{path}{key}"
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise RuleInputError(field, f"{field} maps talent slugs to levels", kind="talents")
    out: dict[str, int] = {}
    for slug, level in value.items():
        if slug not in levels or isinstance(level, bool) or level not in levels[slug]:
            raise RuleInputError(
                field, f"{field}: {slug!r} is not a talent at level {level!r}", kind="talents"
            )
        out[str(slug)] = int(level)
    return out
