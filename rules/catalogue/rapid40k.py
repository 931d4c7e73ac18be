"""Rapid 40000: the base profiles, weapons, special rules and vehicles of the catalogue data
file, and the profiles of each annex army with their printed cost."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.catalogue.entries import CatalogueEntry, CatalogueSection, plus
from rules.engine.systems.rapid40k.catalogue import Catalogue, load_catalogue

KIND_LABELS = {
    "flame_template": gettext_lazy("flame template"),
    "blast_template": gettext_lazy("blast template"),
}


def _profile(quality: int, combat: int) -> list[str]:
    return [_("Quality %(q)s+") % {"q": quality}, _("Combat %(c)s") % {"c": combat}]


def _points(n: int) -> str:
    return _("%(n)s points") % {"n": n}


def _rules(cat: Catalogue, slugs) -> list[str]:
    names = [cat.special_rules[s].label for s in slugs if s in cat.special_rules]
    return [_("Special rules: %(rules)s") % {"rules": ", ".join(names)}] if names else []


def _weapons(cat: Catalogue, slugs) -> str:
    names = [cat.weapons[s].label for s in slugs if s in cat.weapons]
    return _("Weapons: %(weapons)s") % {"weapons": ", ".join(names)}


def sections() -> tuple[str, list[CatalogueSection]]:
    cat = load_catalogue()
    profiles = [
        CatalogueEntry(slug=p.slug, label=p.label, facts=_profile(p.quality, p.combat))
        for p in cat.base_profiles.values()
    ]
    weapons = [
        CatalogueEntry(
            slug=w.slug,
            label=w.label,
            facts=[
                _('range %(r)s"') % {"r": w.range}
                if w.range is not None
                else str(KIND_LABELS.get(w.kind, "")),
                *([_("Combat %(c)s") % {"c": plus(w.combat_bonus)}] if w.combat_bonus else []),
                _points(w.cost),
                *([_("special weapon")] if w.special else []),
            ],
            details=(
                [_("Counts as: %(weapon)s") % {"weapon": cat.weapons[w.equivalent_of].label}]
                if w.equivalent_of in cat.weapons
                else []
            ),
        )
        for w in cat.weapons.values()
    ]
    special_rules = [
        CatalogueEntry(slug=r.slug, label=r.label, facts=[_points(r.cost)])
        for r in cat.special_rules.values()
    ]
    vehicles = [
        CatalogueEntry(
            slug=v.slug,
            label=v.label,
            facts=[*_profile(v.quality, v.combat), _points(v.printed_cost)],
            details=[_weapons(cat, v.weapons), *_rules(cat, v.special_rules)],
        )
        for v in cat.vehicles.values()
    ]
    armies = [
        CatalogueSection(
            f"army-{army.slug}",
            f"{army.slug}",
            _("Army: %(army)s") % {"army": army.label},
            [
                CatalogueEntry(
                    slug=printed.slug,
                    label=printed.label,
                    facts=[
                        *_profile(printed.profile.quality, printed.profile.combat),
                        _points(printed.printed_cost),
                    ],
                    details=[
                        _weapons(cat, [printed.profile.weapon]),
                        *_rules(cat, printed.profile.special_rules),
                    ],
                )
                for printed in army.profiles.values()
            ],
        )
        for army in cat.armies.values()
    ]
    return cat.version, [
        CatalogueSection("profiles", "profile", _("Base profiles"), profiles),
        CatalogueSection("weapons", "weapon", _("Weapons"), weapons),
        CatalogueSection("special-rules", "special-rule", _("Special rules"), special_rules),
        CatalogueSection("vehicles", "vehicle", _("Vehicles"), vehicles),
        *armies,
    ]
