"""The modern RPG (001_0b8cdc51948c6499.txt, RULES-NOTES C1): each resolver against the
text it quotes, and the odds of tests against brute-force enumeration of every die."""

import itertools
import json
import random
from fractions import Fraction

import pytest

from rules.engine.errors import RuleInputError
from rules.engine.systems.modern import attitudes, chase, cold_blood, combat, healing, skill_test
from rules.engine.systems.modern.catalogue import (
    CATALOGUES_DIR,
    CatalogueError,
    load_catalogue,
    parse_catalogue,
)

CATALOGUE = load_catalogue()


def frac(text):
    numerator, denominator = text.split("/")
    return Fraction(int(numerator), int(denominator))


def test_it_refuses_a_catalogue_whose_attitudes_disagree():
    data = json.loads((CATALOGUES_DIR / "2026.11.1.json").read_text())
    data["attitudes"]["order"].append("berserk")
    with pytest.raises(CatalogueError, match="attitudes"):
        parse_catalogue(data)


@pytest.mark.parametrize(
    ("face", "expected"),
    # "Le seuil de réussite normal est de 6, les 10 11 et 12 donnent 2 réussites."
    [(1, 0), (5, 0), (6, 1), (9, 1), (10, 2), (12, 2)],
)
def test_a_die_scores_from_six_and_twice_from_ten(face, expected):
    assert skill_test.successes(face, 6, CATALOGUE) == expected


def test_a_natural_one_without_success_is_a_critical_failure_and_cannot_be_forced():
    # "Un 1 naturel est un échec critique ... et empeche de forcer le test."
    body = {"characteristic": 8, "skill": 6, "dice": [1, 3]}
    assert skill_test.evaluate(body)["critical_failure"] is True
    with pytest.raises(RuleInputError):
        skill_test.evaluate({**body, "forced_dice": [4]})
    # A success beside the 1 saves the test (setting critical_failure, default).
    assert skill_test.evaluate({**body, "dice": [1, 6]})["critical_failure"] is False
    any_one = {**body, "dice": [1, 6], "settings": {"critical_failure": "any_one"}}
    assert skill_test.evaluate(any_one)["critical_failure"] is True


def test_forcing_keeps_ones_and_successes_and_reads_the_final_ones():
    # "On garde les 1 et les succès"; "Les dés de caractéristiques (mais pas de compétence)
    #  ayant fait 1 font gagner 1 stress"; "Les dés de munition ayant fait 1 signifie devoir
    #  recharger"; "Les dés d'équipement ayant fait 1 entrainent une casse de l'objet"
    body = {"characteristic": 8, "skill": 6, "equipment_dice": 1, "ammunition_dice": 1}
    answer = skill_test.evaluate({**body, "dice": [3, 6, 2, 4], "forced_dice": [1, 1, 1]})
    assert answer["final_dice"] == [1, 6, 1, 1]
    assert answer["successes"] == 1
    assert answer["stress_gained"] == 1
    assert answer["equipment_breaks"] is True
    assert answer["reload"] is True


def test_stress_dice_add_stress_on_a_one_even_without_forcing():
    # "Chaque 1 sur ce dé ajoute 1 stress, meme sans forcer le test."
    answer = skill_test.evaluate({"characteristic": 8, "stress": 2, "dice": [7, 1, 1]})
    assert answer["stress_gained"] == 2
    assert answer["success"] is True


def test_an_ammunition_one_asks_for_a_reload_even_unforced():
    # "Obtenir un 1 (meme au premier test, avant de forcer) signifie devoir recharger"
    answer = skill_test.evaluate({"characteristic": 8, "ammunition_dice": 1, "dice": [6, 1]})
    assert answer["reload"] is True


def test_advantage_lowers_the_threshold_of_one_die():
    # "Avoir un avantage signifie que le seuil de réussite descend sur un unique dé de 1 point."
    pool = skill_test.odds({"characteristic": 8, "skill": 6, "advantage": 1})["pool"]
    assert [d["threshold"] for d in pool] == [5, 6]
    pool = skill_test.odds({"characteristic": 8, "skill": 6, "disadvantage": 2})["pool"]
    assert [d["threshold"] for d in pool] == [8, 6]


