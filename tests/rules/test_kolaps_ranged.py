"""KOLAPS ranged combat: RULES-NOTES K7, K8, K9 and K11, die by die."""

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import ranged
from rules.engine.systems.kolaps.attack import attack_odds
from rules.engine.systems.kolaps.ranged import METABOLISM
from tests.rules.kolaps_brute import every_roll

KIRMANN = {
    "attacker": {
        "rank": "veteran",
        "affiliation": "apc",
        "talents": {"fusil": 2},
        "armour": "tenue-legere-sti-europa",
    },
    "weapon": "fa-f4",
    "mode": "semi-auto",
    "distance_cm": 45,
    "target": {"order": "movement", "cover": 3, "extra_protection": 3},
}


def shot(**changes):
    data = {
        "attacker": {"rank": "veteran", "affiliation": "apc", "talents": {"fusil": 2}},
        "weapon": "fa-f4",
        "distance_cm": 45,
        "target": {"order": "offensive"},
    }
    for key, value in changes.items():
        if key in ("attacker", "target"):
            data[key] = {**data[key], **value}
        else:
            data[key] = value
    return data


def modifiers(data):
    return {m.source: m.db for m in ranged.setup(data).attack.modifiers}


def test_it_reproduces_the_worked_example_of_kirmann():
    """K11. "Worked example of the text: expertise 2 (1) - semi-auto (1) - shooter's helmet
    (1) + target metabolism 1 (3) + cover (3) = 5 dice." ("Le total est donc de 5
    (1-1-1+3+3). Kirmann lancera donc 5D6 pour tenter d'arrêter le Damné.")"""
    result = ranged.odds(KIRMANN)
    assert [m["db"] for m in result["modifiers"] if m["db"]] == [1, -1, -1, 3, 3]
    assert (result["db"], result["dice_count"], result["keep_best"]) == (5, 5, False)
    assert result["threshold"] == 3  # "Le jet de dé se fait avec le seuil du tireur."


@pytest.mark.parametrize(
    ("changes", "source", "db"),
    [
        # "base DB from expertise (0: 5, 1: 3, 2: 1, 3: 0 ..."
        ({"attacker": {"talents": {}}}, "expertise:fusil", 5),
        ({"attacker": {"talents": {"fusil": 1}}}, "expertise:fusil", 3),
        ({"attacker": {"talents": {"fusil": 3}}}, "expertise:fusil", 0),
        # "... a static target, i.e. in Support order or unconscious, makes it 0)"
        ({"target": {"order": "support"}}, "static_target", 0),
        ({"target": {"unconscious": True}}, "static_target", 0),
        # "+ specialisations" (Tir instinctif 1: +2 DB)
        (
            {"attacker": {"talents": {"fusil": 2, "tir-instinctif": 1}}, "use": ["tir-instinctif"]},
            "talent:tir-instinctif",
            2,
        ),
        # "+ equipment"
        ({"mode": "semi-auto"}, "mode:semi-auto", -1),
        (
            {"attacker": {"armour": "tenue-legere-sti-europa"}},
            "equipment:tenue-legere-sti-europa",
            -1,
        ),
        ({"equipment_db": -1}, "equipment", -1),
        # "+ the target's protection against the weapon type" (piercing 3, blunt 1)
        ({"target": {"armour": "armure-anti-emeute"}}, "protection:armure-anti-emeute", 3),
        ({"target": {"armour": "bouclier-anti-emeute"}}, "protection:bouclier-anti-emeute", 1),
        # "+ range band (point blank -3, short -1, effective 0, long +1, extreme +3)"
        ({"distance_cm": 3}, "range:point_blank", -3),
        ({"distance_cm": 5}, "range:point_blank", -3),
        ({"distance_cm": 20}, "range:short", -1),
        ({"distance_cm": 60}, "range:effective", 0),
        ({"distance_cm": 75}, "range:long", 1),
        ({"distance_cm": 200}, "range:extreme", 3),
        # "+ target movement when it moves fast without closing in (15-25 cm +1, ...)"
        ({"target": {"moved_cm": 15}}, "target_movement", 1),
        ({"target": {"moved_cm": 25}}, "target_movement", 2),
        ({"target": {"moved_cm": 44}}, "target_movement", 3),
        ({"target": {"moved_cm": 50}}, "target_movement", 4),
        ({"target": {"moved_cm": 80}}, "target_movement", 5),
        # "+ 1 per figure beyond the first when shooting into a melee"
        ({"melee_figures": 2}, "melee", 1),
        ({"melee_figures": 3}, "melee", 2),
    ],
)
def test_it_adds_every_modifier_of_k11(changes, source, db):
    """K11. Ranged DB = base DB from expertise + specialisations + equipment + the target's
    protection against the weapon type + range band + target movement + cover + 1 per
    figure beyond the first when shooting into a melee."""
    assert modifiers(shot(**changes))[source] == db


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ({"moved_cm": 10}, None),  # not fast enough
        ({"moved_cm": 40, "closing_in": True}, None),  # "sans avancer vers le tireur"
    ],
)
def test_it_ignores_slow_or_closing_targets(target, expected):
    """K11: movement counts "when it moves fast without closing in"."""
    assert modifiers(shot(target=target)).get("target_movement") == expected


