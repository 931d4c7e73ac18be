"""KOLAPS at the table (RULES-NOTES K18): Moral by value and from events, falls, the ground,
melee breath, the Bouclier, Sonar, Terreur and Ralliement rolls, armed fists, the stray shot
on one's own side and inhuman metabolism's regeneration; odds against every roll."""

import random
from fractions import Fraction

import pytest

from rules.engine.errors import RuleInputError
from rules.engine.registry import resolver_get
from rules.engine.systems.kolaps import at_the_table as a
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.ranged import _walk as ranged_walk
from tests.rules.kolaps_brute import every_roll

CATALOGUE = load_catalogue()


def test_moral_effects_follow_both_tables_by_value():
    """K18 "Moral effects by value (both tables)". APC 6: "Sur un résultat de 4+ sur un D6
    [...] peut changer son ordre"; APC 2: "Sur un résultat de 1 le personnage se dirige vers
    le bord [...] 2 à 4 [...] l'adversaire peut changer la nature de l'ordre"; Shéol 3: "sur
    un résultat de 1,2 ou 3 [...] fondre sur l'ennemi le plus proche"; 2: "pris de
    frénésie"."""
    assert a.moral_effect("apc", 6, 4) == "may_change_order"
    assert a.moral_effect("apc", 6, 3) == "none"
    assert [a.moral_effect("apc", 2, d) for d in (1, 2, 4, 5)] == [
        "flees", "opponent_changes_order", "opponent_changes_order", "none",
    ]  # fmt: skip
    assert a.moral_effect("sheol", 3, 3) == "charges_nearest_enemy"
    assert a.moral_effect("sheol", 2, 6) == "frenzy"
    assert a.moral_effect("sheol", 1, 6) == a.moral_effect("apc", 1, 1) == "rogue_against_avatar"
    odds = a.moral_effect_odds({"affiliation": "apc", "moral": 5})
    assert odds["effects_exact"] == {"none": "2/3", "may_change_order": "1/3"}


def test_moral_changes_from_events():
    """K18: "Moral changes from events (ally killed -1, Novices -2; enemy taken out +1; an
    order that cannot be followed -1)"; K13: the Avatar's Moral never changes."""
    events = {"ally_taken_out": 1, "enemy_taken_out": 2, "order_not_followed": 1}
    assert a.moral_from_events("veteran", False, events) == 0
    assert a.moral_from_events("novice", False, events) == -1
    assert a.moral_from_events("novice", True, events) == 0


def test_a_fall_is_one_die_and_a_novices_one_is_a_light_wound():
    """K18: "falls (a Novice rolling 1 takes a light wound)"; Chutes: "Elle chutera [...] si
    celui n'atteint pas le seuil de réussite. Un novice obtenant un 1 sur ce dé subira une
    blessure légère [...] et effectue un jet de mort"."""
    odds, evaluate, _roll = a.fall_verbs
    veteran = evaluate({"rank": "veteran", "dice": [2]})
    assert veteran["falls"] and veteran["wound"] is None
    assert not evaluate({"rank": "veteran", "dice": [3]})["falls"]
    novice = evaluate({"rank": "novice", "sante": 6, "dice": [1]})
    assert novice["wound"]["wound"] == "light" and novice["wound"]["sante_after"] == 4
    assert novice["pending"] == {"field": "death_die", "dice": "D6"}
    assert evaluate({"rank": "novice", "sante": 6, "dice": [1], "death_die": [2]})["killed"]
    assert odds({"rank": "novice"})["light_wound"] == pytest.approx(1 / 6)
    assert odds({"rank": "aguerri"})["light_wound"] == 0


def test_a_figure_on_the_ground_is_static_at_plus_three_and_a_quarter_move():
    """K18: "a figure on the ground (static, +3 DB, quarter move)"; "Elle doit passer un tour
    en soutien pour se relever"."""
    assert a.on_the_ground(20) == {
        "static": True,
        "db": 3,
        "move_cm": 5.0,
        "get_up_order": "support",
    }


def test_melee_costs_one_souffle_per_turn_after_the_first():
    """K18: "1 Souffle per melee turn after the first"."""
    assert [a.melee_breath(turn, True) for turn in (1, 2, 3)] == [0, 1, 1]
    assert a.melee_breath(2, offensive=False) == 0


def test_inhuman_metabolism_level_0_regenerates_one_sante():
    """K18: "level 0 of inhuman metabolism regenerating 1 Santé in the end phase"."""
    assert a.regeneration({"metabolisme-inhumain-vampire": 0}) == 1
    assert a.regeneration({}) == 0


