"""Corporates and the modern RPG at the live table (their adapters on the per-system seam):
Corporates turns as the declared-action schedule over 5 segments (`schedule.turn_plan`), the
modern RPG's rounds as attitudes then initiative order (`attitudes.initiative_order`);
actions with their odds first, dice by the server or by hand, consequences applied, undo
and the log through the shared machinery; a pick-up game from the page and its API twin."""

import pytest
from django.urls import reverse

from characters.permissions import Refusal
from rules.table.models import Combatant, Phase
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_advance,
    encounter_create_quick,
    encounter_odds,
    encounter_undo,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def text(response):
    return response.content.decode().replace("\u00a0", " ").replace("\u202f", " ")


def fighters(encounter):
    return {c.name: c for c in Combatant.objects.filter(encounter=encounter)}


def act(organiser, encounter, **action):
    encounter.refresh_from_db()
    return encounter_act(
        actor=organiser,
        encounter=encounter,
        version=encounter.version,
        action=ActionInput(**action),
    )


def advance(organiser, encounter):
    encounter.refresh_from_db()
    return encounter_advance(actor=organiser, encounter=encounter, version=encounter.version)


@pytest.fixture
def organiser():
    return PlayerFactory()


@pytest.fixture
def modern(organiser):
    return encounter_create_quick(
        actor=organiser,
        system="modern-rpg",
        sides=["Lina", "Dealers"],
        fighters=[["Lina"], ["Kader", "Momo"]],
        title="Le Panier",
    )


@pytest.fixture
def corporates(organiser):
    return encounter_create_quick(
        actor=organiser,
        system="corporates",
        sides=["Extraction", "Sécurité"],
        fighters=[["Vex"], ["Garde"]],
        title="Niveau -12",
    )


# --- The modern RPG: attitudes per round, then the initiative order -----------------------


def test_a_modern_round_starts_with_attitudes_then_the_aggressive_act_first(organiser, modern):
    # "Initiative ... le plus agressif agit en premier" (attitudes.initiative_order).
    assert modern.phase == Phase.ATTITUDES
    by_name = fighters(modern)
    act(organiser, modern, kind="attitude", actor=by_name["Lina"].pk, target=by_name["Lina"].pk,
        options={"attitude": "aggressive"})  # fmt: skip
    act(organiser, modern, kind="attitude", actor=by_name["Kader"].pk,
        target=by_name["Kader"].pk, options={"attitude": "careful"})  # fmt: skip
    entry = advance(organiser, modern)
    modern.refresh_from_db()
    assert modern.phase == Phase.ACTION
    by_name = fighters(modern)
    assert entry.data["order"][0] == by_name["Lina"].pk
    assert by_name["Lina"].state["initiative"] == 1
    assert by_name["Kader"].state["initiative"] == 3  # careful: after the normal Momo
    # Attitudes are taken at the start of the round only.
    with pytest.raises(Refusal):
        act(organiser, modern, kind="attitude", actor=by_name["Momo"].pk,
            target=by_name["Momo"].pk, options={"attitude": "hidden"})  # fmt: skip


def test_a_modern_attack_shows_its_odds_then_hits_points_are_taken_and_undo_restores(
    organiser, modern
):
    advance(organiser, modern)
    by_name = fighters(modern)
    attack = {"kind": "attack", "actor": by_name["Lina"].pk, "target": by_name["Kader"].pk}
    modern.refresh_from_db()
    odds = encounter_odds(encounter=modern, action=ActionInput(**attack))
    assert odds["resolver"] == "combat" and "wounded" in odds["outcomes_exact"]
    # Typed by hand: the characteristic d8 shows 8 and the skill d6 shows 6, one success each
    # ("Le seuil de réussite normal est de 6"), the ammunition d8 a 1 (reload): two
    # successes + 2 weapon damage = 4 damage, no vest.
    entry = act(organiser, modern, **attack, dice={"dice": [8, 6, 1]})
    assert entry.data["outcome"]["damage"] == 4 and entry.data["by_hand"]
    assert fighters(modern)["Kader"].state["hp"] == 6
    modern.refresh_from_db()
    encounter_undo(actor=organiser, encounter=modern, version=modern.version)
    assert fighters(modern)["Kader"].state["hp"] == 10
    # Rolled by the server: recorded as a replayable roll.
    entry = act(organiser, modern, **attack)
    assert entry.roll is not None and entry.roll.resolver == "combat"


