"""Resources: one declaration per response shape.

A `Resource` says, in one place, everything a body of that shape needs:

- `shape`: a `TypedDict` naming every key of the body and its type. The OpenAPI component is generated from it
  (`shape_serializer`), so the document cannot drift from what `present` returns (`tests/api/test_resources.py`
  checks every presented body against its shape, and the conformance test validates real responses);
- `model`, `columns` and `annotate()`: the `.values()` row a body is built from (related columns joined, counts
  and id lists as SQL subqueries);
- `load(rows, ctx)`: page-wide loads of related rows, a constant number of queries for any page size;
- `present(row, ctx)`: the body of one row, plain dict building (no queries). By default every key of the shape is
  the column of the same name in snake case (`isActive` from `is_active`); a resource that computes some keys
  returns `self.body(row, ctx, key=value, ...)`, which keeps the shape's key order and copies the others.

`PlatformViewSet` serves list and retrieve from it; services and other resources call `fetch`/`get_many` to
present rows they wrote. A resource is declared once per shape and kept as a module-level instance;
`Resource(Shape, Model)` is one that computes nothing (every key is a column).

Type mapping (`shape_serializer`): `int`, `str`, `float`, `bool`, `datetime`, `date`, `dict` (free-form object),
`list[X]`, `X | None` (nullable), `Literal[...]` or a `Choices` class (enum), a nested `TypedDict` (its own
component, named after the class), `NotRequired[X]` (key only present sometimes) and
`Annotated[X, Describe("...")]` / `Annotated[X, FieldOptions(...)]` for a description or other field options.
`Annotated[X, RequiresScope("contacts:read")]` marks a value shown only to a credential holding that scope: the
resource's `present` checks it with `ctx.allows(...)`, and `redact` applies the same declaration to a body
presented with every scope (event payloads, rendered later under a webhook subscription's or a caller's scopes).
"""

from __future__ import annotations

import datetime as dt
import re
import types
import typing
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import Any, ClassVar, Literal

from django.db.models import Choices, Model, QuerySet
from django.utils import timezone
from rest_framework import serializers

from .exceptions import NotFound
from .pagination import ValuesPage
from .presenters import resolve_translation
from .scopes import ALL_SCOPES_SET


@dataclass
class PresentContext:
    """What presenting needs from the request, built once per request (`PlatformViewSet.present_context`)."""

    organization: Any
    locale: str | None = None
    scopes: frozenset = frozenset()
    now: dt.datetime = field(default_factory=timezone.now)
    memo: dict = field(default_factory=dict)

    @property
    def default_language(self) -> str:
        return self.organization.default_language

    def translate(self, translations: dict | None, field: str, fallback):
        """`field` in the request's `locale`, else the organization's default language, else `fallback`."""
        return resolve_translation(translations, self.locale, self.default_language, field, fallback)

    def translated_ref(self, row: dict, relation: str) -> dict | None:
        """`{id, name}` of the row's `relation` (columns `<relation>_id`, `<relation>__name` and
        `<relation>__translations`), the name in the request's language; None without one."""
        pk = row[f"{relation}_id"]
        if pk is None:
            return None
        return {"id": pk, "name": self.translate(row[f"{relation}__translations"], "name", row[f"{relation}__name"])}

    def once(self, key, build):
        """`build()` computed once per request for `key` (prices, time zones, translated names)."""
        try:
            return self.memo[key]
        except KeyError:
            value = self.memo[key] = build()
            return value

    def allows(self, scope: str) -> bool:
        """Whether the caller holds `scope` (contact e-mails are shown only with `contacts:read`); event payloads
        are presented with every scope and narrowed by `redact` when they are sent or read."""
        return scope in self.scopes

    @classmethod
    def for_event(cls, organization) -> PresentContext:
        """An event payload: every scope, so the stored body is complete; webhooks and the event feed `redact` it
        to the reader's scopes."""
        return cls(organization=organization, scopes=ALL_SCOPES_SET)

    @classmethod
    def for_request(cls, request) -> PresentContext:
        credential = getattr(request, "auth", None)
        return cls(
            organization=request.organization,
            locale=(request.query_params.get("locale") or "").strip() or None,
            scopes=getattr(credential, "effective_scopes", frozenset()),
        )


