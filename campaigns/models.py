"""Campaigns, who takes part in them (memberships, invitations), and their append-only
history; and, imported here so that Django finds them, the models of the feature folders:
`chapters/` (chapters, votes, vocations, close records, encounter log, calendar feeds),
`settlement/` (the post-chapter ledger) and `statistics/`.

Writes go through `campaigns.services`; `CampaignEvent` rows are never updated or deleted.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaigns.chapters.models import (
    Ballot,
    CalendarFeed,
    Chapter,
    ChapterArmyEntry,
    ChapterCorporatesEntry,
    ChapterModernEntry,
    ChapterOutcome,
    ChapterQuerySet,
    ChapterResult,
    ChapterStatus,
    ChapterUnitEntry,
    ChapterUnitResult,
    EncounterEvent,
    VocationAssignment,
    VocationSource,
    Vote,
    VoteKind,
    VoteStatus,
    ZombieType,
)
from campaigns.notifications.models import (
    NotificationChange,
    NotificationSent,
    NotificationSubscription,
)
from campaigns.settlement.models import ChapterSettlement, SettlementEntry, SettlementStatus
from campaigns.statistics.models import CharacterStatistics
from rules.engine.systems import system_choices

__all__ = [
    "Ballot",
    "CalendarFeed",
    "Campaign",
    "CampaignEvent",
    "CampaignQuerySet",
    "Chapter",
    "ChapterArmyEntry",
    "ChapterCorporatesEntry",
    "ChapterModernEntry",
    "ChapterOutcome",
    "ChapterQuerySet",
    "ChapterResult",
    "ChapterSettlement",
    "ChapterStatus",
    "ChapterUnitEntry",
    "ChapterUnitResult",
    "CharacterStatistics",
    "EncounterEvent",
    "Invitation",
    "Membership",
    "MembershipRole",
    "NotificationChange",
    "NotificationSent",
    "NotificationSubscription",
    "SettlementEntry",
    "SettlementStatus",
    "VocationAssignment",
    "VocationSource",
    "Vote",
    "VoteKind",
    "VoteStatus",
    "ZombieType",
]


class CampaignQuerySet(models.QuerySet):
    def for_user(self, user) -> "CampaignQuerySet":
        """The campaigns `user` may see: those they organise or take part in."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(Q(organiser=user) | Q(memberships__player=user)).distinct()


class Campaign(models.Model):
    ONE_LINE_FIELDS = ("name",)  # characters/one_line.py
    name = models.CharField(_("name"), max_length=120)
    system = models.CharField(_("game system"), max_length=40, choices=system_choices())
    # The campaign's choices where its system's text is open (rules.engine.systems.open_settings);
    # a setting missing here is its stated default.
    rules_settings = models.JSONField(_("rules settings"), default=dict, blank=True)
    description = models.TextField(_("description"), blank=True)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="organised_campaigns",
        verbose_name=_("organiser"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # RULES-NOTES O6: "A campaign has as many chapters as avatars unless its organiser sets
    # otherwise": null means "as many as its players".
    chapters_planned = models.PositiveSmallIntegerField(
        _("number of chapters"), null=True, blank=True
    )
    # RULES-NOTES O6: "+1 for surviving a chapter, +1 more for a victory" unless the
    # campaign sets otherwise. Read by the post-chapter settlement.
    survival_points_survive = models.PositiveSmallIntegerField(
        _("survival points for surviving a chapter"), default=1
    )
    survival_points_victory = models.PositiveSmallIntegerField(
        _("extra survival points for a victory"), default=1
    )

    objects = CampaignQuerySet.as_manager()

    class Meta:
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.name


class MembershipRole(models.TextChoices):
    PLAYER = "player", _("player")
    CO_ORGANISER = "co_organiser", _("co-organiser")


class Membership(models.Model):
    """A player of the campaign, or a co-organiser (who manages it with the organiser and
    does not count as one of its players)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    role = models.CharField(
        _("role"), max_length=16, choices=MembershipRole.choices, default=MembershipRole.PLAYER
    )

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


class Invitation(models.Model):
    """A link that lets whoever holds it join the campaign as a player, until revoked."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.campaign} ({'revoked' if self.revoked_at else 'active'})"
