"""KOLAPS pages and their API twins: the builder, the unit page, sharing, print, history,
export and import; a fixed number of queries whatever the unit's size."""

import json

import pytest
from django.conf import settings
from django.urls import reverse

from characters.kolaps import services
from characters.kolaps.models import KolapsCharacter, KolapsUnit
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_en(client):
    """Pages read in English, so sentences are checked whatever the French catalogue says."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def owner():
    return PlayerFactory(username="alice")


def fresh(obj):
    obj.refresh_from_db()
    return obj


def unit_of(owner, size: int, *, avatar=True):
    unit = services.unit_create(owner=owner, name="Section 4")
    members = [
        services.character_create(
            owner=owner,
            name=f"Agent {n}",
            archetype="agent-de-police",
            rank=("novice", "aguerri", "veteran")[n % 3],
            unit=unit,
        )
        for n in range(size)
    ]
    if avatar and members:
        services.unit_set_avatar(
            actor=owner, unit=unit, version=fresh(unit).version, character=members[0]
        )
    return fresh(unit)


def post_op(client, url, **data):
    return client.post(url, data)


# --- The builder -----------------------------------------------------------------------------


def test_it_builds_a_character_and_updates_pp_left_as_they_click(client_en, owner):
    client_en.force_login(owner)
    response = client_en.post(
        reverse("kolaps-character-create"),
        {"name": "Dupont", "archetype": "agent-de-police", "rank": "veteran"},
    )
    character = KolapsCharacter.objects.get(name="Dupont")
    assert response.status_code == 302
    url = reverse("kolaps-character", args=[character.pk])
    html = client_en.get(url).content.decode()
    assert 'data-testid="pp-left" class="big">19<' in html
    # A specialisation whose prerequisite is missing is shown with the reason.
    assert 'data-testid="reason-tir-instinctif">Requires Fusil 1 or Pistolet 1.' in html
    fragment = client_en.post(
        url,
        {"op": "raise", "talent": "fusil", "version": 1},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="character-builder",
    ).content.decode()
    assert "<html" not in fragment
    assert fragment.strip().startswith('<div id="character-builder"')
    assert 'data-testid="pp-left" class="big">18<' in fragment
    assert 'data-testid="reason-tir-instinctif"' not in fragment


def test_it_works_without_javascript_by_redirecting_after_a_change(client_en, owner):
    client_en.force_login(owner)
    character = services.character_create(
        owner=owner, name="Dupont", archetype="agent-de-police", rank="novice"
    )
    url = reverse("kolaps-character", args=[character.pk])
    response = client_en.post(url, {"op": "raise", "talent": "marche", "version": 1})
    assert response.status_code == 302 and response["Location"] == url
    assert fresh(character).talents["marche"] == 1


def test_it_refuses_a_stale_sheet_with_a_sentence_and_the_current_state(client_en, owner):
    client_en.force_login(owner)
    character = services.character_create(
        owner=owner, name="Dupont", archetype="agent-de-police", rank="novice"
    )
    url = reverse("kolaps-character", args=[character.pk])
    client_en.post(url, {"op": "raise", "talent": "marche", "version": 1})
    html = client_en.post(url, {"op": "raise", "talent": "fusil", "version": 1}).content.decode()
    assert "changed meanwhile" in html
    assert 'data-testid="level-marche">1<' in html
    assert fresh(character).talents["fusil"] == 0


def test_it_answers_a_bad_gauge_with_a_sentence_not_a_500(client_en, owner):
    client_en.force_login(owner)
    character = services.character_create(
        owner=owner, name="Dupont", archetype="agent-de-police", rank="novice"
    )
    url = reverse("kolaps-character", args=[character.pk])
    response = client_en.post(
        url, {"op": "gauges", "sante": "9", "souffle": "x", "moral": "6", "version": 1}
    )
    assert response.status_code == 200
    assert "Santé" in response.content.decode()
    assert fresh(character).sante == 6


# --- The unit page ---------------------------------------------------------------------------


def test_it_lists_a_units_problems_as_sentences_and_its_vu(client_en, owner):
    client_en.force_login(owner)
    unit = unit_of(owner, 2, avatar=False)
    html = client_en.get(reverse("kolaps-unit", args=[unit.pk])).content.decode()
    assert "VU 3" in html
    assert "The unit has no Avatar: choose one of its characters." in html
    assert 'data-testid="status">Draft<' in html


def test_it_compares_with_an_opponent_and_names_who_changes_sides(client_en, owner):
    client_en.force_login(owner)
    unit = unit_of(owner, 4)  # novice (Avatar), aguerri, veteran, novice: VU 7
    url = reverse("kolaps-unit", args=[unit.pk])
    fragment = client_en.get(
        url, {"opponent_vu": 5}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="unit-compare"
    ).content.decode()
    assert fragment.strip().startswith('<section id="unit-compare"')
    assert "worth 2 PU more" in fragment
    assert fragment.index("Agent 3") < fragment.index("Agent 1")
    assert "Agent 0" not in fragment  # the Avatar stays


def test_it_adds_a_character_and_makes_it_the_avatar(client_en, owner):
    client_en.force_login(owner)
    unit = unit_of(owner, 0)
    loner = services.character_create(
        owner=owner, name="Chef", archetype="agent-de-police", rank="novice"
    )
    url = reverse("kolaps-unit", args=[unit.pk])
    client_en.post(url, {"op": "add", "character": loner.pk, "version": unit.version})
    client_en.post(url, {"op": "avatar", "character": loner.pk, "version": fresh(unit).version})
    assert (fresh(unit).vu, unit.status) == (1, "valid")
    assert fresh(loner).is_avatar


def test_it_refuses_someone_elses_character_in_my_unit(client_en, owner):
    client_en.force_login(owner)
    unit = unit_of(owner, 0)
    theirs = services.character_create(
        owner=PlayerFactory(), name="X", archetype="agent-de-police", rank="novice"
    )
    url = reverse("kolaps-unit", args=[unit.pk])
    html = client_en.post(
        url, {"op": "add", "character": theirs.pk, "version": unit.version}
    ).content.decode()
    assert "Choose one of your characters." in html
    assert fresh(theirs).unit_id is None


@pytest.mark.parametrize("size", [3, 30])
def test_it_costs_the_same_queries_for_3_or_30_characters(
    client_en, owner, django_assert_num_queries, size
):
    unit = unit_of(owner, size)
    client_en.force_login(owner)
    url = reverse("kolaps-unit", args=[unit.pk])
    # user (the session from the cache); the unit, the owner's free characters, then the
    # members to render the page
    with django_assert_num_queries(4):
        assert client_en.get(url).status_code == 200
    # Shown again: the player's row from the cache too; the unit and the free characters
    # name the page kept, its members are not read.
    with django_assert_num_queries(2):
        assert client_en.get(url).status_code == 200
    print_url = reverse("kolaps-unit-print", args=[unit.pk])
    with django_assert_num_queries(2):  # the print: the unit, its members
        assert client_en.get(print_url).status_code == 200
    with django_assert_num_queries(1):  # printed again: the unit names the print kept
        assert client_en.get(print_url).status_code == 200
    shared = services.unit_share(actor=owner, unit=unit, version=unit.version)
    with django_assert_num_queries(2):  # unit, members (session and user from the cache)
        assert client_en.get(reverse("kolaps-shared", args=[shared.share_token])).status_code == 200


@pytest.mark.parametrize("size", [3, 30])
def test_it_lists_my_units_and_characters_in_one_query_whatever_their_number(
    client_en, owner, django_assert_num_queries, size
):
    unit_of(owner, size)
    services.character_create(owner=owner, name="Libre", archetype="agent-de-police", rank="novice")
    client_en.force_login(owner)
    url = reverse("kolaps-list")
    # user (the session from the cache); the units and characters (one UNION)
    with django_assert_num_queries(2):
        html = client_en.get(url).content.decode()
    assert html.count('<li class="card">') == 1 + size + 1 and "in no unit" in html
    with django_assert_num_queries(1):  # shown again: the player's row from the cache too
        again = client_en.get(url).content.decode()
    assert again.count('<li class="card">') == 1 + size + 1


# --- Sharing, print, history -----------------------------------------------------------------


def test_it_shows_a_shared_unit_to_anyone_with_the_link_until_revoked(client_en, owner):
    unit = unit_of(owner, 2)
    unit = services.unit_share(actor=owner, unit=unit, version=unit.version)
    url = reverse("kolaps-shared", args=[unit.share_token])
    html = client_en.get(url).content.decode()
    assert "Section 4" in html and "read-only" in html
    assert '<form method="post"' not in html.split('<main id="main">')[1]
    stranger = PlayerFactory()
    client_en.force_login(stranger)
    assert client_en.get(reverse("kolaps-unit", args=[unit.pk])).status_code == 404
    services.unit_unshare(actor=owner, unit=unit, version=fresh(unit).version)
    assert client_en.get(url).status_code == 404


def test_it_prints_a_reference_sheet_with_numbers_bands_and_gauges(client_en, owner):
    client_en.force_login(owner)
    unit = unit_of(owner, 1)
    character = unit.members.get()
    services.character_set_level(
        actor=owner, character=character, version=fresh(character).version, talent="fusil",
        level=2,
    )  # fmt: skip
    html = client_en.get(reverse("kolaps-unit-print", args=[unit.pk])).content.decode()
    assert "kolaps-print.css" in html
    assert "Unit value (VU)" in html
    assert "FA F4" in html and "2C6" in html  # equipment with its power
    assert "point blank" in html and "90+" in html  # range bands
    assert "base DB 1" in html  # Fusil 2: "DB de base 1"
    assert html.count('class="box') == 18  # three gauges of six boxes
    sheet = client_en.get(reverse("kolaps-character-print", args=[character.pk]))
    assert sheet.status_code == 200


def test_it_shows_the_history_and_undoes_the_last_change(client_en, owner):
    client_en.force_login(owner)
    unit = unit_of(owner, 1)
    url = reverse("kolaps-unit", args=[unit.pk])
    client_en.post(url, {"op": "rename", "name": "Renamed", "version": unit.version})
    history = reverse("kolaps-unit-history", args=[unit.pk])
    html = client_en.get(history).content.decode()
    assert "renamed it Renamed" in html
    client_en.post(history, {"version": fresh(unit).version})
    assert fresh(unit).name == "Section 4"
    assert "undid: renamed it Renamed" in client_en.get(history).content.decode()


# --- Export and import through the pages and the API -----------------------------------------


def test_it_exports_and_imports_through_the_page(client_en, owner):
    client_en.force_login(owner)
    unit = unit_of(owner, 2)
    exported = client_en.get(reverse("kolaps-unit-export", args=[unit.pk]))
    assert exported["Content-Type"].startswith("application/json")
    text = exported.content.decode()
    response = client_en.post(reverse("kolaps-unit-import"), {"text": text})
    copy = KolapsUnit.objects.exclude(pk=unit.pk).get()
    assert response["Location"] == reverse("kolaps-unit", args=[copy.pk])
    assert client_en.get(reverse("kolaps-unit-export", args=[copy.pk])).content.decode() == text
    bad = text.replace('"aguerri"', '"general"', 1)
    html = client_en.post(reverse("kolaps-unit-import"), {"text": bad}).content.decode()
    line = next(n for n, row in enumerate(bad.splitlines(), start=1) if '"general"' in row)
    assert f"Line {line}, field unit.characters[1].rank" in html
    assert KolapsUnit.objects.count() == 2


def test_its_api_twin_refuses_a_stale_version_with_409_and_the_current_state(client_en, owner):
    client_en.force_login(owner)
    unit = unit_of(owner, 1)
    character = unit.members.get()
    url = reverse("api-kolaps-character-change", args=[character.pk])
    body = {"op": "raise", "talent": "fusil", "version": character.version}
    first = client_en.post(url, body, content_type="application/json")
    assert first.status_code == 200 and first.json()["pp_left"] == 6
    second = client_en.post(url, body, content_type="application/json")
    assert second.status_code == 409
    assert second.json()["current"]["talents"]["fusil"] == 1
    assert second.json()["current"]["version"] == first.json()["version"]


def test_its_api_imports_a_document_and_refuses_a_bad_one_with_line_and_field(client_en, owner):
    client_en.force_login(owner)
    unit = unit_of(owner, 2)
    text = client_en.get(reverse("api-kolaps-unit-export", args=[unit.pk])).content.decode()
    created = client_en.post(
        reverse("api-kolaps-unit-import"), text, content_type="application/json"
    )
    assert created.status_code == 201
    assert created.json()["vu"] == unit.vu
    document = json.loads(text)
    document["unit"]["characters"][1]["gauges"]["moral"] = 0
    refused = client_en.post(
        reverse("api-kolaps-unit-import"),
        json.dumps(document, indent=2),
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert "field unit.characters[1].gauges.moral" in refused.json()["file"][0]
    assert KolapsUnit.objects.count() == 2


def test_its_api_reads_a_unit_with_the_k12_comparison(client_en, owner):
    client_en.force_login(owner)
    unit = unit_of(owner, 3)  # novice Avatar, aguerri, veteran: VU 6
    body = client_en.get(reverse("api-kolaps-unit", args=[unit.pk]), {"opponent_vu": 4}).json()
    assert body["vu"] == 6 and body["status"] == "valid"
    assert body["comparison"]["defectors"] == ["Agent 1", "Agent 2"]


def test_its_api_lists_my_units_by_name_with_vu_size_and_link_and_nobody_elses(client_en, owner):
    unit = unit_of(owner, 3)
    services.unit_share(actor=owner, unit=unit, version=unit.version)
    services.unit_create(owner=owner, name="Arrière-garde")
    services.unit_create(owner=PlayerFactory(), name="Not mine")
    client_en.force_login(owner)
    body = client_en.get(reverse("api-kolaps-unit-list")).json()
    assert [(u["name"], u["vu"], u["valid"], u["shared"], u["size"]) for u in body] == [
        ("Arrière-garde", 0, False, False, 0),
        ("Section 4", 6, True, True, 3),
    ]


def test_its_unit_page_offers_my_characters_in_no_unit_by_name_and_nobody_elses(client_en, owner):
    unit = unit_of(owner, 2)
    for name in ("Zoé", "Alain"):
        services.character_create(
            owner=owner, name=name, archetype="agent-de-police", rank="novice"
        )
    services.character_create(
        owner=PlayerFactory(), name="Étranger", archetype="agent-de-police", rank="novice"
    )
    client_en.force_login(owner)
    html = client_en.get(reverse("kolaps-unit", args=[unit.pk])).content.decode()
    offered = html.split('data-testid="add-character">')[1].split("</select>")[0]
    assert offered.index("Alain") < offered.index("Zoé")
    assert "Étranger" not in offered and "Agent 0" not in offered
    assert html.index("Agent 0") < html.index("Agent 1")  # members in their order
