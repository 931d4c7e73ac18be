"""Rapid 40000 at the live table: two armies, each squad a combatant with its figures, every
roll through the engine's Rapid 40000 resolvers (odds before the dice, the server's roll
recorded and replayable, or the dice typed in), casualties removed weakest first and the
leader last (R2), undo, the spectator's screen, a pick-up game from the page and its API
twin, and a chapter's encounter whose end tells the chapter the figures lost per squad."""

import random

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from campaigns.chapters.entries import chapter_army_enter
from campaigns.chapters.services import chapter_start
from campaigns.services import campaign_add_participant
from campaigns.systems.rapid40k import squad_figures
from characters.permissions import Refusal
from characters.rapid40k import services as armies
from rules.engine.registry import resolver_get
from rules.table.models import Combatant, Encounter
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_advance,
    encounter_create_armies,
    encounter_end,
    encounter_odds,
    encounter_undo,
)
from rules.table.services import play as table_services
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

BOLTER_MARINE = {"quality": 3, "combat": 3, "weapon": "bolter", "special_rules": []}
MISSILE_MARINE = {"quality": 3, "combat": 3, "weapon": "lance_missile", "special_rules": []}
BOY = {"quality": 4, "combat": 3, "weapon": "fling", "special_rules": ["charge_feroce"]}


def _army(owner, name: str, faction: str, squads: list[dict]):
    return armies.army_import(
        owner=owner,
        payload={
            "format": "chronique.rapid40k.army",
            "format_version": 1,
            "name": name,
            "faction": faction,
            "squads": squads,
        },
    )


def marines(owner, squads: int = 1, vehicle: bool = False, command: bool = False):
    rows = [
        {
            "name": f"Tactique {n}" if n else "Tactique",
            "slot": "troops",
            "leader": "space_marines:sergent",
            "fighters": [{**BOLTER_MARINE, "count": 4}, {**MISSILE_MARINE, "count": 1}],
        }
        for n in range(squads)
    ]
    if vehicle:
        rows.append({"name": "Rhino", "slot": "support", "vehicle": "rhino"})
    if command:
        captain = {"leader": "space_marines:capitaine", "fighters": [{**BOLTER_MARINE, "count": 3}]}
        rows.insert(0, {"name": "Capitaine", "slot": "command", **captain})
    return _army(owner, "Ultramarines", "space_marines", rows)


def orks(owner, squads: int = 1):
    return _army(
        owner,
        "Waaagh",
        "orks",
        [
            {
                "name": f"Boyz {n}" if n else "Boyz",
                "slot": "troops",
                "leader": "orks:nob",
                "fighters": [{**BOY, "count": 5}],
            }
            for n in range(squads)
        ],
    )


@pytest.fixture(autouse=True)
def english():
    """The refusals' sentences in English, as the tests quote them."""
    with translation.override("en"):
        yield


@pytest.fixture
def game():
    alice, bruno = PlayerFactory(username="alice"), PlayerFactory(username="bruno")
    theirs = orks(bruno)
    theirs = armies.army_share(actor=bruno, army=theirs, version=theirs.version, shared=True)
    encounter = encounter_create_armies(actor=alice, armies=[marines(alice, vehicle=True), theirs])
    return encounter, alice, bruno


def squads(encounter) -> dict[str, Combatant]:
    return {c.name: c for c in Combatant.objects.filter(encounter=encounter)}


def act(player, encounter, **action):
    encounter.refresh_from_db()
    return encounter_act(
        actor=player, encounter=encounter, version=encounter.version, action=ActionInput(**action)
    )


def test_each_squad_is_a_combatant_with_its_figures_weakest_first_and_the_leader_last(game):
    encounter, alice, bruno = game
    s = squads(encounter)
    tactique = s["Tactique"].state["figures"]
    # R1 prices each figure; R2 removes "en commençant par la figurine la plus faible ... le
    # chef le dernier": the four 68-point marines, the 112-point missile, the sergeant.
    assert [f["points"] for f in tactique] == [68, 68, 68, 68, 112, 88]
    assert tactique[-1]["leader"] and tactique[-1]["weapon"] == "bolter"
    assert s["Boyz"].player == bruno and s["Tactique"].player == alice
    assert s["Rhino"].state["vehicle"] == "rhino" and len(s["Rhino"].state["figures"]) == 1
    assert {c.side for c in s.values()} == {"Ultramarines", "Waaagh"}


