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

    def __init__(self, build: Callable[..., QuerySet], arity: int = 1):
        self.build = build
        self.markers = tuple(range(-1, -arity - 1, -1))
        self.compiled: dict[str, tuple[str, tuple, list]] = {}

    def _compile(self, connection) -> tuple[str, tuple, list]:
        compiler = self.build(*self.markers).query.get_compiler(connection=connection)
        sql, constants = compiler.as_sql()
        given = {p for p in constants if type(p) is int and p < 0}
        if given != set(self.markers):
            raise ValueError(f"{sql} takes {constants}: one of them is not {self.markers}")
        columns = [selected[0] for selected in compiler.select[: compiler.col_count]]
        return sql, tuple(constants), columns

    def rows(self, *params: int) -> list[tuple]:
        if len(params) != len(self.markers):
            raise TypeError(f"{len(self.markers)} parameters expected, not {params}")
        if any(not _BIGINT[0] <= p <= _BIGINT[1] for p in params):
            return []
        connection = connections[DEFAULT_DB_ALIAS]
        compiled = self.compiled.get(connection.vendor)
        if compiled is None:
            compiled = self.compiled[connection.vendor] = self._compile(connection)
        sql, constants, columns = compiled
        values = [params[-1 - p] if type(p) is int and p < 0 else p for p in constants]
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
