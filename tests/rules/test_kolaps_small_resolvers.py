"""KOLAPS death rolls (K8), starting Moral (K13), end phase (K14), next attacker (K15),
Vigilance interventions and the 666 of each affiliation."""

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.dice import all_rolls
from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import (
    death,
    end_phase,
    initial_morale,
    next_attacker,
    six_six_six,
    talent_test,
    vigilance,
)

# --- K8 ------------------------------------------------------------------------------------

DEATHS = [
    # (Santé, wound, metabolism level, Santé after, threshold)
    (6, "superficial", None, 5, None),  # "superficial -1 Santé" (no death roll)
    (6, "benign", None, 4, None),  # "benign -2"
    (6, "light", None, 4, 3),  # "light -2 and a death roll" at Santé 4: threshold 3
    (4, "serious", None, 1, 6),  # "serious -3": Santé 1, threshold 6
    (2, "grave", None, 1, 6),  # "Damage never takes Santé below 1"
    (6, "very_grave", None, 1, 6),  # "very grave Santé set to 1"
    (6, "serious", 3, 3, 3),  # "inhuman metabolism 3 lowers it by 1"
    (6, "serious", 2, 3, 4),
]


@pytest.mark.parametrize(("sante", "wound", "metabolism", "after", "threshold"), DEATHS)
def test_it_applies_wounds_and_their_death_roll(sante, wound, metabolism, after, threshold):
    """K8. "Wounds: superficial -1 Santé; benign -2; light -2 and a death roll; serious -3
    ...; very grave Santé set to 1, death roll ... Damage never takes Santé below 1: death
    comes from death rolls. A death roll is 1D6 after the loss, threshold by the new Santé
    (6: none, 5: 2, 4: 3, 3: 4, 2: 5, 1: 6; inhuman metabolism 3 lowers it by 1); below
    the threshold the character dies.\""""
    talents = {} if metabolism is None else {"metabolisme-inhumain-vampire": metabolism}
    data = {"sante": sante, "wound": wound, "talents": talents}
    odds = death.odds(data)
    assert (odds["sante_after"], odds["death_roll_threshold"]) == (after, threshold)
    expected = Fraction(threshold - 1, 6) if threshold else Fraction(0)
    assert odds["dies_exact"] == f"{expected.numerator}/{expected.denominator}"
    for die in range(1, 7):
        answer = death.evaluate({**data, "death_die": [die]})
        assert answer["killed"] == (threshold is not None and die < threshold)


def test_it_kills_outright_on_a_lethal_wound():
    """K8. "lethal: killed, attacker +2 Moral, the target's allies within 25 cm -1 Moral"."""
    answer = death.evaluate({"sante": 6, "wound": "lethal"})
    assert answer["killed"] is True
    assert (answer["attacker_moral"], answer["allies_moral"]) == (2, -1)
    assert answer["allies_radius_cm"] == 25
    assert death.odds({"sante": 6, "wound": "lethal"})["outcomes"]["dies"] == 1.0


# --- K13 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rank", "die", "moral"),
    [
        ("novice", 1, 4),  # "a die showing 1: 4"
        ("novice", 4, 5),  # "otherwise 5"
        ("novice", 5, 6),  # 5 + 1 = 6: "6 or more: 6"
        ("aguerri", 4, 6),
        ("expert", 1, 4),  # 1 + 4 = 5: not 6 or more, and the die shows 1
        ("expert", 2, 6),
    ],
)
def test_it_draws_the_starting_moral(rank, die, moral):
    """K13. "Starting Moral (all but the Avatar, always 6 and never changed): 1D6 + rank
    number; 6 or more: 6; a die showing 1: 4; otherwise 5.\""""
    assert initial_morale.evaluate({"rank": rank, "dice": [die]})["moral"] == moral


def test_it_gives_the_avatar_six_without_dice():
    """K13: the Avatar is "always 6"."""
    assert initial_morale.roll({"rank": "novice", "avatar": True}, random.Random(1)) == {
        "moral": 6,
        "dice": [],
    }


@pytest.mark.parametrize("rank", talent_test.rank_slugs())
def test_its_starting_moral_odds_equal_the_share_of_faces(rank):
    odds = initial_morale.odds({"rank": rank})["outcomes_exact"]
    shares = {}
    for (die,) in all_rolls(1):
        moral = str(initial_morale.evaluate({"rank": rank, "dice": [die]})["moral"])
        shares[moral] = shares.get(moral, 0) + Fraction(1, 6)
    assert odds == {k: f"{v.numerator}/{v.denominator}" for k, v in sorted(shares.items())}


# --- K14 -----------------------------------------------------------------------------------


def character(**changes):
    return {"rank": "veteran", "sante": 6, "souffle": 4, "moral": 4, **changes}


def one(**changes):
    return end_phase.evaluate({"characters": [character(**changes)]})["characters"][0]


