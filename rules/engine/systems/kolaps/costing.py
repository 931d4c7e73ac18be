"""What a KOLAPS character and a unit are worth, and what is wrong with them (Préparation).

The text's "Préparation" builds a unit before an encounter: each character has a rank
(its PU value and PP budget, RULES-NOTES K1), an archetype whose base talents start at
expertise 0 for free, talents raised and specialisations or options bought with PP or PU,
and equipment picked from the archetype's "A ou B ou C" lists (K2). The unit value VU is
what balances an encounter, and an undervalued unit pays for it with characters changing
sides (K12).

Why this is a pure module over plain data: the same numbers are shown in the builder as a
player clicks, stored on the unit by the service, printed, exported and checked on import.
One function computing them from the choices (slugs and levels) and the catalogue, with no
database and no Django, keeps all of those in agreement, runs in microseconds, and is
tested against the rule text alone. Models hold choices, never copies of these numbers.

Why problems are codes with parameters and not sentences: `rules/` does not translate.
A `Problem` names what is wrong (`code`), whom it concerns (`character`, the caller's key)
and the numbers or slugs a sentence needs (`params`); the app turns it into a translated
sentence. A unit with problems is a draft, not an error: the player may be half-way.

Reading conventions (see also `catalogue.py`):

- `talents` maps every talent the character holds to its level: the archetype's base
  talents (level 0 to 3, one alternative per choice group) and the specialisations and
  options bought (level 1 and up). A level's price is the sum of the costs of the levels
  up to it, each level's prerequisite must hold, and levels are taken in order (K2).
- `equipment` holds one item per equipment choice group of the archetype, in order. The
  archetype's listed equipment is free; an item with a value costs that value (K2).
- The Avatar never changes sides under K12: it is the player on the table. The text is
  silent; a player at the table expects to keep their own figure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, NamedTuple

from rules.engine.systems.kolaps.catalogue_records import Catalogue, Cost

# Problem codes: the app keeps one sentence per code (characters/kolaps_text.py).
UNKNOWN_AFFILIATION: Final = "unknown_affiliation"
UNKNOWN_ARCHETYPE: Final = "unknown_archetype"
UNKNOWN_RANK: Final = "unknown_rank"
UNKNOWN_TALENT: Final = "unknown_talent"
UNKNOWN_EQUIPMENT: Final = "unknown_equipment"
ARCHETYPE_NOT_OF_AFFILIATION: Final = "archetype_not_of_affiliation"
RANK_NOT_ALLOWED: Final = "rank_not_allowed"
TALENT_CHOICE_MISSING: Final = "talent_choice_missing"
TALENT_CHOICE_DOUBLE: Final = "talent_choice_double"
TALENT_NOT_AVAILABLE: Final = "talent_not_available"
LEVEL_OUT_OF_RANGE: Final = "level_out_of_range"
MISSING_PREREQUISITE: Final = "missing_prerequisite"
OVER_BUDGET: Final = "over_budget"
EQUIPMENT_CHOICE_INVALID: Final = "equipment_choice_invalid"
EQUIPMENT_CHOICE_COUNT: Final = "equipment_choice_count"
NO_AVATAR: Final = "no_avatar"
SEVERAL_AVATARS: Final = "several_avatars"
DUPLICATE_NAME: Final = "duplicate_name"

PROBLEM_CODES: Final = (
    UNKNOWN_AFFILIATION,
    UNKNOWN_ARCHETYPE,
    UNKNOWN_RANK,
    UNKNOWN_TALENT,
    UNKNOWN_EQUIPMENT,
    ARCHETYPE_NOT_OF_AFFILIATION,
    RANK_NOT_ALLOWED,
    TALENT_CHOICE_MISSING,
    TALENT_CHOICE_DOUBLE,
    TALENT_NOT_AVAILABLE,
    LEVEL_OUT_OF_RANGE,
    MISSING_PREREQUISITE,
    OVER_BUDGET,
    EQUIPMENT_CHOICE_INVALID,
    EQUIPMENT_CHOICE_COUNT,
    NO_AVATAR,
    SEVERAL_AVATARS,
    DUPLICATE_NAME,
)


@dataclass(frozen=True)
class CharacterChoices:
    """What a player chose for one character: slugs and levels, nothing computed."""

    key: str
    name: str
    affiliation: str
    archetype: str
    rank: str
    talents: Mapping[str, int]
    equipment: Sequence[str]
    avatar: bool = False


@dataclass(frozen=True)
class Problem:
    code: str
    character: str | None = None
    # Numbers and slugs the sentence needs; lists of alternatives are tuples of slugs or of
    # (talent slug, level) pairs, for the app to label.
    params: Mapping[str, object] = field(default_factory=dict)


class CostLine(NamedTuple):
    """What one held talent or item costs (a tuple: a roster makes thousands of them)."""

    slug: str
    level: int
    pp: int
    pu: int


class CharacterCost(NamedTuple):
    """One character's numbers and problems (a tuple: a roster makes thousands of them)."""

    key: str
    name: str
    rank: str
    rank_number: int
    avatar: bool
    rank_pu: int
    pp_budget: int
    pp_spent: int
    pu_bought: int
    problems: tuple[Problem, ...]

    @property
    def pp_left(self) -> int:
        return self.pp_budget - self.pp_spent

    @property
    def value(self) -> int:
        """Character value = rank PU + PU costs (K2)."""
        return self.rank_pu + self.pu_bought


