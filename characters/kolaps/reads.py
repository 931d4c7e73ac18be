"""Fetch and authorise KOLAPS units and characters (`unit_get_for_user`,
`character_get_for_user`: a 404 to anyone but the owner, `unit_for_token` for a shared
link), and the owner's characters a unit page offers (`free_characters`), in a fixed
number of queries. Nothing here writes."""

from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, connections
from django.http import Http404

from characters.compiled import CompiledRead, fields_of
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


def _owned(obj, user, need: str):
    if obj is None:
        raise Http404
    require(owned_role(user, obj), NEEDS[need], visible=CAN_EDIT)
    return obj


# What a kept unit page or print reads to name itself (`cards.unit_page_key`), compiled
# once per process: the unit by id in 0.2 ms against 0.5-0.7 ms through the ORM, the
# owner's free characters in 0.15 ms against 0.7 ms. In tests/benchmarks/
# test_page_speed_bench.py they take the kept unit page from 0.37x the minimal page (the
# same two reads through the ORM) to 0.57x, the kept print from 0.54x to 0.71x.
_UNIT = CompiledRead(
    lambda pk: KolapsUnit.objects.filter(pk=pk).order_by().values_list(*fields_of(KolapsUnit))
)
_FREE = CompiledRead(
    lambda owner: (
        # The dead are not offered back (RULES-NOTES CL1: "the dead leave their unit for good").
        KolapsCharacter.objects.filter(owner_id=owner, unit__isnull=True, dead=False)
        .order_by("name", "pk")
        .values_list("id", "name")
    )
)


def unit_get_for_user(user, pk: int, *, need: str = "edit") -> KolapsUnit:
    return _owned(next(iter(_UNIT.objects(pk)), None), user, need)


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
    """What `converted` applies to the columns `names` of `model`, in order: looked up once
    per connection, not once a value (the list page converts each character's choices)."""
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


def free_characters(owner: int) -> list[tuple[int, str]]:
    """(id, name) of `owner`'s living characters in no unit, by name: the unit page offers
    them."""
    return _FREE.rows(owner)


def character_get_for_user(user, pk: int, *, need: str = "edit") -> KolapsCharacter:
    return _owned(KolapsCharacter.objects.filter(pk=pk).first(), user, need)


GET_FOR_USER = {"character": character_get_for_user, "unit": unit_get_for_user}


def unit_for_token(token: str) -> KolapsUnit:
    unit = KolapsUnit.objects.filter(share_token=token).first() if token else None
    if unit is None:
        raise Http404
    return unit
