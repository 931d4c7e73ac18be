"""The registry of resolvers: what the rules API lists and runs.

A resolver answers three verbs over plain JSON-like data: `odds` (exact probabilities
before a roll), `evaluate` (dice the players rolled by hand), `roll` (dice rolled with the
caller's random source). Each declares the JSON schema of its input, so the API can
document it and a client can build its form. Each system lists its own resolvers beside its
rules (`systems/<system>/resolvers.py`); this module makes them `Resolver`s, in one list.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.systems.corporates import resolvers as corporates
from rules.engine.systems.kolaps import resolvers as kolaps
from rules.engine.systems.kolaps.resolvers import FOLLOW_UPS
from rules.engine.systems.modern import resolvers as modern
from rules.engine.systems.of_the_dead import resolvers as of_the_dead
from rules.engine.systems.rapid40k.resolvers import SPECS as RAPID40K_SPECS

__all__ = ["FOLLOW_UPS", "RESOLVERS", "VERBS", "Resolver", "resolver_get", "resolvers_of"]

VERBS = ("odds", "evaluate", "roll")


@dataclass(frozen=True)
class Resolver:
    system: str
    name: str
    summary: str
    reference: str
    input_schema: Mapping[str, Any]
    odds: Callable[[Mapping[str, Any]], dict[str, Any]]
    evaluate: Callable[[Mapping[str, Any]], dict[str, Any]]
    roll: Callable[[Mapping[str, Any], random.Random], dict[str, Any]]
    # The fields that carry dice typed in by hand: evaluate reads them, a roll ignores them.
    dice_fields: tuple[str, ...] = ("dice",)


def _system_resolvers(system: str, entries: Iterable[tuple[Any, ...]]) -> tuple[Resolver, ...]:
    """A system's resolvers from its own module's entries (name, summary, reference,
    schema, verbs, typed-dice fields); the verbs are a module with odds / evaluate / roll,
    or those three functions."""
    resolvers = []
    for name, summary, reference, schema, verbs, dice_fields in entries:
        odds, evaluate, roll = (
            verbs if isinstance(verbs, tuple) else (verbs.odds, verbs.evaluate, verbs.roll)
        )
        resolvers.append(
            Resolver(system, name, summary, reference, schema, odds, evaluate, roll, dice_fields)
        )
    return tuple(resolvers)


RESOLVERS: tuple[Resolver, ...] = (
    *_system_resolvers("kolaps", kolaps.ENTRIES),
    *(
        Resolver("rapid40k", name, summary, ref, schema, odds, evaluate, roll, dice_fields)
        for name, summary, ref, schema, odds, evaluate, roll, dice_fields in RAPID40K_SPECS
    ),
    *_system_resolvers("kolaps", kolaps.TABLE_ENTRIES),
    *_system_resolvers("of-the-dead", of_the_dead.ENTRIES),
    *_system_resolvers("corporates", corporates.ENTRIES),
    *_system_resolvers("modern-rpg", modern.ENTRIES),
)

_BY_KEY = {(r.system, r.name): r for r in RESOLVERS}


def resolver_get(system: str, name: str) -> Resolver | None:
    """The resolver of a system's slug; `of_the_dead` is also read as `of-the-dead`."""
    return _BY_KEY.get((system.replace("_", "-"), name))


def resolvers_of(system: str) -> list[Resolver]:
    return [r for r in RESOLVERS if r.system == system]
