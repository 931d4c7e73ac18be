"""Notifications go through the real Celery worker on Redis, after the commit, once."""

import time

import pytest

from campaigns.chapters.services import chapter_plan
from campaigns.models import CampaignEvent, NotificationSent
from campaigns.notifications.services import notifications_set
from campaigns.notifications.tasks import event_notify
from campaigns.services import campaign_add_participant, campaign_create
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _wait_for(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_a_planned_chapter_is_mailed_once_by_the_worker(real_worker):
    organiser = PlayerFactory(username="notify-orga")
    alice = PlayerFactory(username="notify-alice", email="notify-alice@example.test")
    campaign = campaign_create(organiser=organiser, name="Rive gauche", system="of-the-dead")
    campaign_add_participant(actor=organiser, campaign=campaign, player=alice)
    notifications_set(player=alice, enabled=True, language="fr")

    chapter_plan(actor=organiser, campaign=campaign, title="Le pont Wilson")
    event = CampaignEvent.objects.filter(verb="chapter_planned").latest("pk")
    assert _wait_for(lambda: NotificationSent.objects.filter(event=event, player=alice).exists()), (
        f"the worker sent nothing; see {real_worker['log']}"
    )
    assert _wait_for(lambda: "To: notify-alice@example.test" in real_worker["log"].read_text())

    # A second delivery of the same task finds the row and sends nothing.
    assert event_notify.delay(event.pk).get(timeout=30) == 0
    assert real_worker["log"].read_text().count("To: notify-alice@example.test") == 1
