"""The settlement task: an id in, one service call, idempotent by state.

Exactly once (docs/settlement.md): the service claims the chapter under a row lock and
writes every effect with its ledger rows in one transaction, so a second delivery is a
no-op. The task is acknowledged late (after it ran), rejected back to the queue if its
worker process dies (`reject_on_worker_lost`), and retried only on transient errors (the
database or the broker went away, a deadlock or serialization failure) with a doubling
countdown bounded by SETTLEMENT_RETRY_MAX_COUNTDOWN; the broker's visibility timeout is
longer than the hard time limit plus that countdown (config/settings.py checks it).
"""

import contextlib

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

from campaigns.settlement import apply

TRANSIENT = (OperationalError, InterfaceError, BrokerError, ConnectionError)


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=settings.SETTLEMENT_MAX_RETRIES,
    soft_time_limit=settings.SETTLEMENT_SOFT_TIME_LIMIT,
    time_limit=settings.SETTLEMENT_TIME_LIMIT,
)
def chapter_settle(self, chapter_id: int) -> str:
    apply.checkpoint("start")
    try:
        apply.settlement_mark_running(chapter_id=chapter_id)
        return apply.settlement_apply(chapter_id=chapter_id).value
    except TRANSIENT as exc:
        if self.request.retries >= self.max_retries:
            _give_up(chapter_id, exc)
            raise
        countdown = min(2**self.request.retries, settings.SETTLEMENT_RETRY_MAX_COUNTDOWN)
        raise self.retry(exc=exc, countdown=countdown) from exc
    except SoftTimeLimitExceeded as exc:
        _give_up(chapter_id, exc)
        raise
    except Exception as exc:
        _give_up(chapter_id, exc)
        raise


def _give_up(chapter_id: int, exc: BaseException) -> None:
    # When the database itself is gone the page keeps showing "running": confirm again.
    with contextlib.suppress(*TRANSIENT):
        apply.settlement_mark_failed(chapter_id=chapter_id, error=f"{type(exc).__name__}: {exc}")
