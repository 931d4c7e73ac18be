"""Modern RPG characters: creation checked as you build (characteristics total 36, 30 XP,
specialities 3 XP +2 per earlier one on the same characteristic), refusals as sentences,
history, print, export and the API, for the owner alone."""

import json
import re

import pytest
from django.urls import reverse
from django.utils import translation

from characters.modern.models import ModernCharacter
from characters.modern.services import (
    modern_character_carry,
    modern_character_create,
    modern_character_update,
    sheet_check,
)
from characters.permissions import Refusal
from rules.engine.systems.modern.creation import check_sheet, speciality_costs
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

DICE = {"reflexes": 10, "endurance": 8, "sang_froid": 10, "empathie": 8}


def test_specialities_cost_three_plus_two_per_earlier_one_on_the_same_characteristic():
    # "Le cout de base d'une spécialité est de 3 XP. Mais ce cout augmente de 2 pour chaque
    #  spécialité dépendant de la même caractéristique. Il est donc possible d'acheter 4
    #  spécialités pour 3 XP chacunes mais dans les 4 caractéristiques différentes."
    assert speciality_costs(["reflexes", "endurance", "sang_froid", "empathie"]) == [3, 3, 3, 3]
    assert speciality_costs(["reflexes", "reflexes", "reflexes"]) == [3, 5, 7]


def test_the_check_counts_the_budgets():
    # "le total des caractéristiques est de 36"; "Répartir 30 XP"
    check = check_sheet(
        DICE, {"tir": 6, "conduite": 5}, [("pistolet", "reflexes"), ("esquive", "reflexes")]
    )
    assert check.characteristic_total == 36
    assert check.xp_spent == 11 + 3 + 5
    assert [p.code for p in check.problems] == ["xp_left"]
    assert check.stress_threshold == 10  # "la valeur max entre empathie et le sang froid"
    over = check_sheet({**DICE, "empathie": 12}, {"tir": 30, "conduite": 1}, [])
    assert {p.code for p in over.problems} == {"characteristic_total", "xp_over"}


def test_it_refuses_a_sheet_off_the_budget_with_a_sentence():
    owner = PlayerFactory()
    with translation.override("fr"), pytest.raises(Refusal) as refused:
        modern_character_create(owner=owner, name="X", characteristics={**DICE, "empathie": 10})
    assert str(refused.value.message) == (
        "Les caractéristiques totalisent 38\u00a0; elles doivent totaliser 36."
    )
    with translation.override("fr"), pytest.raises(Refusal) as refused:
        modern_character_create(
            owner=owner, name="X", characteristics=DICE, skills={"tir": 30, "conduite": 1}
        )
    assert "31 XP dépensés" in str(refused.value.message)
    assert not ModernCharacter.objects.exists()


def test_a_change_is_recorded_and_a_stale_version_refused():
    owner = PlayerFactory()
    character = modern_character_create(owner=owner, name="Lina", characteristics=DICE)
    changed = modern_character_update(actor=owner, character=character, version=1, stress=2)
    assert changed.version == 2
    assert [e.verb for e in changed.events.all()] == ["changed", "created"]
    with pytest.raises(Refusal) as refused:
        modern_character_update(actor=owner, character=changed, version=1, stress=3)
    assert refused.value.status == 409


def sheet_form(**extra):
    return {
        "name": "Lina",
        "reflexes": "10",
        "endurance": "8",
        "sang_froid": "10",
        "empathie": "8",
        "skill_tir": "6",
        "skill_conduite": "5",
        "specialities": ["pistolet", "course"],
        "hp_max": "10",
        **extra,
    }


def test_the_creation_form_is_checked_as_you_build(client):
    client.force_login(PlayerFactory())
    response = client.get(
        reverse("modern-list"),
        sheet_form(empathie="12"),
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="sheet-check",
    )
    body = response.content.decode().replace("\u00a0", " ")
    assert "<html" not in body
    assert "Caractéristiques : 40 / 36" in body
    assert "elles doivent totaliser 36" in body


