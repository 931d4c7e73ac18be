"""Exactly once, on a real Celery worker over Redis, with workers killed mid-settlement.

The worker started here consumes a queue of its own and runs with
SETTLEMENT_CHECKPOINT_DIR and `--include tests.settlement_checkpoints`: each named step the
settlement reaches is reported (tests/settlement_checkpoints.py) and paused where the test
asks, so that the test can SIGKILL it there. After every kill the redelivered task is held
at its start while the test reads the database: it must show either nothing of the
settlement or all of it.
Short timeouts (visibility 12 s, restore sweep every second) keep the whole-worker kills
quick; they keep the rule "visibility timeout > time limit + retry countdown".
"""

import os
import random
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection

from campaigns.models import Chapter, ChapterSettlement, SettlementEntry, SettlementStatus
from campaigns.settlement.services import settlement_reopen, settlement_request
from campaigns.settlement.tasks import chapter_settle
from characters.models import Profile, Trauma
from tests.conftest import BASE_DIR, OUTPUT_DIR, _database_url_for
from tests.settlement_fixtures import closed_chapter, of_the_dead_table

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SEED = 6
CHILD_KILLS = int(os.environ.get("SETTLE_CHILD_KILLS", 20))
WORKER_KILLS = int(os.environ.get("SETTLE_WORKER_KILLS", 3))
VISIBILITY_TIMEOUT = 12
TASK = "campaigns.settlement.tasks.chapter_settle"


def _wait_for(predicate, timeout=30.0, what="a condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Worker:
    """A killable `celery worker` process group, restarted at will on the same queue."""

    def __init__(self, queue: str, checkpoints: Path):
        self.queue = queue
        self.checkpoints = checkpoints
        self.process = None
        self.starts = 0
        self.env = {
            **os.environ,
            "DATABASE_URL": _database_url_for(connection.settings_dict["NAME"]),
            "DATABASE_POOL": "false",
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "CELERY_QUEUE": queue,
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
            "CELERY_UNACKED_RESTORE_INTERVAL": "1",
            "CELERY_WORKER_LOST_WAIT": "0.5",
            "SETTLEMENT_TIME_LIMIT": "10",
            "SETTLEMENT_RETRY_MAX_COUNTDOWN": "1",
            "SETTLEMENT_CHECKPOINT_DIR": str(checkpoints),
            "EMAIL_URL": "consolemail://",
            "PYTHONUNBUFFERED": "1",
        }

    @property
    def log(self) -> Path:
        return OUTPUT_DIR / f"settlement-worker-{self.starts}.log"

    def start(self) -> None:
        self.starts += 1
        OUTPUT_DIR.mkdir(exist_ok=True)
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable, "-m", "celery", "-A", "config", "worker",
                    "--loglevel=INFO", "--concurrency=2", "--pool=prefork",
                    "--without-gossip", "--without-mingle", "-Q", self.queue,
                    "--include", "tests.settlement_checkpoints",
                    "-n", f"{self.queue}-{self.starts}@%h",
                ],
                cwd=BASE_DIR, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: killed as a whole
            )  # fmt: skip
        _wait_for(lambda: "ready." in self.log.read_text(), 60, f"the worker ({self.log})")

    def kill_all(self) -> None:
        """The machine dies: the worker and its children, by SIGKILL, acknowledging nothing."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)


@pytest.fixture
def settle_worker(tmp_path, settings_app_routes):
    checkpoints = tmp_path / "checkpoints"
    checkpoints.mkdir()
    worker = Worker(settings_app_routes, checkpoints)
    for old in OUTPUT_DIR.glob("settlement-worker-*.log"):
        old.unlink()
    worker.start()
    yield worker
    (checkpoints / "control").write_text("")
    worker.stop()


@pytest.fixture
def settings_app_routes():
    """Send the settlement task to this test's own queue, to the real worker."""
    from config.celery import app

    queue = f"settle-{uuid.uuid4().hex[:8]}"
    app.conf.task_always_eager = False
    app.conf.task_routes = {TASK: {"queue": queue}}
    app.amqp.flush_routes()
    app.amqp.__dict__.pop("router", None)  # a cached Router keeps the routes it was built with
    yield queue
    app.conf.task_routes = None
    app.amqp.flush_routes()
    app.amqp.__dict__.pop("router", None)
    app.conf.task_always_eager = True


def control(worker: Worker, text: str) -> None:
    path = worker.checkpoints / "control"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def world(chapter_id: int) -> tuple:
    chapter = Chapter.objects.get(pk=chapter_id)
    return (
        chapter.settled_at is not None,
        sorted(
            (player, points, reverted is not None)
            for player, points, reverted in SettlementEntry.objects.filter(
                chapter_id=chapter_id
            ).values_list("player_id", "survival_points", "reverted_at")
        ),
        sorted(
            Profile.objects.values_list(
                "pk", "status", "survival_points", "life_markers", "version"
            )
        ),
        sorted(Trauma.objects.values_list("pk", "active", "permanence")),
    )


def wait_settled(chapter_id: int, timeout=40.0) -> None:
    _wait_for(
        lambda: (
            ChapterSettlement.objects.filter(
                chapter_id=chapter_id, status=SettlementStatus.DONE
            ).exists()
            and Chapter.objects.filter(pk=chapter_id, settled_at__isnull=False).exists()
        ),
        timeout,
        f"chapter {chapter_id} to be settled",
    )


