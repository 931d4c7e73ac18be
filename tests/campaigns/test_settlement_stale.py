"""A settlement whose worker died unseen: it said "running" forever, and asking again
changed nothing. A run older than a task may live (its hard time limit plus the longest
wait before a retry) can now be confirmed again."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import TestCase
from django.urls import reverse
from django.utils import timezone

from campaigns.models import ChapterSettlement, SettlementStatus
from campaigns.settlement.services import settlement_request
from tests.settlement_fixtures import closed_chapter, of_the_dead_table

pytestmark = pytest.mark.django_db

LIFETIME = timedelta(
    seconds=settings.SETTLEMENT_TIME_LIMIT + settings.SETTLEMENT_RETRY_MAX_COUNTDOWN
)


@pytest.fixture
def table():
    organiser, campaign, players = of_the_dead_table(players=3)
    return organiser, closed_chapter(organiser, campaign, players)


def left_running(chapter, *, ago: timedelta) -> None:
    """What a worker killed with its database connection leaves: "running", never failed."""
    ChapterSettlement.objects.create(
        chapter=chapter,
        status=SettlementStatus.RUNNING,
        requested_at=timezone.now() - ago,
        started_at=timezone.now() - ago,
        attempts=1,
    )


def test_a_run_older_than_a_task_may_live_is_confirmed_again_and_settles(table):
    organiser, chapter = table
    left_running(chapter, ago=LIFETIME + timedelta(seconds=1))
    with TestCase.captureOnCommitCallbacks(execute=True) as sent:
        settlement_request(actor=organiser, chapter=chapter)
    settle_tasks = [callback for callback in sent if "chapter_settle" in repr(callback)]
    assert len(settle_tasks) == 1, "the task is sent again"
    chapter.refresh_from_db()
    assert chapter.settled_at is not None
    assert ChapterSettlement.objects.get(chapter=chapter).status == SettlementStatus.DONE


def test_a_run_still_within_its_time_limit_is_left_to_its_worker(table):
    organiser, chapter = table
    left_running(chapter, ago=LIFETIME - timedelta(seconds=30))
    with TestCase.captureOnCommitCallbacks(execute=True) as sent:
        settlement_request(actor=organiser, chapter=chapter)
    assert not [c for c in sent if "chapter_settle" in repr(c)], "asking again sends nothing"
    assert ChapterSettlement.objects.get(chapter=chapter).status == SettlementStatus.RUNNING


def test_the_page_says_it_stopped_and_offers_to_confirm_again(table, client):
    organiser, chapter = table
    left_running(chapter, ago=LIFETIME + timedelta(minutes=5))
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("chapter-settlement", args=[chapter.pk]))
    text = page.content.decode()
    assert "The settlement stopped answering" in text
    assert 'hx-trigger="every 1s"' not in text, "the page no longer polls a dead run"
    assert page.context["card"].can_confirm
