"""What a campaign's API answers carry of each kind of roster: a campaign speaks only its
system's words ("A campaign of one system never shows another's words").

The campaign, chapter and settlement cards are shared by every system; some of their
fields belong to what one kind of roster brings (`ROSTER_FIELDS`: an Of the Dead profile's
vocations, survival points, traumas and kills, a KOLAPS unit's K12 and departures, a
Rapid 40000 army's squads), and the ledger's figures a system's settlement keeps
(`KEPT`) are its own only when its standings show them. `speak` leaves out of an answer
every field the campaign's system does not declare, asking the declaration
(`GameSystem.roster`, `GameSystem.standings`), never the system's name; the schema marks
these fields optional (`config.schema.system_fields`).
"""

from collections.abc import Mapping
from typing import Any

from rules.engine.systems import GameSystem
from rules.engine.systems.seam import Roster

ROSTER_FIELDS: Mapping[Roster, frozenset[str]] = {
    Roster.PROFILE: frozenset(
        {
            # The campaign and chapter: survival points asked, cards, vocations.
            "survival_points_survive",
            "survival_points_victory",
            "min_survival_points",
            "required_cards",
            "required_items",
            "vocation",
            "vocation_label",
            "open_vocation_votes",
            "my_vocation",
            "taken_vocations",
            # The close and the settlement: death, kills, survival points, traumas, sheet.
            "died",
            "deaths",
            "kills",
            "kills_total",
            "survival_points",
            "survival_before",
            "survival_after",
            "status_before",
            "status_after",
            "profile_id",
            "trauma_changes",
            "traumas_gained",
            "traumas_healed",
            "traumas_permanent",
            "sheet_before",
            "sheet_after",
            "death_choice_pending",
        }
    ),
    Roster.UNIT: frozenset(
        {
            "uses_units",
            "units",
            "my_units",
            "unit_results",
            "k12",
            "members_wounded",
            "members_changed_side",
            "avatar_lost",
            "departures",
        }
    ),
    Roster.ARMY: frozenset({"uses_armies", "armies", "my_armies", "squad_losses"}),
}
# The ledger's figures a system's own settlement keeps (`rules.engine.systems.seam.Figures`).
KEPT = frozenset({"value_destroyed", "value_lost", "characters_lost", "xp"})
# Every field an answer may leave out: the schema marks them optional.
OPTIONAL = KEPT.union(*ROSTER_FIELDS.values())


def unspoken(game: GameSystem) -> frozenset[str]:
    """The fields a campaign of `game` leaves out: other rosters' and figures it keeps not."""
    others = [names for roster, names in ROSTER_FIELDS.items() if roster is not game.roster]
    kept = KEPT.difference(game.standings.statistics())
    return kept.union(*others).difference(ROSTER_FIELDS.get(game.roster, ()))


def speak(data: Any, game: GameSystem) -> Any:
    """`data` (a serialised answer: dicts and lists) without `unspoken(game)`'s fields, at
    any depth."""
    return _without(data, unspoken(game)) if isinstance(data, _NESTED) else data


def _without(data: Any, names: frozenset[str]) -> Any:
    # Called only on what holds fields (a serialised answer's dicts and lists: DRF's are
    # their subclasses); a scalar is kept as it is without a call (the close through the
    # API: 245 calls an answer down to 72).
    if isinstance(data, dict):
        return {
            k: _without(v, names) if isinstance(v, _NESTED) else v
            for k, v in data.items()
            if k not in names
        }
    return [_without(item, names) if isinstance(item, _NESTED) else item for item in data]


_NESTED = (dict, list)
