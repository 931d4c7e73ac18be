"""Campaigns, who takes part in them, and their append-only history.

Writes go through `campaigns.services`; `CampaignEvent` rows are never updated or deleted.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from rules.systems import system_choices


class CampaignQuerySet(models.QuerySet):
    def for_user(self, user) -> "CampaignQuerySet":
        """The campaigns `user` may see: those they organise or take part in."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(Q(organiser=user) | Q(memberships__player=user)).distinct()


class Campaign(models.Model):
    name = models.CharField(_("name"), max_length=120)
    system = models.CharField(_("game system"), max_length=40, choices=system_choices())
    description = models.TextField(_("description"), blank=True)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="organised_campaigns",
        verbose_name=_("organiser"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    objects = CampaignQuerySet.as_manager()

    class Meta:
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "player"], name="membership_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.campaign}"


class CampaignEvent(models.Model):
    """One line of a campaign's history: who did what, when."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    verb = models.CharField(max_length=40)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["campaign", "at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.verb}"


class RollQuerySet(models.QuerySet):
    def for_user(self, user) -> "RollQuerySet":
        """A player sees their own server rolls."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(player=user)


class RollRecord(models.Model):
    """A roll made by the server: who, when, which resolver, the inputs, the seed, the dice.

    Replaying `seed` through the same resolver and inputs gives the same dice and outcome.
    Records are never changed.
    """

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rolls"
    )
    at = models.DateTimeField(auto_now_add=True)
    system = models.CharField(max_length=40)
    resolver = models.CharField(max_length=40)
    inputs = models.JSONField()
    seed = models.BigIntegerField()
    dice = models.JSONField()
    outcome = models.JSONField()

    objects = RollQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["player", "-at"])]

    def __str__(self) -> str:
        return f"{self.system}/{self.resolver} {self.dice}"
