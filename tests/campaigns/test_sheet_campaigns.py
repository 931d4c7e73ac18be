"""Corporates and modern RPG campaigns close through their character sheets: a player
enters a sheet into a chapter (page and API), the chapter freezes it when it starts, the
close asks per character what its system declares, and the settlement carries it to the
sheet (a line of its history), which reopening puts back.

RULES-NOTES CL3 (Corporates): "each character's fatigue and wound levels carry from
session to session until the organiser records care between sessions." CL4 (modern RPG):
"the organiser awards XP at a chapter's close (0 by default) ...; stress and wounds carry
over. Its campaign page shows the party ..., not a ranking."
"""

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.chapters.entries import chapter_entry_enter
from campaigns.chapters.services import chapter_close, chapter_plan, chapter_start
from campaigns.models import ChapterCorporatesEntry, ChapterOutcome
from campaigns.services import campaign_add_participant, campaign_create
from campaigns.settlement.apply import settlement_apply
from campaigns.settlement.services import settlement_reopen
from campaigns.systems.base import EntryResultInput
from campaigns.systems.entry_kinds import CORPORATES_SHEET, MODERN_SHEET
from characters.corporates.services import corporates_character_carry, corporates_character_create
from characters.modern.services import modern_character_create
from characters.permissions import Refusal
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

DICE = {"reflexes": 10, "endurance": 8, "sang_froid": 10, "empathie": 8}
OTD_WORDS = ("Zombies", "Survival points", "trauma", "Vocation", "Reputation", "Died")


@pytest.fixture(autouse=True)
def _english(client):
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


def _no_of_the_dead(html: str) -> None:
    main = html[html.index("<main") :]
    assert not [word for word in OTD_WORDS if word.lower() in main.lower()]


def _campaign(system: str):
    organiser, alice, bruno = PlayerFactory(), PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Arcologie", system=system)
    for player in (alice, bruno):
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Niveau -12")
    return organiser, alice, bruno, campaign, chapter


@pytest.fixture
def corporates(client):
    """alice's Vex (1 fatigue, 2 wounds carried already) entered by the page, bruno's Brick
    by the API; then the chapter starts."""
    organiser, alice, bruno, campaign, chapter = _campaign("corporates")
    vex = corporates_character_create(owner=alice, name="Vex")
    vex = corporates_character_carry(actor=alice, character=vex, fatigue=1, wounds=2)
    brick = corporates_character_create(owner=bruno, name="Brick")
    client.force_login(alice)
    page = client.get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    assert 'id="sheet-entry-form"' in page and "Vex" in page
    entered = client.post(
        reverse("chapter-sheet-enter", args=[chapter.pk]), {"character": vex.pk, "side": ""}
    )
    assert entered.status_code == 302
    client.force_login(bruno)
    api = client.post(
        reverse("api-chapter-sheets", args=[chapter.pk]),
        {"character": brick.pk},
        content_type="application/json",
    )
    assert api.status_code == 201, api.content
    assert [s["name"] for s in api.json()["sheets"]] == ["Vex", "Brick"]
    chapter = chapter_start(actor=organiser, chapter=chapter)
    client.force_login(organiser)
    return {"organiser": organiser, "alice": alice, "bruno": bruno, "campaign": campaign,
            "chapter": chapter, "vex": vex, "brick": brick}  # fmt: skip


