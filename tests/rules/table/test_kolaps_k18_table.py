"""K18 applied by the live KOLAPS encounter (RULES-NOTES K18):

"Rules of the text that a tracker applies at the table, as written: Moral effects by value
(both tables), Moral changes from events (ally killed -1, Novices -2; enemy taken out +1; an
order that cannot be followed -1), falls (a Novice rolling 1 takes a light wound), a figure
on the ground (static, +3 DB, quarter move), [...] and level 0 of inhuman metabolism
regenerating 1 Santé in the end phase."

With K8: "lethal: killed, attacker +2 Moral, the target's allies within 25 cm -1 Moral". The
server knows no distances: the acting player ticks the allies within 25 cm (none unless
ticked)."""

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from characters.permissions import Refusal
from rules.table.cards import table_card
from rules.table.models import Combatant
from rules.table.selectors import encounter_get_for_user
from rules.table.services import (
    ActionInput,
    encounter_act,
    encounter_advance,
    encounter_create_standalone,
    encounter_undo,
)
from tests.factories import PlayerFactory
from tests.table_fixtures import hunter_unit, police_unit

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _default_language_after():
    """The English pages below leave English active in this thread: the next tests start in
    the default language."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def table():
    """Police (Martel the Avatar, Roux, Blanc: APC, aguerris) against hunters (Croc the
    Avatar, Griffe, Dent: Sheol, inhuman metabolism level 0), every gauge at 6, in the
    action phase of turn 1."""
    orga = PlayerFactory(username="orga")
    police = police_unit(orga, "Brigade", ("Martel", "Roux", "Blanc"))
    hunters = hunter_unit(orga, "Meute", ("Croc", "Griffe", "Dent"))
    encounter = encounter_create_standalone(actor=orga, units=[police, hunters])
    encounter_advance(actor=orga, encounter=encounter, version=None)
    return orga, encounter


def _by_name(encounter) -> dict[str, Combatant]:
    return {c.name: c for c in Combatant.objects.filter(encounter=encounter)}


def _wound(orga, encounter, target, wound, allies=(), death_die=6):
    action = ActionInput(
        kind="wound",
        target=target.pk,
        wound=wound,
        dice={"death_die": [death_die]},
        options={"allies_near": [a.pk for a in allies]},
    )
    return encounter_act(actor=orga, encounter=encounter, version=None, action=action)


def test_a_lethal_wound_costs_the_allies_ticked_within_25_cm_1_moral_at_once(table):
    orga, encounter = table
    c = _by_name(encounter)
    entry = _wound(orga, encounter, c["Roux"], "lethal", allies=[c["Blanc"], c["Martel"]])
    after = _by_name(encounter)
    assert after["Roux"].dead
    # "the target's allies within 25 cm -1 Moral"; the Avatar's Moral never changes (K13).
    assert (after["Blanc"].moral, after["Martel"].moral) == (5, 6)
    assert "allies_moral" in entry.data["effects"]


def test_no_ally_ticked_no_moral_lost_at_once(table):
    orga, encounter = table
    c = _by_name(encounter)
    _wound(orga, encounter, c["Roux"], "lethal")
    assert _by_name(encounter)["Blanc"].moral == 6


def test_the_turns_events_change_moral_in_the_end_phase(table):
    """Roux killed: "ally killed -1" for Blanc (an aguerri), "enemy taken out +1" counted
    for every hunter (at 6 they stay at 6: the gauge tops at 6)."""
    orga, encounter = table
    c = _by_name(encounter)
    _wound(orga, encounter, c["Dent"], "superficial")  # Santé 6 -> 5, no Moral lost by it
    _wound(orga, encounter, c["Roux"], "lethal", allies=[c["Blanc"]])
    before = _by_name(encounter)
    assert before["Blanc"].state["moral_events"] == {"ally_taken_out": 1}
    assert before["Dent"].state["moral_events"] == {"enemy_taken_out": 1}
    encounter_advance(actor=orga, encounter=encounter, version=None)
    after = _by_name(encounter)
    # Blanc: 6, -1 at once (ticked within 25 cm), -1 in the end phase (an ally killed).
    assert after["Blanc"].moral == 4
    assert after["Martel"].moral == 6  # the Avatar
    # The events are the turn's: counted again from zero.
    assert "moral_events" not in after["Blanc"].state


def test_a_novice_loses_2_moral_when_an_ally_is_killed(table):
    orga, encounter = table
    c = _by_name(encounter)
    Combatant.objects.filter(pk=c["Blanc"].pk).update(rank="novice")
    _wound(orga, encounter, c["Roux"], "lethal")
    encounter_advance(actor=orga, encounter=encounter, version=None)
    # "ally killed -1, Novices -2"
    assert _by_name(encounter)["Blanc"].moral == 4


def test_inhuman_metabolism_level_0_regenerates_1_sante_in_the_end_phase(table):
    orga, encounter = table
    c = _by_name(encounter)
    _wound(orga, encounter, c["Griffe"], "benign")  # -2: 6 -> 4
    _wound(orga, encounter, c["Roux"], "benign")  # -2: 6 -> 4
    encounter_advance(actor=orga, encounter=encounter, version=None)
    after = _by_name(encounter)
    # "level 0 of inhuman metabolism regenerating 1 Santé in the end phase"; the police have
    # no such talent.
    assert (after["Griffe"].sante, after["Roux"].sante) == (5, 4)


def test_undo_puts_back_the_allies_moral_and_the_events(table):
    orga, encounter = table
    c = _by_name(encounter)
    _wound(orga, encounter, c["Roux"], "lethal", allies=[c["Blanc"]])
    encounter_undo(actor=orga, encounter=encounter, version=None)
    after = _by_name(encounter)
    assert not after["Roux"].dead and after["Blanc"].moral == 6
    assert all("moral_events" not in x.state for x in after.values())


def test_ticking_someone_who_is_not_the_targets_ally_is_refused(table):
    orga, encounter = table
    c = _by_name(encounter)
    with pytest.raises(Refusal) as refused:
        _wound(orga, encounter, c["Roux"], "lethal", allies=[c["Dent"]])
    assert refused.value.field == "allies_near"
    assert not _by_name(encounter)["Roux"].dead  # nothing applied


def test_the_api_takes_the_allies_in_options_and_refuses_a_wrong_one_with_a_sentence(table):
    orga, encounter = table
    c = _by_name(encounter)
    api = APIClient()
    api.force_authenticate(orga)
    api.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("api-table-act", args=[encounter.pk])
    body = {"kind": "wound", "target": c["Roux"].pk, "wound": "lethal", "dice": {"death_die": [6]}}
    wrong = api.post(url, {**body, "options": {"allies_near": [c["Dent"].pk]}}, format="json")
    assert wrong.status_code == 400
    assert "Tick only allies of the target." in str(wrong.json())
    right = api.post(url, {**body, "options": {"allies_near": [c["Blanc"].pk]}}, format="json")
    assert right.status_code == 200
    blanc = next(x for s in right.json()["sides"] for x in s["combatants"] if x["name"] == "Blanc")
    assert blanc["moral"] == 5


def test_the_card_says_what_the_moral_lets_a_combatant_do(table):
    """K18 "Moral effects by value (both tables)": APC at 3: "sur un 1, une autre nature
    d'ordre"; Sheol at 2: "frénésie, attaque à vue"; the ground: "static, +3 DB, quarter
    move"."""
    orga, encounter = table
    c = _by_name(encounter)
    Combatant.objects.filter(pk=c["Blanc"].pk).update(moral=3, on_ground=True)
    Combatant.objects.filter(pk=c["Dent"].pk).update(moral=2)
    with translation.override("en"):
        card = table_card(orga, encounter_get_for_user(orga, encounter.pk))
    notes = {x.name: x.notes for x in card.combatants}
    assert notes["Blanc"][0] == (
        "Activation die at Moral 3: on 1, must take an order of another nature."
    )
    assert notes["Blanc"][1].startswith("On the ground: static, +3 DB, a quarter of its move")
    assert notes["Dent"][0] == "Activation die at Moral 2: on 1-6, frenzy: attacks on sight."
    assert "Regenerates 1 Santé in the end phase." in notes["Dent"]
    # At 6 an APC agent "4+ ... peut changer son ordre".
    assert notes["Roux"] == ["Activation die at Moral 6: on 4-6, may change its order."]
    assert notes["Martel"] == []  # the Avatar's Moral never changes
    with translation.override("fr"):
        card = table_card(orga, encounter_get_for_user(orga, encounter.pk))
    dent = next(x for x in card.combatants if x.name == "Dent")
    assert (
        dent.notes[0] == "Dé d'activation à Moral 2\u00a0: sur 1-6, frénésie\u00a0: attaque à vue."
    )


