"""KOLAPS campaigns serve units: entering and withdrawing units, K12 between the sides,
starting a chapter, and the structured close with its losses."""

import re

import pytest
from django.http import Http404
from django.urls import reverse
from django.utils import translation

from campaigns.chapters.entries import chapter_unit_enter, chapter_unit_withdraw
from campaigns.chapters.services import (
    OutcomeInput,
    UnitResultInput,
    chapter_close,
    chapter_plan,
    chapter_start,
)
from campaigns.models import CampaignEvent, ChapterStatus, ChapterUnitEntry, ChapterUnitResult
from campaigns.services import campaign_add_participant, campaign_create
from characters.kolaps import services as kolaps
from characters.permissions import Forbidden, Refusal
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

DRAFT_SENTENCE = "This unit is a draft: solve its problems before it enters an encounter."


@pytest.fixture(autouse=True)
def _english(client):
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


def build_unit(owner, name, ranks=("novice",), avatar=True):
    """A unit of police agents of `ranks` (the first one the Avatar when `avatar`): each
    is worth its rank's PU (K1: Novice 1, Aguerri 2, Vétéran 3)."""
    unit = kolaps.unit_create(owner=owner, name=name)
    members = [
        kolaps.character_create(
            owner=owner, name=f"{name} {i}", archetype="agent-de-police", rank=rank, unit=unit
        )
        for i, rank in enumerate(ranks)
    ]
    unit.refresh_from_db()
    if avatar:
        unit = kolaps.unit_set_avatar(
            actor=owner, unit=unit, version=unit.version, character=members[0]
        )
    unit.refresh_from_db()
    return unit, members


def kolaps_table(n_players=2, system="kolaps"):
    organiser = PlayerFactory(username="orga")
    campaign = campaign_create(organiser=organiser, name="Ground zero", system=system)
    players = [PlayerFactory(username=f"p{i}") for i in range(n_players)]
    for player in players:
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="La gare")
    return organiser, campaign, chapter, players


# --- Entering and withdrawing ---------------------------------------------------------------


def test_it_enters_a_players_valid_unit_and_shows_its_vu(client):
    organiser, campaign, chapter, (alice, _bruno) = kolaps_table()
    unit, _members = build_unit(alice, "Section 4", ranks=("novice", "veteran"))
    entry = chapter_unit_enter(actor=alice, chapter=chapter, unit=unit, side="APC")
    assert (entry.unit_id, entry.player_id, entry.side) == (unit.pk, alice.pk, "APC")
    event = CampaignEvent.objects.filter(campaign=campaign, verb="unit_entered").get()
    assert event.data["unit_name"] == "Section 4" and event.data["vu"] == 4
    client.force_login(organiser)
    html = client.get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    assert f'data-unit="{unit.pk}"' in html and f'<output data-vu="{unit.pk}">4 VU</output>' in html


def test_it_refuses_a_draft_unit_with_its_reason_and_enters_nothing():
    _organiser, _campaign, chapter, (alice, _bruno) = kolaps_table()
    draft, _members = build_unit(alice, "Brouillon", avatar=False)  # no Avatar: a draft
    with pytest.raises(Refusal) as refused:
        chapter_unit_enter(actor=alice, chapter=chapter, unit=draft)
    assert str(refused.value.message) == DRAFT_SENTENCE and refused.value.field == "unit"
    assert not ChapterUnitEntry.objects.exists()


def test_it_refuses_a_unit_that_is_not_the_players_own():
    _organiser, _campaign, chapter, (alice, bruno) = kolaps_table()
    bruno_unit, _members = build_unit(bruno, "Shéol")
    with pytest.raises(Refusal, match=re.escape("Enter one of your own units.")):
        chapter_unit_enter(actor=alice, chapter=chapter, unit=bruno_unit)
    assert not ChapterUnitEntry.objects.exists()


def test_it_refuses_units_in_an_of_the_dead_campaign():
    _organiser, _campaign, chapter, (alice, _bruno) = kolaps_table(system="of-the-dead")
    unit, _members = build_unit(alice, "Section 4")
    with pytest.raises(Refusal, match=re.escape("Units enter chapters of KOLAPS campaigns only.")):
        chapter_unit_enter(actor=alice, chapter=chapter, unit=unit)