def test_reaching_the_stress_threshold_freezes_with_fear():
    # "Quand le seuil de stress est atteint, le Pj est transit de peur."
    body = {"characteristic": 8, "stress": 3, "stress_threshold": 4, "dice": [7, 1, 2, 3]}
    assert skill_test.evaluate(body)["frozen_with_fear"] is True


def brute_force(body):
    """Every first roll, and every reroll of a forced one, weighted."""
    test = skill_test.pool_from(body, CATALOGUE, threshold=body.get("threshold", 6))
    counts = {}
    for first in itertools.product(*[range(1, d.sides + 1) for d in test.dice]):
        weight = Fraction(1, 1)
        for d in test.dice:
            weight /= d.sides
        forcing = body.get("force") and not skill_test.is_critical(first, test, CATALOGUE)
        positions = skill_test.rerolled(first, test, CATALOGUE) if forcing else []
        for again in itertools.product(*[range(1, test.dice[i].sides + 1) for i in positions]):
            final = list(first)
            share = weight
            for i, face in zip(positions, again, strict=True):
                final[i] = face
                share /= test.dice[i].sides
            reading = skill_test.reading(first, final, bool(forcing), test, CATALOGUE)
            key = (reading["successes"], reading["critical_failure"], reading["stress_gained"])
            counts[key] = counts.get(key, 0) + share
    return counts


@pytest.mark.parametrize(
    "body",
    [
        {"characteristic": 6},
        {"characteristic": 12, "skill": 4},
        {"characteristic": 8, "skill": 6, "stress": 1, "force": True},
        {"characteristic": 10, "ammunition_dice": 1, "equipment_dice": 1, "force": True},
        {"characteristic": 6, "skill": 4, "advantage": 1, "force": True},
        {
            "characteristic": 6,
            "skill": 6,
            "settings": {"critical_failure": "any_one"},
            "force": True,
        },
    ],
)
def test_test_odds_equal_brute_force(body):
    odds = skill_test.odds(body)
    counts = brute_force(body)
    success = sum((p for (n, _, _), p in counts.items() if n >= 1), Fraction(0))
    critical = sum((p for (_, c, _), p in counts.items() if c), Fraction(0))
    assert frac(odds["outcomes_exact"]["success"]) == success
    assert frac(odds["outcomes_exact"]["critical_failure"]) == critical
    stress = {}
    for (_, _, gained), p in counts.items():
        stress[gained] = stress.get(gained, 0) + p
    for gained, p in stress.items():
        assert odds["stress_gained"][str(gained)] == pytest.approx(float(p))


# --- Attitudes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attitude", "target", "threshold"),
    [
        ("hidden", "normal", 8),  # "Planqué ... Seuil de réussite 8"
        ("careful", "normal", 7),  # "Prudent ... Seuil de réussite 7"
        ("normal", "aggressive", 5),  # "Agressif ... Seuil de réussite adverse : 5"
        ("normal", "ultra_violent", 4),  # "Ultra violent ... Seuil de réussite adverse : 4"
        ("careful", "aggressive", 6),  # both shifts (setting threshold_combination)
    ],
)
def test_attitudes_set_the_threshold(attitude, target, threshold):
    answer = attitudes.odds({"attitude": attitude, "target_attitude": target})
    assert answer["threshold"] == threshold


def test_attitudes_set_protection_and_ammunition_dice():
    # "Planqué ... protection D12 ... Dé de munition max : 1"; "Agressif ... Dé de munition +1"
    hidden = attitudes.odds({"attitude": "hidden", "target_attitude": "hidden", "rate_of_fire": 3})
    assert hidden["protection_die"] == 12
    assert hidden["ammunition_dice"] == 1
    aggressive = attitudes.odds({"attitude": "aggressive", "rate_of_fire": 3})
    assert aggressive["ammunition_dice"] == 4
    assert aggressive["initiative_die"] == 10
    # A d12 protection die: 6-9 one success, 10-12 two.
    assert frac(hidden["outcomes_exact"]["2"]) == Fraction(3, 12)


