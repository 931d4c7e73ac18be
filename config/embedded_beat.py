"""Celery beat's schedule, run inside the server process where no beat runs.

Without a broker (`make run`: CELERY_BROKER_URL empty, tasks run in-process) nothing
sent the periodic tasks of CELERY_BEAT_SCHEDULE: votes never closed at their date and no
reminder went. With EMBEDDED_BEAT on (the Makefile's `run` sets it), the ASGI server
starts one daemon thread that runs each scheduled task in-process at its interval.
Production runs `celery beat` instead (compose's `beat` service) and leaves this off.
"""

import logging
import threading
import time

from django.conf import settings
from django.db import close_old_connections
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)
_started = threading.Event()


def run_due(last_run: dict[str, float], now: float) -> list[str]:
    """Run each scheduled task whose interval has passed since its last run (all of them
    the first time); the names of those run."""
    ran = []
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        if now - last_run.get(name, float("-inf")) < float(entry["schedule"]):
            continue
        last_run[name] = now
        try:
            # The task's name is its dotted path (each is declared where it lives).
            import_string(entry["task"]).apply().get(propagate=True)
        except Exception:
            logger.exception("the periodic task %s failed", entry["task"])
        ran.append(name)
    return ran


def start() -> None:
    """Start the thread once per process."""
    if _started.is_set():
        return
    _started.set()

    def loop() -> None:
        last_run: dict[str, float] = {}
        while True:
            # A thread of its own: its database connection is checked as a request's is.
            close_old_connections()
            run_due(last_run, time.monotonic())
            close_old_connections()
            time.sleep(settings.EMBEDDED_BEAT_TICK)

    threading.Thread(target=loop, name="embedded-beat", daemon=True).start()