def test_it_refuses_a_started_or_closed_chapter():
    organiser, _campaign, chapter, (alice, bruno) = kolaps_table()
    unit, _members = build_unit(alice, "Section 4")
    chapter_unit_enter(actor=bruno, chapter=chapter, unit=build_unit(bruno, "Sud")[0])
    chapter_start(actor=organiser, chapter=chapter)
    with pytest.raises(
        Refusal, match=re.escape("This chapter has started: its units no longer change.")
    ):
        chapter_unit_enter(actor=alice, chapter=chapter, unit=unit)
    chapter_close(
        actor=organiser,
        chapter=chapter,
        epilogue="Fin.",
        outcomes=[OutcomeInput(bruno.pk, "victory")],
    )
    with pytest.raises(Refusal, match=re.escape("This chapter is closed.")):
        chapter_unit_enter(actor=alice, chapter=chapter, unit=unit)
    assert not ChapterUnitEntry.objects.filter(unit=unit).exists()


def test_it_lets_only_the_campaigns_players_enter_units():
    organiser, _campaign, chapter, _players = kolaps_table()
    unit, _members = build_unit(organiser, "Orga")
    with pytest.raises(Forbidden, match=re.escape("Only the campaign's players enter their units")):
        chapter_unit_enter(actor=organiser, chapter=chapter, unit=unit)
    stranger = PlayerFactory(username="stranger")
    stranger_unit, _members = build_unit(stranger, "Ailleurs")
    with pytest.raises(Http404):
        chapter_unit_enter(actor=stranger, chapter=chapter, unit=stranger_unit)


def test_it_takes_one_unit_per_player_and_chapter():
    _organiser, _campaign, chapter, (alice, _bruno) = kolaps_table()
    first, _members = build_unit(alice, "Section 4")
    second, _members = build_unit(alice, "Section 5")
    chapter_unit_enter(actor=alice, chapter=chapter, unit=first)
    with pytest.raises(Refusal, match=re.escape("This unit is already entered into this chapter.")):
        chapter_unit_enter(actor=alice, chapter=chapter, unit=first)
    with pytest.raises(Refusal, match=re.escape("You already entered Section 4 into this chapter")):
        chapter_unit_enter(actor=alice, chapter=chapter, unit=second)
    assert list(ChapterUnitEntry.objects.values_list("unit_id", flat=True)) == [first.pk]


def test_it_lets_the_player_or_an_organiser_withdraw_a_unit_until_the_start():
    organiser, _campaign, chapter, (alice, bruno) = kolaps_table()
    unit, _members = build_unit(alice, "Section 4")
    chapter_unit_enter(actor=alice, chapter=chapter, unit=unit)
    with pytest.raises(
        Forbidden, match=re.escape("Only its player or an organiser withdraws a unit.")
    ):
        chapter_unit_withdraw(actor=bruno, chapter=chapter, unit=unit)
    chapter_unit_withdraw(actor=alice, chapter=chapter, unit=unit)
    assert not ChapterUnitEntry.objects.exists()
    chapter_unit_enter(actor=alice, chapter=chapter, unit=unit)
    chapter_unit_withdraw(actor=organiser, chapter=chapter, unit=unit)
    chapter_unit_enter(actor=alice, chapter=chapter, unit=unit)
    chapter_start(actor=organiser, chapter=chapter)
    with pytest.raises(Refusal, match=re.escape("This chapter has started")):
        chapter_unit_withdraw(actor=alice, chapter=chapter, unit=unit)
    assert ChapterUnitEntry.objects.count() == 1


def test_it_holds_the_start_while_an_entered_unit_became_a_draft():
    organiser, _campaign, chapter, (alice, _bruno) = kolaps_table()
    unit, (chief, *_rest) = build_unit(alice, "Section 4")
    chapter_unit_enter(actor=alice, chapter=chapter, unit=unit)
    # Alice edits her unit afterwards: a second character named like the first, a draft.
    kolaps.character_create(
        owner=alice, name=chief.name, archetype="agent-de-police", rank="novice", unit=unit
    )
    with pytest.raises(Refusal, match=re.escape("Section 4 became a draft since it was entered")):
        chapter_start(actor=organiser, chapter=chapter)
    chapter.refresh_from_db()
    assert chapter.status == ChapterStatus.PLANNED


# --- K12 between two sides -------------------------------------------------------------------


