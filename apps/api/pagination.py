"""limit/offset pagination with the page body `{data, total, limit, offset}`.

A large total is reused while nothing has changed: counting a million rows costs tens of milliseconds on every
page, so a total of at least `LIST_TOTAL_CACHE_ROWS` is kept for at most `LIST_TOTAL_CACHE_SECONDS` by the process
that counted it (keyed on the list's SQL and parameters) with the data version it was counted at
(`pagecache.data_version`, moved by every committed write), and served only while that version holds, so it never
lags a write made through the application (docs/decisions/scale.md). Smaller totals are always counted.
"""

import threading
import time

from django.conf import settings
from django.db.models import QuerySet
from rest_framework.pagination import BasePagination
from rest_framework.response import Response

from . import pagecache
from .exceptions import ValidationFailed

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
MAX_OFFSET = 2**63 - 1  # beyond any row count; larger values could not even be echoed as a JSON integer


def limit_errors(raw, default=DEFAULT_LIMIT, maximum=MAX_LIMIT) -> tuple[int, list[str]]:
    """A `limit` query value clamped to `maximum` (however large), and its errors: below 1 or not an integer."""
    if raw in (None, ""):
        return default, []
    try:
        limit = int(raw)
    except ValueError:
        return default, ["Must be an integer."]
    return min(limit, maximum), ["Must be at least 1."] if limit < 1 else []


def parse_limit(raw, default=DEFAULT_LIMIT, maximum=MAX_LIMIT) -> int:
    limit, errors = limit_errors(raw, default, maximum)
    if errors:
        raise ValidationFailed({"limit": errors})
    return limit


def parse_page_params(query_params) -> tuple[int, int]:
    errors = {}
    offset = 0
    limit, limit_messages = limit_errors(query_params.get("limit"))
    if limit_messages:
        errors["limit"] = limit_messages
    raw_offset = query_params.get("offset")
    if raw_offset not in (None, ""):
        try:
            offset = int(raw_offset)
            if offset < 0:
                errors["offset"] = ["Must be 0 or more."]
            elif offset > MAX_OFFSET:
                errors["offset"] = [f"Must be at most {MAX_OFFSET}."]
        except ValueError:
            errors["offset"] = ["Must be an integer."]
    if errors:
        raise ValidationFailed(errors)
    return limit, offset


_LARGE_TOTALS: dict[str, tuple[float, int, int]] = {}  # SQL and parameters -> (expires at, data version, total)
_LARGE_TOTALS_KEPT = 1024
_large_totals_lock = threading.Lock()


def list_total(queryset: QuerySet) -> int:
    """The number of rows of `queryset`, a large one reused for `LIST_TOTAL_CACHE_SECONDS`."""
    seconds = settings.LIST_TOTAL_CACHE_SECONDS
    # Read before counting: a write committing during the count moves the version past the one stored with it.
    version = pagecache.data_version(queryset.model) if seconds > 0 else None
    if version is None:
        return queryset.count()
    sql, params = queryset.query.sql_with_params()
    key = f"{queryset.db}\n{sql}\n{params!r}"
    now = time.monotonic()
    kept = _LARGE_TOTALS.get(key)
    if kept is not None and kept[0] > now and kept[1] == version:
        return kept[2]
    total = queryset.count()
    if total >= settings.LIST_TOTAL_CACHE_ROWS:
        with _large_totals_lock:
            if len(_LARGE_TOTALS) >= _LARGE_TOTALS_KEPT:
                _LARGE_TOTALS.pop(next(iter(_LARGE_TOTALS)))
            _LARGE_TOTALS[key] = (now + seconds, version, total)
    return total


def forget_large_totals() -> None:
    with _large_totals_lock:
        _LARGE_TOTALS.clear()


class ValuesPage:
    """A page source for `PagePagination`: the filtered queryset counted as it is (`COUNT(*)` with the filters'
    joins only), and only the page's slice turned into value rows by `to_values` (annotations, related columns)."""

    ordered = True

    def __init__(self, queryset, to_values):
        self.queryset = queryset
        self.to_values = to_values

    def count(self) -> int:
        return self.queryset.count()

    def __getitem__(self, item: slice) -> list[dict]:
        return list(self.to_values(self.queryset[item]))


def page_body(data, total, limit, offset) -> dict:
    return {"data": data, "total": total, "limit": limit, "offset": offset}


class PagePagination(BasePagination):
    """Ordered querysets only: an unordered one is a programming error, caught in tests."""

    def paginate_queryset(self, queryset, request, view=None):
        self.limit, self.offset = parse_page_params(request.query_params)
        if hasattr(queryset, "ordered") and not queryset.ordered:
            raise AssertionError(f"{view.__class__.__name__} paginates an unordered queryset")
        if isinstance(queryset, list | tuple):
            self.total = len(queryset)
        elif isinstance(queryset, QuerySet):
            self.total = list_total(queryset)
        elif isinstance(getattr(queryset, "queryset", None), QuerySet):  # a page source over a queryset (ValuesPage)
            self.total = list_total(queryset.queryset.order_by())
        else:
            self.total = queryset.count()
        if self.total == 0 or self.offset >= self.total:
            return []
        return list(queryset[self.offset : self.offset + self.limit])

    def get_paginated_response(self, data):
        return Response(page_body(data, self.total, self.limit, self.offset))

    def get_paginated_response_schema(self, schema):
        return {
            "type": "object",
            "required": ["data", "total", "limit", "offset"],
            "properties": {
                "data": schema,
                "total": {"type": "integer"},
                "limit": {"type": "integer"},
                "offset": {"type": "integer"},
            },
        }

    def get_schema_operation_parameters(self, view):
        return [
            {
                "name": "limit",
                "in": "query",
                "required": False,
                "schema": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT},
            },
            {"name": "offset", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 0}},
        ]
