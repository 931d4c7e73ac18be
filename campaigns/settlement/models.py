"""The post-chapter settlement's records, imported by campaigns.models.

- `ChapterSettlement`: one per chapter, what the organiser asked for and how far the
  background task got (shown by the progress page).
- `SettlementEntry`: the ledger. One row per chapter and participant, written in the
  same transaction as the effects it records; its unique key (chapter, player), among the
  rows not reverted, is what makes a settlement apply once. Every derived number
  (survival points, statistics) is recomputed from these rows, never adjusted by deltas.
  Rows are never deleted: reopening a chapter marks them `reverted_at`.

The settlement also reads `campaigns.chapters.models.EncounterEvent` (the encounter log of
the chapter, summed into the ledger as damage dealt and taken and rolls made) and rebuilds
`campaigns.statistics.models.CharacterStatistics` from the ledger.
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns.statistics.models import SummedColumns


class SettlementStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")
    REOPENED = "reopened", _("reopened")


class ChapterSettlement(models.Model):
    """The organiser's confirmation and the task's progress for one chapter."""

    chapter = models.OneToOneField(
        "campaigns.Chapter", on_delete=models.CASCADE, related_name="settlement"
    )
    status = models.CharField(max_length=12, choices=SettlementStatus.choices)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    requested_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    summary = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"settlement of chapter {self.chapter_id}: {self.status}"

    @property
    def is_stale(self) -> bool:
        """Queued or running for longer than a task may live (its hard time limit plus the
        longest wait before a retry): its worker died before it could say so, and the
        organiser may confirm again. A second delivery is harmless (the task is idempotent
        by state)."""
        if self.status not in (SettlementStatus.QUEUED, SettlementStatus.RUNNING):
            return False
        since = self.started_at or self.requested_at
        limit = timedelta(
            seconds=settings.SETTLEMENT_TIME_LIMIT + settings.SETTLEMENT_RETRY_MAX_COUNTDOWN
        )
        return since is not None and timezone.now() - since > limit


class SettlementEntry(SummedColumns):
    """What one chapter meant for one participant, as settled (the ledger)."""

    chapter = models.ForeignKey(
        "campaigns.Chapter", on_delete=models.CASCADE, related_name="ledger"
    )
    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="ledger"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ledger"
    )
    profile = models.ForeignKey(
        "characters.Profile", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    result = models.CharField(max_length=8)
    died = models.BooleanField(default=False)
    survived = models.BooleanField(default=True)
    won = models.BooleanField(default=False)
    # What was changed, in order, so that reopening can revert it: a list of
    # {"op": "trauma_healed" | "trauma_made_permanent" | "status", ...}.
    effects = models.JSONField(default=list, blank=True)
    settled_at = models.DateTimeField()
    reverted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["settled_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["chapter", "player"],
                condition=Q(reverted_at__isnull=True),
                name="ledger_once_per_chapter_and_player",
            )
        ]
        indexes = [
            models.Index(fields=["player", "settled_at"], name="ledger_player_idx"),
            models.Index(fields=["campaign", "player"], name="ledger_campaign_idx"),
        ]

    def __str__(self) -> str:
        return f"chapter {self.chapter_id} / player {self.player_id}"
