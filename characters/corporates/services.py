"""The only writer of Corporates characters: create, change, undo, and carry the damage of a
session (RULES-NOTES CL3). Each write is checked against the catalogue's `sheet` section
(rules.engine.systems.corporates.sheet), made in one transaction under the row's lock, and
recorded in the character's history (who, when, the sheet before and after)."""

from django.utils.translation import gettext as _

from characters.corporates.models import CorporatesCharacter, CorporatesCharacterEvent
from characters.corporates.text import number_label
from characters.permissions import Refusal
from characters.rosters.services import (
    last_undoable,
    roster_write,
    sheet_create,
    sheet_lock,
    sheet_store,
)
from rules.engine.systems.corporates.catalogue import CURRENT_VERSION, load_catalogue
from rules.engine.systems.corporates.sheet import Problem, check_sheet, sheet_defaults

SHEET_FIELDS = ("name", "description", "equipment", "numbers", "weapon", "fatigue", "wounds")
SOURCE_MAX = 80
SOURCE_LABEL_MAX = 200


def problem_sentence(problem: Problem) -> str:
    """A sheet problem as a sentence for the player."""
    p = problem.params
    if problem.code == "unknown_number":
        return _("Unknown numbers: %(names)s.") % {"names": ", ".join(p["names"])}
    if problem.code == "number_missing":
        return _("%(name)s needs a whole number.") % {"name": number_label(p["name"])}
    if problem.code == "number_range":
        return _("%(name)s goes from %(lo)s to %(hi)s.") % {
            "name": number_label(p["name"]),
            "lo": p["lo"],
            "hi": p["hi"],
        }
    if problem.code == "weapon":
        return _("Choose the kind of damage the weapon deals.")
    label = _("Fatigue levels") if p["name"] == "fatigue" else _("Wound levels")
    return _("%(name)s go from 0 to %(hi)s.") % {"name": label, "hi": p["hi"]}


def _field_of(problem: Problem) -> str:
    if problem.code in ("number_missing", "number_range"):
        return problem.params["name"]
    if problem.code == "levels":
        return problem.params["name"]
    return "weapon" if problem.code == "weapon" else "numbers"


def _validate(fields: dict) -> None:
    if not (fields.get("name") or "").strip():
        raise Refusal(_("Give the character a name."), field="name")
    catalogue = load_catalogue()
    for problem in check_sheet(
        fields["numbers"], fields["weapon"], fields["fatigue"], fields["wounds"], catalogue
    ):
        raise Refusal(problem_sentence(problem), field=_field_of(problem))


def _state(character: CorporatesCharacter) -> dict:
    return {field: getattr(character, field) for field in SHEET_FIELDS}


def corporates_character_create(*, owner, **fields) -> CorporatesCharacter:
    """A new character; the numbers it is not given are the catalogue's defaults."""
    catalogue = load_catalogue()
    fields = {k: v for k, v in fields.items() if k in SHEET_FIELDS}
    fields["numbers"] = {**sheet_defaults(catalogue), **(fields.get("numbers") or {})}
    fields.setdefault("weapon", catalogue.sheet["weapon_default"])
    fields.setdefault("fatigue", 0)
    fields.setdefault("wounds", 0)
    _validate(fields)
    return sheet_create(
        CorporatesCharacter,
        owner=owner,
        catalogue_version=CURRENT_VERSION,
        fields=fields,
        state=_state,
    )


def _store(current: CorporatesCharacter, after: dict) -> None:
    _validate(after)
    sheet_store(current, after)


def _write(
    character,
    *,
    actor,
    version,
    verb: str,
    edit,
    source: str = "",
    source_label: str = "",
    unchanged_too=True,
):
    """The sheet locked at the version shown, `edit` giving the next sheet, stored and
    recorded (`characters.rosters.services.roster_write`); `edit` may name the line it undoes
    in `undoes`."""
    undoes: list[CorporatesCharacterEvent] = []

    def record(current, before: dict, after: dict) -> CorporatesCharacterEvent:
        return CorporatesCharacterEvent.objects.create(
            character=current,
            actor=actor,
            verb=verb,
            source=source[:SOURCE_MAX],
            source_label=source_label[:SOURCE_LABEL_MAX],
            before=before,
            after=after,
            undoes=undoes[0] if undoes else None,
        )

    return roster_write(
        character,
        lock=lambda character: sheet_lock(character, version),
        state=_state,
        edit=lambda current, before: edit(current, before, undoes),
        store=_store,
        record=record,
        unchanged_too=unchanged_too,
    )


def corporates_character_update(
    *, actor, character: CorporatesCharacter, version: int, **changes
) -> CorporatesCharacter:
    """Change a sheet: refused when the version shown is stale or a number leaves its
    range. `numbers` may name only some numbers: the others stay as they are."""
    changes = {k: v for k, v in changes.items() if k in SHEET_FIELDS}

    def edit(current, before: dict, undoes) -> dict:
        numbers = (
            {"numbers": {**before["numbers"], **changes["numbers"]}} if "numbers" in changes else {}
        )
        return {**before, **changes, **numbers}

    return _write(character, actor=actor, version=version, verb="changed", edit=edit)


def _last_undoable(character: CorporatesCharacter) -> CorporatesCharacterEvent | None:
    """The latest change that is neither the creation, an undo, nor undone already."""
    return last_undoable(character.events.filter(before__isnull=False))


def corporates_character_can_undo(character: CorporatesCharacter) -> bool:
    return _last_undoable(character) is not None


def corporates_character_undo(
    *, actor, character: CorporatesCharacter, version: int | None
) -> CorporatesCharacter:
    """Take back the latest change still standing (a change or a carried session): the
    sheet as it was before it, recorded as its own line of history."""

    def edit(current, before: dict, undoes) -> dict:
        event = _last_undoable(current)
        if event is None:
            raise Refusal(_("There is nothing left to undo."))
        undoes.append(event)
        return dict(event.before)

    return _write(character, actor=actor, version=version, verb="undone", edit=edit)


def corporates_character_carry(
    *,
    actor,
    character: CorporatesCharacter,
    fatigue: int,
    wounds: int,
    source: str = "",
    source_label: str = "",
    verb: str = "carried",
) -> CorporatesCharacter:
    """The fatigue and wound levels the character ended a session with, carried to the next
    (RULES-NOTES CL3: "each character's fatigue and wound levels carry from session to
    session until the organiser records care between sessions"). The levels are set, never
    added, so settling a chapter twice carries the same levels; care between sessions is
    this call with the lower levels. `source` names where the levels come from (a chapter)
    and is written in the history. No version check: the settlement writes what the table
    ended with, whatever the player changed meanwhile. A reopened chapter puts the levels
    back with `verb` "reopened"."""

    def edit(current, before: dict, undoes) -> dict:
        return {**before, "fatigue": fatigue, "wounds": wounds}

    return _write(character, actor=actor, version=None, verb=verb, edit=edit,
                  source=source, source_label=source_label, unchanged_too=False)  # fmt: skip


def corporates_fighter_numbers(character: CorporatesCharacter) -> dict:
    """What the live table's Corporates fighter takes from the sheet: its numbers, its
    weapon and the levels it carries."""
    return {
        **character.numbers,
        "weapon": character.weapon,
        "fatigue": character.fatigue,
        "wound_levels": character.wounds,
    }
