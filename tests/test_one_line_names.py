"""A name or title is one line: a line break or another control character is refused with
a sentence beside the field (page) or as a field error (API), and nothing is written; a
mail whose name could not go fails for its recipient alone."""

import smtplib

import pytest
from django.core import mail
from django.urls import reverse

from campaigns.chapters.models import Chapter
from campaigns.chapters.services import chapter_plan
from campaigns.models import Campaign, CampaignEvent
from campaigns.notifications import services as notifications
from campaigns.notifications.services import event_notify, notifications_set
from campaigns.services import campaign_add_participant, campaign_create
from characters.models import Player
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

INJECTED = "Le pont\r\nX-Injected: yes"
SENTENCE = "Un nom ou un titre tient sur une ligne"


@pytest.fixture
def campaign(player):
    return campaign_create(organiser=player, name="Les quais", system="of-the-dead")


@pytest.mark.parametrize("title", [INJECTED, "Le\npont", "Le\tpont", "Le\x1bpont", "Le\x85pont"])
def test_the_api_refuses_a_chapter_title_with_a_control_character(client, player, campaign, title):
    client.force_login(player)
    response = client.post(
        reverse("api-chapter-create", args=[campaign.pk]),
        {"title": title},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert SENTENCE in response.json()["title"][0]
    assert not Chapter.objects.exists()
    assert not CampaignEvent.objects.filter(verb="chapter_planned").exists()


def test_the_page_refuses_a_chapter_title_with_a_line_break_beside_the_field(
    client, player, campaign
):
    client.force_login(player)
    response = client.post(reverse("chapter-create", args=[campaign.pk]), {"title": INJECTED})
    assert response.status_code == 200
    assert SENTENCE in " ".join(response.context["form"].errors["title"])
    assert not Chapter.objects.exists()


def test_the_api_refuses_a_campaign_name_with_a_line_break(client, player):
    client.force_login(player)
    response = client.post(
        reverse("api-campaign-list"),
        {"name": "Les\r\nquais", "system": "of-the-dead"},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert SENTENCE in response.json()["name"][0]
    assert not Campaign.objects.exists()


def test_the_api_refuses_a_display_name_with_a_line_break(client, player):
    client.force_login(player)
    response = client.patch(
        reverse("api-me"), {"display_name": "Alice\nBcc: x"}, content_type="application/json"
    )
    assert response.status_code == 400
    assert SENTENCE in response.json()["display_name"][0]
    assert "\n" not in Player.objects.get(pk=player.pk).display_name


def test_a_name_with_right_to_left_letters_or_accents_is_kept(client, player, campaign):
    client.force_login(player)
    response = client.post(
        reverse("api-chapter-create", args=[campaign.pk]),
        {"title": "L'été à Tel-Aviv — תל אביב"},
        content_type="application/json",
    )
    assert response.status_code == 201


def test_a_login_saves_a_player_whose_old_name_holds_a_line_break(client, player):
    Player.objects.filter(pk=player.pk).update(display_name="Alice\nB")
    response = client.post(
        reverse("login"), {"username": "alice", "password": "a-long-test-passphrase-42"}
    )
    assert response.status_code == 302


@pytest.fixture
def members(player, campaign):
    alice, bruno = PlayerFactory(), PlayerFactory()
    for member in (alice, bruno):
        campaign_add_participant(actor=player, campaign=campaign, player=member)
        notifications_set(player=member, enabled=True, language="fr")
    return alice, bruno


def test_one_failing_recipient_never_stops_the_others(player, campaign, members, monkeypatch):
    alice, bruno = members
    chapter_plan(actor=player, campaign=campaign, title="Le pont")
    event = CampaignEvent.objects.filter(verb="chapter_planned").latest("pk")
    real_send = notifications.send_mail

    def refusing_alice(subject, body, sender, recipients):
        if recipients == [alice.email]:
            raise smtplib.SMTPRecipientsRefused({alice.email: (550, b"no such user")})
        return real_send(subject, body, sender, recipients)

    monkeypatch.setattr(notifications, "send_mail", refusing_alice)
    assert event_notify(event_id=event.pk) == 1
    assert [message.to for message in mail.outbox] == [[bruno.email]]
    monkeypatch.setattr(notifications, "send_mail", real_send)
    assert event_notify(event_id=event.pk) == 1  # alice's, on the next delivery; bruno's once
    assert [message.to for message in mail.outbox] == [[bruno.email], [alice.email]]


def test_a_title_stored_with_a_line_break_before_the_refusal_still_mails_everyone(
    player, campaign, members
):
    chapter = chapter_plan(actor=player, campaign=campaign, title="Le pont")
    Chapter.objects.filter(pk=chapter.pk).update(title=INJECTED)
    event = CampaignEvent.objects.filter(verb="chapter_planned").latest("pk")
    event.data = {**event.data, "title": INJECTED}
    event.save(update_fields=["data"])
    assert event_notify(event_id=event.pk) == 2
    for message in mail.outbox:
        assert "\n" not in message.subject and "\r" not in message.subject
        assert "X-Injected" not in message.message().as_string().split("\n\n", 1)[0].replace(
            message.subject, ""
        )


def test_bidi_characters_are_isolated_in_the_subject_and_the_body(player, members):
    campaign = campaign_create(organiser=player, name="Quais\u202e", system="of-the-dead")
    alice, _bruno = members
    campaign_add_participant(actor=player, campaign=campaign, player=alice)
    chapter_plan(actor=player, campaign=campaign, title="\u202eLe pont")
    event = CampaignEvent.objects.filter(verb="chapter_planned").latest("pk")
    event_notify(event_id=event.pk)
    message = mail.outbox[-1]
    assert "\u2068Quais\u202e\u2069" in message.subject
    assert "\u2068\u202eLe pont\u2069" in message.subject
    assert "\u2068\u202eLe pont\u2069" in message.body
