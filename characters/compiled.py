"""A read compiled once per process, only where a benchmark shows it is worth it (each use
names its figures): a `values` queryset for given ids, compiled with a negative marker per
id (-1, -2...: no id is negative), then run with the markers replaced and its values
converted by the compiler's own converters. Anywhere else, write the queryset.
"""

from collections.abc import Callable

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

_BIGINT = (-(2**63), 2**63 - 1)  # an id beyond matches no row, as the ORM answers


class CompiledRead:
    def __init__(self, build: Callable[..., QuerySet], arity: int = 1, *, convert: bool = True):
        self.build, self.markers, self.convert = build, tuple(range(-1, -arity - 1, -1)), convert
        self.compiled: dict[str, tuple] = {}  # by database vendor

    def _compiled(self) -> tuple:
        connection = connections[DEFAULT_DB_ALIAS]
        if connection.vendor not in self.compiled:
            query = self.build(*self.markers).query
            compiler = query.get_compiler(connection=connection)
            sql, constants = compiler.as_sql()
            if {int(p) for p in constants if _marker(p)} != set(self.markers):
                raise ValueError(f"{sql} takes {constants}: one of them is not {self.markers}")
            converters = compiler.get_converters(
                s[0] for s in compiler.select[: compiler.col_count]
            )
            # The columns in the order the SQL selects them (Django 5.2 keeps `values()`'s).
            names = list(query.selected or ())
            names = names or [*query.extra_select, *query.values_select, *query.annotation_select]
            read = (sql, constants, compiler, converters, names, query.model)
            self.compiled[connection.vendor] = read
        return self.compiled[connection.vendor]

    def rows(self, *params: int) -> list:
        """The rows as tuples, converted as the ORM would (unless `convert=False`)."""
        if len(params) != len(self.markers):
            raise TypeError(f"{len(self.markers)} parameters expected, not {params}")
        if any(not _BIGINT[0] <= p <= _BIGINT[1] for p in params):
            return []
        sql, constants, compiler, converters, _names, _model = self._compiled()
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute(sql, [params[-1 - int(p)] if _marker(p) else p for p in constants])
            rows = cursor.fetchall()
        if not (self.convert and converters):
            return rows
        return [tuple(row) for row in compiler.apply_converters(rows, converters)]

    def dicts(self, *params: int) -> list[dict]:
        """The rows by the names of a `values` queryset's columns."""
        names = self._compiled()[4]
        return [dict(zip(names, row, strict=True)) for row in self.rows(*params)]

    def objects(self, *params: int) -> list:
        """Instances of the queryset's model, when it selects `fields_of(model)`."""
        model = self._compiled()[5]
        names = fields_of(model)
        return [model.from_db(DEFAULT_DB_ALIAS, names, row) for row in self.rows(*params)]


def _marker(param) -> bool:
    """A marker: a negative int, or the driver's wrapper of one (psycopg's Int4, which a
    `Value(marker)` compiles to: a marker compared to a positive integer field is written
    `Value(marker)`, else the ORM drops the condition), never a bool."""
    return isinstance(param, int) and not isinstance(param, bool) and param < 0


def fields_of(model) -> list[str]:
    """The `attname` of each of the model's concrete fields, in order (`Model.from_db`)."""
    return [f.attname for f in model._meta.concrete_fields]
