"""The modern RPG's campaign, as the seam declares it (`rules.engine.systems.seam`).

The rule text has no campaign: RULES-NOTES CL4 is the product's reading. "The organiser
awards XP at a chapter's close (0 by default); a player spends it as at creation ...;
stress and wounds carry over. Its campaign page shows the party (who played, XP, stress,
wounds), not a ranking."

Each player enters a character sheet into a chapter; the close asks, per character, the XP
awarded and the stress and hit points lost it ended the session with (the sheet's own
values), and the settlement carries them to the sheet (`campaigns.systems.sheets`).
"""

from collections.abc import Mapping

from rules.engine.systems import seam
from rules.engine.systems.modern.catalogue import load_catalogue
from rules.engine.systems.setting import Setting

# The sheet's limits: stress "est un indice qui débute à zéro" (the sheet keeps it up to 24);
# hit points below 0 kill, kept from -100 so that a death is still written down.
MAX_STRESS = 24
HP_MIN, HP_MAX = -100, 100

ROSTER = seam.Roster.SHEET
CLOSE = seam.sheet_close(
    seam.sheet_level("xp", seam.gettext_noop("XP awarded"), 100),
    seam.sheet_level("stress", seam.gettext_noop("Stress at the end"), MAX_STRESS),
    seam.sheet_level(
        "wounds",
        seam.gettext_noop("Hit points lost at the end"),
        HP_MAX - HP_MIN,
        help=seam.gettext_noop("Below the character's maximum: 0 is unhurt."),
    ),
    settles=seam.gettext_noop(
        "Closing stores the record for good; when the chapter is settled, each character's "
        "sheet takes the XP awarded, its stress and its hit points."
    ),
)
SETTLE = seam.settle_xp
STANDINGS = seam.Standings(
    columns=(
        seam.Column("chapters_played", seam.gettext_noop("Sessions played")),
        seam.Column("xp", seam.gettext_noop("XP earned")),
    ),
    score=(),
    score_heading="",
    ranked=False,
)
WORDS = seam.Words()


def open_settings() -> Mapping[str, Setting]:
    """What its rule text leaves open (RULES-NOTES C1): its catalogue's settings."""
    return load_catalogue().settings
