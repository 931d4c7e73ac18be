"""Load what the KOLAPS pages show, in a fixed number of queries, as plain data.

`unit_card` reads the unit and its members (two queries whatever the size), costs them
with `rules.engine.systems.kolaps.costing` and returns dataclasses the templates, the API and the
print views share. Nothing here writes.
"""

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache, partial
from operator import attrgetter
from typing import NamedTuple

from django.db.models import Count, IntegerField, Value
from django.utils.formats import number_format
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from characters.bidi import isolate_text
from characters.compiled import CompiledRead, fields_of
from characters.kolaps import services, text
from characters.kolaps.models import KolapsChange, KolapsCharacter, KolapsUnit
from characters.kolaps.reads import converted
from characters.typography import elide
from rules.engine.dice import BANDS
from rules.engine.systems.kolaps import costing
from rules.engine.systems.kolaps.catalogue_records import Armour, Catalogue, Weapon

HISTORY_SHOWN = 100

BAND_LABELS = {
    "point_blank": gettext_lazy("point blank"),
    "short": gettext_lazy("short"),
    "effective": gettext_lazy("effective"),
    "long": gettext_lazy("long"),
    "extreme": gettext_lazy("extreme"),
}
# The catalogue's specials are its own (French) words: each in the reader's language.
SPECIAL_LABELS = {
    "DB -1 au tir": gettext_lazy("DB -1 when shooting"),
    "auto": gettext_lazy("automatic"),
    "chevrotine": gettext_lazy("buckshot"),
    "grenade": gettext_lazy("grenade"),
    "onde": gettext_lazy("shock wave"),
    "pistolet": gettext_lazy("pistol"),
}
DAMAGE_LABELS = {
    "piercing": gettext_lazy("piercing"),
    "slashing": gettext_lazy("slashing"),
    "blunt": gettext_lazy("blunt"),
}
KIND_LABELS = {
    "talent": gettext_lazy("Talent"),
    "specialisation": gettext_lazy("Specialisation"),
    "option": gettext_lazy("Option"),
}
# The numbers a talent level may carry, as the sheet labels them.
NUMBER_LABELS = {
    "base_db": gettext_lazy("base DB"),
    "db_modifier": gettext_lazy("DB"),
    "melee_attacker_bonus": gettext_lazy("melee bonus"),
    "breath_cost": gettext_lazy("Souffle cost"),
    "walk_cm": gettext_lazy("walk (cm)"),
    "sustained_walk_cm": gettext_lazy("sustained walk (cm)"),
    "run_cm": gettext_lazy("run (cm)"),
    "run_breath_cost": gettext_lazy("run, Souffle cost"),
    "jump_cm": gettext_lazy("jump (cm)"),
    "move_divisor": gettext_lazy("move divided by"),
    "cover_type_bonus": gettext_lazy("cover type"),
    "dice": gettext_lazy("dice"),
    "target_moral_loss": gettext_lazy("target Moral"),
    "moral_regained": gettext_lazy("Moral regained"),
    "radius_cm": gettext_lazy("radius (cm)"),
    "groups": gettext_lazy("groups"),
    "chain_spacing_cm": gettext_lazy("chain spacing (cm)"),
    "dice_ignored_or_rerolled": gettext_lazy("dice ignored or rerolled"),
    "power_bonus": gettext_lazy("power bonus"),
    "shots": gettext_lazy("shots"),
    "melee_expertise": gettext_lazy("melee expertise"),
    "sante_regenerated": gettext_lazy("Santé regenerated"),
    "power_divisor": gettext_lazy("power divided by"),
    "death_threshold_modifier": gettext_lazy("death roll threshold"),
    "escape_move_cm": gettext_lazy("escape move (cm)"),
    "min_distance_cm": gettext_lazy("minimum distance (cm)"),
    "weapon": gettext_lazy("weapon"),
}


