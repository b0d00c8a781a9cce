"""Serializer fields shared by every app's input validation.

Typed input (decision foundation-api #21): a body value must have its JSON type. `"5"` is not an integer or a
number, `"yes"` is not a boolean, `5` is not a string; DRF's stock fields coerce such values silently, these answer
400 VALIDATION_ERROR on the field. Integers are capped at 2^31-1 (PostgreSQL `integer`) unless a field narrows it.
"""

import datetime as dt
import json
import re

import orjson
from django.utils import timezone
from rest_framework import serializers

from .filters import in_range


# No docstring: drf-spectacular would describe every body without its own with it (inspect.getdoc inherits).
class InputSerializer(serializers.Serializer):
    # A request body whose camelCase fields fill the model's snake_case names: `signupFee` is `signup_fee`, and an
    # object id field (`clubId`, a related field) is the object itself (`club`), unless the field names its `source`.
    # The fields named (by source) in `blank_is_null` store an empty string as null.

    blank_is_null: tuple[str, ...] = ()

    def to_internal_value(self, data):
        attrs = super().to_internal_value(data)
        for name in self.blank_is_null:
            if attrs.get(name) == "":
                attrs[name] = None
        return attrs

    def get_fields(self):
        fields = super().get_fields()
        for name, field in fields.items():
            if field.source is None:
                source = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
                if isinstance(field, serializers.RelatedField) and source.endswith("_id"):
                    source = source.removesuffix("_id")
                if source != name:
                    field.source = source
        return fields


class StrictDateTimeField(serializers.DateTimeField):
    """An ISO 8601 date-time that must carry an explicit offset or `Z`; naive values are rejected."""

    default_error_messages = {
        "naive": "Date-times must carry an explicit offset or `Z`.",
        "range": "Must be between 1900-01-01 and 9999-12-01.",
    }

    def to_internal_value(self, value):
        parsed = super().to_internal_value(value)
        if isinstance(value, str) and timezone.is_naive(parsed):
            self.fail("naive")
        if isinstance(value, str) and not _has_offset(value):
            self.fail("naive")
        return parsed

    def run_validators(self, value):
        # After `to_internal_value`, so that a subclass's own (narrower) bound reports its message first.
        if isinstance(value, dt.datetime) and timezone.is_aware(value) and not in_range(value):
            self.fail("range")
        super().run_validators(value)

    def enforce_timezone(self, value):
        # Keep naive values naive so to_internal_value can reject them.
        if timezone.is_naive(value):
            return value
        return super().enforce_timezone(value)


def _has_offset(value: str) -> bool:
    tail = value.strip()[10:]
    return tail.endswith(("Z", "z")) or "+" in tail or "-" in tail


class OrganizationObjectField(serializers.PrimaryKeyRelatedField):
    """An id in a body that must belong to the caller's organization; another organization's id is a 400.

    Usage: `clubId = OrganizationObjectField(model=Club)` (in an `InputSerializer`, whose `clubId` fills `club`). The
    queryset is the model's rows of
    `request.organization` (from the serializer context). With `active_only`, a row whose `is_active` is false is a
    400 too.
    """

    default_error_messages = {
        "does_not_exist": "No object with id {pk_value} exists in this organization.",
        "incorrect_type": "Must be an integer id.",
        "inactive": "The {noun} is inactive.",
    }

    def __init__(self, model=None, active_only=False, **kwargs):
        self.model = model
        self.active_only = active_only
        kwargs.setdefault("queryset", model.objects.none())
        super().__init__(**kwargs)

    def get_queryset(self):
        request = self.context["request"]
        return self.model.objects.filter(organization=request.organization)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("incorrect_type", data_type=type(data).__name__)
        row = super().to_internal_value(data)
        if self.active_only and not row.is_active:
            self.fail("inactive", noun=self.model._meta.verbose_name)
        return row


MAX_INT = 2**31 - 1  # PostgreSQL integer columns


