"""A system's catalogue to browse, filtered by a search: KOLAPS (archetypes, talents,
weapons, armours), Of the Dead (vocations, zombie types and its tables), Rapid 40000
(profiles, weapons, special rules, vehicles, the annex armies), Corporates and the modern
RPG (the tables their dice calculators read). Each system's sections come from its own
module here, every number read from the system's current catalogue data file.

Read from the data files (no query); the page and its API twin share this card. The
search ignores case and accents ("eclaireur" finds "Éclaireur").
"""

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from django.utils.translation import gettext as _

from characters.permissions import Refusal
from rules.catalogue import corporates, kolaps, modern, of_the_dead, rapid40k
from rules.catalogue.entries import CatalogueEntry, CatalogueSection
from rules.engine.systems import system_get

SECTIONS: dict[str, Callable[[], tuple[str, list[CatalogueSection]]]] = {
    "kolaps": kolaps.sections,
    "of-the-dead": of_the_dead.sections,
    "rapid40k": rapid40k.sections,
    "corporates": corporates.sections,
    "modern-rpg": modern.sections,
}
SYSTEMS_WITH_CATALOGUE = tuple(SECTIONS)
QUERY_LENGTH = 80


@dataclass(frozen=True)
class CatalogueCard:
    system: str
    system_name: str
    version: str
    query: str
    sections: list[CatalogueSection] = field(default_factory=list)  # those with a match

    @property
    def found(self) -> int:
        return sum(len(section.entries) for section in self.sections)


def folded(value: str) -> str:
    """`value` without case nor accents, its spaces squeezed: what the search compares."""
    decomposed = unicodedata.normalize("NFKD", value)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def _matches(query: str, section: CatalogueSection, entry: CatalogueEntry) -> bool:
    texts = (section.title, entry.label, entry.summary, *entry.facts, *entry.details)
    return not query or any(query in folded(text) for text in texts)


def catalogue_card(system: str, query: str = "") -> CatalogueCard:
    """Every entry of the system's current catalogue whose name, facts or description (or
    its section's title) contains `query`, ignoring case and accents."""
    if system not in SECTIONS:
        raise Refusal(_("This game system has no catalogue to browse yet."), status=404)
    version, sections = SECTIONS[system]()
    q = folded(query)[:QUERY_LENGTH]
    kept = [
        replace(section, entries=[e for e in section.entries if _matches(q, section, e)])
        for section in sections
    ]
    return CatalogueCard(
        system=system,
        system_name=_(system_get(system).name),
        version=version,
        query=query,
        sections=[section for section in kept if section.entries],
    )
