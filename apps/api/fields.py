"""Serializer fields shared by every app's input validation."""

import datetime as dt

from django.utils import timezone
from rest_framework import serializers

from .filters import in_range


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

    Usage: `clubId = OrganizationObjectField(model=Club, source="club")`. The queryset is the model's rows of
    `request.organization` (from the serializer context).
    """

    default_error_messages = {
        "does_not_exist": "No object with id {pk_value} exists in this organization.",
        "incorrect_type": "Must be an integer id.",
    }

    def __init__(self, model=None, **kwargs):
        self.model = model
        kwargs.setdefault("queryset", model.objects.none())
        super().__init__(**kwargs)

    def get_queryset(self):
        request = self.context["request"]
        return self.model.objects.filter(organization=request.organization)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("incorrect_type", data_type=type(data).__name__)
        return super().to_internal_value(data)
