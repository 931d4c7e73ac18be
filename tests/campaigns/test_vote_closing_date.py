"""A vote with a closing date closes itself then, and reminds its players the day before:
once per vote, only those who opted in and have not voted, with the unsubscribe link.
The clock is frozen: the services take the time they run at (`now`), as the beat tasks
pass the real one."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from campaigns.chapters.services import chapter_plan
from campaigns.models import CampaignEvent, Vote, VoteStatus
from campaigns.notifications.services import event_notify, notifications_set, votes_remind_due
from campaigns.services import campaign_add_participant, campaign_create
from campaigns.votes import services as vote_services
from campaigns.votes.services import ballot_cast, vote_close, vote_open
from characters.permissions import Refusal
from config.celery import app
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")
NOW = datetime(2026, 11, 25, 18, 0, tzinfo=PARIS)


@pytest.fixture
def frozen(monkeypatch):
    """Django's clock stopped at NOW for the services (the beat tasks pass it as `now`)."""
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    return NOW


@pytest.fixture
def table(frozen):
    organiser, alice, bruno = PlayerFactory(), PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Les quais", system="of-the-dead")
    for player in (alice, bruno):
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    for player in (organiser, alice, bruno):
        notifications_set(player=player, enabled=True, language="fr")
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le pont")
    return organiser, alice, bruno, campaign, chapter


def _vocation_vote(table, closes_at):
    organiser, _alice, _bruno, campaign, chapter = table
    return vote_open(
        actor=organiser, campaign=campaign, kind="vocations", chapter=chapter, closes_at=closes_at
    )


def test_it_refuses_a_closing_date_already_past_with_a_sentence(table, english):
    with pytest.raises(Refusal) as refused:
        _vocation_vote(table, NOW - timedelta(minutes=1))
    assert refused.value.message == "This closing date is already past."
    assert refused.value.field == "closes_at"
    assert not Vote.objects.exists()


def test_the_vote_closes_itself_at_its_date_once_and_keeps_its_result(table):
    _organiser, alice, bruno, _campaign, _chapter = table
    vote = _vocation_vote(table, NOW + timedelta(hours=2))
    ballot_cast(voter=bruno, vote=vote, vocation="meneur", nominee=alice)

    assert vote_services.votes_close_due(now=NOW + timedelta(hours=1, minutes=59)) == []
    assert vote_services.votes_close_due(now=NOW + timedelta(hours=2)) == [vote.pk]
    assert vote_services.votes_close_due(now=NOW + timedelta(hours=3)) == []  # idempotent
    vote.refresh_from_db()
    assert vote.status == VoteStatus.CLOSED
    assert vote.result["assignments"] == {str(alice.pk): "meneur"}
    lines = CampaignEvent.objects.filter(verb="vote_closed")
    assert lines.count() == 1 and lines.get().actor is None


def test_a_vote_past_its_date_takes_no_ballot_even_before_the_task_ran(table, monkeypatch):
    _organiser, alice, _bruno, _campaign, _chapter = table
    vote = _vocation_vote(table, NOW + timedelta(hours=2))
    monkeypatch.setattr(timezone, "now", lambda: NOW + timedelta(hours=2, seconds=1))
    with pytest.raises(Refusal):
        ballot_cast(voter=alice, vote=vote, vocation="meneur", nominee=alice)


def test_an_organiser_may_still_close_it_earlier_and_the_task_leaves_it(table):
    organiser, *_ = table
    vote = _vocation_vote(table, NOW + timedelta(hours=2))
    vote_close(actor=organiser, vote=vote)
    assert vote_services.votes_close_due(now=NOW + timedelta(hours=3)) == []
    assert CampaignEvent.objects.filter(verb="vote_closed").count() == 1


def test_the_reminder_goes_once_a_day_before_to_who_has_not_voted(table):
    organiser, alice, bruno, _campaign, _chapter = table
    vote = _vocation_vote(table, NOW + timedelta(hours=30))
    ballot_cast(voter=bruno, vote=vote, vocation="meneur", nominee=bruno)

    assert votes_remind_due(now=NOW) == []  # 30 h before: not yet
    assert votes_remind_due(now=NOW + timedelta(hours=6)) == [vote.pk]  # 24 h before
    assert votes_remind_due(now=NOW + timedelta(hours=7)) == []  # exactly once per vote
    line = CampaignEvent.objects.get(verb="vote_closing")
    assert line.actor is None
    assert event_notify(event_id=line.pk) == 1
    assert event_notify(event_id=line.pk) == 0  # a redelivered task sends nothing
    assert len([m for m in mail.outbox if "se termine bientôt" in m.subject]) == 1
    message = mail.outbox[-1]
    assert message.to == [alice.email]  # not bruno (voted), not the organiser (no voter)
    body = message.body.replace("\u00a0", " ").replace("\u202f", " ")
    assert "Il se termine le 27 novembre 2026 00:00." in body
    assert "/notifications/unsubscribe/" in body
    assert organiser.email not in message.to


def test_no_reminder_for_a_closed_vote_nor_one_without_a_date(table):
    organiser, _alice, _bruno, campaign, chapter = table
    closed = _vocation_vote(table, NOW + timedelta(hours=3))
    vote_close(actor=organiser, vote=closed)
    other = chapter_plan(actor=organiser, campaign=campaign, title="Le quai")
    vote_open(actor=organiser, campaign=campaign, kind="vocations", chapter=other)
    assert votes_remind_due(now=NOW + timedelta(hours=1)) == []
    assert chapter is not None


