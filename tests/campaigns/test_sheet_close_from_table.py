"""A Corporates or modern RPG chapter played at the live table: the table's fighters are the
character sheets entered into the chapter, at the levels the start froze; when the game
ends, the close starts from the levels each sheet ended with (RULES-NOTES CL3: "each
character's fatigue and wound levels carry from session to session"; CL4: "stress and
wounds carry over"), the page and its API twin alike, and the organiser may change them.
While the game is played, the close says so."""

import re

import pytest
from django.urls import reverse

from campaigns.chapters.entries import chapter_entry_enter
from campaigns.chapters.services import chapter_plan, chapter_start
from campaigns.models import ChapterOutcome
from campaigns.services import campaign_add_participant, campaign_create
from campaigns.systems.entry_kinds import CORPORATES_SHEET, MODERN_SHEET
from characters.corporates.services import corporates_character_carry, corporates_character_create
from characters.modern.services import modern_character_carry, modern_character_create
from rules.table.models import Combatant
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_create_for_chapter,
    encounter_end,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

DICE = {"reflexes": 10, "endurance": 8, "sang_froid": 10, "empathie": 8}


def _campaign(system: str):
    organiser, alice, bruno = PlayerFactory(), PlayerFactory(), PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Arcologie", system=system)
    for player in (alice, bruno):
        campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Niveau -12")
    return organiser, alice, bruno, chapter


def _act(organiser, encounter, **action) -> None:
    encounter.refresh_from_db()
    encounter_act(
        actor=organiser,
        encounter=encounter,
        version=encounter.version,
        action=ActionInput(**action),
    )


def _fighters(encounter) -> dict[str, Combatant]:
    return {c.name: c for c in Combatant.objects.filter(encounter=encounter)}


def _value(html: str, name: str) -> str:
    field = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    assert field, name
    value = re.search(r'value="(-?\d*)"', field.group(0))
    return value.group(1) if value else ""


def _answers(draft: dict, sheet) -> dict:
    (entry,) = [e for e in draft["entries"] if e["entry"] == sheet.pk]
    return entry["answers"]


@pytest.fixture
def corporates():
    """alice's first sheet (Old) is not entered: her Vex is, carrying 1 fatigue and 2 wound
    levels when the chapter starts; bruno enters Brick. After the start Vex is cared for
    (its sheet back to 0): the table plays it as it was frozen."""
    organiser, alice, bruno, chapter = _campaign("corporates")
    corporates_character_create(owner=alice, name="Old")
    vex = corporates_character_create(owner=alice, name="Vex", numbers={"soak_dice": 4})
    vex = corporates_character_carry(actor=alice, character=vex, fatigue=1, wounds=2)
    brick = corporates_character_create(owner=bruno, name="Brick")
    chapter_entry_enter(actor=alice, chapter=chapter, kind=CORPORATES_SHEET, roster=vex)
    chapter_entry_enter(actor=bruno, chapter=chapter, kind=CORPORATES_SHEET, roster=brick)
    chapter = chapter_start(actor=organiser, chapter=chapter)
    corporates_character_carry(actor=alice, character=vex, fatigue=0, wounds=0)
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    return organiser, chapter, encounter, vex, brick


def test_the_corporates_table_plays_the_sheets_entered_as_they_were_frozen(corporates):
    _organiser, _chapter, encounter, vex, brick = corporates
    fighters = _fighters(encounter)
    assert "Old" not in fighters
    assert fighters["Vex"].player_id == vex.owner_id
    assert fighters["Vex"].state["sheet"] == vex.pk
    assert fighters["Vex"].state["soak_dice"] == 4
    assert (fighters["Vex"].state["fatigue"], fighters["Vex"].state["wound_levels"]) == (1, 2)
    assert fighters["Brick"].state["sheet"] == brick.pk