def test_a_shot_that_beats_the_resistance_removes_the_weakest_figure(game):
    """R2, Combat à distance: one D6 per figure with the weapon + the leader's C + the
    weapon's bonus, against one D6 per target figure + its leader's C; "si la puissance de
    feu est plus grande que la résistance, l'attaquant remporte le combat"."""
    encounter, alice, _bruno = game
    s = squads(encounter)
    odds = encounter_odds(
        encounter=encounter,
        action=ActionInput(kind="shoot", actor=s["Tactique"].pk, target=s["Boyz"].pk),
    )
    # Five bolters (the four marines and the sergeant) at C3 + 1 against six Orks at C3.
    assert (odds["resolver"], odds["a_dice_count"], odds["a_modifier"]) == ("shooting", 5, 4)
    assert (odds["b_dice_count"], odds["b_modifier"]) == (6, 3)
    entry = act(
        alice, encounter, kind="shoot", actor=s["Tactique"].pk, target=s["Boyz"].pk,
        dice={"a_dice": [6, 6, 6, 6, 6], "b_dice": [1, 1, 1, 1, 1, 1]},
    )  # fmt: skip
    assert entry.data["outcome"]["outcome"] == "hit"
    boyz = squads(encounter)["Boyz"]
    assert len(boyz.state["figures"]) == 5 and boyz.state["lost"][0]["points"] == 56
    assert boyz.state["figures"][-1]["leader"]  # the Nob goes last
    assert squads(encounter)["Tactique"].kills == 1


def test_a_shot_that_does_not_beat_the_resistance_removes_nobody(game):
    """R2: "En cas d'égalité ... aucune n'est retirée du jeu"."""
    encounter, alice, _bruno = game
    s = squads(encounter)
    entry = act(
        alice, encounter, kind="shoot", actor=s["Tactique"].pk, target=s["Boyz"].pk,
        dice={"a_dice": [1, 1, 1, 1, 1], "b_dice": [1, 1, 1, 1, 1, 2]},
    )  # fmt: skip
    # 5 + 4 = 9 against 7 + 3 = 10.
    assert entry.data["outcome"]["outcome"] == "no_effect"
    assert len(squads(encounter)["Boyz"].state["figures"]) == 6


def test_the_servers_roll_is_recorded_and_replays_from_its_seed(game, monkeypatch):
    encounter, alice, _bruno = game
    s = squads(encounter)
    monkeypatch.setattr(table_services.secrets, "randbits", lambda _bits: 7)
    entry = act(alice, encounter, kind="shoot", actor=s["Tactique"].pk, target=s["Boyz"].pk)
    assert entry.roll is not None and entry.roll.seed == 7 and entry.roll.resolver == "shooting"
    replay = resolver_get("rapid40k", "shooting").roll(entry.roll.inputs, random.Random(7))
    assert replay == entry.data["outcome"]
    lost = 1 if replay["outcome"] == "hit" else 0
    assert len(squads(encounter)["Boyz"].state["figures"]) == 6 - lost


def test_the_loser_of_a_melee_loses_a_figure_and_both_squads_are_engaged(game):
    """R2, Combat au corps à corps: one D6 per engaged figure + the leader's C + bonuses
    (Charge féroce: "ajoute C+1 lors de l'attaque au corps à corps réalisée directement
    après la charge"); "le joueur qui perd retire une figurine du jeu"."""
    encounter, _alice, bruno = game
    s = squads(encounter)
    odds = encounter_odds(
        encounter=encounter,
        action=ActionInput(
            kind="melee", actor=s["Boyz"].pk, target=s["Tactique"].pk, options={"charged": True}
        ),
    )
    assert (odds["a_dice_count"], odds["a_modifier"], odds["b_modifier"]) == (6, 4, 3)
    entry = act(
        bruno, encounter, kind="melee", actor=s["Boyz"].pk, target=s["Tactique"].pk,
        options={"charged": True},
        dice={"a_dice": [4, 4, 4, 4, 4, 4], "b_dice": [3, 3, 3, 3, 3, 3]},
    )  # fmt: skip
    assert entry.data["outcome"]["outcome"] == "a_wins"
    after = squads(encounter)
    assert len(after["Tactique"].state["figures"]) == 5
    assert after["Tactique"].state["engaged"] and after["Boyz"].state["engaged"]


