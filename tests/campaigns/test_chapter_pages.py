"""Chapter, vote, profile and calendar pages: what users see, in a fixed number of queries."""

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from campaigns.chapters.calendar import calendar, escape_text, fold
from campaigns.chapters.services import OutcomeInput, chapter_close, chapter_plan
from campaigns.services import (
    calendar_feed_token,
    campaign_create,
    campaign_join,
    invitation_create,
)
from campaigns.votes.services import vote_open
from characters.profiles.services import profile_create, profile_update, trauma_add
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(client):
    client.cookies["django_language"] = "en"


def _table(n_players: int, system="of-the-dead"):
    organiser = PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Lyon", system=system)
    token = invitation_create(actor=organiser, campaign=campaign).token
    players = []
    for i in range(n_players):
        player = PlayerFactory()
        campaign_join(player=player, token=token)
        profile_create(
            actor=player,
            player=player,
            physique=3,
            psychique=2,
            reflexes=2,
            combat=2,
            cards=[f"Carte {i}"],
        )
        players.append(player)
    chapter = chapter_plan(
        actor=organiser,
        campaign=campaign,
        title="Le pont",
        required_cards=["Carte 0"],
        starts_at=datetime(2030, 5, 4, 18, tzinfo=UTC),
    )
    chapter_plan(actor=organiser, campaign=campaign, title="Le métro")
    return organiser, campaign, chapter, players


@pytest.mark.parametrize("size", [3, 30])
def test_it_shows_a_campaign_with_chapters_in_the_same_queries(
    client, django_assert_num_queries, size
):
    _organiser, campaign, _chapter, players = _table(size)
    client.force_login(players[0])
    # user (the session from the cache), campaign, memberships, history, chapters, open
    # votes, my profile
    with django_assert_num_queries(7):
        response = client.get(reverse("campaign-detail", args=[campaign.pk]))
    html = response.content.decode()
    assert "Le pont" in html and "You can play it." in html


@pytest.mark.parametrize("size", [3, 30])
def test_it_shows_a_chapter_with_everyones_eligibility_in_the_same_queries(
    client, django_assert_num_queries, size
):
    organiser, _campaign, chapter, _players = _table(size)
    client.force_login(organiser)
    # user (the session from the cache), chapter, memberships with profiles, vocations,
    # outcomes, units, votes
    with django_assert_num_queries(7):
        response = client.get(reverse("chapter-detail", args=[chapter.pk]))
    html = response.content.decode()
    assert html.count('data-check="cards"') == size
    assert html.count("Missing cards: Carte 0.") == size - 1


@pytest.mark.parametrize("size", [3, 30])
def test_it_shows_a_kolaps_chapter_in_the_same_queries_whatever_its_units(
    client, django_assert_num_queries, size
):
    from campaigns.chapters.entries import chapter_unit_enter
    from tests.campaigns.test_kolaps_chapters import build_unit, kolaps_table

    organiser, _campaign, chapter, players = kolaps_table(size)
    for i, player in enumerate(players):
        unit, _ = build_unit(player, f"U{i}", ranks=("novice", "aguerri", "novice"))
        chapter_unit_enter(
            actor=player, chapter=chapter, unit=unit, side="Nord" if i % 2 else "Sud"
        )
    client.force_login(organiser)
    # user (the session from the cache), chapter, memberships, vocations, outcomes, unit
    # results, votes, entries, their characters
    with django_assert_num_queries(9):
        response = client.get(reverse("chapter-detail", args=[chapter.pk]))
    assert response.content.decode().count('class="card" data-unit=') == size
    client.force_login(players[0])
    # ... and the player's own units for the form
    with django_assert_num_queries(10):
        response = client.get(reverse("chapter-detail", args=[chapter.pk]))
    assert 'id="chapter-k12"' in response.content.decode()


