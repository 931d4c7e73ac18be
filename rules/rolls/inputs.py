"""A recorded roll's inputs as a reader sees them: rows of (what, value) in their language.

`RollRecord.inputs` keeps what the resolver was given (slugs, nested objects such as the
attacker and the target); the roll's page shows a table of labelled rows instead, with
ranks, orders, cover, weapons, armours, affiliations and talents named as the calculators
name them.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.engine.systems.kolaps.catalogue import CatalogueError, load_catalogue
from rules.engine.systems.rapid40k.catalogue import load_catalogue as rapid40k_catalogue
from rules.labels import COVER_LABELS, FOLLOW_UP_LABELS, ORDER_LABELS, RANK_LABELS

INPUT_LABELS = {
    "attacker": gettext_lazy("Attacker"),
    "target": gettext_lazy("Target"),
    "a": gettext_lazy("Fighter A"),
    "b": gettext_lazy("Fighter B"),
    "rank": gettext_lazy("Rank"),
    "target_rank": gettext_lazy("Target's rank"),
    "affiliation": gettext_lazy("Affiliation"),
    "talents": gettext_lazy("Talents"),
    "armour": gettext_lazy("Armour"),
    "weapon": gettext_lazy("Weapon"),
    "mode": gettext_lazy("Firing mode"),
    "distance_cm": gettext_lazy("Distance (cm)"),
    "moved_cm": gettext_lazy("Distance moved (cm)"),
    "order": gettext_lazy("Order"),
    "cover": gettext_lazy("Cover"),
    "extra_protection": gettext_lazy("Extra protection"),
    "equipment_db": gettext_lazy("Equipment DB"),
    "melee_figures": gettext_lazy("Figures in the melee"),
    "db": gettext_lazy("DB"),
    "sante": gettext_lazy("Santé"),
    "souffle": gettext_lazy("Souffle"),
    "moral": gettext_lazy("Moral"),
    "level": gettext_lazy("Level"),
    "supports": gettext_lazy("Supports"),
    "charged": gettext_lazy("Charged"),
    "traits": gettext_lazy("Veteran traits"),
    "wound": gettext_lazy("Wound"),
    "sante_lost": gettext_lazy("Santé lost"),
    "unconscious": gettext_lazy("Unconscious"),
    "engaged": gettext_lazy("Engaged"),
    "in_combat": gettext_lazy("In a melee"),
    "avatar": gettext_lazy("Avatar"),
    "name": gettext_lazy("Name"),
}


CATALOGUE_SECTIONS = {"weapon": "weapons", "armour": "armours", "affiliation": "affiliations"}


def _catalogue_label(kind: str, slug: str) -> str:
    try:
        entries = getattr(load_catalogue(), kind)
    except CatalogueError:
        return slug
    entry = entries.get(slug)
    return entry.label if entry is not None else slug


def _value(key: str, value) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if key in ("rank", "target_rank"):
        return str(RANK_LABELS.get(value, value))
    if key == "order":
        return str(ORDER_LABELS.get(value, value))
    if key == "cover":
        return str(dict(COVER_LABELS).get(value, value))
    if key in ("weapon", "armour", "affiliation"):
        return _catalogue_label(CATALOGUE_SECTIONS[key], value)
    if key == "talents" and isinstance(value, dict):
        return (
            ", ".join(
                f"{_catalogue_label('talents', slug)} {level}" for slug, level in value.items()
            )
            or "—"
        )
    if key == "special_rules" and isinstance(value, list | tuple):
        rules = rapid40k_catalogue().special_rules
        return ", ".join(str(rules[s].label if s in rules else s) for s in value) or "—"
    if isinstance(value, list | tuple):
        return " ".join(str(item) for item in value) or "—"
    if isinstance(value, str) and "_" in value:
        return value.replace("_", " ")  # a choice's slug, read as words ("three round")
    return str(value)


def _label(key: str) -> str:
    label = INPUT_LABELS.get(key) or FOLLOW_UP_LABELS.get(key)
    return str(label) if label else key.replace("_", " ").capitalize()


def input_rows(inputs: dict, prefix: str = "") -> list[tuple[str, str]]:
    """(label, value) for each input; a nested object's rows are prefixed with its label
    ("Target · Order")."""
    rows = []
    for key, value in (inputs or {}).items():
        label = f"{prefix} · {_label(key)}" if prefix else _label(key)
        if isinstance(value, dict) and key != "talents":
            rows.extend(input_rows(value, label))
        else:
            rows.append((label, _value(key, value)))
    return rows
