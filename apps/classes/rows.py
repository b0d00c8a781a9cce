"""Reading `.values()` querysets straight off the cursor, for lean list presenters (classes, instructors).

Django's values() iteration runs a converter per value; here JSON columns arrive as text and are decoded with
orjson, everything else is what psycopg returns. `RowPage` lets `PagePagination` count a plain queryset and fetch
only the sliced page as rows.
"""

from collections.abc import Callable

import orjson
from django.db import connections


def fetch_rows(queryset, json_columns=()) -> list[dict]:
    """A `.values()` queryset as plain dicts keyed by the values() names, in one query."""
    sql, params = queryset.query.get_compiler(queryset.db).as_sql()
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(sql, params)
        names = [column.name for column in cursor.description]
        rows = [dict(zip(names, values, strict=True)) for values in cursor.fetchall()]
    loads = orjson.loads
    for row in rows:
        for name in json_columns:
            value = row[name]
            if isinstance(value, str | bytes):
                row[name] = loads(value)
    return rows


class RowPage:
    """A page source for `PagePagination`: `count()` on the filtered queryset, rows only for the sliced page."""

    ordered = True

    def __init__(self, queryset, to_values: Callable, json_columns=()):
        self.queryset = queryset
        self.to_values = to_values
        self.json_columns = json_columns

    def count(self) -> int:
        return self.queryset.order_by().count()

    def __getitem__(self, item: slice) -> list[dict]:
        return fetch_rows(self.to_values(self.queryset[item]), self.json_columns)

    def all(self) -> list[dict]:
        return fetch_rows(self.to_values(self.queryset), self.json_columns)