def test_it_shows_k12_between_two_sides_lowest_ranks_first(client):
    """RULES-NOTES K12: "An undervalued unit: for each PU of difference, one character
    changes sides, lowest ranks first." The Avatar never changes sides (costing notes)."""
    organiser, _campaign, chapter, (alice, bruno) = kolaps_table()
    # Alice: Avatar Novice 1 + Vétéran 3 + Novice 1 + Aguerri 2 = 7 VU; Bruno: 1 + 2 = 3 VU.
    nord, _ = build_unit(alice, "Nord", ranks=("novice", "veteran", "novice", "aguerri"))
    sud, _ = build_unit(bruno, "Sud", ranks=("novice", "aguerri"))
    chapter_unit_enter(actor=alice, chapter=chapter, unit=nord)
    chapter_unit_enter(actor=bruno, chapter=chapter, unit=sud)
    client.force_login(organiser)
    body = client.get(reverse("api-chapter-detail", args=[chapter.pk])).json()
    k12 = body["k12"]
    assert [(s["name"], s["vu"]) for s in k12["sides"]] == [("Nord", 7), ("Sud", 3)]
    assert (k12["undervalued"], k12["surplus"], k12["beyond"]) == ("Nord", 4, 1)
    assert k12["defectors"] == ["Nord 2 (Nord)", "Nord 3 (Nord)", "Nord 1 (Nord)"]
    html = client.get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    assert "Nord is worth 4 PU more" in html
    assert '<span id="k12-defectors">Nord 2 (Nord), Nord 3 (Nord), Nord 1 (Nord)</span>' in html


def test_it_groups_units_by_side_and_skips_k12_with_three_sides():
    organiser, _campaign, chapter, (alice, bruno, carole) = kolaps_table(3)
    for player, name, side in ((alice, "A", "Est"), (bruno, "B", "Est"), (carole, "C", "")):
        unit, _ = build_unit(player, name, ranks=("novice", "novice"))
        chapter_unit_enter(actor=player, chapter=chapter, unit=unit, side=side)
    from campaigns.chapters.cards import chapter_card
    from campaigns.selectors import chapter_get_for_user

    card = chapter_card(organiser, chapter_get_for_user(organiser, chapter.pk))
    assert [(s.name, s.vu, s.units) for s in card.k12.sides] == [
        ("Est", 4, ["A", "B"]),
        ("C", 2, ["C"]),
    ]
    dave = PlayerFactory(username="dave")
    campaign_add_participant(actor=organiser, campaign=chapter.campaign, player=dave)
    unit, _ = build_unit(dave, "D")
    chapter_unit_enter(actor=dave, chapter=chapter, unit=unit, side="Ouest")
    assert chapter_card(organiser, chapter_get_for_user(organiser, chapter.pk)).k12 is None


# --- Pages and their fragments ---------------------------------------------------------------


def test_it_enters_a_unit_from_the_page_and_answers_htmx_with_the_section(client):
    _organiser, _campaign, chapter, (alice, _bruno) = kolaps_table()
    unit, _ = build_unit(alice, "Section 4", ranks=("novice", "aguerri"))
    draft, _ = build_unit(alice, "Brouillon", avatar=False)
    client.force_login(alice)
    html = client.get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    assert 'id="unit-entry-form"' in html
    assert f'<option value="{unit.pk}">Section 4 — 3 VU</option>' in html
    assert f'<option value="{draft.pk}">Brouillon — draft</option>' in html
    url = reverse("chapter-unit-enter", args=[chapter.pk])
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "chapter-units"}
    response = client.post(url, {"unit": str(draft.pk)}, **headers)
    html = response.content.decode()
    assert "<html" not in html and html.strip().startswith('<section id="chapter-units"')
    assert DRAFT_SENTENCE in html and "No unit entered yet." in html
    html = client.post(url, {"unit": str(unit.pk), "side": "APC"}, **headers).content.decode()
    assert f'data-unit="{unit.pk}"' in html and "(APC)" in html
    withdraw = reverse("chapter-unit-withdraw", args=[chapter.pk, unit.pk])
    assert withdraw in html
    response = client.post(withdraw)  # without JavaScript: back to the page
    assert response.status_code == 302 and not ChapterUnitEntry.objects.exists()


def test_a_withdrawal_reads_the_chapter_once_before_it(client, django_assert_num_queries):
    """A player withdraws their unit by the page (no JavaScript: back to the chapter), another
    theirs by the API (answered with the chapter as it is now)."""
    _organiser, _campaign, chapter, players = kolaps_table()
    units = [build_unit(player, player.username)[0] for player in players]
    for player, unit in zip(players, units, strict=True):
        chapter_unit_enter(actor=player, chapter=chapter, unit=unit)
    (alice, bruno), (hers, his) = players, units
    page = reverse("chapter-detail", args=[chapter.pk])
    client.force_login(alice)
    client.get(page)  # the session and the player read from the cache from now on
    # the chapter with the viewer's membership, the unit entered, the roles; in the
    # transaction: the chapter locked, the entry, its deletion, the history line
    with django_assert_num_queries(9):  # and the transaction's savepoint and its release
        response = client.post(reverse("chapter-unit-withdraw", args=[chapter.pk, hers.pk]))
    assert response.status_code == 302
    client.force_login(bruno)
    client.get(page)
    # the same 9, then the chapter's card as it is now (8)
    with django_assert_num_queries(17):
        response = client.delete(reverse("api-chapter-unit", args=[chapter.pk, his.pk]))
    assert response.status_code == 200 and response.json()["units"] == []
    assert not ChapterUnitEntry.objects.exists()


