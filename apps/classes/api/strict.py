"""Input fields that take only their JSON type: `"5"` is not an integer, `"yes"` is not a boolean, `5` is not a
string. DRF's stock fields coerce such values silently; a typed API answers them with 400 VALIDATION_ERROR."""

from rest_framework import serializers

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