def snake_case(key: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", key).lower()


def camel_case(name: str) -> str:
    """The body's key for a model field (`tax_amount` is `taxAmount`), as in `changedFields`."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


_TRANSLATED = object()


def _number(value):
    return float(value) if isinstance(value, Decimal) else value


def _list(value):
    return [] if value is None else value


def _dict(value):
    return {} if value is None else value


def _conversion(hint):
    if typing.get_origin(hint) is typing.NotRequired:
        hint = typing.get_args(hint)[0]
    if typing.get_origin(hint) in (types.UnionType, typing.Union):
        members = [m for m in typing.get_args(hint) if m is not type(None)]
        return _number if members == [float] else None
    if hint is float:
        return _number
    if hint is list or typing.get_origin(hint) is list:
        return _list
    if hint is dict or typing.get_origin(hint) is dict:
        return _dict
    return None


class Resource:
    """One response shape. Subclasses declare `shape`, `model`, `columns`; override `annotate`, `load`, `present`."""

    shape: ClassVar[type]
    model: ClassVar[type[Model]]
    columns: ClassVar[tuple[str, ...]] = ()  # what `present` reads besides the shape keys' own model fields
    translated: ClassVar[tuple[str, ...]] = ()  # keys in the request's language (the `translations` column)

    def __init__(self, shape: type | None = None, model: type[Model] | None = None, translated: tuple[str, ...] = ()):
        """`Resource(Shape, Model)`: a resource whose every key is its model field of the same name, or the key
        resolved in the request's language when `translated` names it (no subclass)."""
        if shape is not None:
            self.shape = shape
        if model is not None:
            self.model = model
        if translated:
            self.translated = translated

    def annotate(self, queryset: QuerySet) -> QuerySet:
        """Annotations the columns name (counts, id lists): SQL subqueries, never per-row queries."""
        return queryset

    def values(self, queryset: QuerySet) -> QuerySet:
        return self.annotate(queryset).values(*self.value_columns)

    @cached_property
    def value_columns(self) -> tuple[str, ...]:
        """The row's columns: each required shape key's own model field (named like the key in snake case), then
        `columns` (a `NotRequired` key, such as a secret shown once, is never read unless `columns` names it)."""
        fields = {field.attname for field in self.model._meta.concrete_fields}
        own = [column for _, column, required, _ in self.copied_keys if required and column in fields]
        return tuple(dict.fromkeys([*own, *self.columns]))

    def load(self, rows: list[dict], ctx: PresentContext) -> None:
        """Load what the page's rows refer to (a constant number of queries) into `ctx.memo`."""

    def present(self, row: dict, ctx: PresentContext) -> dict:
        return self.body(row, ctx)

    def body(self, row: dict, ctx: PresentContext, **computed) -> dict:
        """The shape's keys in its order: the value given in `computed`, else the column of the key's snake-case
        name, as the shape types it (see `copied_keys`); a `NotRequired` key with neither is left out."""
        body = {}
        for key, column, required, convert in self.copied_keys:
            if key in computed:
                body[key] = computed[key]
            elif convert is _TRANSLATED:
                body[key] = ctx.translate(row["translations"], key, row[column])
            elif required or column in row:
                body[key] = row[column] if convert is None else convert(row[column])
        return body

    @cached_property
    def copied_keys(self) -> tuple[tuple[str, str, bool, Any], ...]:
        """(key, column, required, conversion): a `float` key's Decimal becomes a JSON number, a list or object
        key that is not nullable is `[]`/`{}` for a null column, and a key named in `translated` is resolved in
        the request's language from the row's `translations`."""
        required = self.shape.__required_keys__
        hints = typing.get_type_hints(self.shape)
        return tuple(
            (key, snake_case(key), key in required, _TRANSLATED if key in self.translated else _conversion(hint))
            for key, hint in hints.items()
        )

    def fresh_until(self, queryset: QuerySet, ctx: PresentContext) -> dt.datetime | None:
        """When bodies of `queryset`'s rows (the organization's, unfiltered) presented at `ctx.now` next change with
        the time alone (None: never). A stored list page is served until then (`apps/api/pagecache.py`)."""
        return None

    # -- derived: every caller presents through these --------------------------------------------------------

    def page_source(self, queryset: QuerySet) -> ValuesPage:
        """A page source for `PagePagination`: a cheap count, and only the page's rows fetched."""
        return ValuesPage(queryset, self.values)

    def present_rows(self, rows, ctx: PresentContext) -> list[dict]:
        rows = list(rows)
        self.load(rows, ctx)
        present = self.present
        return [present(row, ctx) for row in rows]

    def fetch(self, queryset: QuerySet, ctx: PresentContext) -> list[dict]:
        """Bodies of every row of `queryset`, in its order."""
        return self.present_rows(self.values(queryset), ctx)

    def get_many(self, queryset: QuerySet, ids, ctx: PresentContext) -> dict[int, dict]:
        """Bodies by id (the same number of queries for one id or many)."""
        bodies = self.fetch(queryset.filter(pk__in=list(ids)).order_by(), ctx)
        return {body["id"]: body for body in bodies}

    def get(self, queryset: QuerySet, pk, ctx: PresentContext, field: str = "pk") -> dict:
        """The body of the row of `queryset` whose `field` is `pk` (404 when the queryset does not hold it)."""
        bodies = self.fetch(queryset.filter(**{field: pk}).order_by(), ctx)
        if not bodies:
            raise NotFound()
        return bodies[0]

    def event_body(self, organization, pk) -> dict:
        """The body of row `pk` for a domain event, presented with every scope (`PresentContext.for_event`)."""
        return self.get(self.model.objects.all(), pk, PresentContext.for_event(organization))

    @property
    def serializer(self) -> type[serializers.Serializer]:
        """The OpenAPI description of `shape` (drf-spectacular names the component after the shape)."""
        return shape_serializer(self.shape)


# -- shapes as OpenAPI components -------------------------------------------------------------------------------


class FieldOptions(dict):
    """`Annotated[...]` metadata: options of the documenting field (`help_text`, `max_value`, ...)."""

    def __init__(self, **options):
        super().__init__(options)


def Describe(text: str) -> FieldOptions:  # noqa: N802 - reads as an annotation
    return FieldOptions(help_text=text)


@dataclass(frozen=True)
class RequiresScope:
    """`Annotated[...]` metadata: the value is shown only to a credential holding `scope` (null otherwise)."""

    scope: str


def redact(shape: type, body, scopes) -> Any:
    """`body` (presented with every scope) as a credential holding `scopes` sees it: each value its shape marks
    `RequiresScope(s)` becomes null without `s`, in nested shapes and lists of shapes too."""
    if not isinstance(body, dict):
        return body
    out = dict(body)
    for name, hint in _scoped_hints(shape):
        if name not in out:
            continue
        scope, nested = hint
        if scope is not None and scope not in scopes:
            out[name] = None
        elif nested is not None and out[name] is not None:
            value = out[name]
            out[name] = (
                [redact(nested, v, scopes) for v in value] if isinstance(value, list) else redact(nested, value, scopes)
            )
    return out


_SCOPED_HINTS: dict[type, list] = {}


def _scoped_hints(shape: type) -> list:
    """(key, (required scope | None, nested shape | None)) for the keys of `shape` that `redact` looks at."""
    try:
        return _SCOPED_HINTS[shape]
    except KeyError:
        pass
    found = []
    for name, hint in typing.get_type_hints(shape, include_extras=True).items():
        scope = None
        if typing.get_origin(hint) is typing.Annotated:
            hint, *extras = typing.get_args(hint)
            scope = next((e.scope for e in extras if isinstance(e, RequiresScope)), None)
        nested = _nested_shape(hint)
        if scope is not None or (nested is not None and _scoped_hints(nested)):
            found.append((name, (scope, nested)))
    _SCOPED_HINTS[shape] = found
    return found


def _nested_shape(hint):
    origin = typing.get_origin(hint)
    if origin is typing.NotRequired or origin is typing.Annotated:
        return _nested_shape(typing.get_args(hint)[0])
    if origin in (types.UnionType, typing.Union):
        members = [m for m in typing.get_args(hint) if m is not type(None)]
        return _nested_shape(members[0]) if len(members) == 1 else None
    if origin is list:
        return _nested_shape(typing.get_args(hint)[0])
    return hint if is_shape(hint) else None


Email = typing.NewType("Email", str)  # a string documented with `format: email`

_SCALARS = {
    Email: serializers.EmailField,
    bool: serializers.BooleanField,
    int: serializers.IntegerField,
    float: serializers.FloatField,
    str: serializers.CharField,
    dt.datetime: serializers.DateTimeField,
    dt.date: serializers.DateField,
    dt.time: serializers.TimeField,
}

_SERIALIZERS: dict[type, type[serializers.Serializer]] = {}


def is_shape(hint) -> bool:
    return isinstance(hint, type) and typing.is_typeddict(hint)


def shape_serializer(shape: type) -> type[serializers.Serializer]:
    """A (documentation) serializer class for a `TypedDict`, built once; its name is the component name."""
    try:
        return _SERIALIZERS[shape]
    except KeyError:
        pass
    hints = typing.get_type_hints(shape, include_extras=True)
    required = shape.__required_keys__
    fields = {name: _field(hint, required=name in required) for name, hint in hints.items()}
    meta = type("Meta", (), {"ref_name": shape.__name__})
    serializer = type(
        f"{shape.__name__}Shape",
        (serializers.Serializer,),
        {**fields, "Meta": meta, "__doc__": shape.__doc__, "__module__": shape.__module__},
    )
    _SERIALIZERS[shape] = serializer
    return serializer


def _field(hint, **options):
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        base, *extras = typing.get_args(hint)
        for extra in extras:
            if isinstance(extra, FieldOptions):
                options.update(extra)
        return _field(base, **options)
    if origin is typing.NotRequired:
        return _field(typing.get_args(hint)[0], **{**options, "required": False})
    if origin in (types.UnionType, typing.Union):
        members = [m for m in typing.get_args(hint) if m is not type(None)]
        if len(members) != 1:
            raise TypeError(f"Only `X | None` unions describe a field, not {hint!r}")
        return _field(members[0], **{**options, "allow_null": True})
    if origin is Literal:
        return serializers.ChoiceField(choices=list(typing.get_args(hint)), **options)
    if isinstance(hint, type) and issubclass(hint, Choices):
        return serializers.ChoiceField(choices=hint.choices, **options)
    if origin is list:
        (item,) = typing.get_args(hint)
        if is_shape(item):
            return shape_serializer(item)(many=True, **options)
        return serializers.ListField(child=_field(item), **options)
    if hint is dict or origin is dict:
        value = typing.get_args(hint)[1] if typing.get_args(hint) else typing.Any
        if value is not typing.Any:
            options["child"] = _field(value)
        return serializers.DictField(**options)
    if is_shape(hint):
        return shape_serializer(hint)(**options)
    if hint is typing.Any:
        return serializers.JSONField(**options)
    try:
        return _SCALARS[hint](**options)
    except KeyError:
        raise TypeError(f"No OpenAPI mapping for {hint!r}") from None