# --- Plain data ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TalentLine:
    slug: str
    label: str
    kind: str
    kind_label: str
    level: int | None
    next_level: int | None
    next_pp: int
    next_pu: int
    can_lower: bool
    missing: str  # the prerequisite sentence when the next level cannot be bought
    summary: str
    numbers: list[tuple[str, str]]


@dataclass(frozen=True)
class ItemLine:
    group: int
    slug: str
    label: str
    kind: str  # "ranged", "melee" or "armour"
    damage: str
    bands: list[tuple[str, str, str]]  # (band label, range in cm, power)
    power: str
    protection: list[tuple[str, int]]
    specials: list[str]
    choices: list[tuple[str, str]]  # the group's alternatives (slug, label) when several


@dataclass(frozen=True)
class CharacterCard:
    id: int
    name: str
    version: int
    unit_id: int | None
    affiliation: str
    affiliation_label: str
    archetype: str
    archetype_label: str
    rank: str
    rank_label: str
    rank_choices: list[tuple[str, str]]
    is_avatar: bool
    sante: int
    souffle: int
    moral: int
    pp_budget: int
    pp_spent: int
    pp_left: int
    rank_pu: int
    pu_bought: int
    value: int
    success_threshold: int
    talents: list[TalentLine]
    offers: list[TalentLine]
    talent_choices: list[tuple[int, str, list[tuple[str, str]]]]  # (group, chosen, options)
    equipment: list[ItemLine]
    problems: list[str]
    catalogue_version: str
    # The choices as stored (slug -> level; one equipment slug per group chosen): what the
    # API returns and a client sends back, where `talents` and `equipment` are the sheet's.
    talent_levels: dict[str, int]
    equipment_slugs: list[str]

    @property
    def gauges(self) -> list[tuple[str, str, int]]:
        return [
            ("sante", _("Santé"), self.sante),
            ("souffle", _("Souffle"), self.souffle),
            ("moral", _("Moral"), self.moral),
        ]


@dataclass(frozen=True)
class ComparisonCard:
    opponent_vu: int
    surplus: int
    defectors: list[str]
    beyond: int


@dataclass(frozen=True)
class UnitCard:
    id: int
    name: str
    version: int
    vu: int
    valid: bool
    share_token: str | None
    owner: str
    characters: list[CharacterCard]
    problems: list[str]
    catalogue_version: str
    comparison: ComparisonCard | None = None
    cost: costing.UnitCost | None = field(default=None, repr=False)

    @property
    def status(self) -> str:
        return "valid" if self.valid else "draft"


@dataclass(frozen=True)
class ChangeLine:
    id: int
    at: datetime
    actor: str
    verb: str
    sentence: str
    undone: bool
    is_undo: bool


# --- Building the cards ----------------------------------------------------------------------


def _numbers(cat: Catalogue, slug: str, level: int | None) -> list[tuple[str, str]]:
    if level is None or slug not in cat.talents:
        return []
    try:
        entry = cat.talent(slug).level(level)
    except Exception:  # a level the catalogue lost: the problem list says so
        return []
    numbers = []
    for name, label in NUMBER_LABELS.items():
        value = getattr(entry, name, None)
        if value is None:
            continue
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if name == "weapon":
            value = text.item_label(cat, value)
        elif isinstance(value, float):
            value = number_format(value)  # 12,5 in French
        numbers.append((str(label), str(value)))
    return numbers


def _talent_line(cat: Catalogue, step: costing.Step) -> TalentLine:
    talent = cat.talent(step.slug)
    missing = ""
    if step.missing:
        missing = _("Requires %(requires)s.") % {
            "requires": text.requirement_text(cat, step.missing)
        }
    return TalentLine(
        slug=step.slug,
        label=talent.label,
        kind=talent.kind,
        kind_label=str(KIND_LABELS.get(talent.kind, talent.kind)),
        level=step.level,
        next_level=step.next_level,
        next_pp=step.next_pp,
        next_pu=step.next_pu,
        can_lower=step.can_lower,
        missing=missing,
        # The catalogue writes its summaries in English; locale/ holds their French.
        summary=_(talent.summary) if talent.summary else "",
        numbers=_numbers(cat, step.slug, step.level),
    )


