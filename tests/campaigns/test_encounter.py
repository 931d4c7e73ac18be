"""The encounter log of a chapter being played (campaigns/encounter.py): the page, its
API twin and the service behind both. The settlement sums these rows into damage dealt,
damage taken and rolls made (the settlement: "when the chapter's encounters were played in
Chronique, damage dealt and taken and rolls made")."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from campaigns.chapters.services import chapter_plan, chapter_start, encounter_event_record
from campaigns.models import CampaignEvent, EncounterEvent
from characters.permissions import Refusal
from rules.rolls.services import roll_on_server
from tests.factories import PlayerFactory
from tests.settlement_fixtures import of_the_dead_table

BRAWL = {"attacker": {"combat": 3}, "defender": {"combat": 1, "life": 2}}

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def playing():
    organiser, campaign, players = of_the_dead_table(players=3)
    chapter = chapter_start(
        actor=organiser, chapter=chapter_plan(actor=organiser, campaign=campaign, title="Arène")
    )
    return organiser, campaign, players, chapter


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_a_player_records_their_own_roll_and_the_history_says_so(playing):
    _organiser, campaign, players, chapter = playing
    roll = roll_on_server(player=players[0], system="of-the-dead", name="brawl", data=BRAWL)
    event = encounter_event_record(
        actor=players[0], chapter=chapter, player=players[0], target=players[1], damage=3, roll=roll
    )
    assert (event.player_id, event.target_id, event.damage, event.roll_id) == (
        players[0].pk,
        players[1].pk,
        3,
        roll.pk,
    )
    logged = CampaignEvent.objects.filter(campaign=campaign, verb="encounter_roll").get()
    assert logged.actor_id == players[0].pk
    assert logged.data == {
        "chapter": chapter.pk,
        "title": "Arène",
        # Display names, as every history line shows them ("un jet de alice" read a login).
        "player": players[0].display_name,
        "target": players[1].display_name,
        "damage": 3,
        "roll": roll.pk,
    }


def test_it_refuses_what_the_table_could_not_have_played(playing):
    organiser, campaign, players, chapter = playing
    stranger = PlayerFactory()
    their_roll = roll_on_server(player=players[1], system="of-the-dead", name="brawl", data=BRAWL)
    other_system = roll_on_server(
        player=players[0], system="kolaps", name="test", data={"db": 1, "rank": "novice"}
    )
    cases = [
        ({"actor": players[1], "player": players[0]}, None),  # for someone else: 403
        ({"actor": organiser, "player": stranger}, "player"),
        ({"actor": organiser, "player": players[0], "target": stranger}, "target"),
        ({"actor": organiser, "player": players[0], "target": players[0]}, "target"),
        ({"actor": organiser, "player": players[0], "damage": 101}, "damage"),
        ({"actor": organiser, "player": players[0], "damage": -1}, "damage"),
        ({"actor": organiser, "player": players[0], "damage": 2}, "target"),
        ({"actor": organiser, "player": players[0], "roll": their_roll}, "roll"),
        ({"actor": organiser, "player": players[0], "roll": other_system}, "roll"),
    ]
    for kwargs, field in cases:
        with pytest.raises(Refusal) as refused:
            encounter_event_record(chapter=chapter, **kwargs)
        assert refused.value.field == field, kwargs
    planned = chapter_plan(actor=organiser, campaign=campaign, title="Plus tard")
    with pytest.raises(Refusal, match="while the chapter is being played"):
        encounter_event_record(actor=organiser, chapter=planned, player=players[0])
    assert EncounterEvent.objects.count() == 0


def test_the_page_offers_a_player_only_themself_and_records_their_roll(playing):
    _organiser, _campaign, players, chapter = playing
    client = _client(players[0])
    url = reverse("chapter-encounter", args=[chapter.pk])
    page = client.get(url).content.decode()
    assert 'id="encounter-form"' in page
    assert f'<option value="{players[0].pk}" selected>' in page
    assert f'<option value="{players[1].pk}">' in page  # as a target, not as the roller
    assert page.count(f'value="{players[1].pk}"') == 1
    response = client.post(
        url, {"player": players[0].pk, "target": players[1].pk, "damage": 4, "roll": ""}
    )
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "hits" in page and "4 damage" in page
    assert EncounterEvent.objects.get().damage == 4


def test_bad_input_is_a_message_in_the_page_and_records_nothing(playing):
    organiser, _campaign, players, chapter = playing
    client = _client(organiser)
    url = reverse("chapter-encounter", args=[chapter.pk])
    for data, sentence in [
        ({"player": players[0].pk, "damage": 500}, "less than or equal to 100"),
        ({"player": players[0].pk, "target": players[0].pk, "damage": 1}, "another player"),
        ({"player": players[0].pk, "damage": "beaucoup"}, "Enter a whole number"),
    ]:
        response = client.post(url, data)
        assert response.status_code == 200
        assert sentence in response.content.decode(), data
    assert EncounterEvent.objects.count() == 0


def test_htmx_gets_the_log_back_with_the_new_roll_and_the_totals(playing):
    organiser, _campaign, players, chapter = playing
    client = _client(organiser)
    url = reverse("chapter-encounter", args=[chapter.pk])
    response = client.post(
        url,
        {"player": players[1].pk, "target": players[2].pk, "damage": 2},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="encounter-log">')
    assert 'id="encounter-totals"' in html and "<td>P-1</td><td>1</td><td>2</td><td>0</td>" in html
    assert "<td>P-2</td><td>0</td><td>0</td><td>2</td>" in html


def test_a_chapter_not_being_played_shows_its_log_without_a_form(playing):
    organiser, campaign, players, _chapter = playing
    planned = chapter_plan(actor=organiser, campaign=campaign, title="Plus tard")
    client = _client(players[0])
    url = reverse("chapter-encounter", args=[planned.pk])
    page = client.get(url).content.decode()
    assert 'id="encounter-form"' not in page and "No roll recorded yet." in page
    response = client.post(url, {"player": players[0].pk, "damage": 1}, follow=True)
    assert "while the chapter is being played" in response.content.decode()
    assert EncounterEvent.objects.count() == 0


@pytest.mark.parametrize("size", [3, 30])
def test_the_page_costs_the_same_queries_however_long_the_log(
    playing, size, django_assert_num_queries
):
    organiser, _campaign, players, chapter = playing
    for n in range(size):
        encounter_event_record(
            actor=organiser,
            chapter=chapter,
            player=players[n % 3],
            target=players[(n + 1) % 3],
            damage=n % 5,
        )
    client = _client(players[0])
    url = reverse("chapter-encounter", args=[chapter.pk])
    # user (the session from the cache), chapter, memberships, the log, my recent rolls
    with django_assert_num_queries(5):
        response = client.get(url)
    assert response.content.decode().count("data-event=") == size


def test_the_api_twin_records_and_lists_with_the_same_refusals(playing):
    _organiser, _campaign, players, chapter = playing
    client = _client(players[0])
    url = reverse("api-chapter-encounter", args=[chapter.pk])
    created = client.post(
        url, {"target": players[1].pk, "damage": 3}, content_type="application/json"
    )
    assert created.status_code == 201
    assert created.json()["player_id"] == players[0].pk and created.json()["damage"] == 3
    assert client.post(url, {"damage": 300}, content_type="application/json").json().keys() == {
        "damage"
    }
    refused = client.post(url, {"target": 999999}, content_type="application/json")
    assert refused.status_code == 400 and "target" in refused.json()
    refused = client.post(url, {"player": players[1].pk}, content_type="application/json")
    assert refused.status_code == 403
    listing = client.get(url).json()
    assert listing["can_record"] is True
    assert [(r["player"], r["target"], r["damage"]) for r in listing["rows"]] == [("P-0", "P-1", 3)]


def test_rolls_recorded_in_the_log_count_in_the_settled_statistics(playing):
    from django.test import TestCase

    from campaigns.chapters.services import OutcomeInput, chapter_close
    from campaigns.settlement.services import settlement_request
    from campaigns.statistics.services import leaderboard

    organiser, campaign, players, chapter = playing
    client = _client(organiser)
    url = reverse("chapter-encounter", args=[chapter.pk])
    client.post(url, {"player": players[0].pk, "target": players[1].pk, "damage": 3})
    client.post(url, {"player": players[1].pk, "target": players[0].pk, "damage": 1})
    client.post(url, {"player": players[0].pk, "damage": 0})
    chapter = chapter_close(
        actor=organiser,
        chapter=chapter,
        epilogue="Fin.",
        outcomes=[OutcomeInput(p.pk, "victory") for p in players],
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        settlement_request(actor=organiser, chapter=chapter)
    rows = {r.username: r for r in leaderboard(campaign_id=campaign.pk)}
    assert (rows["p-0"].damage_dealt, rows["p-0"].damage_taken, rows["p-0"].rolls) == (3, 1, 2)
    assert (rows["p-1"].damage_dealt, rows["p-1"].damage_taken, rows["p-1"].rolls) == (1, 3, 1)


def test_the_demo_shows_a_chapter_being_played_with_its_log_idempotently():
    from io import StringIO

    from django.core.management import call_command

    from characters.models import Player
    from config.demo.encounter import DEMO_ENCOUNTER_CHAPTER

    call_command("demo_load", stdout=StringIO())
    call_command("demo_load", stdout=StringIO())
    events = EncounterEvent.objects.select_related("chapter", "player", "target", "roll")
    assert [
        (e.player.username, e.target and e.target.username, e.damage, e.roll and e.roll.resolver)
        for e in events
    ] == [("alice", "bruno", 2, "ranged"), ("bruno", "alice", 1, None), ("alice", None, 0, "test")]
    chapter = events[0].chapter
    assert (chapter.title, chapter.status) == (DEMO_ENCOUNTER_CHAPTER, "current")
    page = _client(Player.objects.get(username="bruno")).get(
        reverse("chapter-encounter", args=[chapter.pk])
    )
    assert page.content.decode().count("data-event=") == 3
    detail = _client(Player.objects.get(username="bruno")).get(
        reverse("chapter-detail", args=[chapter.pk])
    )
    assert 'id="chapter-encounter-link"' in detail.content.decode()


def test_a_server_roll_leads_to_the_log_of_the_chapter_being_played(playing):
    """From the calculator's "Server roll no. N, recorded" to the roll's page, then to the
    encounter log with that roll chosen already; the API twin lists the same chapters. A roll
    of another system is offered no encounter of this campaign."""
    _organiser, _campaign, players, chapter = playing
    roll = roll_on_server(player=players[0], system="of-the-dead", name="brawl", data=BRAWL)
    client = _client(players[0])
    detail = client.get(reverse("roll-detail", args=[roll.pk])).content.decode()
    link = f"{reverse('chapter-encounter', args=[chapter.pk])}?roll={roll.pk}"
    assert f'href="{link}"' in detail and "Arène" in detail
    page = client.get(link).content.decode()
    assert f'<option value="{roll.pk}" selected>#{roll.pk} Brawl' in page
    api = client.get(reverse("api-roll-detail", args=[roll.pk])).json()
    assert api["record_in"] == [{"id": chapter.pk, "title": "Arène", "campaign": "Lyon"}]
    rapid = roll_on_server(player=players[0], system="rapid40k", name="morale", data={"quality": 3})
    other = client.get(reverse("roll-detail", args=[rapid.pk])).content.decode()
    assert 'id="roll-record-in"' not in other
    assert client.get(reverse("api-roll-detail", args=[rapid.pk])).json()["record_in"] == []
    assert f'value="{rapid.pk}"' not in client.get(link).content.decode()
    # Someone playing in no campaign gets no such link.
    loner = PlayerFactory()
    theirs = roll_on_server(
        player=loner, system="kolaps", name="test", data={"db": 1, "rank": "novice"}
    )
    alone = _client(loner).get(reverse("roll-detail", args=[theirs.pk])).content.decode()
    assert 'id="roll-record-in"' not in alone
