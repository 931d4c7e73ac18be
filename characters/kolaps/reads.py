"""Fetch and authorise KOLAPS units and characters (`unit_get_for_user`,
`character_get_for_user`: a 404 to anyone but the owner, `unit_for_token` for a shared
link), and the rows a unit's pages read (`unit_rows`), in a fixed number of queries.
Nothing here writes."""

from dataclasses import dataclass
from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import F, Value, Window
from django.db.models.functions import RowNumber
from django.http import Http404

from characters.compiled import CompiledRead
from characters.kolaps.models import KolapsCharacter, KolapsUnit
from characters.permissions import Role, require

CAN_EDIT = {Role.OWNER}

# --- Permissions -----------------------------------------------------------------------------


def owned_role(viewer, obj) -> set[Role]:
    """A unit or a character is its owner's; nobody else sees it here (a shared unit is
    read through its link, not through its id)."""
    roles = {Role.ANYONE}
    if viewer.is_authenticated and obj.owner_id == viewer.pk:
        roles.add(Role.OWNER)
    return roles


# Fetch and authorise: what a KOLAPS page or API class needs (`need`) of a unit or a
# character. Both are their owner's alone ("view" and "edit" alike): anyone else gets a 404.
NEEDS = {"view": CAN_EDIT, "edit": CAN_EDIT}


def _owned_get(model, user, pk: int, need: str):
    obj = model.objects.filter(pk=pk).first()
    if obj is None:
        raise Http404
    require(owned_role(user, obj), NEEDS[need], visible=CAN_EDIT)
    return obj


def unit_get_for_user(user, pk: int, *, need: str = "edit") -> KolapsUnit:
    return _owned_get(KolapsUnit, user, pk, need)


def converted(model, names: list[str], values) -> list:
    """A row read through `CompiledRead` unconverted, as the ORM would have loaded it (JSON
    decoded, SQLite's dates and booleans made Python's)."""
    connection = connections[DEFAULT_DB_ALIAS]
    out = list(values)
    for position, column, convert in _converters(connection, model, tuple(names)):
        out[position] = convert(out[position], column, connection)
    return out


# Per connection (each thread has its own): the converters its backend gives each column.
_CONVERTERS: WeakKeyDictionary = WeakKeyDictionary()


def _converters(connection, model, names: tuple[str, ...]) -> list:
    """What `_converted` applies to the columns `names` of `model`, in order: looked up once
    per connection, not once a value (a cold print converts 30 members of 20 columns)."""
    known = _CONVERTERS.setdefault(connection, {})
    if (model, names) not in known:
        found = []
        for position, name in enumerate(names):
            column = model._meta.get_field(name).get_col(model._meta.db_table)
            for convert in [
                *connection.ops.get_db_converters(column),
                *column.get_db_converters(connection),
            ]:
                found.append((position, column, convert))
        known[model, names] = found
    return known[model, names]


_UNIT_FIELDS = [f.attname for f in KolapsUnit._meta.concrete_fields]
_MEMBER_FIELDS = [f.attname for f in KolapsCharacter._meta.concrete_fields]
# The unit joined to its members, in order (a unit without any: one row, members' columns
# empty).
_UNIT_ROWS = CompiledRead(
    lambda pk: (
        KolapsUnit.objects.filter(pk=pk)
        .order_by("members__position", "members__pk")
        .values_list(*_UNIT_FIELDS, *(f"members__{name}" for name in _MEMBER_FIELDS))
    ),
    1,
    convert=False,
)


def _unit_page_rows(pk: int, owner: int):
    """The unit joined to its members (kind 0, in their order), then `owner`'s characters
    in no unit (kind 1, by name): what a unit page shows, in one query."""
    unit_rows = (
        KolapsUnit.objects.filter(pk=pk)
        .order_by()
        .annotate(
            kind=Value(0),
            place=Window(RowNumber(), order_by=[F("members__position"), F("members__pk")]),
        )
        .values_list("kind", "place", *_UNIT_FIELDS, *(f"members__{n}" for n in _MEMBER_FIELDS))
    )
    free_rows = (
        # The dead are not offered back (RULES-NOTES CL1: "the dead leave their unit for good").
        KolapsCharacter.objects.filter(owner_id=owner, unit__isnull=True, dead=False)
        .order_by()
        .annotate(kind=Value(1), place=Window(RowNumber(), order_by=[F("name"), F("pk")]))
        .values_list(
            "kind",
            "place",
            *(Value(None, output_field=f) for f in KolapsUnit._meta.concrete_fields),
            *_MEMBER_FIELDS,
        )
    )
    return unit_rows.union(free_rows, all=True).order_by("kind", "place")


_UNIT_PAGE_ROWS = CompiledRead(_unit_page_rows, 2, convert=False)


@dataclass(frozen=True)
class UnitRows:
    """A unit and its members as the database holds them (one query), before any model is
    built: all a kept page needs to name what it shows (`unit_page_key`), and what its
    models are built from when the page must be rendered (`models`)."""

    unit: tuple
    members: list[tuple]
    # (id, name) of the owner's characters in no unit, when read with the unit (the page).
    free: list[tuple[int, str]] | None = None

    @property
    def pk(self) -> int:
        return self.unit[0]

    @property
    def owner_id(self) -> int:
        return self.unit[_UNIT_FIELDS.index("owner_id")]

    def models(self) -> tuple[KolapsUnit, list[KolapsCharacter]]:
        db = DEFAULT_DB_ALIAS
        unit = KolapsUnit.from_db(db, _UNIT_FIELDS, converted(KolapsUnit, _UNIT_FIELDS, self.unit))
        members = [
            KolapsCharacter.from_db(
                db, _MEMBER_FIELDS, converted(KolapsCharacter, _MEMBER_FIELDS, row)
            )
            for row in self.members
        ]
        return unit, members


def unit_rows(pk: int, *, free_of: int | None = None) -> UnitRows:
    """The unit `pk` and its members, in order, and with `free_of` that player's characters
    in no unit: one query. 404 when there is no such unit."""
    split = len(_UNIT_FIELDS)
    if free_of is None:
        rows = _UNIT_ROWS.rows(pk)
        free = None
    else:
        read = _UNIT_PAGE_ROWS.rows(pk, free_of)
        rows = [row[2:] for row in read if row[0] == 0]
        name = split + _MEMBER_FIELDS.index("name")
        free = [(row[2 + split], row[2 + name]) for row in read if row[0] == 1]
    if not rows:
        raise Http404
    members = [row[split:] for row in rows if row[split] is not None]
    return UnitRows(rows[0][:split], members, free)


def unit_rows_for_user(user, pk: int, *, need: str = "edit", with_free: bool = False) -> UnitRows:
    """`unit_rows`, authorised as `unit_get_for_user` (its owner's alone, 404 for anyone
    else); `with_free` adds the user's characters in no unit (the unit page)."""
    rows = unit_rows(pk, free_of=user.pk if with_free and user.is_authenticated else None)
    roles = {Role.ANYONE}
    if user.is_authenticated and rows.owner_id == user.pk:
        roles.add(Role.OWNER)
    require(roles, NEEDS[need], visible=CAN_EDIT)
    return rows


def character_get_for_user(user, pk: int, *, need: str = "edit") -> KolapsCharacter:
    return _owned_get(KolapsCharacter, user, pk, need)


GET_FOR_USER = {"character": character_get_for_user, "unit": unit_get_for_user}


def unit_for_token(token: str) -> KolapsUnit:
    unit = KolapsUnit.objects.filter(share_token=token).first() if token else None
    if unit is None:
        raise Http404
    return unit