def test_the_page_sets_the_date_and_shows_it_on_the_vote_and_the_dashboard(client, table):
    organiser, alice, _bruno, campaign, chapter = table
    client.force_login(organiser)
    past = client.post(
        reverse("vote-open", args=[campaign.pk]),
        {"kind": "vocations", "chapter": chapter.pk, "closes_at": "2026-11-25T17:00"},
    )
    assert past.status_code == 200
    html = past.content.decode().replace("\u00a0", " ").replace("\u202f", " ")
    assert "Cette date de clôture est déjà passée." in html
    opened = client.post(
        reverse("vote-open", args=[campaign.pk]),
        {"kind": "vocations", "chapter": chapter.pk, "closes_at": "2026-11-27T20:30"},
    )
    vote = Vote.objects.get()
    assert opened.status_code == 302
    assert vote.closes_at == datetime(2026, 11, 27, 20, 30, tzinfo=PARIS)
    campaign_page = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert "se clôt le 27 novembre 2026 20:30" in campaign_page.replace("\u00a0", " ")
    page = client.get(reverse("vote-detail", args=[vote.pk])).content.decode()
    assert "Ce vote se clôt de lui-même le 27 novembre 2026 20:30." in page.replace("\u00a0", " ")
    client.force_login(alice)
    dashboard = client.get(reverse("dashboard")).content.decode().replace("\u00a0", " ")
    assert "se clôt le 27 novembre 2026 20:30" in dashboard
    api = client.get(reverse("api-dashboard")).json()
    assert api["votes"][0]["closes_at"].startswith("2026-11-27T20:30")


def test_the_api_twin_opens_a_vote_with_a_date_and_refuses_a_past_one(client, table):
    organiser, _alice, _bruno, campaign, chapter = table
    client.force_login(organiser)
    url = reverse("api-vote-open", args=[campaign.pk])
    refused = client.post(
        url,
        {"kind": "vocations", "chapter": chapter.pk, "closes_at": "2026-11-25T16:00:00Z"},
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert "closes_at" in str(refused.json())
    created = client.post(
        url,
        {"kind": "vocations", "chapter": chapter.pk, "closes_at": "2026-11-27T19:30:00Z"},
        content_type="application/json",
    )
    assert created.status_code == 201
    assert created.json()["closes_at"].startswith("2026-11-27T20:30")


def test_an_organiser_moves_or_removes_the_date_and_a_player_may_not(client, table):
    organiser, alice, _bruno, _campaign, _chapter = table
    vote = _vocation_vote(table, NOW + timedelta(hours=30))
    client.force_login(organiser)
    url = reverse("vote-closing", args=[vote.pk])
    past = client.post(url, {"closes_at": "2026-11-25T12:00"})
    assert past.status_code == 200
    assert "Cette date de clôture est déjà passée." in past.content.decode().replace("\u00a0", " ")
    assert client.post(url, {"closes_at": "2026-11-28T09:15"}).status_code == 302
    vote.refresh_from_db()
    assert vote.closes_at == datetime(2026, 11, 28, 9, 15, tzinfo=PARIS)
    line = CampaignEvent.objects.filter(verb="vote_closing_set").get()
    assert line.actor == organiser
    assert client.post(url, {"closes_at": ""}).status_code == 302
    vote.refresh_from_db()
    assert vote.closes_at is None
    client.force_login(alice)
    assert client.post(url, {"closes_at": "2026-11-28T09:15"}).status_code == 403
    vote.refresh_from_db()
    assert vote.closes_at is None


def test_the_closing_api_twin_moves_the_date_and_refuses_a_closed_vote(client, table):
    organiser, *_ = table
    vote = _vocation_vote(table, NOW + timedelta(hours=30))
    client.force_login(organiser)
    url = reverse("api-vote-closing", args=[vote.pk])
    moved = client.post(url, {"closes_at": "2026-11-29T10:00:00Z"}, content_type="application/json")
    assert moved.status_code == 200 and moved.json()["closes_at"].startswith("2026-11-29T11:00")
    vote_close(actor=organiser, vote=vote)
    refused = client.post(url, {"closes_at": None}, content_type="application/json")
    assert refused.status_code == 400
    assert refused.json()["closes_at"] == ["Ce vote est clos."]


def test_a_reminded_vote_moved_later_reminds_again_before_its_new_date_only(table):
    """Moved within the day before: its players were reminded, once is enough. Moved beyond
    it: they are reminded again the day before the new date, once."""
    organiser, *_ = table
    vote = _vocation_vote(table, NOW + timedelta(hours=20))
    assert votes_remind_due(now=NOW) == [vote.pk]
    vote_services.vote_set_closing(actor=organiser, vote=vote, closes_at=NOW + timedelta(hours=22))
    assert votes_remind_due(now=NOW + timedelta(hours=1)) == []
    vote_services.vote_set_closing(actor=organiser, vote=vote, closes_at=NOW + timedelta(days=3))
    assert votes_remind_due(now=NOW + timedelta(days=1)) == []  # two days before: not yet
    assert votes_remind_due(now=NOW + timedelta(days=2, hours=1)) == [vote.pk]
    assert votes_remind_due(now=NOW + timedelta(days=2, hours=2)) == []
    assert CampaignEvent.objects.filter(verb="vote_closing", actor=None).count() == 2


def test_beat_schedules_both_tasks_and_the_worker_knows_them():
    """`celery beat` sends what CELERY_BEAT_SCHEDULE names: each is a task the worker runs."""
    app.loader.import_default_modules()
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled == {
        "campaigns.chapters.tasks.votes_close_due",
        "campaigns.notifications.tasks.votes_remind_due",
    }
    assert scheduled <= set(app.tasks)
    assert timedelta(hours=24) == settings.VOTE_REMINDER_BEFORE
