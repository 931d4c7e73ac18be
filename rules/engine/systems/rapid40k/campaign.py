"""Rapid 40000's campaign, as the seam declares it (`rules.engine.systems.seam`).

The rule text has no campaign: RULES-NOTES CL2 is the product's reading. "The close
records each army's result and the figures each squad lost. Points destroyed: for each
enemy squad, its cost (R1) divided by its figures, times the figures it lost. Losses do
not carry over: each game is fought at the agreed army cost. Standings: win 3, draw 1,
loss 0; ties broken by points destroyed minus points lost."
"""

from collections.abc import Sequence

from rules.engine.systems.seam import (
    WIN_DRAW_LOSS,
    Close,
    CloseField,
    Column,
    Figures,
    Kind,
    Member,
    Per,
    Record,
    Roster,
    Standings,
    Term,
    Words,
    gettext_noop,
    settle_losses,
)

ROSTER = Roster.ARMY
CLOSE = Close(
    per=Per.ENTRY,
    results=("victory", "draw", "defeat"),
    fields=(
        CloseField("side", gettext_noop("Side (if any)"), Kind.TEXT, Per.ENTRY),
        CloseField("figures_lost", gettext_noop("Figures lost"), Kind.COUNT, Per.MEMBER),
    ),
    settles=gettext_noop(
        "Closing stores the record for good; the standings are settled afterwards from it. "
        "Losses do not carry over: each game is fought at the agreed army cost."
    ),
)


def points_lost(cost: int, figures: int, lost: int) -> int:
    """RULES-NOTES CL2: "for each enemy squad, its cost (R1) divided by its figures, times
    the figures it lost", rounded down; a squad cannot lose more figures than it has. The
    one count of a squad's casualties: the live table's record and the settlement both
    read it."""
    if figures <= 0:
        return 0
    return cost * max(0, min(lost, figures)) // figures


def squad_points_lost(squad: Member) -> int:
    """CL2's points lost (`points_lost`) of a squad as the close recorded it."""
    return points_lost(squad.value, squad.figures, squad.lost)


def settle(records: Sequence[Record]) -> dict[int, Figures]:
    """CL2: each army's points lost and the points the other sides lost (destroyed)."""
    return {
        player_id: Figures(value_destroyed=f.value_destroyed, value_lost=f.value_lost)
        for player_id, f in settle_losses(records, squad_points_lost).items()
    }


SETTLE = settle
STANDINGS = Standings(
    columns=(
        Column("chapters_played", gettext_noop("Played")),
        Column("chapters_won", gettext_noop("Wins")),
        Column("chapters_drawn", gettext_noop("Draws")),
        Column("chapters_lost", gettext_noop("Losses")),
        Column("value_destroyed", gettext_noop("Points destroyed")),
        Column("value_lost", gettext_noop("Points lost")),
    ),
    score=WIN_DRAW_LOSS,
    score_heading=gettext_noop("Standing points"),
    tie_breaks=((Term("value_destroyed"), Term("value_lost", -1)),),
)
WORDS = Words(entry=gettext_noop("army"), value=gettext_noop("points"))