def test_the_action_form_lists_the_allies_to_tick(client, table):
    orga, encounter = table
    client.force_login(orga)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(reverse("table-encounter", args=[encounter.pk])).content.decode()
    assert 'name="allies_near"' in html and "allies within 25 cm" in html


# --- K18's rolls as actions: "the Bouclier roll deciding whether a shield's protection
# counts, the Sonar, Terreur and Ralliement rolls", and "falls (a Novice rolling 1 takes a
# light wound)". Dice typed by hand: the threshold of an aguerri at Santé 6 is 4 (K4).


def _roll(orga, encounter, kind, actor, target, dice, death_die=None):
    typed = {"dice": dice, **({"death_die": [death_die]} if death_die else {})}
    action = ActionInput(kind=kind, actor=actor.pk, target=target.pk, dice=typed)
    return encounter_act(actor=orga, encounter=encounter, version=None, action=action)


def test_sonar_at_level_0_rolls_1d6_and_a_1_reveals_the_vampire(table):
    orga, encounter = table
    c = _by_name(encounter)
    found = _roll(orga, encounter, "sonar", c["Griffe"], c["Roux"], [5])
    assert found.data["outcome"]["finds"] is True and found.data["resolver"] == "sonar"
    # "Un résultat de 1 dévoile le Vampire"
    missed = _roll(orga, encounter, "sonar", c["Griffe"], c["Roux"], [1])
    assert missed.data["outcome"]["finds"] is False
    assert missed.data["outcome"]["vampire_revealed"] is True


