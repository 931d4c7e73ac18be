"""Opt-in e-mail notifications: who asked for them (with the token of their unsubscribe
link) and which were sent, one row per (history line, player) so none goes twice.

A notification follows a line of a campaign's history (`CampaignEvent`): a chapter planned
or moved, a vote opened, a chapter settled. The receiver below enqueues the task once the
line is committed; the task (`campaigns.notifications.tasks.event_notify`) is looked up by
name in Celery's registry, which keeps the models free of the task's imports.
"""

import secrets

from celery import current_app
from django.conf import settings
from django.db import models, transaction
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _

# Verbs of the history that may notify; `chapter_updated` only when its date or place moved.
NOTIFIED_VERBS = (
    "chapter_planned",
    "chapter_updated",
    "vote_opened",
    "vote_closing",
    "chapter_settled",
)
EVENT_NOTIFY_TASK = "campaigns.notifications.tasks.event_notify"


def new_token() -> str:
    return secrets.token_urlsafe(32)


class NotificationSubscription(models.Model):
    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notification_subscription",
        verbose_name=_("player"),
    )
    enabled = models.BooleanField(_("e-mail notifications"), default=False)
    language = models.CharField(_("language"), max_length=8, default="fr")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("notification subscription")
        verbose_name_plural = _("notification subscriptions")

    def __str__(self) -> str:
        return f"{self.player} ({'on' if self.enabled else 'off'})"


class NotificationChange(models.Model):
    """One line of the history of a player's notification settings: who changed them
    (the player, or nobody when the mail's unsubscribe link did), when, and what (`verb`,
    with the language chosen in `data`). Never updated or deleted."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_changes"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    verb = models.CharField(max_length=40)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["player", "at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.verb}"


class NotificationSent(models.Model):
    event = models.ForeignKey("campaigns.CampaignEvent", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="notification_sent_once")
        ]

    def __str__(self) -> str:
        return f"event {self.event_id} -> player {self.player_id}"


def _enqueue(event_id: int) -> None:
    app = current_app
    if EVENT_NOTIFY_TASK not in app.tasks:
        # A web process imports the apps' task modules the way a worker does at start.
        app.loader.import_default_modules()
    app.tasks[EVENT_NOTIFY_TASK].delay(event_id)


@receiver(post_save, sender="campaigns.CampaignEvent", dispatch_uid="notifications-event")
def _notify_on_commit(sender, instance, created, **kwargs) -> None:
    if created and instance.verb in NOTIFIED_VERBS:
        event_id = instance.pk
        transaction.on_commit(lambda: _enqueue(event_id))