def test_the_corporates_close_starts_from_the_levels_at_the_tables_end(client, corporates):
    organiser, chapter, encounter, vex, brick = corporates
    _act(organiser, encounter, kind="wound", target=_fighters(encounter)["Vex"].pk,
         options={"amount": 1})  # fmt: skip
    client.force_login(organiser)
    html = client.get(reverse("chapter-close", args=[chapter.pk])).content.decode()
    assert 'id="table-in-play"' in html
    encounter.refresh_from_db()
    encounter_end(actor=organiser, encounter=encounter, version=encounter.version)
    html = client.get(reverse("chapter-close", args=[chapter.pk])).content.decode()
    draft = client.get(reverse("api-chapter-close", args=[chapter.pk])).json()
    assert 'id="table-in-play"' not in html
    assert (_value(html, f"c{vex.pk}_fatigue"), _value(html, f"c{vex.pk}_wounds")) == ("1", "3")
    assert (_value(html, f"c{brick.pk}_fatigue"), _value(html, f"c{brick.pk}_wounds")) == (
        "0",
        "0",
    )
    assert _answers(draft, vex) == {"fatigue": 1, "wounds": 3}
    assert _answers(draft, brick) == {"fatigue": 0, "wounds": 0}
    # The organiser changes what the table filled in.
    response = client.post(
        reverse("chapter-close", args=[chapter.pk]),
        {
            "epilogue": "Le niveau tombe.",
            f"c{vex.pk}_result": "played",
            f"c{vex.pk}_fatigue": "2",
            f"c{vex.pk}_wounds": "3",
            f"c{brick.pk}_result": "played",
            f"c{brick.pk}_fatigue": "0",
            f"c{brick.pk}_wounds": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    record = ChapterOutcome.objects.get(chapter=chapter, player=vex.owner).record
    assert (record["sheet"], record["fatigue"], record["wounds"]) == (vex.pk, 2, 3)


@pytest.fixture
def modern():
    """Lina enters with 2 stress and 1 hit point lost; Marc whole."""
    organiser, alice, bruno, chapter = _campaign("modern-rpg")
    lina = modern_character_create(owner=alice, name="Lina", characteristics=DICE)
    lina = modern_character_carry(actor=alice, character=lina, stress=2, hp=9, source="care")
    marc = modern_character_create(owner=bruno, name="Marc", characteristics=DICE)
    chapter_entry_enter(actor=alice, chapter=chapter, kind=MODERN_SHEET, roster=lina)
    chapter_entry_enter(actor=bruno, chapter=chapter, kind=MODERN_SHEET, roster=marc)
    chapter = chapter_start(actor=organiser, chapter=chapter)
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    return organiser, chapter, encounter, lina, marc


def test_the_modern_close_starts_from_the_hit_points_lost_and_stress(client, modern):
    organiser, chapter, encounter, lina, marc = modern
    fighters = _fighters(encounter)
    assert (fighters["Lina"].state["hp"], fighters["Lina"].state["sheet"]) == (9, lina.pk)
    _act(organiser, encounter, kind="damage", target=fighters["Lina"].pk, options={"amount": 3})
    encounter.refresh_from_db()
    encounter_end(actor=organiser, encounter=encounter, version=encounter.version)
    client.force_login(organiser)
    html = client.get(reverse("chapter-close", args=[chapter.pk])).content.decode()
    draft = client.get(reverse("api-chapter-close", args=[chapter.pk])).json()
    # 10 hit points, 6 left at the end: 4 lost; the stress it entered with.
    assert (_value(html, f"c{lina.pk}_wounds"), _value(html, f"c{lina.pk}_stress")) == ("4", "2")
    assert _value(html, f"c{marc.pk}_wounds") == "0"
    assert _answers(draft, lina)["wounds"] == 4 and _answers(draft, lina)["stress"] == 2
    assert _answers(draft, marc)["wounds"] == 0


def test_a_closed_chapters_page_shows_each_sheets_recorded_levels(client, corporates):
    """The chapter's record, once closed: each character and the levels its close recorded,
    the page and its API twin alike."""
    organiser, chapter, encounter, vex, brick = corporates
    encounter.refresh_from_db()
    encounter_end(actor=organiser, encounter=encounter, version=encounter.version)
    client.force_login(organiser)
    response = client.post(
        reverse("chapter-close", args=[chapter.pk]),
        {"epilogue": "Le niveau tombe.", f"c{vex.pk}_result": "played",
         f"c{vex.pk}_fatigue": "1", f"c{vex.pk}_wounds": "2",
         f"c{brick.pk}_result": "played", f"c{brick.pk}_wounds": "4"},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    client.cookies["django_language"] = "en"
    html = client.get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    rows = re.findall(r'<td class="recorded-levels">(.*?)</td>', html.replace("\u00a0", " "))
    assert rows == [
        "Fatigue levels at the end: 1; Wound levels at the end: 2",
        "Fatigue levels at the end: 0; Wound levels at the end: 4",
    ]
    assert "Vex" in html and "Brick" in html
    api = client.get(reverse("api-chapter-detail", args=[chapter.pk])).json()
    assert [
        (o["sheet"], {lv["name"]: lv["value"] for lv in o["levels"]}) for o in api["outcomes"]
    ] == [
        ("Vex", {"fatigue": 1, "wounds": 2}),
        ("Brick", {"fatigue": 0, "wounds": 4}),
    ]
