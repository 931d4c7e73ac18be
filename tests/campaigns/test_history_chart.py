"""The history chart labels each point with its campaign and chapter."""

import pytest
from django.urls import reverse

from campaigns.settlement.apply import settlement_apply
from tests.settlement_fixtures import closed_chapter, of_the_dead_table

pytestmark = pytest.mark.django_db


def test_each_point_names_its_campaign_and_chapter(client):
    organiser, campaign, players = of_the_dead_table(players=2)
    chapter = closed_chapter(organiser, campaign, players, title="Le pont")
    settlement_apply(chapter_id=chapter.pk)
    client.force_login(players[0])
    html = client.get(reverse("profile-history", args=[players[0].username])).content.decode()
    point = f"{campaign.name}, chapitre {chapter.number}\u00a0: Le pont"
    assert f"<title>{point}" in html  # the point's tooltip
    assert "<desc>" in html and point in html[html.index("<desc>") :]
