"""Opt-in e-mail notifications: a chapter planned or moved, a vote opened, a settlement done;
each mail once, to those who asked, with an unsubscribe link that works without login."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from campaigns.chapters.services import chapter_plan, chapter_update
from campaigns.models import CampaignEvent, NotificationSent, NotificationSubscription
from campaigns.notifications.services import event_notify, notifications_set
from campaigns.services import campaign_add_participant, campaign_create
from campaigns.votes.services import ballot_cast, vote_open
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    organiser, alice, bruno = PlayerFactory(), PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Les quais", system="of-the-dead")
    for player in (alice, bruno):
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    notifications_set(player=alice, enabled=True, language="fr")
    return organiser, alice, bruno, campaign


def _last(verb):
    return CampaignEvent.objects.filter(verb=verb).latest("pk")


def test_it_mails_a_planned_chapter_once_and_only_to_those_who_asked(table):
    organiser, alice, _bruno, campaign = table
    chapter_plan(actor=organiser, campaign=campaign, title="Le pont")
    event = _last("chapter_planned")
    assert event_notify(event_id=event.pk) == 1
    assert event_notify(event_id=event.pk) == 0  # a redelivered task sends nothing
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [alice.email]
    assert "Nouveau chapitre prévu dans Les quais" in message.subject
    assert "/notifications/unsubscribe/" in message.body


def test_it_enqueues_the_notification_once_the_line_is_committed(
    table, django_capture_on_commit_callbacks
):
    organiser, _alice, _bruno, campaign = table
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        chapter_plan(actor=organiser, campaign=campaign, title="Le pont")
    assert callbacks  # nothing is sent before the commit
    assert len(mail.outbox) == 1


def test_a_moved_chapter_notifies_but_another_edit_does_not(table):
    organiser, _alice, _bruno, campaign = table
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le pont")
    chapter_update(actor=organiser, chapter=chapter, objectives="Tenir le pont")
    assert event_notify(event_id=_last("chapter_updated").pk) == 0
    chapter_update(actor=organiser, chapter=chapter, place="Pont Lafayette")
    assert event_notify(event_id=_last("chapter_updated").pk) == 1
    assert "Chapitre déplacé" in mail.outbox[-1].subject


def test_a_vote_mails_its_voters_but_not_who_opened_it(table):
    organiser, alice, _bruno, campaign = table
    notifications_set(player=organiser, enabled=True)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le pont")
    vote_open(actor=organiser, campaign=campaign, kind="vocations", chapter=chapter)
    assert event_notify(event_id=_last("vote_opened").pk) == 1
    assert mail.outbox[-1].to == [alice.email]


def test_the_unsubscribe_link_works_without_logging_in(client, table):
    organiser, alice, _bruno, campaign = table
    chapter_plan(actor=organiser, campaign=campaign, title="Le pont")
    event_notify(event_id=_last("chapter_planned").pk)
    link = re.search(r"https?://\S+/notifications/unsubscribe/\S+/", mail.outbox[0].body).group(0)
    path = link.split("://", 1)[1].split("/", 1)[1]
    page = client.get("/" + path)
    assert page.status_code == 200
    assert NotificationSubscription.objects.get(player=alice).enabled  # GET changes nothing
    done = client.post("/" + path)
    assert "Chronique ne vous envoie plus de notifications" in done.content.decode()
    assert not NotificationSubscription.objects.get(player=alice).enabled
    chapter_plan(actor=organiser, campaign=campaign, title="Le quai")
    assert event_notify(event_id=_last("chapter_planned").pk) == 0


def test_the_page_and_its_api_twin_opt_in_and_out(client):
    player = PlayerFactory()
    client.force_login(player)
    assert client.get(reverse("notifications")).status_code == 200
    assert not NotificationSubscription.objects.filter(player=player).exists()  # GET writes nothing
    client.post(reverse("notifications"), {"enabled": "on"})
    assert NotificationSubscription.objects.get(player=player).enabled
    answer = client.patch(
        reverse("api-notifications"), {"enabled": False}, content_type="application/json"
    )
    body = answer.json()
    assert (body["enabled"], body["language"]) == (False, "fr")
    assert [line["sentence"] for line in body["history"]] == [
        f"{player.public_name} a désactivé les notifications par e-mail",
        f"{player.public_name} a activé les notifications par e-mail, en français",
    ]
    assert NotificationSent.objects.count() == 0


def test_a_vote_about_to_close_mails_only_the_players_who_have_not_voted(client, table):
    organiser, alice, bruno, campaign = table
    notifications_set(player=bruno, enabled=True)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le pont")
    vote = vote_open(actor=organiser, campaign=campaign, kind="vocations", chapter=chapter)
    ballot_cast(voter=bruno, vote=vote, vocation="meneur", nominee=bruno)
    client.force_login(organiser)
    response = client.post(reverse("vote-remind", args=[vote.pk]))
    assert response.status_code == 302
    event = _last("vote_closing")
    assert event_notify(event_id=event.pk) == 1
    assert mail.outbox[-1].to == [alice.email]
    assert "se termine bientôt" in mail.outbox[-1].subject
    client.force_login(alice)  # a player may not announce it
    assert client.post(reverse("vote-remind", args=[vote.pk])).status_code == 403