@pytest.mark.parametrize(
    ("cover", "against", "order", "distance", "expected"),
    [
        (1, False, "defensive", 45, 1),  # "Effet : +1DB si DO « Def »"
        (1, False, "offensive", 45, None),
        (2, False, "defensive", 45, 3),  # "+3DB si DO « Def » et +1DB si ..."
        (2, True, "offensive", 45, 1),  # "accolée ... en ordre « offensif » ... bénéficier"
        (2, False, "offensive", 45, None),
        (3, False, "defensive", 45, 5),  # "Cible non accolée +5DB si DO « Def »"
        (3, False, "movement", 45, 3),
        (3, False, "support", 45, 1),
        (3, True, "movement", 45, 3),  # "accolée ... +3DB si DO « Dep », « Off » ou « Sou »"
        (4, True, "offensive", 45, 5),  # "Il octroie un ajustement de +5DB."
        (3, False, "defensive", 3, None),  # "A bout portant aucun couvert ... sauf type 4"
        (4, True, "offensive", 3, 5),
    ],
)
def test_it_reads_the_cover_table(cover, against, order, distance, expected):
    """K11: "cover (types 1-4 by the target's order directive and whether it is against
    the cover, as written; point blank ignores all but type 4)"."""
    data = shot(
        distance_cm=distance, target={"cover": cover, "against_cover": against, "order": order}
    )
    assert modifiers(data).get(f"cover:{cover}") == expected


@pytest.mark.parametrize(
    ("cover", "against", "order"),
    [(3, True, "defensive"), (4, False, "offensive"), (4, True, "defensive")],
)
def test_it_refuses_a_shot_at_an_untouchable_target(cover, against, order):
    """ "Cible accolée intouchable si DO « Def »" (type 3); "Un mur se dressant entre une
    cible et un tireur est un couvert total. Le tir ne peut s'effectuer." (type 4)."""
    data = shot(target={"cover": cover, "against_cover": against, "order": order})
    assert ranged.odds(data)["possible"] is False
    assert ranged.roll(data, random.Random(1))["row"] is None


def test_it_lets_hiding_raise_the_cover_type_in_defensive_order():
    """Se cacher: "In Defensive order, uses shadows and terrain to count its cover as a
    higher type" (Shéol level 0: +1): a bush (type 1) counts as type 2, +3 DB."""
    data = shot(target={"cover": 1, "order": "defensive", "talents": {"se-cacher-sheol": 0}})
    assert modifiers(data)["cover:2"] == 3


def test_it_denies_light_cover_to_a_metasteroides_target():
    """Metasteroides: "ne peut bénéficier des couverts de type 1 et 2, le type 3 compte
    comme type 2"."""
    light = shot(target={"cover": 2, "order": "defensive", "traits": ["metasteroides"]})
    heavy = shot(target={"cover": 3, "order": "defensive", "traits": ["metasteroides"]})
    assert "cover:2" not in modifiers(light)
    assert modifiers(heavy)["cover:2"] == 3


def test_it_refuses_a_distance_beyond_the_weapon_naming_the_field():
    with pytest.raises(RuleInputError) as error:
        ranged.setup(shot(weapon="douleur-1", distance_cm=31))
    assert error.value.field == "distance_cm"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (shot(weapon="griffes"), "weapon"),
        (shot(attacker={"rank": "captain"}), "attacker.rank"),
        (shot(attacker={"talents": {"fusil": 7}}), "attacker.talents"),
        (shot(target={"cover": 5}), "target.cover"),
        (shot(target={"order": "charge"}), "target.order"),
        (shot(mode="burst"), "mode"),
        (shot(use=["precision"]), "use"),  # a talent the attacker does not have
        ({**shot(), "dice": [1, 2, 9]}, "dice"),
    ],
)
def test_it_names_the_field_of_a_bad_input(data, field):
    with pytest.raises(RuleInputError) as error:
        ranged.evaluate(data)
    assert error.value.field == field


# K7 and K8 through evaluate: (dice as typed, expected answer). Expertise 2 at 45 cm with
# the FA F4 (power 2C6) against an offensive target: DB 1, one die at threshold 3.
EVALUATE = [
    # "failure with a 1: minor incident" -> disarmed, 1 Moral lost
    ({"dice": [1]}, {"row": "minor_incident", "incident": {"effect": "disarmed"}}),
    # "failure: miss"; the temper roll: "1D6 avec un seuil de 3 ... perd 1 point de moral"
    ({"dice": [2], "temper_die": [2]}, {"row": "miss", "temper": {"attacker_moral": -1}}),
    ({"dice": [2], "temper_die": [3]}, {"row": "miss", "temper": {"attacker_moral": 0}}),
    # success: referent 3 + power max(1, 1) = 4: serious, death roll at Santé 3 (threshold 4)
    (
        {"dice": [3], "power_dice": [1, 1], "death_die": [4]},
        {"row": "serious", "damage_value": 4, "target": {"sante_after": 3, "killed": False}},
    ),
    (
        {"dice": [3], "power_dice": [1, 1], "death_die": [3]},
        {"row": "serious", "target": {"killed": True, "by": "death_roll"}},
    ),
    # 3 + 6 = 9: "6 or more: very grave": Santé set to 1, threshold 6
    (
        {"dice": [3], "power_dice": [2, 6], "death_die": [5]},
        {"row": "very_grave", "target": {"sante_after": 1, "killed": True}},
    ),
    # "critical success: lethal" (one die showing 6, rank not Novice)
    ({"dice": [6]}, {"row": "lethal", "target": {"killed": True, "by": "lethal"}}),
]


@pytest.mark.parametrize(("dice", "expected"), EVALUATE)
def test_it_follows_the_ranged_damage_table(dice, expected):
    """K7: "Damage value = referent die + weapon power (rolled) + talent effects ... value
    <= 0: superficial; 1-2: benign; 3: light; 4: serious; 5: grave; >= 6: very grave;
    critical success: lethal." K8: death roll "threshold by the new Santé"."""
    answer = ranged.evaluate({**shot(), **dice})
    for key, value in expected.items():
        if isinstance(value, dict):
            assert {k: answer[key][k] for k in value} == value
        else:
            assert answer[key] == value


def test_it_names_the_next_roll_when_it_is_not_typed_yet():
    answer = ranged.evaluate({**shot(), "dice": [4]})
    assert answer["pending"] == {"field": "power_dice", "dice": "2C6"}


def test_it_divides_the_power_by_inhuman_metabolism():
    """K7: "Inhuman metabolism divides the rolled weapon power by 2 (expertise 1) or 3
    (expertise 2 and 3), rounded down." 3 + 5 // 3 = 4: serious instead of very grave."""
    target = {"talents": {"metabolisme-inhumain-vampire": 2}}
    answer = ranged.evaluate({**shot(target=target), "dice": [3], "power_dice": [5, 2]})
    assert (answer["damage_value"], answer["row"]) == (4, "serious")


@pytest.mark.parametrize(
    ("incident_die", "effect", "extra"),
    [
        ([1], "weapon_destroyed", {"attacker_sante_after": 3, "attacker_killed": True}),
        ([3], "ally_hit", {"ally_wound": "light", "attacker_moral": -1}),
        ([6], "disarmed", {"attacker_moral": -1}),
    ],
)
def test_it_reads_the_major_incident_with_a_fresh_die(incident_die, effect, extra):
    """K9. "Incidents. The major-incident table (1 / 2-5 / 6) is read with a fresh 1D6:
    read literally ("the strongest die" of a critical failure), rows 4-6 could never
    occur." A Novice rolling three dice, none above 3, two showing 1."""
    data = {
        **shot(attacker={"rank": "novice", "talents": {"fusil": 1}}),
        "dice": [1, 1, 2],
        "incident_die": incident_die,
        "attacker_death_die": [3],  # 6 - 3 = Santé 3, threshold 4: 3 dies
    }
    answer = ranged.evaluate(data)
    assert answer["row"] == "major_incident"
    assert answer["incident"]["effect"] == effect
    assert {k: answer["incident"][k] for k in extra} == extra


def test_the_attackers_own_death_roll_counts_its_inhuman_metabolism():
    """K8: "A death roll is 1D6 after the loss, threshold by the new Santé (... 3: 4 ...;
    inhuman metabolism 3 lowers it by 1); below the threshold the character dies." The
    weapon explodes in the hands of a vampire of Santé 6: Santé 3 after the loss, threshold
    4 - 1 = 3, so a 3 keeps it alive (a human dies on it)."""
    data = {
        **shot(attacker={"rank": "novice", "talents": {"fusil": 1}}),
        "dice": [1, 1, 2],
        "incident_die": [1],
        "attacker_death_die": [3],
    }
    vampire = shot(attacker={"rank": "novice", "talents": {"fusil": 1, METABOLISM: 3}})
    human_roll = ranged.evaluate(data)["incident"]
    vampire_roll = ranged.evaluate({**data, "attacker": vampire["attacker"]})["incident"]
    assert (human_roll["attacker_sante_after"], human_roll["attacker_killed"]) == (3, True)
    assert (vampire_roll["attacker_sante_after"], vampire_roll["attacker_killed"]) == (3, False)
    human_dies = attack_odds(ranged.setup(data).attack).attacker_dies
    vampire_dies = attack_odds(ranged.setup(vampire).attack).attacker_dies
    assert 0 < vampire_dies < human_dies


@pytest.mark.parametrize(
    ("stray_die", "effect"),
    [
        ([1], "shooter_ally_hit"),
        ([2], "target_ally_hit"),
        ([5], "plain_miss"),
        ([6], "target_ally_hit"),
    ],
)
def test_it_rolls_for_a_stray_shot_after_a_miss_into_a_melee(stray_die, effect):
    """ "Tir dans une mêlée ... Tout résultat d'« échec » indique une possibilité d'avoir
    touché quelqu'un d'autre. On lance un D6 : 1: ... alliée du tireur ... blessure sérieuse
    ... 2-3: ... alliée de la cible reçoit une blessure légère ... 4-5: C'est un échec
    standard. 6: Un allié de la cible ... subit une blessure légère.\""""
    data = {**shot(melee_figures=2), "dice": [2, 2], "stray_die": stray_die, "temper_die": [4]}
    answer = ranged.evaluate(data)
    assert (answer["row"], answer["stray"]["effect"]) == ("miss", effect)
    assert ("temper" in answer) == (effect == "plain_miss")