def test_terreur_leaves_the_target_inert_and_at_level_2_costs_1_moral_in_the_end_phase(table):
    """Terreur: "dice by the target's Santé [...] On a success the target cannot activate
    this turn [...] at level 2 it also loses 1 Moral in the end phase" (Santé 6: 3D6)."""
    orga, encounter = table
    c = _by_name(encounter)
    Combatant.objects.filter(pk=c["Dent"].pk).update(talents={"sonar": 2, "terreur": 2})
    c = _by_name(encounter)
    resisted = _roll(orga, encounter, "terreur", c["Dent"], c["Blanc"], [1, 2, 5])
    assert resisted.data["outcome"]["target_inert"] is False
    assert "inert" not in _by_name(encounter)["Blanc"].state
    _roll(orga, encounter, "terreur", c["Dent"], c["Blanc"], [4, 5, 6])
    blanc = _by_name(encounter)["Blanc"]
    assert blanc.state["inert"] is True and blanc.moral == 6
    encounter_advance(actor=orga, encounter=encounter, version=None)
    blanc = _by_name(encounter)["Blanc"]
    assert blanc.moral == 5 and "inert" not in blanc.state


def test_a_combatant_without_the_talent_is_told_so(table):
    orga, encounter = table
    c = _by_name(encounter)
    with pytest.raises(Refusal) as refused:
        _roll(orga, encounter, "terreur", c["Dent"], c["Blanc"], [6, 6, 6])
    assert refused.value.field == "kind"


