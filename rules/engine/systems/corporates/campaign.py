"""Corporates' campaign, as the seam declares it (`rules.engine.systems.seam`).

The rule text has no campaign: RULES-NOTES CL3 is the product's reading. "Each character's
fatigue and wound levels carry from session to session until the organiser records care
between sessions." Each player enters a character sheet into a chapter; the close asks, per
character, that it took part and the fatigue and wound levels it ended the session with
(the levels the sheet carries: "Répartition des niveaux de dommages" splits each hit into
fatigue and wounds), and the settlement carries them to the sheet
(`campaigns.systems.sheets`). The text is a game master's roleplaying game with no winner,
so the campaign shows its party, not a ranking.
"""

from collections.abc import Mapping

from rules.engine.systems import seam
from rules.engine.systems.corporates.catalogue import load_catalogue
from rules.engine.systems.setting import Setting

LEVELS_MAX: int = load_catalogue().sheet["levels_max"]

ROSTER = seam.Roster.SHEET
CLOSE = seam.sheet_close(
    seam.sheet_level("fatigue", seam.gettext_noop("Fatigue levels at the end"), LEVELS_MAX),
    seam.sheet_level("wounds", seam.gettext_noop("Wound levels at the end"), LEVELS_MAX),
    settles=seam.gettext_noop(
        "Closing stores the record for good; when the chapter is settled, each character's "
        "sheet takes the fatigue and wound levels it ended the session with."
    ),
)
SETTLE = seam.settle_nothing
STANDINGS = seam.Standings(
    columns=(seam.Column("chapters_played", seam.gettext_noop("Sessions played")),),
    score=(),
    score_heading="",
    ranked=False,
)
WORDS = seam.Words()


def open_settings() -> Mapping[str, Setting]:
    """What its rule text leaves open (RULES-NOTES C1): its catalogue's settings."""
    return load_catalogue().settings