def _item_line(cat: Catalogue, group: int, slug: str, alternatives) -> ItemLine:
    item = cat.weapons.get(slug) or cat.armours.get(slug)
    choices = [(s, text.item_label(cat, s)) for s in alternatives] if len(alternatives) > 1 else []
    if isinstance(item, Weapon):
        powers = item.power.split("/")
        bands = []
        if item.range_cm:
            for position, band in enumerate(BANDS):
                span = item.range_cm.get(band)
                shown = "—"
                if span is not None:
                    top = "+" if span.max_cm is None else f"-{span.max_cm:g}"
                    shown = f"{span.min_cm:g}{top}"
                power = powers[position] if len(powers) == len(BANDS) else item.power
                bands.append((str(BAND_LABELS[band]), shown, power))
        return ItemLine(
            group=group,
            slug=slug,
            label=item.label,
            kind=item.kind,
            damage=str(DAMAGE_LABELS.get(item.damage_type, item.damage_type)),
            bands=bands,
            power=item.power,
            protection=[],
            specials=[str(SPECIAL_LABELS.get(x, x)) for x in item.specials],
            choices=choices,
        )
    if isinstance(item, Armour):
        return ItemLine(
            group=group,
            slug=slug,
            label=item.label,
            kind="armour",
            damage="",
            bands=[],
            power="",
            protection=[
                (str(DAMAGE_LABELS.get(kind, kind)), value)
                for kind, value in item.protection.items()
            ],
            specials=[str(SPECIAL_LABELS.get(x, x)) for x in item.specials],
            choices=choices,
        )
    return ItemLine(group, slug, slug, "unknown", "", [], "", [], [], choices)


def _held_line(cat: Catalogue, slug: str, level: int) -> TalentLine:
    """A held talent as lists show it: its name and level, no numbers (cheap for 30)."""
    talent = cat.talents.get(slug)
    kind = talent.kind if talent else ""
    return TalentLine(
        slug, talent.label if talent else slug, kind, "", level, None, 0, 0, False, "", "", [],
    )  # fmt: skip


def _once(lines: dict | None, key: tuple, build: Callable):
    """`build()`, or what it gave for `key` earlier in `lines` (the lines of one print)."""
    if lines is None:
        return build()
    if key not in lines:
        lines[key] = build()
    return lines[key]


def _held_lines(cat: Catalogue, character: KolapsCharacter) -> list[TalentLine]:
    steps = costing.steps(cat, services.character_choices(character))
    return [_talent_line(cat, s) for s in steps if s.level is not None]


