"""The declared-action schedule and the turn tracker (Les actions déclarées, Le mode Survie).

"Répartition des actions dans le tour": 1 action acts in segment 3; 2 in 2 and 4; 3 in 1, 3,
5; 4 in 1, 2, 4, 5; 5 in every segment; with a malus of 0d to -4d on every action of the turn.
"Il est possible de retarder une action déclarée, mais cela décale d'autant toutes les
actions déclarées restantes ; celles décalées au delà du segment 5 sont perdues." Survival
mode: from the segment it starts, "on considère qu'il avait annoncé 5 actions déclarées".

Pure functions a live encounter can call for its turn structure: `declared_segments` and
`turn_plan`. The resolver's input: `{"characters": [{"name": "Kay", "declared": 3,
"delays": {"1": 1}, "survival_from": null, "undeclared": [2]}]}`; all three verbs answer the
plan (nothing is rolled).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.engine.errors import RuleInputError
from rules.engine.systems.corporates.catalogue import Catalogue, load_catalogue
from rules.engine.systems.kolaps import inputs


def declared_segments(
    declared: int, delays: Mapping[int, int] | None = None, catalogue: Catalogue | None = None
) -> tuple[tuple[int, ...], int]:
    """The segments of the declared actions after the delays (`{action index: segments}`,
    index from 1), and how many actions were pushed beyond the last segment and lost."""
    catalogue = catalogue or load_catalogue()
    last = catalogue.actions["segments"]
    shift = 0
    segments: list[int] = []
    previous = 0
    for index, slot in enumerate(catalogue.schedule[declared], start=1):
        shift += (delays or {}).get(index, 0)
        segment = max(slot + shift, previous + 1)
        if segment > last:
            break
        segments.append(segment)
        previous = segment
    return tuple(segments), declared - len(segments)


def turn_plan(
    characters: list[Mapping[str, Any]], catalogue: Catalogue | None = None
) -> dict[str, Any]:
    """Who acts in which segment, with which kind of action and how many malus dice.

    Each character: `declared` (1-5), optional `delays`, `survival_from` (the segment it
    entered survival mode: from there it acts every segment at the 5-action malus),
    `undeclared` (segments of its undeclared actions: each costs 1d to every later action).
    """
    catalogue = catalogue or load_catalogue()
    actions = catalogue.actions
    last = actions["segments"]
    rows: list[dict[str, Any]] = []
    segments: dict[int, list[dict[str, Any]]] = {s: [] for s in range(1, last + 1)}
    for position, character in enumerate(characters):
        path = f"characters.{position}."
        name = str(character.get("name") or f"#{position + 1}")
        declared = inputs.integer(character, "declared", 1, last, path=path)
        raw_delays = inputs.section(character, "delays", path)
        delays: dict[int, int] = {}
        for key, value in raw_delays.items():
            if (
                not str(key).isdigit()
                or isinstance(value, bool)
                or not isinstance(value, int)
                or value < 0
            ):
                raise RuleInputError(
                    f"{path}delays",
                    "delays map an action number to segments",
                    kind="integer",
                    lo=0,
                    hi=last,
                )
            delays[int(key)] = value
        survival_from = character.get("survival_from")
        if survival_from is not None:
            survival_from = inputs.integer(character, "survival_from", 1, last, path=path)
        undeclared = character.get("undeclared", [])
        if not isinstance(undeclared, list) or any(
            isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= last for s in undeclared
        ):
            raise RuleInputError(
                f"{path}undeclared", "segments from 1 to 5", kind="integer", lo=1, hi=last
            )
        planned, lost = declared_segments(declared, delays, catalogue)
        if survival_from is not None:
            planned = tuple(s for s in planned if s < survival_from) + tuple(
                range(survival_from, last + 1)
            )
        row_segments = []
        for segment in range(1, last + 1):
            in_survival = survival_from is not None and segment >= survival_from
            malus = catalogue.malus_dice[actions["survival_declared"] if in_survival else declared]
            malus += sum(1 for s in undeclared if s < segment) * actions["undeclared_malus_dice"]
            kinds = []
            if segment in planned:
                kinds.append("declared")
            if segment in undeclared:
                kinds.append("undeclared")
            cell = {"segment": segment, "acts": kinds, "malus_dice": malus}
            row_segments.append(cell)
            if kinds:
                segments[segment].append({"name": name, "acts": kinds, "malus_dice": malus})
        rows.append({"name": name, "declared": declared, "lost": lost, "segments": row_segments})
    return {
        "characters": rows,
        "segments": [{"segment": s, "acting": acting} for s, acting in segments.items()],
    }


def _plan(data: Mapping[str, Any], catalogue: Catalogue | None) -> dict[str, Any]:
    characters = data.get("characters")
    if (
        not isinstance(characters, list)
        or not 1 <= len(characters) <= 30
        or not all(isinstance(c, Mapping) for c in characters)
    ):
        raise RuleInputError("characters", "a list of 1 to 30 characters", kind="list")
    return {**turn_plan(characters, catalogue), "dice": []}


def odds(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    return _plan(data, catalogue)


def evaluate(data: Mapping[str, Any], catalogue: Catalogue | None = None) -> dict[str, Any]:
    return _plan(data, catalogue)


def roll(
    data: Mapping[str, Any], rng: random.Random, catalogue: Catalogue | None = None
) -> dict[str, Any]:
    return _plan(data, catalogue)