def test_a_player_enters_only_their_own_sheet_and_only_into_its_systems_campaign(client):
    _organiser, alice, bruno, _, chapter = _campaign("corporates")
    brick = corporates_character_create(owner=bruno, name="Brick")
    with pytest.raises(Refusal, match="one of your own characters"):
        chapter_entry_enter(actor=alice, chapter=chapter, kind=CORPORATES_SHEET, roster=brick)
    modern = modern_character_create(owner=alice, name="Lina", characteristics=DICE)
    client.force_login(alice)
    refused = client.post(
        reverse("api-chapter-sheets", args=[chapter.pk]),
        {"character": modern.pk},
        content_type="application/json",
    )
    assert refused.status_code == 400  # alice has no Corporates sheet of that id
    assert not ChapterCorporatesEntry.objects.exists()
    # A withdrawal by the page, while the chapter is planned.
    vex = corporates_character_create(owner=alice, name="Vex")
    chapter_entry_enter(actor=alice, chapter=chapter, kind=CORPORATES_SHEET, roster=vex)
    withdrawn = client.post(reverse("chapter-sheet-withdraw", args=[chapter.pk, vex.pk]))
    assert withdrawn.status_code == 302 and not ChapterCorporatesEntry.objects.exists()


def test_the_corporates_close_asks_each_sheets_levels_and_the_settlement_carries_them(
    client, corporates
):
    chapter, vex, brick = corporates["chapter"], corporates["vex"], corporates["brick"]
    url = reverse("chapter-close", args=[chapter.pk])
    form = client.get(url).content.decode()
    assert "Fatigue levels at the end" in form and "Wound levels at the end" in form
    assert "<legend>Vex — " in form and "<legend>Brick — " in form
    # The levels the sheet carried into the chapter are the first answers.
    assert f'name="c{vex.pk}_fatigue" value="1"' in form
    assert f'name="c{vex.pk}_wounds" value="2"' in form
    _no_of_the_dead(form)
    too_many = client.post(url, {"epilogue": "x", f"c{vex.pk}_result": "played",
                                 f"c{vex.pk}_wounds": 31})  # fmt: skip
    assert too_many.status_code == 200 and not ChapterOutcome.objects.exists()
    response = client.post(
        url,
        {"epilogue": "Extraction réussie.", f"c{vex.pk}_result": "played",
         f"c{vex.pk}_fatigue": 3, f"c{vex.pk}_wounds": 4, f"c{brick.pk}_result": "played",
         f"c{brick.pk}_fatigue": 0, f"c{brick.pk}_wounds": 1},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()
    page = client.get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    assert "the character sheets are not settled yet" in page
    assert "trauma" not in page.lower() and "survival points" not in page.lower()
    settlement_apply(chapter_id=chapter.pk)
    vex.refresh_from_db()
    brick.refresh_from_db()
    assert (vex.fatigue, vex.wounds, brick.fatigue, brick.wounds) == (3, 4, 0, 1)
    line = vex.events.first()
    assert (line.verb, line.source, line.actor) == ("carried", f"chapter:{chapter.pk}", None)
    history = client.get(reverse("corporates-character-history", args=[vex.pk]))
    assert history.status_code == 404  # the organiser does not see alice's history
    client.force_login(corporates["alice"])
    history = client.get(reverse("corporates-character-history", args=[vex.pk])).content.decode()
    assert "fatigue and wounds" in history
    # The line names the chapter by its title, a link to it, never by an internal key.
    assert "Niveau -12" in history and "chapter:" not in history
    assert reverse("chapter-detail", args=[chapter.pk]) in history
    # Reopening puts back the levels the sheets had before.
    settlement_reopen(actor=corporates["organiser"], chapter=chapter)
    vex.refresh_from_db()
    brick.refresh_from_db()
    assert (vex.fatigue, vex.wounds, brick.fatigue, brick.wounds) == (1, 2, 0, 0)
    assert vex.events.first().verb == "reopened"
    # Settled again, the same levels are carried once more.
    settlement_apply(chapter_id=chapter.pk)
    vex.refresh_from_db()
    assert (vex.fatigue, vex.wounds) == (3, 4)


def test_the_corporates_api_close_records_each_sheet_and_shows_the_party(client, corporates):
    chapter, vex, brick = corporates["chapter"], corporates["vex"], corporates["brick"]
    close = reverse("api-chapter-close", args=[chapter.pk])
    over = client.post(
        close,
        {"epilogue": "x", "sheet_results": [
            {"character": vex.pk, "result": "played", "answers": {"wounds": 40}}]},
        content_type="application/json",
    )  # fmt: skip
    assert over.status_code == 400 and "from 0 to 30" in over.content.decode()
    closed = client.post(
        close,
        {"epilogue": "Fin.", "sheet_results": [
            {"character": vex.pk, "result": "played", "answers": {"fatigue": 2, "wounds": 5}},
            {"character": brick.pk, "result": "played"}]},
        content_type="application/json",
    )  # fmt: skip
    assert closed.status_code == 200, closed.content
    records = sorted(ChapterOutcome.objects.values_list("record", flat=True), key=str)
    assert {"entry": "Vex", "sheet": vex.pk, "fatigue": 2, "wounds": 5} in records
    settlement_apply(chapter_id=chapter.pk)
    vex.refresh_from_db()
    assert (vex.fatigue, vex.wounds) == (2, 5)
    html = client.get(
        reverse("campaign-leaderboard", args=[corporates["campaign"].pk])
    ).content.decode()
    assert "The party: Arcologie" in html and "Sessions played" in html
    assert "<th>#</th>" not in html
    # The party's sheets as they are now: what the session carried.
    assert "<strong>Vex</strong>" in html and ", fatigue 2, wounds 5" in html
    _no_of_the_dead(html)


def test_a_sheet_system_records_its_characters_only(corporates):
    chapter = corporates["chapter"]
    other = corporates_character_create(owner=corporates["alice"], name="Not entered")
    with pytest.raises(Refusal, match="characters entered into this chapter only"):
        chapter_close(
            actor=corporates["organiser"],
            chapter=chapter,
            epilogue="x",
            entry_results=[EntryResultInput(other.pk, "played")],
        )


# --- Modern RPG -------------------------------------------------------------------------------


@pytest.fixture
def modern(client):
    organiser, alice, bruno, campaign, chapter = _campaign("modern-rpg")
    lina = modern_character_create(owner=alice, name="Lina", characteristics=DICE, stress=1)
    marc = modern_character_create(owner=bruno, name="Marc", characteristics=DICE)
    chapter_entry_enter(actor=alice, chapter=chapter, kind=MODERN_SHEET, roster=lina)
    chapter_entry_enter(actor=bruno, chapter=chapter, kind=MODERN_SHEET, roster=marc)
    chapter = chapter_start(actor=organiser, chapter=chapter)
    client.force_login(organiser)
    return {"organiser": organiser, "campaign": campaign, "chapter": chapter, "lina": lina,
            "marc": marc, "alice": alice}  # fmt: skip


def test_the_modern_close_awards_xp_and_carries_stress_and_wounds_to_the_sheets(client, modern):
    chapter, lina, marc = modern["chapter"], modern["lina"], modern["marc"]
    url = reverse("chapter-close", args=[chapter.pk])
    form = client.get(url).content.decode()
    assert "XP awarded" in form and "Hit points lost at the end" in form
    assert "<legend>Lina — " in form and "<legend>Marc — " in form
    assert f'name="c{lina.pk}_stress" value="1"' in form
    _no_of_the_dead(form)
    response = client.post(
        url,
        {"epilogue": "Le port.", f"c{lina.pk}_result": "played", f"c{lina.pk}_xp": 3,
         f"c{lina.pk}_stress": 2, f"c{lina.pk}_wounds": 4, f"c{marc.pk}_result": "played"},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()
    settlement_apply(chapter_id=chapter.pk)
    lina.refresh_from_db()
    assert (lina.stress, lina.hp, lina.xp_awards) == (
        2,
        lina.hp_max - 4,
        {f"chapter:{chapter.pk}": 3},
    )
    preview = client.get(reverse("chapter-settlement", args=[chapter.pk])).content.decode()
    assert "3 XP awarded" in preview
    client.force_login(modern["alice"])
    history = client.get(reverse("modern-character-history", args=[lina.pk])).content.decode()
    assert "Niveau -12" in history and "chapter:" not in history
    client.force_login(modern["organiser"])
    html = client.get(reverse("campaign-leaderboard", args=[modern["campaign"].pk])).content
    assert b"XP earned" in html and b"<th>#</th>" not in html
    assert f", stress 2, hit points {lina.hp_max - 4}".encode() in html
    settlement_reopen(actor=modern["organiser"], chapter=chapter)
    lina.refresh_from_db()
    assert (lina.stress, lina.hp, lina.xp_awards) == (1, lina.hp_max, {})


def test_the_modern_api_close_refuses_more_hit_points_than_the_sheet_has(client, modern):
    chapter, lina = modern["chapter"], modern["lina"]
    close = reverse("api-chapter-close", args=[chapter.pk])
    refused = client.post(
        close,
        {"epilogue": "x", "sheet_results": [
            {"character": lina.pk, "result": "played", "answers": {"wounds": 150}}]},
        content_type="application/json",
    )  # fmt: skip
    assert refused.status_code == 400 and "hit points" in refused.content.decode()
    closed = client.post(
        close,
        {"epilogue": "x", "sheet_results": [
            {"character": lina.pk, "result": "played", "answers": {"xp": 2, "stress": 3}}]},
        content_type="application/json",
    )  # fmt: skip
    assert closed.status_code == 200, closed.content
    settlement_apply(chapter_id=chapter.pk)
    lina.refresh_from_db()
    assert (lina.stress, lina.xp_awards) == (3, {f"chapter:{chapter.pk}": 2})


def test_a_record_naming_a_sheet_not_entered_carries_nothing(corporates):
    """A close record is data (an imported file brings its own): the settlement writes
    only to a sheet its player entered into that chapter."""
    chapter, vex, brick = corporates["chapter"], corporates["vex"], corporates["brick"]
    stranger = corporates_character_create(owner=PlayerFactory(), name="Not in the chapter")
    chapter_close(
        actor=corporates["organiser"],
        chapter=chapter,
        epilogue="x",
        entry_results=[
            EntryResultInput(vex.pk, "played", answers={"fatigue": 5, "wounds": 5}),
            EntryResultInput(brick.pk, "played", answers={"fatigue": 5, "wounds": 5}),
        ],
    )
    # Brick's record made to name a stranger's sheet, Vex's to name Brick's.
    for outcome in ChapterOutcome.objects.filter(chapter=chapter):
        named = stranger if outcome.record["sheet"] == brick.pk else brick
        ChapterOutcome.objects.filter(pk=outcome.pk).update(
            record={**outcome.record, "sheet": named.pk}
        )
    settlement_apply(chapter_id=chapter.pk)
    for sheet in (vex, brick, stranger):
        sheet.refresh_from_db()
    assert (stranger.fatigue, stranger.wounds, brick.wounds, vex.wounds) == (0, 0, 0, 2)


@pytest.mark.parametrize("players", [1, 4])
def test_the_chapter_page_and_the_close_cost_the_same_queries_whatever_the_sheets(
    client, django_assert_num_queries, players
):
    organiser = PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Q", system="corporates")
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Q")
    for n in range(players):
        player = PlayerFactory()
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
        sheet = corporates_character_create(owner=player, name=f"Runner {n}")
        chapter_entry_enter(actor=player, chapter=chapter, kind=CORPORATES_SHEET, roster=sheet)
    client.force_login(player)
    # the user (the session from the cache), the chapter, the members, the vocations, the
    # outcomes, the unit results, the open votes, the sheets entered, the viewer's sheets
    with django_assert_num_queries(9):
        assert client.get(reverse("chapter-detail", args=[chapter.pk])).status_code == 200
    client.force_login(organiser)
    # the user (the session from the cache), the chapter with my membership, the sheets
    # entered with their players
    with django_assert_num_queries(3):
        assert client.get(reverse("chapter-close", args=[chapter.pk])).status_code == 200
