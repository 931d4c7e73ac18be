"""The roleplaying systems in a campaign (Corporates, modern RPG): each player enters a
character sheet into a chapter (`campaigns.chapters.entries.SHEET_KINDS`), the close asks
per character what its system declares (`rules.engine.systems.<system>.campaign`: the
levels it ended the session with, the XP awarded), and the settlement carries them to the
sheet through the sheet's own service, one line of its history with the chapter as source
(RULES-NOTES CL3: "each character's fatigue and wound levels carry from session to
session"; CL4: "stress and wounds carry over"). Reopening the chapter puts back what that
line changed, as another line ("reopened").

The two systems differ only by data: their entry and sheet models, and how a close's
answers become the sheet's values (`SheetCarry`).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import Chapter, ChapterCorporatesEntry, ChapterModernEntry, ChapterOutcome
from campaigns.systems.base import (
    CampaignSystem,
    CloseEntry,
    EntryResultInput,
    EntryRows,
    RowWords,
    UnitDeparture,
    entered_rows,
    entry_outcome,
)
from campaigns.systems.entry_kinds import CORPORATES_SHEET, MODERN_SHEET, EntryKind
from characters.corporates.models import CorporatesCharacter
from characters.corporates.services import corporates_character_carry
from characters.modern.models import ModernCharacter
from characters.modern.services import modern_character_carry
from characters.permissions import Refusal
from rules.engine.systems import system_get
from rules.engine.systems.modern.campaign import HP_MIN
from rules.engine.systems.seam import Kind, Per


@dataclass(frozen=True)
class SheetCarry:
    """One system's sheets in a campaign: `initial` the close's first answers from the sheet
    as it entered (its frozen fields), `check` refuses answers the sheet cannot take,
    `carry(character, answers, source, verb)` writes them (or, reopening, `put_back` the
    values a carry's history line had before)."""

    entry: type[models.Model]  # the chapter's entry of a sheet (`chapters.entries`)
    roster: type[models.Model]  # the sheet
    fields: tuple[str, ...]  # what `initial` reads of a sheet not frozen
    initial: Callable[[dict], dict[str, int]]
    check: Callable[[dict, dict[str, int]], str]
    carry: Callable[..., object]
    put_back: Callable[[dict], dict[str, int]]


def _source(chapter: Chapter) -> str:
    return f"chapter:{chapter.pk}"


def _source_label(chapter: Chapter) -> str:
    """What the sheet's history shows of the chapter (its title), written beside the
    source so that the history page reads no chapter."""
    return chapter.title


def _entries(carry: SheetCarry, chapter: Chapter) -> list:
    return list(
        carry.entry.objects.filter(chapter=chapter)
        .select_related("character", "player")
        .order_by("entered_at", "pk")
    )


def _as_entered(carry: SheetCarry, entry) -> tuple[str, dict]:
    frozen = entry.frozen or {}
    sheet = frozen.get("sheet") or {f: getattr(entry.character, f) for f in carry.fields}
    return frozen.get("name", entry.character.name), sheet


def _close_entries(carry: SheetCarry, chapter: Chapter) -> list[CloseEntry]:
    """The characters entered, for the close form, their levels as they entered: one
    query."""
    rows = []
    for entry in _entries(carry, chapter):
        name, sheet = _as_entered(carry, entry)
        rows.append(
            CloseEntry(
                id=entry.character_id,
                name=name,
                player_id=entry.player_id,
                player=entry.player.public_name,
                side=entry.side,
                value=0,
                members=[],
                initial=carry.initial(sheet),
            )
        )
    return rows


_ROW_WORDS = RowWords(
    field="sheet_results",
    not_entered=gettext_lazy("Record results for the characters entered into this chapter only."),
    twice=gettext_lazy("One result per character."),
    result=gettext_lazy("Choose each character's result among the ones offered."),
)


def _entry_rows(
    carry: SheetCarry, chapter: Chapter, results: Sequence[EntryResultInput]
) -> EntryRows:
    """Each character's close, checked: only the characters entered, each once, a result
    the system knows, each answer a whole number within its field's limits and one the
    sheet can take. Its outcome's record keeps the sheet (`sheet`: its id) and the
    answers, which the settlement carries."""
    if not results:
        return [], []
    close = system_get(chapter.campaign.system).close
    asked = {f.name: f for f in close.asked(Per.ENTRY) if f.kind is Kind.COUNT}
    entries = {e.character_id: e for e in _entries(carry, chapter)}
    outcomes = []
    for row, entry in entered_rows(results, entries, close.results, _ROW_WORDS):
        name, sheet = _as_entered(carry, entry)
        answers = {}
        for field_name, declared in asked.items():
            value = row.answers.get(field_name, 0)
            if isinstance(value, bool) or not isinstance(value, int):
                value = -1
            if not 0 <= value <= declared.maximum:
                raise Refusal(
                    _("%(name)s: %(field)s is a whole number from 0 to %(max)s.")
                    % {"name": name, "field": _(declared.label), "max": declared.maximum},
                    field="sheet_results",
                )
            answers[field_name] = value
        if unknown := set(row.answers) - set(asked):
            raise Refusal(
                _("This campaign's close does not ask that: %(names)s.")
                % {"names": ", ".join(sorted(unknown))},
                field="sheet_results",
            )
        problem = carry.check(sheet, answers)
        if problem:
            raise Refusal(
                _("%(name)s: %(problem)s") % {"name": name, "problem": problem},
                field="sheet_results",
            )
        record = {"entry": name[:120], "sheet": entry.character_id, **answers}
        outcomes.append(entry_outcome(chapter, row, entry, record))
    return outcomes, []


def _no_departures(chapter: Chapter) -> list[UnitDeparture]:
    return []


def _carried(carry: SheetCarry, chapter: Chapter) -> list[tuple[object, dict]]:
    """The sheets the chapter's close recorded, each with its answers: only a sheet its
    player entered into this very chapter (a record brought by an imported file, or naming
    another's sheet, carries nothing), and still there. Three queries."""
    entered = set(
        carry.entry.objects.filter(chapter=chapter).values_list("character_id", "player_id")
    )
    records = {
        record["sheet"]: record
        for player_id, record in ChapterOutcome.objects.filter(chapter=chapter).values_list(
            "player_id", "record"
        )
        if isinstance(record, dict) and (record.get("sheet"), player_id) in entered
    }
    sheets = carry.roster.objects.filter(pk__in=list(records)).order_by("pk")
    return [(sheet, records[sheet.pk]) for sheet in sheets]


def _depart(carry: SheetCarry, chapter: Chapter, departures: Sequence[UnitDeparture]) -> None:
    """In the settlement's transaction: each sheet takes what the close recorded (a line of
    its history whose source is the chapter). A sheet deleted since has nothing to take."""
    for sheet, record in _carried(carry, chapter):
        carry.carry(
            actor=None,
            character=sheet,
            source=_source(chapter),
            source_label=_source_label(chapter),
            **_answers(record),
        )


def _answers(record: dict) -> dict[str, int]:
    return {k: v for k, v in record.items() if k not in ("entry", "sheet", "value", "members")}


def _restore(carry: SheetCarry, chapter: Chapter) -> int:
    """Reopening: each sheet this chapter's settlement wrote gets back the values it had
    before (the `before` of its latest line from this chapter, when that line is a carry
    and not already put back)."""
    source, restored = _source(chapter), 0
    for sheet, _record in _carried(carry, chapter):
        line = sheet.events.filter(source=source).order_by("-at", "-pk").first()
        if line is None or line.verb != "carried" or not line.before:
            continue
        carry.carry(
            actor=None,
            character=sheet,
            source=source,
            source_label=_source_label(chapter),
            verb="reopened",
            **carry.put_back(line.before),
        )
        restored += 1
    return restored


def _corporates_initial(sheet: dict) -> dict[str, int]:
    return {"fatigue": int(sheet.get("fatigue") or 0), "wounds": int(sheet.get("wounds") or 0)}


def _modern_initial(sheet: dict) -> dict[str, int]:
    hp_max = int(sheet.get("hp_max") or 0)
    return {
        "stress": int(sheet.get("stress") or 0),
        "wounds": max(0, hp_max - int(sheet.get("hp") if sheet.get("hp") is not None else hp_max)),
    }


def _no_problem(sheet: dict, answers: dict[str, int]) -> str:
    return ""


def _modern_check(sheet: dict, answers: dict[str, int]) -> str:
    """Hit points never fall below the sheet's least (HP_MIN)."""
    hp_max = int(sheet.get("hp_max") or 0)
    if hp_max - answers.get("wounds", 0) < HP_MIN:
        return _("it loses at most %(most)s hit points.") % {"most": hp_max - HP_MIN}
    return ""


def _modern_carry(
    *, actor, character, source: str, source_label: str = "", verb: str = "carried", **answers
):
    """The close's answers as the sheet keeps them: hit points are its maximum less the
    hit points lost (or, putting back, the hit points it had), never below the sheet's least
    (HP_MIN): a maximum the player lowered after the close cannot block the settlement."""
    return modern_character_carry(
        actor=actor,
        character=character,
        stress=answers.get("stress", character.stress),
        hp=answers.get("hp", max(HP_MIN, character.hp_max - answers.get("wounds", 0))),
        xp=answers.get("xp", 0),
        source=source,
        source_label=source_label,
        verb=verb,
    )


def _modern_put_back(before: dict) -> dict[str, int]:
    """What a carry's line had before: its stress and hit points; its XP is taken off (a
    carry from this source with no XP keeps no award)."""
    return {"stress": before["stress"], "hp": before["hp"], "xp": 0}


def _corporates_put_back(before: dict) -> dict[str, int]:
    return {"fatigue": before["fatigue"], "wounds": before["wounds"]}


def _system(slug: str, kind: EntryKind, carry: SheetCarry) -> CampaignSystem:
    return CampaignSystem(
        game=system_get(slug),
        entry_kind=kind,
        entry_prefix="c",
        close_entries=lambda chapter: _close_entries(carry, chapter),
        entry_rows=lambda chapter, results: _entry_rows(carry, chapter, results),
        departures=_no_departures,
        depart=lambda chapter, departures: _depart(carry, chapter, departures),
        restore=lambda chapter: _restore(carry, chapter),
    )


CORPORATES = _system(
    "corporates",
    CORPORATES_SHEET,
    SheetCarry(
        entry=ChapterCorporatesEntry,
        roster=CorporatesCharacter,
        fields=("fatigue", "wounds"),
        initial=_corporates_initial,
        check=_no_problem,
        carry=corporates_character_carry,
        put_back=_corporates_put_back,
    ),
)
MODERN = _system(
    "modern-rpg",
    MODERN_SHEET,
    SheetCarry(
        entry=ChapterModernEntry,
        roster=ModernCharacter,
        fields=("stress", "hp", "hp_max"),
        initial=_modern_initial,
        check=_modern_check,
        carry=_modern_carry,
        put_back=_modern_put_back,
    ),
)