def test_the_page_creates_and_keeps_what_was_typed_on_a_refusal(client):
    owner = PlayerFactory()
    client.force_login(owner)
    refused = client.post(reverse("modern-list"), sheet_form(empathie="12"))
    assert refused.status_code == 200
    assert "elles doivent totaliser 36" in refused.content.decode()
    # The specialities ticked stay ticked.
    assert re.search(r'value="pistolet"[^>]*checked', refused.content.decode())
    assert not re.search(r'value="esquive"[^>]*checked', refused.content.decode())
    created = client.post(reverse("modern-list"), sheet_form())
    character = ModernCharacter.objects.get(owner=owner)
    assert created.url == reverse("modern-character", args=[character.pk])
    sheet = client.get(created.url).content.decode()
    # Skills 6 + 5, two specialities on two characteristics 3 + 3: 17 of 30 XP spent.
    assert "13 XP restant à dépenser." in sheet
    print_page = client.get(reverse("modern-character-print", args=[character.pk]))
    assert "Lina" in print_page.content.decode()
    export = client.get(reverse("modern-character-export", args=[character.pk]))
    data = json.loads(export.content)
    assert data["characteristics"] == {
        "reflexes": 10,
        "endurance": 8,
        "sang_froid": 10,
        "empathie": 8,
    }
    assert [s["xp"] for s in data["specialities"]] == [3, 3]


@pytest.mark.parametrize("count", [1, 8])
def test_the_list_page_runs_a_fixed_number_of_queries(client, count, django_assert_num_queries):
    owner = PlayerFactory()
    for n in range(count):
        modern_character_create(owner=owner, name=f"C{n}", characteristics=DICE)
    client.force_login(owner)
    with django_assert_num_queries(2):  # user (the session from the cache), characters
        response = client.get(reverse("modern-list"))
    assert response.content.decode().count("/modern/characters/") >= count


def test_another_player_gets_a_404(client):
    character = modern_character_create(owner=PlayerFactory(), name="Lina", characteristics=DICE)
    client.force_login(PlayerFactory())
    assert client.get(reverse("modern-character", args=[character.pk])).status_code == 404
    api = client.get(reverse("api-modern-character", args=[character.pk]))
    assert api.status_code == 404


def test_the_api_creates_and_changes_a_sheet(client):
    client.force_login(PlayerFactory())
    created = client.post(
        reverse("api-modern-list"),
        {"name": "Lina", "characteristics": DICE, "specialities": ["course"]},
        content_type="application/json",
    )
    assert created.status_code == 201
    assert created.json()["notes"] == ["27 XP restant à dépenser."]
    pk = created.json()["id"]
    changed = client.patch(
        reverse("api-modern-character", args=[pk]),
        # Each level within the budget, the two together over it (3 + 20 + 20 XP).
        {"version": 1, "skills": {"tir": 20, "athletisme": 20}},
        content_type="application/json",
    )
    assert changed.status_code == 400
    assert "43 XP dépensés" in str(changed.json())


# --- Skills and specialities chosen from the catalogue -----------------------------------------


def test_the_form_offers_the_catalogues_choices_with_their_labels(client):
    client.force_login(PlayerFactory())
    with translation.override("fr"):
        page = client.get(reverse("modern-list")).content.decode()
    # A speciality reads with the characteristic it depends on; a skill by its name.
    assert "Esquive (Réflexes)" in page
    assert "Course (Endurance)" in page
    assert 'name="skill_tir"' in page
    assert "Tir" in page


def test_it_refuses_a_skill_or_speciality_outside_the_catalogue_with_a_sentence():
    owner = PlayerFactory()
    # "tir 4" and "TIR 1" were two skills for 16 XP: a name is the catalogue's or refused.
    with translation.override("fr"), pytest.raises(Refusal) as refused:
        modern_character_create(
            owner=owner, name="X", characteristics=DICE, skills={"tir": 4, "TIR": 1}
        )
    assert refused.value.field == "skills"
    assert "TIR" in str(refused.value.message)
    with translation.override("fr"), pytest.raises(Refusal) as refused:
        modern_character_create(
            owner=owner, name="X", characteristics=DICE, specialities=["pistolet", "pistolet"]
        )
    assert refused.value.field == "specialities"
    assert str(refused.value.message) == "La spécialité Pistolet s'achète une fois."
    assert not ModernCharacter.objects.exists()


