"""A Corporates character sheet checked against the catalogue (`sheet` section).

The combat chapter has no character creation: what a character brings to a roll is a pool
of d6 and a flat bonus ("Les actions"), skill levels the defence adds ("Défenseur engagé :
Compétence de combat + Esquive + Bonus de défense des armes + Niveau réflexes câblés"), a
weapon's damage and its kind ("Répartition des niveaux de dommages") and a soak ("le
défenseur un jet d'encaissement"). The catalogue names each number with the range the
resolvers accept and a default; fatigue and wound levels are the damage a character
carries from session to session (RULES-NOTES CL3).

`check_sheet` never raises: it answers every problem (a code and its numbers) so a page can
show them; a service refuses to save a sheet that has any.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.systems.corporates.catalogue import Catalogue, load_catalogue


@dataclass(frozen=True)
class Problem:
    code: str
    params: Mapping[str, Any]


def sheet_defaults(catalogue: Catalogue | None = None) -> dict[str, int]:
    """Every number of a new sheet at the catalogue's default."""
    catalogue = catalogue or load_catalogue()
    return {name: bounds["default"] for name, bounds in catalogue.sheet["numbers"].items()}


def weapon_kinds(catalogue: Catalogue | None = None) -> tuple[str, ...]:
    """The damage kinds a melee weapon may be ("Répartition des niveaux de dommages")."""
    catalogue = catalogue or load_catalogue()
    return tuple(catalogue.damage["split"])


def check_sheet(
    numbers: Mapping[str, Any],
    weapon: str,
    fatigue: Any,
    wounds: Any,
    catalogue: Catalogue | None = None,
) -> tuple[Problem, ...]:
    """Every way the sheet leaves the catalogue: a number unknown, missing or out of its
    range, a weapon kind the damage table does not split, levels out of 0..levels_max."""
    catalogue = catalogue or load_catalogue()
    bounds_of = catalogue.sheet["numbers"]
    problems: list[Problem] = []
    unknown = sorted(set(numbers) - set(bounds_of))
    if unknown:
        problems.append(Problem("unknown_number", {"names": unknown}))
    for name, bounds in bounds_of.items():
        value = numbers.get(name)
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append(Problem("number_missing", {"name": name}))
        elif not bounds["min"] <= value <= bounds["max"]:
            problems.append(
                Problem("number_range", {"name": name, "lo": bounds["min"], "hi": bounds["max"]})
            )
    if weapon not in catalogue.damage["split"]:
        problems.append(Problem("weapon", {"kinds": list(catalogue.damage["split"])}))
    top = catalogue.sheet["levels_max"]
    for name, value in (("fatigue", fatigue), ("wounds", wounds)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
            problems.append(Problem("levels", {"name": name, "hi": top}))
    return tuple(problems)