def test_it_shows_a_player_only_their_own_eligibility(client):
    _organiser, _campaign, chapter, players = _table(3)
    client.force_login(players[1])
    html = client.get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    assert html.count('data-check="cards"') == 1
    assert "Missing cards: Carte 0." in html


def test_it_answers_the_vocation_form_with_its_fragment_for_htmx(client):
    _organiser, _campaign, chapter, players = _table(2)
    client.force_login(players[0])
    response = client.post(
        reverse("chapter-vocation", args=[chapter.pk]),
        {"vocation": "meneur", "action": "choose"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="chapter-vocations",
    )
    html = response.content.decode()
    assert "<html" not in html and html.strip().startswith('<section id="chapter-vocations"')
    assert 'data-vocation="meneur"' in html
    client.force_login(players[1])
    response = client.post(
        reverse("chapter-vocation", args=[chapter.pk]),
        {"vocation": "meneur", "action": "choose"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="chapter-vocations",
    )
    assert "is already held by" in response.content.decode()


def test_it_shows_a_closed_chapter_as_awaiting_settlement(client):
    organiser, campaign, chapter, players = _table(2)
    chapter_close(
        actor=organiser,
        chapter=chapter,
        epilogue="Le pont tombe.",
        outcomes=[OutcomeInput(players[0].pk, "victory", kills={"zonard": 2})],
    )
    client.force_login(players[1])
    html = client.get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    assert 'id="awaiting-settlement"' in html and "Le pont tombe." in html
    html = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert 'data-status="awaiting-settlement"' in html
    body = client.get(reverse("api-chapter-detail", args=[chapter.pk])).json()
    assert body["awaiting_settlement"] is True and body["settled_at"] is None
    assert body["outcomes"][0]["kills"] == {"zonard": 2}


def test_it_hides_counts_from_players_until_the_vote_closes(client):
    organiser, campaign, chapter, players = _table(2)
    other = campaign.chapters.exclude(pk=chapter.pk).get()
    vote = vote_open(
        actor=organiser, campaign=campaign, kind="next_chapter", candidates=[chapter, other]
    )
    client.force_login(players[0])
    client.post(reverse("vote-detail", args=[vote.pk]), {"chapter": str(chapter.pk)})
    body = client.get(reverse("api-vote-detail", args=[vote.pk])).json()
    assert body["my_chapter"] == chapter.pk
    assert {o["count"] for o in body["candidates"]} == {None}
    client.force_login(organiser)
    client.post(reverse("vote-close", args=[vote.pk]))
    client.force_login(players[0])
    html = client.get(reverse("vote-detail", args=[vote.pk])).content.decode()
    assert 'id="vote-winner"' in html and "1. Le pont" in html


# --- profiles ----------------------------------------------------------------------------------


def _profile_with(size: int):
    player = PlayerFactory(username="alice")
    profile = profile_create(
        actor=player, player=player, physique=3, psychique=2, reflexes=2, combat=2
    )
    organiser = PlayerFactory()
    for i in range(size):
        trauma_add(actor=player, profile=profile, name=f"Trauma {i}", kind="psychic")
        campaign = campaign_create(organiser=organiser, name=f"C{i}", system="of-the-dead")
        campaign_join(
            player=player, token=invitation_create(actor=organiser, campaign=campaign).token
        )
    profile_update(actor=player, profile=profile, is_public=True, show_traumas=True)
    return player


@pytest.mark.parametrize("size", [3, 30])
def test_it_shows_my_profile_in_the_same_queries(client, django_assert_num_queries, size):
    player = _profile_with(size)
    client.force_login(player)
    # user (the session from the cache), profile (card), traumas, vocations, campaigns,
    # history, settled count, profile (form)
    with django_assert_num_queries(8):
        response = client.get(reverse("profile-mine"))
    html = response.content.decode()
    assert html.count("data-trauma=") == size


@pytest.mark.parametrize("size", [3, 30])
def test_it_shows_a_public_profile_in_the_same_queries(client, django_assert_num_queries, size):
    _profile_with(size)
    # profile with player, traumas, vocations, campaigns, settled count (anonymous: no session)
    with django_assert_num_queries(5):
        response = client.get(reverse("profile-public", args=["alice"]))
    html = response.content.decode()
    assert html.count("Trauma ") == size
    assert "No settled chapter yet" in html


def test_it_hides_a_private_profile_and_what_its_player_keeps_private(client):
    player = PlayerFactory(username="bruno")
    profile = profile_create(
        actor=player,
        player=player,
        physique=3,
        psychique=2,
        reflexes=2,
        combat=2,
        equipment=["Batte cloutée"],
    )
    assert client.get(reverse("profile-public", args=["bruno"])).status_code == 404
    profile_update(actor=player, profile=profile, is_public=True, show_attributes=False)
    html = client.get(reverse("profile-public", args=["bruno"])).content.decode()
    assert 'data-field="life_markers"' not in html and "Batte cloutée" not in html
    client.force_login(player)  # its owner previews everything
    html = client.get(reverse("profile-public", args=["bruno"])).content.decode()
    assert 'data-field="life_markers"' in html and "Batte cloutée" in html


def test_it_shows_o1_messages_beside_the_fields(client):
    client.force_login(PlayerFactory())
    response = client.post(
        reverse("profile-mine"), {"physique": 0, "psychique": 3, "reflexes": 3, "combat": 3}
    )
    assert "Physique needs at least 1 point." in response.content.decode()
    response = client.post(
        reverse("profile-mine"), {"physique": 4, "psychique": 3, "reflexes": 3, "combat": 3}
    )
    assert "these add up to 13." in response.content.decode()


def test_it_prints_the_sheet_with_the_next_chapters_starting_conditions(client):
    _organiser, _campaign, _chapter, players = _table(1)
    client.force_login(players[0])
    trauma_add(
        actor=players[0],
        profile=players[0].otd_profile,
        name="Bras cassé",
        kind="physical",
        effect={"physique": -1},
    )
    html = client.get(reverse("profile-sheet")).content.decode()
    assert "Bras cassé" in html and "Le pont" in html
    assert 'data-field="life_markers">4<' in html


# --- iCalendar --------------------------------------------------------------------------------


def test_it_escapes_and_folds_as_rfc_5545_says():
    assert escape_text("a;b,c\\d\ne") == "a\\;b\\,c\\\\d\\ne"
    long = "SUMMARY:" + "é" * 60
    folded = fold(long)
    lines = folded.split("\r\n")
    assert all(len(line.encode()) <= 75 for line in lines)
    assert all(line.startswith(" ") for line in lines[1:])
    assert "".join(line[1:] if i else line for i, line in enumerate(lines)) == long


def test_it_serves_a_valid_calendar_for_the_token(client):
    _organiser, _campaign, chapter, players = _table(1)
    feed = calendar_feed_token(player=players[0])
    response = client.get(reverse("calendar-feed", args=[feed.token]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    body = response.content.decode()
    assert body.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:")
    assert body.endswith("END:VCALENDAR\r\n")
    assert "\n" not in body.replace("\r\n", "")  # every line ends with CRLF
    assert body.count("BEGIN:VEVENT") == 1  # the undated chapter is left out
    assert "DTSTART:20300504T180000Z\r\n" in body and "DTEND:20300504T220000Z\r\n" in body
    assert f"UID:chapter-{chapter.pk}@testserver\r\n" in body
    assert "SUMMARY:Lyon — 1. Le pont\r\n" in body
    assert client.get(reverse("calendar-feed", args=["not-a-token"])).status_code == 404


def test_it_links_each_event_to_its_chapter_with_the_feeds_own_scheme(client):
    """`make run` serves http: an event's link said https and led nowhere."""
    _organiser, _campaign, chapter, players = _table(1)
    feed = calendar_feed_token(player=players[0])
    url = reverse("calendar-feed", args=[feed.token])
    page = reverse("chapter-detail", args=[chapter.pk])
    assert f"URL:http://testserver{page}\r\n" in client.get(url).content.decode()
    assert f"URL:https://testserver{page}\r\n" in client.get(url, secure=True).content.decode()


def test_it_escapes_user_text_in_events():
    class FakeCampaign:
        name = "Lyon, la nuit"

    class FakeChapter:
        pk, number, title = 7, 1, "Pont; ruines"
        campaign = FakeCampaign()
        starts_at = datetime(2030, 1, 1, 20, tzinfo=UTC)
        duration_minutes = 60
        place = "Quai\nnord"
        objectives, weather, time_of_day = "", "", ""

    body = calendar(
        [FakeChapter()], host="example.test", name="X", now=datetime(2030, 1, 1, tzinfo=UTC)
    )
    assert "SUMMARY:Lyon\\, la nuit — 1. Pont\\; ruines\r\n" in body
    assert "LOCATION:Quai\\nnord\r\n" in body
    assert "DTSTAMP:20300101T000000Z\r\n" in body


def test_the_vocation_api_refuses_a_player_id_that_is_no_number(client):
    _organiser, _campaign, chapter, players = _table(2)
    client.force_login(players[0])
    url = reverse("api-chapter-vocation", args=[chapter.pk])
    for method in (client.post, client.delete):
        response = method(
            url, {"vocation": "meneur", "player": "abc"}, content_type="application/json"
        )
        assert response.status_code == 400 and "player" in response.json()
    taken = client.post(url, {"vocation": "meneur"}, content_type="application/json")
    assert taken.status_code == 200
    given_back = client.delete(url, {}, content_type="application/json")
    assert given_back.status_code == 200
    assert not chapter.vocations.exists()


def test_a_public_profile_counts_hidden_traumas_in_its_numbers(client):
    """The stored life markers and Moral count active traumas; the attributes shown beside
    them must too, even when the player keeps the list of traumas private."""
    player = PlayerFactory(username="bruno")
    profile = profile_create(
        actor=player, player=player, physique=3, psychique=2, reflexes=2, combat=2
    )
    profile = profile_update(actor=player, profile=profile, is_public=True)
    trauma_add(actor=player, profile=profile, name="Bras cassé", kind="physical",
               effect={"physique": -1})  # fmt: skip
    body = client.get(reverse("api-profile-public", args=["bruno"])).json()
    assert body["effective"]["physique"] == 2 and body["physique"] == 3
    assert body["traumas"] == []
    assert (
        "Bras cassé" not in client.get(reverse("profile-public", args=["bruno"])).content.decode()
    )


def test_it_documents_the_200_and_the_chapter_that_giving_a_vocation_back_answers(client):
    """A DELETE is documented 204 (no body) unless told: the vocation's answers 200 with the
    chapter, and so do the unit's, the army's and the co-organiser's removals (the fuzzer
    met a 200 the schema did not list)."""
    _organiser, _campaign, chapter, players = _table(2)
    client.force_login(players[0])
    url = reverse("api-chapter-vocation", args=[chapter.pk])
    client.post(url, {"vocation": "meneur"}, content_type="application/json")
    given_back = client.delete(url, {}, content_type="application/json")
    schema = client.get("/api/schema/?format=json").json()
    documented = schema["paths"]["/api/v1/chapters/{id}/vocation/"]["delete"]["responses"]
    assert given_back.status_code == 200 and str(given_back.status_code) in documented
    assert given_back.json()["id"] == chapter.pk
    for path in (
        "/api/v1/chapters/{id}/units/{unit}/",
        "/api/v1/chapters/{id}/armies/{army}/",
        "/api/v1/campaigns/{id}/co-organisers/",
    ):
        assert "200" in schema["paths"][path]["delete"]["responses"], path
        assert "204" not in schema["paths"][path]["delete"]["responses"], path
