"""Corporates: the tables of its catalogue data file a player looks up (damage types,
firing modes, covers and their protection, target sizes, ranges, critical wounds,
cybernetics, charges), named as the dice calculators name them."""

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.catalogue.entries import CatalogueEntry, CatalogueSection, plus, span
from rules.dice_calculators.cards import LABELS
from rules.engine.systems.corporates.catalogue import Band, load_catalogue


def _label(key: str) -> str:
    """The calculators' label, capitalised; "" for a key without one (not shown)."""
    text = LABELS.get(key)
    return capfirst(str(text)) if text is not None else ""


def _entries(rows) -> list[CatalogueEntry]:
    """(key, label, facts, details) rows whose key has a label."""
    return [
        CatalogueEntry(slug=key.replace("_", "-"), label=label, facts=facts, details=details)
        for key, label, facts, details in rows
        if label
    ]


def _bands(bands: tuple[Band, ...], low: int | None, label_prefix: str = "") -> list[tuple]:
    """(band, label, span of totals) of a banded table; the first band starts at `low`
    (None: "up to" its top)."""
    rows = []
    for band in bands:
        high = band.at_most
        covered = span(low, high)
        rows.append((band, _label(label_prefix + band.key), covered))
        low = (high or 0) + 1
    return rows


def _rounds(n: int | None) -> str:
    if n is None:
        return ""
    return ngettext("%(n)s round a second", "%(n)s rounds a second", n) % {"n": n}


def sections() -> tuple[str, list[CatalogueSection]]:
    cat = load_catalogue()
    first = {"fatigue": _("fatigue first"), "wound": _("wound first")}
    damage = _entries(
        (
            key,
            _label(key),
            [
                _("fatigue %(n)s") % {"n": split["fatigue"]},
                _("wound %(n)s") % {"n": split["wound"]},
                str(first.get(split["first"], "")),
            ],
            [],
        )
        for key, split in cat.damage["split"].items()
    )
    modes = _entries(
        (
            key,
            _label(key),
            [
                _("fire power %(n)s") % {"n": plus(bonus)},
                _rounds(cat.burst["ammunition_per_second"].get(key)),
            ],
            [],
        )
        for key, bonus in cat.burst["fire_bonus"].items()
    )
    covers = _entries(
        (key, _label(key), [_("protection %(protection)s") % {"protection": value}], [])
        for key, value in cat.shot["protection"].items()
    )
    sizes = _entries(
        (key, _label(key), [_("difficulty %(n)s") % {"n": plus(value)}], [])
        for key, value in cat.shot["size"].items()
    )
    ranges = _entries(
        (key, _label(key), [_("difficulty %(n)s") % {"n": value}], [])
        for key, value in cat.shot["range_base"].items()
    )
    criticals = _entries(
        (band.key, label, [_("total %(span)s") % {"span": covered}], [])
        for band, label, covered in _bands(cat.criticals, None)
    )
    locations = _entries(
        (band.key, label, [_("roll %(span)s") % {"span": covered}], [])
        for band, label, covered in _bands(cat.cyber_locations, None, "location_")
    )
    effects = _entries(
        (
            band.key,
            label,
            [_("die and wound levels: %(span)s") % {"span": covered}],
            [
                _("Repair difficulty %(base)s, +%(per)s per damage level")
                % {"base": band.row["repair_base"], "per": band.row["repair_per_level"]}
                if band.row.get("repair_per_level")
                else _("Repair difficulty %(base)s") % {"base": band.row["repair_base"]}
            ],
        )
        for band, label, covered in _bands(cat.cyber_effects, None)
    )
    charges = _entries(
        (
            key,
            _label(key),
            [
                _("attacker %(n)s") % {"n": plus(bonus["attacker"])},
                _("defender %(n)s") % {"n": plus(bonus["defender"])},
            ],
            [],
        )
        for key, bonus in cat.melee["charge"].items()
        if key != "none"
    )
    return cat.version, [
        CatalogueSection("damage", "damage", _("Damage types"), damage),
        CatalogueSection("firing-modes", "mode", _("Firing modes"), modes),
        CatalogueSection("covers", "cover", _("Covers and their protection"), covers),
        CatalogueSection("sizes", "size", _("Target sizes"), sizes),
        CatalogueSection("ranges", "range", _("Ranges"), ranges),
        CatalogueSection("criticals", "critical", _("Critical wounds"), criticals),
        CatalogueSection("cyber-locations", "location", _("Cybernetics hit"), locations),
        CatalogueSection("cyber-effects", "cyber", _("Cybernetic damage"), effects),
        CatalogueSection("charges", "charge", _("Charges"), charges),
    ]
