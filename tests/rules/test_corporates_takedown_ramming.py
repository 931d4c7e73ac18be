"""Corporates special melee blows (Coups spéciaux: faire tomber, immobiliser, projeter) and
the ramming charge (Charge et charge percutante), seed 003. Exact odds against every face
combination read by `evaluate`."""

import itertools
import random
from fractions import Fraction

import pytest

from rules.engine.errors import RuleInputError
from rules.engine.systems.corporates import ramming, takedown


def test_a_trip_by_agility_unbalances_at_one_level_and_fells_at_two():
    # "Dans le cas d'un jet d'agilité contre agilité, si l'attaquant passe d'1 niveau, il
    # déséquilibre son adversaire (perte d'1 action), de 2 niveaux ou plus il le fait chuter."
    body = {"kind": "trip_agility", "attacker_pool": 2, "defender_pool": 2}
    assert (
        takedown.evaluate({**body, "attacker_dice": [4, 4], "defender_dice": [4, 4]})["key"]
        == "no_effect"
    )
    one = takedown.evaluate({**body, "attacker_dice": [6, 4], "defender_dice": [3, 2]})
    assert (one["levels_passed"], one["key"]) == (1, "unbalanced")
    two = takedown.evaluate({**body, "attacker_dice": [6, 6], "defender_dice": [3, 2]})
    assert (two["levels_passed"], two["key"]) == (2, "falls")
    # "Lorsqu'un défenseur chute il effectue un jet d'encaissement difficulté 15, et aura un
    # malus de 5 à toutes ses actions jusqu'à ce qu'il se relève."
    assert two["fall_soak_difficulty"] == 15 and two["fallen_malus"] == 5


def test_a_trip_by_strength_brings_both_down_at_one_level():
    # "Dans le cas d'un jet de force contre force, si l'attaquant passe d'1 niveau, il chute
    # avec son adversaire, de 2 niveaux ou plus il le fait chuter seul."
    body = {"kind": "trip_strength", "attacker_pool": 2, "defender_pool": 2}
    assert (
        takedown.evaluate({**body, "attacker_dice": [6, 4], "defender_dice": [3, 2]})["key"]
        == "both_fall"
    )
    assert (
        takedown.evaluate({**body, "attacker_dice": [6, 6], "defender_dice": [1, 1]})["key"]
        == "falls"
    )


def test_the_other_characteristic_is_a_bonus_and_the_attack_margin_adds_dice():
    # "Dans chacun des 2 cas, l'autre caractéristique est ajoutée en bonus au jet."; "Tout
    # comme dans une attaque normale, l'attaquant gagne 1d au jet d'opposition par marge de
    # 10 à son jet pour toucher."
    odds = takedown.odds({"attacker_pool": 2, "defender_pool": 2, "attack_margin": 21})
    assert odds["dice_count"] == 4
    bonus = takedown.evaluate(
        {
            "attacker_pool": 1,
            "defender_pool": 1,
            "attacker_bonus": 3,
            "attacker_dice": [2],
            "defender_dice": [4],
        }
    )
    assert bonus["margin"] == 1


def test_agility_needs_more_than_half_the_defenders_weight():
    # "les jets d'agilité contre agilité ne sont possibles que si l'attaquant est d'un poids
    # supérieur à la moitié de celui de son adversaire."
    body = {"attacker_pool": 2, "defender_pool": 2, "attacker_too_light": True}
    with pytest.raises(RuleInputError):
        takedown.odds(body)
    assert takedown.odds({**body, "kind": "trip_strength"})["dice_count"] == 2


def test_a_hold_is_as_many_malus_dice_as_levels_and_a_throw_from_three():
    # "le niveau de réussite indiquant la qualité de l'entrave et le malus en dé de
    # l'adversaire"; "dès lors que la personne entravée à 3d de malus ou plus, alors le
    # personnage peut le projeter"
    body = {"kind": "hold", "attacker_pool": 3, "defender_pool": 1}
    two = takedown.evaluate({**body, "attacker_dice": [4, 4, 4], "defender_dice": [1]})
    assert (two["hindrance_dice"], two["key"]) == (3, "throw_possible")
    one = takedown.evaluate({**body, "attacker_dice": [2, 2, 1], "defender_dice": [1]})
    assert (one["hindrance_dice"], one["key"]) == (1, "held")


@pytest.mark.parametrize("kind", takedown.KINDS)
def test_takedown_odds_equal_brute_force(kind):
    body = {"kind": kind, "attacker_pool": 2, "attacker_bonus": 1, "defender_pool": 2}
    odds = takedown.odds(body)
    counts: dict[str, Fraction] = {}
    for a in itertools.product(range(1, 7), repeat=2):
        for d in itertools.product(range(1, 7), repeat=2):
            key = takedown.evaluate({**body, "attacker_dice": list(a), "defender_dice": list(d)})[
                "key"
            ]
            counts[key] = counts.get(key, Fraction(0)) + Fraction(1, 6**4)
    assert {k: Fraction(v) for k, v in odds["outcomes_exact"].items()} == counts


