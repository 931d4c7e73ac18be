"""The shape every system's catalogue takes: sections of entries, each entry a name, short
facts, detail lines and a summary. One template and one API serialiser show them all."""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _


@dataclass(frozen=True)
class CatalogueEntry:
    slug: str
    label: str
    facts: list[str] = field(default_factory=list)  # shown after the name, "·" between
    details: list[str] = field(default_factory=list)  # one small line each
    summary: str = ""


@dataclass(frozen=True)
class CatalogueSection:
    key: str  # "archetypes", "weapons"...: the list's id on the page
    item: str  # "archetype", "weapon"...: the prefix of each entry's id
    title: str
    entries: list[CatalogueEntry] = field(default_factory=list)


def plus(value: int) -> str:
    """A modifier as a player writes it: +1, -2, 0."""
    return f"+{value}" if value > 0 else str(value)


def span(low: int | None, high: int | None) -> str:
    """The totals a row of a banded table covers: "up to 5", "6", "8 to 9", "12 and more"
    (written with an en dash between two numbers)."""
    if high is None:
        return _("%(low)s and more") % {"low": low}
    if low is None:
        return _("up to %(high)s") % {"high": high}
    return str(low) if high == low else f"{low}\u2013{high}"