def test_the_api_refuses_unknown_and_duplicate_choices_with_field_errors(client):
    client.force_login(PlayerFactory())
    url = reverse("api-modern-list")
    body = {"name": "Lina", "characteristics": DICE}
    for bad, field in (
        ({"skills": {"TIR": 1}}, "skills"),
        ({"specialities": ["esquive Sang-froid"]}, "specialities"),
        ({"specialities": ["esquive", "esquive"]}, "specialities"),
        ({"skills": {"tir": 0}}, "skills"),
        ({"specialities": "esquive"}, "specialities"),
    ):
        response = client.post(url, {**body, **bad}, content_type="application/json")
        assert response.status_code == 400, bad
        assert field in response.json(), bad
    assert not ModernCharacter.objects.exists()


def test_a_form_with_bad_numbers_answers_field_errors_not_a_500(client):
    client.force_login(PlayerFactory())
    response = client.post(
        reverse("modern-list"),
        sheet_form(skill_tir="-3", specialities=["nope"], reflexes="7"),
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert {"skill_tir", "specialities", "reflexes"} <= set(form.errors)
    assert not ModernCharacter.objects.exists()


def test_specialities_bought_on_one_characteristic_cost_more_each_time():
    # "ce cout augmente de 2 pour chaque spécialité dépendant de la même caractéristique":
    # pistolet, esquive and pilotage all depend on Réflexes: 3 + 5 + 7 XP.
    owner = PlayerFactory()
    character = modern_character_create(
        owner=owner,
        name="Lina",
        characteristics=DICE,
        specialities=["pistolet", "esquive", "pilotage"],
    )
    assert character.specialities == [
        ["pistolet", "reflexes"],
        ["esquive", "reflexes"],
        ["pilotage", "reflexes"],
    ]
    check = sheet_check(character)
    assert check.speciality_costs == (3, 5, 7) and check.xp_spent == 15


# --- What a session carries (RULES-NOTES CL4) ---------------------------------------------------


def test_a_session_carries_stress_and_wounds_and_its_xp_is_spent_as_at_creation():
    # CL4: "the organiser awards XP at a chapter's close (0 by default); a player spends it
    # as at creation ...; stress and wounds carry over."
    owner = PlayerFactory()
    character = modern_character_create(
        owner=owner, name="Lina", characteristics=DICE, skills={"tir": 30}
    )
    with pytest.raises(Refusal):  # 34 XP of 30
        modern_character_update(
            actor=owner, character=character, version=1, specialities=["course"]
        )
    carried = modern_character_carry(
        actor=owner, character=character, stress=3, hp=6, xp=4, source="chapter:7"
    )
    assert (carried.stress, carried.hp, carried.xp_awards) == (3, 6, {"chapter:7": 4})
    # Settled again, the same chapter awards its XP once.
    again = modern_character_carry(
        actor=owner, character=carried, stress=3, hp=6, xp=4, source="chapter:7"
    )
    assert again.version == carried.version
    assert sheet_check(again).xp_budget == 34
    spent = modern_character_update(
        actor=owner, character=again, version=again.version, specialities=["course"]
    )
    assert sheet_check(spent).xp_spent == 33
    assert [e.verb for e in spent.events.all()] == ["changed", "carried", "created"]
    assert spent.events.filter(verb="carried").get().source == "chapter:7"


def test_a_carry_out_of_the_gauges_is_refused_with_a_sentence():
    owner = PlayerFactory()
    character = modern_character_create(owner=owner, name="Lina", characteristics=DICE)
    with pytest.raises(Refusal) as refused:
        modern_character_carry(actor=owner, character=character, stress=99, hp=6, source="c:1")
    assert refused.value.field == "stress"
    with pytest.raises(Refusal) as refused:
        modern_character_carry(actor=owner, character=character, stress=1, hp=6, xp=-1, source="c")
    assert refused.value.field == "xp"


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"skills": ["tir", "tir"]}, "creation.skills"),
        ({"specialities": {"esquive": "chance"}}, "creation.specialities"),
        ({"skill_level_max": "30"}, "creation.skill_level_max"),
    ],
)
def test_a_broken_list_of_choices_is_refused_when_the_catalogue_loads(change, where):
    from rules.engine.systems.modern.catalogue import (
        CATALOGUES_DIR,
        CatalogueError,
        parse_catalogue,
    )

    data = json.loads((CATALOGUES_DIR / "2026.11.1.json").read_text())
    data["creation"] = {**data["creation"], **change}
    with pytest.raises(CatalogueError, match=where):
        parse_catalogue(data)
