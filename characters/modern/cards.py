"""Fetch and authorise a modern RPG character (its owner's alone: anyone else gets a 404),
and the plain data its pages, print and export show."""

from dataclasses import dataclass

from django.http import Http404

from characters.modern.models import ModernCharacter
from characters.modern.services import problem_sentence, sheet_check
from characters.modern.text import (
    characteristic_label,
    skill_label,
    speciality_label,
)
from characters.permissions import Role, require

CAN_EDIT = {Role.OWNER}


def _role(user, character: ModernCharacter) -> set[Role]:
    roles = {Role.ANYONE}
    if user.is_authenticated and character.owner_id == user.pk:
        roles.add(Role.OWNER)
    return roles


def modern_character_get_for_user(user, pk: int, *, need: str = "edit") -> ModernCharacter:
    """The character, or a 404 for anyone but its owner ("view" and "edit" alike)."""
    character = ModernCharacter.objects.filter(pk=pk).first()
    if character is None:
        raise Http404
    require(_role(user, character), CAN_EDIT, visible=CAN_EDIT)
    return character


@dataclass(frozen=True)
class SheetCard:
    character: ModernCharacter
    xp_spent: int
    xp_budget: int
    characteristic_total: int
    characteristic_budget: int
    stress_threshold: int | None
    specialities: list[tuple[str, str, int]]
    skills: list[tuple[str, int]]
    xp_awarded: int
    notes: list[str]

    @property
    def characteristics(self) -> list[tuple[str, int]]:
        """(label, die) of each characteristic, named as the sheet names them."""
        return [
            (characteristic_label(name), die)
            for name, die in self.character.characteristics.items()
        ]


def sheet_card(character: ModernCharacter) -> SheetCard:
    check = sheet_check(character)
    return SheetCard(
        character=character,
        xp_spent=check.xp_spent,
        xp_budget=check.xp_budget,
        characteristic_total=check.characteristic_total,
        characteristic_budget=check.characteristic_budget,
        stress_threshold=check.stress_threshold,
        skills=[(skill_label(name), level) for name, level in character.skills.items()],
        xp_awarded=sum(character.xp_awards.values()),
        specialities=[
            (speciality_label(name), characteristic_label(characteristic), cost)
            for (name, characteristic), cost in zip(
                character.specialities, check.speciality_costs, strict=True
            )
        ],
        notes=[problem_sentence(p) for p in check.problems],
    )


def sheet_export(character: ModernCharacter) -> dict:
    """The sheet as a file: what the player chose, with the catalogue version."""
    card = sheet_card(character)
    return {
        "system": "modern-rpg",
        "catalogue_version": character.catalogue_version,
        "name": character.name,
        "description": character.description,
        "characteristics": character.characteristics,
        "skills": character.skills,
        "specialities": [
            {"name": name, "characteristic": characteristic, "xp": cost}
            for (name, characteristic), (_n, _label, cost) in zip(
                character.specialities, card.specialities, strict=True
            )
        ],
        "equipment": character.equipment,
        "hp": character.hp,
        "hp_max": character.hp_max,
        "stress": character.stress,
        "stress_threshold": card.stress_threshold,
        "xp_spent": card.xp_spent,
        "xp_budget": card.xp_budget,
        "xp_awards": character.xp_awards,
    }
