"""Rapid 40000 in a campaign: the armies entered are what the close lists and records
(RULES-NOTES CL2: "each army's result and the figures each squad lost").

The close writes each army's player a `ChapterOutcome` whose `record` keeps the army's
squads as they were (name, cost by R1, figures) and the figures each lost; the
settlement counts the points lost and destroyed from it
(`rules.engine.systems.rapid40k.campaign`). "Losses do not carry over": the army lists
are left as they are.
"""

from collections import defaultdict
from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import Chapter, ChapterArmyEntry
from campaigns.systems.base import (
    CampaignSystem,
    CloseEntry,
    CloseMember,
    EntryResultInput,
    EntryRows,
    RowWords,
    entered_rows,
    entry_outcome,
)
from campaigns.systems.entry_kinds import ARMY
from characters.permissions import Refusal
from characters.rapid40k.models import Rapid40kSquad
from rules.engine.systems import system_get


def squad_figures(vehicle: str, leader, fighters) -> int:
    """The figures a squad fields: a vehicle is one; else its leader and its fighters."""
    if vehicle:
        return 1
    return (1 if leader else 0) + sum(int(group.get("count") or 0) for group in fighters or [])


def _squads(army_ids) -> dict[int, list[tuple[int, str, int, int]]]:
    """Each army's squads as (id, name, points, figures): one query."""
    squads: dict[int, list[tuple[int, str, int, int]]] = defaultdict(list)
    for pk, army_id, name, points, vehicle, leader, fighters in (
        Rapid40kSquad.objects.filter(army_id__in=list(army_ids))
        .order_by("position", "pk")
        .values_list("pk", "army_id", "name", "points", "vehicle", "leader", "fighters")
    ):
        squads[army_id].append((pk, name, points, squad_figures(vehicle, leader, fighters)))
    return squads


def _entries(chapter: Chapter) -> list[ChapterArmyEntry]:
    return list(
        ChapterArmyEntry.objects.filter(chapter=chapter)
        .select_related("army", "player")
        .order_by("entered_at", "pk")
    )


def close_entries(chapter: Chapter) -> list[CloseEntry]:
    """The armies entered and their squads, for the close form: two queries."""
    entries = _entries(chapter)
    squads = _squads(e.army_id for e in entries)
    return [
        CloseEntry(
            id=e.army_id,
            name=e.army.name,
            player_id=e.player_id,
            player=e.player.public_name,
            side=e.side,
            value=e.points,
            members=[
                CloseMember(id=pk, name=name, figures=figures)
                for pk, name, _points, figures in squads[e.army_id]
            ],
        )
        for e in entries
    ]


_ROW_WORDS = RowWords(
    field="army_results",
    not_entered=gettext_lazy("Record results for the armies entered into this chapter only."),
    twice=gettext_lazy("One result per army."),
    result=gettext_lazy("Each army's result is a victory, a draw or a defeat."),
)


def entry_rows(chapter: Chapter, results: Sequence[EntryResultInput]) -> EntryRows:
    """Each army's outcome, checked: only the armies entered, each once, a result the
    system knows, losses of its own squads, never more figures than a squad fields."""
    if not results:
        return [], []
    allowed = system_get(chapter.campaign.system).close.results
    entries = {e.army_id: e for e in _entries(chapter)}
    squads = _squads(entries)
    outcomes = []
    for row, entry in entered_rows(results, entries, allowed, _ROW_WORDS):
        own = {pk: (name, points, figures) for pk, name, points, figures in squads[entry.army_id]}
        for pk, lost in row.figures_lost.items():
            if pk not in own:
                raise Refusal(
                    _("%(army)s: only its own squads lose figures.") % {"army": entry.army.name},
                    field="army_results",
                )
            if not isinstance(lost, int) or isinstance(lost, bool) or not 0 <= lost <= own[pk][2]:
                raise Refusal(
                    _("%(squad)s fields %(figures)s figures: it loses 0 to %(figures)s.")
                    % {"squad": own[pk][0], "figures": own[pk][2]},
                    field="army_results",
                )
        outcomes.append(
            entry_outcome(
                chapter,
                row,
                entry,
                {
                    "entry": entry.army.name[:120],
                    "value": entry.points,
                    "members": [
                        {
                            "id": pk,
                            "name": name,
                            "value": points,
                            "figures": figures,
                            "lost": row.figures_lost.get(pk, 0),
                        }
                        for pk, (name, points, figures) in own.items()
                    ],
                },
            )
        )
    return outcomes, []


SYSTEM = CampaignSystem(
    game=system_get("rapid40k"),
    entry_kind=ARMY,
    entry_prefix="a",
    close_entries=close_entries,
    entry_rows=entry_rows,
)
