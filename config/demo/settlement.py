"""The demo's settled chapter (loaded after the Of the Dead chapters): the closed
chapter "Les quais du Rhône" is settled, so the demo shows survival points (+2 each: both
survived a victory), Bruno's "Bras en écharpe" healed, and a leaderboard.

Idempotent, and keeps what demo users did: a chapter already settled, or whose settlement
an organiser reopened or asked for, is left alone. Through the services only.
"""

from campaigns.models import Chapter, ChapterSettlement, ChapterStatus
from campaigns.settlement.apply import settlement_apply

DEMO_CHAPTER = "Les quais du Rhône"


def load_settled_chapter(*, campaign) -> None:
    chapter = Chapter.objects.filter(
        campaign=campaign, title=DEMO_CHAPTER, status=ChapterStatus.CLOSED
    ).first()
    if chapter is None or chapter.settled_at is not None:
        return
    if ChapterSettlement.objects.filter(chapter=chapter).exists():
        return
    settlement_apply(chapter_id=chapter.pk)
