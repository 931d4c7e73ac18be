"""The modern RPG: characteristics and creation, the skills and specialities a sheet
chooses from, attitudes, vests and ammunition, range
bands and the chase (leads and events) of its catalogue data file, named as the dice
calculators and the character sheet name them."""

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from characters.modern.text import characteristic_label, skill_label, speciality_label
from rules.catalogue.entries import CatalogueEntry, CatalogueSection, plus, span
from rules.dice_calculators.cards import LABELS
from rules.engine.systems.modern.catalogue import load_catalogue


def _label(key: str) -> str:
    text = LABELS.get(key)
    return capfirst(str(text)) if text is not None else ""


def _entry(key: str, label: str, facts: list[str], summary: str = "") -> CatalogueEntry:
    return CatalogueEntry(
        slug=key.replace("_", "-"), label=label, facts=[f for f in facts if f], summary=summary
    )


def _attitude(row) -> list[str]:
    facts = []
    if row.get("own_shift"):
        facts.append(_("own threshold %(n)s") % {"n": plus(row["own_shift"])})
    if row.get("target_shift"):
        facts.append(_("threshold against it %(n)s") % {"n": plus(row["target_shift"])})
    if row.get("protection"):
        facts.append(_("protection %(protection)s") % {"protection": row["protection"]})
    if row.get("ammo_max") is not None:
        facts.append(_("ammunition at most %(n)s") % {"n": row["ammo_max"]})
    if row.get("ammo_bonus"):
        facts.append(_("ammunition %(n)s") % {"n": plus(row["ammo_bonus"])})
    if row.get("initiative_die"):
        facts.append(_("initiative d%(n)s") % {"n": row["initiative_die"]})
    if not row.get("melee", True):
        facts.append(_("no melee"))
    return facts


def sections() -> tuple[str, list[CatalogueSection]]:
    cat = load_catalogue()
    creation = cat.creation
    characteristics = [
        _entry(name, characteristic_label(name), []) for name in creation.get("characteristics", [])
    ]
    characteristics.append(
        _entry(
            "creation",
            _("Creation"),
            [
                _("%(n)s points of characteristics") % {"n": creation["characteristic_total"]},
                _("%(n)s XP") % {"n": creation["xp"]},
            ],
            _(
                "A speciality costs %(cost)s XP and adds %(increase)s; a skill level costs "
                "%(level)s XP."
            )
            % {
                "cost": creation["speciality_cost"],
                "increase": creation["speciality_increase"],
                "level": creation["skill_level_cost"],
            },
        )
    )
    attitudes = [
        _entry(key, _label(key), _attitude(cat.attitudes[key]))
        for key in cat.attitude_order
        if _label(key)
    ]
    vests = [
        _entry(key, _label(key), [_("protection %(protection)s") % {"protection": value}])
        for key, value in cat.protection["vests"].items()
        if _label(key) and key != "none"
    ]
    ammunition = [
        _entry(
            key,
            _label(key),
            [
                ngettext(
                    "ignores %(n)s protection die",
                    "ignores %(n)s protection dice",
                    row["ignore_protection_dice"],
                )
                % {"n": row["ignore_protection_dice"]}
                if row.get("ignore_protection_dice")
                else "",
                _("damage %(n)s") % {"n": plus(row["damage"])} if row.get("damage") else "",
            ],
        )
        for key, row in cat.protection["ammunition"].items()
        if _label(key)
    ]
    ranges = [_entry(key, _label(key), []) for key in cat.ranges if _label(key)]
    leads = []
    low = None
    for band in cat.chase["lead_bands"]:
        high = band.get("at_most")
        covered = span(band.get("from", low) if high is None else low, high)
        if _label(band["key"]):
            facts = [_("lead %(span)s") % {"span": covered}]
            leads.append(_entry(band["key"], _label(band["key"]), facts))
        low = (high or 0) + 1
    events = [
        _entry(
            f"{ground}-{event['key']}",
            _label(event["key"]),
            [
                _label(ground),
                _("range %(n)s") % {"n": plus(event["range"])} if event.get("range") else "",
                _("stress %(n)s") % {"n": plus(event["stress"])} if event.get("stress") else "",
            ],
        )
        for ground, rows in cat.chase["events"].items()
        for event in rows
        if _label(event["key"])
    ]
    per_level = _("%(n)s XP a level") % {"n": creation["skill_level_cost"]}
    skills = [_entry(f"skill-{key}", skill_label(key), [per_level]) for key in creation["skills"]]
    specialities = [
        _entry(f"speciality-{key}", speciality_label(key), [characteristic_label(characteristic)])
        for key, characteristic in creation["specialities"].items()
    ]
    return cat.version, [
        CatalogueSection(
            "characteristics", "characteristic", _("Characteristics"), characteristics
        ),
        CatalogueSection("skills", "skill", _("Skills"), skills),
        CatalogueSection("specialities", "speciality", _("Specialities"), specialities),
        CatalogueSection("attitudes", "attitude", _("Attitudes"), attitudes),
        CatalogueSection("vests", "vest", _("Bulletproof vests"), vests),
        CatalogueSection("ammunition", "ammunition", _("Ammunition"), ammunition),
        CatalogueSection("ranges", "range", _("Range bands"), ranges),
        CatalogueSection("chase-leads", "lead", _("Chase: leads"), leads),
        CatalogueSection("chase-events", "event", _("Chase: events"), events),
    ]
