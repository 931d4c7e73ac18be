"""Background work for KOLAPS units: ids in, one call, idempotent by state."""

from celery import shared_task
from django.conf import settings
from django.db import transaction

from characters.kolaps import views


@shared_task(acks_late=True, ignore_result=True)
def kolaps_unit_prerender(unit_id: int) -> int:
    """The unit's page and print rendered ahead for its owner's next visit. A rerun finds
    them kept and renders nothing; a failure costs the owner one page rendered when asked
    for, so it is not retried."""
    return views.unit_prerender(unit_id=unit_id)


def unit_prerender_on_commit(sender, unit_id: int, **kwargs) -> None:
    """`kolaps_unit_prerender` enqueued when a change to the unit (`signals.unit_changed`)
    commits (connected in config/models.py). Robust: a broker out of reach (or, tasks run
    in-process, a render that fails) is logged, never an error for a write that committed."""
    if not settings.KOLAPS_PRERENDER:
        return

    def enqueue() -> None:  # a function: Django names it in the log when it fails
        kolaps_unit_prerender.delay(unit_id)

    transaction.on_commit(enqueue, robust=True)
