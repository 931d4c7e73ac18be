"""K12 between the two sides of a KOLAPS chapter, read from what each side entered.

"An undervalued unit: for each PU of difference, one character changes sides, lowest ranks
first" (RULES-NOTES K12). The costing and the comparison are the engine's
(`rules.engine.systems.kolaps.costing`); this module groups the units entered into sides
(a unit with no side is a side of its own) and names who goes where, so that the chapter
page shows it and the start writes it into each frozen entry for the live table.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from characters.bidi import isolate_text
from characters.kolaps import services as kolaps_services
from rules.engine.systems.kolaps import costing


@dataclass(frozen=True)
class SideLine:
    name: str
    vu: int
    units: list[str]


@dataclass(frozen=True)
class SideChange:
    """One character who plays for the other side (K12)."""

    character_id: int
    name: str
    unit_name: str
    to_side: str


@dataclass(frozen=True)
class K12Line:
    """RULES-NOTES K12 between the two sides of a chapter: the side worth more (`surplus`
    PU more) sees one character change sides per PU, lowest ranks first (`defectors`,
    "name (unit)", and `changes`, the same as data); `beyond` counts the PU nobody is left
    to pay for (Avatars stay)."""

    sides: list[SideLine]
    undervalued: str  # the side that pays; "" when both are worth the same
    surplus: int
    defectors: list[str]
    beyond: int
    changes: list[SideChange]


@dataclass(frozen=True)
class EnteredUnit:
    """A unit as a chapter reads it: live while planned, frozen once started. `members`
    are the characters' fields as `campaigns.chapters.entries` freezes them."""

    unit_id: int
    name: str
    side: str
    catalogue_version: str
    members: Sequence[Mapping]

    @property
    def side_label(self) -> str:
        """The side's name at the table: its side, or the unit's name when it plays alone."""
        return self.side or self.name


def _choices(member: Mapping) -> costing.CharacterChoices:
    return costing.CharacterChoices(
        key=str(member["id"]),
        name=member["name"],
        affiliation=member["affiliation"],
        archetype=member["archetype"],
        rank=member["rank"],
        talents=member["talents"],
        equipment=member["equipment"],
        avatar=member["is_avatar"],
    )


def k12_balance(units: Sequence[EnteredUnit]) -> K12Line | None:
    """K12 when the entered units make exactly two sides: each side's characters costed
    from scratch, each unit with the catalogue it was built with, the side worth more
    compared with the other's VU."""
    sides: dict[tuple[str, object], list[EnteredUnit]] = {}
    for unit in units:
        key = ("side", unit.side) if unit.side else ("unit", unit.unit_id)
        sides.setdefault(key, []).append(unit)
    if len(sides) != 2:
        return None
    costed, labels = [], []
    who: dict[str, tuple[Mapping, EnteredUnit]] = {}
    for side_units in sides.values():
        characters = []
        for unit in side_units:
            cost = costing.cost_unit(
                kolaps_services.catalogue(unit.catalogue_version),
                [_choices(member) for member in unit.members],
            )
            characters.extend(cost.characters)
            who.update({str(member["id"]): (member, unit) for member in unit.members})
        costed.append(costing.UnitCost(characters=tuple(characters), problems=()))
        labels.append(side_units[0].side_label)
    (first, second), (first_label, second_label) = costed, labels
    payer, payer_label, other, other_label = (
        (first, first_label, second, second_label)
        if first.vu >= second.vu
        else (second, second_label, first, first_label)
    )
    comparison = costing.compare(payer, other.vu)
    changes = [
        SideChange(
            character_id=int(key),
            name=who[key][0]["name"],
            unit_name=who[key][1].name,
            to_side=other_label,
        )
        for key in comparison.defectors
    ]
    return K12Line(
        sides=[
            SideLine(label, cost.vu, [unit.name for unit in side_units])
            for label, cost, side_units in zip(labels, costed, sides.values(), strict=True)
        ],
        undervalued=payer_label if comparison.surplus > 0 else "",
        surplus=comparison.surplus,
        defectors=[
            f"{isolate_text(change.name)} ({isolate_text(change.unit_name)})" for change in changes
        ],
        beyond=comparison.beyond,
        changes=changes,
    )