def test_overwatch_needs_the_marker_and_gives_the_target_its_malus(game):
    """Règles de l'OVERWATCH: "L'ennemie à un malus de -1 à son jet de combat"; the marker is
    placed in the squad's activation (2 action points)."""
    encounter, alice, _bruno = game
    s = squads(encounter)
    shot = {"actor": s["Tactique"].pk, "target": s["Boyz"].pk}
    with pytest.raises(Refusal, match="not in overwatch"):
        act(alice, encounter, kind="overwatch", **shot)
    act(alice, encounter, kind="set_overwatch", actor=s["Tactique"].pk, target=s["Tactique"].pk)
    assert squads(encounter)["Tactique"].state["overwatch"]
    odds = encounter_odds(encounter=encounter, action=ActionInput(kind="overwatch", **shot))
    assert (odds["resolver"], odds["b_modifier"]) == ("overwatch", 3 - 1)
    entry = act(
        alice, encounter, kind="overwatch", **shot,
        dice={"a_dice": [2, 2, 2, 2, 2], "b_dice": [1, 1, 1, 1, 1, 2]},
    )  # fmt: skip
    # 10 + 4 = 14 against 7 + 3 - 1 = 9: a figure falls; the marker stays.
    assert entry.data["outcome"]["outcome"] == "hit"
    assert squads(encounter)["Tactique"].state["overwatch"]


def test_three_failed_morale_dice_rout_the_squad_out_of_the_game(game):
    """Le Moral: 3 dice against the leader's Quality; "avec trois échecs, l'unité est en
    déroute (l'unité est retirée du jeu)"; one failure: it flees one move."""
    encounter, alice, _bruno = game
    s = squads(encounter)
    morale = {"kind": "morale", "actor": s["Tactique"].pk, "target": s["Tactique"].pk}
    act(alice, encounter, **morale, dice={"dice": [6, 5, 1]})
    assert squads(encounter)["Tactique"].state["fleeing"] == "flees_one_move"
    act(alice, encounter, **morale, dice={"dice": [1, 2, 1]})
    tactique = squads(encounter)["Tactique"]
    assert tactique.dead and tactique.state["routed"] and len(tactique.state["lost"]) == 6


def test_a_squad_brought_to_half_its_number_must_test_its_morale(game, client):
    """Le Moral: "quand le nombre de départ de l'unité est diminué de moitié (en arrondissant
    à l'entier inférieur)": six Orks, the third lost."""
    encounter, alice, _bruno = game
    boyz = squads(encounter)["Boyz"]
    for _n in range(2):
        act(alice, encounter, kind="remove", target=boyz.pk)
    assert not squads(encounter)["Boyz"].state["morale_due"]
    entry = act(alice, encounter, kind="remove", target=boyz.pk)
    assert "morale_due" in entry.data["effects"]
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    assert "must test its morale" in page and "3/6" in page


def test_disengaging_takes_two_successes(game):
    """Désengagement: "Sur deux réussite ou plus l'unité se désengage"."""
    encounter, _alice, bruno = game
    s = squads(encounter)
    disengage = {"kind": "disengage", "actor": s["Boyz"].pk, "target": s["Boyz"].pk}
    with pytest.raises(Refusal, match="not engaged"):
        act(bruno, encounter, **disengage)
    act(
        bruno, encounter, kind="melee", actor=s["Boyz"].pk, target=s["Tactique"].pk,
        dice={"a_dice": [3] * 6, "b_dice": [3] * 6},
    )  # fmt: skip
    act(bruno, encounter, **disengage, dice={"dice": [4, 1, 1]})  # Quality 4+: one success
    assert squads(encounter)["Boyz"].state["engaged"]
    act(bruno, encounter, **disengage, dice={"dice": [4, 6, 1]})
    assert not squads(encounter)["Boyz"].state["engaged"]


