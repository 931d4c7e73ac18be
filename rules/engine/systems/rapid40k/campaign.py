"""Rapid 40000's campaign, as the seam declares it (`rules.engine.systems.seam`).

The rule text has no campaign: RULES-NOTES CL2 is the product's reading. "The close
records each army's result and the figures each squad lost. Points destroyed: for each
enemy squad, its cost (R1) divided by its figures, times the figures it lost. Losses do
not carry over: each game is fought at the agreed army cost. Standings: win 3, draw 1,
loss 0; ties broken by points destroyed minus points lost."
"""

from functools import partial

from rules.engine.systems.seam import (
    CloseField,
    Column,
    Kind,
    Member,
    Per,
    Roster,
    Settle,
    Term,
    Words,
    entry_close,
    gettext_noop,
    results_standings,
    settle_losses,
)

ROSTER = Roster.ARMY
CLOSE = entry_close(
    CloseField("figures_lost", gettext_noop("Figures lost"), Kind.COUNT, Per.MEMBER),
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


# CL2: each army's points lost and the points the other sides lost (destroyed); a squad
# is not a character: none is counted lost.
SETTLE: Settle = partial(settle_losses, lost_value=squad_points_lost, characters=False)
STANDINGS = results_standings(
    Column("value_destroyed", gettext_noop("Points destroyed")),
    Column("value_lost", gettext_noop("Points lost")),
    won=gettext_noop("Wins"),
    lost=gettext_noop("Losses"),
    tie_breaks=((Term("value_destroyed"), Term("value_lost", -1)),),
)
WORDS = Words(entry=gettext_noop("army"), value=gettext_noop("points"))