def character_card(
    character: KolapsCharacter,
    cost: costing.CharacterCost,
    names: dict[str, str],
    *,
    full: bool = True,
    with_offers: bool = True,
    lines: dict | None = None,
) -> CharacterCard:
    """The card of one character; `full` adds what the builder and the sheet need (offers,
    prerequisites, talent numbers, equipment), which a unit's list of 30 does not show;
    without `with_offers`, the talents not held are left out (the print sheet shows only
    those held). `lines`, shared by the sheets of one print, keeps each distinct list of
    talents and each item as built once: a unit's members mostly hold the same ones, and
    their labels, numbers and summaries are translated once instead of once a member."""
    cat = services.catalogue(character.catalogue_version)
    archetype = cat.archetypes.get(character.archetype)
    talent_choices = []
    equipment = []
    if not full:
        key = ("held-names", cat.version, tuple(character.talents.items()))
        held = _once(lines, key, lambda: [_held_line(cat, *item) for item in key[2]])
        offers = []
    elif not with_offers:
        # The held talents' lines depend on the archetype and the levels held, nothing else.
        key = ("held", cat.version, character.archetype, tuple(sorted(character.talents.items())))
        held = _once(lines, key, lambda: _held_lines(cat, character))
        offers = []
    else:
        steps = costing.steps(cat, services.character_choices(character))
        held = [_talent_line(cat, s) for s in steps if s.level is not None]
        offers = [_talent_line(cat, s) for s in steps if s.level is None]
    if archetype is not None and full:
        for number, group in enumerate(archetype.talents, start=1):
            if len(group) > 1:
                chosen = next((slug for slug in group if slug in character.talents), "")
                talent_choices.append(
                    (number, chosen, [(slug, text.talent_label(cat, slug)) for slug in group])
                )
        for number, group in enumerate(archetype.equipment, start=1):
            slug = (
                character.equipment[number - 1] if number <= len(character.equipment) else group[0]
            )
            key = ("item", cat.version, number, slug, group)
            equipment.append(_once(lines, key, partial(_item_line, cat, number, slug, group)))
    rank = cat.ranks.get(character.rank)
    return CharacterCard(
        id=character.pk,
        name=character.name,
        version=character.version,
        unit_id=character.unit_id,
        affiliation=character.affiliation,
        affiliation_label=text.affiliation_label(cat, character.affiliation),
        archetype=character.archetype,
        archetype_label=text.archetype_label(cat, character.archetype),
        rank=character.rank,
        rank_label=text.rank_label(cat, character.rank),
        rank_choices=[(r, text.rank_label(cat, r)) for r in (archetype.ranks if archetype else ())],
        is_avatar=character.is_avatar,
        sante=character.sante,
        souffle=character.souffle,
        moral=character.moral,
        pp_budget=cost.pp_budget,
        pp_spent=cost.pp_spent,
        pp_left=cost.pp_left,
        rank_pu=cost.rank_pu,
        pu_bought=cost.pu_bought,
        value=cost.value,
        success_threshold=rank.success_threshold if rank else 0,
        talents=held,
        offers=offers,
        talent_choices=talent_choices,
        equipment=equipment,
        problems=[text.problem_sentence(p, cat, names) for p in cost.problems],
        catalogue_version=character.catalogue_version,
        talent_levels=dict(character.talents),
        equipment_slugs=list(character.equipment),
    )


def character_card_for(character: KolapsCharacter) -> CharacterCard:
    cat = services.catalogue(character.catalogue_version)
    cost = costing.cost_character(cat, services.character_choices(character))
    return character_card(character, cost, {str(character.pk): character.name})


# Compiled once per process: 0.9 ms against 1.6 ms through the ORM for 30 members (this
# machine), what keeps a cold print of tests/benchmarks/test_page_speed_bench.py at the
# speed of the one joined read it replaced (0.09x the minimal page through the ORM, 0.10x).
_MEMBERS = CompiledRead(
    lambda unit: (
        KolapsCharacter.objects.filter(unit_id=unit)
        .order_by("position", "pk")
        .values_list(*fields_of(KolapsCharacter))
    )
)


def unit_members(unit: KolapsUnit) -> list[KolapsCharacter]:
    """The unit's members in order: one query."""
    return _MEMBERS.objects(unit.pk)


def _unit_parts(unit: KolapsUnit):
    """The unit's members (one query) and their costs."""
    cat = services.catalogue(unit.catalogue_version)
    members = unit_members(unit)
    cost = costing.cost_unit(cat, [services.character_choices(m) for m in members])
    return cat, members, cost, {str(m.pk): m.name for m in members}


def unit_card(unit: KolapsUnit, *, opponent_vu: int | None = None, full: bool = False) -> UnitCard:
    """One query for the members (the unit is already loaded), whatever their number;
    `full` gives each character its whole sheet (the print view)."""
    cat, members, cost, names = _unit_parts(unit)
    return _unit_card(unit, cat, members, cost, names, opponent_vu=opponent_vu, full=full)