def test_a_missile_that_wins_by_more_than_one_destroys_the_vehicle(game):
    """Véhicules blindés: the Quality roll first (two failures deviate), then 1D6 + C + the
    weapon's bonus against 1D6 + the vehicle's C; won by 1 immobilises, by more destroys."""
    encounter, alice, bruno = game
    s = squads(encounter)
    with pytest.raises(Refusal, match="missile or an explosive charge"):
        act(bruno, encounter, kind="shoot", actor=s["Boyz"].pk, target=s["Rhino"].pk)
    with pytest.raises(Refusal, match="no missile launcher"):
        act(bruno, encounter, kind="vehicle", actor=s["Boyz"].pk, target=s["Rhino"].pk)
    charge = {"kind": "vehicle", "actor": s["Boyz"].pk, "target": s["Rhino"].pk}
    act(bruno, encounter, **charge, options={"vehicle_attack": "explosive_charge"},
        dice={"deviation_dice": [5, 6, 1]})  # fmt: skip
    assert squads(encounter)["Rhino"].state["immobilised"]
    # alice's missile at her own Rhino (the table does not judge friendly fire): Quality 3+.
    entry = act(
        alice, encounter, kind="vehicle", actor=s["Tactique"].pk, target=s["Rhino"].pk,
        dice={"deviation_dice": [3, 3, 3], "a_dice": [6], "b_dice": [1]},
    )  # fmt: skip
    # 6 + 3 + 2 = 11 against 1 + 3 = 4.
    assert entry.data["outcome"]["outcome"] == "destroyed"
    assert squads(encounter)["Rhino"].dead


def test_undo_puts_the_figure_back(game):
    encounter, alice, _bruno = game
    s = squads(encounter)
    act(
        alice, encounter, kind="shoot", actor=s["Tactique"].pk, target=s["Boyz"].pk,
        dice={"a_dice": [6] * 5, "b_dice": [1] * 6},
    )  # fmt: skip
    encounter.refresh_from_db()
    encounter_undo(actor=alice, encounter=encounter, version=encounter.version)
    assert len(squads(encounter)["Boyz"].state["figures"]) == 6
    assert squads(encounter)["Tactique"].kills == 0


def test_a_player_acts_only_for_their_own_squads(game):
    encounter, _alice, bruno = game
    s = squads(encounter)
    with pytest.raises(Refusal):
        act(bruno, encounter, kind="shoot", actor=s["Tactique"].pk, target=s["Boyz"].pk)
    with pytest.raises(Refusal):
        act(bruno, encounter, kind="remove", target=s["Tactique"].pk)


