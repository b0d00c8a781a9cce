"""Input fields that take only their JSON type: `"5"` is not an integer, `"yes"` is not a boolean, `5` is not a
string. DRF's stock fields coerce such values silently; a typed API answers them with 400 VALIDATION_ERROR."""

import datetime as dt

from rest_framework import serializers

from apps.api.fields import StrictDateTimeField

MAX_INT = 2**31 - 1  # PostgreSQL integer columns


class StrictBooleanField(serializers.BooleanField):
    default_error_messages = {"invalid": "Must be `true` or `false`."}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictIntegerField(serializers.IntegerField):
    default_error_messages = {"invalid": "Must be an integer."}

    def __init__(self, **kwargs):
        kwargs.setdefault("max_value", MAX_INT)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictDecimalField(serializers.DecimalField):
    default_error_messages = {"invalid": "Must be a number."}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharMixin:
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


# The calendar the service schedules in: classes (and series occurrences) live between these instants.
EARLIEST = dt.datetime(1900, 1, 1, tzinfo=dt.UTC)
LATEST = dt.datetime(2199, 12, 31, 23, 59, 59, tzinfo=dt.UTC)


class BoundedDateTimeField(StrictDateTimeField):
    """A date-time with an explicit offset, between 1900-01-01 and 2199-12-31 (UTC)."""

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
