"""Corporates characters and their append-only history.

A sheet holds the numbers the Corporates resolvers read (`numbers`, keyed as the catalogue's
`sheet.numbers` names them, each within its range), the melee weapon's damage kind, and the
fatigue and wound levels the character carries from session to session (RULES-NOTES CL3),
with the catalogue version it was built under. `version` is the optimistic-concurrency
counter: a write sends the version it was shown. Each history row keeps the sheet before
and after, so an undo puts `before` back (recompute, never delta).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class CorporatesCharacterQuerySet(models.QuerySet):
    def owned_by(self, user) -> "CorporatesCharacterQuerySet":
        if not user.is_authenticated:
            return self.none()
        return self.filter(owner=user)


class CorporatesCharacter(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="corporates_characters",
        verbose_name=_("owner"),
    )
    name = models.CharField(_("name"), max_length=80)
    description = models.TextField(_("description"), blank=True)
    equipment = models.TextField(_("equipment"), blank=True)
    numbers = models.JSONField(default=dict)
    weapon = models.CharField(_("melee weapon"), max_length=20)
    fatigue = models.PositiveIntegerField(_("fatigue levels"), default=0)
    wounds = models.PositiveIntegerField(_("wound levels"), default=0)
    catalogue_version = models.CharField(max_length=20)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = CorporatesCharacterQuerySet.as_manager()

    class Meta:
        verbose_name = _("Corporates character")
        verbose_name_plural = _("Corporates characters")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class CorporatesCharacterEvent(models.Model):
    """One line of history: who changed the sheet, when, how (`verb`), the sheet before and
    after; `undoes` points at the line an undo took back."""

    character = models.ForeignKey(
        CorporatesCharacter, on_delete=models.CASCADE, related_name="events"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    verb = models.CharField(max_length=40)
    # Where a carried change came from (a chapter's settlement names itself here).
    source = models.CharField(max_length=80, blank=True)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    undoes = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="undone_by"
    )

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.verb} {self.character_id}"
