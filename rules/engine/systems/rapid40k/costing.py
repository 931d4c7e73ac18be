"""Rapid 40000 points: the cost formula (RULES-NOTES R1), army structure, list totals, the
points limit and the balance between two lists.

Why the structure check returns problems instead of raising: a list being built is a draft
for a long time (two troop squads still missing, a squad of two fighters); the builder
shows every problem at once as a sentence and keeps the list. The engine speaks English
templates marked for translation (`gettext_noop`) with their numbers; the app translates
them (`_(problem.message) % problem.params`).

Why balance is "less than the cheapest figure": the text asks each side to come "as close
as possible" to the agreed cost, and its worked example calls 292 against 295 balanced.
Two lists are as close as they can be when adding or removing any one figure would not
bring them closer, so the difference must be below the cheapest figure either side fields.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems import gettext_noop
from rules.engine.systems.rapid40k.catalogue import Catalogue, Profile, load_catalogue


def _unknown(field_name: str, slug: object) -> RuleInputError:
    return RuleInputError(field_name, f"unknown {field_name} {slug!r}", kind="unknown", slug=slug)


def check_profile(profile: Profile, catalogue: Catalogue, path: str = "") -> None:
    """Refuse a profile whose numbers or slugs the catalogue does not know (the field named)."""
    for name, value, (lo, hi) in (
        ("quality", profile.quality, catalogue.quality_range),
        ("combat", profile.combat, catalogue.combat_range),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise RuleInputError(
                f"{path}{name}", f"{name} from {lo} to {hi}", kind="integer", lo=lo, hi=hi
            )
    if profile.weapon not in catalogue.weapons:
        raise _unknown(f"{path}weapon", profile.weapon)
    for slug in profile.special_rules:
        if slug not in catalogue.special_rules:
            raise _unknown(f"{path}special_rules", slug)
    if len(set(profile.special_rules)) != len(profile.special_rules):
        raise RuleInputError(f"{path}special_rules", "a rule is taken once", kind="twice")


@dataclass(frozen=True)
class CostBreakdown:
    """The formula's terms, so a page can show how the price is made."""

    points: int
    combat_part: int
    rules_part: int
    weapon_part: int
    multiplier: int
    divisor: int


