"""Modern RPG characters and their append-only history.

A character holds its choices (characteristic dice, skill levels, specialities bought in
order) with the catalogue version it was built under, never copies of catalogue numbers:
the XP spent, the budget (creation's and what was awarded since) and the stress threshold
are computed by `rules.engine.systems.modern.creation`.
`version` is the optimistic-concurrency counter: a write sends the version it was shown.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ModernCharacterQuerySet(models.QuerySet):
    def owned_by(self, user) -> "ModernCharacterQuerySet":
        if not user.is_authenticated:
            return self.none()
        return self.filter(owner=user)


class ModernCharacter(models.Model):
    ONE_LINE_FIELDS = ("name",)  # characters/one_line.py
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="modern_characters",
        verbose_name=_("owner"),
    )
    name = models.CharField(_("name"), max_length=80)
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
    catalogue_version = models.CharField(max_length=20)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ModernCharacterQuerySet.as_manager()

    class Meta:
        verbose_name = _("modern RPG character")
        verbose_name_plural = _("modern RPG characters")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class ModernCharacterEvent(models.Model):
    """One line of history: who changed the sheet, when, and the sheet before and after."""

    character = models.ForeignKey(ModernCharacter, on_delete=models.CASCADE, related_name="events")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    verb = models.CharField(max_length=40)
    # Where a carried change came from (a chapter's settlement names itself here).
    source = models.CharField(max_length=80, blank=True)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.verb} {self.character_id}"
