"""KOLAPS talent tests: a roll of dice against the threshold of the effective rank.

Readings (RULES-NOTES): K4 (effective rank and thresholds), K5 (outcomes of nD6, 666),
K6 (DB of 0, -1, -2 and below: 2, 3 or 4 dice, keep the best). Three verbs share one
judge: `evaluate` reads dice typed in by players, `roll` rolls them with the caller's
random source, `odds` gives the exact probability of every outcome by counting faces,
which a test checks against judging every possible roll one by one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from math import comb, factorial

from rules.engine.dice import SIDES, DiceError, check_dice, parse, roll_d6
from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import Catalogue


@dataclass(frozen=True)
class TestNumbers:
    """What a talent test reads from a catalogue: the ranks, their success thresholds
    (K4), the ranks lost at low Santé (K4), the dice a DB of 0 or less rolls to keep the
    best (K6), and the rank numbers and 1s that refine an outcome (K5). Plain and hashable,
    so the exact odds of a setup can be cached."""

    ranks: tuple[str, ...]  # rank slugs, lowest first: rank number n is ranks[n - 1]
    thresholds: tuple[int, ...]  # the success threshold of each rank, same order
    drop_by_sante: tuple[tuple[int, int], ...]  # (Santé, ranks lost)
    keep_best: tuple[tuple[int, int], ...]  # (DB, dice rolled); the lowest DB stands for below
    floor: int  # the rank number a character never falls below
    critical_success_min: int  # the lowest rank number a critical success needs
    critical_failure_max: int  # the highest rank number a critical failure allows
    critical_failure_min_ones: int  # the 1s a critical failure needs
    failure_with_one_max: int  # the highest rank number a failure with a 1 allows
    six_six_six_dice: int  # the dice of a roll that can make a 666

    def number(self, rank: str) -> int:
        return self.ranks.index(rank) + 1


@lru_cache(maxsize=64)
def numbers_of(catalogue: Catalogue) -> TestNumbers:
    """The numbers of `catalogue`, read once per catalogue (each shipped version is one)."""
    ranks = sorted(catalogue.ranks.values(), key=lambda rank: rank.number)
    effective = catalogue.tables.effective_rank
    keep_best = catalogue.tables.keep_best_dice_by_db.dice
    outcomes = catalogue.tables.roll_outcomes
    return TestNumbers(
        ranks=tuple(rank.slug for rank in ranks),
        thresholds=tuple(rank.success_threshold for rank in ranks),
        drop_by_sante=tuple(sorted(effective.rank_drop_by_sante.items())),
        keep_best=tuple(sorted((db, parse(dice).count) for db, dice in keep_best.items())),
        floor=catalogue.rank(effective.floor).number,
        critical_success_min=catalogue.rank(outcomes.critical_success_min_rank).number,
        critical_failure_max=catalogue.rank(outcomes.critical_failure_max_rank).number,
        critical_failure_min_ones=outcomes.critical_failure_min_ones,
        failure_with_one_max=catalogue.rank(outcomes.failure_with_one_max_rank).number,
        six_six_six_dice=outcomes.six_six_six_dice,
    )


@cache
def test_numbers(version: str | None = None) -> TestNumbers:
    """The numbers of catalogue `version` (the current one when None)."""
    return numbers_of(load_catalogue(version))


def numbers_for(catalogue: Catalogue | None) -> TestNumbers:
    """The numbers of `catalogue`, or of the current catalogue when None."""
    return numbers_of(catalogue) if catalogue is not None else test_numbers()


def rank_slugs(catalogue: Catalogue | None = None) -> tuple[str, ...]:
    """The rank slugs, lowest first, of `catalogue` (the current one when None)."""
    return numbers_for(catalogue).ranks


OUTCOMES = (
    "critical_failure",
    "failure_with_one",
    "failure",
    "mitigated_success",
    "success",
    "critical_success",
)
SUCCESSES = frozenset({"mitigated_success", "success", "critical_success"})


@dataclass(frozen=True)
class TestSetup:
    db: int
    rank: str
    sante: int = 6
    numbers: TestNumbers = field(default_factory=test_numbers, repr=False)

    @property
    def effective_rank(self) -> int:
        """K4: the rank number lowered at low Santé, never below the floor (Novice)."""
        drop = dict(self.numbers.drop_by_sante).get(self.sante, 0)
        return max(self.numbers.floor, self.numbers.number(self.rank) - drop)

    @property
    def threshold(self) -> int:
        return self.numbers.thresholds[self.effective_rank - 1]

    @property
    def effective_rank_slug(self) -> str:
        return self.numbers.ranks[self.effective_rank - 1]

    @property
    def can_be_critical(self) -> bool:
        """K5: "critical success: every die shows 6, and the effective rank is not Novice"."""
        return self.effective_rank >= self.numbers.critical_success_min

    @property
    def keep_best(self) -> bool:
        """K6: a DB of 0 or less rolls several dice and keeps the best."""
        return self.db <= self.numbers.keep_best[-1][0]

    @property
    def dice_count(self) -> int:
        """K6: DB 0, -1, -2 or less roll the catalogue's kept-best dice; otherwise DB dice
        (K5)."""
        if not self.keep_best:
            return self.db
        below = self.numbers.keep_best[0][1]  # the lowest DB listed stands for any below
        return dict(self.numbers.keep_best).get(self.db, below)


@dataclass(frozen=True)
class TestResult:
    outcome: str
    referent: int | None
    six_six_six: bool
    dice: tuple[int, ...]
    successes: int
    failures: int
    threshold: int
    effective_rank: str

    @property
    def succeeded(self) -> bool:
        return self.outcome in SUCCESSES


def setup(
    db: object, rank: object, sante: object = 6, catalogue: Catalogue | None = None
) -> TestSetup:
    """Check the inputs of a test, read with `catalogue`'s numbers (the current catalogue's
    when None); a refusal names its field."""
    numbers = numbers_for(catalogue)
    if isinstance(db, bool) or not isinstance(db, int):
        raise RuleInputError("db", "db is a whole number")
    if not -20 <= db <= 30:
        raise RuleInputError("db", "db lies between -20 and 30")
    if rank not in numbers.ranks:
        raise RuleInputError("rank", f"rank is one of {', '.join(numbers.ranks)}")
    if isinstance(sante, bool) or not isinstance(sante, int) or not 1 <= sante <= 6:
        raise RuleInputError("sante", "sante is a whole number from 1 to 6")
    return TestSetup(db=db, rank=str(rank), sante=sante, numbers=numbers)


def judge(test: TestSetup, dice: tuple[int, ...]) -> TestResult:
    """Judge rolled dice (K5, K6). `dice` has `test.dice_count` values from 1 to 6."""
    threshold = test.threshold
    all_six = all(d == SIDES for d in dice)
    # K5: any roll of exactly three dice all showing 6, whatever the rank.
    six_six_six = len(dice) == test.numbers.six_six_six_dice and all_six
    if test.keep_best:
        # K6: the kept die alone is judged as a one-die roll; it is the referent die.
        kept = max(dice)
        s = 1 if kept >= threshold else 0
        if all_six and test.can_be_critical:
            outcome = "critical_success"
        elif s:
            outcome = "success"
        else:
            # K6: critical failure and failure with a 1 count as plain failures.
            outcome = "failure"
        referent = kept if outcome in {"success", "critical_success"} else None
        return TestResult(
            outcome,
            referent,
            six_six_six,
            dice,
            s,
            1 - s,
            threshold,
            test.effective_rank_slug,
        )
    s = sum(1 for d in dice if d >= threshold)
    f = len(dice) - s
    ones = sum(1 for d in dice if d == 1)
    outcome = plain_outcome(test, s, f, ones, all_six)
    # K5: on a success the referent die is the lowest die.
    referent = min(dice) if outcome in {"success", "critical_success"} else None
    return TestResult(
        outcome, referent, six_six_six, dice, s, f, threshold, test.effective_rank_slug
    )


def plain_outcome(test: TestSetup, s: int, f: int, ones: int, all_six: bool) -> str:
    """K5 for a roll of n >= 1 dice, from its counts: `s` dice at the threshold or above,
    `f` below, `ones` showing 1, `all_six` every die a 6; the effective rank is the test's,
    and the ranks and 1s each outcome needs are the catalogue's."""
    rank, numbers = test.effective_rank, test.numbers
    if all_six and test.can_be_critical:
        return "critical_success"
    if f == 0:
        return "success"
    if s > f:
        return "mitigated_success"
    if (
        s == 0
        and ones >= numbers.critical_failure_min_ones
        and rank <= numbers.critical_failure_max
    ):
        return "critical_failure"
    if ones == 1 and rank <= numbers.failure_with_one_max:
        return "failure_with_one"
    return "failure"


