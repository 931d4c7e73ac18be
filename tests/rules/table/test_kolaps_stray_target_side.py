"""The stray shot that hits the TARGET's ally, chosen by the target's player after the roll
and applied at the live KOLAPS table (RULES-NOTES K18, docs/table.md).

The text, Tir dans une mêlée: "2-3: Une figurine alliée de la cible reçoit une blessure
légère. La figurine est choisie par le joueur contrôlant la cible. Si la cible est la seule
de son unité, alors le tireur choisi une figurine de son unité [...]" and "6: Un alliée de la
cible présent dans la mêlée ( au choix du joueur de la cible) subit une blessure légère."
K8: "light -2 and a death roll [...] A death roll is 1D6 after the loss, threshold by the new
Santé (6: none, 5: 2, 4: 3, ...); below the threshold the character dies."
"""

import random
from fractions import Fraction
from itertools import product

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from characters.kolaps import services as kolaps
from characters.permissions import Forbidden, Refusal
from rules.engine.registry import resolver_get
from rules.table.kolaps.adapter import ADAPTER as adapter
from rules.table.models import Combatant, EncounterEntry
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_advance,
    encounter_choose_stray,
    encounter_create_standalone,
    encounter_end,
    encounter_odds,
    encounter_reveal,
    encounter_undo,
)
from tests.factories import PlayerFactory
from tests.table_fixtures import hunter_unit, police_unit

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _default_language_after():
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def table():
    """Orga's pick-up game: alice's police (Martel the Avatar, Roux, Blanc) shoot into the
    melee of bruno's hunters (Croc the Avatar, Griffe, Dent); every gauge at 6, the action
    phase of turn 1."""
    orga, alice, bruno = (PlayerFactory(username=n) for n in ("orga", "alice", "bruno"))
    police = police_unit(alice, "Brigade", ("Martel", "Roux", "Blanc"))
    hunters = hunter_unit(bruno, "Meute", ("Croc", "Griffe", "Dent"))
    police = kolaps.unit_share(actor=alice, unit=police, version=police.version)
    hunters = kolaps.unit_share(actor=bruno, unit=hunters, version=hunters.version)
    encounter = encounter_create_standalone(actor=orga, units=[police, hunters])
    encounter_advance(actor=orga, encounter=encounter, version=None)
    return {"orga": orga, "alice": alice, "bruno": bruno, "encounter": encounter}


def _by_name(encounter) -> dict[str, Combatant]:
    return {c.name: c for c in Combatant.objects.filter(encounter=encounter)}


def _shot(c) -> ActionInput:
    return ActionInput(
        kind="ranged",
        actor=c["Blanc"].pk,
        target=c["Croc"].pk,
        distance_cm=20,
        options={"melee_figures": 3, "stray_ally": c["Roux"].pk},
    )


def _miss(encounter, c, action) -> list[int]:
    """The first attack dice that miss (a "failure": the stray-shot D6 follows)."""
    encounter.live_combatants = list(_by_name(encounter).values())
    _name, data = adapter.resolver_input(encounter, c["Blanc"], c["Croc"], action)
    resolver = resolver_get("kolaps", "ranged")
    for faces in product(range(1, 7), repeat=resolver.odds(data)["dice_count"]):
        out = resolver.evaluate({**data, "dice": list(faces), "stray_die": [4], "temper_die": [6]})
        if out.get("row") == "miss":
            return list(faces)
    raise AssertionError("no miss")


def _stray(t, face: int) -> EncounterEntry:
    """Alice's Blanc shoots bruno's Croc in a melee and misses; the stray die shows `face`."""
    encounter = t["encounter"]
    c = _by_name(encounter)
    shot = _shot(c)
    dice = {
        "dice": _miss(encounter, c, shot),
        "stray_die": [face],
        "stray_death_die": [6],
        "temper_die": [6],
    }
    action = ActionInput(**{**shot.__dict__, "dice": dice})
    return encounter_act(actor=t["alice"], encounter=encounter, version=None, action=action)


def _pending(encounter):
    return adapter.pending_stray(list(Combatant.objects.filter(encounter=encounter)))


# --- The pending step ------------------------------------------------------------------------


