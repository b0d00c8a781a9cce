"""FilterSets of the Platform API: every list's query parameters declared once, validated and documented.

`PlatformFilterSet` is a django-filter `FilterSet` whose filters parse their value the way the API always has
(`apps.api.filters`: the same messages, a bad value is a 400 `VALIDATION_ERROR` naming the parameter), carry their
OpenAPI schema and description (drf-spectacular's django-filter extension documents them), and run in the order
declared. Two parts of a list are not plain filters and are declared on the FilterSet as attributes:

- `date_window`: `startDate`/`endDate` on one date-time column, bare dates read on the organization's clock or,
  with `club_clock`, on each row's own club clock; or, with `days`, on a date column. Applied after the other
  filters.
- `ordering`: API field names to model fields or expressions, with a default; applied last, ties broken by id.
"""

import copy
from dataclasses import dataclass

import django_filters
from django import forms
from django.db.models import Q
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.drainage import set_override
from drf_spectacular.utils import OpenApiParameter

from .exceptions import ValidationFailed
from .filters import (
    apply_club_clock_window,
    apply_day_window,
    apply_ordering,
    apply_window,
    bool_value,
    date_window,
    enum_list_value,
)
from .filters import int_value as parse_int_value


class _ParsedField(forms.Field):
    """A form field whose value is parsed by `parse(raw)`; a `ValidationFailed` becomes the field's error."""

    def __init__(self, *, parse, **kwargs):
        self.parse = parse
        super().__init__(required=False, **kwargs)

    def __deepcopy__(self, memo):
        # Forms copy their fields per instance; this one keeps no per-form state (no widget rendering here).
        return copy.copy(self)

    def to_python(self, value):
        try:
            return self.parse(value)
        except ValidationFailed as exc:
            messages = [m for ms in exc.details["fields"].values() for m in ms]
            raise forms.ValidationError(messages)


class QueryFilter(django_filters.Filter):
    """A filter on one query parameter: `parse(name, raw)` validates, `schema` documents, `apply` filters."""

    schema: dict = {"type": "string"}

    def __init__(self, field_name=None, *, help_text=None, method=None, lookup_expr="exact", **kwargs):
        super().__init__(field_name=field_name, method=method, lookup_expr=lookup_expr, **kwargs)
        documented = dict(self.schema)
        if help_text:
            documented["description"] = help_text
        set_override(self, "field", documented)

    def parse(self, raw):
        return None if raw in (None, "") else raw

    def __deepcopy__(self, memo):
        """FilterSet copies its declared filters for every request; these hold nothing a request changes but
        `parent` and `model`, which the FilterSet sets on the copy, so a shallow copy does (a deep copy of the
        schema and option dicts was most of a list's filtering time)."""
        clone = copy.copy(self)
        if self.method is not None:
            clone.method = self.method  # binds a FilterMethod to the clone, not to the declared filter
        return clone

    @property
    def field(self):
        if not hasattr(self, "_field"):
            self._field = _ParsedField(parse=lambda raw: self.parse(raw), label=self.field_name)
        return self._field

    def filter(self, qs, value):
        if value is None or value == [] or value == "":
            return qs
        return self.apply(qs, value)

    def apply(self, qs, value):
        return qs.filter(**{f"{self.field_name}__{self.lookup_expr}": value})


class IntegerFilter(QueryFilter):
    schema = {"type": "integer"}

    def parse(self, raw):
        return parse_int_value(self.parameter_name, raw)


class BooleanFilter(QueryFilter):
    schema = {"type": "boolean"}

    def parse(self, raw):
        return bool_value(self.parameter_name, raw)


class ChoiceListFilter(QueryFilter):
    """`status=a,b`: each value one of `choices` (in that order in the message), rows matching any."""

    def __init__(self, field_name=None, *, choices, lookup_expr="in", help_text=None, default=None, **kwargs):
        self.allowed = tuple(choices.values if hasattr(choices, "values") else choices)
        self.default = list(default) if default else None
        if help_text is None:
            help_text = "Comma list of " + ", ".join(f"`{value}`" for value in self.allowed) + "."
            if default:
                help_text = help_text[:-1] + "; default " + ", ".join(f"`{value}`" for value in default) + "."
        super().__init__(field_name, lookup_expr=lookup_expr, help_text=help_text, **kwargs)

    def parse(self, raw):
        return enum_list_value(self.parameter_name, raw, self.allowed) or self.default


class TextFilter(QueryFilter):
    """A string compared by `lookup_expr` (surrounding blanks ignored; blank is no filter)."""

    def parse(self, raw):
        return (raw or "").strip() or None