def _unit_card(
    unit, cat, members, cost, names, *, opponent_vu=None, full=False, lines=None
) -> UnitCard:
    comparison = None
    if opponent_vu is not None:
        result = costing.compare(cost, opponent_vu)
        comparison = ComparisonCard(
            opponent_vu=opponent_vu,
            surplus=result.surplus,
            defectors=[names[key] for key in result.defectors],
            beyond=result.beyond,
        )
    return UnitCard(
        id=unit.pk,
        name=unit.name,
        version=unit.version,
        vu=cost.vu,
        valid=cost.valid,
        share_token=unit.share_token,
        owner="",
        characters=[
            character_card(m, c, names, full=full, lines=lines)
            for m, c in zip(members, cost.characters, strict=True)
        ],
        problems=[text.problem_sentence(p, cat, names) for p in cost.problems],
        catalogue_version=unit.catalogue_version,
        comparison=comparison,
        cost=cost,
    )


@dataclass(frozen=True)
class Sheet:
    """One character's print sheet: `key` names everything it shows (the character's row,
    its costs and the names its problems may cite, the catalogue, the language); `card`
    computes the full card, only when no sheet under that key was rendered already."""

    key: str
    card: Callable[[], CharacterCard]


@cache
def _columns(model) -> Callable:
    return attrgetter(*(f.attname for f in model._meta.concrete_fields))


def _row(obj) -> tuple:
    return _columns(type(obj))(obj)


def unit_page_key(page: str, unit: KolapsUnit, *also) -> str:
    """A key naming all a unit's `page` ("unit", "print") shows: the unit's own row, the
    language, the time zone and `also` (what the page adds: the owner's free characters,
    the scheme and host of the share link, the theme, the path). Its members are not read:
    every write to the unit or to one of them moves the unit's `version` on
    (`services.recompute_unit`), and `updated_at` with it. Any change is another key (the
    code that drew it is the cache's KEY_PREFIX)."""
    row = (unit.version, unit.updated_at.timestamp(), unit.owner_id, unit.name,
           unit.share_token, unit.catalogue_version)  # fmt: skip
    shown = repr((row, get_current_timezone_name(), also))
    digest = hashlib.blake2b(shown.encode(), digest_size=16).hexdigest()
    return f"kolaps-{page}-page:{get_language()}:{unit.pk}:{digest}"


def _sheet(
    character: KolapsCharacter, cost, names: dict[str, str], lines=None, language=None
) -> Sheet:
    shown = repr((_row(character), cost, sorted(names.items()) if cost.problems else None))
    digest = hashlib.blake2b(shown.encode(), digest_size=16).hexdigest()
    return Sheet(
        key=f"kolaps-sheet:{language or get_language()}:{character.pk}:{digest}",
        card=partial(character_card, character, cost, names, with_offers=False, lines=lines),
    )


def unit_print_card(unit: KolapsUnit) -> tuple[UnitCard, list[Sheet]]:
    """The unit's summary (cheap lines) and the sheet of each member, in order (one query
    for the members)."""
    cat, members, cost, names = _unit_parts(unit)
    lines: dict = {}  # each talent list and item built once for the summary and the sheets
    card = _unit_card(unit, cat, members, cost, names, lines=lines)
    language = get_language()
    return card, [
        _sheet(m, c, names, lines, language) for m, c in zip(members, cost.characters, strict=True)
    ]


def character_sheet(character: KolapsCharacter) -> Sheet:
    cat = services.catalogue(character.catalogue_version)
    cost = costing.cost_character(cat, services.character_choices(character))
    return _sheet(character, cost, {str(character.pk): character.name})


@dataclass(frozen=True)
class UnitSummary:
    id: int
    name: str
    vu: int
    valid: bool
    shared: bool
    size: int


@dataclass(frozen=True)
class CharacterSummary:
    id: int
    name: str
    archetype_label: str
    rank_label: str
    value: int
    pp_left: int
    unit_id: int | None