def test_hidden_cannot_attack_in_melee():
    # "il n'est pas possible d'attaquer avec l'attitude planquée"
    with pytest.raises(RuleInputError):
        attitudes.odds({"attitude": "hidden", "melee": True})


def test_the_more_aggressive_act_first_and_ties_go_to_reflexes():
    # "plus l'attitude tend vers agressif, plus l'initiative est rapide. A attitude égale, on
    #  tire un test de réflexes opposé"
    order = attitudes.initiative_order(
        [
            attitudes.Fighter("Ana", "careful"),
            attitudes.Fighter("Bo", "ultra_violent"),
            attitudes.Fighter("Cy", "careful", reflex_successes=2),
            attitudes.Fighter("Di", "surprised"),
        ],
        random.Random(1),
    )
    assert order == [["Bo"], ["Cy"], ["Ana"], ["Di"]]


# --- Combat and damage ---------------------------------------------------------------------


def test_damage_is_remaining_successes_plus_weapon_less_vest_successes():
    # "S'il reste une réussite, on calcule les dégats en additionant les réussites restantes
    #  + les dégats de l'arme"; "chaque réussite annule 1 point de dégat"
    body = {
        "characteristic": 10,
        "skill": 8,
        "target_attitude": "careful",
        "weapon_damage": 3,
        "vest": "class_iia",
        "hp": 6,
        "dice": [10, 7],
        "protection_dice": [6],
        "vest_dice": [6, 2],
    }
    answer = combat.evaluate(body)
    assert answer["successes"] == 3
    assert answer["remaining_successes"] == 2
    assert answer["damage"] == 2 + 3 - 1
    assert answer["hp"] == 2
    assert answer["stress_from_wound"] == 1  # "Etre blessé à plus de la moitié de ses PV"


def test_no_damage_when_protection_takes_every_success():
    body = {
        "characteristic": 8,
        "target_attitude": "hidden",
        "weapon_damage": 5,
        "dice": [6],
        "protection_dice": [7],
    }
    assert combat.evaluate(body)["damage"] == 0


def test_a_wound_below_zero_kills():
    # "Dans les PV négatifs, toute autre blessure entraine la mort."
    body = {"characteristic": 8, "weapon_damage": 1, "hp": -1, "dice": [6]}
    assert combat.evaluate(body)["dead"] is True
    # "Arrivé à 0 PV, le PJ n'a plus d'actions."
    down = combat.evaluate({**body, "hp": 2})
    assert down["out_of_action"] is True
    assert down["dead"] is False


def test_armour_piercing_ignores_a_protection_die_and_subsonic_loses_two():
    # "munition perforante ... ignore 1D de protection"; "munition subsonique ... dégats -2"
    assert (
        combat.odds({"characteristic": 8, "vest": "class_ii", "ammunition": "armour_piercing"})[
            "vest_dice"
        ]
        == 2
    )
    body = {"characteristic": 8, "weapon_damage": 4, "ammunition": "subsonic", "dice": [6]}
    assert combat.evaluate(body)["damage"] == 1 + 4 - 2


def test_each_range_band_off_the_reference_is_a_disadvantage():
    # "L'utiliser en dehors de cette portée inflige un désavantage par portée d'écart."
    odds = combat.odds({"characteristic": 8, "range": "long", "weapon_range": "short"})
    assert odds["pool"][0]["threshold"] == 8


def test_combat_odds_equal_brute_force():
    body = {
        "characteristic": 6,
        "target_attitude": "careful",
        "weapon_damage": 1,
        "vest": "reinforced_clothes",
    }
    odds = combat.odds(body)
    damage = {}
    for a, shield, vest in itertools.product(range(1, 7), range(1, 11), range(1, 7)):
        answer = combat.evaluate(
            {**body, "dice": [a], "protection_dice": [shield], "vest_dice": [vest]}
        )
        damage[answer["damage"]] = damage.get(answer["damage"], 0) + 1
    for d, n in damage.items():
        assert odds["damage"][str(d)] == pytest.approx(n / 360)


