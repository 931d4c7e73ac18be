"""A recorded roll's inputs as a reader sees them: rows of (what, value) in their language.

`RollRecord.inputs` keeps what the resolver was given (slugs, nested objects such as the
attacker and the target); the roll's page shows a table of labelled rows instead, with
ranks, orders, cover, weapons, armours, affiliations and talents named as the calculators
name them.
"""

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.engine.systems import index_of
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import CatalogueError
from rules.engine.systems.rapid40k.catalogue import load_catalogue as load_rapid40k
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


# Rapid 40000's inputs, in its calculators' words.
RAPID40K_LABELS = {
    "a": gettext_lazy("Squad A"),
    "b": gettext_lazy("Squad B"),
    "target": gettext_lazy("Target"),
    "quality": gettext_lazy("Leader's Quality"),
    "combat": gettext_lazy("Leader's Combat"),
    "special_rules": gettext_lazy("Leader's special rules"),
    "chef_nearby": gettext_lazy("A Chef within command distance"),
    "figures": gettext_lazy("Figures engaged"),
    "shooters": gettext_lazy("Shooters with this weapon"),
    "aimed": gettext_lazy("Aimed shot (two actions)"),
    "charged": gettext_lazy("Charged"),
    "power_attack": gettext_lazy("Power attack (two actions)"),
    "weapon": gettext_lazy("Weapon"),
    "vehicle": gettext_lazy("Vehicle"),
    "attack": gettext_lazy("Attack"),
    "bonus": gettext_lazy("Other bonus"),
    "missile": gettext_lazy("Missile"),
    "explosive_charge": gettext_lazy("Explosive charge"),
}


def _rapid40k_value(key: str, value) -> str:
    catalogue = load_rapid40k()
    if key == "special_rules" and isinstance(value, list):
        rules = catalogue.special_rules
        return ", ".join(rules[s].label if s in rules else s for s in value) or "—"
    for section in (catalogue.weapons, catalogue.vehicles):
        if key in ("weapon", "vehicle") and value in section:
            return section[value].label
    if isinstance(value, str) and value in RAPID40K_LABELS:
        return str(RAPID40K_LABELS[value])
    return _value(key, value)


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
    if isinstance(value, list | tuple):
        return " ".join(str(item) for item in value) or "—"
    if isinstance(value, str) and "_" in value:
        return value.replace("_", " ")  # a choice's slug, read as words ("three round")
    return str(value)


def _label(key: str, words: Mapping[str, Any]) -> str:
    label = words.get(key) or INPUT_LABELS.get(key) or FOLLOW_UP_LABELS.get(key)
    return str(label) if label else key.replace("_", " ").capitalize()


def input_rows(
    inputs: dict, prefix: str = "", system: str = "kolaps", words: Mapping[str, Any] | None = None
) -> list[tuple[str, str]]:
    """(label, value) for each input; a nested object's rows are prefixed with its label
    ("Target · Order"). `words` names a system's fields and choices (the Corporates and
    modern RPG calculators' labels); a system whose rolls pit two squads (`Index.rolls_of_squads`:
    Rapid 40000) brings its own, KOLAPS' are the ground."""
    squads = index_of(system).rolls_of_squads
    words = RAPID40K_LABELS if squads else (words or {})
    rows = []
    for key, value in (inputs or {}).items():
        label = f"{prefix} · {_label(key, words)}" if prefix else _label(key, words)
        if isinstance(value, dict) and key != "talents":
            rows.extend(input_rows(value, label, system, words))
        elif squads:
            rows.append((label, _rapid40k_value(key, value)))
        elif isinstance(value, str) and value in words:
            rows.append((label, str(words[value])))
        else:
            rows.append((label, _value(key, value)))
    return rows