def test_it_starts_a_chapter_from_its_page(client):
    organiser, _campaign, chapter, (alice, _bruno) = kolaps_table()
    chapter_unit_enter(actor=alice, chapter=chapter, unit=build_unit(alice, "Nord")[0])
    client.force_login(organiser)
    html = client.get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    assert 'id="start-chapter"' in html
    response = client.post(reverse("chapter-start", args=[chapter.pk]), follow=True)
    assert "The chapter is being played." in response.content.decode()
    chapter.refresh_from_db()
    assert chapter.status == ChapterStatus.CURRENT
    assert client.post(reverse("api-chapter-start", args=[chapter.pk])).status_code == 400


# --- The close -------------------------------------------------------------------------------


@pytest.fixture
def played():
    """Alice's and Bruno's units entered into a chapter."""
    organiser, _campaign, chapter, (alice, bruno) = kolaps_table()
    nord, nord_members = build_unit(alice, "Nord", ranks=("novice", "veteran", "novice"))
    sud, sud_members = build_unit(bruno, "Sud", ranks=("novice", "aguerri"))
    chapter_unit_enter(actor=alice, chapter=chapter, unit=nord, side="APC")
    chapter_unit_enter(actor=bruno, chapter=chapter, unit=sud)
    return {
        "organiser": organiser,
        "chapter": chapter,
        "alice": alice,
        "nord": nord,
        "nord_members": nord_members,
        "sud": sud,
        "sud_members": sud_members,
    }


def test_it_closes_with_each_units_result_and_the_characters_lost(played, client):
    nord, lost = played["nord"], played["nord_members"][2]
    client.force_login(played["organiser"])
    url = reverse("chapter-close", args=[played["chapter"].pk])
    html = client.get(url).content.decode()
    assert f'name="u{nord.pk}_lost" value="{lost.pk}"' in html  # a checkbox per character
    response = client.post(
        url,
        {
            "epilogue": "La gare tombe.",
            f"u{nord.pk}_result": "defeat",
            f"u{nord.pk}_side": "APC",
            f"u{nord.pk}_lost": [str(lost.pk)],
            f"u{played['sud'].pk}_result": "victory",
        },
    )
    assert response.status_code == 302
    rows = {r.unit_id: r for r in ChapterUnitResult.objects.filter(chapter=played["chapter"])}
    assert rows[nord.pk].losses == [{"id": lost.pk, "name": "Nord 2"}]
    assert (rows[nord.pk].result, rows[nord.pk].side, rows[nord.pk].vu) == ("defeat", "APC", 5)
    assert rows[nord.pk].player_id == played["alice"].pk
    assert (rows[played["sud"].pk].result, rows[played["sud"].pk].losses) == ("victory", [])
    # The record keeps the names even once the unit is renamed; the unit is still whole
    # (taking the lost out is the settlement's work).
    nord.refresh_from_db()
    kolaps.unit_rename(actor=played["alice"], unit=nord, version=nord.version, name="Autre")
    html = client.get(reverse("chapter-detail", args=[played["chapter"].pk])).content.decode()
    assert "Nord (5 VU) — P0 (APC) — defeat; lost: Nord 2" in html
    assert nord.members.count() == 3


def test_the_api_closes_with_structured_rows(played, client):
    nord, lost = played["nord"], played["nord_members"][1]
    client.force_login(played["organiser"])
    response = client.post(
        reverse("api-chapter-close", args=[played["chapter"].pk]),
        {
            "epilogue": "Fin.",
            "unit_results": [{"unit": nord.pk, "result": "victory", "lost": [lost.pk]}],
        },
        content_type="application/json",
    )
    assert response.status_code == 200
    line = response.json()["unit_results"][0]
    assert line["unit_id"] == nord.pk and line["side"] == "APC"
    assert line["losses"] == [{"id": lost.pk, "name": "Nord 1"}]


