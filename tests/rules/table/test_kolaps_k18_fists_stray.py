"""K18's last two items applied by the live KOLAPS encounter (RULES-NOTES K18): "armed fists
(a pistol in melee), the stray shot that hits the shooter's own figure (-1 Moral) when the
target is alone".

The text, Poing armé: "Les personnages utilisant poing armé peuvent utiliser une arme de type
pistolet au corps à corps. Ils utilisent la valeur du talent pistolet au C à C et appliquent
la puissance de l'arme a bout portant." Tir dans une mêlée: "1: La figurine alliée du tireur
[...] reçoit une blessure sérieuse et le tireur perd un point de moral. 2-3: [...] Si la cible
est la seule de son unité, alors le tireur choisi une figurine de son unité et lui applique
la blessure légère. Dans ce dernier cas le tireur perd un point de moral."
"""

from fractions import Fraction
from itertools import product

import pytest
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from characters.permissions import Refusal
from rules.engine.registry import resolver_get
from rules.table.kolaps.adapter import ADAPTER as adapter
from rules.table.models import Combatant
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_advance,
    encounter_create_standalone,
    encounter_odds,
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
    """Police (Martel the Avatar, Roux, Blanc: aguerris with a pistol) against hunters (Croc
    the Avatar, Griffe, Dent), every gauge at 6, in the action phase of turn 1. Roux has
    Poing armé and Pistolet 2."""
    orga = PlayerFactory(username="orga")
    police = police_unit(orga, "Brigade", ("Martel", "Roux", "Blanc"))
    hunters = hunter_unit(orga, "Meute", ("Croc", "Griffe", "Dent"))
    encounter = encounter_create_standalone(actor=orga, units=[police, hunters])
    encounter_advance(actor=orga, encounter=encounter, version=None)
    roux = Combatant.objects.get(encounter=encounter, name="Roux")
    Combatant.objects.filter(pk=roux.pk).update(
        talents={**roux.talents, "pistolet": 2, "poing-arme": 1}
    )
    return orga, encounter


def _by_name(encounter) -> dict[str, Combatant]:
    return {c.name: c for c in Combatant.objects.filter(encounter=encounter)}


# --- Armed fists ---------------------------------------------------------------------------


def test_armed_fists_fight_with_the_pistolet_expertise_and_the_pistol(table):
    orga, encounter = table
    c = _by_name(encounter)
    action = ActionInput(
        kind="melee", actor=c["Roux"].pk, target=c["Griffe"].pk, options={"armed_fist": True}
    )
    odds = encounter_odds(encounter=encounter, action=action)
    # "Ils utilisent la valeur du talent pistolet au C à C": Pistolet 2 is the expertise.
    assert {"source": "expertise", "value": 2} in odds["score_modifiers"]["a"]
    plain = encounter_odds(
        encounter=encounter,
        action=ActionInput(kind="melee", actor=c["Roux"].pk, target=c["Griffe"].pk),
    )
    assert odds["score_modifiers"]["a"] != plain["score_modifiers"]["a"]
    entry = encounter_act(actor=orga, encounter=encounter, version=None, action=action)
    assert entry.data["inputs"]["a"] == {**entry.data["inputs"]["a"], "armed_fist": True}
    assert entry.data["inputs"]["a"]["weapon"] == "pa-police-50"


def test_armed_fists_without_poing_arme_are_refused_with_a_sentence(table):
    orga, encounter = table
    c = _by_name(encounter)
    action = ActionInput(
        kind="melee", actor=c["Blanc"].pk, target=c["Griffe"].pk, options={"armed_fist": True}
    )
    with pytest.raises(Refusal) as refused:
        encounter_act(actor=orga, encounter=encounter, version=None, action=action)
    assert refused.value.field == "armed_fist"
    assert "Poing armé" in str(refused.value)


