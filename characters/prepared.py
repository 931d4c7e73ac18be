"""Reads written with the ORM, compiled once per process and then run as their SQL.

The ORM builds and compiles a query again on every run, which costs several times what
PostgreSQL takes to answer the small reads of the pages shown most often (a unit page and
its print, the dashboard, the live table polled by every phone). A `Prepared` read is
written once with the ORM, for negative markers in place of its parameters (no id is
negative), compiled on its first run, and then run as that SQL with the markers replaced
by this run's values, the ORM's own constants kept. This module sits in the lowest app so
that every app may use it.
"""

from collections.abc import Callable

from django.db import DEFAULT_DB_ALIAS, connections


class Prepared:
    """`build(*markers)` makes the queryset (`values_list`); `rows(*params)` runs it.

    `convert`: the values converted as the ORM would (JSON decoded, SQLite's dates and
    booleans made Python's); else as the database gives them. `objects(*params)`: the rows
    as instances of the queryset's model, when it selects every concrete field's `attname`
    in order (`fields_of`). A marker standing for a value compared to a field with a range
    (a positive integer) is written `Value(marker)`, which the ORM passes on as it is."""

    def __init__(self, build: Callable, arity: int = 1, *, convert: bool = False):
        self.build = build
        self.markers = tuple(range(-1, -arity - 1, -1))
        self.convert = convert
        self.compiled: dict[str, tuple[str, tuple, list, type]] = {}

    def _compiled(self, connection) -> tuple[str, tuple, list, type]:
        compiled = self.compiled.get(connection.vendor)
        if compiled is None:
            queryset = self.build(*self.markers)
            compiler = queryset.query.get_compiler(connection=connection)
            sql, constants = compiler.as_sql()
            given = {int(p) for p in constants if _marker(p)}
            if given != set(self.markers):
                raise ValueError(f"{sql} takes {constants}, not {self.markers}")
            converters = []
            if self.convert:
                columns = [selected[0] for selected in compiler.select[: compiler.col_count]]
                for i, column in enumerate(columns):
                    convert = [
                        *connection.ops.get_db_converters(column),
                        *column.get_db_converters(connection),
                    ]
                    if convert:
                        converters.append((i, column, convert))
            compiled = (sql, tuple(constants), converters, queryset.model)
            self.compiled[connection.vendor] = compiled
        return compiled

    def rows(self, *params) -> list[tuple]:
        connection = connections[DEFAULT_DB_ALIAS]
        sql, constants, converters, _model = self._compiled(connection)
        values = [params[-1 - int(p)] if _marker(p) else p for p in constants]
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            rows = cursor.fetchall()
        if not converters:
            return rows
        out = []
        for row in rows:
            row = list(row)
            for i, column, convert in converters:
                for converter in convert:
                    row[i] = converter(row[i], column, connection)
            out.append(tuple(row))
        return out

    def objects(self, *params) -> list:
        if not self.convert:
            raise ValueError("instances are built from converted values (convert=True)")
        model = self._compiled(connections[DEFAULT_DB_ALIAS])[3]
        names = fields_of(model)
        return [model.from_db(DEFAULT_DB_ALIAS, names, row) for row in self.rows(*params)]


def _marker(param) -> bool:
    # An int, or the database driver's wrapper of one (psycopg's Int4), never a bool.
    return isinstance(param, int) and not isinstance(param, bool) and param < 0


def fields_of(model) -> list[str]:
    """The `attname` of each of the model's concrete fields, in order: what a read selects
    to build its instances (`Prepared.objects`, `Model.from_db`)."""
    return [f.attname for f in model._meta.concrete_fields]