@pytest.mark.parametrize("face", [2, 3, 6])
def test_it_waits_for_the_target_players_choice_after_a_stray_2_3_or_6(table, face):
    entry = _stray(table, face)
    assert entry.data["outcome"]["stray"]["effect"] == "target_ally_hit"
    assert "stray_pending" in entry.data["effects"]
    target, pending = _pending(table["encounter"])
    # "La figurine est choisie par le joueur contrôlant la cible": nothing applied yet.
    assert target.name == "Croc" and pending["wound"] == "light"
    assert pending["in_melee_only"] is (
        face == 6
    )  # "6: Un alliée de la cible présent dans la mêlée"
    c = _by_name(table["encounter"])
    assert all(c[n].sante == 6 for n in ("Croc", "Griffe", "Dent", "Roux"))


@pytest.mark.parametrize("face", [1, 4, 5])
def test_other_faces_leave_no_choice_to_make(table, face):
    _stray(table, face)
    assert _pending(table["encounter"]) is None


def test_a_target_alone_has_no_ally_to_choose_on_a_6(table):
    encounter = table["encounter"]
    Combatant.objects.filter(encounter=encounter, name__in=["Griffe", "Dent"]).update(
        dead=True, on_ground=True
    )
    _stray(table, 6)
    assert _pending(encounter) is None


