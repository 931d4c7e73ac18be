"""Corporates characters: a sheet holding the numbers the resolvers read, each in the
catalogue's range; created, changed, its history (who, when, what) and undo, print, the API
twin; the fatigue and wound levels a session leaves carried to the next (RULES-NOTES CL3);
the live table's fighters drawn from sheets. For the owner alone."""

import pytest
from django.urls import reverse
from django.utils import translation

from characters.corporates.models import CorporatesCharacter
from characters.corporates.services import (
    corporates_character_carry,
    corporates_character_create,
    corporates_character_undo,
    corporates_character_update,
)
from characters.permissions import Refusal
from rules.engine.systems.corporates.catalogue import load_catalogue
from rules.engine.systems.corporates.sheet import check_sheet, sheet_defaults
from rules.table.models import Combatant
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode().replace("\u00a0", " ")


def sheet_form(**extra) -> dict:
    return {
        **{name: str(value) for name, value in sheet_defaults().items()},
        "name": "Vex",
        "weapon": "cutting",
        "fatigue": "0",
        "wounds": "0",
        **extra,
    }


# --- The sheet's numbers, from the catalogue --------------------------------------------------


def test_a_new_sheet_starts_from_the_catalogues_numbers_and_records_its_version():
    vex = corporates_character_create(owner=PlayerFactory(), name="Vex")
    catalogue = load_catalogue()
    assert vex.numbers == sheet_defaults(catalogue)
    assert vex.weapon == catalogue.sheet["weapon_default"]
    assert vex.catalogue_version == catalogue.version
    assert check_sheet(vex.numbers, vex.weapon, 0, 0, catalogue) == ()


@pytest.mark.parametrize(
    ("numbers", "weapon", "code"),
    [
        # "Défenseur engagé : Compétence de combat + Esquive + ...": a skill from 0 to 30.
        ({"combat_skill": 31}, "cutting", "number_range"),
        # A pool of d6 is at least one die ("Les actions").
        ({"shot_pool": 0}, "cutting", "number_range"),
        ({"luck": 3}, "cutting", "unknown_number"),
        # "Répartition des niveaux de dommages": the weapon is one of the table's kinds.
        ({}, "laser", "weapon"),
    ],
)
def test_the_engine_names_each_way_a_sheet_leaves_the_catalogue(numbers, weapon, code):
    problems = check_sheet({**sheet_defaults(), **numbers}, weapon, 0, 0)
    assert [p.code for p in problems] == [code]


def test_a_number_out_of_its_range_is_refused_with_a_sentence():
    with translation.override("fr"), pytest.raises(Refusal) as refused:
        corporates_character_create(owner=PlayerFactory(), name="Vex", numbers={"combat_skill": 31})
    assert refused.value.field == "combat_skill"
    assert str(refused.value.message) == "Compétence de combat\u00a0: de 0 à 30."
    assert not CorporatesCharacter.objects.exists()


# --- Pages --------------------------------------------------------------------------------------


