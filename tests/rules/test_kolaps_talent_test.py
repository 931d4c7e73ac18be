"""KOLAPS talent tests: RULES-NOTES K4, K5 and K6, checked die by die."""

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.dice import all_rolls
from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import talent_test as t


@pytest.mark.parametrize(
    ("rank", "sante", "effective", "threshold"),
    [
        ("novice", 6, "novice", 4),
        ("aguerri", 6, "aguerri", 4),
        ("veteran", 6, "veteran", 3),
        ("expert", 6, "expert", 2),
        ("expert", 4, "expert", 2),
        ("expert", 3, "veteran", 3),
        ("expert", 2, "aguerri", 4),
        ("expert", 1, "novice", 4),
        ("veteran", 1, "novice", 4),
        ("aguerri", 1, "novice", 4),
    ],
)
def test_it_lowers_the_rank_with_santé(rank, sante, effective, threshold):
    """K4: Effective rank = rank lowered by 1, 2 or 3 at Santé 3, 2 or 1, never below
    Novice. Success threshold by effective rank: Novice 4, Aguerri 4, Vétéran 3, Expert 2."""
    result = t.roll(t.setup(db=2, rank=rank, sante=sante), random.Random(1))
    assert (result.effective_rank, result.threshold) == (effective, threshold)


# K5: "s = dice >= T, f = n - s. In order: critical success: every die shows 6, and the
# effective rank is not Novice; ... success: f = 0 (the referent die is the lowest die);
# mitigated success: s > f > 0; otherwise a failure (f >= s), refined in this order:
# critical failure when s = 0 and at least two dice show 1 and the effective rank is
# Novice or Aguerri; failure with a 1 when exactly one die shows 1 and the effective rank
# is not Expert; plain failure otherwise."
PLAIN = [
    # (db, rank, sante, dice, outcome, referent, 666)
    (3, "veteran", 6, [3, 4, 5], "success", 3, False),
    (3, "veteran", 6, [6, 6, 6], "critical_success", 6, True),
    (3, "novice", 6, [6, 6, 6], "success", 6, True),  # 666 whatever the rank
    (3, "veteran", 6, [2, 4, 5], "mitigated_success", None, False),
    (3, "veteran", 6, [1, 2, 5], "failure_with_one", None, False),
    (3, "veteran", 6, [2, 2, 5], "failure", None, False),
    (2, "veteran", 6, [1, 5], "failure_with_one", None, False),  # f >= s: a failure
    (3, "aguerri", 6, [1, 1, 3], "critical_failure", None, False),
    (3, "veteran", 6, [1, 1, 2], "failure", None, False),  # two 1s, but Vétéran
    (3, "veteran", 1, [1, 1, 2], "critical_failure", None, False),  # Santé 1: Novice
    (3, "expert", 6, [1, 1, 1], "failure", None, False),  # Expert: threshold 2
    (3, "expert", 6, [1, 2, 3], "mitigated_success", None, False),
    (2, "expert", 6, [1, 3], "failure", None, False),  # one 1, Expert: plain
    (1, "novice", 6, [1], "failure_with_one", None, False),
    (1, "novice", 6, [6], "success", 6, False),  # Novice: no critical success
    (1, "aguerri", 6, [6], "critical_success", 6, False),
    (4, "veteran", 6, [3, 3, 6, 4], "success", 3, False),
    (4, "veteran", 6, [1, 3, 6, 4], "mitigated_success", None, False),
    (4, "novice", 6, [1, 1, 4, 4], "failure", None, False),  # s = 2: not critical
    (4, "novice", 6, [1, 3, 4, 4], "failure_with_one", None, False),  # f >= s
]

# K6: "A difficulty (DB) of 0, -1 or -2 and below means 2, 3 or 4 dice, keep the best: the
# kept die alone is judged as a one-die roll (it is also the referent die). Critical
# success needs every rolled die to show 6. Critical failure and failure with a 1 count as
# plain failures."
KEEP_BEST = [
    (0, "veteran", 6, [2, 5], "success", 5, False),
    (0, "veteran", 6, [2, 2], "failure", None, False),
    (0, "veteran", 6, [1, 1], "failure", None, False),
    (0, "veteran", 6, [6, 6], "critical_success", 6, False),
    (0, "veteran", 6, [6, 3], "success", 6, False),
    (-1, "expert", 6, [6, 6, 6], "critical_success", 6, True),  # 3 dice kept best: 666
    (-1, "novice", 6, [6, 6, 6], "success", 6, True),
    (-1, "novice", 6, [1, 1, 3], "failure", None, False),
    (-2, "aguerri", 6, [1, 2, 3, 4], "success", 4, False),
    (-5, "aguerri", 6, [1, 2, 3, 3], "failure", None, False),  # -2 and below: 4 dice
]


