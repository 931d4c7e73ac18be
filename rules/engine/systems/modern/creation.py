"""Character creation checked as it is built (Création personnage, Spécialités).

"le total des caractéristiques est de 36"; "Répartir 30 XP dans les compétences ou
spécialités"; "Le cout de base d'une spécialité est de 3 XP. Mais ce cout augmente de 2 pour
chaque spécialité dépendant de la même caractéristique. Il est donc possible d'acheter 4
spécialités pour 3 XP chacunes mais dans les 4 caractéristiques différentes." A skill level
costs the catalogue's `skill_level_cost` (the text gives no price: 1 XP a level). Each
characteristic is a die size (RULES-NOTES C1: dice score 6+, twice from 10).

Skills and specialities are the catalogue's (`creation.skills`, `creation.specialities`):
the text's list stops at "la liste des", so the catalogue holds the list a group plays with,
each speciality with the characteristic it depends on; a name outside it, or a speciality
bought twice, is a problem. XP awarded later (RULES-NOTES CL4) adds to the budget and is
spent by the same prices.

`check_sheet` never raises on a sheet being built: it answers the totals and the list of
problems (a code and its numbers), so a page can show them as the player types; a service
refuses to save a sheet that has problems.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine.systems.modern.catalogue import Catalogue, load_catalogue


@dataclass(frozen=True)
class Problem:
    code: str
    params: Mapping[str, Any]


@dataclass(frozen=True)
class SheetCheck:
    characteristic_total: int
    characteristic_budget: int
    xp_spent: int
    xp_budget: int
    speciality_costs: tuple[int, ...]
    stress_threshold: int | None
    problems: tuple[Problem, ...]

    @property
    def complete(self) -> bool:
        return not self.problems


def speciality_costs(
    characteristics_of: Sequence[str], catalogue: Catalogue | None = None
) -> list[int]:
    """The price of each speciality in order: 3 XP, +2 per earlier one on the same
    characteristic (3, 5, 7 ...)."""
    catalogue = catalogue or load_catalogue()
    base, step = catalogue.creation["speciality_cost"], catalogue.creation["speciality_increase"]
    seen: dict[str, int] = {}
    costs = []
    for characteristic in characteristics_of:
        costs.append(base + step * seen.get(characteristic, 0))
        seen[characteristic] = seen.get(characteristic, 0) + 1
    return costs


def speciality_pairs(
    names: Sequence[str], catalogue: Catalogue | None = None
) -> list[tuple[str, str]]:
    """(name, characteristic) of each speciality chosen, in order, its characteristic the
    catalogue's ("chaque spécialité dépendant de la même caractéristique"); a name the
    catalogue does not know keeps an empty characteristic (`check_sheet` names it)."""
    catalogue = catalogue or load_catalogue()
    known = catalogue.creation["specialities"]
    return [(name, known.get(name, "")) for name in names]


def check_sheet(
    characteristics: Mapping[str, int],
    skills: Mapping[str, int],
    specialities: Sequence[tuple[str, str]],
    catalogue: Catalogue | None = None,
    *,
    xp_awarded: int = 0,
) -> SheetCheck:
    """The totals of a sheet and every rule it breaks. `specialities` are (name,
    characteristic) pairs in the order bought; `xp_awarded` is the XP the organiser gave
    after creation (RULES-NOTES CL4), spent as at creation."""
    catalogue = catalogue or load_catalogue()
    creation = catalogue.creation
    budget = creation["xp"] + xp_awarded
    names = list(creation["characteristics"])
    sides = list(catalogue.dice["sides"])
    problems: list[Problem] = []
    for name in names:
        value = characteristics.get(name)
        if value not in sides:
            problems.append(Problem("characteristic_die", {"name": name, "sides": sides}))
    unknown = sorted(set(characteristics) - set(names))
    if unknown:
        problems.append(Problem("unknown_characteristic", {"names": unknown}))
    total = sum(v for k, v in characteristics.items() if k in names and isinstance(v, int))
    if total != creation["characteristic_total"]:
        problems.append(
            Problem(
                "characteristic_total", {"total": total, "budget": creation["characteristic_total"]}
            )
        )
    known_skills = creation["skills"]
    for skill, level in skills.items():
        if skill not in known_skills:
            problems.append(Problem("unknown_skill", {"name": skill}))
        elif (
            isinstance(level, bool)
            or not isinstance(level, int)
            or not 1 <= level <= creation["skill_level_max"]
        ):
            problems.append(
                Problem("skill_level", {"name": skill, "max": creation["skill_level_max"]})
            )
    known_specialities = creation["specialities"]
    bought: set[str] = set()
    for speciality, characteristic in specialities:
        if speciality not in known_specialities:
            problems.append(Problem("unknown_speciality", {"name": speciality}))
        elif characteristic != known_specialities[speciality]:
            problems.append(Problem("speciality_characteristic", {"name": speciality}))
        elif speciality in bought:
            problems.append(Problem("duplicate_speciality", {"name": speciality}))
        bought.add(speciality)
    costs = speciality_costs([c for _, c in specialities], catalogue)
    spent = sum(
        level * creation["skill_level_cost"] for level in skills.values() if isinstance(level, int)
    ) + sum(costs)
    if spent > budget:
        problems.append(Problem("xp_over", {"spent": spent, "budget": budget}))
    elif spent < budget:
        problems.append(Problem("xp_left", {"left": budget - spent}))
    threshold_from = [characteristics.get(n) for n in creation["stress_threshold_from"]]
    threshold = max((v for v in threshold_from if isinstance(v, int)), default=None)
    return SheetCheck(
        characteristic_total=total,
        characteristic_budget=creation["characteristic_total"],
        xp_spent=spent,
        xp_budget=budget,
        speciality_costs=tuple(costs),
        stress_threshold=threshold,
        problems=tuple(problems),
    )
