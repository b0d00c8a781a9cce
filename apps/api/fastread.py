"""Fast reads for list presenters: a `.values()` / `.values_list()` queryset run on a raw cursor with fast loaders.

Django's values() iteration on PostgreSQL decodes every `timestamptz` through a Python subclass of psycopg's
loader (`BaseTzLoader`, which loses psycopg's C implementation) and every `jsonb` twice (text, then
`JSONField.from_db_value` -> `json.loads`), a converter call per value. Here, on PostgreSQL with a UTC session,
the one cursor this helper uses gets psycopg's own C `TimestamptzLoader` (which answers `datetime.timezone.utc`
date-times, the same values Django builds) and an `orjson.loads` loader for `jsonb`; the JSON converters are
skipped, every other converter still runs. The ORM elsewhere is untouched (the loaders live on this cursor only).
Other databases (SQLite, the embedded default) go through the plain ORM path. Same rows, same Python values.

`values_page(queryset)` wraps a values() queryset for `PagePagination`: `count()` runs on the base table (no
select list, no joins the filters do not need, no ordering) and slices fetch through `fetch_values`.
"""

import os

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.backends.signals import connection_created
from django.db.models import Field, JSONField
from django.db.models.query import FlatValuesListIterable, ValuesIterable, ValuesListIterable
from django.db.models.sql.constants import LOUTER

try:  # psycopg 3 (the PostgreSQL driver the project pins); absent on a bare SQLite install
    import orjson
    from psycopg.adapt import Loader
    from psycopg.types.datetime import TimestamptzLoader
except ImportError:  # pragma: no cover
    Loader = None


if Loader is not None:

    class OrjsonLoader(Loader):
        """`jsonb` text straight to Python values with orjson (same values as json.loads for JSON text)."""

        def load(self, data):
            return orjson.loads(data)


ENABLED = os.environ.get("FAST_READ", "1") != "0"  # FAST_READ=0: the plain ORM path (for benchmarks)


def _prepare_connection(sender, connection, **kwargs):
    """Decide once per connection whether the fast loaders apply (PostgreSQL, psycopg 3, a UTC session)."""
    connection._fast_read_loaders = None
    if not ENABLED or Loader is None or connection.vendor != "postgresql":
        return
    if not hasattr(connection.connection, "adapters"):  # psycopg2
        return
    tz = connection.timezone
    session_tz = connection.connection.info.parameter_status("TimeZone")
    if tz is None or str(tz) not in ("UTC", "UTC+00:00") or session_tz not in ("UTC", "Etc/UTC"):
        return
    types = connection.connection.adapters.types
    connection._fast_read_loaders = (
        (types["timestamptz"].oid, TimestamptzLoader),
        (types["jsonb"].oid, OrjsonLoader),
    )


connection_created.connect(_prepare_connection, dispatch_uid="apps.api.fastread")


def _loaders(connection):
    try:
        return connection._fast_read_loaders
    except AttributeError:  # a connection opened before this module was imported
        connection.ensure_connection()
        if not hasattr(connection, "_fast_read_loaders"):
            _prepare_connection(None, connection)
        return connection._fast_read_loaders


def _is_json(field) -> bool:
    if isinstance(field, JSONField):
        return True
    base = getattr(field, "base_field", None)  # ArrayField of JSON
    return base is not None and _is_json(base)


def _converters(compiler, connection):
    """Django's converters for this select list minus the JSON ones (the orjson loader already decoded them)."""
    fields = [column[0] for column in compiler.select[: compiler.col_count]]
    converters = compiler.get_converters(fields)
    for index in list(converters):
        expression = converters[index][1]
        output = getattr(expression, "output_field", None)
        if output is not None and _is_json(output):
            del converters[index]
    return converters


def _raw_rows(queryset) -> tuple[list, list[str]] | None:
    """(rows as tuples after converters, column names) through the fast cursor; None when it does not apply."""
    connection = connections[queryset.db]
    if connection.vendor != "postgresql":
        return None
    loaders = _loaders(connection)
    if not loaders:
        return None
    query = queryset.query
    compiler = query.get_compiler(queryset.db)
    try:
        sql, params = compiler.as_sql()
    except EmptyResultSet:
        return [], []
    if query.selected:
        names = list(query.selected)
    else:
        names = [*query.extra_select, *query.values_select, *query.annotation_select]
    converters = _converters(compiler, connection)
    with connection.cursor() as cursor:
        raw = cursor.cursor
        for oid, loader in loaders:
            raw.adapters.register_loader(oid, loader)
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if compiler.col_count != len(names) or (rows and len(rows[0]) != compiler.col_count):
        rows = [row[: compiler.col_count] for row in rows]
    if converters:
        rows = list(compiler.apply_converters(rows, converters))
    return rows, names


def fetch_values(queryset) -> list[dict]:
    """A `.values()` queryset (filters, ordering and slicing kept) as a list of dicts, in one query."""
    if queryset._iterable_class is not ValuesIterable or queryset._result_cache is not None:
        return list(queryset)
    result = _raw_rows(queryset)
    if result is None:
        return list(queryset)
    rows, names = result
    return [dict(zip(names, row, strict=False)) for row in rows]


