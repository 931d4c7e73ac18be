"""KOLAPS in a campaign: the units entered are what the close lists and records, and the
characters dead leave their unit when the chapter is settled (RULES-NOTES CL1).

The close writes, for each unit entered that played, a `ChapterUnitResult` (its name, VU,
side, result and the characters lost, `[{"id", "name"}]`, as they were) and its player's
`ChapterOutcome`, whose `record` keeps each character's fate (dead, wounded, changed
sides, its PU) for the settlement to count (`rules.engine.systems.kolaps.campaign`). The
settlement takes the dead out of their unit through `characters.kolaps.services
.unit_remove_lost` and a reopening brings them back with `unit_restore_lost`.
"""

from collections import defaultdict
from collections.abc import Iterable, Sequence

from django.utils.translation import gettext as _

from campaigns.models import (
    CampaignEvent,
    Chapter,
    ChapterOutcome,
    ChapterUnitEntry,
    ChapterUnitResult,
)
from campaigns.systems.base import (
    CampaignSystem,
    CloseEntry,
    CloseMember,
    EntryResultInput,
    EntryRows,
    UnitDeparture,
)
from campaigns.systems.entry_kinds import UNIT
from characters.kolaps import services as kolaps_services
from characters.kolaps.models import KolapsCharacter, KolapsUnit
from characters.permissions import Refusal
from rules.engine.systems import system_get
from rules.engine.systems.kolaps import costing

SIDE_MAX = 80


def _side(side: str) -> str:
    return " ".join(str(side or "").split())[:SIDE_MAX]


def _played(entry, live: list[KolapsCharacter]) -> list[KolapsCharacter]:
    """The characters of an entered unit that played: as frozen when the chapter started
    (`campaigns.chapters.entries`: one added since did not play, one changed since played as
    it was); a chapter closed without starting reads the unit as it is now."""
    frozen = (entry.frozen or {}).get("members")
    if frozen is None:
        return live
    return [
        KolapsCharacter(unit_id=entry.unit_id, **{k: v for k, v in m.items() if k in _FIELDS})
        for m in frozen
    ]


_FIELDS = frozenset(f.attname for f in KolapsCharacter._meta.concrete_fields) | {"id"}


def _entered(entry) -> tuple[str, int]:
    """The unit's name and VU as it entered (frozen at the start), else as it is now."""
    frozen = entry.frozen or {}
    return frozen.get("name", entry.unit.name), frozen.get("value", entry.unit.vu)


def _characters(entries) -> dict[int, list[KolapsCharacter]]:
    """Each entered unit's characters now, in its order: one query."""
    characters: dict[int, list[KolapsCharacter]] = defaultdict(list)
    for character in KolapsCharacter.objects.filter(
        unit_id__in=[e.unit_id for e in entries]
    ).order_by("position", "pk"):
        characters[character.unit_id].append(character)
    return characters


def close_entries(chapter: Chapter) -> list[CloseEntry]:
    """The units entered and the characters that played, for the close form: two queries."""
    entries = list(
        ChapterUnitEntry.objects.filter(chapter=chapter)
        .select_related("unit", "player")
        .order_by("entered_at", "pk")
    )
    live = _characters(entries)
    rows = []
    for e in entries:
        name, value = _entered(e)
        members = [
            CloseMember(id=c.pk, name=c.name, avatar=c.is_avatar)
            for c in _played(e, live[e.unit_id])
        ]
        rows.append(
            CloseEntry(
                id=e.unit_id,
                name=name,
                player_id=e.player_id,
                player=e.player.public_name,
                side=e.side,
                value=value,
                members=members,
            )
        )
    return rows


def _values(unit: KolapsUnit, characters: list[KolapsCharacter]) -> dict[int, int]:
    """Each character's value (K2: rank PU + PU costs), costed with the unit's catalogue."""
    cost = costing.cost_unit(
        kolaps_services.catalogue(unit.catalogue_version),
        [kolaps_services.character_choices(c) for c in characters],
    )
    return {int(c.key): c.value for c in cost.characters}


