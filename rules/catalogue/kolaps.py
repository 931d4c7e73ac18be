"""KOLAPS: archetypes (with their affiliation and ranks), talents, weapons and armours,
named as the builders name them."""

from django.utils.translation import gettext as _

from characters.kolaps import text
from characters.kolaps.cards import DAMAGE_LABELS, KIND_LABELS
from rules.catalogue.entries import CatalogueEntry, CatalogueSection
from rules.engine.systems.kolaps.catalogue import load_catalogue


def _summary(value: str) -> str:
    return _(value) if value else ""


def sections() -> tuple[str, list[CatalogueSection]]:
    cat = load_catalogue()
    archetypes = [
        CatalogueEntry(
            slug=a.slug,
            label=a.label,
            facts=[text.affiliation_label(cat, a.affiliation)],
            details=[
                _("Ranks: %(ranks)s")
                % {"ranks": ", ".join(text.rank_label(cat, rank) for rank in a.ranks)},
                *(
                    [
                        _("Talents: %(talents)s")
                        % {
                            "talents": ", ".join(
                                text.talent_label(cat, slug) for slug in a.talent_slugs
                            )
                        }
                    ]
                    if a.talent_slugs
                    else []
                ),
            ],
            summary=_summary(a.summary),
        )
        for a in cat.archetypes.values()
    ]
    talents = [
        CatalogueEntry(
            slug=t.slug,
            label=t.label,
            facts=[
                str(KIND_LABELS.get(t.kind, t.kind)),
                *([text.affiliation_label(cat, t.affiliation)] if t.affiliation else []),
            ],
            summary=_summary(t.summary),
        )
        for t in cat.talents.values()
    ]
    weapons = [
        CatalogueEntry(
            slug=w.slug,
            label=w.label,
            facts=[
                str(DAMAGE_LABELS.get(w.damage_type, w.damage_type)),
                _("power %(power)s") % {"power": w.power},
                text.talent_label(cat, w.talent),
            ],
        )
        for w in cat.weapons.values()
    ]
    armours = [
        CatalogueEntry(
            slug=a.slug,
            label=a.label,
            facts=[
                _("protection %(protection)s")
                % {
                    "protection": ", ".join(
                        f"{DAMAGE_LABELS.get(kind, kind)} {value}"
                        for kind, value in a.protection.items()
                    )
                }
            ],
        )
        for a in cat.armours.values()
    ]
    return cat.version, [
        CatalogueSection("archetypes", "archetype", _("Archetypes"), archetypes),
        CatalogueSection("talents", "talent", _("Talents"), talents),
        CatalogueSection("weapons", "weapon", _("Weapons"), weapons),
        CatalogueSection("armours", "armour", _("Armours"), armours),
    ]
