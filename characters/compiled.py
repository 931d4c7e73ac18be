"""Reads written with the ORM, compiled once per process, then run as their SQL.

The ORM builds and compiles a query again on every run, which costs several times what
PostgreSQL takes to answer the small reads a page makes (a chapter page: 5.6 ms of Python
for 0.7 ms of SQL): most of the time of the pages shown most often. A `CompiledRead` is
written as usual, as a queryset of values for given ids, and compiled the first time it
runs; afterwards only its parameters change. It lives in the lowest Django layer so that
`characters` and `campaigns` may both use it.
"""

from collections.abc import Callable

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

# What a bigint column holds: an id beyond it matches no row.
_BIGINT = (-(2**63), 2**63 - 1)


class CompiledRead:
    """`build(*params)` makes the queryset (values or values_list); it is compiled once per
    database with a negative marker for each parameter (-1 for the first, -2 for the
    second...: no id is negative), and `rows(*params)` runs its SQL with each marker
    replaced by its value, the ORM's own constants kept, converting the values as the ORM
    would (JSON decoded, SQLite's dates and booleans made Python's).

    Parameters are ids compared for equality: one beyond 64 bits matches nothing, as the
    ORM itself answers such a lookup (instead of an error from the database)."""

    def __init__(self, build: Callable[..., QuerySet], arity: int = 1, *, convert: bool = True):
        self.build = build
        self.markers = tuple(range(-1, -arity - 1, -1))
        # False: the values as the database gives them (a page that names its rows in a
        # key, and converts them only when it renders: characters/kolaps/cards.py).
        self.convert = convert
        self.compiled: dict[str, tuple[str, tuple, list, type]] = {}

    def _compile(self, connection) -> tuple[str, tuple, list, type]:
        queryset = self.build(*self.markers)
        compiler = queryset.query.get_compiler(connection=connection)
        sql, constants = compiler.as_sql()
        given = {int(p) for p in constants if _marker(p)}
        if given != set(self.markers):
            raise ValueError(f"{sql} takes {constants}: one of them is not {self.markers}")
        columns = []
        if self.convert:
            columns = [selected[0] for selected in compiler.select[: compiler.col_count]]
        return sql, tuple(constants), columns, queryset.model

    def _compiled(self, connection) -> tuple[str, tuple, list, type]:
        compiled = self.compiled.get(connection.vendor)
        if compiled is None:
            compiled = self.compiled[connection.vendor] = self._compile(connection)
        return compiled

    def rows(self, *params: int) -> list[tuple]:
        if len(params) != len(self.markers):
            raise TypeError(f"{len(self.markers)} parameters expected, not {params}")
        if any(not _BIGINT[0] <= p <= _BIGINT[1] for p in params):
            return []
        connection = connections[DEFAULT_DB_ALIAS]
        sql, constants, columns, _model = self._compiled(connection)
        values = [params[-1 - int(p)] if _marker(p) else p for p in constants]
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            rows = cursor.fetchall()
        converters = [
            (i, [*connection.ops.get_db_converters(column), *column.get_db_converters(connection)])
            for i, column in enumerate(columns)
        ]
        converters = [(i, convert) for i, convert in converters if convert]
        if not converters:
            return rows
        out = []
        for row in rows:
            row = list(row)
            for i, convert in converters:
                for converter in convert:
                    row[i] = converter(row[i], columns[i], connection)
            out.append(tuple(row))
        return out

    def objects(self, *params: int) -> list:
        """The rows as instances of the queryset's model, when it selects every concrete
        field's `attname` in order (`fields_of`), its values converted."""
        if not self.convert:
            raise ValueError("instances are built from converted values (convert=True)")
        model = self._compiled(connections[DEFAULT_DB_ALIAS])[3]
        names = fields_of(model)
        return [model.from_db(DEFAULT_DB_ALIAS, names, row) for row in self.rows(*params)]


def _marker(param) -> bool:
    """A parameter marker: a negative int, or the database driver's wrapper of one
    (psycopg's Int4, which a `Value(marker)` compiles to), never a bool. A marker compared
    to a field with a range (a positive integer) is written `Value(marker)`, which the ORM
    passes on as it is (a bare negative value would empty or drop the condition)."""
    return isinstance(param, int) and not isinstance(param, bool) and param < 0


def fields_of(model) -> list[str]:
    """The `attname` of each of the model's concrete fields, in order: what a read selects
    to build its instances (`CompiledRead.objects`, `Model.from_db`)."""
    return [f.attname for f in model._meta.concrete_fields]