# --- Cold blood, care, chases ----------------------------------------------------------------


def test_a_failed_cold_blood_test_costs_stress_and_sends_to_cover():
    # "un échec vous donne 1 stress et vous oblige à prendre la posture planqué"
    body = {"characteristic": 8, "empathie": 6, "sang_froid": 8, "dice": [3]}
    answer = cold_blood.evaluate(body)
    assert answer["stress_gained"] == 1
    assert answer["takes_cover_until_end_of_next_round"] is True
    assert answer["stress_threshold"] == 8  # "la valeur max entre empathie et le sang froid"
    steady = cold_blood.evaluate({**body, "dice": [7]})
    assert steady["steady_for_the_encounter"] is True


def test_the_cold_blood_odds_count_the_failure_s_point_of_stress():
    # "un échec vous donne 1 stress": the odds' stress gained agree with evaluate, each roll
    # of the one Sang-froid die (d8, no stress dice) judged and counted.
    body = {"characteristic": 8, "empathie": 6, "sang_froid": 8}
    odds = cold_blood.odds(body)
    counted = {}
    for face in range(1, 9):
        gained = cold_blood.evaluate({**body, "dice": [face]})["stress_gained"]
        counted[str(gained)] = counted.get(str(gained), 0) + 1
    assert counted == {"0": 3, "1": 5}  # C1: "a die scoring 6 or more is a success"
    assert odds["stress_gained"] == {k: pytest.approx(v / 8) for k, v in counted.items()}
    failed = odds["outcomes"]["failure"] + odds["outcomes"]["critical_failure"]
    assert odds["stress_gained"]["1"] == pytest.approx(failed)


def test_care_restores_and_a_critical_failure_costs_a_hit_point():
    # "Si le test est un échec critique, il fait perdre 1 PV. Si un test de soin génère 3
    #  succès, un autre test peut etre effectué."
    body = {"characteristic": 10, "skill": 10, "hp": 4, "hp_max": 10}
    assert healing.evaluate({**body, "dice": [1, 2]})["hp"] == 3
    good = healing.evaluate({**body, "dice": [10, 7]})
    assert good["hp"] == 7
    assert good["another_test"] is True


@pytest.mark.parametrize(
    ("band", "lead"),
    # "A portée d'interception : 0-2, Courte : 3-6, Proche : 7-11, Lointaine : 12-17,
    #  A l'horizon : 18+"
    [("interception", 2), ("short", 6), ("close", 11), ("far", 17), ("horizon", 18)],
)
def test_the_starting_lead_is_the_top_of_the_band(band, lead):
    assert chase.odds({"band": band})["lead"] == lead


def test_chase_events_move_the_lead():
    # "Cul de sac: Le poursuivi perd automatiquement 2 points de portée"
    answer = chase.evaluate({"band": "short", "event": "dead_end"})
    assert answer["lead"] == 4
    # "SDF ... 50% poursuivi, 50% poursuivant ... Perdre 1D points de portée."
    pursuer = chase.evaluate({"band": "short", "event": "homeless", "side_die": 6, "loss_die": 3})
    assert pursuer["strikes"] == "pursuer"
    assert pursuer["lead"] == 9
    # The successes' difference: "chaque succès d'écart fait varier la portée"
    caught = chase.evaluate({"band": "interception", "event": "clearing", "pursuer_successes": 3})
    assert caught["caught"] is True


def test_events_are_drawn_evenly_from_the_terrains_table():
    odds = chase.odds({"terrain": "foot"})
    assert len(odds["outcomes"]) == 11
    assert set(odds["outcomes_exact"].values()) == {"1/11"}
    assert chase.roll({"terrain": "road"}, random.Random(3)) == chase.roll(
        {"terrain": "road"}, random.Random(3)
    )
