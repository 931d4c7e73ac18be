"""The demo's settled chapter (loaded after the Of the Dead chapters): the closed
chapter "Les quais du Rhône" is settled, so the demo shows survival points (+2 each: both
survived a victory), Bruno's "Bras en écharpe" healed, and a leaderboard.

Idempotent, and keeps what demo users did: a chapter already settled, or whose settlement
an organiser reopened or asked for, is left alone. Through the services only.
"""

from campaigns.models import Chapter, ChapterSettlement, ChapterStatus
from campaigns.settlement.apply import settlement_apply
from config.demo.keys import recall


def load_settled_chapter() -> None:
    chapter = recall("of-the-dead/chapter/first", Chapter)
    if chapter is None or chapter.status != ChapterStatus.CLOSED or chapter.settled_at:
        return
    if ChapterSettlement.objects.filter(chapter=chapter).exists():
        return
    settlement_apply(chapter_id=chapter.pk)
