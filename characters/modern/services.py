"""The only writer of modern RPG characters: create and change a sheet, carry a session's
stress, hit points and awarded XP, each write checked against the creation rules
(rules.engine.systems.modern.creation), made in one transaction and recorded in the
character's history (who, when, the sheet before and after).

Skills and specialities are the catalogue's: `skills` maps a skill to its level,
`specialities` lists the specialities bought by name (each depends on the characteristic the
catalogue gives it, stored beside it since its price counts per characteristic)."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from characters.modern.models import ModernCharacter, ModernCharacterEvent
from characters.modern.text import skill_label, speciality_label
from characters.permissions import Refusal
from characters.rosters.services import roster_write, sheet_create, sheet_lock, sheet_store
from rules.engine.systems.modern.campaign import HP_MAX, HP_MIN, MAX_STRESS
from rules.engine.systems.modern.catalogue import CURRENT_VERSION, load_catalogue
from rules.engine.systems.modern.creation import (
    Problem,
    SheetCheck,
    check_sheet,
    speciality_pairs,
)

SHEET_FIELDS = (
    "name",
    "description",
    "characteristics",
    "skills",
    "specialities",
    "equipment",
    "hp",
    "hp_max",
    "stress",
)
SOURCE_MAX = 80
SOURCE_LABEL_MAX = 200
# Stress from 0 to MAX_STRESS; hit points: the maximum from 1 to HP_MAX, now from HP_MIN to
# the maximum (the sheet's limits, which the campaign's close asks within too).


def stress_sentence() -> str:
    return _("Stress goes from 0 to %(n)s.") % {"n": MAX_STRESS}


def problem_sentence(problem: Problem) -> str:
    """A creation problem as a sentence for the player."""
    p = problem.params
    if problem.code == "characteristic_die":
        return _("%(name)s is a die of 4, 6, 8, 10 or 12 sides.") % {"name": p["name"]}
    if problem.code == "unknown_characteristic":
        return _("Unknown characteristics: %(names)s.") % {"names": ", ".join(p["names"])}
    if problem.code == "characteristic_total":
        return _("The characteristics total %(total)s; they must total %(budget)s.") % p
    if problem.code == "skill_level":
        return _("The skill %(name)s takes a level from 1 to %(max)s.") % {
            "name": skill_label(p["name"]),
            "max": p["max"],
        }
    if problem.code == "unknown_skill":
        return _("Choose the skills from the list: %(name)s is not one of them.") % p
    if problem.code == "unknown_speciality":
        return _("Choose the specialities from the list: %(name)s is not one of them.") % p
    if problem.code == "duplicate_speciality":
        return _("The speciality %(name)s is bought once.") % {"name": speciality_label(p["name"])}
    if problem.code == "speciality_characteristic":
        return _("The speciality %(name)s depends on another characteristic.") % {
            "name": speciality_label(p["name"])
        }
    if problem.code == "xp_over":
        return _("%(spent)s XP spent: the budget is %(budget)s XP.") % p
    return ngettext("%(left)s XP left to spend.", "%(left)s XP left to spend.", p["left"]) % p


def sheet_check(character_or_fields) -> SheetCheck:
    """The creation check of a character or of the fields of one being typed."""
    get = (
        character_or_fields.get
        if isinstance(character_or_fields, dict)
        else lambda key, default=None: getattr(character_or_fields, key, default)
    )
    return check_sheet(
        get("characteristics") or {},
        get("skills") or {},
        [(name, characteristic) for name, characteristic in _pairs(get("specialities"))],
        load_catalogue(),
        xp_awarded=sum((get("xp_awards") or {}).values()),
    )


def _field_of(problem: Problem) -> str:
    if problem.code.startswith("characteristic") or problem.code == "unknown_characteristic":
        return "characteristics"
    if problem.code in ("skill_level", "unknown_skill"):
        return "skills"
    return "specialities"


def _pairs(specialities) -> list[list[str]]:
    """The specialities chosen by name, each with the characteristic it depends on."""
    names = [str(s[0]) if isinstance(s, (list, tuple)) else str(s) for s in specialities or []]
    return [list(pair) for pair in speciality_pairs(names, load_catalogue())]


def _validate(fields: dict) -> None:
    if not (fields.get("name") or "").strip():
        raise Refusal(_("Give the character a name."), field="name")
    hp_max = fields.get("hp_max", 10)
    if not isinstance(hp_max, int) or not 1 <= hp_max <= HP_MAX:
        raise Refusal(_("Hit points go from 1 to 100."), field="hp_max")
    hp = fields.get("hp", hp_max)
    if not isinstance(hp, int) or not HP_MIN <= hp <= hp_max:
        raise Refusal(_("Hit points now go from -100 to the maximum."), field="hp")
    stress = fields.get("stress", 0)
    if not isinstance(stress, int) or not 0 <= stress <= MAX_STRESS:
        raise Refusal(stress_sentence(), field="stress")
    check = sheet_check(fields)
    for problem in check.problems:
        if problem.code != "xp_left":
            raise Refusal(problem_sentence(problem), field=_field_of(problem))


def _state(character: ModernCharacter) -> dict:
    return {field: getattr(character, field) for field in SHEET_FIELDS}


def modern_character_create(*, owner, **fields) -> ModernCharacter:
    """A new character, checked against the creation rules (unspent XP is allowed: the sheet
    says how much is left)."""
    fields = {k: v for k, v in fields.items() if k in SHEET_FIELDS}
    fields.setdefault("hp", fields.get("hp_max", 10))
    fields["specialities"] = _pairs(fields.get("specialities"))
    _validate(fields)
    return sheet_create(
        ModernCharacter,
        owner=owner,
        catalogue_version=CURRENT_VERSION,
        fields=fields,
        state=_state,
    )


def _recorder(actor, verb: str, source: str = "", source_label: str = ""):
    def record(current, before: dict, after: dict) -> ModernCharacterEvent:
        return ModernCharacterEvent.objects.create(
            character=current,
            actor=actor,
            verb=verb,
            source=source,
            source_label=source_label[:SOURCE_LABEL_MAX],
            before=before,
            after=after,
        )

    return record


def modern_character_update(*, actor, character: ModernCharacter, version: int, **changes):
    """Change a sheet: refused when the version shown is stale or a rule is broken
    (`characters.rosters.services.roster_write`)."""
    if version is None:
        raise Refusal(
            _("This character changed meanwhile: here it is as it is now."),
            field="version",
            status=409,
        )

    def edit(current, before: dict) -> dict:
        after = {**before, **{k: v for k, v in changes.items() if k in SHEET_FIELDS}}
        after["specialities"] = _pairs(after["specialities"])
        _validate({**after, "xp_awards": current.xp_awards})
        return after

    return roster_write(
        character,
        lock=lambda character: sheet_lock(character, version),
        state=_state,
        edit=edit,
        store=sheet_store,
        record=_recorder(actor, "changed"),
        unchanged_too=True,
    )


def modern_character_carry(
    *,
    actor,
    character: ModernCharacter,
    stress: int,
    hp: int,
    xp: int = 0,
    source: str,
    source_label: str = "",
    verb: str = "carried",
) -> ModernCharacter:
    """What a session leaves on the character (RULES-NOTES CL4: "stress and wounds carry
    over"; "the organiser awards XP at a chapter's close"): the stress and hit points it ended
    with, set (never added), and the XP awarded by `source` (a chapter: "chapter:12"), kept
    by source so that settling the same chapter twice awards it once. The XP raises the
    budget the player spends as at creation. No version check: the settlement writes what
    the session ended with, whatever the player changed meanwhile. A reopened chapter puts
    them back (its XP taken off) with `verb` "reopened"."""
    if not isinstance(xp, int) or xp < 0:
        raise Refusal(_("Awarded XP is a whole number from 0."), field="xp")
    source = str(source)[:SOURCE_MAX]
    if not source:
        raise Refusal(_("Say where the session's changes come from."), field="source")

    def state(current) -> dict:
        return {**_state(current), "xp_awards": dict(current.xp_awards)}

    def edit(current, before: dict) -> dict:
        awards = {k: v for k, v in current.xp_awards.items() if k != source}
        if xp:
            awards[source] = xp
        return {**before, "stress": stress, "hp": hp, "xp_awards": awards}

    def store(current, after: dict) -> None:
        _validate(after)
        sheet_store(current, after)

    return roster_write(
        character,
        lock=lambda character: sheet_lock(character, None),
        state=state,
        edit=edit,
        store=store,
        record=_recorder(actor, verb, source, source_label),
    )
