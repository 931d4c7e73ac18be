"""KOLAPS: who attacks next turn (RULES-NOTES K15).

"Attacker of the next turn: most revealed characters of rank Aguerri or more with Moral
>= 3; then most Novices; then the previous attacker." Reading: the Novices counted for the
tie are the revealed ones too. Input:

    {"sides": {"apc": [{"rank": "veteran", "moral": 4, "revealed": true}, ...],
               "sheol": [...]},
     "previous": "apc"}

No dice: the three verbs give the same answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import Catalogue
from rules.engine.systems.kolaps.steps import certain
from rules.engine.systems.kolaps.talent_test import rank_slugs


def counts(
    characters: list[Mapping[str, Any]], side: str, catalogue: Catalogue | None = None
) -> tuple[int, int]:
    """(revealed Aguerri or more with Moral >= 3, revealed Novices) of one side."""
    catalogue = catalogue or load_catalogue()
    seasoned = novices = 0
    ranks = rank_slugs(catalogue)
    # "de rang Aguerri au minimum ... ayant au moins 3 de moral": the catalogue's numbers;
    # the Novices are the lowest rank.
    follow = catalogue.tables.follow_ups
    min_rank, min_moral = follow.next_attacker_min_rank, follow.next_attacker_min_moral
    for index, character in enumerate(characters):
        path = f"sides.{side}.{index}."
        if not isinstance(character, Mapping):
            raise RuleInputError(path[:-1], "a character is an object", kind="object")
        rank = inputs.choice(character, "rank", ranks, path=path)
        moral = inputs.integer(character, "moral", 1, 6, path=path)
        if not inputs.flag(character, "revealed", True, path=path):
            continue
        if ranks.index(rank) >= ranks.index(min_rank) and moral >= min_moral:
            seasoned += 1
        elif rank == ranks[0]:
            novices += 1
    return seasoned, novices


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    sides = data.get("sides")
    if not isinstance(sides, Mapping) or len(sides) < 2:
        raise RuleInputError(
            "sides", "sides maps two or more sides to their characters", kind="object"
        )
    tally: dict[str, tuple[int, int]] = {}
    for side, characters in sides.items():
        if not isinstance(characters, list):
            raise RuleInputError(f"sides.{side}", "a side is a list of characters", kind="list")
        tally[str(side)] = counts(characters, str(side), catalogue)
    previous = inputs.choice(data, "previous", list(tally))
    best = max(tally.values())
    leaders = [side for side, score in tally.items() if score == best]
    attacker = previous if previous in leaders else leaders[0]
    decided_by = "seasoned"
    if len(leaders) > 1:
        decided_by = "previous"
    elif sum(1 for s in tally.values() if s[0] == best[0]) > 1:
        decided_by = "novices"
    return {
        "attacker": attacker,
        "decided_by": decided_by,
        "counts": {side: {"seasoned": s, "novices": n} for side, (s, n) in tally.items()},
        "dice": [],
    }


odds, roll = certain(evaluate)
