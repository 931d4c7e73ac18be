"""Corporates' campaign, as the seam declares it (`rules.engine.systems.seam`).

The rule text has no campaign: RULES-NOTES CL3 is the product's reading. "Each character's
fatigue and wound levels carry from session to session until the organiser records care
between sessions." The close records who took part; what carries lives on the character
sheets, so the campaign shows its party, not a ranking.
"""

from rules.engine.systems.seam import (
    Close,
    Column,
    Per,
    Roster,
    Standings,
    Words,
    gettext_noop,
    settle_nothing,
)

ROSTER = Roster.SHEET
CLOSE = Close(
    per=Per.PLAYER,
    results=("played",),
    settles=gettext_noop(
        "Closing stores the record for good; fatigue and wounds stay on the character sheets."
    ),
)
SETTLE = settle_nothing
STANDINGS = Standings(
    columns=(Column("chapters_played", gettext_noop("Sessions played")),),
    score=(),
    score_heading="",
    ranked=False,
)
WORDS = Words()
