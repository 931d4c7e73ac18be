"""The only writer of modern RPG characters: create and change a sheet, each write checked
against the creation rules (rules.engine.systems.modern.creation), made in one transaction
and recorded in the character's history (who, when, the sheet before and after)."""

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from characters.modern.models import ModernCharacter, ModernCharacterEvent
from characters.permissions import Refusal
from rules.engine.systems.modern.catalogue import CURRENT_VERSION, load_catalogue
from rules.engine.systems.modern.creation import Problem, SheetCheck, check_sheet

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
MAX_STRESS = 24
# Hit points: the maximum from 1 to HP_MAX; now, from HP_MIN to the maximum.
HP_MIN, HP_MAX = -100, 100


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
        return _("The skill %(name)s needs a level of 1 or more.") % p
    if problem.code == "speciality_characteristic":
        return _("The speciality %(name)s depends on one of the four characteristics.") % p
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
        [tuple(pair) for pair in get("specialities") or []],
        load_catalogue(),
    )


def _field_of(problem: Problem) -> str:
    if problem.code.startswith(("characteristic", "unknown")):
        return "characteristics"
    if problem.code.startswith("skill"):
        return "skills"
    return "specialities"


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
    _validate(fields)
    with transaction.atomic():
        character = ModernCharacter.objects.create(
            owner=owner, catalogue_version=CURRENT_VERSION, **fields
        )
        ModernCharacterEvent.objects.create(
            character=character, actor=owner, verb="created", before=None, after=_state(character)
        )
    return character


def modern_character_update(*, actor, character: ModernCharacter, version: int, **changes):
    """Change a sheet: refused when the version shown is stale or a rule is broken."""
    with transaction.atomic():
        current = ModernCharacter.objects.select_for_update().get(pk=character.pk)
        if current.version != version:
            raise Refusal(
                _("This character changed meanwhile: here it is as it is now."),
                field="version",
                status=409,
            )
        before = _state(current)
        after = {**before, **{k: v for k, v in changes.items() if k in SHEET_FIELDS}}
        _validate(after)
        for field, value in after.items():
            setattr(current, field, value)
        current.version += 1
        current.save()
        ModernCharacterEvent.objects.create(
            character=current, actor=actor, verb="changed", before=before, after=after
        )
    return current
