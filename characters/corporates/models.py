"""Corporates characters and their append-only history.

A sheet holds the numbers the Corporates resolvers read (`numbers`, keyed as the catalogue's
`sheet.numbers` names them, each within its range), the melee weapon's damage kind, and the
fatigue and wound levels the character carries from session to session (RULES-NOTES CL3),
with the catalogue version it was built under. `version` is the optimistic-concurrency
counter: a write sends the version it was shown. Each history row keeps the sheet before
and after, so an undo puts `before` back (recompute, never delta).
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from characters.rosters.models import SheetEvent, Versioned, owner_field


class CorporatesCharacter(Versioned):
    owner = owner_field("corporates_characters")
    description = models.TextField(_("description"), blank=True)
    equipment = models.TextField(_("equipment"), blank=True)
    numbers = models.JSONField(default=dict)
    weapon = models.CharField(_("melee weapon"), max_length=20)
    fatigue = models.PositiveIntegerField(_("fatigue levels"), default=0)
    wounds = models.PositiveIntegerField(_("wound levels"), default=0)

    class Meta(Versioned.Meta):
        verbose_name = _("Corporates character")
        verbose_name_plural = _("Corporates characters")


class CorporatesCharacterEvent(SheetEvent):
    """A line of the sheet's history; `undoes` points at the line an undo took back."""

    character = models.ForeignKey(
        CorporatesCharacter, on_delete=models.CASCADE, related_name="events"
    )
    undoes = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="undone_by"
    )