def test_the_page_creates_a_sheet_and_shows_it(client):
    owner = PlayerFactory()
    client.force_login(owner)
    with translation.override("fr"):
        created = client.post(
            reverse("corporates-list"), sheet_form(shot_pool="6", weapon="hard_blunt")
        )
    vex = CorporatesCharacter.objects.get(owner=owner)
    assert created.url == reverse("corporates-character", args=[vex.pk])
    assert vex.numbers["shot_pool"] == 6 and vex.weapon == "hard_blunt"
    page = text(client.get(created.url, HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Dés de tir" in page and "arme contondante dure" in page
    assert f"Catalogue Corporates {vex.catalogue_version}" in page
    printed = text(client.get(reverse("corporates-character-print", args=[vex.pk])))
    assert "Vex" in printed and "Dés de tir" in printed


def test_bad_input_answers_field_errors_never_a_500(client):
    owner = PlayerFactory()
    client.force_login(owner)
    response = client.post(
        reverse("corporates-list"),
        sheet_form(combat_skill="99", shot_pool="x", weapon="laser", wounds="-1", name=""),
    )
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert {"combat_skill", "shot_pool", "weapon", "wounds", "name"} <= set(errors)
    assert not CorporatesCharacter.objects.exists()


def test_a_change_is_recorded_who_when_what_and_undone(client):
    owner = PlayerFactory(display_name="Alice")
    vex = corporates_character_create(owner=owner, name="Vex")
    client.force_login(owner)
    changed = client.post(
        reverse("corporates-character", args=[vex.pk]),
        sheet_form(shot_pool="7", version=str(vex.version)),
    )
    assert changed.status_code == 302
    vex.refresh_from_db()
    assert vex.numbers["shot_pool"] == 7
    history = text(client.get(reverse("corporates-character-history", args=[vex.pk])))
    assert "Alice" in history and "a modifié la feuille" in history
    assert "Dés de tir : 5 → 7" in history
    assert 'data-testid="undo"' in history
    undone = client.post(
        reverse("corporates-character-undo", args=[vex.pk]), {"version": vex.version}
    )
    assert undone.status_code == 302
    vex.refresh_from_db()
    assert vex.numbers["shot_pool"] == 5
    history = text(client.get(reverse("corporates-character-history", args=[vex.pk])))
    assert "a annulé un changement" in history and "(annulé)" in history
    # Only the creation is left: no undo button, and a second undo says so.
    assert 'data-testid="undo"' not in history
    again = client.post(
        reverse("corporates-character-undo", args=[vex.pk]), {"version": vex.version}, follow=True
    )
    assert "Il n&#x27;y a plus rien à annuler." in again.content.decode()


def test_a_stale_page_is_refused_and_shows_the_sheet_as_it_is(client):
    owner = PlayerFactory()
    vex = corporates_character_create(owner=owner, name="Vex")
    corporates_character_update(actor=owner, character=vex, version=1, numbers={"shot_pool": 6})
    client.force_login(owner)
    stale = client.post(
        reverse("corporates-character", args=[vex.pk]), sheet_form(shot_pool="9", version="1")
    )
    assert stale.status_code == 400
    assert "a changé entre-temps" in text(stale)
    vex.refresh_from_db()
    assert vex.numbers["shot_pool"] == 6


def test_another_player_gets_a_404_everywhere(client):
    vex = corporates_character_create(owner=PlayerFactory(), name="Vex")
    client.force_login(PlayerFactory())
    for name in ("corporates-character", "corporates-character-history",
                 "corporates-character-print", "api-corporates-character"):  # fmt: skip
        assert client.get(reverse(name, args=[vex.pk])).status_code == 404, name
    undo = client.post(reverse("corporates-character-undo", args=[vex.pk]), {"version": 1})
    assert undo.status_code == 404


@pytest.mark.parametrize("count", [1, 8])
def test_the_list_page_runs_a_fixed_number_of_queries(client, count, django_assert_num_queries):
    owner = PlayerFactory()
    for n in range(count):
        corporates_character_create(owner=owner, name=f"C{n}")
    client.force_login(owner)
    with django_assert_num_queries(2):  # the user, the characters
        response = client.get(reverse("corporates-list"))
    assert text(response).count("/corporates/characters/") >= count
    with django_assert_num_queries(1):  # the characters
        assert len(client.get(reverse("api-corporates-list")).json()) == count


@pytest.mark.parametrize("changes", [1, 8])
def test_the_sheet_and_history_run_a_fixed_number_of_queries(
    client, changes, django_assert_num_queries
):
    owner = PlayerFactory()
    vex = corporates_character_create(owner=owner, name="Vex")
    for n in range(changes):
        vex = corporates_character_update(
            actor=owner, character=vex, version=vex.version, numbers={"shot_pool": 2 + n}
        )
    client.force_login(owner)
    client.get(reverse("corporates-list"))  # the session's user is cached from here on
    # None of them grows with the history (1 or 8 changes).
    with django_assert_num_queries(2):  # the character, whether an undo is left
        client.get(reverse("corporates-character", args=[vex.pk]))
    with django_assert_num_queries(2):  # the character, its history with actors and undos
        response = client.get(reverse("corporates-character-history", args=[vex.pk]))
    assert text(response).count("a modifié la feuille") == changes
    with django_assert_num_queries(1):  # the characters
        client.get(reverse("api-corporates-list"))


# --- The API twin -------------------------------------------------------------------------------


def test_the_api_creates_changes_lists_and_undoes(client):
    client.force_login(PlayerFactory())
    created = client.post(
        reverse("api-corporates-list"),
        {"name": "Vex", "numbers": {"shot_pool": 6}, "weapon": "thrusting"},
        content_type="application/json",
    )
    assert created.status_code == 201
    data = created.json()
    assert data["numbers"]["shot_pool"] == 6 and data["numbers"]["soak_dice"] == 2
    assert data["catalogue_version"] == load_catalogue().version and data["can_undo"] is False
    url = reverse("api-corporates-character", args=[data["id"]])
    changed = client.patch(
        url, {"version": 1, "numbers": {"soak_bonus": 5}}, content_type="application/json"
    )
    assert changed.status_code == 200
    assert changed.json()["numbers"]["shot_pool"] == 6  # untouched numbers stay
    assert changed.json()["numbers"]["soak_bonus"] == 5 and changed.json()["can_undo"]
    stale = client.patch(url, {"version": 1, "wounds": 2}, content_type="application/json")
    assert stale.status_code == 409
    history = client.get(reverse("api-corporates-character-history", args=[data["id"]])).json()
    assert [e["verb"] for e in history] == ["changed", "created"]
    undone = client.post(
        reverse("api-corporates-character-undo", args=[data["id"]]),
        {"version": 2},
        content_type="application/json",
    )
    assert undone.status_code == 200 and undone.json()["numbers"]["soak_bonus"] == 2
    nothing = client.post(
        reverse("api-corporates-character-undo", args=[data["id"]]),
        {"version": 3},
        content_type="application/json",
    )
    assert nothing.status_code == 400


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"numbers": {"combat_skill": 31}}, "numbers"),
        ({"numbers": {"shot_pool": "many"}}, "numbers"),
        ({"numbers": [1, 2]}, "numbers"),
        ({"weapon": "laser"}, "weapon"),
        ({"fatigue": -1}, "fatigue"),
        ({"wounds": 999}, "wounds"),
        ({"name": ""}, "name"),
    ],
)
def test_the_api_answers_bad_input_with_field_errors(client, body, field):
    client.force_login(PlayerFactory())
    response = client.post(
        reverse("api-corporates-list"), {"name": "Vex", **body}, content_type="application/json"
    )
    assert response.status_code == 400
    assert field in response.json()
    assert not CorporatesCharacter.objects.exists()


