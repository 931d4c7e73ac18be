"""Modern RPG characters and their append-only history.

A character holds its choices (characteristic dice, skill levels, specialities bought in
order) with the catalogue version it was built under, never copies of catalogue numbers:
the XP spent, the budget (creation's and what was awarded since) and the stress threshold
are computed by `rules.engine.systems.modern.creation`.
`version` is the optimistic-concurrency counter: a write sends the version it was shown.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from characters.rosters.models import SheetEvent, Versioned, owner_field


class ModernCharacter(Versioned):
    owner = owner_field("modern_characters")
    description = models.TextField(_("description"), blank=True)
    characteristics = models.JSONField(default=dict)
    skills = models.JSONField(default=dict)
    # [[name, characteristic], ...] in the order bought: the order sets each one's price.
    specialities = models.JSONField(default=list)
    equipment = models.TextField(_("equipment"), blank=True)
    hp = models.IntegerField(_("hit points"), default=10)
    hp_max = models.PositiveIntegerField(_("maximum hit points"), default=10)
    stress = models.PositiveIntegerField(_("stress"), default=0)
    # XP the organiser awarded after creation, by where it came from ({"chapter:12": 3}):
    # keyed so that settling a chapter again awards it once (RULES-NOTES CL4).
    xp_awards = models.JSONField(default=dict)

    class Meta(Versioned.Meta):
        verbose_name = _("modern RPG character")
        verbose_name_plural = _("modern RPG characters")


class ModernCharacterEvent(SheetEvent):
    """A line of the sheet's history."""

    character = models.ForeignKey(ModernCharacter, on_delete=models.CASCADE, related_name="events")
