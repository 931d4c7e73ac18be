"""The modern RPG's campaign, as the seam declares it (`rules.engine.systems.seam`).

The rule text has no campaign: RULES-NOTES CL4 is the product's reading. "The organiser
awards XP at a chapter's close (0 by default); a player spends it as at creation ...;
stress and wounds carry over. Its campaign page shows the party (who played, XP, stress,
wounds), not a ranking."
"""

from rules.engine.systems.seam import (
    Close,
    CloseField,
    Column,
    Kind,
    Per,
    Roster,
    Standings,
    Words,
    gettext_noop,
    settle_xp,
)

ROSTER = Roster.SHEET
CLOSE = Close(
    per=Per.PLAYER,
    results=("played",),
    fields=(CloseField("xp", gettext_noop("XP awarded"), Kind.COUNT, Per.PLAYER, maximum=100),),
    settles=gettext_noop(
        "Closing stores the record for good; the XP awarded is added to the party's page "
        "when the chapter is settled. Stress and wounds stay on the character sheets."
    ),
)
SETTLE = settle_xp
STANDINGS = Standings(
    columns=(
        Column("chapters_played", gettext_noop("Sessions played")),
        Column("xp", gettext_noop("XP earned")),
    ),
    score=(),
    score_heading="",
    ranked=False,
)
WORDS = Words()
