"""The settlement pages: preview then confirm, progress polled by htmx, reopen; the
leaderboards and a character's history with their SVG charts; the dead player's choice.
Query counts are pinned at two sizes."""

import pytest
from django.test import TestCase
from django.urls import reverse
from django.utils import translation

from campaigns.models import SettlementEntry
from campaigns.settlement.apply import settlement_apply
from characters.models import Profile
from characters.profiles.services import profile_update
from tests.settlement_fixtures import closed_chapter, of_the_dead_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(client):
    # Pages are French by default (main's catalogue is compiled): the client asks English.
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def table():
    organiser, campaign, players = of_the_dead_table(players=3)
    chapter = closed_chapter(organiser, campaign, players)
    return organiser, campaign, players, chapter


def test_it_previews_then_settles_when_the_organiser_confirms(client, table):
    organiser, _campaign, _players, chapter = table
    client.force_login(organiser)
    url = reverse("chapter-settlement", args=[chapter.pk])
    page = client.get(url).content.decode()
    assert "Preview of every change" in page
    assert "Bras cassé 0" in page and "heals" in page and "becomes permanent" in page
    assert "0 → 2 (+2)" in page  # survival points of the winner
    assert "zombie or reincarnation" in page
    assert not SettlementEntry.objects.exists()  # reading the preview writes nothing

    with TestCase.captureOnCommitCallbacks(execute=True) as callbacks:
        response = client.post(url)
    # One settlement task; the settled chapter's notification follows its own commit.
    settles = [c for c in callbacks if "chapter_settle" in repr(c)]
    assert response.status_code == 302 and len(settles) == 1
    page = client.get(url).content.decode()
    assert "Settled on" in page and "Reopen the settlement" in page
    assert "Confirm and settle" not in page
    assert SettlementEntry.objects.filter(chapter=chapter).count() == 3

    response = client.post(reverse("chapter-settlement-reopen", args=[chapter.pk]))
    assert response.status_code == 302
    assert "Confirm and settle" in client.get(url).content.decode()


def test_it_polls_the_progress_while_the_task_is_queued(client, table):
    organiser, _campaign, _players, chapter = table
    client.force_login(organiser)
    # Confirmed, but the commit callbacks are not run: the task has not started.
    with TestCase.captureOnCommitCallbacks(execute=False):
        client.post(reverse("chapter-settlement", args=[chapter.pk]))
    fragment = client.get(
        reverse("chapter-settlement-progress", args=[chapter.pk]),
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="settlement-progress",
    ).content.decode()
    assert "<html" not in fragment
    assert 'hx-trigger="every 1s"' in fragment and "Queued" in fragment
    settlement_apply(chapter_id=chapter.pk)
    fragment = client.get(reverse("chapter-settlement-progress", args=[chapter.pk])).content
    assert b"every 1s" not in fragment and b"Settled on" in fragment


def test_it_refuses_the_preview_to_players(client, table):
    _organiser, _campaign, players, chapter = table
    client.force_login(players[0])
    assert client.get(reverse("chapter-settlement", args=[chapter.pk])).status_code == 403


def _campaign_of(size: int):
    organiser, campaign, players = of_the_dead_table(players=size, prefix=f"s{size}")
    chapter = closed_chapter(organiser, campaign, players)
    settlement_apply(chapter_id=chapter.pk)
    return organiser, campaign, players


@pytest.mark.parametrize("size", [3, 30])
def test_it_costs_the_same_queries_for_3_or_30_participants(
    client, django_assert_num_queries, size
):
    organiser, campaign, players = _campaign_of(size)
    client.force_login(organiser)
    # user (the session from the cache), campaign with my membership, ranked rows
    with django_assert_num_queries(3):
        page = client.get(reverse("campaign-leaderboard", args=[campaign.pk])).content.decode()
    assert page.count("<tr>") == size + 1
    assert "<svg" in page and "<title>Reputation</title>" in page
    for player in players[:2]:
        profile_update(actor=player, profile=player.otd_profile, is_public=True)
    client.force_login(players[2])
    with django_assert_num_queries(2):  # user (the session from the cache), ranked rows
        page = client.get(reverse("leaderboard")).content.decode()
    assert page.count("<tr>") == 3 + 1  # two public profiles and the viewer


@pytest.mark.parametrize("chapters", [3, 30])
def test_it_costs_the_same_queries_for_3_or_30_chapters_of_history(
    client, django_assert_num_queries, chapters
):
    organiser, campaign, players = of_the_dead_table(players=2, prefix=f"h{chapters}")
    for number in range(chapters):
        chapter = closed_chapter(organiser, campaign, players[:2], title=f"C{number}")
        settlement_apply(chapter_id=chapter.pk)
    client.force_login(players[0])
    # user (the session from the cache), player+profile, history, traumas, standing
    with django_assert_num_queries(5):
        page = client.get(reverse("profile-history", args=[players[0].username])).content.decode()
    assert page.count("<svg") == 2
    assert f"+2 = {2 * chapters}" in page  # running survival points
    assert "Chapters survived" in page  # the reputation's breakdown
    client.force_login(players[1])
    assert client.get(reverse("profile-history", args=[players[0].username])).status_code == 404


def test_it_shows_the_dead_player_their_pending_choice(client, table):
    _organiser, _campaign, players, chapter = table
    settlement_apply(chapter_id=chapter.pk)
    client.force_login(players[2])
    url = reverse("profile-death-choice")
    assert "the choice is yours" in client.get(url).content.decode()
    assert client.post(url, {"choice": "reincarnated"}).status_code == 302
    assert Profile.objects.get(player=players[2]).status == "reincarnated"
    assert "You chose the reincarnation rule." in client.get(url).content.decode()


def test_it_answers_the_api_twins(client, table):
    organiser, campaign, players, chapter = table
    client.force_login(organiser)
    url = reverse("api-chapter-settlement", args=[chapter.pk])
    body = client.get(url).json()
    assert body["status"] == "awaiting"
    assert [p["survival_points"] for p in body["preview"]["participants"]] == [2, 1, 0]
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert client.post(url).status_code == 202
    assert client.get(url).json()["status"] == "done"
    standings = client.get(reverse("api-campaign-leaderboard", args=[campaign.pk])).json()
    assert [c["key"] for c in standings["columns"]] == [
        "chapters_played", "chapters_survived", "chapters_won", "deaths", "kills_total",
        "survival_points",
    ]  # fmt: skip
    rows = standings["rows"]
    assert rows[0]["rank"] == 1 and rows[0]["breakdown"][0]["label"] == "Chapters played"
    assert standings["score_heading"] == "Reputation"
    client.force_login(players[2])
    bad = client.post(
        reverse("api-profile-death-choice"), {"choice": "ghost"}, content_type="application/json"
    )
    assert bad.status_code == 400 and "choice" in bad.json()
    history = client.get(reverse("api-profile-history", args=[players[2].username])).json()
    assert history["chapters"][0]["died"] is True
    client.force_login(players[0])
    history = client.get(reverse("api-profile-history", args=[players[0].username])).json()
    assert [(t["name"], t["chapter"]) for t in history["traumas"]] == [("Bras cassé 0", chapter.pk)]
    assert history["standing"]["breakdown"][0]["label"] == "Chapters played"