def test_it_recovers_one_breath_when_rested_and_not_engaged():
    """K14. "Breath: +1 when none was spent and not engaged, unless Santé <= 3"."""
    assert one()["souffle"] == 5
    assert one(breath_spent=True)["souffle"] == 4
    assert one(engaged=True)["souffle"] == 4
    assert one(sante=3)["souffle"] == 4


def test_it_gives_breath_equal_to_sante_on_a_declared_recovery():
    """K14. "a declared Recovery gives breath equal to Santé" (gauges stay within 1..6)."""
    assert one(sante=4, souffle=1, recovery=True)["souffle"] == 5
    assert one(sante=6, souffle=4, recovery=True)["souffle"] == 6


def test_it_heals_before_breath_and_makes_the_weak_unconscious_next_turn():
    """K14. "End phase, in order: melees, healing, breath recovery ..."; "Santé + Souffle
    <= 6 means unconscious next turn". Healed from 3 to 4, the character recovers breath."""
    answer = one(sante=3, souffle=1, healing=1)
    assert (answer["sante"], answer["souffle"]) == (4, 2)
    assert answer["unconscious_next_turn"] is True
    assert one(sante=4, souffle=3)["unconscious_next_turn"] is False


def test_it_gets_the_unconscious_up_and_makes_the_frightened_pay_one_moral():
    """K14. "the unconscious of the previous turn get up, the frightened recover for 1
    Moral, Moral adjustments"."""
    answer = one(unconscious=True, frightened=True, moral=4)
    assert answer["gets_up"] is True
    assert (answer["frightened"], answer["moral"]) == (False, 3)


@pytest.mark.parametrize(
    ("rank", "sante", "lost", "moral_lost"),
    [
        ("novice", 5, 1, 1),  # "Novice perd 1 moral si ... perte d'au moins 1"
        ("novice", 3, 3, 2),  # "et 2 moral s'il perd au moins 3"
        ("aguerri", 5, 1, 0),
        ("aguerri", 2, 1, 1),  # "ou si il ne lui reste plus que 2 points de santé"
        ("veteran", 4, 2, 0),
        ("veteran", 3, 3, 1),  # "Vétéran perd 1 moral si il subit une perte d'au moins 3"
        ("expert", 1, 5, 0),  # "Expert ne perd pas de moral pour une blessure."
    ],
)
def test_it_takes_moral_from_the_wounded_by_rank(rank, sante, lost, moral_lost):
    answer = one(rank=rank, sante=sante, sante_lost=lost, moral=5, breath_spent=True)
    assert answer["moral"] == 5 - moral_lost


def test_it_never_changes_the_avatars_moral():
    """ "L'Avatar commence toujours avec un moral de 6 et ne peut pas être modifié"."""
    answer = one(avatar=True, moral=6, frightened=True, moral_changes=-3, sante_lost=3)
    assert answer["moral"] == 6


def test_it_names_the_character_and_field_of_a_bad_gauge():
    with pytest.raises(RuleInputError) as error:
        end_phase.evaluate({"characters": [character(), character(souffle=9)]})
    assert error.value.field == "characters.1.souffle"


gauge = st.integers(1, 6)


@settings(max_examples=200, deadline=None)
@given(
    rank=st.sampled_from(talent_test.rank_slugs()),
    sante=gauge,
    souffle=gauge,
    moral=gauge,
    healing=st.integers(0, 6),
    lost=st.integers(0, 6),
    changes=st.integers(-10, 10),
    flags=st.lists(st.booleans(), min_size=6, max_size=6),
)
def test_gauges_stay_within_one_and_six(rank, sante, souffle, moral, healing, lost, changes, flags):
    """K14. "Gauges stay within 1..6"."""
    names = ("avatar", "breath_spent", "engaged", "recovery", "unconscious", "frightened")
    answer = one(
        rank=rank,
        sante=sante,
        souffle=souffle,
        moral=moral,
        healing=healing,
        sante_lost=lost,
        moral_changes=changes,
        **dict(zip(names, flags, strict=True)),
    )
    assert all(1 <= answer[g] <= 6 for g in ("sante", "souffle", "moral"))
    assert answer["unconscious_next_turn"] == (answer["sante"] + answer["souffle"] <= 6)


# --- K15 -----------------------------------------------------------------------------------


def side(*characters):
    return [{"rank": r, "moral": m, "revealed": v} for r, m, v in characters]


@pytest.mark.parametrize(
    ("apc", "sheol", "previous", "attacker", "decided_by"),
    [
        # "most revealed characters of rank Aguerri or more with Moral >= 3"
        (
            side(("veteran", 4, True), ("aguerri", 3, True)),
            side(("expert", 6, True)),
            "sheol",
            "apc",
            "seasoned",
        ),
        # Moral 2 and hidden characters do not count
        (
            side(("veteran", 2, True), ("aguerri", 5, False)),
            side(("aguerri", 3, True)),
            "apc",
            "sheol",
            "seasoned",
        ),
        # "then most Novices"
        (
            side(("veteran", 4, True), ("novice", 1, True)),
            side(("veteran", 4, True)),
            "sheol",
            "apc",
            "novices",
        ),
        # "then the previous attacker"
        (side(("novice", 4, True)), side(("novice", 4, True)), "sheol", "sheol", "previous"),
    ],
)
def test_it_chooses_the_next_attacker(apc, sheol, previous, attacker, decided_by):
    """K15. "Attacker of the next turn: most revealed characters of rank Aguerri or more
    with Moral >= 3; then most Novices; then the previous attacker.\""""
    answer = next_attacker.evaluate({"sides": {"apc": apc, "sheol": sheol}, "previous": previous})
    assert (answer["attacker"], answer["decided_by"]) == (attacker, decided_by)