def test_ralliement_gives_moral_back_to_an_ally_and_rallies_no_enemy(table):
    """Ralliement 2: "on a successful 1D6 (threshold by rank) one figure regains Moral" (2)."""
    orga, encounter = table
    c = _by_name(encounter)
    Combatant.objects.filter(pk=c["Roux"].pk).update(talents={"discipline": 2, "ralliement": 2})
    Combatant.objects.filter(pk=c["Blanc"].pk).update(moral=3)
    c = _by_name(encounter)
    _roll(orga, encounter, "ralliement", c["Roux"], c["Blanc"], [4])
    assert _by_name(encounter)["Blanc"].moral == 5
    with pytest.raises(Refusal):
        _roll(orga, encounter, "ralliement", c["Roux"], c["Dent"], [4])


def test_the_bouclier_roll_says_whether_the_shield_protects(table):
    orga, encounter = table
    c = _by_name(encounter)
    # Bouclier 0: 2D6, a talent test of two dice (K4-K6) at the threshold 4.
    entry = _roll(orga, encounter, "shield", c["Roux"], c["Roux"], [2, 4])
    assert entry.data["outcome"]["protection_counts"] is False
    entry = _roll(orga, encounter, "shield", c["Roux"], c["Roux"], [4, 5])
    assert entry.data["outcome"]["protection_counts"] is True


def test_a_fall_puts_the_figure_on_the_ground_and_a_novice_rolling_1_takes_a_light_wound(table):
    orga, encounter = table
    c = _by_name(encounter)
    _roll(orga, encounter, "fall", c["Roux"], c["Roux"], [4])
    assert not _by_name(encounter)["Roux"].on_ground  # 4 is the aguerri's threshold
    Combatant.objects.filter(pk=c["Blanc"].pk).update(rank="novice")
    c = _by_name(encounter)
    entry = _roll(orga, encounter, "fall", c["Blanc"], c["Blanc"], [1], death_die=6)
    blanc = _by_name(encounter)["Blanc"]
    # a light wound: -2 Santé and a death roll (6: survives)
    assert blanc.on_ground and blanc.sante == 4 and not blanc.dead
    assert entry.data["effects"] == ["fell", "wounded"]
    with translation.override("en"):
        card = table_card(orga, encounter_get_for_user(orga, encounter.pk))
    lines = [line.text for turn in card.log for line in turn.lines]
    assert "Blanc falls. (Santé 6 → 4) · dice rolled by hand" in lines


def _melee_turn(orga, encounter, name, directive):
    """A turn in which `name` fought in melee under `directive`, to its end phase."""
    Combatant.objects.filter(encounter=encounter, name=name).update(
        engaged=True, directive=directive, revealed=True
    )
    encounter_advance(actor=orga, encounter=encounter, version=None)  # the end phase
    encounter_advance(actor=orga, encounter=encounter, version=None)  # the next action phase


@pytest.mark.parametrize(("directive", "souffle"), [("offensive", 5), ("defensive", 6)])
def test_melee_costs_1_souffle_per_offensive_turn_after_the_first(table, directive, souffle):
    """K18 "1 Souffle per melee turn after the first"; Le Souffle: "1 tour de corps à corps
    après le premier où le personnage est offensif utilise 1 point de souffle"."""
    orga, encounter = table
    _melee_turn(orga, encounter, "Roux", directive)
    roux = _by_name(encounter)["Roux"]
    assert (roux.souffle, roux.state["melee_turns"]) == (6, 1)  # the first turn is free
    _melee_turn(orga, encounter, "Roux", directive)
    roux = _by_name(encounter)["Roux"]
    assert (roux.souffle, roux.state["melee_turns"]) == (souffle, 2)
    encounter_advance(actor=orga, encounter=encounter, version=None)  # out of the melee
    assert _by_name(encounter)["Roux"].state["melee_turns"] == 0