def test_the_organiser_applies_damage_and_a_wound_below_zero_kills(organiser, modern):
    # "Arrivé à 0 PV, le PJ n'a plus d'actions. Dans les PV négatifs, toute autre blessure
    # entraine la mort"
    kader = fighters(modern)["Kader"]
    act(organiser, modern, kind="damage", target=kader.pk, options={"amount": 11})
    kader.refresh_from_db()
    assert kader.state["hp"] == -1 and kader.unconscious and not kader.dead
    act(organiser, modern, kind="damage", target=kader.pk, options={"amount": 1})
    kader.refresh_from_db()
    assert kader.dead


# --- Corporates: declared actions over the five segments ---------------------------------


def test_a_corporates_turn_places_the_declared_actions_in_their_segments(organiser, corporates):
    # "Répartition des actions dans le tour": 3 declared actions act in segments 1, 3, 5.
    assert corporates.phase == Phase.DECLARE
    by_name = fighters(corporates)
    act(organiser, corporates, kind="declare", actor=by_name["Vex"].pk,
        target=by_name["Vex"].pk, options={"declared": 3})  # fmt: skip
    advance(organiser, corporates)
    by_name = fighters(corporates)
    assert by_name["Vex"].state["segments"] == [1, 3, 5]
    assert by_name["Garde"].state["segments"] == [3]
    corporates.refresh_from_db()
    assert corporates.phase == Phase.SEGMENT_1
    blow = {"kind": "attack", "actor": by_name["Garde"].pk, "target": by_name["Vex"].pk}
    with pytest.raises(Refusal) as refused:
        act(organiser, corporates, **blow)
    assert refused.value.field == "actor"  # the guard acts in segment 3 only
    advance(organiser, corporates)
    advance(organiser, corporates)
    entry = act(organiser, corporates, **blow)
    assert entry.data["resolver"] == "melee"
    for _ in range(3):
        advance(organiser, corporates)
    corporates.refresh_from_db()
    assert (corporates.turn, corporates.phase) == (2, Phase.DECLARE)


def test_corporates_damage_levels_are_applied_by_weapon_type(organiser, corporates):
    # "il perd 1 niveau de dommages par niveau de marge"; cutting weapons: all wound levels.
    by_name = fighters(corporates)
    act(organiser, corporates, kind="declare", actor=by_name["Vex"].pk,
        target=by_name["Vex"].pk, options={"declared": 1})  # fmt: skip
    for _ in range(3):
        advance(organiser, corporates)
    # Segment 3: damage 2d6 + 2 typed 6 5 (13) against soak 2d6 + 2 typed 1 1 (4): margin 9,
    # 2 levels of 5 points.
    entry = act(organiser, corporates, kind="damage", actor=by_name["Vex"].pk,
                target=by_name["Garde"].pk, options={"amount": 0},
                dice={"damage_rolled": [6, 5], "soak_rolled": [1, 1]})  # fmt: skip
    assert entry.data["outcome"]["levels"] == 2
    garde = fighters(corporates)["Garde"]
    assert garde.state["wound_levels"] == 2 and garde.state["fatigue"] == 0


# --- The pages and the API ------------------------------------------------------------------


def test_a_pick_up_game_from_the_page_and_its_state_in_french(client, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("table-new"),
        {
            "quick": "1",
            "system": "modern-rpg",
            "quick_title": "",
            "first_side": "Lina",
            "first_fighters": "Lina",
            "second_side": "Dealers",
            "second_fighters": "Kader, Momo",
        },
    )
    assert response.status_code == 302
    page = client.get(response["Location"])
    body = text(page)
    assert "Points de vie" in body and "Attitudes" in body
    assert "Prendre une attitude pour le round" in body


def test_the_api_twin_opens_a_pick_up_game_and_refuses_a_bad_one(client, organiser):
    client.force_login(organiser)
    url = reverse("api-table-new")
    made = client.post(
        url,
        {"system": "corporates", "sides": ["A", "B"], "fighters": [["Vex"], ["Garde"]]},
        content_type="application/json",
    )
    assert made.status_code == 201
    assert made.json()["phase"] == "declare"
    refused = client.post(
        url,
        {"system": "corporates", "sides": ["A", "A"], "fighters": [["Vex"], ["Garde"]]},
        content_type="application/json",
    )
    assert refused.status_code == 400