@pytest.mark.parametrize(("db", "rank", "sante", "dice", "outcome", "referent", "six"), PLAIN)
def test_it_judges_plain_rolls_as_k5_says(db, rank, sante, dice, outcome, referent, six):
    result = t.evaluate(t.setup(db, rank, sante), dice)
    assert (result.outcome, result.referent, result.six_six_six) == (outcome, referent, six)


@pytest.mark.parametrize(("db", "rank", "sante", "dice", "outcome", "referent", "six"), KEEP_BEST)
def test_it_judges_kept_dice_as_k6_says(db, rank, sante, dice, outcome, referent, six):
    result = t.evaluate(t.setup(db, rank, sante), dice)
    assert (result.outcome, result.referent, result.six_six_six) == (outcome, referent, six)


def _brute_force(test):
    counts: dict[str, int] = {}
    six = 0
    n = test.dice_count
    for dice in all_rolls(n):
        result = t.judge(test, dice)
        counts[result.outcome] = counts.get(result.outcome, 0) + 1
        six += result.six_six_six
    return {k: Fraction(v, 6**n) for k, v in counts.items()}, Fraction(six, 6**n)


_BRUTE: dict = {}


@pytest.mark.parametrize("db", range(-2, 7))
def test_it_gives_odds_equal_to_brute_force_for_every_rank_and_santé(db):
    """Odds by counting faces equal judging every one of the 6^n rolls, exactly."""
    for rank in t.rank_slugs():
        for sante in range(1, 7):
            test = t.setup(db, rank, sante)
            key = (test.dice_count, test.keep_best, test.effective_rank)
            if key not in _BRUTE:
                _BRUTE[key] = _brute_force(test)
            outcomes, six = _BRUTE[key]
            odds = t.odds(test)
            assert odds.outcomes == outcomes, (db, rank, sante)
            assert odds.six_six_six == six


@pytest.mark.parametrize("db", [1, 2, 3, 5, 8, 12, 15])
@pytest.mark.parametrize("rank", t.rank_slugs())
def test_it_gives_odds_summing_to_one_up_to_fifteen_dice(db, rank):
    odds = t.odds(t.setup(db, rank))
    assert abs(float(sum(odds.outcomes.values())) - 1) < 1e-12
    success = sum(v for k, v in odds.outcomes.items() if k in t.SUCCESSES)
    on_referent = odds.outcomes.get("success", 0) + odds.outcomes.get("critical_success", 0)
    assert success >= on_referent
    assert sum(odds.referent.values()) == on_referent


def test_it_reproduces_the_known_odds_of_three_dice_for_a_veteran():
    """Three dice at threshold 3: every die succeeds with 4/6, all three with (2/3)^3."""
    odds = t.odds(t.setup(3, "veteran"))
    assert odds.outcomes["success"] + odds.outcomes["critical_success"] == Fraction(8, 27)
    assert odds.outcomes["critical_success"] == Fraction(1, 216)
    assert odds.six_six_six == Fraction(1, 216)


@given(
    db=st.integers(min_value=-4, max_value=8),
    rank=st.sampled_from(t.rank_slugs()),
    sante=st.integers(min_value=1, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_it_agrees_between_roll_and_evaluate_for_the_same_dice(db, rank, sante, seed):
    test = t.setup(db, rank, sante)
    rolled = t.roll(test, random.Random(seed))
    assert t.evaluate(test, list(rolled.dice)) == rolled
    assert len(rolled.dice) == test.dice_count
    assert all(1 <= d <= 6 for d in rolled.dice)


def test_it_matches_the_share_of_seeded_rolls():
    """Over 20,000 seeded rolls each outcome's share is within 1.5% of its exact odds."""
    test = t.setup(3, "aguerri", 6)
    rng = random.Random(2026)
    n = 20_000
    seen: dict[str, int] = {}
    for _ in range(n):
        outcome = t.roll(test, rng).outcome
        seen[outcome] = seen.get(outcome, 0) + 1
    for outcome, p in t.odds(test).outcomes.items():
        assert abs(seen.get(outcome, 0) / n - float(p)) < 0.015, outcome


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"db": 3, "rank": "captain"}, "rank"),
        ({"db": "3", "rank": "novice"}, "db"),
        ({"db": 3, "rank": "novice", "sante": 0}, "sante"),
        ({"db": 3, "rank": "novice", "sante": 7}, "sante"),
    ],
)
def test_it_names_the_field_of_bad_input(kwargs, field):
    with pytest.raises(RuleInputError) as error:
        t.setup(**kwargs)
    assert error.value.field == field


@pytest.mark.parametrize("dice", [[3, 4], [3, 4, 5, 6], [0, 4, 5], [3, 4, 9], "345"])
def test_it_refuses_dice_that_do_not_fit_the_test(dice):
    with pytest.raises(RuleInputError) as error:
        t.evaluate(t.setup(3, "veteran"), dice)
    assert error.value.field == "dice"
