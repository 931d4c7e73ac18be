"""Background work for notifications: ids in, one call, idempotent by state (the
(line, player) rows say what was sent)."""

import smtplib

from celery import shared_task

from campaigns.notifications import services


@shared_task(bind=True, acks_late=True, max_retries=5)
def event_notify(self, event_id: int) -> int:
    try:
        return services.event_notify(event_id=event_id)
    except (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError, ConnectionError) as exc:
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc


@shared_task(acks_late=True)
def votes_remind_due() -> list[int]:
    """Every few minutes (beat): the "about to close" reminder of each vote due, once."""
    return services.votes_remind_due()
