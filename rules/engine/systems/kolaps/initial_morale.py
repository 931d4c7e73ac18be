"""KOLAPS starting Moral (RULES-NOTES K13).

"Starting Moral (all but the Avatar, always 6 and never changed): 1D6 + rank number; 6 or
more: 6; a die showing 1: 4; otherwise 5." The numbers are the catalogue's
`tables.starting_moral`. Input: `{"rank": "aguerri", "avatar": false}` plus `"dice": [3]`
for evaluate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.engine.dice import SIDES, DiceError, check_dice, roll_d6
from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import Catalogue
from rules.engine.systems.kolaps.talent_test import rank_slugs


def starting_moral(rank: str, die: int, catalogue: Catalogue | None = None) -> int:
    """K13, in the text's order: "Si la valeur ainsi obtenue est au moins 6 ... moral de 6.
    Si le D6 indique un 1 ... moral de 4. Dans tout autre cas ... moral de 5"."""
    catalogue = catalogue or load_catalogue()
    table = catalogue.tables.starting_moral
    if die + catalogue.rank(rank).number >= table.total_at_least:
        return table.when_total_reached
    if die == 1:
        return table.when_die_shows_one
    return table.otherwise


def _setup(data: Mapping[str, Any], catalogue: Catalogue) -> tuple[str, bool]:
    return inputs.choice(data, "rank", rank_slugs(catalogue)), inputs.flag(data, "avatar")


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    rank, avatar = _setup(data, catalogue)
    if avatar:
        return {"outcomes": {"6": 1.0}, "outcomes_exact": {"6": "1/1"}, "dice_count": 0}
    counts: dict[int, int] = {}
    for die in range(1, SIDES + 1):
        moral = starting_moral(rank, die, catalogue)
        counts[moral] = counts.get(moral, 0) + 1
    shares = {str(k): Fraction(v, SIDES) for k, v in sorted(counts.items())}
    return {
        "outcomes": {k: float(v) for k, v in shares.items()},
        "outcomes_exact": {k: f"{v.numerator}/{v.denominator}" for k, v in shares.items()},
        "dice_count": 1,
    }


def _judge(rank: str, avatar: bool, dice: tuple[int, ...], catalogue: Catalogue) -> dict[str, Any]:
    if avatar:
        # "L'Avatar commence toujours avec un moral de 6".
        return {"moral": catalogue.tables.starting_moral.avatar, "dice": []}
    return {"moral": starting_moral(rank, dice[0], catalogue), "dice": list(dice)}


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    rank, avatar = _setup(data, catalogue)
    if avatar:
        return _judge(rank, avatar, (), catalogue)
    try:
        dice = check_dice(data.get("dice") or (), 1)
    except (DiceError, TypeError) as exc:
        raise RuleInputError("dice", str(exc), kind="dice", count=1) from exc
    return _judge(rank, avatar, dice, catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    rank, avatar = _setup(data, catalogue)
    return _judge(rank, avatar, () if avatar else roll_d6(1, rng), catalogue)
