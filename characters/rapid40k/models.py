"""Rapid 40000 army lists, their squads and their append-only history.

Squads hold choices (profiles as Quality, Combat, a weapon slug and special-rule slugs; a
vehicle slug), with the catalogue version the army records; never copies of costs. What a
list is worth is computed by `rules.engine.systems.rapid40k.costing`; `points` and `status`
on the army and `points` on a squad are kept so lists and pages show them without pricing
again, and `characters.rapid40k.services` recomputes them from scratch on every write.

`version` is the optimistic-concurrency counter: every write sends the version it was
shown, and a stale one is refused with the current state.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Rapid40kArmyQuerySet(models.QuerySet):
    def owned_by(self, user) -> "Rapid40kArmyQuerySet":
        if not user.is_authenticated:
            return self.none()
        return self.filter(owner=user)


class Rapid40kArmy(models.Model):
    ONE_LINE_FIELDS = ("name",)  # characters/one_line.py

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        VALID = "valid", _("Valid")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rapid40k_armies",
        verbose_name=_("owner"),
    )
    name = models.CharField(_("name"), max_length=80)
    # The annex army whose profiles the builder offers first ("" for none).
    faction = models.CharField(_("army"), max_length=40, blank=True)
    points_limit = models.PositiveIntegerField(_("points limit"), null=True, blank=True)
    points = models.PositiveIntegerField(_("points"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    share_token = models.CharField(max_length=43, unique=True, null=True, blank=True)
    catalogue_version = models.CharField(max_length=20)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = Rapid40kArmyQuerySet.as_manager()

    class Meta:
        verbose_name = _("Rapid 40000 army")
        verbose_name_plural = _("Rapid 40000 armies")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_valid(self) -> bool:
        return self.status == self.Status.VALID


class Rapid40kSquad(models.Model):
    ONE_LINE_FIELDS = ("name",)  # characters/one_line.py
    army = models.ForeignKey(Rapid40kArmy, on_delete=models.CASCADE, related_name="squads")
    position = models.PositiveIntegerField(default=0)
    name = models.CharField(_("name"), max_length=80)
    slot = models.CharField(_("role"), max_length=20)
    vehicle = models.CharField(_("vehicle"), max_length=40, blank=True)
    # {"quality", "combat", "weapon", "special_rules"} or null (a vehicle, or no leader yet).
    leader = models.JSONField(null=True, blank=True)
    # [{"quality", "combat", "weapon", "special_rules", "count"}]: fighters by profile.
    fighters = models.JSONField(default=list, blank=True)
    points = models.PositiveIntegerField(_("points"), default=0)

    class Meta:
        ordering = ["position", "pk"]
        indexes = [models.Index(fields=["army", "position"])]

    def __str__(self) -> str:
        return self.name


class Rapid40kChange(models.Model):
    """One line of history: who changed the army, when, what, and its state before and
    after. Rows are only added; an undo is a new row restoring the `before` of the row it
    undoes (`undoes`)."""

    army = models.ForeignKey(Rapid40kArmy, on_delete=models.CASCADE, related_name="changes")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    verb = models.CharField(max_length=40)
    data = models.JSONField(default=dict, blank=True)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    undoes = models.OneToOneField(
        "self", on_delete=models.CASCADE, null=True, related_name="undone_by"
    )

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["army", "-at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.verb}"