# --- What a session carries (RULES-NOTES CL3) ---------------------------------------------------


def test_a_session_carries_fatigue_and_wounds_set_not_added():
    # CL3: "each character's fatigue and wound levels carry from session to session until
    # the organiser records care between sessions".
    owner, orga = PlayerFactory(), PlayerFactory()
    vex = corporates_character_create(owner=owner, name="Vex")
    vex = corporates_character_carry(
        actor=orga, character=vex, fatigue=1, wounds=3, source="chapter:4"
    )
    assert (vex.fatigue, vex.wounds) == (1, 3)
    # Settled again, the same levels: nothing added, no new line of history.
    again = corporates_character_carry(
        actor=orga, character=vex, fatigue=1, wounds=3, source="chapter:4"
    )
    assert (again.fatigue, again.wounds, again.version) == (1, 3, vex.version)
    carried = again.events.get(verb="carried")
    assert carried.actor == orga and carried.source == "chapter:4"
    # Care between sessions is a carry with fewer levels; a mistaken carry is undone.
    # A settlement running on its own writes with no actor.
    cared = corporates_character_carry(actor=None, character=again, fatigue=0, wounds=1)
    assert (cared.fatigue, cared.wounds) == (0, 1)
    back = corporates_character_undo(actor=owner, character=cared, version=cared.version)
    assert (back.fatigue, back.wounds) == (1, 3)


def test_the_history_names_who_carried_a_session(client):
    owner = PlayerFactory(display_name="Alice")
    vex = corporates_character_create(owner=owner, name="Vex")
    corporates_character_carry(actor=None, character=vex, fatigue=2, wounds=1, source="Chapitre 3")
    client.force_login(owner)
    history = text(client.get(reverse("corporates-character-history", args=[vex.pk])))
    assert "Le bilan d'un chapitre — a reporté la fatigue et les blessures de la séance" in (
        history.replace("&#x27;", "'")
    )
    assert "(Chapitre 3)" in history and "Niveaux de blessures : 0 → 1" in history
    assert "None" not in history


def test_a_carry_out_of_the_levels_is_refused_with_a_sentence():
    vex = corporates_character_create(owner=PlayerFactory(), name="Vex")
    top = load_catalogue().sheet["levels_max"]
    with pytest.raises(Refusal) as refused:
        corporates_character_carry(actor=vex.owner, character=vex, fatigue=0, wounds=top + 1)
    assert refused.value.field == "wounds"


# --- At the live table ------------------------------------------------------------------------


