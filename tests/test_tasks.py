"""Tasks run on a real Celery worker over Redis, enqueued only once data is committed."""

import time

import pytest

from characters.accounts import services
from characters.accounts.tasks import player_send_welcome
from characters.models import Player

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _wait_for(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_it_sends_the_welcome_email_from_the_real_worker_after_commit(real_worker):
    """Signing up enqueues the welcome e-mail on commit; the worker sends it once."""
    player = services.player_signup(
        username="worker-test", email="worker@example.test", password="a-long-passphrase-77"
    )
    assert _wait_for(
        lambda: Player.objects.filter(pk=player.pk, welcomed_at__isnull=False).exists()
    ), f"the worker did not mark the player welcomed; see {real_worker['log']}"
    assert "Welcome to Chronique" in real_worker["log"].read_text() or (
        "Bienvenue" in real_worker["log"].read_text()
    )

    # The result travels back through Redis: a second delivery is a no-op.
    result = player_send_welcome.delay(player.pk, "fr")
    assert result.get(timeout=30) is False
    assert real_worker["log"].read_text().count("To: worker@example.test") == 1


def test_it_enqueues_nothing_when_the_transaction_rolls_back(real_worker):
    """A sign-up that is rolled back sends no task: the task waits for the commit."""
    from django.db import transaction

    class Abort(Exception):
        pass

    received_before = real_worker["log"].read_text().count("received")
    with pytest.raises(Abort), transaction.atomic():
        services.player_signup(
            username="ghost", email="ghost@example.test", password="a-long-passphrase-77"
        )
        raise Abort
    # The worker takes tasks in order: once this probe is done, a task sent by the rolled
    # back sign-up would have been received before it.
    result = player_send_welcome.delay(999_999, "fr")
    assert result.get(timeout=30) is False
    assert real_worker["log"].read_text().count("received") == received_before + 1
