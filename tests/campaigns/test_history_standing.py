"""The history page's standing: the player's overall rank among the players the overall
leaderboard ranks, not among themselves (it used to say 1st to everyone)."""

import pytest
from django.test import TestCase
from django.urls import reverse

from campaigns.settlement.cards import history_card
from campaigns.settlement.services import settlement_request
from characters.models import Profile
from characters.profiles.services import profile_update
from tests.settlement_fixtures import closed_chapter, of_the_dead_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def settled():
    organiser, campaign, players = of_the_dead_table(players=3)
    chapter = closed_chapter(organiser, campaign, players)
    with TestCase.captureOnCommitCallbacks(execute=True):
        settlement_request(actor=organiser, chapter=chapter)
    for player in players:
        profile = Profile.objects.get(player=player)
        profile_update(actor=player, profile=profile, is_public=True, show_statistics=True)
    return players


def test_each_history_page_gives_the_rank_the_overall_leaderboard_gives(settled, client):
    winner, loser, dead = settled
    ranks = {p.username: history_card(p, p).standing.rank for p in settled}
    # Reputations 8, 6 and 4 (test_settlement's table): first, second, third.
    assert ranks == {winner.username: 1, loser.username: 2, dead.username: 3}
    client.force_login(dead)
    board = client.get(reverse("api-leaderboard")).json()
    rows = board["rows"] if isinstance(board, dict) else board
    assert {r["username"]: r["rank"] for r in rows} == ranks


def test_a_private_player_is_ranked_among_the_public_ones_on_their_own_page(settled):
    winner, _loser, _dead = settled
    profile_update(actor=winner, profile=Profile.objects.get(player=winner), is_public=False)
    _winner, loser, dead = settled
    assert history_card(winner, winner).standing.rank == 1
    assert history_card(dead, dead).standing.rank == 2, "the private winner is not counted"
    assert history_card(loser, loser).standing.rank == 1
