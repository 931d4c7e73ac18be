"""A system's catalogue to browse: archetypes (with their affiliation and ranks), talents,
weapons and armours, named as the builders name them, filtered by a search.

Read from the catalogue data file (no query); the page and its API twin share this card.
Summaries are the catalogue's English, shown in the reader's language (locale/).
"""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from characters.kolaps import text
from characters.kolaps.cards import DAMAGE_LABELS, KIND_LABELS
from characters.permissions import Refusal
from rules.engine.systems import system_get
from rules.engine.systems.kolaps.catalogue import load_catalogue

SYSTEMS_WITH_CATALOGUE = ("kolaps",)


@dataclass(frozen=True)
class ArchetypeEntry:
    slug: str
    label: str
    affiliation: str
    ranks: list[str]
    talents: list[str]
    summary: str


@dataclass(frozen=True)
class TalentEntry:
    slug: str
    label: str
    kind: str
    affiliation: str  # "" when any affiliation may take it
    summary: str


@dataclass(frozen=True)
class WeaponEntry:
    slug: str
    label: str
    damage: str
    power: str
    talent: str


@dataclass(frozen=True)
class ArmourEntry:
    slug: str
    label: str
    protection: str


@dataclass(frozen=True)
class CatalogueCard:
    system: str
    system_name: str
    version: str
    query: str
    archetypes: list[ArchetypeEntry] = field(default_factory=list)
    talents: list[TalentEntry] = field(default_factory=list)
    weapons: list[WeaponEntry] = field(default_factory=list)
    armours: list[ArmourEntry] = field(default_factory=list)

    @property
    def found(self) -> int:
        return len(self.archetypes) + len(self.talents) + len(self.weapons) + len(self.armours)


def _matches(query: str, *texts: str) -> bool:
    return not query or any(query in value.casefold() for value in texts)


def _summary(value: str) -> str:
    return _(value) if value else ""


def catalogue_card(system: str, query: str = "") -> CatalogueCard:
    """Everything of the system's current catalogue whose name or description contains
    `query` (any case)."""
    if system not in SYSTEMS_WITH_CATALOGUE:
        raise Refusal(_("This game system has no catalogue to browse yet."), status=404)
    cat = load_catalogue()
    q = " ".join(query.split()).casefold()[:80]
    archetypes = [
        ArchetypeEntry(
            slug=a.slug,
            label=a.label,
            affiliation=text.affiliation_label(cat, a.affiliation),
            ranks=[text.rank_label(cat, rank) for rank in a.ranks],
            talents=[text.talent_label(cat, slug) for slug in a.talent_slugs],
            summary=_summary(a.summary),
        )
        for a in cat.archetypes.values()
    ]
    talents = [
        TalentEntry(
            slug=t.slug,
            label=t.label,
            kind=str(KIND_LABELS.get(t.kind, t.kind)),
            affiliation=text.affiliation_label(cat, t.affiliation) if t.affiliation else "",
            summary=_summary(t.summary),
        )
        for t in cat.talents.values()
    ]
    weapons = [
        WeaponEntry(
            slug=w.slug,
            label=w.label,
            damage=str(DAMAGE_LABELS.get(w.damage_type, w.damage_type)),
            power=w.power,
            talent=text.talent_label(cat, w.talent),
        )
        for w in cat.weapons.values()
    ]
    armours = [
        ArmourEntry(
            slug=a.slug,
            label=a.label,
            protection=", ".join(
                f"{DAMAGE_LABELS.get(kind, kind)} {value}" for kind, value in a.protection.items()
            ),
        )
        for a in cat.armours.values()
    ]
    return CatalogueCard(
        system=system,
        system_name=system_get(system).name,
        version=cat.version,
        query=query,
        archetypes=[
            a for a in archetypes if _matches(q, a.label, a.affiliation, a.summary, *a.talents)
        ],
        talents=[t for t in talents if _matches(q, t.label, t.kind, t.affiliation, t.summary)],
        weapons=[w for w in weapons if _matches(q, w.label, w.damage, w.talent)],
        armours=[a for a in armours if _matches(q, a.label, a.protection)],
    )