def costed_line(character) -> tuple[str, str, int, int]:
    """A character's line in a list (its archetype, rank, value in PU and PP left), costed
    with its own catalogue as its page costs it; `character` is a row or a model."""
    cat = services.catalogue(character.catalogue_version)
    cost = costing.cost_character(cat, services.character_choices(character))
    archetype = text.archetype_label(cat, character.archetype)
    return archetype, text.rank_label(cat, character.rank), cost.value, cost.pp_left


# What the list of a player's units and characters shows of each, after the kind (0: a
# unit, 1: a character), the id and the name: a unit's VU, status, share token and size; a
# character's choices (what its line is costed from) and its unit.
_LISTED_UNIT = ["vu", "status", "share_token"]
_LISTED_CHARACTER = [
    "affiliation", "archetype", "rank", "talents", "equipment", "is_avatar",
    "catalogue_version", "unit_id",
]  # fmt: skip


def _list_rows(owner: int, also_owner: int):
    """The owner's units (kind 0) then characters (kind 1), each by name: one query."""
    unit_empty = [Value(None, output_field=KolapsUnit._meta.get_field(n)) for n in _LISTED_UNIT]
    character_empty = [
        Value(None, output_field=KolapsCharacter._meta.get_field(n)) for n in _LISTED_CHARACTER
    ]
    units = (
        KolapsUnit.objects.filter(owner_id=owner)
        .order_by()
        .annotate(kind=Value(0), size=Count("members"))
        .values_list("kind", "pk", "name", *_LISTED_UNIT, "size", *character_empty)
    )
    characters = (
        KolapsCharacter.objects.filter(owner_id=also_owner)
        .order_by()
        .annotate(kind=Value(1))
        .values_list(
            "kind", "pk", "name", *unit_empty, Value(None, output_field=IntegerField()),
            *_LISTED_CHARACTER,
        )
    )  # fmt: skip
    return units.union(characters, all=True).order_by("kind", "name", "pk")


# The owner's id twice: once in each half of the union. Compiled once per process: the
# queryset built and compiled on each request took 2.2 ms of CPU against 0.21 ms for this
# read, when the whole kept list page costs 1.2 ms (medians of 300, a player with a unit
# of 30, through the test client, 2026-11-28; the page is timed in
# tests/benchmarks/test_browsing_pages_bench.py, "KOLAPS units and characters").
_LIST_ROWS = CompiledRead(_list_rows, 2, convert=False)


class ListedCharacter(NamedTuple):
    """A character as the list costs it (`costed_line`)."""

    pk: int
    name: str
    affiliation: str
    archetype: str
    rank: str
    talents: dict
    equipment: list
    is_avatar: bool
    catalogue_version: str
    unit_id: int | None


@dataclass(frozen=True)
class ListRows:
    """A player's units and characters as the database holds them (one query), before
    anything is costed: all the kept list page needs to name what it shows
    (`list_page_key`), and what its lines are made from when it must be rendered."""

    rows: list[tuple]

    def units(self) -> list[UnitSummary]:
        return [
            UnitSummary(pk, name, vu, status == KolapsUnit.Status.VALID, bool(token), size)
            for kind, pk, name, vu, status, token, size, *_character in self.rows
            if kind == 0
        ]

    def characters(self) -> list[CharacterSummary]:
        names = ["id", "name", *_LISTED_CHARACTER]
        choices = 3 + len(_LISTED_UNIT) + 1  # after the kind, id, name and a unit's columns
        lines = []
        for row in self.rows:
            if row[0] == 1:
                values = converted(KolapsCharacter, names, [*row[1:3], *row[choices:]])
                c = ListedCharacter(*values)
                lines.append(CharacterSummary(c.pk, c.name, *costed_line(c), c.unit_id))
        return lines


def list_rows(user) -> ListRows:
    """The signed-in `user`'s units and characters, by name: one query, compiled once."""
    return ListRows(_LIST_ROWS.rows(user.pk, user.pk) if user.is_authenticated else [])


