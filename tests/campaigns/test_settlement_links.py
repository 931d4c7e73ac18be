"""The pages built separately lead to each other: my profile to my history and to the
pending death choice, a closed chapter to its settlement (organisers), the campaign to its
leaderboard, and the close form to the settlement's preview."""

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.chapters.services import chapter_plan
from campaigns.settlement.apply import settlement_apply
from campaigns.settlement.services import death_choice_make
from tests.settlement_fixtures import closed_chapter, of_the_dead_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(client):
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def table():
    organiser, campaign, players = of_the_dead_table(players=3)
    chapter = closed_chapter(organiser, campaign, players)
    return organiser, campaign, players, chapter


def _page(client, name, *args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def test_my_profile_leads_to_my_history_and_shows_a_pending_death_choice_first(client, table):
    _organiser, _campaign, players, chapter = table
    dead = players[2]  # dies in the chapter
    client.force_login(dead)
    html = _page(client, "profile-mine")
    assert reverse("profile-history", args=[dead.username]) in html
    assert 'id="death-choice-pending"' not in html
    settlement_apply(chapter_id=chapter.pk)
    html = _page(client, "profile-mine")
    pending = html.index('id="death-choice-pending"')
    assert reverse("profile-death-choice") in html[pending:]
    assert pending < html.index('data-field="status"')  # above the sheet
    death_choice_make(actor=dead, choice="zombie")
    assert 'id="death-choice-pending"' not in _page(client, "profile-mine")


def test_a_closed_chapter_leads_its_organisers_to_the_settlement(client, table):
    organiser, _campaign, players, chapter = table
    settlement = reverse("chapter-settlement", args=[chapter.pk])
    client.force_login(organiser)
    html = _page(client, "chapter-detail", chapter.pk)
    assert settlement in html and "Settle the chapter: preview every change" in html
    settlement_apply(chapter_id=chapter.pk)
    html = _page(client, "chapter-detail", chapter.pk)
    assert settlement in html and "The settlement's outcome" in html
    # Participants do not see the organisers' settlement page: no link to it.
    client.force_login(players[0])
    assert settlement not in _page(client, "chapter-detail", chapter.pk)


def test_the_campaign_page_leads_to_its_leaderboard(client, table):
    organiser, campaign, players, _chapter = table
    for user in (organiser, players[0]):
        client.force_login(user)
        html = _page(client, "campaign-detail", campaign.pk)
        assert reverse("campaign-leaderboard", args=[campaign.pk]) in html


def test_closing_from_the_form_leads_to_the_settlements_preview(client, table):
    organiser, campaign, players, _chapter = table
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="La digue")
    client.force_login(organiser)
    data = {"epilogue": "Ils tiennent."}
    data.update({f"p{player.pk}_result": "victory" for player in players})
    form_html = _page(client, "chapter-close", chapter.pk)
    assert "epilogue" in form_html
    response = client.post(reverse("chapter-close", args=[chapter.pk]), data, follow=True)
    assert response.redirect_chain[-1][0] == reverse("chapter-settlement", args=[chapter.pk])
    html = response.content.decode()
    assert "Here is every change its settlement makes" in html
    assert "Preview of every change" in html