def test_it_wants_the_previous_attacker_to_be_a_side():
    with pytest.raises(RuleInputError) as error:
        next_attacker.evaluate({"sides": {"apc": [], "sheol": []}, "previous": "chrisme"})
    assert error.value.field == "previous"


# --- Vigilance and interventions --------------------------------------------------------------


@pytest.mark.parametrize(
    ("rank", "level", "target", "kind", "db"),
    [
        ("veteran", 0, "aguerri", "automatic", None),  # a higher rank intervenes
        ("aguerri", 0, "aguerri", "impossible", None),  # level 0: no table
        ("aguerri", 1, "aguerri", "roll", 2),  # 2D6 on the diagonal
        ("novice", 1, "veteran", "impossible", None),  # "X"
        ("aguerri", 2, "expert", "roll", 3),  # 3D6
        ("novice", 3, "novice", "roll", 0),  # 2C6: DB 0, two dice kept best
    ],
)
def test_it_reads_the_vigilance_tables(rank, level, target, kind, db):
    """Annexe 1, Vigilance: "les niveaux d'expertise supérieurs permettent d'intervenir
    sur des personnages dont le rang n'autorise pas ce type d'actions ... se référer aux
    tableaux ... pour connaître le jet de dé à effectuer"; the core rule: "des personnages
    adverses d'un rang supérieur peuvent s'activer contre le personnage"."""
    odds = vigilance.odds({"rank": rank, "level": level, "target_rank": target})
    assert odds["intervention"] == kind
    assert odds.get("db") == db


def test_it_lets_a_vigilant_character_intervene_on_a_success():
    data = {"rank": "aguerri", "level": 1, "target_rank": "aguerri"}
    assert vigilance.evaluate({**data, "dice": [4, 5]})["intervenes"] is True
    assert vigilance.evaluate({**data, "dice": [2, 5]})["intervenes"] is False
    # Odds equal the share of all 36 rolls that succeed.
    wins = sum(
        vigilance.evaluate({**data, "dice": list(dice)})["intervenes"] for dice in all_rolls(2)
    )
    assert vigilance.odds(data)["intervenes"] == pytest.approx(wins / 36, abs=1e-15)


# --- 666 ---------------------------------------------------------------------------------------


def test_it_applies_each_affiliations_666():
    """K5: "the affiliation's 666 effect applies, besides the outcome". Annexe 1 and 2:
    "Si le 666 est obtenu au combat alors l'adversaire est retiré du théatre sur le champ
    ... Dans les autres cas ... c'est une réussite critique"; the Shéol's melee wounds are
    one level worse; the Chrisme has no annex."""
    apc = six_six_six.evaluate({"affiliation": "apc", "in_combat": True, "dice": [6, 6, 6]})
    assert apc["effect"]["result"] == "opponent_removed"
    assert apc["effect"]["gauges_locked_at"] == 6
    sheol = six_six_six.evaluate({"affiliation": "sheol", "dice": [6, 6, 6]})
    assert sheol["effect"]["result"] == "critical_success"
    assert sheol["effect"]["melee_wounds_one_level_worse"] is True
    assert six_six_six.evaluate({"affiliation": "chrisme", "dice": [6, 6, 6]})["effect"] is None
    assert six_six_six.evaluate({"affiliation": "apc", "dice": [6, 6, 5]})["effect"] is None
    assert six_six_six.odds({"affiliation": "apc"})["six_six_six_exact"] == "1/216"


# --- Three verbs agree ---------------------------------------------------------------------------


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rank=st.sampled_from(talent_test.rank_slugs()),
    level=st.integers(0, 3),
)
def test_evaluate_agrees_with_roll_for_vigilance_and_morale(seed, rank, level):
    data = {"rank": rank, "level": level, "target_rank": "expert"}
    rolled = vigilance.roll(data, random.Random(seed))
    assert vigilance.evaluate({**data, "dice": rolled["dice"]}) == rolled
    moral = initial_morale.roll({"rank": rank}, random.Random(seed))
    assert initial_morale.evaluate({"rank": rank, "dice": moral["dice"]}) == moral
    wound = {"sante": 1 + seed % 6, "wound": "serious"}
    dead = death.roll(wound, random.Random(seed))
    assert death.evaluate({**wound, "death_die": dead["dice"]}) == dead