def test_armed_fists_use_the_pistol_expertise_and_its_point_blank_power():
    """K18 "armed fists (a pistol in melee)"; Poing armé: "Ils utilisent la valeur de du
    talent pistolet au C à C et appliquent la puissance de l'arme a bout portant"."""
    fist = a.armed_fist("pa-police-50", {"pistolet": 2, "poing-arme": 1})
    assert fist == {"possible": True, "melee_expertise": 2, "power": "D6"}
    assert a.armed_fist("pa-police-50", {"pistolet": 2}) == {"possible": False}


def test_the_stray_shot_hits_the_shooters_own_figure_when_the_target_is_alone():
    """K18: "the stray shot that hits the shooter's own figure (-1 Moral) when the target is
    alone"; Tir dans une mêlée, 2-3: "Si la cible est la seule de son unité, alors le tireur
    choisi une figurine de son unité [...] le tireur perd un point de moral"."""
    assert a.stray_shot(2, False)["effect"] == "target_ally_hit"
    alone = a.stray_shot(3, True)
    assert alone == {
        "effect": "shooter_own_figure_hit",
        "ally_wound": "light",
        "attacker_moral": -1,
    }
    assert a.stray_shot(5, True)["effect"] == "plain_miss"


def test_the_shield_sonar_terreur_and_ralliement_rolls_read_the_talents_levels():
    """K18: "the Bouclier roll deciding whether a shield's protection counts, the Sonar,
    Terreur and Ralliement rolls". Sonar: "Un résultat de 1 dévoile le Vampire"; Terreur:
    "Le nombre de dés a jeter est fonction de la santé de la cible"; Ralliement 2: "Rend 2
    points de moral"."""
    shield = a.shield_verbs[1]({"rank": "veteran", "level": 0, "dice": [3, 5]})
    assert shield["protection_counts"] is True and shield["dice_count"] == 2
    sonar = a.sonar_verbs[1]({"rank": "aguerri", "level": 1, "dice": [1, 5]})
    assert sonar["finds"] and sonar["vampire_revealed"]
    assert a.terreur_verbs[0]({"rank": "veteran", "level": 1, "target_sante": 6})["dice_count"] == 3
    rally = a.ralliement_verbs[1]({"rank": "expert", "level": 2, "dice": [2]})
    assert rally["moral_regained"] == 2
    with pytest.raises(RuleInputError) as error:
        a.ralliement_verbs[0]({"rank": "expert", "level": 0})
    assert error.value.field == "level"


BODIES = [
    ("bouclier", {"rank": "aguerri", "level": 0}),
    ("sonar", {"rank": "veteran", "level": 3, "sante": 3}),
    ("terreur", {"rank": "novice", "level": 2, "target_sante": 5}),
    ("ralliement", {"rank": "aguerri", "level": 1, "sante": 2}),
    ("fall", {"rank": "novice", "sante": 3}),
]


@pytest.mark.parametrize(("kind", "body"), BODIES)
def test_the_odds_equal_every_roll_walked_one_by_one(kind, body):
    succeeded = revealed = dies = Fraction(0)
    for p, answer in every_roll(lambda source: a._walk(kind, body, source, CATALOGUE)):
        succeeded += p if answer["succeeded"] else 0
        revealed += p if answer.get("vampire_revealed") else 0
        dies += p if answer.get("killed") else 0
    odds = a.roll_odds(kind, body, CATALOGUE)
    assert odds["succeeded_exact"] == f"{succeeded.numerator}/{succeeded.denominator}"
    if kind == "sonar":
        assert odds["vampire_revealed"] == pytest.approx(float(revealed), abs=1e-15)
    if kind == "fall":
        assert odds["dies_exact"] == f"{dies.numerator}/{dies.denominator}"


@pytest.mark.parametrize(
    "name", ["shield", "sonar", "terreur", "ralliement", "fall", "moral_effect", "stray_shot"]
)
def test_a_seeded_roll_is_what_evaluate_makes_of_its_dice(name):
    resolver = resolver_get("kolaps", name)
    body = {
        "shield": {"rank": "veteran"},
        "sonar": {"rank": "novice", "level": 2},
        "terreur": {"rank": "aguerri", "target_sante": 2},
        "ralliement": {"rank": "expert", "level": 3},
        "fall": {"rank": "novice"},
        "moral_effect": {"affiliation": "sheol", "moral": 3},
        "stray_shot": {"target_alone": True},
    }[name]
    for seed in range(8):
        rolled = resolver.roll(body, random.Random(seed))
        given = {**body, **rolled.get("rolled", {}), "dice": rolled["dice"]}
        if name == "stray_shot":
            given = {**body, "stray_die": rolled["dice"]}
        assert resolver.evaluate(given) == rolled