class SearchFilter(TextFilter):
    """`q`: a case-insensitive substring of any of `fields` (blank is no filter)."""

    def __init__(self, *fields, **kwargs):
        self.search_fields = fields
        super().__init__(fields[0], **kwargs)

    def apply(self, qs, value):
        condition = Q()
        for name in self.search_fields:
            condition |= Q(**{f"{name}__icontains": value})
        return qs.filter(condition)


class ContainsFilter(QueryFilter):
    """Rows whose list column (`sports`) holds the value."""

    def apply(self, qs, value):
        return qs.filter(**{f"{self.field_name}__contains": [value]})


class NoOpFilter(QueryFilter):
    """A documented parameter the FilterSet (or the view) reads as a whole, e.g. the date window's bounds."""

    def filter(self, qs, value):
        return qs


@dataclass(frozen=True)
class DateWindow:
    """`startDate`/`endDate` (both inclusive) on `field`; bare dates on each row's club clock when `club_clock`.
    With `days`, `field` is a date column kept on the organization's clock: a date-time bound counts as its day
    there."""

    field: str
    club_clock: bool = False
    days: bool = False
    club_timezone: str = "club__timezone"
    start_help: str = "Date or date-time with an offset; inclusive."
    end_help: str = "Date or date-time with an offset; inclusive."

    def apply(self, queryset, params, organization):
        if self.days:
            return apply_day_window(queryset, params, organization.timezone or "UTC", self.field)
        if self.club_clock:
            return apply_club_clock_window(queryset, params, organization, self.field, self.club_timezone)
        return apply_window(queryset, self.field, date_window(params))


@dataclass(frozen=True)
class Ordering:
    """`ordering=name,-other`: API names to model fields or expressions; `default` when none is sent."""

    fields: dict
    default: str
    help_text: str | None = None

    def describe(self) -> str:
        if self.help_text:
            return self.help_text
        names = ", ".join(f"`{name}`" for name in self.fields if name != "id")
        return f"{names}; `-` for descending (default `{self.default}`)."

    def apply(self, queryset, params):
        return apply_ordering(queryset, params, self.fields, self.default)


class PlatformFilterSet(django_filters.FilterSet):
    """Base of every list's FilterSet (see the module docstring)."""

    date_window: DateWindow | None = None
    ordering: Ordering | None = None
    order_by: tuple[str, ...] = ()  # the fixed order of a list without an `ordering` parameter

    @classmethod
    def get_filters(cls):
        filters = super().get_filters()
        for name, declared in filters.items():
            declared.parameter_name = name
        return filters

    def get_form_class(self):
        """The validating form, built once per FilterSet class (django-filter builds a new form class per request)."""
        cls = type(self)
        form_class = cls.__dict__.get("_form_class")
        if form_class is None:
            # From the declared filters (not this request's copies), so the cached form holds no request.
            fields = {name: declared.field for name, declared in cls.base_filters.items()}
            form_class = type(f"{cls.__name__}Form", (self._meta.form,), fields)
            cls._form_class = form_class
        return form_class

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        if self.date_window is not None:
            queryset = self.date_window.apply(queryset, self.data, self.request.organization)
        if self.ordering is not None:
            queryset = self.ordering.apply(queryset, self.data)
        elif self.order_by:
            queryset = queryset.order_by(*self.order_by)
        return queryset

    def filtered(self):
        """The filtered, ordered queryset, or a 400 naming every bad parameter."""
        if not self.is_valid():
            raise ValidationFailed({name: list(messages) for name, messages in self.errors.items()})
        return self.qs

    @classmethod
    def extra_parameters(cls) -> list[OpenApiParameter]:
        """The window and ordering parameters, documented like the filters."""
        parameters = []
        if cls.date_window is not None:
            parameters += [
                OpenApiParameter("startDate", str, description=cls.date_window.start_help),
                OpenApiParameter("endDate", str, description=cls.date_window.end_help),
            ]
        if cls.ordering is not None:
            parameters.append(OpenApiParameter("ordering", str, description=cls.ordering.describe()))
        return parameters


class PlatformFilterBackend(DjangoFilterBackend):
    """Runs the view's `filterset_class` (a `PlatformFilterSet`); bad parameters are a 400 in the envelope."""

    def get_filterset_kwargs(self, request, queryset, view):
        return {"data": request.query_params, "queryset": queryset, "request": request}

    def filter_queryset(self, request, queryset, view):
        filterset = self.get_filterset(request, queryset, view)
        if filterset is None:
            return queryset
        return filterset.filtered()
