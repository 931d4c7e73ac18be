"""Reputation: one number from a character's statistics, with the sum that makes it.

The rule text only says players come to the site "pour voir les statistiques et la
réputations de son personnages"; it gives no formula. Chronique's formula, documented in
docs/settlement.md and shown with its breakdown on every page that shows the number:

    reputation = max(0, 1 x chapters played + 2 x chapters survived + 3 x victories
                        + 1 x zombies killed + 1 x traumas made permanent - 3 x deaths)

Showing up counts, coming back counts more, winning most; every zombie killed counts the
same (the text gives no ranking of zombie types); a scar carried for good is a story told;
dying costs. Damage and rolls are left out: they exist only for chapters played in
Chronique, and a chapter played at the table must weigh the same.

The weights are data (`WEIGHTS`): the SQL that ranks leaderboards is built from the same
table (campaigns.statistics.services), so the number on a page and its breakdown always agree.
"""

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Weight:
    statistic: str
    points: int


WEIGHTS: tuple[Weight, ...] = (
    Weight("chapters_played", 1),
    Weight("chapters_survived", 2),
    Weight("chapters_won", 3),
    Weight("kills_total", 1),
    Weight("traumas_permanent", 1),
    Weight("deaths", -3),
)
FLOOR = 0


@dataclass(frozen=True)
class Term:
    statistic: str
    count: int
    weight: int
    points: int


@dataclass(frozen=True)
class Reputation:
    total: int
    terms: tuple[Term, ...]
    floored: bool  # the sum fell below FLOOR and was raised to it


def reputation(statistics: Mapping[str, int]) -> Reputation:
    """Reputation and its breakdown from a character's statistics (missing ones count 0)."""
    terms = tuple(
        Term(
            statistic=w.statistic,
            count=int(statistics.get(w.statistic) or 0),
            weight=w.points,
            points=w.points * int(statistics.get(w.statistic) or 0),
        )
        for w in WEIGHTS
    )
    raw = sum(term.points for term in terms)
    return Reputation(total=max(FLOOR, raw), terms=terms, floored=raw < FLOOR)
