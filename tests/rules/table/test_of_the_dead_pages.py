"""The Of the Dead encounter's pages and API twins: the markers and initiative order on a
phone, the action with its options, the organiser adding zombies, a quick party, and a
fixed number of queries however many fighters."""

import pytest
from django.conf import settings
from django.urls import reverse
from rest_framework.test import APIClient

from rules.table.models import Combatant, Encounter
from rules.table.services import encounter_advance, encounter_create_for_chapter
from tests.rules.table.otd_fixtures import add_zombies, otd_chapter, pass_until

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    chapter, organiser, anna, boris = otd_chapter()
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    add_zombies(organiser, encounter, "zonard", 2)
    encounter.refresh_from_db()
    return encounter, organiser, anna, boris


def _client(client, player, language="en"):
    client.force_login(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def _text(response) -> str:
    return response.content.decode().replace("\u00a0", " ").replace("\u202f", " ")


def test_the_page_shows_life_moral_markers_and_the_initiative_order(client, table):
    encounter, organiser, *_ = table
    html = _text(_client(client, organiser).get(reverse("table-encounter", args=[encounter.pk])))
    assert "Survivors" in html and "Zombies" in html and ">survivors<" not in html
    assert 'id="table-order"' in html and "Initiative order" in html
    assert 'class="gauge-life">4<small>/4</small>' in html
    assert "Movement" in html and 'id="add-form"' in html and "To the action phase" in html
    # Of the Dead speaks of no KOLAPS gauge or order.
    assert "Santé" not in html and "Souffle" not in html and "directive" not in html


def test_the_french_page_speaks_french(client, table):
    encounter, organiser, *_ = table
    html = _text(
        _client(client, organiser, "fr").get(reverse("table-encounter", args=[encounter.pk]))
    )
    assert (
        "Survivants" in html
        and "Ordre d'initiative" in html
        and "Déplacement" in html
        and "Marche" in html
    )


def test_a_player_moves_on_the_page_and_the_markers_show(client, table):
    encounter, organiser, anna, _boris = table
    pass_until(organiser, encounter, "Anna")
    me = Combatant.objects.get(encounter=encounter, name="Anna")
    response = _client(client, anna).post(
        reverse("table-act", args=[encounter.pk]),
        {
            "version": encounter.version,
            "kind": "move",
            "actor": me.pk,
            "target": me.pk,
            "move": "run",
            "distance_cm": 18,
            "roll": "server",
        },
    )
    assert response.status_code == 302
    html = _text(client.get(reverse("table-encounter", args=[encounter.pk])))
    assert "noise \u00d72" in html and "zeal" in html


def test_an_attack_out_of_its_phase_is_a_sentence(client, table):
    encounter, _organiser, anna, _boris = table
    me = Combatant.objects.get(encounter=encounter, name="Anna")
    zombie = Combatant.objects.get(encounter=encounter, name="Zonard 1")
    response = _client(client, anna).post(
        reverse("table-act", args=[encounter.pk]),
        {"version": encounter.version, "kind": "brawl", "actor": me.pk, "target": zombie.pk},
    )
    assert response.status_code == 400
    assert "The movement phase is for moving." in _text(response)


def test_the_odds_show_before_the_dice(client, table):
    encounter, organiser, anna, _boris = table
    encounter_advance(actor=organiser, encounter=encounter, version=None)
    me = Combatant.objects.get(encounter=encounter, name="Anna")
    zombie = Combatant.objects.get(encounter=encounter, name="Zonard 1")
    response = _client(client, anna).get(
        reverse("table-odds", args=[encounter.pk]),
        {"kind": "brawl", "actor": me.pk, "target": zombie.pk},
        headers={"HX-Request": "true"},
    )
    html = _text(response)
    # Combat 2 against 2 (O3): no damage 11/16; both dice through, the zonard dies: 1/16.
    # One way of showing a chance: the percentage, the exact fraction in its title.
    assert 'title="11/16" tabindex="0">68.8%<' in html and "The target dies" in html
    assert 'id="odds-dies"><abbr class="chance" title="1/16" tabindex="0">6.3%</abbr>' in html


def test_the_organiser_adds_zombies_on_the_page_and_through_the_api(client, table):
    encounter, organiser, anna, _boris = table
    response = _client(client, organiser).post(
        reverse("table-add", args=[encounter.pk]),
        {
            "add-version": encounter.version,
            "add-kind": "zombie",
            "add-zombie_type": "mastard",
            "add-count": 2,
            "add-reflexes": 1,
            "add-combat": 4,
            "add-physique": 3,
            "add-life": 6,
            "add-moral": 0,
        },
    )
    assert response.status_code == 302
    assert Combatant.objects.filter(encounter=encounter, name__startswith="Mastard").count() == 2
    api = APIClient()
    api.force_authenticate(organiser)
    encounter.refresh_from_db()
    answer = api.post(
        reverse("api-table-add", args=[encounter.pk]),
        {"version": encounter.version, "kind": "npc", "name": "Le chien", "side": "survivors",
         "reflexes": 3, "combat": 1, "life": 4},
        format="json",
    )  # fmt: skip
    assert answer.status_code == 200
    assert "Le chien" in [c["name"] for s in answer.json()["sides"] for c in s["combatants"]]
    api.force_authenticate(anna)
    refused = api.post(
        reverse("api-table-add", args=[encounter.pk]),
        {"kind": "zombie", "zombie_type": "zonard", "reflexes": 1, "combat": 1, "life": 2},
        format="json",
    )
    assert refused.status_code == 403


def test_the_api_acts_and_answers_409_on_a_stale_version(table):
    encounter, organiser, anna, _boris = table
    pass_until(organiser, encounter, "Anna")
    me = Combatant.objects.get(encounter=encounter, name="Anna")
    api = APIClient()
    api.force_authenticate(anna)
    url = reverse("api-table-act", args=[encounter.pk])
    body = {"version": encounter.version, "kind": "move", "actor": me.pk, "target": me.pk,
            "distance_cm": 6, "options": {"move": "careful"}}  # fmt: skip
    assert api.post(url, body, format="json").status_code == 200
    stale = api.post(url, body, format="json")
    assert stale.status_code == 409 and stale.json()["state"]["version"] == encounter.version + 1
    del organiser


def test_a_quick_party_opens_from_its_page(client, table):
    _encounter, _organiser, anna, _boris = table
    page = _client(client, anna).get(reverse("table-new-of-the-dead"))
    assert page.status_code == 200
    response = client.post(reverse("table-new-of-the-dead"), {"title": "Ce soir"})
    party = Encounter.objects.get(title="Ce soir")
    assert response.url == reverse("table-encounter", args=[party.pk])
    assert party.system == "of-the-dead"


@pytest.mark.parametrize("zombies", [2, 30])
def test_the_page_costs_the_same_queries_whatever_the_number_of_fighters(
    client, django_assert_num_queries, zombies
):
    chapter, organiser, _anna, _boris = otd_chapter()
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    add_zombies(organiser, encounter, "zonard", min(zombies, 20))
    if zombies > 20:
        add_zombies(organiser, encounter, "mastard", zombies - 20)
    client.force_login(organiser)
    url = reverse("table-encounter", args=[encounter.pk])
    client.get(url)
    add_zombies(organiser, encounter, "mastard", 1)
    # Changed since: the encounter with the viewer's membership, combatants, log (session
    # and user from the cache since the first request)
    with django_assert_num_queries(3):
        assert client.get(url).status_code == 200
    # Unchanged since: the fetch that authorises it, and the page as it was sent
    with django_assert_num_queries(1):
        assert client.get(url).status_code == 200


def test_the_organiser_opens_it_from_the_chapter_page(client, table):
    encounter, organiser, _anna, _boris = table
    from campaigns.chapters.services import chapter_plan, chapter_start

    page = _text(
        _client(client, organiser).get(reverse("chapter-detail", args=[encounter.chapter_id]))
    )
    assert 'id="table-link"' in page and "Open the table" in page
    # Another chapter of the campaign, whose players have no living character any more.
    other = chapter_plan(actor=organiser, campaign=encounter.chapter.campaign, title="Le tunnel")
    other = chapter_start(actor=organiser, chapter=other)
    page = _text(client.get(reverse("chapter-detail", args=[other.pk])))
    assert 'id="table-open"' in page
    from characters.models import Profile

    Profile.objects.filter(player__username__in=["anna", "boris"]).update(status="dead")
    refused = client.post(reverse("chapter-table", args=[other.pk]))
    assert refused.status_code == 400
    assert "no player has a living character" in _text(refused)


def test_the_log_tells_the_wrap_up_s_bleeding(client, table):
    encounter, organiser, _anna, _boris = table
    him = Combatant.objects.get(encounter=encounter, name="Boris")
    him.state = {**him.state, "bleeding": True}
    him.save(update_fields=["state"])
    for _phase in range(3):
        encounter_advance(actor=organiser, encounter=encounter, version=None)
    html = _text(_client(client, organiser).get(reverse("table-encounter", args=[encounter.pk])))
    assert "Wrap-up of turn 1. Boris loses 1 life." in html
