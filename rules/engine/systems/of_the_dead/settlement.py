"""After a chapter, by its epilogue (RULES-NOTES O6). Pure: plain values in, plain values out.

O6: "After a chapter, by its epilogue: on victory a character's temporary traumas heal, on
defeat they become permanent. A dead player character returns as a zombie or takes the
reincarnation rule, the player's choice. Survival points, unless the campaign sets
otherwise: +1 for surviving a chapter, +1 more for a victory."

Rule text: "en fin de partie, et selon l'épilogue (conditions de victoire ou défaite), le
trauma peut être soigné ou devenir définitif."

Readings kept here (the text leaves them open):
- every trauma still temporary when the chapter is settled meets the epilogue's fate, not
  only the ones noted during that chapter (a temporary trauma lasts until an epilogue);
- the victory bonus is "+1 more", on top of surviving: a character who died in a won
  chapter gains nothing (a dead character has no survival to reward).
"""

from dataclasses import dataclass
from enum import StrEnum

VICTORY = "victory"
DEFEAT = "defeat"


class TraumaFate(StrEnum):
    HEAL = "heal"
    PERMANENT = "permanent"


class DeathChoice(StrEnum):
    """What a dead player character becomes, the player's choice (O6)."""

    ZOMBIE = "zombie"
    REINCARNATED = "reincarnated"


@dataclass(frozen=True)
class SurvivalRule:
    """Survival points a campaign gives: O6's defaults unless it sets otherwise."""

    survive: int = 1
    victory: int = 1


def trauma_fate(result: str) -> TraumaFate:
    """RULES-NOTES O6: a temporary trauma heals on victory, becomes permanent on defeat."""
    if result == VICTORY:
        return TraumaFate.HEAL
    if result == DEFEAT:
        return TraumaFate.PERMANENT
    raise ValueError(f"a chapter ends in victory or defeat, not {result!r}")


def survival_points(*, result: str, died: bool, rule: SurvivalRule = SurvivalRule()) -> int:
    """RULES-NOTES O6: +1 for surviving a chapter, +1 more for a victory (campaign values)."""
    if result not in (VICTORY, DEFEAT):
        raise ValueError(f"a chapter ends in victory or defeat, not {result!r}")
    if died:
        return 0
    return rule.survive + (rule.victory if result == VICTORY else 0)
