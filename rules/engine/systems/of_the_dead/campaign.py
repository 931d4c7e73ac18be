"""Of the Dead's campaign, as the seam declares it (`rules.engine.systems.seam`).

The rule text is the only one with campaigns and chapters: each player brings their own
character (the profile), the close records each player's verdict ("victoire" or
"défaite"), death and zombies killed by type ("Types de Zombies"); the settlement's own
effects (traumas, survival points, the dead player's choice) are `settlement.py`'s, and
the standings rank by reputation (`reputation.py`).
"""

from rules.engine.systems.seam import (
    Close,
    CloseField,
    Column,
    Kind,
    Per,
    Roster,
    Standings,
    Term,
    Words,
    gettext_noop,
    settle_nothing,
)

# "Types de Zombies", as the rule text lists them.
ZOMBIE_TYPES = (
    ("zonard", "Zonard"),
    ("braillard", "Braillard"),
    ("vicelard", "Vicelard"),
    ("soudard", "Soudard"),
    ("mastard", "Mastard"),
    ("charognard", "Charognard"),
)

ROSTER = Roster.PROFILE
CLOSE = Close(
    per=Per.PLAYER,
    results=("victory", "defeat"),
    fields=(
        CloseField("died", gettext_noop("Died"), Kind.FLAG, Per.PLAYER),
        CloseField("side", gettext_noop("Side (if any)"), Kind.TEXT, Per.PLAYER),
        CloseField(
            "kills",
            gettext_noop("Kills by zombie type"),
            Kind.COUNT,
            Per.PLAYER,
            split=ZOMBIE_TYPES,
        ),
    ),
    settles=gettext_noop(
        "Closing stores the record for good; traumas, survival points and statistics are "
        "settled afterwards from it."
    ),
)
SETTLE = settle_nothing  # its effects are the profiles' (settlement.py), not figures
STANDINGS = Standings(
    columns=(
        Column("chapters_played", gettext_noop("Played")),
        Column("chapters_survived", gettext_noop("Survived")),
        Column("chapters_won", gettext_noop("Won")),
        Column("deaths", gettext_noop("Deaths")),
        Column("kills_total", gettext_noop("Kills")),
        Column("survival_points", gettext_noop("Survival points")),
    ),
    score=(Term("reputation"),),
    score_heading=gettext_noop("Reputation"),
)
WORDS = Words()