def test_the_opposed_level_is_a_campaign_setting():
    body = {"attacker_pool": 1, "defender_pool": 1, "attacker_dice": [6], "defender_dice": [1]}
    assert takedown.evaluate(body)["levels_passed"] == 1
    ones = takedown.evaluate({**body, "settings": {"opposed_points_per_level": 1}})
    assert ones["levels_passed"] == 5 and ones["key"] == "falls"


# The ramming charge ------------------------------------------------------------------------


def test_a_ramming_charge_knocks_over_by_levels_and_deals_one_level_less():
    # "Si le défenseur reçoit un niveau de dommages, il est déséquilibré (perte de la prochaine
    # action), 2 niveaux il chute, 3 niveau il est projeté en arrière et sonné. Les dommages
    # réellement effectués sont réduits d'1."
    body = {"pool": 1, "combat_skill": 2, "damage_dice": 1, "soak_dice": 1}
    # "S'il touche, on calcule les dommages, en prenant en compte les bonus de charge": +3.
    hit = ramming.evaluate({**body, "dice": [6], "damage_rolled": [4], "soak_rolled": [6]})
    assert hit["hit"] and hit["damage"] == 7 and hit["soak"] == 6
    assert (hit["levels"], hit["key"], hit["levels_dealt"]) == (1, "unbalanced", 0)
    stunned = ramming.evaluate(
        {**body, "damage_bonus": 10, "dice": [6], "damage_rolled": [6], "soak_rolled": [1]}
    )
    assert (stunned["levels"], stunned["key"], stunned["levels_dealt"]) == (
        4,
        "thrown_and_stunned",
        3,
    )
    miss = ramming.evaluate({**body, "dice": [1]})
    assert miss["key"] == "miss" and miss["levels_dealt"] == 0
    # A blow that lands asks for its damage dice next.
    assert ramming.evaluate({**body, "dice": [6]})["key"] == "damage_to_roll"


def test_a_much_smaller_attacker_needs_extra_levels():
    # "Si l'attaquant est d'un gabarit nettement inférieure au défenseur, alors le MJ peut
    # demander 1 ou plusieurs niveaux de réussite supplémentaires avant de prendre en compte
    # les effets de la percussion."
    body = {"pool": 1, "combat_skill": 2, "damage_dice": 1, "soak_dice": 1, "size_levels": 1}
    hit = ramming.evaluate({**body, "dice": [6], "damage_rolled": [4], "soak_rolled": [6]})
    assert (hit["levels"], hit["key"]) == (1, "no_effect")


def test_ramming_odds_equal_brute_force():
    body = {"pool": 1, "combat_skill": 2, "damage_dice": 1, "soak_dice": 1}
    odds = ramming.odds(body)
    counts: dict[str, Fraction] = {}
    for a in range(1, 7):
        if not ramming.evaluate({**body, "dice": [a]})["hit"]:
            counts["miss"] = counts.get("miss", Fraction(0)) + Fraction(1, 6)
            continue
        for dmg, soak in itertools.product(range(1, 7), repeat=2):
            key = ramming.evaluate(
                {**body, "dice": [a], "damage_rolled": [dmg], "soak_rolled": [soak]}
            )["key"]
            counts[key] = counts.get(key, Fraction(0)) + Fraction(1, 6**3)
    assert {k: Fraction(v) for k, v in odds["outcomes_exact"].items() if v != "0/1"} == counts


def test_a_rammed_roll_on_the_server_reads_as_evaluate():
    body = {"pool": 3, "combat_skill": 4, "damage_dice": 2, "soak_dice": 2}
    rolled = ramming.roll(body, random.Random(5))
    assert rolled["key"] in {"miss", "no_effect", "unbalanced", "falls", "thrown_and_stunned"}
    if rolled["hit"]:
        extra = 2 + rolled["extra_damage_dice"]
        again = ramming.evaluate(
            {
                **body,
                "dice": rolled["attack_dice"],
                "damage_rolled": rolled["dice"][3 : 3 + extra],
                "soak_rolled": rolled["dice"][3 + extra :],
            }
        )
        assert again["key"] == rolled["key"]


def test_forceful_and_acrobatic_blows_name_their_own_rolls():
    # Coup en force: "le personnage doit réussir un jet de fatigue difficulté 15 ou perdre 1
    # niveau de fatigue"; attaque acrobatique: "Le personnage doit réussir un jet
    # d'acrobatie difficulté 15 ... S'il rate, il est déséquilibré et aura -1d
    # supplémentaire jusqu'à la fin du tour."
    from rules.engine.systems.corporates import melee

    forceful = melee.odds({"pool": 4, "special": "forceful", "skill_level": 3})
    assert forceful["fatigue_roll_difficulty"] == 15 and forceful["malus_dice"] == 1
    acrobatic = melee.evaluate({"pool": 3, "special": "acrobatic", "dice": [6, 6, 6]})
    assert acrobatic["acrobatics_roll_difficulty"] == 15
    assert acrobatic["acrobatics_failure_malus_dice"] == 1
    assert "fatigue_roll_difficulty" not in melee.odds({"pool": 4})
