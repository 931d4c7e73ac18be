"""KOLAPS's campaign, as the seam declares it (`rules.engine.systems.seam`).

The rule text has no campaign: RULES-NOTES CL1 is the product's reading. "A chapter's close
records each unit's result (victory, draw, defeat) and each character's fate: unhurt,
wounded (Santé as it ended) or dead by the death roll; the dead leave their unit for good;
a unit whose Avatar died names another before its next chapter (K12); characters who
changed sides during the game (K12) are listed. Standings: victory 3, draw 1, defeat 0;
ties broken by VU destroyed, then VU lost (fewer is better)."
"""

from collections.abc import Sequence

from rules.engine.systems.seam import (
    CloseField,
    Column,
    Figures,
    Kind,
    Member,
    Per,
    Record,
    Roster,
    Term,
    Words,
    entry_close,
    gettext_noop,
    results_standings,
    settle_losses,
)

ROSTER = Roster.UNIT
CLOSE = entry_close(
    CloseField(
        "lost",
        gettext_noop("Characters dead (death roll)"),
        Kind.MEMBERS,
        Per.ENTRY,
        help=gettext_noop("The dead leave their unit for good when the chapter is settled."),
    ),
    CloseField("wounded", gettext_noop("Characters wounded"), Kind.MEMBERS, Per.ENTRY),
    CloseField(
        "changed_side",
        gettext_noop("Characters who changed sides (K12)"),
        Kind.MEMBERS,
        Per.ENTRY,
    ),
    settles=gettext_noop(
        "Closing stores the record for good; the dead leave their unit and the standings "
        "are settled afterwards from it."
    ),
)


def _dead_value(member: Member) -> int:
    return member.value if member.lost else 0


def settle(records: Sequence[Record]) -> dict[int, Figures]:
    """RULES-NOTES CL1: each unit's VU lost (the PU of its characters dead) and the VU the
    other sides lost (destroyed), and the characters it lost."""
    return settle_losses(records, _dead_value)


def avatar_lost(record: Record) -> bool:
    """CL1: "a unit whose Avatar died names another before its next chapter (K12)"."""
    return any(m.avatar and m.lost for m in record.members)


SETTLE = settle
STANDINGS = results_standings(
    Column("value_destroyed", gettext_noop("VU destroyed")),
    Column("value_lost", gettext_noop("VU lost")),
    Column("characters_lost", gettext_noop("Characters lost")),
    won=gettext_noop("Victories"),
    lost=gettext_noop("Defeats"),
    tie_breaks=((Term("value_destroyed"),), (Term("value_lost", -1),)),
)
WORDS = Words(entry=gettext_noop("unit"), value="VU")