# --- K18 "armed fists (a pistol in melee), the stray shot that hits the shooter's own figure
# (-1 Moral) when the target is alone", inside the melee and ranged resolvers.

_FISTS = {"rank": "aguerri", "talents": {"pistolet": 3, "poing-arme": 1}, "weapon": "pa-police-50"}
_BATON = {"rank": "aguerri", "talents": {"corps-a-corps": 1}, "weapon": "matraque-composite"}


def test_the_melee_resolver_fights_with_armed_fists_at_the_pistolet_expertise():
    # Poing armé: "Ils utilisent la valeur du talent pistolet au C à C et appliquent la
    # puissance de l'arme a bout portant."
    melee = resolver_get("kolaps", "melee")
    odds = melee.odds({"a": {**_FISTS, "armed_fist": True}, "b": _BATON})
    assert {"source": "expertise", "value": 3} in odds["score_modifiers"]["a"]
    pistol = load_catalogue().weapon("pa-police-50")
    blow = melee.evaluate(
        {"a": {**_FISTS, "armed_fist": True}, "b": _BATON, "a_dice": [6, 5], "b_dice": [1]}
    )
    assert blow["attacker"] == "a" and blow["power"] == str(pistol.power_at("point_blank"))


def test_armed_fists_without_poing_arme_or_without_a_pistol_are_refused():
    melee = resolver_get("kolaps", "melee")
    no_talent = {**_FISTS, "talents": {"pistolet": 3}, "armed_fist": True}
    with pytest.raises(RuleInputError):
        melee.odds({"a": no_talent, "b": _BATON})
    with pytest.raises(RuleInputError):
        melee.odds(
            {"a": {**_FISTS, "weapon": "matraque-composite", "armed_fist": True}, "b": _BATON}
        )
    with pytest.raises(RuleInputError):  # a pistol is no melee weapon without armed fists
        melee.odds({"a": _FISTS, "b": _BATON})


def test_a_shot_into_a_melee_at_an_alone_target_hits_the_shooters_named_ally():
    ranged = resolver_get("kolaps", "ranged")
    shot = {
        "attacker": {"rank": "aguerri", "talents": {"pistolet": 1}},
        "weapon": "pa-police-50",
        "distance_cm": 20,
        "melee_figures": 2,
        "target_alone": True,
        "stray_ally": {"sante": 6},
    }
    # Three dice at this DB, (1, 1, 4) a failure: the stray D6 follows; 3 with the target
    # alone: "le tireur choisi une figurine de son unité et lui applique la blessure légère".
    out = ranged.evaluate({**shot, "dice": [1, 1, 4], "stray_die": [3], "stray_death_die": [3]})
    assert out["stray"]["effect"] == "shooter_own_figure_hit"
    assert out["stray"]["attacker_moral"] == -1
    # Light wound: -2 Santé and a death roll at Santé 4 (threshold 3): a 3 survives.
    assert out["stray"]["ally"]["sante_after"] == 4 and not out["stray"]["ally"]["killed"]
    not_alone = ranged.evaluate({**shot, "target_alone": False, "dice": [1, 1, 4],
                                 "stray_die": [3]})  # fmt: skip
    assert not_alone["stray"]["effect"] == "target_ally_hit" and "ally" not in not_alone["stray"]
    # The odds of the ally dying equal every branch walked (attack, stray, death dice...).
    dies = sum(
        (p for p, walked in every_roll(lambda source: ranged_walk(shot, source, None))
         if ((walked.get("stray") or {}).get("ally") or {}).get("killed")),
        Fraction(0),
    )  # fmt: skip
    assert dies > 0
    assert ranged.odds(shot)["follow_up"]["stray:ally_dies"] == pytest.approx(
        float(dies), abs=1e-12
    )


def test_a_seeded_shot_whose_stray_hits_the_ally_replays_with_its_death_die():
    ranged = resolver_get("kolaps", "ranged")
    shot = {
        "attacker": {"rank": "novice", "talents": {"pistolet": 0}},
        "weapon": "pa-police-50",
        "distance_cm": 20,
        "melee_figures": 3,
        "target_alone": True,
        "stray_ally": {"sante": 5},
    }
    seed = next(
        s for s in range(5000) if "ally" in (ranged.roll(shot, random.Random(s)).get("stray") or {})
    )
    rolled = ranged.roll(shot, random.Random(seed))
    assert "stray_death_die" in rolled["follow_up"]
    typed = {"dice": rolled["dice"], **rolled["follow_up"]}
    assert ranged.evaluate({**shot, **typed}) == rolled