def test_the_target_players_page_shows_the_choice_and_the_shooters_does_not(client, table):
    _stray(table, 2)
    url = reverse("table-encounter", args=[table["encounter"].pk])
    client.force_login(table["bruno"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(url).content.decode()
    assert "Stray shot: choose which of Croc's allies is hit" in html
    assert 'id="stray-form"' in html
    c = _by_name(table["encounter"])
    # Griffe and Dent, Santé 6: a light wound leaves 4, a death roll under 3 kills (2/6).
    for name in ("Griffe", "Dent"):
        assert f'value="{c[name].pk}"' in html
    assert f'name="ally" value="{c["Croc"].pk}"' not in html
    assert "Santé 6, dies: 33.3%" in html
    assert 'value="none"' not in html  # 2-3: one of the target's allies is always hit
    client.force_login(table["alice"])
    html = client.get(url).content.decode()
    assert 'id="stray-form"' not in html and "Waiting for Croc's player to choose." in html
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    client.force_login(table["bruno"])
    html = client.get(url, headers={"HX-Request": "true", "HX-Target": "table-state"})
    text = html.content.decode()
    assert "<html" not in text and 'id="stray-form"' in text
    assert "Balle perdue" in text


# --- Nothing else before the choice ----------------------------------------------------------


def test_every_other_action_the_next_phase_a_reveal_and_the_end_wait_for_the_choice(table):
    _stray(table, 3)
    encounter, orga = table["encounter"], table["orga"]
    c = _by_name(encounter)
    translation.activate("en")
    attempts = [
        lambda: encounter_act(actor=orga, encounter=encounter, version=None, action=_shot(c)),
        lambda: encounter_act(
            actor=orga,
            encounter=encounter,
            version=None,
            action=ActionInput(kind="wound", target=c["Dent"].pk, wound="light"),
        ),
        lambda: encounter_advance(actor=orga, encounter=encounter, version=None),
        lambda: encounter_end(actor=orga, encounter=encounter, version=None),
        lambda: encounter_reveal(
            actor=orga, encounter=encounter, version=None, combatant=c["Dent"].pk
        ),
    ]
    for attempt in attempts:
        with pytest.raises(Refusal) as refused:
            attempt()
        assert refused.value.status == 409
        assert "A stray shot hit one of Croc's allies: its player chooses which one" in str(
            refused.value
        )


# --- The choice --------------------------------------------------------------------------------


def test_the_target_player_chooses_and_the_light_wound_and_its_death_roll_apply(table):
    _stray(table, 2)
    encounter = table["encounter"]
    c = _by_name(encounter)
    entry = encounter_choose_stray(
        actor=table["bruno"],
        encounter=encounter,
        version=None,
        ally=c["Griffe"].pk,
        dice={"death_die": [2]},
    )
    after = _by_name(encounter)
    # "blessure légère": -2 Santé and a death roll at Santé 4 (threshold 3): a 2 dies.
    assert after["Griffe"].sante == 4 and after["Griffe"].dead and after["Griffe"].wounds == 1
    assert after["Dent"].sante == 6 and not after["Dent"].dead
    assert after["Blanc"].kills == 1
    # K18: "ally killed -1 [...]; enemy taken out +1", counted for the end phase.
    assert after["Dent"].state["moral_events"] == {"ally_taken_out": 1}
    assert after["Roux"].state["moral_events"] == {"enemy_taken_out": 1}
    assert _pending(encounter) is None
    assert entry.data["kind"] == "stray_choice" and entry.data["by_hand"]
    translation.activate("en")
    text = adapter.action_text(entry.data, "Croc", "Griffe")
    assert text.startswith("Stray shot on Croc's side: Griffe is hit, ")
    assert "(Santé 6 → 4) — killed · dice rolled by hand" in text
    # The next action is allowed again.
    encounter_act(actor=table["orga"], encounter=encounter, version=None, action=_shot(c))


def test_the_servers_death_roll_is_recorded_and_replays(table):
    _stray(table, 3)
    encounter = table["encounter"]
    c = _by_name(encounter)
    random.seed(0)
    entry = encounter_choose_stray(
        actor=table["orga"], encounter=encounter, version=None, ally=c["Dent"].pk
    )
    assert entry.roll is not None and entry.roll.resolver == "death"
    death = resolver_get("kolaps", "death")
    replay = death.roll(entry.roll.inputs, random.Random(entry.roll.seed))
    assert replay == entry.data["outcome"]
    assert death.evaluate({**entry.roll.inputs, "death_die": entry.roll.dice}) == replay
    assert _by_name(encounter)["Dent"].sante == 4


def test_on_a_6_nobody_in_the_melee_is_a_choice_and_on_a_2_it_is_not(table):
    _stray(table, 2)
    encounter = table["encounter"]
    translation.activate("en")
    with pytest.raises(Refusal) as refused:
        encounter_choose_stray(actor=table["bruno"], encounter=encounter, version=None, ally=None)
    assert refused.value.field == "ally"
    assert "This stray shot hits one of Croc's allies: choose which." in str(refused.value)
    encounter_undo(actor=table["alice"], encounter=encounter, version=None)
    _stray(table, 6)
    entry = encounter_choose_stray(
        actor=table["bruno"], encounter=encounter, version=None, ally=None
    )
    assert entry.data["effects"] == ["stray_nobody"] and _pending(encounter) is None
    assert adapter.action_text(entry.data, "Croc", "Croc") == (
        "Stray shot: no ally of Croc in the melee, nobody is hit."
    )
    assert all(c.sante == 6 for c in _by_name(encounter).values())


def test_the_choice_must_be_a_living_ally_of_the_target(table):
    _stray(table, 2)
    encounter = table["encounter"]
    c = _by_name(encounter)
    Combatant.objects.filter(pk=c["Dent"].pk).update(dead=True, on_ground=True)
    translation.activate("en")
    for wrong in (c["Croc"].pk, c["Dent"].pk, c["Roux"].pk, 999999):
        with pytest.raises(Refusal) as refused:
            encounter_choose_stray(
                actor=table["bruno"], encounter=encounter, version=None, ally=wrong
            )
        assert refused.value.field == "ally"
        assert "Choose one of Croc's living allies." in str(refused.value)


def test_there_is_nothing_to_choose_without_a_stray_shot(table):
    with pytest.raises(Refusal) as refused:
        encounter_choose_stray(
            actor=table["orga"], encounter=table["encounter"], version=None, ally=None
        )
    assert refused.value.status == 400


# --- Undo ---------------------------------------------------------------------------------------


def test_undoing_the_choice_brings_the_step_back_and_undoing_the_shot_clears_it(table):
    _stray(table, 2)
    encounter = table["encounter"]
    c = _by_name(encounter)
    encounter_choose_stray(
        actor=table["bruno"],
        encounter=encounter,
        version=None,
        ally=c["Griffe"].pk,
        dice={"death_die": [1]},
    )
    assert _by_name(encounter)["Griffe"].dead
    encounter_undo(actor=table["bruno"], encounter=encounter, version=None)
    back = _by_name(encounter)
    assert not back["Griffe"].dead and back["Griffe"].sante == 6 and back["Blanc"].kills == 0
    assert (back["Dent"].state or {}).get("moral_events") in (None, {})
    assert _pending(encounter)[0].name == "Croc"


def test_undoing_the_shot_while_the_choice_waits_clears_the_step(table):
    _stray(table, 6)
    encounter = table["encounter"]
    # The shot's author undoes the shot itself: the step goes with it, the turn goes on.
    encounter_undo(actor=table["alice"], encounter=encounter, version=None)
    assert _pending(encounter) is None
    assert all(c.sante == 6 and c.moral == 6 for c in _by_name(encounter).values())
    encounter_advance(actor=table["orga"], encounter=encounter, version=None)


# --- Who may choose, over HTTP ------------------------------------------------------------------


def _api(user, language="en"):
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    api.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return api


def test_the_api_lets_the_target_player_choose_and_refuses_the_others(table):
    _stray(table, 2)
    encounter = table["encounter"]
    c = _by_name(encounter)
    url = reverse("api-table-stray", args=[encounter.pk])
    body = {"ally": c["Dent"].pk, "dice": {"death_die": [5]}}
    stranger = PlayerFactory(username="stranger")
    assert _api(stranger).post(url, body, format="json").status_code == 404
    assert _api(None).post(url, body, format="json").status_code in (401, 403)
    shooter = _api(table["alice"]).post(url, body, format="json")
    assert shooter.status_code == 403
    assert "You act only for your own combatants." in str(shooter.json())
    wrong = _api(table["bruno"]).post(url, {"ally": c["Roux"].pk}, format="json")
    assert wrong.status_code == 400 and "Choose one of Croc's living allies." in str(wrong.json())
    bad_dice = _api(table["bruno"]).post(
        url, {"ally": c["Dent"].pk, "dice": {"death_die": [7]}}, format="json"
    )
    assert bad_dice.status_code == 400
    answer = _api(table["bruno"]).post(url, body, format="json")
    assert answer.status_code == 200
    assert answer.json()["stray_choice"] is None
    dent = next(x for x in answer.json()["sides"][1]["combatants"] if x["name"] == "Dent")
    assert dent["sante"] == 4 and not dent["dead"]


def test_the_api_state_shows_the_pending_step_to_everyone_who_sees_the_table(table):
    _stray(table, 6)
    encounter = table["encounter"]
    state = _api(table["alice"]).get(reverse("api-table-encounter", args=[encounter.pk])).json()
    step = state["stray_choice"]
    assert step["target"] == "Croc" and step["shooter"] == "Blanc"
    assert step["in_melee_only"] and not step["can_choose"]
    assert sorted(o["name"] for o in step["options"]) == ["Dent", "Griffe"]
    mine = _api(table["bruno"]).get(reverse("api-table-encounter", args=[encounter.pk])).json()
    assert mine["stray_choice"]["can_choose"]
    watch = _api(None).get(reverse("api-table-watch", args=[encounter.spectator_token])).json()
    assert watch["stray_choice"]["can_choose"] is False


def test_the_page_chooses_by_hand_and_refuses_bad_input_with_a_sentence(client, table):
    _stray(table, 2)
    encounter = table["encounter"]
    c = _by_name(encounter)
    url = reverse("table-stray", args=[encounter.pk])
    client.force_login(table["bruno"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    bad = client.post(url, {"ally": "x", "roll": "server"})
    assert bad.status_code == 400
    assert "Choisissez la figurine que la balle perdue touche." in bad.content.decode()
    no_die = client.post(url, {"ally": c["Dent"].pk, "roll": "hand", "death_die": "9"})
    assert no_die.status_code == 400
    assert "Saisissez un dé, de 1 à 6." in no_die.content.decode()
    done = client.post(url, {"ally": c["Dent"].pk, "roll": "hand", "death_die": "6"})
    assert done.status_code == 302
    assert _by_name(encounter)["Dent"].sante == 4 and _pending(encounter) is None
    client.force_login(table["alice"])
    _stray(table, 3)
    assert client.post(url, {"ally": c["Dent"].pk}).status_code == 403


# --- Odds before the shot -----------------------------------------------------------------------


def test_the_odds_of_a_stray_shot_reaching_the_targets_side_equal_walking_every_die(table):
    encounter = table["encounter"]
    c = _by_name(encounter)
    action = _shot(c)
    odds = encounter_odds(encounter=encounter, action=action)
    encounter.live_combatants = list(c.values())
    _name, data = adapter.resolver_input(encounter, c["Blanc"], c["Croc"], action)
    resolver = resolver_get("kolaps", "ranged")
    count = odds["dice_count"]
    reaches = Fraction(0)
    for faces in product(range(1, 7), repeat=count):
        for stray in range(1, 7):
            typed = {"dice": list(faces), "stray_die": [stray], "temper_die": [6]}
            out = resolver.evaluate({**data, **typed, "stray_death_die": [6]})
            if (out.get("stray") or {}).get("effect") == "target_ally_hit":
                reaches += Fraction(1, 6 ** (count + 1))
    assert reaches > 0
    assert odds["stray_target_side_exact"] == f"{reaches.numerator}/{reaches.denominator}"


def test_the_odds_page_shows_it_and_a_target_alone_has_none(client, table):
    encounter = table["encounter"]
    c = _by_name(encounter)
    client.force_login(table["alice"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    query = {
        "kind": "ranged",
        "actor": c["Blanc"].pk,
        "target": c["Croc"].pk,
        "distance_cm": 20,
        "melee_figures": 3,
        "stray_ally": c["Roux"].pk,
    }
    url = reverse("table-odds", args=[encounter.pk])
    html = client.get(url, query, headers={"HX-Request": "true"}).content.decode()
    odds = encounter_odds(encounter=encounter, action=_shot(c))
    exact = odds["stray_target_side_exact"]
    assert f'id="odds-stray-target-side"><abbr class="chance" title="{exact}"' in html
    Combatant.objects.filter(encounter=encounter, name__in=["Griffe", "Dent"]).update(dead=True)
    assert "stray_target_side_exact" not in encounter_odds(encounter=encounter, action=_shot(c))


def test_a_participant_cannot_choose_for_another_players_target(table):
    _stray(table, 2)
    c = _by_name(table["encounter"])
    with pytest.raises(Forbidden):
        encounter_choose_stray(
            actor=table["alice"], encounter=table["encounter"], version=None, ally=c["Dent"].pk
        )


# --- The engine's reading, face by face -----------------------------------------------------

LIGHT_ANY = {"wound": "light", "in_melee_only": False}
LIGHT_IN_MELEE = {"wound": "light", "in_melee_only": True}


@pytest.mark.parametrize(
    ("die", "target_alone", "expected"),
    [
        (1, False, None),  # "1: La figurine alliée du tireur": the shooter's side
        (2, False, LIGHT_ANY),  # "2-3: Une figurine alliée de la cible reçoit une blessure légère"
        (3, False, LIGHT_ANY),
        (4, False, None),  # "4-5: C'est un échec standard."
        (5, False, None),
        (6, False, LIGHT_IN_MELEE),  # "6: Un alliée de la cible présent dans la mêlée"
        (2, True, None),  # "Si la cible est la seule de son unité": the shooter's figure
        (3, True, None),
        (6, True, None),  # no ally of the target at all
    ],
)
def test_the_engine_reads_which_faces_reach_the_targets_side(die, target_alone, expected):
    from rules.engine.systems.kolaps import at_the_table as k18

    stray = k18.stray_shot(die, target_alone)
    assert k18.target_side_stray(stray, die, target_alone) == expected


def test_a_choice_that_is_not_the_one_waiting_under_the_lock_is_refused(table):
    _stray(table, 2)
    encounter = table["encounter"]
    c = _by_name(encounter)
    # As if read before another device's write: Griffe is not the target whose ally is hit.
    stale = ActionInput(kind="stray_choice", actor=c["Griffe"].pk, target=c["Dent"].pk)
    with pytest.raises(Refusal) as refused:
        encounter_act(actor=table["orga"], encounter=encounter, version=None, action=stale)
    assert refused.value.status == 409
    assert _by_name(encounter)["Dent"].sante == 6 and _pending(encounter) is not None