@dataclass(frozen=True)
class UnitCost:
    characters: tuple[CharacterCost, ...]
    problems: tuple[Problem, ...]

    @property
    def vu(self) -> int:
        """VU = the sum of the unit's character values (K2)."""
        return sum(character.value for character in self.characters)

    @property
    def valid(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Comparison:
    """K12 between a unit and the value it is fielded against.

    `surplus` is this unit's VU minus the opponent's. When it is positive the unit is
    undervalued: `defectors` lists who changes sides, one per PU, lowest ranks first;
    `beyond` counts the PU nobody is left to pay for (the Avatar never changes sides).
    """

    vu: int
    opponent_vu: int
    surplus: int
    defectors: tuple[str, ...]
    beyond: int


# --- A catalogue read once into the tables costing needs -----------------------------------


@dataclass(frozen=True)
class _TalentIndex:
    kind: str
    affiliation: str | None
    levels: frozenset[int]
    # level -> (PP, PU) of holding the talent at that level: the sum of the levels up to it.
    price: Mapping[int, tuple[int, int]]
    # level -> every prerequisite of the levels up to it, as tuples of (talent, level)
    # alternatives; self-references are dropped (levels are taken in order).
    prerequisites: Mapping[int, tuple[tuple[tuple[str, int], ...], ...]]
    # level -> (PP, PU, prerequisites): both at once for the costing loop.
    at: Mapping[int, tuple[int, int, tuple[tuple[tuple[str, int], ...], ...]]]


@dataclass(frozen=True)
class _ArchetypeIndex:
    affiliation: str
    ranks: frozenset[str]
    talent_groups: tuple[tuple[str, ...], ...]
    base_talents: frozenset[str]
    equipment_groups: tuple[tuple[str, ...], ...]
    options: frozenset[str]
    available: frozenset[str]  # every talent a character of the archetype may hold


@dataclass(frozen=True)
class _Index:
    ranks: Mapping[str, tuple[int, int, int]]  # slug -> (number, PU, PP)
    affiliations: frozenset[str]
    archetypes: Mapping[str, _ArchetypeIndex]
    talents: Mapping[str, _TalentIndex]
    equipment: Mapping[str, tuple[int, int]]  # slug -> (PP, PU) of its value


_INDEXES: dict[int, tuple[Catalogue, _Index]] = {}


def _index(catalogue: Catalogue) -> _Index:
    cached = _INDEXES.get(id(catalogue))
    if cached is not None and cached[0] is catalogue:
        return cached[1]
    index = _build_index(catalogue)
    _INDEXES[id(catalogue)] = (catalogue, index)
    return index


def _cost(cost: Cost | None) -> tuple[int, int]:
    return (0, 0) if cost is None else (cost.pp, cost.pu)


def _build_index(catalogue: Catalogue) -> _Index:
    talents: dict[str, _TalentIndex] = {}
    for talent in catalogue.talents.values():
        price: dict[int, tuple[int, int]] = {}
        prerequisites: dict[int, tuple[tuple[tuple[str, int], ...], ...]] = {}
        pp = pu = 0
        required: list[tuple[tuple[str, int], ...]] = []
        for level in sorted(talent.levels, key=lambda entry: entry.level):
            pp += level.cost.pp
            pu += level.cost.pu
            price[level.level] = (pp, pu)
            if level.prerequisite is not None:
                alternatives = tuple(
                    (requirement.talent, requirement.level)
                    for requirement in level.prerequisite.any_of
                )
                if not any(slug == talent.slug for slug, _ in alternatives):
                    required.append(alternatives)
            prerequisites[level.level] = tuple(required)
        talents[talent.slug] = _TalentIndex(
            kind=talent.kind,
            affiliation=talent.affiliation,
            levels=frozenset(price),
            price=price,
            prerequisites=prerequisites,
            at={level: (*price[level], prerequisites[level]) for level in price},
        )
    archetypes = {}
    for archetype in catalogue.archetypes.values():
        entry = _ArchetypeIndex(
            affiliation=archetype.affiliation,
            ranks=frozenset(archetype.ranks),
            talent_groups=archetype.talents,
            base_talents=frozenset(archetype.talent_slugs),
            equipment_groups=archetype.equipment,
            options=frozenset(archetype.options),
            available=frozenset(),
        )
        available = frozenset(
            slug for slug, talent in talents.items() if _available(talent, slug, entry)
        )
        archetypes[archetype.slug] = replace(entry, available=available)
    equipment = {slug: _cost(weapon.value) for slug, weapon in catalogue.weapons.items()}
    equipment.update({slug: _cost(armour.value) for slug, armour in catalogue.armours.items()})
    return _Index(
        ranks={slug: (rank.number, rank.pu, rank.pp) for slug, rank in catalogue.ranks.items()},
        affiliations=frozenset(catalogue.affiliations),
        archetypes=archetypes,
        talents=talents,
        equipment=equipment,
    )


# --- Costing -------------------------------------------------------------------------------


def rank_budget(catalogue: Catalogue, rank: str) -> int:
    """The PP a character of this rank may spend (K1: Novice 7, Aguerri 13, Vétéran 19,
    Expert 25)."""
    return catalogue.rank(rank).pp


def talent_price(catalogue: Catalogue, talent: str, level: int) -> Cost:
    """What holding `talent` at `level` costs: the sum of its levels up to `level` (K2:
    a base talent's expertise 0 is free and each level above costs 1 PP; a specialisation
    or option costs what each of its entries says, 1 PP, 2 PP or 1 PU)."""
    pp, pu = _index(catalogue).talents[talent].price[level]
    return Cost(pp=pp, pu=pu)


def cost_character(catalogue: Catalogue, choices: CharacterChoices) -> CharacterCost:
    """Cost and check one character (RULES-NOTES K1, K2)."""
    return _cost_character(_index(catalogue), choices)


def _cost_character(index: _Index, choices: CharacterChoices) -> CharacterCost:
    # Written as plain loops: a 1,000-character roster is costed in a few milliseconds.
    key = choices.key
    problems: list[Problem] = []

    rank = index.ranks.get(choices.rank)
    if rank is None:
        problems.append(Problem(UNKNOWN_RANK, key, {"rank": choices.rank}))
        rank_number, rank_pu, budget = 0, 0, 0
    else:
        rank_number, rank_pu, budget = rank
    if choices.affiliation not in index.affiliations:
        problems.append(Problem(UNKNOWN_AFFILIATION, key, {"affiliation": choices.affiliation}))
    held = choices.talents
    archetype = index.archetypes.get(choices.archetype)
    if archetype is None:
        problems.append(Problem(UNKNOWN_ARCHETYPE, key, {"archetype": choices.archetype}))
        available: frozenset[str] | None = None
    else:
        available = archetype.available
        if archetype.affiliation != choices.affiliation:
            problems.append(
                Problem(
                    ARCHETYPE_NOT_OF_AFFILIATION,
                    key,
                    {"archetype": choices.archetype, "affiliation": choices.affiliation},
                )
            )
        if rank is not None and choices.rank not in archetype.ranks:
            problems.append(
                Problem(
                    RANK_NOT_ALLOWED, key, {"rank": choices.rank, "archetype": choices.archetype}
                )
            )
        for number, group in enumerate(archetype.talent_groups, start=1):
            chosen = 0
            for slug in group:
                if slug in held:
                    chosen += 1
            if chosen == 0:
                problems.append(
                    Problem(TALENT_CHOICE_MISSING, key, {"group": number, "choices": group})
                )
            elif chosen > 1:
                both = tuple(slug for slug in group if slug in held)
                problems.append(
                    Problem(TALENT_CHOICE_DOUBLE, key, {"group": number, "choices": both})
                )
        _check_equipment(problems, key, archetype, choices.equipment, index)

    talents = index.talents
    pp_spent = pu_bought = 0
    for slug, level in held.items():
        talent = talents.get(slug)
        if talent is None:
            problems.append(Problem(UNKNOWN_TALENT, key, {"talent": slug}))
            continue
        entry = talent.at.get(level)
        if entry is None:
            problems.append(Problem(LEVEL_OUT_OF_RANGE, key, {"talent": slug, "level": level}))
            continue
        pp, pu, prerequisites = entry
        pp_spent += pp
        pu_bought += pu
        if available is not None and slug not in available:
            problems.append(Problem(TALENT_NOT_AVAILABLE, key, {"talent": slug}))
        for alternatives in prerequisites:
            for other, needed in alternatives:
                if held.get(other, -1) >= needed:
                    break
            else:
                problems.append(
                    Problem(
                        MISSING_PREREQUISITE,
                        key,
                        {"talent": slug, "level": level, "requires": alternatives},
                    )
                )
    equipment_costs = index.equipment
    for slug in choices.equipment:
        pp, pu = equipment_costs.get(slug, (0, 0))
        if pp or pu:
            pp_spent += pp
            pu_bought += pu
    if rank is not None and pp_spent > budget:
        problems.append(Problem(OVER_BUDGET, key, {"spent": pp_spent, "budget": budget}))
    return CharacterCost(
        key,
        choices.name,
        choices.rank,
        rank_number,
        choices.avatar,
        rank_pu,
        budget,
        pp_spent,
        pu_bought,
        tuple(problems),
    )


def _available(talent: _TalentIndex, slug: str, archetype: _ArchetypeIndex) -> bool:
    """A base talent comes from the archetype's list, an option from its options, a
    specialisation from the character's affiliation (or common to all)."""
    if talent.kind == "talent":
        return slug in archetype.base_talents
    if talent.kind == "option":
        return slug in archetype.options
    return talent.affiliation in (None, archetype.affiliation)


def _check_equipment(
    problems: list[Problem],
    key: str,
    archetype: _ArchetypeIndex,
    equipment: Sequence[str],
    index: _Index,
) -> None:
    groups = archetype.equipment_groups
    if len(equipment) != len(groups):
        problems.append(
            Problem(EQUIPMENT_CHOICE_COUNT, key, {"expected": len(groups), "given": len(equipment)})
        )
    for number, (group, slug) in enumerate(zip(groups, equipment, strict=False), start=1):
        if slug in group:
            continue
        if slug not in index.equipment:
            problems.append(Problem(UNKNOWN_EQUIPMENT, key, {"item": slug}))
        else:
            problems.append(
                Problem(
                    EQUIPMENT_CHOICE_INVALID,
                    key,
                    {"group": number, "item": slug, "choices": group},
                )
            )


def cost_lines(catalogue: Catalogue, choices: CharacterChoices) -> tuple[CostLine, ...]:
    """What each held talent and each item with a value costs, for sheets and builders
    (entries the catalogue does not know are left out: `cost_character` reports them)."""
    index = _index(catalogue)
    lines = []
    for slug, level in choices.talents.items():
        talent = index.talents.get(slug)
        if talent is not None and level in talent.price:
            lines.append(CostLine(slug, level, *talent.price[level]))
    for slug in choices.equipment:
        pp, pu = index.equipment.get(slug, (0, 0))
        if pp or pu:
            lines.append(CostLine(slug, 0, pp, pu))
    return tuple(lines)


def cost_unit(catalogue: Catalogue, members: Iterable[CharacterChoices]) -> UnitCost:
    """Cost every character, add them up into the VU, and check the unit (K2: names are
    unique within a unit; exactly one character of a unit is the Avatar)."""
    index = _index(catalogue)
    characters = tuple(_cost_character(index, choices) for choices in members)
    problems = [problem for character in characters for problem in character.problems]
    avatars = sum(1 for character in characters if character.avatar)
    if avatars == 0:
        problems.append(Problem(NO_AVATAR))
    elif avatars > 1:
        problems.append(Problem(SEVERAL_AVATARS, None, {"count": avatars}))
    counts = Counter(character.name.strip().casefold() for character in characters)
    reported: set[str] = set()
    for character in characters:
        folded = character.name.strip().casefold()
        if counts[folded] > 1 and folded not in reported:
            reported.add(folded)
            problems.append(
                Problem(DUPLICATE_NAME, None, {"name": character.name, "count": counts[folded]})
            )
    return UnitCost(characters=characters, problems=tuple(problems))


def compare(unit: UnitCost, opponent_vu: int) -> Comparison:
    """K12: "for each PU of difference, one character changes sides, lowest ranks first".

    The unit is undervalued when it is worth more than the value it is fielded against.
    Among characters of the same rank the one worth fewer PU goes first, then the one
    listed first. The Avatar stays (see the module notes).
    """
    surplus = unit.vu - opponent_vu
    defectors: tuple[str, ...] = ()
    beyond = 0
    if surplus > 0:
        candidates = sorted(
            (
                (character.rank_number, character.value, position, character.key)
                for position, character in enumerate(unit.characters)
                if not character.avatar
            ),
        )
        defectors = tuple(key for *_, key in candidates[:surplus])
        beyond = surplus - len(defectors)
    return Comparison(
        vu=unit.vu,
        opponent_vu=opponent_vu,
        surplus=surplus,
        defectors=defectors,
        beyond=beyond,
    )


def archetype_defaults(catalogue: Catalogue, archetype: str) -> tuple[dict[str, int], list[str]]:
    """A new character of `archetype`: the first alternative of each talent group at
    expertise 0 (free, K2) and the first item of each equipment group."""
    entry = catalogue.archetype(archetype)
    return {group[0]: 0 for group in entry.talents}, [group[0] for group in entry.equipment]


@dataclass(frozen=True)
class Step:
    """One talent the builder offers: where it stands and what its next level takes.

    `missing` lists the alternatives of the next level's prerequisite when none is held
    (empty when it may be bought): the builder shows the reason instead of hiding it.
    """

    slug: str
    kind: str
    level: int | None  # None: not held
    next_level: int | None  # None: at its highest level
    next_pp: int
    next_pu: int
    missing: tuple[tuple[str, int], ...]
    lowest_level: int

    @property
    def can_lower(self) -> bool:
        return self.level is not None and (self.level > self.lowest_level or self.kind != "talent")


def steps(catalogue: Catalogue, choices: CharacterChoices) -> tuple[Step, ...]:
    """What the character may raise, buy or lower, in the catalogue's order: its base
    talents, its archetype's options, then its affiliation's specialisations (K2)."""
    index = _index(catalogue)
    archetype = index.archetypes.get(choices.archetype)
    if archetype is None:
        return ()
    held = choices.talents
    result: list[Step] = []
    for slug, talent in index.talents.items():
        if slug not in held and not (
            (talent.kind == "option" and slug in archetype.options)
            or (talent.kind == "specialisation" and _available(talent, slug, archetype))
        ):
            continue
        if talent.kind == "talent" and slug not in held:
            continue
        level = held.get(slug)
        ordered = sorted(talent.levels)
        following = [number for number in ordered if level is None or number > level]
        next_level = following[0] if following else None
        next_pp = next_pu = 0
        missing: tuple[tuple[str, int], ...] = ()
        if next_level is not None:
            pp, pu = talent.price[next_level]
            was_pp, was_pu = talent.price[level] if level is not None else (0, 0)
            next_pp, next_pu = pp - was_pp, pu - was_pu
            for alternatives in talent.prerequisites[next_level]:
                if not any(held.get(other, -1) >= needed for other, needed in alternatives):
                    missing = alternatives
                    break
        result.append(
            Step(
                slug=slug,
                kind=talent.kind,
                level=level,
                next_level=next_level,
                next_pp=next_pp,
                next_pu=next_pu,
                missing=missing,
                lowest_level=ordered[0],
            )
        )
    return tuple(result)
