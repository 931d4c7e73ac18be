"""Rapid 40000's campaign, as the seam declares it (`rules.engine.systems.seam`).

The rule text has no campaign: RULES-NOTES CL2 is the product's reading. "The close
records each army's result and the figures each squad lost. Points destroyed: for each
enemy squad, its cost (R1) divided by its figures, times the figures it lost. Losses do
not carry over: each game is fought at the agreed army cost. Standings: win 3, draw 1,
loss 0; ties broken by points destroyed minus points lost."
"""

from collections.abc import Mapping
from functools import partial

from rules.engine.systems import seam
from rules.engine.systems.rapid40k.catalogue import load_catalogue
from rules.engine.systems.setting import Setting

ROSTER = seam.Roster.ARMY
CLOSE = seam.entry_close(
    seam.CloseField(
        "figures_lost", seam.gettext_noop("Figures lost"), seam.Kind.COUNT, seam.Per.MEMBER
    ),
    settles=seam.gettext_noop(
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


def squad_points_lost(squad: seam.Member) -> int:
    """CL2's points lost (`points_lost`) of a squad as the close recorded it."""
    return points_lost(squad.value, squad.figures, squad.lost)


# CL2: each army's points lost and the points the other sides lost (destroyed); a squad
# is not a character: none is counted lost.
SETTLE: seam.Settle = partial(seam.settle_losses, lost_value=squad_points_lost, characters=False)
STANDINGS = seam.results_standings(
    seam.Column("value_destroyed", seam.gettext_noop("Points destroyed")),
    seam.Column("value_lost", seam.gettext_noop("Points lost")),
    won=seam.gettext_noop("Wins"),
    lost=seam.gettext_noop("Losses"),
    tie_breaks=((seam.Term("value_destroyed"), seam.Term("value_lost", -1)),),
)
WORDS = seam.Words(entry=seam.gettext_noop("army"), value=seam.gettext_noop("points"))


def open_settings() -> Mapping[str, Setting]:
    """What its rule text leaves open (RULES-NOTES C1): its catalogue's settings."""
    return load_catalogue().settings