def read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        return ""


def test_it_settles_once_when_the_task_is_delivered_twice(settle_worker):
    organiser, campaign, players = of_the_dead_table(players=3)
    chapter = closed_chapter(organiser, campaign, players)
    settlement_request(actor=organiser, chapter=chapter)  # sent on commit
    chapter_settle.delay(chapter.pk)  # and a second delivery, while the first may run
    wait_settled(chapter.pk)
    settled = world(chapter.pk)
    results = _wait_for(
        lambda: (
            (
                (text := settle_worker.log.read_text()).count("'already_settled'")
                + text.count("'settled'")
                >= 2
            )
            and text
        ),
        30,
        "both deliveries to finish",
    )
    assert results.count("'settled'") == 1 and results.count("'already_settled'") == 1
    assert world(chapter.pk) == settled
    assert SettlementEntry.objects.filter(chapter=chapter).count() == len(players)

    # A third delivery, long after, is a no-op too.
    assert chapter_settle.delay(chapter.pk).get(timeout=30) == "already_settled"
    assert world(chapter.pk) == settled

    # Reopened and settled again by the worker: the same result.
    settlement_reopen(actor=organiser, chapter=chapter)
    assert world(chapter.pk)[0] is False
    settlement_request(actor=organiser, chapter=chapter)
    wait_settled(chapter.pk)
    again = world(chapter.pk)
    assert again[0] is True and again[3] == settled[3]
    # The same sheets; only the profiles' version counters moved on (two more writes).
    assert [row[:4] for row in again[2]] == [row[:4] for row in settled[2]]
    live = [row for row in again[1] if not row[2]]
    assert [row[:2] for row in live] == [row[:2] for row in settled[1]]


def test_it_leaves_nothing_or_everything_when_workers_are_killed(settle_worker):
    """The worker's child killed by SIGKILL at 20 random steps, then the whole worker killed
    3 times: each time the database holds nothing or everything of the settlement, and the
    redelivered task completes it."""
    rng = random.Random(SEED)
    organiser, campaign, players = of_the_dead_table(players=3)
    chapters = []

    # A first chapter settled without a kill names the steps a settlement goes through.
    chapter = closed_chapter(organiser, campaign, players, title="Repérage")
    settlement_request(actor=organiser, chapter=chapter)
    wait_settled(chapter.pk)
    chapters.append(chapter.pk)
    # The database shows the chapter settled a moment before the worker logs its last step.
    _wait_for(
        lambda: (
            [line.split()[1] for line in read(settle_worker.checkpoints / "log").splitlines()][-1:]
            == ["committed"]
        ),
        10,
        "the worker's last step",
    )
    steps = list(
        dict.fromkeys(
            line.split()[1] for line in read(settle_worker.checkpoints / "log").splitlines()
        )
    )
    assert steps[0] == "start" and steps[-1] == "committed" and "ledger" in steps

    def kill_round(number: int, step: str, whole_worker: bool) -> None:
        chapter = closed_chapter(organiser, campaign, players, title=f"Chapitre {number}")
        chapters.append(chapter.pk)
        before = world(chapter.pk)
        for name in ("paused", "held"):
            (settle_worker.checkpoints / name).unlink(missing_ok=True)
        control(settle_worker, f"kill {step}")
        settlement_request(actor=organiser, chapter=chapter)
        paused = _wait_for(
            lambda: read(settle_worker.checkpoints / "paused"), 30, f"a pause at {step}"
        )
        pid, where = paused.split()
        assert where == step
        control(settle_worker, "hold")  # the redelivered task waits at its start
        if whole_worker:
            settle_worker.kill_all()
            # The dead worker cannot release the restore lock it may have held mid-sweep.
            redis.Redis.from_url(settings.CELERY_BROKER_URL).delete("unacked_mutex")
            settle_worker.start()
        else:
            os.kill(int(pid), signal.SIGKILL)
        held = _wait_for(
            lambda: (text := read(settle_worker.checkpoints / "held")) and text != pid and text,
            VISIBILITY_TIMEOUT + 30,
            f"the redelivery after a kill at {step}",
        )
        assert held != pid
        observed = world(chapter.pk)
        control(settle_worker, "")
        wait_settled(chapter.pk)
        after = world(chapter.pk)
        assert observed in (before, after), f"a kill at {step} left half a settlement"
        if step in ("committed",):
            assert observed == after  # killed after the commit: the redelivery is a no-op
        else:
            assert observed == before
        assert SettlementEntry.objects.filter(chapter=chapter).count() == len(players)

    kill_steps = [rng.choice(steps) for _ in range(CHILD_KILLS)]
    for number, step in enumerate(kill_steps):
        kill_round(number, step, whole_worker=False)
    for number in range(WORKER_KILLS):
        kill_round(CHILD_KILLS + number, rng.choice(steps[1:-1]), whole_worker=True)

    # Ledger rows = characters x chapters, each once; survival points from them.
    assert SettlementEntry.objects.filter(reverted_at__isnull=True).count() == len(players) * len(
        chapters
    )
    assert not Chapter.objects.filter(pk__in=chapters, settled_at__isnull=True).exists()
    winner = Profile.objects.get(player=players[0])
    assert winner.survival_points == 2 * len(chapters)