def list_page_key(rows: ListRows, *also) -> str:
    """A key naming all the list of units and characters shows: their rows, the release,
    the language and `also` (the player, the path, the theme)."""
    shown = repr((rows.rows, also))
    digest = hashlib.blake2b(shown.encode(), digest_size=16).hexdigest()
    return f"kolaps-list-page:{get_language()}:{digest}"


VERB_SENTENCES = {
    "created": gettext_lazy("created %(name)s"),
    "duplicated": gettext_lazy("created %(name)s as a copy of %(source)s"),
    "imported": gettext_lazy("imported %(name)s"),
    "level": gettext_lazy("set %(talent)s of %(name)s to %(level)s"),
    "level_dropped": gettext_lazy("dropped %(talent)s from %(name)s"),
    "talent_choice": gettext_lazy("chose %(talent)s for %(name)s"),
    "equipment": gettext_lazy("gave %(item)s to %(name)s"),
    "gauges": gettext_lazy("set the gauges of %(name)s to %(sante)s/%(souffle)s/%(moral)s"),
    "renamed": gettext_lazy("renamed it %(name)s"),
    "rank": gettext_lazy("made %(name)s %(rank)s"),
    "added": gettext_lazy("added %(name)s"),
    "removed": gettext_lazy("removed %(name)s"),
    "avatar": gettext_lazy("made %(name)s the Avatar"),
    "shared": gettext_lazy("shared the unit by link"),
    "unshared": gettext_lazy("revoked the unit's link"),
    "undo": gettext_lazy("undid: %(undone)s"),
    "lost": gettext_lazy("lost %(name)s in the chapter %(chapter_title)s"),
    "restored": gettext_lazy(
        "got %(name)s back: the settlement of the chapter %(chapter_title)s was reopened"
    ),
}


def change_sentence(change: KolapsChange, cat: Catalogue) -> str:
    """The change as a sentence in the active language, its names written in (elided)."""
    return elide(_sentence(change.verb, change.data, cat))


def _sentence(verb: str, given: dict, cat: Catalogue) -> str:
    data = {"name": "", "source": "", "talent": "", "item": "", "level": "", "rank": "",
            "sante": "", "souffle": "", "moral": "", "undone": "", "chapter_title": ""}  # fmt: skip
    # Names as typed, each isolated in the sentence (`characters.bidi`).
    data.update({k: isolate_text(v) if isinstance(v, str) else v for k, v in given.items()})
    if verb == "level" and data["level"] is None:
        verb = "level_dropped"
    if data["talent"]:
        data["talent"] = text.talent_label(cat, data["talent"])
    if data["item"]:
        data["item"] = text.item_label(cat, data["item"])
    if data["rank"]:
        data["rank"] = text.rank_label(cat, data["rank"])
    if verb == "undo":
        data["undone"] = _sentence(data["undone"], data.get("undone_data") or {}, cat)
    template = VERB_SENTENCES.get(verb)
    return str(template) % data if template else verb


def history_for(*, unit: KolapsUnit | None = None, character: KolapsCharacter | None = None):
    """The latest changes, newest first: one query. Named with the catalogue the unit or
    character was built with."""
    cat = services.catalogue((unit or character).catalogue_version)
    changes = KolapsChange.objects.filter(**({"unit": unit} if unit else {"character": character}))
    rows = changes.select_related("actor", "undone_by").order_by("-at", "-pk")[:HISTORY_SHOWN]
    lines = []
    for row in rows:
        undone = getattr(row, "undone_by", None) is not None
        lines.append(
            ChangeLine(
                id=row.pk,
                at=row.at,
                actor=row.actor.public_name if row.actor else "",
                verb=row.verb,
                sentence=change_sentence(row, cat),
                undone=undone,
                is_undo=row.undoes_id is not None,
            )
        )
    return lines
