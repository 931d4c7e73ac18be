"""The numbers of an Of the Dead sheet, computed from scratch. Pure: no model, no query.

Services hand these functions plain values (attributes, the effects of active traumas)
and store what they return; nothing here is ever adjusted by a delta.

RULES-NOTES O1: "Attributes Physique, Psychique, Réflexes, Combat: 9 points at creation,
at least 1 each. Life markers = 2 x Physique; Moral = 2 x Psychique."
Rule text: "Au fil des parties, certaines récompenses, trauma ou équipement peuvent modifier
légèrement ces attributs." — an active trauma's effect ({"physique": -1}) is added to the
attribute; an effective attribute never goes below 0 (our reading: the text gives no floor).
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

ATTRIBUTES: tuple[str, ...] = ("physique", "psychique", "reflexes", "combat")
CREATION_POINTS = 9
ATTRIBUTE_MINIMUM = 1
LIFE_MARKERS_PER_PHYSIQUE = 2
MORAL_PER_PSYCHIQUE = 2


@dataclass(frozen=True)
class SheetNumbers:
    physique: int
    psychique: int
    reflexes: int
    combat: int
    life_markers: int
    moral: int

    @property
    def attributes(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in ATTRIBUTES}


def sheet_numbers(
    base: Mapping[str, int], trauma_effects: Iterable[Mapping[str, int] | None]
) -> SheetNumbers:
    """Effective attributes, life markers and Moral (RULES-NOTES O1)."""
    effective = {name: int(base[name]) for name in ATTRIBUTES}
    for effect in trauma_effects:
        for name, change in (effect or {}).items():
            effective[name] += int(change)
    effective = {name: max(0, value) for name, value in effective.items()}
    return SheetNumbers(
        **effective,
        life_markers=LIFE_MARKERS_PER_PHYSIQUE * effective["physique"],
        moral=MORAL_PER_PSYCHIQUE * effective["psychique"],
    )


@dataclass(frozen=True)
class AttributeProblem:
    """Why attributes break O1: `field` is an attribute name, or None for the total."""

    field: str | None
    code: str  # "minimum" or "total"
    total: int


def creation_problems(attributes: Mapping[str, int]) -> list[AttributeProblem]:
    """What keeps these attributes from a valid creation (RULES-NOTES O1), in field order:
    each attribute below 1, then a total other than 9."""
    problems = [
        AttributeProblem(field=name, code="minimum", total=0)
        for name in ATTRIBUTES
        if attributes[name] < ATTRIBUTE_MINIMUM
    ]
    total = sum(attributes[name] for name in ATTRIBUTES)
    if total != CREATION_POINTS:
        problems.append(AttributeProblem(field=None, code="total", total=total))
    return problems


def effect_problems(effect: object) -> str | None:
    """Why a trauma's effect is not {attribute: non-zero integer}, or None when it is."""
    if effect is None:
        return None
    if not isinstance(effect, dict) or not effect:
        return "shape"
    for name, change in effect.items():
        if name not in ATTRIBUTES:
            return "attribute"
        if not isinstance(change, int) or isinstance(change, bool) or change == 0:
            return "change"
        if abs(change) > CREATION_POINTS:
            return "change"
    return None