@pytest.mark.parametrize("extra", [0, 8])
def test_the_table_page_costs_a_fixed_number_of_queries(
    client, organiser, extra, django_assert_num_queries
):
    encounter = encounter_create_quick(
        actor=organiser,
        system="corporates",
        sides=["A", "B"],
        fighters=[["Vex", *[f"V{n}" for n in range(extra // 2)]], ["Garde"]],
    )
    client.force_login(organiser)
    client.get(reverse("table-encounter", args=[encounter.pk]))
    encounter_advance(actor=organiser, encounter=encounter, version=None)
    # Changed since: encounter, combatants, log (session and user from the cache since the
    # first request)
    with django_assert_num_queries(3):
        response = client.get(reverse("table-encounter", args=[encounter.pk]))
    assert response.status_code == 200
    # Unchanged since: the fetch that authorises it, and the page as it was sent
    with django_assert_num_queries(1):
        assert client.get(reverse("table-encounter", args=[encounter.pk])).status_code == 200


# --- A chapter being played -------------------------------------------------------------------


def test_a_modern_chapter_opens_its_encounter_with_the_characters_entered(client, organiser):
    from campaigns.chapters.entries import chapter_entry_enter
    from campaigns.chapters.services import chapter_plan, chapter_start
    from campaigns.services import campaign_add_participant, campaign_create
    from campaigns.systems.entry_kinds import MODERN_SHEET
    from characters.modern.services import modern_character_create
    from rules.table.services import encounter_create_for_chapter

    player = PlayerFactory()
    campaign = campaign_create(organiser=organiser, name="Campagne", system="modern-rpg")
    campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Premier sang")
    lina = modern_character_create(
        owner=player,
        name="Lina",
        characteristics={"reflexes": 10, "endurance": 8, "sang_froid": 10, "empathie": 8},
    )
    # Nobody entered a character: the chapter does not start (nor its encounter).
    with pytest.raises(Refusal, match="Entrez au moins un personnage"):
        chapter_start(actor=organiser, chapter=chapter)
    chapter_entry_enter(actor=player, chapter=chapter, kind=MODERN_SHEET, roster=lina)
    chapter = chapter_start(actor=organiser, chapter=chapter)
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    lina = fighters(encounter)["Lina"]
    assert lina.player == player and lina.state["characteristic"] == 10
    assert encounter.phase == Phase.ATTITUDES
    # The chapter page links to it, and the player acts for Lina only.
    client.force_login(player)
    page = client.get(reverse("chapter-detail", args=[chapter.pk]))
    assert reverse("table-encounter", args=[encounter.pk]) in text(page)


def test_a_corporates_chapter_opens_its_encounter_with_the_sheet_entered(organiser):
    from campaigns.chapters.entries import chapter_entry_enter
    from campaigns.chapters.services import chapter_plan, chapter_start
    from campaigns.services import campaign_add_participant, campaign_create
    from campaigns.systems.entry_kinds import CORPORATES_SHEET
    from characters.corporates.services import corporates_character_create
    from rules.table.services import encounter_create_for_chapter

    player = PlayerFactory(display_name="Vex")
    campaign = campaign_create(organiser=organiser, name="Campagne", system="corporates")
    campaign_add_participant(actor=organiser, campaign=campaign, player=player)
    chapter = chapter_plan(actor=organiser, campaign=campaign, title="Premier sang")
    nyx = corporates_character_create(owner=player, name="Nyx")
    chapter_entry_enter(actor=player, chapter=chapter, kind=CORPORATES_SHEET, roster=nyx)
    chapter = chapter_start(actor=organiser, chapter=chapter)
    encounter = encounter_create_for_chapter(actor=organiser, chapter=chapter)
    assert fighters(encounter)["Nyx"].player == player
    assert encounter.phase == Phase.DECLARE


def test_the_api_twin_plays_a_modern_round(client, organiser, modern):
    client.force_login(organiser)
    by_name = fighters(modern)
    lina, kader = by_name["Lina"].pk, by_name["Kader"].pk
    modern.refresh_from_db()
    took = client.post(
        reverse("api-table-act", args=[modern.pk]),
        {"version": modern.version, "kind": "attitude", "actor": lina, "target": lina,
         "options": {"attitude": "ultra_violent"}},
        content_type="application/json",
    )  # fmt: skip
    assert took.status_code == 200
    refused = client.post(
        reverse("api-table-act", args=[modern.pk]),
        {"kind": "attitude", "actor": lina, "target": lina, "options": {"attitude": "calm"}},
        content_type="application/json",
    )
    assert refused.status_code == 400
    modern.refresh_from_db()
    client.post(
        reverse("api-table-advance", args=[modern.pk]),
        {"version": modern.version},
        content_type="application/json",
    )
    odds = client.post(
        reverse("api-table-odds", args=[modern.pk]),
        {"kind": "attack", "actor": lina, "target": kader},
        content_type="application/json",
    )
    assert odds.status_code == 200 and odds.json()["resolver"] == "combat"
    # Dice by hand up to 12 (a d12 skill would show it); 3 dice: d8, d6, and the d8 of
    # ammunition (+1 when ultra-violent: two).
    hand = client.post(
        reverse("api-table-act", args=[modern.pk]),
        {"kind": "attack", "actor": lina, "target": kader, "dice": {"dice": [1, 2, 3, 4]}},
        content_type="application/json",
    )
    assert hand.status_code == 200


def test_a_corporates_shot_then_its_exploding_damage(organiser, corporates):
    # "Les tirs": short range, base difficulty 5; "Les jets de dégâts des armes à feu ... on
    # rejette et ajoute chaque dé dont le résultat est un 6".
    by_name = fighters(corporates)
    for _ in range(3):
        advance(organiser, corporates)  # segment 3: both act
    shot = {"kind": "shot", "actor": by_name["Garde"].pk, "target": by_name["Vex"].pk}
    corporates.refresh_from_db()
    odds = encounter_odds(
        encounter=corporates, action=ActionInput(**shot, options={"shot_range": "long"})
    )
    assert odds["resolver"] == "shot" and odds["difficulty"] == 20
    entry = act(organiser, corporates, **shot, options={"shot_range": "short"},
                dice={"dice": [1, 1, 1, 1, 1]})  # fmt: skip
    assert entry.data["outcome"]["success"] and entry.data["effects"] == ["hit"]
    # 3 dice, a 6 then its extra die: 6 + 4, 2, 1 = 13 against 2 + 2 soak (1 1): margin 9,
    # two wound levels (a bullet).
    entry = act(organiser, corporates, kind="shot_damage", actor=by_name["Garde"].pk,
                target=by_name["Vex"].pk, options={"amount": 0},
                dice={"damage_rolled": [6, 4, 2, 1], "soak_rolled": [1, 1]})  # fmt: skip
    assert entry.data["outcome"]["wound"] == 2
    assert fighters(corporates)["Vex"].state["wound_levels"] == 2


def test_care_restores_hit_points_and_a_critical_failure_costs_one(organiser, modern):
    # Soins: "Pour chaque blessure/coup reçu, la cible peut bénéficier d'un unique test de
    # soin. Si le test est un échec critique, il fait perdre 1 PV." A success restores a hit
    # point (setting `hp_per_healing_success`, default 1).
    by_name = fighters(modern)
    kader = by_name["Kader"].pk
    act(organiser, modern, kind="damage", target=kader, options={"amount": 6})
    advance(organiser, modern)
    care = {"kind": "care", "actor": by_name["Momo"].pk, "target": kader}
    entry = act(organiser, modern, **care, dice={"dice": [6]})
    assert entry.data["outcome"]["hp"] == 5 and fighters(modern)["Kader"].state["hp"] == 5
    entry = act(organiser, modern, **care, dice={"dice": [1]})
    assert entry.data["outcome"]["hp"] == 4


def test_a_sheetless_shot_says_which_numbers_make_it_certain(client, organiser, corporates):
    # A pick-up fighter shoots with 5 dice + 5 at short range (difficulty 5): every roll
    # hits. The odds say so with the numbers, not a bare "hit 1/1".
    by_name = fighters(corporates)
    for _ in range(3):
        advance(organiser, corporates)
    client.force_login(organiser)
    response = client.get(
        reverse("table-odds", args=[corporates.pk]),
        {"kind": "shot", "actor": by_name["Garde"].pk, "target": by_name["Vex"].pk,
         "shot_range": "short"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    assert response.status_code == 200
    shown = text(response)
    assert "5 dés + 5 contre une difficulté de 5" in shown
    assert "sans fiche" in shown