def test_the_action_form_offers_armed_fists_only_to_who_has_them(client, table):
    orga, encounter = table
    client.force_login(orga)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    assert 'name="armed_fist"' in html and "Poings armés (un pistolet" in html
    # Written behind the services' back (no version counted), as no page does: the page
    # kept for the first read is forgotten, as a new release would.
    Combatant.objects.filter(encounter=encounter, name="Roux").update(talents={})
    cache.clear()
    html = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    assert 'name="armed_fist"' not in html


# --- The stray shot on the shooter's own side ----------------------------------------------


def _alone(encounter):
    """Croc alone on its side: Griffe and Dent are dead."""
    Combatant.objects.filter(encounter=encounter, name__in=["Griffe", "Dent"]).update(
        dead=True, on_ground=True
    )


def _shot(c, **options):
    return ActionInput(
        kind="ranged",
        actor=c["Blanc"].pk,
        target=c["Croc"].pk,
        distance_cm=20,
        options={"melee_figures": 2, **options},
    )


def _a_miss(encounter, c, action) -> list[int]:
    """The first attack dice that miss (a "failure": the stray-shot D6 follows)."""
    encounter.live_combatants = list(_by_name(encounter).values())
    _name, data = adapter.resolver_input(encounter, c["Blanc"], c["Croc"], action)
    resolver = resolver_get("kolaps", "ranged")
    for faces in product(range(1, 7), repeat=resolver.odds(data)["dice_count"]):
        out = resolver.evaluate({**data, "dice": list(faces), "stray_die": [4], "temper_die": [6]})
        if out.get("row") == "miss":
            return list(faces)
    raise AssertionError("no miss")


def test_a_stray_2_on_an_alone_target_wounds_the_ally_named_and_costs_the_shooter_moral(table):
    orga, encounter = table
    _alone(encounter)
    c = _by_name(encounter)
    # A failure (miss), the stray die 2 with the target alone, the ally's death roll 1.
    shot = _shot(c, stray_ally=c["Roux"].pk)
    dice = {"dice": _a_miss(encounter, c, shot), "stray_die": [2], "stray_death_die": [1]}
    action = ActionInput(**{**shot.__dict__, "dice": dice})
    entry = encounter_act(actor=orga, encounter=encounter, version=None, action=action)
    stray = entry.data["outcome"]["stray"]
    assert stray["effect"] == "shooter_own_figure_hit" and stray["ally_wound"] == "light"
    after = _by_name(encounter)
    # "applique la blessure légère" (-2 Santé, death roll at Santé 4: threshold 3, a 1 dies)
    assert after["Roux"].dead and after["Roux"].sante == 4
    assert after["Blanc"].moral == 5  # "le tireur perd un point de moral"
    assert {"stray_moral", "stray_ally_killed"} <= set(entry.data["effects"])
    encounter_undo(actor=orga, encounter=encounter, version=None)
    back = _by_name(encounter)
    assert not back["Roux"].dead and back["Roux"].sante == 6 and back["Blanc"].moral == 6
    assert (back["Martel"].state or {}).get("moral_events") in (None, {})


def test_a_stray_2_on_a_target_with_allies_hits_the_target_side_not_the_shooters(table):
    orga, encounter = table
    c = _by_name(encounter)
    shot = _shot(c, stray_ally=c["Roux"].pk)
    dice = {"dice": _a_miss(encounter, c, shot), "stray_die": [2], "stray_death_die": [1]}
    action = ActionInput(**{**shot.__dict__, "dice": dice})
    entry = encounter_act(actor=orga, encounter=encounter, version=None, action=action)
    assert entry.data["outcome"]["stray"]["effect"] == "target_ally_hit"
    after = _by_name(encounter)
    assert after["Roux"].sante == 6 and after["Blanc"].moral == 6


def test_the_stray_ally_must_be_a_living_ally_of_the_shooter(table):
    orga, encounter = table
    c = _by_name(encounter)
    for wrong in (c["Griffe"].pk, c["Blanc"].pk, "x"):
        with pytest.raises(Refusal) as refused:
            encounter_act(
                actor=orga, encounter=encounter, version=None, action=_shot(c, stray_ally=wrong)
            )
        assert refused.value.field == "stray_ally"
    with pytest.raises(Refusal) as refused:  # into a melee, the ally must be named
        encounter_act(actor=orga, encounter=encounter, version=None, action=_shot(c))
    assert refused.value.field == "stray_ally"
    not_melee = _shot(c, stray_ally=c["Roux"].pk, melee_figures=0)
    with pytest.raises(Refusal):
        encounter_act(actor=orga, encounter=encounter, version=None, action=not_melee)


