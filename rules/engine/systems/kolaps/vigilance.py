"""KOLAPS interventions and the APC's Vigilance talent.

The core rule ("Intervention"): "A tout moment des personnages adverses d'un rang
supérieur peuvent s'activer contre le personnage voulant initialement s'activer". Annexe 1,
Vigilance: "les niveaux d'expertise supérieurs permettent d'intervenir sur des personnages
dont le rang n'autorise pas ce type d'actions. Pour cela il faut se référer aux tableaux
ci-dessous pour connaître le jet de dé à effectuer." The tables are the catalogue's
`intervention_dice` (rows: the vigilant character's rank; columns: the rank of the one
it intervenes on; "-" automatic, "X" impossible). The roll is a talent test (K4-K6) at the
vigilant character's threshold: `D6`, `2D6`, `3D6` roll 1, 2, 3 dice; `2C6` is DB 0.
Reading: any success (mitigated included) lets the character intervene.

Input: `{"rank": "aguerri", "level": 2, "target_rank": "veteran", "sante": 6}` plus
`"dice"` for evaluate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import asdict
from fractions import Fraction
from typing import Any

from rules.engine.dice import parse
from rules.engine.systems.kolaps import inputs
from rules.engine.systems.kolaps import talent_test as t
from rules.engine.systems.kolaps.catalogue import load_catalogue
from rules.engine.systems.kolaps.catalogue_records import (
    INTERVENTION_AUTOMATIC,
    INTERVENTION_IMPOSSIBLE,
    Catalogue,
)


def intervention_cell(
    rank: str, level: int, target_rank: str, catalogue: Catalogue | None = None
) -> str:
    """The cell of the table: "-", "X" or the dice; level 0 has no table (core rule). The
    table is the vigilance talent's (Discipline from catalogue 2026.11.2, K17)."""
    catalogue = catalogue or load_catalogue()
    numbers = catalogue.vigilance_talent().level(level).intervention_dice
    if numbers is None:
        higher = catalogue.rank(rank).number > catalogue.rank(target_rank).number
        return INTERVENTION_AUTOMATIC if higher else INTERVENTION_IMPOSSIBLE
    return numbers[rank][target_rank]


def db_of(cell: str, numbers: t.TestNumbers | None = None) -> int:
    """`nD6` rolls n dice (DB n); `nC6` keeps the best of n: the DB whose kept-best dice
    the catalogue's K6 table gives as n (2C6: DB 0)."""
    dice = parse(cell)
    if not dice.keep_best:
        return dice.count
    keep_best = (numbers or t.numbers_for(None)).keep_best
    return next(db for db, count in keep_best if count == dice.count)


def _setup(data: Mapping[str, Any], catalogue: Catalogue) -> tuple[str, t.TestSetup | None]:
    numbers = t.numbers_of(catalogue)
    rank = inputs.choice(data, "rank", numbers.ranks)
    level = inputs.integer(data, "level", 0, 3, 0)
    target_rank = inputs.choice(data, "target_rank", numbers.ranks)
    sante = inputs.integer(data, "sante", 1, 6, 6)
    cell = intervention_cell(rank, level, target_rank, catalogue)
    if cell in (INTERVENTION_AUTOMATIC, INTERVENTION_IMPOSSIBLE):
        return cell, None
    test = t.TestSetup(db=db_of(cell, numbers), rank=rank, sante=sante, numbers=numbers)
    return cell, test


def _kind(cell: str) -> str:
    return {INTERVENTION_AUTOMATIC: "automatic", INTERVENTION_IMPOSSIBLE: "impossible"}.get(
        cell, "roll"
    )


def _answer(cell: str, test: t.TestSetup | None, result: t.TestResult | None) -> dict[str, Any]:
    out: dict[str, Any] = {"intervention": _kind(cell), "cell": cell, "dice": []}
    if result is None:
        out["intervenes"] = cell == INTERVENTION_AUTOMATIC
        return out
    assert test is not None
    out.update(asdict(result))
    out.update(dice=list(result.dice), intervenes=result.succeeded, db=test.db)
    return out


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    cell, test = _setup(data, catalogue or load_catalogue())
    if test is None:
        p = 1.0 if cell == INTERVENTION_AUTOMATIC else 0.0
        return {"intervention": _kind(cell), "cell": cell, "intervenes": p}
    result = t.odds(test)
    chance = sum((v for k, v in result.outcomes.items() if k in t.SUCCESSES), Fraction(0))
    return {
        "intervention": "roll",
        "cell": cell,
        "db": test.db,
        "dice_count": test.dice_count,
        "keep_best": test.keep_best,
        "threshold": test.threshold,
        "intervenes": float(chance),
        "outcomes": {k: float(v) for k, v in result.outcomes.items()},
    }


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    cell, test = _setup(data, catalogue or load_catalogue())
    return _answer(cell, test, None if test is None else t.evaluate(test, data.get("dice")))


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    cell, test = _setup(data, catalogue or load_catalogue())
    return _answer(cell, test, None if test is None else t.roll(test, rng))