def test_a_pick_up_fighter_drawn_from_a_sheet_brings_its_numbers(client):
    from rules.table.services import encounter_create_quick

    owner = PlayerFactory()
    vex = corporates_character_create(
        owner=owner,
        name="Vex",
        numbers={"shot_pool": 7, "combat_pool": 6, "wired_reflexes": 2},
        weapon="thrusting",
    )
    vex = corporates_character_carry(actor=owner, character=vex, fatigue=1, wounds=2)
    encounter = encounter_create_quick(
        actor=owner,
        system="corporates",
        sides=["Extraction", "Sécurité"],
        fighters=[[], ["Garde"]],
        sheets=[[vex.pk], []],
    )
    fighter = Combatant.objects.get(encounter=encounter, name="Vex")
    state = fighter.state
    assert (state["shot_pool"], state["pool"], state["weapon"]) == (7, 6, "thrusting")
    assert (state["fatigue"], state["wound_levels"], state["sheet"]) == (1, 2, vex.pk)
    # Its wired reflexes reach the melee resolver's defence ("+ Niveau réflexes câblés").
    from rules.table.corporates import melee_input

    guard = Combatant.objects.get(encounter=encounter, name="Garde")
    assert melee_input(guard, fighter, {})["wired_reflexes"] == 2


def test_another_players_sheet_is_refused_at_the_table(client):
    from rules.table.services import encounter_create_quick

    theirs = corporates_character_create(owner=PlayerFactory(), name="Vex")
    with pytest.raises(Refusal) as refused:
        encounter_create_quick(
            actor=PlayerFactory(),
            system="corporates",
            sides=["A", "B"],
            fighters=[[], ["Garde"]],
            sheets=[[theirs.pk], []],
        )
    assert refused.value.field == "sheets"


def test_the_table_page_offers_your_sheets_and_its_api_twin_takes_them(client):
    owner = PlayerFactory()
    vex = corporates_character_create(owner=owner, name="Vex")
    client.force_login(owner)
    page = text(client.get(reverse("table-new")))
    assert 'name="first_sheets"' in page and "Vex" in page
    opened = client.post(
        reverse("table-new"),
        {
            "quick": "1",
            "system": "corporates",
            "first_side": "A",
            "second_side": "B",
            "first_sheets": [str(vex.pk)],
            "second_fighters": "Garde",
        },
    )
    assert opened.status_code == 302
    api = client.post(
        reverse("api-table-new"),
        {
            "system": "corporates",
            "sides": ["A", "B"],
            "fighters": [[], ["Garde"]],
            "sheets": [[vex.pk], []],
        },
        content_type="application/json",
    )
    assert api.status_code == 201
    assert Combatant.objects.filter(name="Vex", state__sheet=vex.pk).count() == 2


def test_a_chapter_fighter_is_drawn_from_the_players_sheet():
    from campaigns.chapters.entries import chapter_entry_enter
    from campaigns.chapters.services import chapter_plan, chapter_start
    from campaigns.services import campaign_add_participant, campaign_create
    from campaigns.systems.entry_kinds import CORPORATES_SHEET
    from rules.table.services import encounter_create_for_chapter

    organiser, player = PlayerFactory(), PlayerFactory(display_name="Alice")
    vex = corporates_character_create(owner=player, name="Vex", numbers={"soak_dice": 4})
    campaign = campaign_create(organiser=organiser, name="Arcologie", system="corporates")
    campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="I")
    chapter_entry_enter(actor=player, chapter=chapter, kind=CORPORATES_SHEET, roster=vex)
    chapter = chapter_start(actor=organiser, chapter=chapter)
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    fighter = Combatant.objects.get(encounter=encounter, player=player)
    assert fighter.name == "Vex" and fighter.state["soak_dice"] == 4


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"numbers": {"shot_pool": {"min": 1, "max": 20, "default": 30}}}, "sheet.numbers"),
        ({"weapon_default": "laser"}, "sheet.weapon_default"),
        ({"levels_max": 0}, "sheet.levels_max"),
    ],
)
def test_a_broken_sheet_section_is_refused_when_the_catalogue_loads(change, where):
    import json

    from rules.engine.systems.corporates.catalogue import (
        CATALOGUES_DIR,
        CatalogueError,
        parse_catalogue,
    )

    data = json.loads((CATALOGUES_DIR / "2026.11.1.json").read_text())
    data["sheet"] = {**data["sheet"], **change}
    with pytest.raises(CatalogueError, match=where):
        parse_catalogue(data)