def test_the_spectator_sees_the_squads_and_no_form(game, client):
    encounter, alice, _bruno = game
    s = squads(encounter)
    act(
        alice, encounter, kind="shoot", actor=s["Tactique"].pk, target=s["Boyz"].pk,
        dice={"a_dice": [6] * 5, "b_dice": [1] * 6},
    )  # fmt: skip
    encounter.refresh_from_db()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(reverse("table-watch", args=[encounter.spectator_token]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Boyz" in html and "5/6" in html and 'id="action-form"' not in html
    assert "a figure falls" in html


def test_the_page_offers_the_squads_weapons_and_the_api_answers_the_same(game, client):
    encounter, alice, _bruno = game
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    assert 'name="squad_weapon"' in html and 'name="deviation_dice"' in html
    assert 'name="wound"' not in html  # KOLAPS's fields stay KOLAPS's
    api = APIClient()
    api.force_authenticate(alice)
    s = squads(encounter)
    answer = api.post(
        reverse("api-table-act", args=[encounter.pk]),
        {
            "version": 1, "kind": "shoot", "actor": s["Tactique"].pk, "target": s["Boyz"].pk,
            "dice": {"a_dice": [6] * 5, "b_dice": [1] * 6},
        },
        format="json",
    )  # fmt: skip
    assert answer.status_code == 200
    boyz = next(
        c for side in answer.json()["sides"] for c in side["combatants"] if c["name"] == "Boyz"
    )
    assert "5/6" in [value for _label, value in boyz["state_lines"]]


def test_a_pick_up_game_of_two_armies_from_the_page_and_its_api_twin(client):
    alice, bruno = PlayerFactory(), PlayerFactory()
    mine, other = marines(alice), orks(bruno)
    client.force_login(alice)
    page = client.get(reverse("table-new")).content.decode()
    assert 'id="armies-form"' in page and "Ultramarines" in page
    response = client.post(
        reverse("table-new"),
        {"armies": "1", "first_army": mine.pk, "second_army": mine.pk, "armies_title": ""},
    )
    assert response.status_code == 400  # two different lists
    api = APIClient()
    api.force_authenticate(alice)
    # Another player's list is taken by its share token only, never by its number.
    refused = api.post(
        reverse("api-table-new"), {"system": "rapid40k", "armies": [mine.pk, other.pk]},
        format="json",
    )  # fmt: skip
    assert refused.status_code == 400
    other = armies.army_share(actor=bruno, army=other, version=other.version, shared=True)
    made = api.post(
        reverse("api-table-new"),
        {"system": "rapid40k", "armies": [mine.pk], "shared_armies": [other.share_token]},
        format="json",
    )
    assert made.status_code == 201 and made.json()["system"] == "rapid40k"
    assert [s["name"] for s in made.json()["sides"]] == ["Ultramarines", "Waaagh"]


@pytest.mark.parametrize("per_army", [2, 10])
def test_the_page_reads_in_a_fixed_number_of_queries(client, django_assert_num_queries, per_army):
    alice = PlayerFactory()
    encounter = encounter_create_armies(
        actor=alice, armies=[marines(alice, squads=per_army), orks(alice, squads=per_army)]
    )
    assert Combatant.objects.filter(encounter=encounter).count() == 2 * per_army
    client.force_login(alice)
    url = reverse("table-encounter", args=[encounter.pk])
    client.get(url)
    encounter_advance(actor=alice, encounter=encounter, version=None)
    with django_assert_num_queries(3):
        assert client.get(url).status_code == 200
    with django_assert_num_queries(1):
        assert client.get(url).status_code == 200


def test_a_started_chapter_opens_its_table_and_its_end_tells_the_figures_lost(roles, client):
    """The chapter with two armies entered opens its table as a KOLAPS chapter does; the end
    writes, per army and squad, the figures lost and their points, for the close."""
    organiser, campaign = roles["organiser"], roles["rapid40k_campaign"]
    chapter = roles["rapid40k_chapter"]

    other = PlayerFactory()
    campaign_add_participant(actor=organiser, campaign=campaign, player=other)
    chapter_army_enter(actor=other, chapter=chapter, army=marines(other, squads=2, command=True))
    chapter_start(actor=organiser, chapter=chapter)
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    detail = client.get(reverse("chapter-detail", args=[chapter.pk])).content.decode()
    assert reverse("chapter-table", args=[chapter.pk]) in detail
    response = client.post(reverse("chapter-table", args=[chapter.pk]))
    encounter = Encounter.objects.get(chapter=chapter)
    assert response.status_code == 302 and encounter.system == "rapid40k"
    s = squads(encounter)
    act(
        organiser, encounter, kind="shoot", actor=s["Tactique"].pk, target=s["Boyz 1"].pk,
        dice={"a_dice": [6] * 5, "b_dice": [1] * 5},
    )  # fmt: skip
    encounter.refresh_from_db()
    encounter_end(actor=organiser, encounter=encounter, version=encounter.version)
    chapter.refresh_from_db()
    record = chapter.table_record
    army = record["armies"][str(roles["participant_army"].pk)]
    lost = {row["name"]: (row["lost"], row["points_lost"]) for row in army["squads"]}
    # RULES-NOTES CL2: "for each enemy squad, its cost (R1) divided by its figures, times
    # the figures it lost" (the squad's cost, as the settlement counts it, not the price of
    # the figure removed).
    boyz = roles["participant_army"].squads.get(name="Boyz 1")
    assert lost["Boyz 1"] == (1, boyz.points // squad_figures(boyz.vehicle, boyz.leader,
                                                              boyz.fighters))  # fmt: skip
    assert lost["Boyz 1"] != (1, 56) and lost["Boss"] == (0, 0)
    assert army["player"] == roles["participant"].pk and army["figures_lost"] == 1


def test_see_the_odds_lists_every_outcome_before_the_dice(game, client):
    encounter, alice, _bruno = game
    s = squads(encounter)
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(
        reverse("table-odds", args=[encounter.pk]),
        {"kind": "shoot", "actor": s["Tactique"].pk, "target": s["Boyz"].pk, "roll": "server"},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert "Hit: the target removes a figure" in html and "No effect" in html
