"""The Celery application.

With CELERY_BROKER_URL empty (the default), tasks run in-process (eager) so a fresh
clone needs no broker; with a Redis URL, `make worker` consumes them.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("chronique")
app.config_from_object("django.conf:settings", namespace="CELERY")
if not app.conf.broker_url:
    app.conf.broker_url = "memory://"
# Tasks live in the feature folders that own them, not at the apps' roots.
app.autodiscover_tasks(
    [
        "characters.accounts",
        "campaigns.chapters",
        "campaigns.settlement",
        "campaigns.notifications",
    ]
)
