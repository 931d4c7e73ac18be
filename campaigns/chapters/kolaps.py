"""What the close of a KOLAPS chapter records of the units entered.

Units enter and leave chapters through `campaigns.chapters.entries`, which freezes them
when the chapter starts. The close records, for each entered unit that played, its result
and the characters lost, checked against the unit as it was frozen (a character added
since did not play); taking them out of the unit is the post-chapter settlement's work
(`characters.kolaps.services.unit_remove_lost`).
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from campaigns.chapters.entries import clean_side
from campaigns.models import Chapter, ChapterResult, ChapterUnitResult
from characters.kolaps.models import KolapsCharacter
from characters.permissions import Refusal

KOLAPS = "kolaps"


# --- The close ------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitResultInput:
    """What happened to one entered unit: victory or defeat, its side, and the ids of its
    characters lost."""

    unit_id: int
    result: str
    lost_ids: Sequence[int] = ()
    side: str = ""
    notes: str = ""


def unit_result_rows(
    chapter: Chapter, unit_results: Sequence[UnitResultInput]
) -> list[ChapterUnitResult]:
    """The `ChapterUnitResult` rows of a close, checked: only the units entered into this
    chapter, each once, and only characters of that unit as it was frozen at the start
    among the losses (a chapter closed without starting reads the unit as it is now).
    Called by `chapters.chapter_close` inside its transaction (`chapter` locked)."""
    if not unit_results:
        return []
    if chapter.campaign.system != KOLAPS:
        raise Refusal(_("Only chapters of KOLAPS campaigns record units."), field="unit_results")
    entries = {entry.unit_id: entry for entry in chapter.unit_entries.select_related("unit")}
    members: dict[int, dict[int, str]] = {
        unit_id: {member["id"]: member["name"] for member in entry.frozen.get("members", ())}
        for unit_id, entry in entries.items()
    }
    unfrozen = [unit_id for unit_id, entry in entries.items() if not entry.frozen]
    for pk, unit_id, name in KolapsCharacter.objects.filter(unit_id__in=unfrozen).values_list(
        "pk", "unit_id", "name"
    ):
        members[unit_id][pk] = name
    rows, seen = [], set()
    for row in unit_results:
        entry = entries.get(row.unit_id) if isinstance(row.unit_id, int) else None
        if entry is None:
            raise Refusal(
                _("Record results for the units entered into this chapter only."),
                field="unit_results",
            )
        if row.unit_id in seen:
            raise Refusal(_("One result per unit."), field="unit_results")
        seen.add(row.unit_id)
        if row.result not in ChapterResult.values:
            raise Refusal(_("Each unit's result is a victory or a defeat."), field="unit_results")
        lost = list(dict.fromkeys(row.lost_ids))
        strangers = [pk for pk in lost if pk not in members[row.unit_id]]
        if strangers:
            raise Refusal(
                _("%(unit)s: only characters of this unit can be lost with it.")
                % {"unit": entry.unit.name},
                field="unit_results",
            )
        rows.append(
            ChapterUnitResult(
                chapter=chapter,
                unit=entry.unit,
                unit_name=entry.frozen.get("name", entry.unit.name)[:120],
                vu=entry.frozen.get("value", entry.unit.vu),
                player_id=entry.player_id,
                side=clean_side(row.side if row.side else entry.side),
                result=row.result,
                losses=[{"id": pk, "name": members[row.unit_id][pk]} for pk in lost],
                notes=row.notes.strip(),
            )
        )
    return rows
