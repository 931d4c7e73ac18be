"""Rapid 40000 dice: opposed combat totals and Quality rolls, exact and rolled.

RULES-NOTES R2: "one D6 per engaged figure + the leader's C + bonuses, against the same for
the other side; the loser removes one figure, weakest first and the leader last; a tie
removes none. Morale and disengagement: 3 dice against the leader's Quality, counting
failures." Each function here takes plain numbers (dice counts, modifiers, thresholds); the
JSON inputs and the catalogue's bonuses are read in `resolvers.py`.

Outcomes of a contest, read from the margin (side a's total minus side b's):

- melee ("Résultat du combat"): either side may lose; "tie" when equal;
- shooting ("Combat à distance"): only the target can lose; the shot does nothing unless the
  fire beats the resistance ("si la puissance de feu est plus grande que la résistance");
- armour: a loser whose rules ignore a loss by 1 (Armure, Armure légère) loses nothing
  when the margin is 1 ("armour_saved");
- a vehicle (Véhicules blindés): won by 1 immobilises it, by more destroys it.

Pure Python; randomness comes from the caller.
"""

from __future__ import annotations

from fractions import Fraction

from rules.engine.dice import SIDES, Distribution, distribution

MELEE_OUTCOMES = ("a_wins", "b_wins", "tie", "armour_saved")
SHOT_OUTCOMES = ("hit", "armour_saved", "no_effect", "deviated")
VEHICLE_OUTCOMES = ("destroyed", "immobilised", "undamaged", "deviated")


def total_distribution(dice: int, modifier: int) -> Distribution:
    """The total of `dice` D6 plus a modifier (the leader's C and the bonuses)."""
    return {value + modifier: p for value, p in distribution(f"{dice}D6").items()}


def margin_distribution(a_dice: int, a_modifier: int, b_dice: int, b_modifier: int) -> Distribution:
    """The exact distribution of a's total minus b's total."""
    out: Distribution = {}
    for x, px in total_distribution(a_dice, a_modifier).items():
        for y, py in total_distribution(b_dice, b_modifier).items():
            out[x - y] = out.get(x - y, Fraction(0)) + px * py
    return out


def melee_outcome(margin: int, a_ignores: int, b_ignores: int) -> str:
    if margin > 0:
        return "armour_saved" if margin <= b_ignores else "a_wins"
    if margin < 0:
        return "armour_saved" if -margin <= a_ignores else "b_wins"
    return "tie"


def shot_outcome(margin: int, target_ignores: int) -> str:
    if margin <= 0:
        return "no_effect"
    return "armour_saved" if margin <= target_ignores else "hit"


def vehicle_outcome(margin: int, immobilised_margin: int) -> str:
    if margin <= 0:
        return "undamaged"
    return "immobilised" if margin <= immobilised_margin else "destroyed"


def successes_distribution(dice: int, threshold: int) -> Distribution:
    """How many of `dice` D6 reach `threshold` (a Quality roll: "3+" succeeds on 3 to 6)."""
    hits = max(0, min(SIDES, SIDES + 1 - threshold))
    p = Fraction(hits, SIDES)
    out: Distribution = {}
    for k in range(dice + 1):
        out[k] = _binomial(dice, k) * p**k * (1 - p) ** (dice - k)
    return out


def _binomial(n: int, k: int) -> int:
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result


def successes(dice: tuple[int, ...], threshold: int) -> int:
    return sum(1 for d in dice if d >= threshold)


def fold(outcomes: dict[str, Fraction], keys: tuple[str, ...]) -> dict[str, Fraction]:
    """Every outcome of `keys` listed, the impossible ones at 0, in that order."""
    return {key: outcomes.get(key, Fraction(0)) for key in keys}
