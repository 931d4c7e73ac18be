"""A settlement whose worker AND database connection die in the middle of the run, for real.

A real Celery worker (tests/campaigns/test_settlement_worker.py's `Worker`) settles a chapter
and pauses inside the settlement's transaction (`kill ledger`, tests/settlement_checkpoints.py:
the ledger rows are written, not committed). The test then terminates the worker's database
connection with `pg_terminate_backend` and SIGKILLs the whole worker: nobody is left to mark
the run failed, so it stays "running". Within a task's lifetime (hard time limit plus the
longest retry countdown, 10 s + 1 s here, the same in the worker and in this test's settings)
confirming again changes nothing; after it the page says the run stopped, the organiser
confirms again, a new worker settles the chapter, and the original message, redelivered by
the broker once its visibility timeout passed, finds it settled: exactly once.
"""

import time

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Chapter, ChapterSettlement, SettlementEntry, SettlementStatus
from campaigns.settlement.services import settlement_request
from characters.models import Profile
from tests.campaigns.test_settlement_worker import (  # noqa: F401 (settings_app_routes: a fixture)
    VISIBILITY_TIMEOUT,
    Worker,
    _wait_for,
    control,
    read,
    settings_app_routes,
    wait_settled,
)
from tests.settlement_fixtures import closed_chapter, of_the_dead_table

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

TIME_LIMIT = 10  # the worker's SETTLEMENT_TIME_LIMIT (test_settlement_worker.Worker)
RETRY_MAX_COUNTDOWN = 1
LIFETIME = TIME_LIMIT + RETRY_MAX_COUNTDOWN


@pytest.fixture
def worker(tmp_path, settings_app_routes, settings):  # noqa: F811
    settings.SETTLEMENT_TIME_LIMIT = TIME_LIMIT
    settings.SETTLEMENT_RETRY_MAX_COUNTDOWN = RETRY_MAX_COUNTDOWN
    checkpoints = tmp_path / "checkpoints"
    checkpoints.mkdir()
    worker = Worker(settings_app_routes, checkpoints)
    assert worker.env["SETTLEMENT_TIME_LIMIT"] == str(TIME_LIMIT)
    assert worker.env["SETTLEMENT_RETRY_MAX_COUNTDOWN"] == str(RETRY_MAX_COUNTDOWN)
    worker.start()
    yield worker
    (checkpoints / "control").write_text("")
    worker.stop()


def worker_backends() -> list[tuple[int, str]]:
    """The other connections to this test database: the worker's (pid, state)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, state FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND backend_type = 'client backend'"
        )
        return list(cursor.fetchall())


def queued(queue: str) -> int:
    return redis.Redis.from_url(settings.CELERY_BROKER_URL).llen(queue)


def results(worker: Worker) -> list[str]:
    """What each run of the task returned, read from every log the worker wrote."""
    found = []
    for start in range(1, worker.starts + 1):
        path = worker.log.with_name(f"settlement-worker-{start}.log")
        for line in path.read_text().splitlines():
            if "succeeded in" in line and "chapter_settle" in line:
                found.append(line.rsplit(":", 1)[1].strip())
    return found


def test_a_run_killed_with_its_connection_goes_stale_and_settles_once_when_confirmed_again(
    worker, client
):
    organiser, campaign, players = of_the_dead_table(players=3)
    chapter = closed_chapter(organiser, campaign, players)
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    page = reverse("chapter-settlement", args=[chapter.pk])

    # The worker stops inside the settlement's transaction, its ledger rows written.
    control(worker, "kill ledger")
    settlement_request(actor=organiser, chapter=chapter)
    _pid, step = _wait_for(lambda: read(worker.checkpoints / "paused"), 30, "the pause").split()
    assert step == "ledger"
    in_transaction = [b for b, state in worker_backends() if state == "idle in transaction"]
    assert len(in_transaction) == 1, worker_backends()

    # Its database connection is cut, then the whole worker dies by SIGKILL.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [in_transaction[0]])
        assert cursor.fetchone() == (True,)
    worker.kill_all()
    redis.Redis.from_url(settings.CELERY_BROKER_URL).delete("unacked_mutex")
    cut = in_transaction[0]
    _wait_for(lambda: cut not in dict(worker_backends()), 10, "the cut connection to go")
    killed_at = time.monotonic()

    # Nothing of the settlement was written, and nobody said the run failed.
    run = ChapterSettlement.objects.get(chapter=chapter)
    assert run.status == SettlementStatus.RUNNING
    assert not SettlementEntry.objects.filter(chapter=chapter).exists()
    assert Chapter.objects.get(pk=chapter.pk).settled_at is None
    assert not Profile.objects.filter(survival_points__gt=0).exists()

    # Within a task's lifetime the run is left to its worker: asking again sends nothing.
    age = (timezone.now() - run.started_at).total_seconds()
    assert age < LIFETIME, f"the machine took {age:.1f} s to get here; the test needs less"
    response = client.get(page)
    assert not response.context["card"].stalled
    assert 'hx-trigger="every 1s"' in response.content.decode(), "it still polls"
    client.post(page)
    assert queued(worker.queue) == 0
    assert ChapterSettlement.objects.get(chapter=chapter).status == SettlementStatus.RUNNING

    # After it, the page says the run stopped, and the organiser confirms again.
    time.sleep(max(0.0, LIFETIME + 0.5 - (timezone.now() - run.started_at).total_seconds()))
    text = client.get(page).content.decode()
    assert "The settlement stopped answering" in text
    assert 'hx-trigger="every 1s"' not in text
    response = client.post(page, follow=True)
    assert "The settlement is on its way." in response.content.decode()
    assert queued(worker.queue) == 1
    assert ChapterSettlement.objects.get(chapter=chapter).status == SettlementStatus.QUEUED

    # A new worker settles it; the first message, redelivered once the broker's visibility
    # timeout has passed, finds it settled.
    control(worker, "")
    worker.start()
    wait_settled(chapter.pk)
    remaining = VISIBILITY_TIMEOUT - (time.monotonic() - killed_at)
    _wait_for(lambda: len(results(worker)) >= 2, remaining + 30, "the redelivered message")
    assert sorted(results(worker)) == ["'already_settled'", "'settled'"]
    assert SettlementEntry.objects.filter(chapter=chapter).count() == len(players)
    assert ChapterSettlement.objects.get(chapter=chapter).status == SettlementStatus.DONE
    winner = Profile.objects.get(player=players[0])
    assert winner.survival_points == 2