def entry_rows(chapter: Chapter, results: Sequence[EntryResultInput]) -> EntryRows:
    """The close's rows for the units that played, checked: only the units entered into
    this chapter, each once, a result the system knows, and only characters of that unit
    among its fates: the characters that played (`_played`). Names, VU and each
    character's PU are copied as the unit entered. Called by `chapter_close` inside its
    transaction (`chapter` locked)."""
    if not results:
        return [], []
    allowed = system_get(chapter.campaign.system).close.results
    entries = {e.unit_id: e for e in chapter.unit_entries.select_related("unit")}
    characters = _characters(entries.values())
    units, outcomes, seen = [], [], set()
    for row in results:
        entry = entries.get(row.entry_id) if isinstance(row.entry_id, int) else None
        if entry is None:
            raise Refusal(
                _("Record results for the units entered into this chapter only."),
                field="unit_results",
            )
        if row.entry_id in seen:
            raise Refusal(_("One result per unit."), field="unit_results")
        seen.add(row.entry_id)
        if row.result not in allowed:
            raise Refusal(
                _("Each unit's result is a victory, a draw or a defeat."), field="unit_results"
            )
        members = {c.pk: c for c in _played(entry, characters[row.entry_id])}
        entered_name, entered_vu = _entered(entry)
        lost = list(dict.fromkeys(row.lost_ids))
        wounded = set(row.wounded_ids) - set(lost)
        turned = set(row.changed_side_ids)
        if any(pk not in members for pk in [*lost, *wounded, *turned]):
            raise Refusal(
                _("%(unit)s: only characters of this unit can be lost with it.")
                % {"unit": entry.unit.name},
                field="unit_results",
            )
        values = _values(entry.unit, list(members.values()))
        side = _side(row.side if row.side else entry.side)
        units.append(
            ChapterUnitResult(
                chapter=chapter,
                unit=entry.unit,
                unit_name=entered_name[:120],
                vu=entered_vu,
                player_id=entry.player_id,
                side=side,
                result=row.result,
                losses=[{"id": pk, "name": members[pk].name} for pk in lost],
                notes=row.notes.strip(),
            )
        )
        outcomes.append(
            ChapterOutcome(
                chapter=chapter,
                player_id=entry.player_id,
                result=row.result,
                side=side,
                notes=row.notes.strip(),
                record={
                    "entry": entered_name[:120],
                    "value": entered_vu,
                    "members": [
                        {
                            "id": pk,
                            "name": c.name,
                            "value": values.get(pk, 0),
                            "lost": int(pk in lost),
                            "wounded": pk in wounded,
                            "changed_side": pk in turned,
                            "avatar": c.is_avatar,
                        }
                        for pk, c in members.items()
                    ],
                },
            )
        )
    return outcomes, units


def departures(chapter: Chapter) -> list[UnitDeparture]:
    """Every character a unit lost leaves it: read from the close record
    (`ChapterUnitResult.losses`)."""
    return unit_departures(ChapterUnitResult.objects.filter(chapter=chapter))


def unit_departures(unit_results: Iterable[ChapterUnitResult]) -> list[UnitDeparture]:
    return [
        UnitDeparture(
            unit_id=row.unit_id,
            unit_name=row.unit_name,
            player_id=row.player_id,
            character=loss.get("name", ""),
            character_id=loss.get("id"),
        )
        for row in sorted(unit_results, key=lambda r: (r.unit_id or 0, r.pk))
        for loss in row.losses
    ]


def _lost_by_unit(departures: Iterable[UnitDeparture]) -> dict[int, list[int]]:
    lost: dict[int, list[int]] = defaultdict(list)
    for d in departures:
        if d.unit_id is not None and d.character_id is not None:
            lost[d.unit_id].append(d.character_id)
    return dict(sorted(lost.items()))


def depart(chapter: Chapter, departures: Sequence[UnitDeparture]) -> None:
    """The characters lost leave their unit through the units service (kept in the unit's
    history, VU recomputed), in the settlement's transaction; one campaign history line
    per character. A unit deleted since the close has nobody left to take out."""
    lost = _lost_by_unit(departures)
    for unit in KolapsUnit.objects.filter(pk__in=list(lost)).order_by("pk"):
        kolaps_services.unit_remove_lost(
            actor=None, unit=unit, character_ids=lost[unit.pk], chapter=chapter
        )
    CampaignEvent.objects.bulk_create(
        CampaignEvent(
            campaign_id=chapter.campaign_id,
            actor=None,
            verb="unit_member_left",
            data={
                "chapter": chapter.pk,
                "unit": d.unit_id,
                "unit_name": d.unit_name,
                "character": d.character,
                "character_id": d.character_id,
            },
        )
        for d in departures
    )


def restore(chapter: Chapter) -> int:
    """Reopening: the characters this chapter's settlement took out of their units come
    back (`unit_restore_lost` reads the units' history, so only those it removed)."""
    lost = _lost_by_unit(departures(chapter))
    for unit in KolapsUnit.objects.filter(pk__in=list(lost)).order_by("pk"):
        kolaps_services.unit_restore_lost(
            actor=None, unit=unit, character_ids=lost[unit.pk], chapter=chapter
        )
    return sum(len(ids) for ids in lost.values())


SYSTEM = CampaignSystem(
    game=system_get("kolaps"),
    entry_kind=UNIT,
    entry_prefix="u",
    close_entries=close_entries,
    entry_rows=entry_rows,
    departures=departures,
    depart=depart,
    restore=restore,
)
