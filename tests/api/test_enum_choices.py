"""Enums are declared once (`apps/*/choices.py`): the OpenAPI names, the admin's labels and the error messages of
enum filters and fields all come from those declarations, with the values and message order clients rely on."""

import functools

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.module_loading import import_string
from drf_spectacular import hooks, plumbing
from rest_framework.test import APIClient

from tests.bookings.factories import area_booking
from tests.classes.conftest import make_occurrence

pytestmark = pytest.mark.django_db

ENUM_NAMES = settings.SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]


@pytest.fixture
def enum_naming_warnings(monkeypatch):
    """drf-spectacular's enum naming warnings of one schema generation (collisions, unmatched overrides)."""
    messages = []
    monkeypatch.setattr(hooks, "warn", lambda message, *args, **kwargs: messages.append(message))
    monkeypatch.setattr(plumbing, "warn", lambda message, *args, **kwargs: messages.append(message))
    plumbing._load_enum_name_overrides.cache_clear()
    yield messages
    plumbing._load_enum_name_overrides.cache_clear()


def openapi_document():
    response = APIClient().get("/v1/openapi.json")
    assert response.status_code == 200
    return response.json()


@functools.cache
def served_schemas() -> dict:
    """The served document's schemas, fetched once for the tests that only read them (generating it takes 1-1.5 s)."""
    return openapi_document()["components"]["schemas"]


def declared_choices(path):
    declared = import_string(path)
    return declared.choices if hasattr(declared, "choices") else declared


def test_every_enum_of_the_document_is_named_by_its_declaration(enum_naming_warnings):
    schemas = openapi_document()["components"]["schemas"]
    enum_components = {name for name, schema in schemas.items() if "enum" in schema and name != "NullEnum"}
    assert enum_components == set(ENUM_NAMES)
    for name, path in ENUM_NAMES.items():
        choices = declared_choices(path)
        assert schemas[name]["enum"] == [value for value, _label in choices], name
        assert schemas[name]["description"] == "\n".join(f"* `{value}` - {label}" for value, label in choices), name
    assert enum_naming_warnings == []


@pytest.mark.parametrize(
    ("name", "values"),
    [
        ("BookingStatusEnum", ["confirmed", "pending", "checked_in", "cancelled"]),
        ("BookingWriteStatusEnum", ["confirmed", "pending"]),
        ("BookingTypeEnum", ["area", "class", "event"]),
        ("ChannelBookingCreateTypeEnum", ["area", "class"]),
        ("PaymentStatusEnum", ["paid", "unpaid", "no_charge"]),
        ("EntranceMethodEnum", ["direct_payment", "membership", "external_program"]),
        ("WaitlistEntryStatusEnum", ["pending", "notified", "promoted", "removed", "expired"]),
        ("CheckInMethodEnum", ["booking", "membership"]),
        ("ClassStatusEnum", ["active", "cancelled"]),
        ("ClassRecurrenceStatusEnum", ["active", "paused", "cancelled"]),
        ("VisibilityEnum", ["Public", "Member_only", "Private"]),
        ("FrequencyEnum", ["daily", "weekly", "monthly"]),
        ("EndsTypeEnum", ["until", "after", "never"]),
        ("DayOfWeekEnum", ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]),
        ("TimeStatusEnum", ["past", "upcoming"]),
        ("AvailabilityStatusEnum", ["available", "full"]),
        ("ContactStatusEnum", ["active", "archived"]),
        ("RateTypeEnum", ["hourly", "per_class", "per_attendee"]),
    ],
)
def test_enum_values_and_their_order_are_the_documented_ones(name, values):
    assert served_schemas()[name]["enum"] == values


def test_the_admin_offers_readable_labels_for_booking_enums(client, organization):
    booking = area_booking(organization)
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.com", "pw"))
    response = client.get(f"/admin/bookings/booking/{booking.pk}/change/")
    assert response.status_code == 200
    page = response.content.decode()
    assert '<option value="checked_in">Checked in</option>' in page
    assert '<option value="no_charge">No charge</option>' in page


def unknown_value_message(response, name):
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR", body
    return body["details"]["fields"][name]


@pytest.mark.parametrize(
    ("path", "name", "allowed"),
    [
        ("/v1/platform/bookings", "type", "area, class, event"),
        ("/v1/platform/bookings", "status", "pending, confirmed, checked_in, cancelled"),
        ("/v1/platform/contacts", "status", "active, archived"),
        ("/v1/platform/classes", "status", "active, cancelled"),
        ("/v1/platform/classes", "visibility", "Public, Member_only, Private"),
        ("/v1/platform/classes", "timeStatus", "past, upcoming"),
        ("/v1/platform/checkins", "method", "booking, membership"),
        ("/v1/platform/classes/{id}/bookings", "status", "confirmed, pending, checked_in, cancelled"),
        ("/v1/platform/classes/{id}/waitlist", "status", "pending, notified, promoted, removed, expired"),
    ],
)
def test_an_unknown_enum_filter_value_lists_the_allowed_ones_in_a_fixed_order(api, organization, path, name, allowed):
    occurrence = make_occurrence(organization)
    known = allowed.split(", ")[0]
    response = api.get(path.format(id=occurrence.pk), {name: f"{known},bogus"})
    assert unknown_value_message(response, name) == [f"Unknown value(s): bogus. Allowed: {allowed}."]


@pytest.mark.parametrize(
    ("recurrence", "field", "message"),
    [
        ({"frequency": "hourly"}, "recurrence.frequency", "Must be one of: daily, weekly, monthly."),
        (
            {"frequency": "weekly", "daysOfWeek": ["funday"]},
            "recurrence.daysOfWeek",
            "Each day must be one of: sunday, monday, tuesday, wednesday, thursday, friday, saturday.",
        ),
        (
            {"frequency": "daily", "ends": {"type": "sometime"}},
            "recurrence.ends.type",
            "Must be one of: until, after, never.",
        ),
    ],
)
def test_an_unknown_recurrence_value_lists_the_allowed_ones(api, club, recurrence, field, message):
    body = {
        "name": "Yoga",
        "clubId": club.pk,
        "startTime": "2031-03-03T17:00:00Z",
        "endTime": "2031-03-03T18:00:00Z",
        "recurrence": recurrence,
    }
    response = api.post("/v1/platform/classes", body, format="json")
    assert unknown_value_message(response, field) == [message]


def test_an_unknown_edit_scope_is_refused(api, organization):
    occurrence = make_occurrence(organization)
    response = api.patch(f"/v1/platform/classes/{occurrence.pk}?scope=later", {"name": "Pilates"}, format="json")
    assert unknown_value_message(response, "scope") == ["Must be `this` or `all_future`."]
