"""Signals other parts of Chronique hook into.

`chapter_closed` is sent by `campaigns.chapters.services.chapter_close` inside its transaction,
with `chapter`. A receiver that starts work must defer it to the commit
(`task.delay_on_commit(chapter.pk)`), so a rolled-back close starts nothing.
"""

from django.dispatch import Signal

chapter_closed = Signal()
