"""After confirming a settlement the organiser keeps each player's outcome on the page;
after a death choice the player sees what they chose and what it did."""

import pytest
from django.urls import reverse

from campaigns.settlement.apply import settlement_apply
from tests.settlement_fixtures import closed_chapter, of_the_dead_table

pytestmark = pytest.mark.django_db


def test_a_settled_chapter_keeps_each_players_outcome(client):
    organiser, campaign, players = of_the_dead_table(players=3)
    chapter = closed_chapter(organiser, campaign, players)
    settlement_apply(chapter_id=chapter.pk)
    client.force_login(organiser)
    html = client.get(reverse("chapter-settlement", args=[chapter.pk])).content.decode()
    outcomes = html[html.index('id="settlement-outcomes"') :]
    for player in players:
        assert player.public_name in outcomes
    assert "+" in outcomes and "mort" in outcomes  # the third player died


def test_a_death_choice_says_what_was_chosen_and_what_it_did(client):
    organiser, campaign, players = of_the_dead_table(players=3)
    settlement_apply(chapter_id=closed_chapter(organiser, campaign, players).pk)
    dead = players[2]
    client.force_login(dead)
    response = client.post(reverse("profile-death-choice"), {"choice": "zombie"}, follow=True)
    html = response.content.decode()
    assert 'id="death-choice-made"' in html
    assert "Vous avez choisi de revenir en zombie." in html
    assert "statut zombie" in html
