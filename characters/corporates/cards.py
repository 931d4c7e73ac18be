"""Fetch and authorise a Corporates character (its owner's alone: anyone else gets a 404),
and the plain data its pages, print, API and export show."""

from dataclasses import dataclass

from django.http import Http404
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from characters.corporates.models import CorporatesCharacter
from characters.corporates.services import corporates_character_can_undo
from characters.corporates.text import GROUPS, number_label, weapon_label
from characters.permissions import Role, require
from rules.engine.systems.corporates.catalogue import load_catalogue

CAN_EDIT = {Role.OWNER}


def _role(user, character: CorporatesCharacter) -> set[Role]:
    roles = {Role.ANYONE}
    if user.is_authenticated and character.owner_id == user.pk:
        roles.add(Role.OWNER)
    return roles


def corporates_character_get_for_user(user, pk: int, *, need: str = "edit") -> CorporatesCharacter:
    """The character, or a 404 for anyone but its owner ("view" and "edit" alike: a sheet
    is private until a campaign shows it)."""
    character = CorporatesCharacter.objects.filter(pk=pk).first()
    if character is None:
        raise Http404
    require(_role(user, character), CAN_EDIT, visible=CAN_EDIT)
    return character


def number_groups(names) -> list[tuple[str, list[str]]]:
    """The sheet's numbers by section, each name once, in the catalogue's set."""
    names = list(names)
    groups = [(str(label), [n for n in members if n in names]) for label, members in GROUPS]
    placed = {n for _label, members in groups for n in members}
    rest = [n for n in names if n not in placed]
    if rest:
        groups[-1][1].extend(rest)
    return groups


@dataclass(frozen=True)
class SheetCard:
    character: CorporatesCharacter
    groups: list[tuple[str, list[tuple[str, int]]]]
    weapon: str
    levels_max: int
    can_undo: bool


def sheet_card(character: CorporatesCharacter, *, can_undo: bool | None = None) -> SheetCard:
    catalogue = load_catalogue()
    return SheetCard(
        character=character,
        groups=[
            (label, [(number_label(n), character.numbers.get(n)) for n in names])
            for label, names in number_groups(catalogue.sheet["numbers"])
        ],
        weapon=weapon_label(character.weapon),
        levels_max=catalogue.sheet["levels_max"],
        can_undo=corporates_character_can_undo(character) if can_undo is None else can_undo,
    )


def sheet_export(character: CorporatesCharacter) -> dict:
    """The sheet as plain data: the numbers, the weapon, the levels carried, the catalogue
    version."""
    return {
        "system": "corporates",
        "catalogue_version": character.catalogue_version,
        "name": character.name,
        "description": character.description,
        "equipment": character.equipment,
        "numbers": character.numbers,
        "weapon": character.weapon,
        "fatigue": character.fatigue,
        "wounds": character.wounds,
    }


def _shown(field: str, value) -> str:
    if field == "weapon":
        return weapon_label(value)
    return str(value)


FIELD_LABELS = {
    "name": _("Name"),
    "description": _("Description"),
    "equipment": _("Equipment"),
    "weapon": _("Melee weapon's damage"),
    "fatigue": _("Fatigue levels"),
    "wounds": _("Wound levels"),
}


def _change(label: str, old, new) -> str:
    return gettext("%(label)s: %(old)s → %(new)s") % {"label": label, "old": old, "new": new}


def event_changes(event) -> list[str]:
    """What a line of history changed, field by field ("Melee dice: 5 → 6")."""
    if not event.before or not event.after:
        return []
    lines = []
    for field, label in FIELD_LABELS.items():
        old, new = event.before.get(field), event.after.get(field)
        if old != new:
            if field in ("description", "equipment", "name"):
                lines.append(str(label))
            else:
                lines.append(_change(str(label), _shown(field, old), _shown(field, new)))
    old_numbers, new_numbers = event.before.get("numbers") or {}, event.after.get("numbers") or {}
    for name in new_numbers:
        if old_numbers.get(name) != new_numbers[name]:
            lines.append(_change(number_label(name), old_numbers.get(name), new_numbers[name]))
    return lines