@pytest.mark.parametrize(
    ("row", "sentence"),
    [
        (lambda p: {"unit": p["sud"].pk + 1000, "result": "victory"}, "units entered into"),
        (
            lambda p: {"unit": p["nord"].pk, "result": "victory", "lost": [p["sud_members"][0].pk]},
            "Nord: only characters of this unit can be lost with it.",
        ),
    ],
    ids=["unit-not-entered", "character-of-another-unit"],
)
def test_the_api_refuses_rows_it_cannot_check_with_field_errors(played, client, row, sentence):
    client.force_login(played["organiser"])
    response = client.post(
        reverse("api-chapter-close", args=[played["chapter"].pk]),
        {"epilogue": "Fin.", "unit_results": [row(played)]},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert sentence in response.json()["unit_results"][0]
    played["chapter"].refresh_from_db()
    assert played["chapter"].status == ChapterStatus.PLANNED
    assert not ChapterUnitResult.objects.exists()


def test_the_api_refuses_malformed_rows_with_field_errors(played, client):
    client.force_login(played["organiser"])
    response = client.post(
        reverse("api-chapter-close", args=[played["chapter"].pk]),
        {"epilogue": "Fin.", "unit_results": [{"unit": "Nord", "result": "tie", "lost": ["x"]}]},
        content_type="application/json",
    )
    assert response.status_code == 400
    errors = response.json()["unit_results"]["0"]  # DRF keys a list's errors by index
    assert set(errors) == {"unit", "result", "lost"}
    assert errors["lost"] == {"0": ["A valid integer is required."]}


def test_it_refuses_one_unit_twice_in_a_close(played):
    nord = played["nord"]
    with pytest.raises(Refusal, match=re.escape("One result per unit.")):
        chapter_close(
            actor=played["organiser"],
            chapter=played["chapter"],
            epilogue="Fin.",
            unit_results=[UnitResultInput(nord.pk, "victory"), UnitResultInput(nord.pk, "defeat")],
        )


def test_the_api_enters_and_withdraws_a_unit(played, client):
    chapter, alice = played["chapter"], played["alice"]
    client.force_login(alice)
    url = reverse("api-chapter-unit", args=[chapter.pk, played["nord"].pk])
    assert client.delete(url).status_code == 200
    draft, _ = build_unit(alice, "Brouillon", avatar=False)
    response = client.post(
        reverse("api-chapter-units", args=[chapter.pk]),
        {"unit": draft.pk},
        content_type="application/json",
    )
    assert response.status_code == 400 and response.json() == {"unit": [DRAFT_SENTENCE]}
    response = client.post(
        reverse("api-chapter-units", args=[chapter.pk]),
        {"unit": played["nord"].pk, "side": "APC"},
        content_type="application/json",
    )
    assert response.status_code == 201
    mine = [u for u in response.json()["units"] if u["mine"]]
    assert [(u["unit_name"], u["vu"], u["side"]) for u in mine] == [("Nord", 5, "APC")]


# --- The demo --------------------------------------------------------------------------------


def test_the_demo_enters_alices_valid_unit_and_refuses_brunos_draft_idempotently():
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("demo_load", stdout=out)
    assert f"Patrouille de nuit (brouillon) refused: {DRAFT_SENTENCE}" in out.getvalue()
    call_command("demo_load", stdout=StringIO())
    # The planned chapter; the one being played has both players' units for its live
    # encounter (config/demo/table.py).
    entries = ChapterUnitEntry.objects.filter(
        chapter__campaign__system="kolaps", chapter__status=ChapterStatus.PLANNED
    )
    assert [(e.unit.name, e.player.username, e.side) for e in entries] == [
        ("Section 4 du quai Saint-Antoine", "alice", "Police")
    ]
    planned = entries.get().chapter.pk
    assert CampaignEvent.objects.filter(verb="unit_entered", data__chapter=planned).count() == 1


def test_a_player_who_leaves_takes_their_planned_units_with_them():
    """Otherwise the unit would still count in K12 and be checked at the start, under
    someone who no longer plays (and could not withdraw it any more)."""
    from campaigns.services import campaign_leave

    _organiser, campaign, chapter, (alice, bruno) = kolaps_table()
    mine, _members = build_unit(alice, "Section 4")
    theirs, _members = build_unit(bruno, "Nord")
    chapter_unit_enter(actor=alice, chapter=chapter, unit=mine)
    chapter_unit_enter(actor=bruno, chapter=chapter, unit=theirs)
    campaign_leave(player=alice, campaign=campaign)
    assert list(chapter.unit_entries.values_list("unit__name", flat=True)) == ["Nord"]