def fetch_values_list(queryset) -> list:
    """A `.values_list()` queryset (flat or not) as a list of tuples (or values), in one query."""
    iterable = queryset._iterable_class
    if iterable not in (ValuesListIterable, FlatValuesListIterable) or queryset._result_cache is not None:
        return list(queryset)
    result = _raw_rows(queryset)
    if result is None:
        return list(queryset)
    rows, _ = result
    if iterable is FlatValuesListIterable:
        return [row[0] for row in rows]
    return [tuple(row) for row in rows]


def fetch(queryset) -> list:
    """Any queryset as a list: values()/values_list() through the fast cursor, anything else through the ORM."""
    iterable = queryset._iterable_class
    if iterable is ValuesIterable:
        return fetch_values(queryset)
    if iterable in (ValuesListIterable, FlatValuesListIterable):
        return fetch_values_list(queryset)
    return list(queryset)


def cheap_count(queryset) -> int:
    """`COUNT(*)` of a queryset without its select list, annotations nobody filters on, ordering or the
    forward-FK LEFT JOINs only the select list needed (values() of related columns): the WHERE clause decides.

    Anything unusual (DISTINCT, GROUP BY, aggregates, slices, set operations) is counted by Django as is.
    """
    query = queryset.query
    if (
        query.distinct
        or query.combinator
        or query.low_mark
        or query.high_mark is not None
        or query.group_by is not None
        or query.extra
        or query.where.contains_aggregate
        or any(getattr(a, "contains_aggregate", True) for a in query.annotations.values())
    ):
        return queryset.count()
    referenced = _where_annotations(query)
    clone = queryset.model._base_manager.db_manager(queryset.db).all()
    new = clone.query
    new.where = query.where.clone()
    new.alias_map = dict(query.alias_map)
    new.alias_refcount = dict(query.alias_refcount)
    new.table_map = {table: list(aliases) for table, aliases in query.table_map.items()}
    new.used_aliases = set(query.used_aliases)
    new.extra_tables = query.extra_tables
    new.annotations = {name: query.annotations[name] for name in referenced}
    new.annotation_select_mask = set()
    new.alias_prefix = query.alias_prefix
    new.subq_aliases = query.subq_aliases
    needed = _where_aliases(new)
    base = query.get_initial_alias() if query.alias_map else None
    for alias, join in new.alias_map.items():
        if alias != base and alias not in needed and _droppable(join):
            new.alias_refcount[alias] = 0
    return clone.count()


def _droppable(join) -> bool:
    """A LEFT OUTER JOIN along a forward many-to-one/one-to-one field: at most one row, never changes a count."""
    field = getattr(join, "join_field", None)
    return (
        getattr(join, "join_type", None) == LOUTER
        and isinstance(field, Field)
        and field.is_relation
        and (field.many_to_one or field.one_to_one)
        and not field.auto_created
        and not getattr(join, "filtered_relation", None)
    )


def _where_annotations(query) -> set:
    """Names of annotations the WHERE clause references (by reference or inlined)."""
    names = set()
    for name, annotation in query.annotations.items():
        if _contains(query.where, annotation):
            names.add(name)
    return names


def _contains(node, target) -> bool:
    if node is target or node == target:
        return True
    for child in getattr(node, "children", ()):
        if _contains(child, target):
            return True
    for expression in getattr(node, "get_source_expressions", lambda: [])():
        if expression is not None and _contains(expression, target):
            return True
    if hasattr(node, "lhs") and _contains(node.lhs, target):
        return True
    return False


def _where_aliases(query) -> set:
    """Table aliases the WHERE clause (and the joins those depend on) use."""
    aliases = set()

    def walk(node):
        alias = getattr(node, "alias", None)
        if isinstance(alias, str) and alias in query.alias_map:
            aliases.add(alias)
        for child in getattr(node, "children", ()):
            walk(child)
        lhs = getattr(node, "lhs", None)
        if lhs is not None:
            walk(lhs)
        rhs = getattr(node, "rhs", None)
        if rhs is not None and hasattr(rhs, "get_source_expressions"):
            walk(rhs)
        for expression in getattr(node, "get_source_expressions", lambda: [])():
            if expression is not None:
                walk(expression)

    walk(query.where)
    for annotation in query.annotations.values():
        walk(annotation)
    # A join needs the joins it hangs from.
    changed = True
    while changed:
        changed = False
        for alias in list(aliases):
            parent = getattr(query.alias_map[alias], "parent_alias", None)
            if parent and parent not in aliases:
                aliases.add(parent)
                changed = True
    return aliases


class ValuesPage:
    """A page source for `PagePagination`: `cheap_count()` of the filtered queryset, and only the sliced page's
    rows, as `to_values(queryset[slice])` through `fetch_values`. `all()` fetches every row the same way."""

    ordered = True

    def __init__(self, queryset, to_values=None):
        self.queryset = queryset
        self.to_values = to_values

    def _values(self, queryset):
        return self.to_values(queryset) if self.to_values is not None else queryset

    def count(self) -> int:
        return cheap_count(self.queryset.order_by())

    def __getitem__(self, item: slice) -> list[dict]:
        return fetch_values(self._values(self.queryset[item]))

    def all(self) -> list[dict]:
        return fetch_values(self._values(self.queryset))
