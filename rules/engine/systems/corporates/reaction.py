"""Reaction rolls for the initiative within a segment (Priorité des actions): "chacun
effectue un jet de réaction ... Si l'un des personnages surpasse de 5 ou plus son
adversaire, il prend l'initiative et décide de l'organisation du segment."

Input: `{"a_pool": 4, "a_bonus": 2, "b_pool": 3, "b_bonus": 0}` plus `"a_dice"` and
`"b_dice"` for evaluate. When neither beats the other by 5 the campaign setting
`initiative_within_margin` decides (default: simultaneous).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.engine.systems.corporates import pool as p
from rules.engine.systems.corporates.catalogue import Catalogue, load_catalogue
from rules.engine.systems.corporates.common import chosen_settings
from rules.engine.systems.kolaps import inputs


def _setup(data: Mapping[str, Any], catalogue: Catalogue) -> tuple[int, int, int, int, str]:
    return (
        inputs.integer(data, "a_pool", 1, p.MAX_POOL),
        inputs.integer(data, "a_bonus", -50, 50, default=0),
        inputs.integer(data, "b_pool", 1, p.MAX_POOL),
        inputs.integer(data, "b_bonus", -50, 50, default=0),
        chosen_settings(data, catalogue)["initiative_within_margin"],
    )


def initiative(a: int, b: int, within: str, catalogue: Catalogue) -> str:
    """Who organises the segment: `a`, `b`, or `simultaneous`."""
    margin = catalogue.actions["initiative_margin"]
    if a - b >= margin:
        return "a"
    if b - a >= margin:
        return "b"
    if within == "higher_result" and a != b:
        return "a" if a > b else "b"
    return "simultaneous"


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    a_pool, a_bonus, b_pool, b_bonus, within = _setup(data, catalogue)
    a_rows, a_den = p.plain_sum(a_pool)
    b_rows, b_den = p.plain_sum(b_pool)
    counts = {"a": 0, "b": 0, "simultaneous": 0}
    for a, wa in a_rows:
        for b, wb in b_rows:
            counts[initiative(a + a_bonus, b + b_bonus, within, catalogue)] += wa * wb
    return p.outcome_answer({k: Fraction(v, a_den * b_den) for k, v in counts.items()})


def _answer(
    a_dice: tuple[int, ...],
    b_dice: tuple[int, ...],
    setup: tuple[int, int, int, int, str],
    catalogue: Catalogue,
) -> dict[str, Any]:
    _, a_bonus, _, b_bonus, within = setup
    a, b = sum(a_dice) + a_bonus, sum(b_dice) + b_bonus
    return {
        "a_result": a,
        "b_result": b,
        "initiative": initiative(a, b, within, catalogue),
        "a_dice": list(a_dice),
        "b_dice": list(b_dice),
        "dice": [*a_dice, *b_dice],
    }


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    setup = _setup(data, catalogue)
    a_dice = p.check_pool(data.get("a_dice"), setup[0], "a_dice")
    b_dice = p.check_pool(data.get("b_dice"), setup[2], "b_dice")
    return _answer(a_dice, b_dice, setup, catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    catalogue = catalogue or load_catalogue()
    setup = _setup(data, catalogue)
    return _answer(p.roll_pool(setup[0], rng), p.roll_pool(setup[2], rng), setup, catalogue)
