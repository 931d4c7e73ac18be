"""Background work of chapters and votes: a periodic call of a service, idempotent by state
(a closed vote is never closed again)."""

from celery import shared_task

from campaigns.votes import services


@shared_task(acks_late=True)
def votes_close_due() -> list[int]:
    """Every minute (beat): close the votes whose closing date has come."""
    return services.votes_close_due()