class StrictBooleanField(serializers.BooleanField):
    """`true` or `false` only (no `"true"`, `"yes"`, `1`)."""

    default_error_messages = {"invalid": "Must be `true` or `false`."}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer (no `"5"`, `5.0` or `true`), at most 2^31-1 unless `max_value` says otherwise."""

    default_error_messages = {"invalid": "Must be an integer."}

    def __init__(self, **kwargs):
        kwargs.setdefault("max_value", MAX_INT)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class OrganizationIdsField(serializers.ListField):
    """A list of ids of `model` rows that must all belong to the caller's organization (one query); duplicates
    are dropped, the order kept. Another organization's or an unknown id is a 400 naming it. At most `max_length`
    ids (100 unless told)."""

    def __init__(self, model, noun, **kwargs):
        self.model = model
        self.noun = noun
        kwargs.setdefault("max_length", 100)
        super().__init__(child=StrictIntegerField(min_value=1), **kwargs)

    def to_internal_value(self, data):
        ids = list(dict.fromkeys(super().to_internal_value(data)))
        organization = self.context["request"].organization
        found = set(self.model.objects.filter(organization=organization, id__in=ids).values_list("id", flat=True))
        missing = [i for i in ids if i not in found]
        if missing:
            raise serializers.ValidationError(
                f"No {self.noun} with id {', '.join(map(str, missing))} exists in this organization."
            )
        return ids


class JsonNumberMixin:
    """A JSON number (integer or float; no `"12.50"` or `true`), then the field's own checks."""

    default_error_messages = {"invalid": "Must be a number."}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictDecimalField(JsonNumberMixin, serializers.DecimalField):
    """A JSON number, then DRF's digit and range checks."""


class StrictFloatField(JsonNumberMixin, serializers.FloatField):
    """A JSON number (no `"1.5"` or `true`)."""


class StrictCharMixin:
    """A JSON string (no `5`, `true`, list or object)."""

    default_error_messages = {"not_a_string": "Must be a string."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_a_string")
        return super().to_internal_value(data)


class StrictCharField(StrictCharMixin, serializers.CharField):
    pass


class StrictRegexField(StrictCharMixin, serializers.RegexField):
    pass


class StrictSlugField(StrictCharMixin, serializers.SlugField):
    pass


class StrictEmailField(StrictCharMixin, serializers.EmailField):
    pass


class StrictURLField(StrictCharMixin, serializers.URLField):
    pass


# The calendar the service schedules in: classes (and series occurrences) live between these instants.
EARLIEST = dt.datetime(1900, 1, 1, tzinfo=dt.UTC)
LATEST = dt.datetime(2199, 12, 31, 23, 59, 59, tzinfo=dt.UTC)


class BoundedDateTimeField(StrictDateTimeField):
    """A date-time string with an explicit offset, between 1900-01-01 and 2199-12-31 (UTC)."""

    default_error_messages = {
        "not_a_string": "Must be an ISO 8601 date-time string.",
        "range": "Must be between 1900-01-01 and 2199-12-31.",
    }

    def to_internal_value(self, value):
        if not isinstance(value, str):
            self.fail("not_a_string")
        parsed = super().to_internal_value(value)
        if not EARLIEST <= parsed <= LATEST:
            self.fail("range")
        return parsed


class BoundedDateField(serializers.DateField):
    """A `YYYY-MM-DD` date on the calendar the service schedules in, 1900-01-01..2199-12-31 (like
    `BoundedDateTimeField`): beyond it, date arithmetic (a period's end, the day after) would overflow."""

    default_error_messages = {"range": "Must be between 1900-01-01 and 2199-12-31."}

    def to_internal_value(self, value):
        parsed = super().to_internal_value(value)
        if not EARLIEST.date() <= parsed <= LATEST.date():
            self.fail("range")
        return parsed


class BoundedJSONObjectField(serializers.DictField):
    """A free-form JSON object bounded in size (bytes of its compact JSON) and nesting depth.

    The body cap bounds a request; this bounds what one stored value may hold, so a row cannot grow to the size of a
    whole body and a reader never walks a deeply nested document. `{"a": 1}` is depth 1, `{"a": {"b": [1]}}` 3.
    """

    default_error_messages = {
        "too_large": "Must be at most {max_bytes} bytes as JSON.",
        "too_deep": "Must nest at most {max_depth} levels deep.",
    }

    def __init__(self, *, max_bytes, max_depth, **kwargs):
        self.max_bytes = max_bytes
        self.max_depth = max_depth
        limits = f"At most {max_bytes} bytes as JSON, nested at most {max_depth} levels deep."
        kwargs["help_text"] = f"{kwargs['help_text']} {limits}" if kwargs.get("help_text") else limits
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if json_depth(value, self.max_depth) > self.max_depth:
            self.fail("too_deep", max_depth=self.max_depth)
        if json_size(value) > self.max_bytes:
            self.fail("too_large", max_bytes=self.max_bytes)
        return value


def json_size(value) -> int:
    """Bytes of `value` as compact JSON."""
    try:
        return len(orjson.dumps(value))
    except TypeError:  # orjson refuses integers beyond 64 bits
        return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def json_depth(value, limit: int) -> int:
    """How many containers deep `value` nests, counted without recursion and at most to `limit + 1`."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest
