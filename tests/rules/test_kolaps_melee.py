"""KOLAPS melee: RULES-NOTES K10 and K16, then the melee table (K7, K8, K9)."""

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.dice import exploding_d6
from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import melee
from rules.engine.systems.kolaps.attack import attack_odds, resolve
from rules.engine.systems.kolaps.catalogue import load_catalogue
from tests.rules.kolaps_brute import every_roll, faces_of


def fight(a=None, b=None):
    base_a = {"rank": "aguerri", "affiliation": "apc", "weapon": "matraque-composite"}
    base_b = {"rank": "aguerri", "affiliation": "sheol", "weapon": "griffes"}
    return {"a": {**base_a, **(a or {})}, "b": {**base_b, **(b or {})}}


def bonus(data, side="a"):
    return melee.setup(data).bonus(side)


def test_it_adds_expertise_rank_and_supports_to_the_exploding_die():
    """K10. "Each side scores an exploding D6 (a 6 adds another D6, again and again) +
    melee expertise + specialisation bonus + 1 for Vétéran and Expert + 1 per support (2 if
    that support charged)." Corps à corps 2, Vétéran, one support and one that charged:
    2 + 1 + 1 + 2 = 6."""
    data = fight(
        a={
            "rank": "veteran",
            "talents": {"corps-a-corps": 2},
            "supports": [{"charged": False}, {"charged": True}],
        }
    )
    assert bonus(data) == 6
    assert bonus(fight(a={"rank": "aguerri"})) == 0


def test_it_gives_each_affiliation_its_own_charge():
    """K16. "Where the two affiliation annexes print different numbers for a same-named
    talent (Charge 3: +1 for the APC, +3 for the Shéol), each affiliation keeps its
    own.\""""
    apc = fight(a={"charged": True, "talents": {"marche": 1, "charge-apc": 3}})
    sheol = fight(a={"charged": True, "talents": {"marche": 1, "charge-sheol": 3}})
    assert (bonus(apc), bonus(sheol)) == (1, 3)
    assert bonus(fight(a={"talents": {"charge-sheol": 3}})) == 0  # no charge this turn


@pytest.mark.parametrize(
    ("a_dice", "b_dice", "attacker", "db"),
    [
        ([4], [2], "a", 4),  # "DB = 6 - difference"
        ([6, 1], [2], "a", 1),  # 7 - 2 = 5
        ([2], [6, 6, 3], "b", -7),  # 15 - 2 = 13, DB -7: four dice, keep the best
        ([3], [3], None, None),  # "a tie is a harmless exchange"
    ],
)
def test_it_makes_the_higher_score_the_attacker(a_dice, b_dice, attacker, db):
    """K10. "The higher score is the attacker; DB = 6 - difference; a tie is a harmless
    exchange.\""""
    answer = melee.evaluate({**fight(), "a_dice": a_dice, "b_dice": b_dice})
    assert answer["attacker"] == attacker
    if attacker is None:
        assert answer["row"] == "exchange"
    else:
        assert answer["db"] == db
        assert answer["pending"]["field"] == "dice"


def test_it_adjusts_the_db_with_defender_attacker_support_talents_and_protection():
    """K10. "Then defender, attacker and support talents and the target's protection
    against the weapon type adjust the DB": Esquive 2 (+2), Ambidextre 1 (-1), Immobiliser
    1 (-1), riot armour against the claws (slashing, +3); opposition 6 - 3 = 3."""
    data = fight(
        a={"armour": "armure-anti-emeute", "talents": {"corps-a-corps": 2, "esquive": 2}},
        b={
            "talents": {"corps-a-corps": 2, "ambidextre": 1},
            "use": ["ambidextre"],
            "supports": [{"talents": {"immobiliser": 1}}],
        },
    )
    data["a"]["use"] = ["esquive"]
    answer = melee.evaluate({**data, "a_dice": [1], "b_dice": [1]})
    # b scores 1 + 2 + 1 (support) = 4 against a's 1 + 2 = 3: b strikes, difference 1.
    assert answer["attacker"] == "b"
    sources = {m["source"]: m["db"] for m in answer["modifiers"]}
    assert sources == {
        "opposition": 5,
        "defender:esquive": 2,
        "talent:ambidextre": -1,
        "support:0:immobiliser": -1,
        "protection:armure-anti-emeute": 3,
    }
    assert answer["db"] == 8


def test_it_rolls_against_the_attackers_own_threshold_and_reads_the_melee_table():
    """K10 "the attacker rolls against its own threshold"; K7 melee: "value <= 1:
    superficial; 2: benign". A Vétéran (threshold 3) with a baton (power 1) striking on 2
    dice, referent 3: 3 + 1 = 4, serious."""
    data = fight(a={"rank": "veteran"})
    answer = melee.evaluate(
        {**data, "a_dice": [5], "b_dice": [2], "dice": [3, 5], "death_die": [6]}
    )
    # a: 5 + 1 (Vétéran) = 6 against 2: DB 2.
    assert (answer["db"], answer["threshold"], answer["damage_value"]) == (2, 3, 4)
    assert answer["row"] == "serious"
    assert answer["target"]["sante_after"] == 3


def test_it_makes_every_melee_wound_one_level_worse_for_a_sheol_ablaze():
    """Annexe 2, 666: "toutes les blessures qu'il occasionne au corps a corps sont
    augmentées d'un niveau (superficielles devient légères, légères devient sérieuses)"."""
    data = fight(b={"ablaze": True, "weapon": "crocs"})
    typed = {"a_dice": [1], "b_dice": [5], "dice": [4, 4], "power_dice": [], "death_die": [6]}
    answer = melee.evaluate({**data, **typed})
    # b strikes on DB 2, referent 4 + 1 (crocs) = 5: grave, one level worse: very grave.
    assert answer["row"] == "very_grave"


def test_it_refuses_an_exploding_die_that_does_not_explode_as_rolled():
    with pytest.raises(RuleInputError) as error:
        melee.evaluate({**fight(), "a_dice": [6], "b_dice": [2]})
    assert error.value.field == "a_dice"
    with pytest.raises(RuleInputError) as error:
        melee.evaluate({**fight(), "a_dice": [3, 4], "b_dice": [2]})
    assert error.value.field == "a_dice"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (fight(a={"weapon": "fa-f4"}), "a.weapon"),
        (fight(b={"rank": "general"}), "b.rank"),
        (fight(a={"supports": [{"charged": "yes"}]}), "a.supports.0.charged"),
        (fight(a={"use": ["esquive"]}), "a.use"),
    ],
)
def test_it_names_the_field_of_a_bad_input(data, field):
    with pytest.raises(RuleInputError) as error:
        melee.odds(data)
    assert error.value.field == field


def test_its_explosion_cut_loses_less_than_a_billionth():
    """K10. "Exact odds may cap the explosions at a depth whose error stays below 1e-9."
    The cut of both dice drops 1 - (1 - 6^-13)^2 of the pairs."""
    result = melee.melee_odds(melee.setup(fight()))
    assert result.dropped < Fraction(1, 10**9)
    total = result.exchange + sum(result.attacker.values())
    assert 1 - total == result.dropped
    _die, dropped = exploding_d6(melee.DEPTH)
    assert result.dropped == 1 - (1 - dropped) ** 2


MELEE_CASES = [
    fight(),
    fight(
        a={"rank": "veteran", "talents": {"corps-a-corps": 3}, "armour": "armure-anti-emeute"},
        b={"talents": {"metabolisme-inhumain-vampire": 3, "esquive": 1}, "use": ["esquive"]},
    ),
    fight(a={"rank": "novice", "sante": 2}, b={"rank": "expert", "ablaze": True}),
]


@pytest.mark.parametrize("data", MELEE_CASES)
def test_its_opposition_odds_equal_every_pair_of_exploding_dice(data):
    """With the explosions cut at the same depth, who strikes and at which DB equals
    walking every pair of exploding dice one by one."""
    depth = 2
    prepared = melee.setup(data)
    catalogue = load_catalogue()
    exchange = Fraction(0)
    rows = {"a": {}, "b": {}}
    dies = {"a": Fraction(0), "b": Fraction(0)}
    pairs = [
        (a, b, pa * pb)
        for a, pa in faces_of(melee.EXPLODING, depth)
        for b, pb in faces_of(melee.EXPLODING, depth)
    ]
    for a, b, p in pairs:
        difference = sum(a) + prepared.bonus("a") - sum(b) - prepared.bonus("b")
        if difference == 0:
            exchange += p
            continue
        side = "a" if difference > 0 else "b"
        other = "b" if side == "a" else "a"
        result = attack_odds(melee.strike(prepared, side, abs(difference), catalogue))
        for row, q in result.rows.items():
            rows[side][row] = rows[side].get(row, 0) + p * q
        dies[other] += p * result.target_dies
        dies[side] += p * result.attacker_dies
    odds = melee.melee_odds(prepared, depth)
    assert odds.exchange == exchange
    assert odds.rows == rows
    assert odds.dies == dies


@pytest.mark.parametrize(
    ("data", "difference", "side"),
    [
        (MELEE_CASES[0], 4, "a"),  # two dice
        (MELEE_CASES[1], 5, "a"),  # Esquive and armour: three dice
        (MELEE_CASES[2], 6, "b"),  # an Expert ablaze at DB 0: two dice kept best
        (MELEE_CASES[2], 4, "a"),  # a Novice at Santé 2: two dice, incidents
    ],
)
def test_its_strike_odds_equal_walking_every_roll(data, difference, side):
    """The attacker's roll in a melee: every row of the melee table (K7), each death (K8)
    and incident (K9) as the exact shares of all possible dice."""
    attack = melee.strike(melee.setup(data), side, difference, load_catalogue())
    rows, dies, attacker_dies = {}, Fraction(0), Fraction(0)
    for p, answer in every_roll(lambda source: resolve(attack, source, {})):
        rows[answer["row"]] = rows.get(answer["row"], 0) + p
        dies += p * answer["target"]["killed"]
        attacker_dies += p * answer.get("incident", {}).get("attacker_killed", False)
    odds = attack_odds(attack)
    assert odds.rows == {k: v for k, v in rows.items() if v}
    assert (odds.target_dies, odds.attacker_dies) == (dies, attacker_dies)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    ranks=st.tuples(*[st.sampled_from(["novice", "aguerri", "veteran", "expert"])] * 2),
    expertise=st.tuples(st.integers(0, 3), st.integers(0, 3)),
    santes=st.tuples(st.integers(1, 6), st.integers(1, 6)),
)
def test_evaluate_agrees_with_roll_for_the_same_dice(seed, ranks, expertise, santes):
    data = fight(
        a={"rank": ranks[0], "sante": santes[0], "talents": {"corps-a-corps": expertise[0]}},
        b={"rank": ranks[1], "sante": santes[1], "talents": {"corps-a-corps": expertise[1]}},
    )
    rolled = melee.roll(data, random.Random(seed))
    typed = {**data, "dice": rolled["dice"], **rolled["follow_up"]}
    assert melee.evaluate(typed) == rolled
    target = rolled.get("target", {})
    if "sante_after" in target:
        assert 1 <= target["sante_after"] <= 6