def test_the_odds_of_the_ally_dying_equal_walking_every_die(table):
    _orga, encounter = table
    _alone(encounter)
    c = _by_name(encounter)
    action = _shot(c, stray_ally=c["Roux"].pk)
    odds = encounter_odds(encounter=encounter, action=action)
    resolver = resolver_get("kolaps", "ranged")
    encounter.live_combatants = list(_by_name(encounter).values())
    _name, data = adapter.resolver_input(encounter, c["Blanc"], c["Croc"], action)
    count = odds["dice_count"]
    dies = Fraction(0)
    for faces in product(range(1, 7), repeat=count):
        for stray, death in product(range(1, 7), repeat=2):
            typed = {"dice": list(faces), "stray_die": [stray], "stray_death_die": [death]}
            out = resolver.evaluate({**data, **typed, "temper_die": [6]})
            if ((out.get("stray") or {}).get("ally") or {}).get("killed"):
                dies += Fraction(1, 6 ** (count + 2))
    assert odds["follow_up"]["stray:ally_dies"] == pytest.approx(float(dies), abs=1e-12)
    assert dies > 0


def test_the_odds_page_shows_the_chance_the_stray_ally_dies_and_refuses_a_wrong_ally(client, table):
    orga, encounter = table
    _alone(encounter)
    c = _by_name(encounter)
    client.force_login(orga)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    query = {
        "kind": "ranged",
        "actor": c["Blanc"].pk,
        "target": c["Croc"].pk,
        "distance_cm": 20,
        "melee_figures": 2,
        "stray_ally": c["Roux"].pk,
    }
    url = reverse("table-odds", args=[encounter.pk])
    html = client.get(url, query, headers={"HX-Request": "true"}).content.decode()
    odds = encounter_odds(encounter=encounter, action=_shot(c, stray_ally=c["Roux"].pk))
    assert "L\u2019allié du tireur touché par une balle perdue meurt" in html
    exact = odds["stray_ally_dies_exact"]
    assert f'id="odds-stray-ally-dies"><abbr class="chance" title="{exact}"' in html
    wrong = client.get(url, {**query, "stray_ally": c["Croc"].pk}, headers={"HX-Request": "true"})
    text = wrong.content.decode().replace("\u00a0", " ").replace("\u202f", " ")
    assert "Une balle perdue dans le camp du tireur touche l\u2019un de ses alliés vivants" in text


def test_the_api_takes_armed_fists_and_the_stray_ally_in_options_with_sentences(table):
    orga, encounter = table
    c = _by_name(encounter)
    api = APIClient()
    api.force_authenticate(orga)
    api.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("api-table-act", args=[encounter.pk])
    fists = {"kind": "melee", "target": c["Griffe"].pk, "options": {"armed_fist": True}}
    refused = api.post(url, {**fists, "actor": c["Blanc"].pk}, format="json")
    assert refused.status_code == 400
    assert "Armed fists need the Poing armé talent and a pistol." in str(refused.json())
    assert api.post(url, {**fists, "actor": c["Roux"].pk}, format="json").status_code == 200
    shot = {
        "kind": "ranged",
        "actor": c["Blanc"].pk,
        "target": c["Dent"].pk,
        "options": {"melee_figures": 2, "stray_ally": c["Croc"].pk},
    }
    wrong = api.post(url, shot, format="json")
    assert wrong.status_code == 400
    assert "hits one of its living allies: choose one." in str(wrong.json())
    named = {**shot, "options": {"melee_figures": 2, "stray_ally": c["Martel"].pk}}
    assert api.post(url, named, format="json").status_code == 200
