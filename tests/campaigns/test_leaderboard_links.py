"""A leaderboard never links to a page that answers 404: a private player's name is shown
without a link, and the player is told on their profile why others do not see them."""

import re

import pytest
from django.urls import reverse

from campaigns.settlement.apply import settlement_apply
from characters.models import Profile
from characters.profiles.services import profile_update
from tests.settlement_fixtures import closed_chapter, of_the_dead_table

pytestmark = pytest.mark.django_db


def test_every_name_a_leaderboard_links_opens_for_the_viewer(client):
    organiser, campaign, players = of_the_dead_table(players=3)
    settlement_apply(chapter_id=closed_chapter(organiser, campaign, players).pk)
    public = players[0]
    profile = Profile.objects.get(player=public)
    profile_update(actor=public, profile=profile, is_public=True, show_statistics=True)
    client.force_login(players[1])
    html = client.get(reverse("campaign-leaderboard", args=[campaign.pk])).content.decode()
    links = re.findall(r'href="(/players/[^"]+/history/)"', html)
    assert reverse("profile-history", args=[public.username]) in links
    assert reverse("profile-history", args=[players[2].username]) not in links
    assert players[2].public_name in html  # listed, without a link
    for link in links:
        assert client.get(link).status_code == 200, link


def test_a_private_player_is_told_why_others_do_not_see_them(client):
    _organiser, _campaign, players = of_the_dead_table(players=1)
    client.force_login(players[0])
    html = client.get(reverse("profile-mine")).content.decode()
    assert 'id="leaderboard-note"' in html and "votre profil est privé" in html
    profile = Profile.objects.get(player=players[0])
    profile_update(actor=players[0], profile=profile, is_public=True, show_statistics=True)
    assert 'id="leaderboard-note"' not in client.get(reverse("profile-mine")).content.decode()
