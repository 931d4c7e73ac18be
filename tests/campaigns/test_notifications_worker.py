"""Notifications go through the real Celery worker on Redis, after the commit, once."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.chapters.services import chapter_plan
from campaigns.chapters.tasks import votes_close_due
from campaigns.models import CampaignEvent, NotificationSent, VoteStatus
from campaigns.notifications.services import notifications_set
from campaigns.notifications.tasks import event_notify, votes_remind_due
from campaigns.services import campaign_add_participant, campaign_create
from campaigns.votes.services import vote_open
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


def test_the_beat_tasks_remind_once_and_close_a_dated_vote_on_the_worker(real_worker):
    """What `celery beat` sends every few minutes, run by the real worker: the vote closing
    within a day reminds alice (opted in, no ballot) once, then closes itself at its date."""
    organiser = PlayerFactory(username="remind-orga")
    alice = PlayerFactory(username="remind-alice", email="remind-alice@example.test")
    campaign = campaign_create(organiser=organiser, name="Rive droite", system="of-the-dead")
    campaign_add_participant(actor=organiser, campaign=campaign, player=alice)
    notifications_set(player=alice, enabled=True, language="fr")
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le quai")
    closes_at = timezone.now() + timedelta(seconds=4)
    vote = vote_open(
        actor=organiser, campaign=campaign, kind="vocations", chapter=chapter, closes_at=closes_at
    )

    assert votes_remind_due.delay().get(timeout=30) == [vote.pk]
    assert votes_remind_due.delay().get(timeout=30) == []  # once per vote
    event = CampaignEvent.objects.get(verb="vote_closing")
    assert _wait_for(lambda: NotificationSent.objects.filter(event=event, player=alice).exists()), (
        f"the worker sent nothing; see {real_worker['log']}"
    )
    assert _wait_for(lambda: "To: remind-alice@example.test" in real_worker["log"].read_text())

    assert votes_close_due.delay().get(timeout=30) == []  # not yet
    assert _wait_for(lambda: timezone.now() > closes_at, timeout=10)
    assert votes_close_due.delay().get(timeout=30) == [vote.pk]
    assert votes_close_due.delay().get(timeout=30) == []
    vote.refresh_from_db()
    assert vote.status == VoteStatus.CLOSED
    # Three mails to alice in all: the chapter planned, the vote opened, the one reminder.
    assert NotificationSent.objects.filter(event__verb="vote_closing", player=alice).count() == 1
    assert real_worker["log"].read_text().count("To: remind-alice@example.test") == 3