def evaluate(test: TestSetup, dice: object) -> TestResult:
    """Judge dice the players rolled by hand."""
    if not isinstance(dice, list | tuple):
        raise RuleInputError(
            "dice", f"dice is a list of {test.dice_count} values", count=test.dice_count
        )
    try:
        values = check_dice(dice, test.dice_count)
    except DiceError as exc:
        raise RuleInputError("dice", str(exc), count=test.dice_count) from exc
    return judge(test, values)


def roll(test: TestSetup, rng: random.Random) -> TestResult:
    """Roll the test's dice with the caller's random source and judge them."""
    return judge(test, roll_d6(test.dice_count, rng))


@dataclass(frozen=True)
class TestOdds:
    outcomes: dict[str, Fraction]
    six_six_six: Fraction
    referent: dict[int, Fraction]  # P(success with this referent die), by die value


@lru_cache(maxsize=4096)
def odds(test: TestSetup) -> TestOdds:
    """Exact odds of every outcome, by counting faces rather than listing rolls.

    Pure and cached by setup (a few hundred setups exist): callers must not change the
    dictionaries of the answer.

    Plain rolls: a die is a 1, another failing face, a succeeding face below 6, or a 6;
    the outcome depends only on how many of each. Keep-best rolls: the kept die is the
    maximum, whose distribution is (k^n - (k-1)^n) / 6^n.
    """
    n = test.dice_count
    threshold = test.threshold
    total = Fraction(1, SIDES**n)
    outcomes: dict[str, Fraction] = {}
    referent: dict[int, Fraction] = {}

    def add(outcome: str, p: Fraction) -> None:
        outcomes[outcome] = outcomes.get(outcome, Fraction(0)) + p

    if test.keep_best:
        for kept in range(1, SIDES + 1):
            ways = kept**n - (kept - 1) ** n
            if kept == SIDES:
                # All six (one way) is critical unless Novice; the rest are successes.
                all_six = 1
                if test.can_be_critical:
                    add("critical_success", all_six * total)
                    referent[SIDES] = referent.get(SIDES, Fraction(0)) + all_six * total
                    ways -= all_six
            if kept >= threshold:
                add("success", ways * total)
                referent[kept] = referent.get(kept, Fraction(0)) + ways * total
            else:
                add("failure", ways * total)
        six = total if n == test.numbers.six_six_six_dice else Fraction(0)
        return TestOdds(outcomes, six, dict(sorted(referent.items())))

    # Count ways in whole numbers and divide once: a die is a 1, another failing face
    # (2 .. threshold-1), a succeeding face below 6, or a 6; the outcome depends only on
    # how many of each, and `plain_outcome` (which `judge` uses too) decides it.
    other_fail = threshold - 2
    other_success = SIDES - threshold
    ways_by_outcome: dict[str, int] = {}
    referent_ways: dict[int, int] = {}
    fact = _FACTORIALS
    for ones in range(n + 1):
        for fails in range(n - ones + 1):
            if fails and not other_fail:
                break
            fail_ways = other_fail**fails
            rest = n - ones - fails
            for succ in range(rest + 1):
                sixes = rest - succ
                ways = (
                    fact[n]
                    // (fact[ones] * fact[fails] * fact[succ] * fact[sixes])
                    * fail_ways
                    * other_success**succ
                )
                if not ways:
                    continue
                s_count = succ + sixes  # thresholds are 2 to 4: a 1 always fails
                outcome = plain_outcome(test, s_count, n - s_count, ones, sixes == n)
                ways_by_outcome[outcome] = ways_by_outcome.get(outcome, 0) + ways
                if outcome in ("success", "critical_success"):
                    # The lowest die of a success: spread over the faces it may show.
                    _add_referent(referent_ways, n, threshold, succ, sixes)
    for outcome, ways in ways_by_outcome.items():
        outcomes[outcome] = ways * total
    for face, ways in referent_ways.items():
        referent[face] = ways * total
    six = total if n == test.numbers.six_six_six_dice else Fraction(0)
    return TestOdds({k: v for k, v in outcomes.items() if v}, six, dict(sorted(referent.items())))


_FACTORIALS = [factorial(k) for k in range(64)]


def _add_referent(referent: dict[int, int], n: int, threshold: int, succ: int, sixes: int) -> None:
    """Count the successes of `succ` dice in threshold..5 and `sixes` sixes by lowest die."""
    positions = comb(n, sixes)
    if succ == 0:
        referent[SIDES] = referent.get(SIDES, 0) + positions
        return
    # The `succ` dice take values in threshold..5; the lowest of them is the referent.
    for low in range(threshold, SIDES):
        at_least = SIDES - low  # values low..5
        above = at_least - 1  # values low+1..5
        referent[low] = referent.get(low, 0) + positions * (at_least**succ - above**succ)
