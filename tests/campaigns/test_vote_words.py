"""A vote's page says what the player voted and, once closed, how many took part: no
"clos 2 votants pour l'instant", no ballot that seems to vanish."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from campaigns.votes.services import vote_close, vote_open
from tests.campaigns.test_chapter_pages import _table

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("\u00a0", " ")


def test_a_ballot_is_confirmed_and_a_closed_vote_counts_who_took_part(client):
    organiser, campaign, chapter, players = _table(2)
    other = campaign.chapters.exclude(pk=chapter.pk).get()
    vote = vote_open(
        actor=organiser, campaign=campaign, kind="next_chapter", candidates=[chapter, other]
    )
    url = reverse("vote-detail", args=[vote.pk])
    for player in players:
        client.force_login(player)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
        page = _text(client.post(url, {"chapter": str(chapter.pk)}, follow=True))
        assert f"Votre vote : {chapter.number}. {chapter.title}." in page
        assert "Vous pouvez le changer jusqu'à la clôture du vote." in page
    vote_close(actor=organiser, vote=vote)
    page = _text(client.get(url))
    assert "2 votants ont participé." in page
    assert "pour l'instant" not in page
    assert "jusqu'à la clôture" not in page