def breakdown(
    quality: int,
    combat: int,
    weapon_costs: Iterable[int],
    rule_costs: Iterable[int],
    catalogue: Catalogue,
) -> CostBreakdown:
    """RULES-NOTES R1: ceil(((5 x C) + special-rule costs + weapon cost) x (7 - Q) / 2)."""
    f = catalogue.formula
    combat_part = f.combat_factor * combat
    rules_part = sum(rule_costs)
    weapon_part = sum(weapon_costs)
    multiplier = f.quality_base - quality
    numerator = (combat_part + rules_part + weapon_part) * multiplier
    return CostBreakdown(
        points=-(-numerator // f.divisor),
        combat_part=combat_part,
        rules_part=rules_part,
        weapon_part=weapon_part,
        multiplier=multiplier,
        divisor=f.divisor,
    )


def profile_breakdown(profile: Profile, catalogue: Catalogue | None = None) -> CostBreakdown:
    """A figure's price (R1); the profile must be checked (`check_profile`)."""
    catalogue = catalogue or load_catalogue()
    return breakdown(
        profile.quality,
        profile.combat,
        (catalogue.weapons[profile.weapon].cost,),
        (catalogue.special_rules[s].cost for s in profile.special_rules),
        catalogue,
    )


@lru_cache(maxsize=8192)
def profile_cost(profile: Profile, catalogue: Catalogue | None = None) -> int:
    """The points of one figure (R1), cached: a list repeats the same few profiles."""
    catalogue = catalogue or load_catalogue()
    check_profile(profile, catalogue)
    return profile_breakdown(profile, catalogue).points


def vehicle_breakdown(slug: str, catalogue: Catalogue | None = None) -> CostBreakdown:
    """A vehicle is priced by the same formula, every weapon it carries added (R1)."""
    catalogue = catalogue or load_catalogue()
    if slug not in catalogue.vehicles:
        raise _unknown("vehicle", slug)
    v = catalogue.vehicles[slug]
    return breakdown(
        v.quality,
        v.combat,
        (catalogue.weapons[w].cost for w in v.weapons),
        (catalogue.special_rules[s].cost for s in v.special_rules),
        catalogue,
    )


# --- Army lists --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Squad:
    """A squad: a leader and its fighters, or a vehicle alone (a unit of its own)."""

    name: str
    slot: str
    leader: Profile | None = None
    fighters: tuple[Profile, ...] = ()
    vehicle: str | None = None


@dataclass(frozen=True)
class ArmyList:
    name: str
    squads: tuple[Squad, ...]
    points_limit: int | None = None


@dataclass(frozen=True)
class Problem:
    code: str
    message: str
    params: Mapping[str, object] = field(default_factory=dict)
    squad: int | None = None


@dataclass(frozen=True)
class SquadPrice:
    points: int
    figures: int
    cheapest: int


@dataclass(frozen=True)
class ListPrice:
    total: int
    squads: tuple[SquadPrice, ...]
    problems: tuple[Problem, ...]
    cheapest_figure: int | None

    @property
    def valid(self) -> bool:
        return not self.problems


def _profile_problem(
    profile: Profile, catalogue: Catalogue, index: int, name: str
) -> Problem | None:
    try:
        check_profile(profile, catalogue)
    except RuleInputError as error:
        return Problem(
            "profile",
            gettext_noop(
                "Squad %(squad)s: a figure's profile is not in the catalogue (%(field)s)."
            ),
            {"squad": name, "field": error.field},
            index,
        )
    return None


def squad_price(
    squad: Squad, catalogue: Catalogue, index: int = 0
) -> tuple[SquadPrice, list[Problem]]:
    """A squad's points and what is wrong with it (structure, R-annex 'Armée')."""
    problems: list[Problem] = []
    structure = catalogue.structure
    if squad.slot not in structure.slots:
        problems.append(
            Problem(
                "slot",
                gettext_noop("Squad %(squad)s has no place in an army: choose its role."),
                {"squad": squad.name},
                index,
            )
        )
    if squad.vehicle is not None:
        if squad.vehicle not in catalogue.vehicles:
            problems.append(
                Problem(
                    "vehicle",
                    gettext_noop("Squad %(squad)s: the vehicle is not in the catalogue."),
                    {"squad": squad.name},
                    index,
                )
            )
            return SquadPrice(0, 0, 0), problems
        points = vehicle_breakdown(squad.vehicle, catalogue).points
        return SquadPrice(points, 1, points), problems
    figures = ((squad.leader,) if squad.leader is not None else ()) + squad.fighters
    prices: list[int] = []
    for profile in figures:
        problem = _profile_problem(profile, catalogue, index, squad.name)
        if problem is not None:
            problems.append(problem)
            continue
        prices.append(profile_cost(profile, catalogue))
    if squad.leader is None:
        problems.append(
            Problem(
                "no_leader",
                gettext_noop("Squad %(squad)s has no leader."),
                {"squad": squad.name},
                index,
            )
        )
    count = len(squad.fighters)
    if not structure.fighters_min <= count <= structure.fighters_max:
        problems.append(
            Problem(
                "fighters",
                gettext_noop(
                    "Squad %(squad)s has %(count)s fighters besides its leader: "
                    "a squad has %(min)s to %(max)s."
                ),
                {
                    "squad": squad.name,
                    "count": count,
                    "min": structure.fighters_min,
                    "max": structure.fighters_max,
                },
                index,
            )
        )
    special = sum(
        1 for p in figures if p.weapon in catalogue.weapons and catalogue.weapons[p.weapon].special
    )
    if special > structure.special_weapons_per_squad:
        problems.append(
            Problem(
                "special_weapons",
                gettext_noop(
                    "Squad %(squad)s carries %(count)s special weapons: "
                    "a squad carries %(max)s at most."
                ),
                {"squad": squad.name, "count": special, "max": structure.special_weapons_per_squad},
                index,
            )
        )
    return SquadPrice(sum(prices), len(figures), min(prices, default=0)), problems


def list_price(army: ArmyList, catalogue: Catalogue | None = None) -> ListPrice:
    """The list's total, every squad's points and every structure problem (annex 'Armée':
    a command squad, at least two troop squads, then elite, support and fast attack as
    wished; a squad is a leader and 3 to 7 fighters with one special weapon at most)."""
    catalogue = catalogue or load_catalogue()
    problems: list[Problem] = []
    squads: list[SquadPrice] = []
    for index, squad in enumerate(army.squads):
        price, squad_problems = squad_price(squad, catalogue, index)
        squads.append(price)
        problems.extend(squad_problems)
    for slot in catalogue.structure.slots.values():
        count = sum(1 for s in army.squads if s.slot == slot.slug)
        if count < slot.min:
            problems.append(
                Problem(
                    "slot_minimum",
                    gettext_noop(
                        "The army needs at least %(min)s %(slot)s squad(s); it has %(count)s."
                    ),
                    {"min": slot.min, "slot": slot.label, "count": count},
                )
            )
    total = sum(s.points for s in squads)
    if army.points_limit is not None and total > army.points_limit:
        problems.append(
            Problem(
                "over_limit",
                gettext_noop("The list costs %(total)s points, over the limit of %(limit)s."),
                {"total": total, "limit": army.points_limit},
            )
        )
    cheapest = [s.cheapest for s in squads if s.figures]
    return ListPrice(total, tuple(squads), tuple(problems), min(cheapest) if cheapest else None)


@dataclass(frozen=True)
class Balance:
    a_total: int
    b_total: int
    difference: int
    cheapest_figure: int | None
    balanced: bool
    ahead: str | None


def balance(a: ListPrice, b: ListPrice) -> Balance:
    """The balance of two lists ('Equilibre des forces'): balanced when the difference is
    below the cheapest figure either list fields (no single figure would bring them closer)."""
    difference = abs(a.total - b.total)
    cheapest = [c for c in (a.cheapest_figure, b.cheapest_figure) if c is not None]
    smallest = min(cheapest) if cheapest else None
    return Balance(
        a_total=a.total,
        b_total=b.total,
        difference=difference,
        cheapest_figure=smallest,
        balanced=smallest is not None and difference < smallest,
        ahead=None if difference == 0 else ("a" if a.total > b.total else "b"),
    )


def profile_from(data: Mapping[str, Any], catalogue: Catalogue, path: str = "") -> Profile:
    """A profile from JSON (`{"quality": 3, "combat": 3, "weapon": ..., "special_rules": []}`),
    refused with the field and the unknown slug named."""
    rules = data.get("special_rules", [])
    if not isinstance(rules, list):
        raise RuleInputError(f"{path}special_rules", "a list of rule names", kind="list")
    weapon = data.get("weapon")
    if not isinstance(weapon, str):
        raise RuleInputError(
            f"{path}weapon", "a weapon name", kind="choice", choices=sorted(catalogue.weapons)
        )
    profile = Profile(data.get("quality"), data.get("combat"), weapon, tuple(rules))  # type: ignore[arg-type]
    check_profile(profile, catalogue, path)
    return profile