def test_it_removes_the_target_on_a_666():
    """K5: "666: any roll of exactly three dice ... all showing 6, whatever the rank: the
    affiliation's 666 effect applies"; Annexe 1: "Si le 666 est obtenu au combat alors
    l'adversaire est retiré du théatre sur le champ en tant que perte." A Novice cannot
    roll a critical success, yet the target is removed."""
    data = shot(attacker={"rank": "novice", "talents": {"fusil": 1}})
    answer = ranged.evaluate({**data, "dice": [6, 6, 6], "power_dice": [1, 1]})
    assert answer["outcome"] == "success"
    assert answer["target"] == {"killed": True, "by": "six_six_six"}


# --- Odds against brute force ----------------------------------------------------------------

ODDS_CASES = [
    shot(),  # one die
    shot(distance_cm=75),  # two dice
    shot(attacker={"rank": "novice", "talents": {"fusil": 1}}),  # Novice, 3 dice: 666
    shot(attacker={"rank": "aguerri", "sante": 3}, distance_cm=20),  # 2 kept best, wounded
    shot(melee_figures=3),  # stray shots
    shot(target={"talents": {"metabolisme-inhumain-vampire": 3}, "sante": 4}),
    shot(attacker={"rank": "novice", "talents": {"fusil": 1, "metabolisme-inhumain-vampire": 3}}),
    shot(
        attacker={"talents": {"pistolet": 3, "precision": 2}},
        use=["precision"],
        weapon="pa-police-50",
        distance_cm=25,
    ),  # power 1D6 plus Précision's 1D6
]


def _brute(data):
    prepared = ranged.setup(data)
    rows, follow = {}, {}
    dies = attacker_dies = Fraction(0)
    for p, answer in every_roll(lambda source: ranged._resolve(prepared, source)):
        rows[answer["row"]] = rows.get(answer["row"], 0) + p
        dies += p * answer["target"]["killed"]
        incident = answer.get("incident", {})
        if answer["row"] == "major_incident":
            key = f"major_incident:{incident['effect']}"
            follow[key] = follow.get(key, 0) + p
        attacker_dies += p * incident.get("attacker_killed", False)
        if "stray" in answer:
            key = f"stray:{answer['stray']['effect']}"
            follow[key] = follow.get(key, 0) + p
        if answer.get("temper", {}).get("attacker_moral"):
            follow["temper:moral_lost"] = follow.get("temper:moral_lost", 0) + p
    return rows, dies, attacker_dies, follow


@pytest.mark.parametrize("data", ODDS_CASES)
def test_its_odds_equal_walking_every_roll(data):
    """Odds of every table row, of the target's death (K8, 666) and of the follow-ups
    (K9, stray shots, temper) equal the exact shares of all possible dice."""
    rows, dies, attacker_dies, follow = _brute(data)
    odds = attack_odds(ranged.setup(data).attack)
    assert odds.rows == {k: v for k, v in rows.items() if v}
    assert odds.target_dies == dies
    assert odds.attacker_dies == attacker_dies
    assert odds.follow_up == {k: v for k, v in follow.items() if v}
    assert sum(odds.rows.values()) == 1


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rank=st.sampled_from(["novice", "aguerri", "veteran", "expert"]),
    fusil=st.integers(0, 3),
    distance=st.integers(0, 150),
    cover=st.integers(0, 3),
    order=st.sampled_from(["support", "defensive", "offensive", "movement"]),
    melee_figures=st.integers(0, 4),
    sante=st.integers(1, 6),
)
def test_evaluate_agrees_with_roll_for_the_same_dice(
    seed, rank, fusil, distance, cover, order, melee_figures, sante
):
    data = shot(
        attacker={"rank": rank, "talents": {"fusil": fusil}, "sante": sante},
        distance_cm=distance,
        melee_figures=melee_figures,
        target={"cover": cover, "order": order, "sante": sante},
    )
    rolled = ranged.roll(data, random.Random(seed))
    typed = {**data, "dice": rolled["dice"], **rolled["follow_up"]}
    assert ranged.evaluate(typed) == rolled
    assert "pending" not in rolled
    if "sante_after" in rolled["target"]:
        assert 1 <= rolled["target"]["sante_after"] <= 6
