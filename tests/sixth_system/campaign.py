"""Duel's campaign, declared as every system's is (`rules.engine.systems.seam`).

The rules, such as they are: "each duel ends in a victory or a defeat; every shot that hits
counts; the best gunslinger has the most wins, then the most hits."
"""

from collections.abc import Sequence

from rules.engine.systems import GameSystem
from rules.engine.systems.seam import (
    Close,
    CloseField,
    Column,
    Figures,
    Kind,
    Per,
    Record,
    Roster,
    Standings,
    Term,
    Words,
)


def settle(records: Sequence[Record]) -> dict[int, Figures]:
    """ "Every shot that hits counts": kept as value destroyed."""
    return {r.player_id: Figures(value_destroyed=int(r.counts.get("hits", 0))) for r in records}


DUEL = GameSystem(
    slug="duel",
    name="Duel",
    source="tests/sixth_system",
    summary="Two gunslingers at noon.",
    roster=Roster.SHEET,
    close=Close(
        per=Per.PLAYER,
        results=("victory", "defeat"),
        fields=(CloseField("hits", "Hits", Kind.COUNT, Per.PLAYER, maximum=6),),
        settles="The hits are counted when the chapter is settled.",
    ),
    settle=settle,
    standings=Standings(
        columns=(Column("chapters_won", "Wins"), Column("value_destroyed", "Hits")),
        score=(Term("chapters_won"),),
        score_heading="Score",
        tie_breaks=((Term("value_destroyed"),),),
    ),
    words=Words(),
)
