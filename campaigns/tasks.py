"""Celery finds the campaigns' tasks here (autodiscovery reads `<app>.tasks`)."""

from campaigns.settlement_tasks import chapter_settle

__all__ = ["chapter_settle"]
