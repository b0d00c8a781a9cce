"""The OpenAPI document describes what the API really returns, checked without a network server.

Real responses from the test client are validated against the response schema the document declares for that
operation and status, with OAS 3.0 semantics (`nullable`). The check is strict both ways: an object schema with
named properties is closed (`additionalProperties: false` unless the document says otherwise), so a field the
code returns but the document does not name fails, and so does a documented required field that is missing.

Completeness: the session-scoped `samples` fixture records every operation whose real response was validated, and
when the session ends it fails if a documented Platform operation has none. That holds whatever order the tests
run in; it is checked only when every test of this module ran and no test failed (a `-k` subset, node ids or `-x`
prove nothing about the operations they left out, and a failure is already reported). pytest shows a missing
sample as an error at the teardown of the session's last test, whichever test that is.
"""

import copy
import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from openapi_schema_validator import OAS30Validator
from rest_framework.test import APIClient

from apps.billing.models import RevenueAccount
from apps.messaging.models import Message
from apps.webhooks.models import WebhookSubscription
from apps.website.models import Website
from tests.class_bookings.factories import make_class_booking
from tests.factories import make_class, make_contact, make_membership
from tests.invoices.factories import invoice
from tests.mcp.tool_arguments import assert_tool_accepts, assert_tool_output_fits
from tests.webhooks.factories import PUBLIC_URL, make_delivery
from tests.webhooks.factories import make_event as make_webhook_event

PLATFORM = "/v1/platform"
MADRID = ZoneInfo("Europe/Madrid")


@pytest.fixture(scope="session")
def document(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        response = APIClient().get("/v1/openapi.json")
    assert response.status_code == 200
    return response.json()


def platform_operation_ids(document):
    return {
        operation["operationId"]
        for path, item in document["paths"].items()
        if path.startswith(PLATFORM)
        for operation in item.values()
        if isinstance(operation, dict) and "operationId" in operation
    }


class Samples:
    """What this session validated: operationIds with a conforming real response, and the tests of this module
    that ran."""

    def __init__(self):
        self.operations = set()
        self.tests_run = set()

    def unsampled(self, document):
        return sorted(platform_operation_ids(document) - self.operations)


@pytest.fixture(scope="session")
def samples(request, document):
    samples = Samples()
    yield samples
    session = request.session
    if session.testsfailed or session.shouldfail or session.shouldstop or not MODULE_TESTS <= samples.tests_run:
        return
    missing = samples.unsampled(document)
    if missing:
        pytest.fail(f"{__name__}: documented operations without a conformance sample: {missing}", pytrace=False)


@pytest.fixture(autouse=True)
def _recorded_as_run(request, samples):
    samples.tests_run.add(request.node.originalname)


@pytest.fixture(autouse=True)
def _rate_limit_clock_stands_still(monkeypatch):
    """Many requests per test: the fixed rate-limit window must not roll over (or run out) mid-test."""
    from types import SimpleNamespace

    from apps.api import ratelimit

    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: 1_000_000_020))
    monkeypatch.setattr(ratelimit, "bucket_limit", lambda bucket: 10_000)


def _closed(schema, components, depth=0):
    """The schema with every `$ref` inlined and every object with named properties closed to other keys."""
    assert depth < 40, "unexpectedly deep schema"
    if isinstance(schema, list):
        return [_closed(item, components, depth + 1) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        return _closed(components[schema["$ref"].rsplit("/", 1)[-1]], components, depth + 1)
    out = {key: _closed(value, components, depth + 1) for key, value in schema.items()}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


class Conformance:
    def __init__(self, document, samples):
        self.document = document
        self.components = document["components"]["schemas"]
        self.samples = samples

    def response_schema(self, method, template, status):
        item = self.document["paths"].get(template)
        assert item is not None, f"{template} is not in the document"
        operation = item.get(method)
        assert operation is not None, f"{method.upper()} {template} is not in the document"
        responses = operation["responses"]
        assert str(status) in responses, f"{method.upper()} {template}: status {status} is not documented"
        return responses[str(status)]

    def check(self, client, method, template, status, *, data=None, params=None, query="", **path):
        url = template.format(**path) + query
        if params:
            response = getattr(client, method)(url, params)
        elif data is not None:
            response = getattr(client, method)(url, data, format="json")
        else:
            response = getattr(client, method)(url)
        assert response.status_code == status, (method, url, response.status_code, response.content[:500])
        documented = self.response_schema(method, template, status)
        content = documented.get("content")
        operation_id = self.document["paths"][template][method]["operationId"]
        if 200 <= status < 300 and template.startswith(PLATFORM):
            # The same request, as arguments of the operation's MCP tool, satisfies the tool's inputSchema.
            assert_tool_accepts(operation_id, path, params, query, data)
        if not content:
            if 200 <= status < 300 and template.startswith(PLATFORM):
                assert_tool_output_fits(operation_id, None)
            assert not response.content, f"{method.upper()} {template} {status}: body sent but none documented"
            self.samples.operations.add(operation_id)
            return None
        assert response["Content-Type"].startswith("application/json")
        schema = _closed(copy.deepcopy(content["application/json"]["schema"]), self.components)
        body = response.json()
        if 200 <= status < 300 and template.startswith(PLATFORM):
            assert_tool_output_fits(operation_id, body)  # the tool's result validates as its structuredContent
        errors = sorted(OAS30Validator(schema).iter_errors(body), key=lambda e: list(e.absolute_path))
        assert not errors, f"{method.upper()} {template} {status}: " + "; ".join(
            f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message[:300]}" for e in errors[:10]
        )
        if status == 201:
            assert "Location" in documented.get("headers", {}), f"{template}: 201 without a documented Location"
            assert response.has_header("Location")
        self.samples.operations.add(operation_id)
        return body


@pytest.fixture
def conformance(document, samples):
    return Conformance(document, samples)


def _slot(days=7, hour=10, minutes=60):
    start = (dt.datetime.now(MADRID) + dt.timedelta(days=days)).replace(hour=hour, minute=0, second=0, microsecond=0)
    return start, start + dt.timedelta(minutes=minutes)


@pytest.fixture
def c(conformance):
    return conformance.check


# --- identity, organization, clubs ------------------------------------------------------------------------------


def test_me_organization_clubs(c, api, club):
    c(api, "get", f"{PLATFORM}/me", 200)
    c(api, "get", f"{PLATFORM}/organization", 200)
    c(api, "patch", f"{PLATFORM}/organization", 200, data={"offeredLanguages": ["en", "es"]})
    page = c(api, "get", f"{PLATFORM}/clubs", 200)
    assert page["total"] == 1
    c(api, "get", f"{PLATFORM}/clubs", 200, params={"locale": "es", "limit": 1})
    c(api, "get", PLATFORM + "/clubs/{slug}", 200, slug=club.slug)


# --- areas, area types, blocks, availability ---------------------------------------------------------------------


def test_areas_types_blocks_availability(c, api, club, area):
    created = c(api, "post", f"{PLATFORM}/area-types", 201, data={"name": "Tennis court", "maxPlayers": 4})
    c(api, "post", f"{PLATFORM}/area-types", 201, data={"name": "Open space"})
    c(api, "get", f"{PLATFORM}/area-types", 200)
    c(api, "get", PLATFORM + "/area-types/{id}", 200, id=created["id"])
    c(api, "patch", PLATFORM + "/area-types/{id}", 200, id=created["id"], data={"maxPlayers": None})

    bare = c(api, "post", f"{PLATFORM}/areas", 201, data={"clubId": club.id, "name": "Bare court"})
    assert bare["areaType"] is None and bare["hourlyRate"] is None
    c(api, "post", f"{PLATFORM}/areas", 201, data={"clubId": club.id, "name": "Court 9", "areaTypeId": created["id"]})
    c(api, "get", f"{PLATFORM}/areas", 200)
    c(api, "get", PLATFORM + "/areas/{id}", 200, id=area.id)
    c(api, "patch", PLATFORM + "/areas/{id}", 200, id=bare["id"], data={"hourlyRate": 18.5, "isIndoor": True})

    start, end = _slot(days=5)
    block = c(
        api,
        "post",
        f"{PLATFORM}/area-blocks",
        201,
        data={"areaId": area.id, "startTime": start.isoformat(), "endTime": end.isoformat()},
    )
    assert block["reason"] is None
    c(api, "get", f"{PLATFORM}/area-blocks", 200)
    c(api, "get", PLATFORM + "/area-blocks/{id}", 200, id=block["id"])
    c(
        api,
        "get",
        f"{PLATFORM}/availability",
        200,
        params={"clubId": club.id, "startDate": start.date().isoformat()},
    )
    c(api, "delete", PLATFORM + "/area-blocks/{id}", 204, id=block["id"])


# --- classes, class types, progression tracks --------------------------------------------------------------------


@pytest.fixture
def class_type(api, conformance):
    return conformance.check(
        api, "post", f"{PLATFORM}/class-types", 201, data={"name": "Yoga", "color": "#12abEF", "maxPartySize": 2}
    )


def test_class_types(c, api, class_type):
    bare = c(api, "post", f"{PLATFORM}/class-types", 201, data={"name": "Pilates"})
    assert bare["maxPartySize"] is None
    c(api, "get", f"{PLATFORM}/class-types", 200, params={"locale": "es"})
    c(api, "get", PLATFORM + "/class-types/{id}", 200, id=class_type["id"])
    c(api, "patch", PLATFORM + "/class-types/{id}", 200, id=class_type["id"], data={"description": "Stretch"})
    c(api, "delete", PLATFORM + "/class-types/{id}", 204, id=bare["id"])


def test_progression_tracks(c, api, organization, class_type):
    from apps.classes.models import ProgressionLevel, ProgressionTrack

    track = ProgressionTrack.objects.create(organization=organization, name="Beginner to pro", slug="b2p")
    track.class_types.add(class_type["id"])
    ProgressionLevel.objects.create(track=track, name="Beginner", position=1)
    c(api, "get", f"{PLATFORM}/progression-tracks", 200)
    c(api, "get", f"{PLATFORM}/progression-tracks", 200, params={"classTypeId": class_type["id"], "locale": "es"})
    c(api, "get", PLATFORM + "/progression-tracks/{id}", 200, id=track.id)


def test_classes_create_read_update_cancel_delete(c, api, club, area, class_type):
    start, end = _slot(days=3, hour=18)
    one_off = c(
        api,
        "post",
        f"{PLATFORM}/classes",
        201,
        data={"clubId": club.id, "name": "Spin", "startTime": start.isoformat(), "endTime": end.isoformat()},
    )
    assert one_off["recurrence"] is None and "series" not in one_off
    series = c(
        api,
        "post",
        f"{PLATFORM}/classes",
        201,
        data={
            "clubId": club.id,
            "areaId": area.id,
            "classTypeId": class_type["id"],
            "name": "Morning yoga",
            "startTime": start.isoformat(),
            "endTime": end.isoformat(),
            "priceBeforeTax": 10,
            "maxCapacity": 8,
            "color": "#00ff00",
            "recurrence": {
                "frequency": "weekly",
                "daysOfWeek": ["monday", "wednesday"],
                "ends": {"type": "after", "occurrences": 4},
            },
        },
    )
    assert series["series"]["occurrencesCreated"] == 4 and series["recurrence"] is not None
    c(api, "get", f"{PLATFORM}/classes", 200)
    c(api, "get", f"{PLATFORM}/classes", 200, params={"locale": "es", "status": "active", "ordering": "-startTime"})
    c(api, "get", PLATFORM + "/classes/{id}", 200, id=series["id"])
    c(api, "patch", PLATFORM + "/classes/{id}", 200, id=one_off["id"], data={"name": "Spin 45"})
    c(api, "post", PLATFORM + "/classes/{id}/cancel", 200, id=one_off["id"], data={"reason": "Instructor ill"})
    error = c(api, "post", PLATFORM + "/classes/{id}/cancel", 409, id=one_off["id"], data={})
    assert error["code"] == "INVALID_STATE_TRANSITION"
    c(api, "delete", PLATFORM + "/classes/{id}", 204, id=one_off["id"])


def test_class_series_end_move(conformance, api, club):
    start, end = _slot(days=2, hour=9)
    created = conformance.check(
        api,
        "post",
        f"{PLATFORM}/classes",
        201,
        data={
            "clubId": club.id,
            "name": "Daily stretch",
            "startTime": start.isoformat(),
            "endTime": end.isoformat(),
            "recurrence": {"frequency": "daily", "ends": {"type": "after", "occurrences": 5}},
        },
    )
    moved = conformance.check(
        api,
        "patch",
        PLATFORM + "/classes/{id}",
        200,
        query="?scope=all_future",
        id=created["id"],
        data={"recurrence": {"ends": {"type": "after", "occurrences": 3}}},
    )
    assert moved["series"]["occurrencesRemoved"] == 2


# --- class roster, waitlist, check-ins ---------------------------------------------------------------------------


def test_roster_waitlist_checkins(c, api, organization, club, contact):
    occurrence = make_class(organization, club, max_capacity=1, allow_waitlist=True)
    booked = c(api, "post", PLATFORM + "/classes/{id}/bookings", 201, id=occurrence.id, data={"contactId": contact.id})
    c(api, "get", PLATFORM + "/classes/{id}/bookings", 200, id=occurrence.id)
    c(api, "get", PLATFORM + "/classes/{id}/bookings", 200, id=occurrence.id, params={"checkedIn": "false"})
    second = make_contact(organization)
    full = c(api, "post", PLATFORM + "/classes/{id}/bookings", 409, id=occurrence.id, data={"contactId": second.id})
    assert full["code"] == "CLASS_FULL"
    entry = c(api, "post", PLATFORM + "/classes/{id}/waitlist", 201, id=occurrence.id, data={"contactId": second.id})
    third = make_contact(organization)
    removable = c(api, "post", PLATFORM + "/classes/{id}/waitlist", 201, id=occurrence.id, data={"contactId": third.id})
    c(api, "get", PLATFORM + "/classes/{id}/waitlist", 200, id=occurrence.id)
    c(api, "delete", PLATFORM + "/classes/{id}/waitlist/{entryId}", 204, id=occurrence.id, entryId=removable["id"])

    checkin = c(api, "post", f"{PLATFORM}/checkins", 201, data={"bookingId": booked["bookingId"]})
    again = c(api, "post", f"{PLATFORM}/checkins", 409, data={"bookingId": booked["bookingId"]})
    assert again["code"] == "ALREADY_CHECKED_IN"
    membership = make_membership(organization, second)
    c(api, "post", f"{PLATFORM}/checkins", 201, data={"membershipId": membership.id, "clubId": club.id})
    c(api, "get", f"{PLATFORM}/checkins", 200)
    c(api, "get", PLATFORM + "/checkins/{id}", 200, id=checkin["id"])

    # Free the seat, then promote the waitlist entry.
    c(api, "post", PLATFORM + "/bookings/{id}/cancel", 409, id=booked["bookingId"], data={})
    other = make_class(organization, club, max_capacity=1, allow_waitlist=True)
    seat = make_class_booking(other)
    waiting = c(api, "post", PLATFORM + "/classes/{id}/waitlist", 201, id=other.id, data={"contactId": second.id})
    c(api, "post", PLATFORM + "/bookings/{id}/cancel", 200, id=seat.id, data={"reason": "Ill"})
    c(
        api,
        "post",
        PLATFORM + "/classes/{id}/waitlist/{entryId}/promote",
        201,
        id=other.id,
        entryId=waiting["id"],
        data={},
    )
    assert entry["status"] == "pending"


# --- bookings, players, channel ----------------------------------------------------------------------------------


def test_area_bookings_and_players(c, api, organization, area, contact):
    start, end = _slot(days=4, hour=11, minutes=90)
    booking = c(
        api,
        "post",
        f"{PLATFORM}/bookings",
        201,
        data={
            "areaId": area.id,
            "contactId": contact.id,
            "startTime": start.isoformat(),
            "endTime": end.isoformat(),
            "players": [{"name": "Guest", "email": "guest@example.com"}],
        },
    )
    conflict = c(
        api,
        "post",
        f"{PLATFORM}/bookings",
        409,
        data={"areaId": area.id, "contactId": contact.id, "startTime": start.isoformat(), "endTime": end.isoformat()},
    )
    assert conflict["code"] == "SLOT_UNAVAILABLE"
    c(api, "get", f"{PLATFORM}/bookings", 200)
    c(api, "get", f"{PLATFORM}/bookings", 200, params={"type": "area", "ordering": "-createdAt"})
    c(api, "get", PLATFORM + "/bookings/{id}", 200, id=booking["id"])
    c(api, "patch", PLATFORM + "/bookings/{id}", 200, id=booking["id"], data={"notes": "Bring balls"})
    players = c(api, "get", PLATFORM + "/bookings/{id}/players", 200, id=booking["id"])
    organizer = next(p for p in players["data"] if p["isOrganizer"])
    extra = make_contact(organization)
    player = c(api, "post", PLATFORM + "/bookings/{id}/players", 201, id=booking["id"], data={"contactId": extra.id})
    c(api, "delete", PLATFORM + "/bookings/{id}/players/{playerId}", 204, id=booking["id"], playerId=player["id"])
    error = c(
        api, "delete", PLATFORM + "/bookings/{id}/players/{playerId}", 409, id=booking["id"], playerId=organizer["id"]
    )
    assert error["code"] == "CONFLICT"
    c(api, "post", PLATFORM + "/bookings/{id}/cancel", 200, id=booking["id"], data={})
    again = c(api, "post", PLATFORM + "/bookings/{id}/cancel", 409, id=booking["id"], data={})
    assert again["details"]["currentStatus"] == "cancelled"


def test_channel_bookings(c, api, organization, area, club):
    start, end = _slot(days=6, hour=12)
    body = {
        "externalSource": "playtomic",
        "externalId": "PT-1",
        "areaId": area.id,
        "startTime": start.isoformat(),
        "endTime": end.isoformat(),
        "contact": {"firstName": "Partner", "email": "partner@example.com"},
        "priceBeforeTax": 30,
    }
    c(api, "post", f"{PLATFORM}/channel-bookings", 201, data=body)
    duplicate = c(api, "post", f"{PLATFORM}/channel-bookings", 409, data=body)
    assert duplicate["code"] == "DUPLICATE_VALUE"
    path = PLATFORM + "/channel-bookings/{externalSource}/{externalId}"
    c(api, "get", path, 200, externalSource="playtomic", externalId="PT-1")
    c(
        api,
        "post",
        path + "/payment",
        200,
        externalSource="playtomic",
        externalId="PT-1",
        data={"payment": {"paidAmount": 36.3, "reference": "pay_1", "fee": 1.5}},
    )
    c(api, "post", path + "/cancel", 200, externalSource="playtomic", externalId="PT-1", data={})
    occurrence = make_class(organization, club)
    c(
        api,
        "post",
        f"{PLATFORM}/channel-bookings",
        201,
        data={
            "externalSource": "classpass",
            "externalId": "CP-1",
            "type": "class",
            "classId": occurrence.id,
            "contact": {"firstName": "Seat"},
        },
    )


# --- contacts, instructors ---------------------------------------------------------------------------------------


def test_contacts(c, api, contact):
    created = c(
        api,
        "post",
        f"{PLATFORM}/contacts",
        201,
        data={"firstName": "Bea", "customFields": {"shoe": 42, "tags": ["a"]}, "tags": ["vip"]},
    )
    assert created["pipelineStage"] is None and created["email"] is None
    duplicate = c(api, "post", f"{PLATFORM}/contacts", 409, data={"firstName": "X", "email": contact.email})
    assert duplicate["details"]["existingId"] == contact.id
    c(api, "get", f"{PLATFORM}/contacts", 200)
    c(api, "get", PLATFORM + "/contacts/{id}", 200, id=contact.id)
    c(api, "patch", PLATFORM + "/contacts/{id}", 200, id=created["id"], data={"lastName": None})
    c(api, "post", PLATFORM + "/contacts/{id}/archive", 200, id=created["id"], data={"reason": "Moved"})
    c(api, "post", PLATFORM + "/contacts/{id}/archive", 409, id=created["id"], data={})
    c(api, "post", PLATFORM + "/contacts/{id}/restore", 200, id=created["id"])
    c(api, "get", f"{PLATFORM}/pipeline-stages", 200)
    c(api, "get", f"{PLATFORM}/contact-sources", 200)


def test_instructors_types_policies(c, api, contact, club):
    kind = c(api, "post", f"{PLATFORM}/instructor-types", 201, data={"name": "Coach"})
    c(api, "get", f"{PLATFORM}/instructor-types", 200)
    c(api, "get", PLATFORM + "/instructor-types/{id}", 200, id=kind["id"])
    c(api, "patch", PLATFORM + "/instructor-types/{id}", 200, id=kind["id"], data={"description": "Head coach"})
    policy = c(
        api, "post", f"{PLATFORM}/pay-rate-policies", 201, data={"name": "Hourly", "rateType": "hourly", "amount": 25}
    )
    c(api, "get", f"{PLATFORM}/pay-rate-policies", 200)
    c(api, "get", PLATFORM + "/pay-rate-policies/{id}", 200, id=policy["id"])
    c(api, "patch", PLATFORM + "/pay-rate-policies/{id}", 200, id=policy["id"], data={"isActive": False})

    bare = c(api, "post", f"{PLATFORM}/instructors", 201, data={"contact": {"firstName": "Nacho"}})
    assert bare["type"] is None
    full = c(
        api,
        "post",
        f"{PLATFORM}/instructors",
        201,
        data={
            "contactId": contact.id,
            "typeId": kind["id"],
            "payRatePolicyId": policy["id"],
            "bio": {"blocks": [{"type": "paragraph", "text": "Hi"}]},
            "hourlyRate": 30,
            "sports": ["padel"],
            "weeklyAvailability": [
                {"dayOfWeek": "monday", "startTime": "09:00", "endTime": "12:00", "clubId": club.id}
            ],
        },
    )
    c(api, "get", f"{PLATFORM}/instructors", 200)
    c(api, "get", PLATFORM + "/instructors/{id}", 200, id=full["id"])
    c(api, "patch", PLATFORM + "/instructors/{id}", 200, id=bare["id"], data={"bio": None, "experience": "5 years"})
    feed = c(api, "get", PLATFORM + "/instructors/{id}/calendar-feed", 200, id=full["id"])
    rotated = c(api, "post", PLATFORM + "/instructors/{id}/calendar-feed/rotate", 200, id=full["id"])
    assert rotated["url"] != feed["url"]


# --- products ---------------------------------------------------------------------------------------------------


def test_products_and_categories(c, api, club, organization):
    account = RevenueAccount.objects.create(organization=organization, name="Shop sales")
    category = c(api, "post", f"{PLATFORM}/product-categories", 201, data={"name": "Drinks", "position": 1})
    c(api, "get", f"{PLATFORM}/product-categories", 200)
    c(api, "get", PLATFORM + "/product-categories/{id}", 200, id=category["id"])
    c(api, "patch", PLATFORM + "/product-categories/{id}", 200, id=category["id"], data={"description": None})
    bare = c(api, "post", f"{PLATFORM}/products", 201, data={"name": "Rental", "price": 4})
    assert bare["category"] is None and bare["stockQuantity"] is None
    full = c(
        api,
        "post",
        f"{PLATFORM}/products",
        201,
        data={
            "name": "Water",
            "price": 1.5,
            "categoryId": category["id"],
            "clubId": club.id,
            "sku": "W-1",
            "trackStock": True,
            "stockQuantity": 3,
            "images": ["https://example.com/w.png"],
            "revenueAccountId": account.id,
        },
    )
    c(api, "get", f"{PLATFORM}/products", 200, params={"inStock": "true", "locale": "es"})
    c(api, "get", PLATFORM + "/products/{id}", 200, id=full["id"])
    c(api, "patch", PLATFORM + "/products/{id}", 200, id=full["id"], data={"stockAdjustment": -1})
    refused = c(api, "patch", PLATFORM + "/products/{id}", 409, id=full["id"], data={"stockAdjustment": -5})
    assert refused["code"] == "CONFLICT"


# --- forms ------------------------------------------------------------------------------------------------------


def test_forms(c, api):
    questions = [
        {"type": "text", "label": "Name", "required": True},
        {"type": "multiselect", "label": "Days", "options": ["Mon", "Tue"]},
    ]
    bare = c(api, "post", f"{PLATFORM}/forms", 201, data={"name": "Trial", "questions": questions})
    assert bare["completionCount"] == 0 and bare["description"] is None
    c(api, "get", f"{PLATFORM}/forms", 200, params={"isActive": "true", "locale": "es"})
    c(api, "get", PLATFORM + "/forms/{id}", 200, id=bare["id"])
    kept = [{"id": bare["questions"][0]["id"], "type": "email", "label": "E-mail"}, {"type": "date", "label": "Day"}]
    c(api, "patch", PLATFORM + "/forms/{id}", 200, id=bare["id"], data={"questions": kept, "isActive": False})
    refused = c(api, "post", f"{PLATFORM}/forms", 409, data={"name": "T", "slug": bare["slug"], "questions": kept[1:]})
    assert refused["code"] == "DUPLICATE_VALUE"


# --- transactions -----------------------------------------------------------------------------------------------


def test_transactions_outside_revenue_and_refunds(c, api, club, organization):
    account = RevenueAccount.objects.create(organization=organization, name="Tournaments")
    bare = c(api, "post", f"{PLATFORM}/transactions", 201, data={"amount": 20, "description": "Cash box"})
    assert bare["paymentStatus"] == "paid" and bare["contactId"] is None
    full = c(
        api,
        "post",
        f"{PLATFORM}/transactions",
        201,
        data={
            "amount": 120.5,
            "description": "Tournament fees",
            "occurredAt": "2026-03-01T10:00:00+01:00",
            "revenueAccountId": account.id,
            "clubId": club.id,
            "reference": "BANK-42",
            "paymentMethod": "bank_transfer",
        },
    )
    c(api, "get", f"{PLATFORM}/transactions", 200, params={"paymentStatus": "paid", "ordering": "amount"})
    c(api, "get", f"{PLATFORM}/transactions", 200, params={"startDate": "2026-01-01", "type": "external_revenue"})
    c(api, "get", PLATFORM + "/transactions/{id}", 200, id=full["id"])
    refund = c(
        api, "post", PLATFORM + "/transactions/{id}/refund", 201, id=full["id"], data={"amount": 20, "reason": "Rain"}
    )
    assert refund["refundOfId"] == full["id"]
    refused = c(api, "post", PLATFORM + "/transactions/{id}/refund", 409, id=full["id"], data={"amount": 500})
    assert refused["code"] == "REFUND_EXCEEDS_BALANCE"
    refused = c(api, "post", PLATFORM + "/transactions/{id}/refund", 409, id=refund["id"], data={"amount": 1})
    assert refused["code"] == "NOT_EXTERNAL_REVENUE"


# --- invoices ---------------------------------------------------------------------------------------------------


def test_invoices_and_summary(c, api, organization, contact, club):
    issued = invoice(organization, contact=contact, club=club, paid="24.20", status="paid")
    bare = invoice(organization)  # no contact, no club
    listed = c(api, "get", f"{PLATFORM}/invoices", 200)
    assert {row["id"] for row in listed["data"]} == {issued.id, bare.id}
    c(api, "get", f"{PLATFORM}/invoices", 200, params={"status": "paid,open", "contactId": contact.id})
    c(api, "get", f"{PLATFORM}/invoices", 200, params={"startDate": "2026-01-01", "ordering": "number"})
    assert c(api, "get", PLATFORM + "/invoices/{id}", 200, id=issued.id)["lines"]
    assert c(api, "get", PLATFORM + "/invoices/{id}", 200, id=bare.id)["contactId"] is None
    summary = c(api, "get", f"{PLATFORM}/invoices/summary", 200, params={"clubId": club.id})
    assert summary["invoiceCount"] == 1
    c(api, "get", f"{PLATFORM}/invoices/summary", 400, params={"startDate": "2020-01-01", "endDate": "2026-01-01"})


def test_revenue_report_and_analytics(c, api, club, organization):
    account = RevenueAccount.objects.create(organization=organization, name="Tournaments")
    c(
        api,
        "post",
        f"{PLATFORM}/transactions",
        201,
        data={
            "amount": 20,
            "description": "Cash",
            "occurredAt": "2026-03-01T10:00:00+01:00",
            "clubId": club.id,
            "revenueAccountId": account.id,
        },
    )
    period = {"startDate": "2026-02-23", "endDate": "2026-03-08"}
    c(api, "get", f"{PLATFORM}/transactions/summary", 200)
    for group_by in ("day", "week", "month", "revenueAccount"):
        body = c(api, "get", f"{PLATFORM}/transactions/summary", 200, params={**period, "groupBy": group_by})
        assert body["totals"]["gross"] == 20
    c(api, "get", f"{PLATFORM}/transactions/summary", 200, params={"clubId": club.id, "groupBy": "revenueAccount"})
    period_too_long = {"startDate": "2025-01-01", "endDate": "2026-01-02"}
    refused = c(api, "get", f"{PLATFORM}/transactions/summary", 400, params=period_too_long)
    assert refused["code"] == "VALIDATION_ERROR"
    body = c(api, "get", f"{PLATFORM}/analytics/summary", 200, params=period)
    assert body["totals"]["revenue"] == 20 and body["totals"]["classOccupancyRate"] is None
    make_class_booking(make_class(organization, club, start=dt.datetime(2026, 3, 3, 10, tzinfo=MADRID)))
    body = c(api, "get", f"{PLATFORM}/analytics/summary", 200, params={**period, "clubId": club.id})
    assert body["totals"]["classOccupancyRate"] == 0.1
    c(api, "get", f"{PLATFORM}/analytics/summary", 400, params={"clubId": "x"})


# --- revenue accounts, plan categories, plans ---------------------------------------------------------------------


def test_revenue_accounts_plan_categories_plans(c, api, club):
    account = c(api, "post", f"{PLATFORM}/revenue-accounts", 201, data={"name": "Passes", "code": "4100"})
    c(api, "get", f"{PLATFORM}/revenue-accounts", 200, params={"isActive": "true"})
    c(api, "get", PLATFORM + "/revenue-accounts/{id}", 200, id=account["id"])
    c(api, "patch", PLATFORM + "/revenue-accounts/{id}", 200, id=account["id"], data={"isDefault": True})

    category = c(api, "post", f"{PLATFORM}/plan-categories", 201, data={"name": "Memberships", "position": 1})
    c(api, "get", f"{PLATFORM}/plan-categories", 200, params={"locale": "es"})
    c(api, "get", PLATFORM + "/plan-categories/{id}", 200, id=category["id"])
    c(api, "patch", PLATFORM + "/plan-categories/{id}", 200, id=category["id"], data={"description": None})

    bare = c(api, "post", f"{PLATFORM}/plans", 201, data={"name": "Drop-in", "price": 12})
    full = c(
        api,
        "post",
        f"{PLATFORM}/plans",
        201,
        data={
            "name": "Every two weeks",
            "price": 30,
            "clubId": club.id,
            "planCategoryId": category["id"],
            "revenueAccountId": account["id"],
            "billingFrequency": "custom",
            "customPeriod": 2,
            "customPeriodUnit": "weeks",
            "maxUses": 8,
            "sessionUnit": "booking",
            "validityPeriod": 14,
            "validFor": {"scopes": ["classes"]},
        },
    )
    c(api, "get", f"{PLATFORM}/plans", 200, params={"planCategoryId": category["id"], "locale": "es"})
    c(api, "get", PLATFORM + "/plans/{id}", 200, id=full["id"])
    c(api, "patch", PLATFORM + "/plans/{id}", 200, id=full["id"], data={"planCategoryId": None})
    c(api, "post", PLATFORM + "/plans/{id}/retire", 200, id=full["id"])
    c(api, "post", PLATFORM + "/plans/{id}/retire", 409, id=full["id"])
    c(api, "delete", PLATFORM + "/plans/{id}", 204, id=bare["id"])
    c(api, "delete", PLATFORM + "/plan-categories/{id}", 204, id=category["id"])


# --- memberships --------------------------------------------------------------------------------------------------


def test_memberships(c, api, club, contact):
    plan = c(api, "post", f"{PLATFORM}/plans", 201, data={"name": "Monthly", "price": 40, "autoRenews": True})
    bare = c(api, "post", f"{PLATFORM}/memberships", 201, data={"contactId": contact.id, "planId": plan["id"]})
    full = c(
        api,
        "post",
        f"{PLATFORM}/memberships",
        201,
        data={
            "contactId": contact.id,
            "planId": plan["id"],
            "startDate": "2026-01-31",
            "price": 35.5,
            "signupFee": 10,
            "paymentStatus": "paid",
            "notes": "Front desk",
        },
    )
    c(api, "get", f"{PLATFORM}/memberships", 200, params={"contactId": contact.id, "status": "active,paused"})
    c(api, "get", f"{PLATFORM}/memberships", 200, params={"startDate": "2026-01-01", "ordering": "startDate"})
    c(api, "get", PLATFORM + "/memberships/{id}", 200, id=full["id"])
    c(api, "patch", PLATFORM + "/memberships/{id}", 200, id=full["id"], data={"paymentStatus": "unpaid", "notes": None})
    c(api, "post", PLATFORM + "/memberships/{id}/pause", 200, id=full["id"], data={"resumeDate": "2099-01-01"})
    c(api, "post", PLATFORM + "/memberships/{id}/pause", 409, id=full["id"])
    c(api, "post", PLATFORM + "/memberships/{id}/resume", 200, id=full["id"])
    c(api, "post", PLATFORM + "/memberships/{id}/resume", 409, id=full["id"])
    c(api, "post", PLATFORM + "/memberships/{id}/cancel", 200, id=full["id"], data={"effective": "end_of_period"})
    c(api, "post", PLATFORM + "/memberships/{id}/cancel", 200, id=bare["id"], data={"reason": "Moved"})
    c(api, "post", PLATFORM + "/memberships/{id}/cancel", 409, id=bare["id"])
    c(api, "post", f"{PLATFORM}/memberships", 400, data={"contactId": contact.id})


# --- error bodies ------------------------------------------------------------------------------------------------


def test_error_bodies(c, api, client_for, other_organization, contact, club):
    error = c(api, "post", f"{PLATFORM}/contacts", 400, data={"lastName": "NoFirst"})
    assert error["code"] == "VALIDATION_ERROR" and "firstName" in error["details"]["fields"]
    c(api, "get", f"{PLATFORM}/classes", 400, params={"limit": "0"})
    c(api, "get", f"{PLATFORM}/contacts", 400, params={"ordering": "shoeSize"})
    foreign = make_contact(other_organization)
    missing = c(api, "get", PLATFORM + "/contacts/{id}", 404, id=foreign.id)
    assert missing["code"] == "NOT_FOUND"
    c(api, "get", PLATFORM + "/clubs/{slug}", 404, slug="nowhere")
    short = c(client_for("classes:read"), "get", f"{PLATFORM}/contacts", 403)
    assert short == {"error": "Insufficient access scope", "requiredScope": "contacts:read"}
    c(client_for("contacts:read"), "post", f"{PLATFORM}/contacts", 403, data={"firstName": "A"})
    c(APIClient(), "get", f"{PLATFORM}/me", 401)
    start, end = _slot()
    naive = c(
        api,
        "post",
        f"{PLATFORM}/classes",
        400,
        data={"clubId": club.id, "name": "N", "startTime": "2030-01-01T10:00:00", "endTime": end.isoformat()},
    )
    assert "startTime" in naive["details"]["fields"]


def test_pricing_rules_and_quote(c, api, club, area):
    body = {
        "name": "Evening",
        "clubId": club.id,
        "areaIds": [area.id],
        "daysOfWeek": ["monday"],
        "startTime": "18:00",
        "endTime": "22:00",
        "validFrom": "2030-01-01",
        "adjustmentType": "percent",
        "value": 10,
    }
    rule = c(api, "post", f"{PLATFORM}/pricing-rules", 201, data=body)
    c(api, "post", f"{PLATFORM}/pricing-rules", 201, data={"name": "Flat", "adjustmentType": "amount", "value": -2})
    c(api, "get", f"{PLATFORM}/pricing-rules", 200)
    c(api, "get", PLATFORM + "/pricing-rules/{id}", 200, id=rule["id"])
    c(api, "patch", PLATFORM + "/pricing-rules/{id}", 200, id=rule["id"], data={"startTime": None, "endTime": None})
    start, end = _slot()
    params = {"areaId": area.id, "startTime": start.isoformat(), "endTime": end.isoformat()}
    c(api, "get", f"{PLATFORM}/pricing-rules/quote", 200, params=params)
    c(api, "delete", PLATFORM + "/pricing-rules/{id}", 204, id=rule["id"])


# --- booking policies, document rules ----------------------------------------------------------------------------


def test_booking_policies_and_document_rules(c, api, club, area_type):
    body = {"name": "Courts", "appliesTo": "areas", "clubId": club.id, "areaTypeIds": [area_type.id]}
    policy = c(api, "post", f"{PLATFORM}/booking-policies", 201, data={**body, "lateCancellationFee": 5})
    c(api, "get", f"{PLATFORM}/booking-policies", 200)
    c(api, "get", PLATFORM + "/booking-policies/{id}", 200, id=policy["id"])
    c(api, "patch", PLATFORM + "/booking-policies/{id}", 200, id=policy["id"], data={"maxDurationMinutes": 90})
    copy = c(api, "post", PLATFORM + "/booking-policies/{id}/duplicate", 201, id=policy["id"])
    c(api, "delete", PLATFORM + "/booking-policies/{id}", 204, id=copy["id"])
    rule = {"name": "Waiver", "documentType": "waiver", "requirement": "sign", "appliesTo": "all_contacts"}
    rule = c(api, "post", f"{PLATFORM}/document-rules", 201, data={**rule, "documentUrl": "https://x.example/w.pdf"})
    c(api, "get", f"{PLATFORM}/document-rules", 200)
    c(api, "get", PLATFORM + "/document-rules/{id}", 200, id=rule["id"])
    c(api, "patch", PLATFORM + "/document-rules/{id}", 200, id=rule["id"], data={"renewEveryDays": 365})
    c(api, "delete", PLATFORM + "/document-rules/{id}", 204, id=rule["id"])


# --- templates, messages -----------------------------------------------------------------------------------------


def test_templates_and_messages(c, api, organization, contact):
    email = {"name": "Welcome", "channel": "email", "subject": "Hi {{ firstName }}", "body": "<p>{{ name }}</p>"}
    template = c(api, "post", f"{PLATFORM}/templates", 201, data=email)
    sms = c(api, "post", f"{PLATFORM}/templates", 201, data={"name": "Reminder", "channel": "sms", "body": "Hi"})
    c(api, "get", f"{PLATFORM}/templates", 200, params={"channel": "email", "q": "wel"})
    c(api, "get", PLATFORM + "/templates/{id}", 200, id=template["id"])
    c(api, "patch", PLATFORM + "/templates/{id}", 200, id=sms["id"], data={"isActive": False})
    body = {"channel": "email", "subject": "Hi", "body": "<p>{{ firstName }}</p>", "templateId": template["id"]}
    draft = c(api, "post", f"{PLATFORM}/messages", 201, data={**body, "contactIds": [contact.id]})
    bare = c(api, "post", f"{PLATFORM}/messages", 201, data={"channel": "sms", "body": "Hi"})
    c(api, "get", f"{PLATFORM}/messages", 200, params={"status": "draft", "channel": "email,sms"})
    c(api, "get", PLATFORM + "/messages/{id}", 200, id=draft["id"])
    c(api, "patch", PLATFORM + "/messages/{id}", 200, id=draft["id"], data={"templateId": None})
    c(api, "delete", PLATFORM + "/messages/{id}", 204, id=bare["id"])
    c(api, "delete", PLATFORM + "/templates/{id}", 204, id=sms["id"])
    Message.objects.filter(pk=draft["id"]).update(status="sent", recipients_count=1, sent_count=1)
    refused = c(api, "patch", PLATFORM + "/messages/{id}", 409, id=draft["id"], data={"body": "x"})
    assert refused["code"] == "INVALID_STATE_TRANSITION"
    c(api, "post", f"{PLATFORM}/messages", 400, data={**body, "status": "sent"})


def test_website_pages_sections_publishing(c, api, club, settings):
    base = f"{PLATFORM}/website"
    c(api, "get", f"{PLATFORM}/websites", 200)
    website = c(api, "get", base, 200)
    c(api, "get", PLATFORM + "/websites/{id}", 200, id=website["id"])
    Website.objects.filter(pk=website["id"]).update(domain="www.padelpalace.example")
    settings.WEBSITE_DOMAIN_TXT_RESOLVER = "tests.website.test_custom_domains.fake_txt_records"  # no DNS in tests
    checked = c(api, "post", PLATFORM + "/websites/{id}/verify-domain", 200, id=website["id"])
    assert checked["verified"] is False and checked["record"]["type"] == "TXT"
    c(api, "patch", base, 200, data={"name": "Padel Palace", "clubId": club.id})
    hero = {"type": "hero", "config": {"title": "Welcome"}, "translations": {"es": {"title": "Hola"}}}
    page = c(api, "post", f"{base}/pages", 201, data={"slug": "home", "title": "Home", "sections": [hero]})
    c(api, "get", f"{base}/pages", 200)
    c(api, "get", base + "/pages/{pageId}", 200, pageId=page["id"], query="?locale=es")
    c(api, "patch", base + "/pages/{pageId}", 200, pageId=page["id"], data={"metaTitle": None, "noindex": False})
    sections = base + "/pages/{pageId}/sections"
    c(api, "post", sections, 201, pageId=page["id"], data={"type": "faq", "config": {}, "position": 0})
    c(api, "get", sections, 200, pageId=page["id"])
    c(api, "patch", sections + "/{htmlId}", 200, pageId=page["id"], htmlId="faq", data={"config": {"heading": "Q"}})
    c(api, "delete", sections + "/{htmlId}", 204, pageId=page["id"], htmlId="faq")
    c(api, "get", f"{base}/section-types", 200)
    c(api, "get", f"{base}/layout", 200)
    c(api, "patch", f"{base}/layout", 200, data={"footer": {"type": "footer", "config": {"text": "Hi"}}})
    c(api, "get", f"{base}/styles", 200)
    c(api, "patch", f"{base}/styles", 200, data={"buttonStyle": "pill"})
    c(api, "get", f"{base}/seo-settings", 200)
    c(api, "patch", f"{base}/seo-settings", 200, data={"titleTemplate": "%s | Padel"})
    release = c(api, "post", f"{base}/publish", 201, data={"note": "Launch"})
    c(api, "get", f"{base}/releases", 200)
    c(api, "get", base + "/releases/{version}", 200, version=release["version"])
    c(api, "post", base + "/releases/{version}/rollback", 200, version=release["version"])
    other = c(api, "post", f"{base}/pages", 201, data={"slug": "about", "title": "About"})
    refused = c(api, "delete", base + "/pages/{pageId}", 409, pageId=page["id"])
    assert refused["code"] == "RESOURCE_IN_USE"
    c(api, "delete", base + "/pages/{pageId}", 204, pageId=other["id"])


# --- marketplace -------------------------------------------------------------------------------------------------


def test_marketplace(c, organization, club, area):
    club.latitude, club.longitude, club.marketplace_listed = 40.4168, -3.7038, True
    club.save()
    day = (dt.datetime.now(MADRID) + dt.timedelta(days=7)).date().isoformat()
    public = APIClient()
    search = c(public, "get", "/v1/public/search/clubs", 200, params={"location": "Madrid", "date": day})
    assert search["data"][0]["distanceKm"] is not None
    c(public, "get", "/v1/public/search/clubs", 200)
    c(public, "get", "/v1/public/search/clubs", 400, params={"location": "Atlantis of the Seas"})
    profile = c(public, "get", "/v1/public/network/clubs/{slug}", 200, slug=club.slug)
    assert profile["courts"]
    c(public, "get", "/v1/public/network/clubs/{slug}", 404, slug="unknown")
    offers = c(public, "post", "/v1/public/network/search/offers", 200, data={"location": "Madrid", "date": day})
    assert offers["data"]
    c(public, "post", "/v1/public/network/search/offers", 400, data={"location": "Madrid"})


# --- content items, media ---------------------------------------------------------------------------------------


def test_content_items_and_media(c, api, client_for):
    body = {
        "title": "Opening hours",
        "type": "faq",
        "status": "published",
        "content": {"html": "<p>8 to 22</p>", "blocks": {"blocks": [{"type": "paragraph", "data": {"text": "8"}}]}},
        "tags": ["club"],
        "customFields": {"order": 1},
        "featured": True,
        "language": "en",
    }
    item = c(api, "post", f"{PLATFORM}/content-items", 201, data=body)
    draft = c(api, "post", f"{PLATFORM}/content-items", 201, data={"title": "Draft", "type": "post"})
    assert draft["publishedAt"] is None and draft["author"] is None
    c(api, "get", f"{PLATFORM}/content-items", 200, params={"type": "faq", "tag": "club", "ordering": "-publishedAt"})
    c(client_for("content:read"), "get", PLATFORM + "/content-items/{id}", 200, id=item["id"])
    hidden = c(client_for("content:read"), "get", PLATFORM + "/content-items/{id}", 404, id=draft["id"])
    assert hidden["code"] == "NOT_FOUND"
    c(api, "patch", PLATFORM + "/content-items/{id}", 200, id=draft["id"], data={"status": "published"})
    taken = c(
        api, "patch", PLATFORM + "/content-items/{id}", 409, id=draft["id"], data={"slug": item["slug"], "type": "faq"}
    )
    assert taken["code"] == "DUPLICATE_VALUE"
    c(api, "delete", PLATFORM + "/content-items/{id}", 204, id=draft["id"])

    media = c(
        api, "post", f"{PLATFORM}/media", 201, data={"url": "https://cdn.example.com/court.jpg", "altText": "Court"}
    )
    c(api, "get", f"{PLATFORM}/media", 200, params={"name": "court", "mediaType": "image", "ordering": "name"})
    c(api, "get", PLATFORM + "/media/{id}", 200, id=media["id"])
    c(api, "patch", PLATFORM + "/media/{id}", 200, id=media["id"], data={"caption": "Centre court"})
    immutable = c(api, "patch", PLATFORM + "/media/{id}", 400, id=media["id"], data={"url": "https://x.example/a.jpg"})
    assert immutable["code"] == "FIELD_NOT_WRITABLE"
    c(api, "delete", PLATFORM + "/media/{id}", 204, id=media["id"])


# --- events and event bookings -------------------------------------------------------------------------------


def test_events_tickets_verbs_and_event_bookings(c, api, organization, club, contact):
    start, end = _slot(days=20, hour=18, minutes=180)
    bare = c(
        api,
        "post",
        f"{PLATFORM}/events",
        201,
        data={"name": "Quiz night", "clubId": club.id, "startTime": start.isoformat(), "endTime": end.isoformat()},
    )
    assert bare["tickets"] == [] and bare["capacity"] is None
    full = c(
        api,
        "post",
        f"{PLATFORM}/events",
        201,
        data={
            "name": "Summer Cup",
            "clubId": club.id,
            "startTime": start.isoformat(),
            "endTime": end.isoformat(),
            "description": "Padel tournament",
            "visibility": "Member_only",
            "capacity": 20,
            "images": ["https://example.com/cup.png"],
            "tickets": [
                {"name": "Adult", "priceBeforeTax": 10, "quantity": 10, "salesStart": "2026-01-01T00:00:00Z"},
                {"name": "Child", "priceBeforeTax": 0, "salesEnd": end.isoformat()},
            ],
        },
    )
    c(api, "get", f"{PLATFORM}/events", 200, params={"status": "draft", "q": "cup", "locale": "es"})
    c(api, "get", f"{PLATFORM}/events", 200, params={"clubId": club.id, "startDate": start.date().isoformat()})
    c(api, "get", PLATFORM + "/events/{id}", 200, id=full["id"])
    adult, child = full["tickets"]
    c(
        api,
        "patch",
        PLATFORM + "/events/{id}",
        200,
        id=full["id"],
        data={"capacity": None, "tickets": [adult, {"name": "Family", "priceBeforeTax": 25, "quantity": None}]},
    )
    c(api, "post", PLATFORM + "/events/{id}/publish", 200, id=full["id"])
    c(api, "post", PLATFORM + "/events/{id}/publish", 409, id=full["id"])
    booking = c(
        api,
        "post",
        PLATFORM + "/events/{id}/bookings",
        201,
        id=full["id"],
        data={"contactId": contact.id, "ticketId": adult["id"], "notes": "Left-handed"},
    )
    again = c(
        api,
        "post",
        PLATFORM + "/events/{id}/bookings",
        409,
        id=full["id"],
        data={"contactId": contact.id, "ticketId": adult["id"]},
    )
    assert again["code"] == "ALREADY_BOOKED" and child["id"]
    c(api, "get", PLATFORM + "/events/{id}/bookings", 200, id=full["id"])
    c(api, "get", f"{PLATFORM}/bookings", 200, params={"eventId": full["id"]})
    in_use = c(api, "delete", PLATFORM + "/events/{id}", 409, id=full["id"])
    assert in_use["code"] == "RESOURCE_IN_USE"
    copy = c(api, "post", PLATFORM + "/events/{id}/duplicate", 201, id=full["id"])
    c(api, "post", PLATFORM + "/events/{id}/unpublish", 200, id=full["id"])
    c(
        api,
        "post",
        PLATFORM + "/events/{id}/cancel",
        200,
        id=full["id"],
        data={"reason": "Rain", "notifyCustomer": True},
    )
    c(api, "post", PLATFORM + "/events/{id}/cancel", 409, id=full["id"], data={})
    assert c(api, "get", PLATFORM + "/bookings/{id}", 200, id=booking["id"])["status"] == "cancelled"
    c(api, "delete", PLATFORM + "/events/{id}", 204, id=copy["id"])


def test_webhooks_deliveries_and_event_feed(c, api, organization):
    created = c(
        api,
        "post",
        f"{PLATFORM}/webhooks",
        201,
        data={"url": PUBLIC_URL, "events": ["booking.created", "contact.updated"], "description": "CRM"},
    )
    assert created["secret"].startswith("whsec_")
    c(api, "get", f"{PLATFORM}/webhooks", 200)
    fetched = c(api, "get", PLATFORM + "/webhooks/{id}", 200, id=created["id"])
    assert "secret" not in fetched
    c(api, "patch", PLATFORM + "/webhooks/{id}", 200, id=created["id"], data={"isActive": True})
    c(api, "post", PLATFORM + "/webhooks/{id}/rotate-secret", 200, id=created["id"])
    event = make_webhook_event(organization, "contact.updated", {"id": 5}, changed_fields=["email"])
    delivery = make_delivery(WebhookSubscription.objects.get(pk=created["id"]), event, attempts=1)
    c(api, "get", PLATFORM + "/webhooks/{id}/deliveries", 200, id=created["id"])
    c(
        api,
        "post",
        PLATFORM + "/webhooks/{id}/deliveries/{deliveryId}/redeliver",
        201,
        id=created["id"],
        deliveryId=delivery.id,
    )
    since = (dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)).isoformat()
    c(api, "post", PLATFORM + "/webhooks/{id}/replay", 202, id=created["id"], data={"since": since})
    page = c(api, "get", f"{PLATFORM}/webhook-events", 200)
    assert page["data"][0]["changedFields"] == ["email"]
    c(api, "get", PLATFORM + "/webhook-events/{id}", 200, id=event.id)
    c(api, "delete", PLATFORM + "/webhooks/{id}", 204, id=created["id"])


def test_the_check_catches_drift(document):
    """The closed schemas reject an undocumented field, a missing required one and a null where none is allowed."""
    components = document["components"]["schemas"]
    page = _closed({"$ref": "#/components/schemas/PaginatedAreaTypeList"}, components)
    row = {"id": 1, "name": "Court", "slug": "court", "maxPlayers": None, "createdAt": "2030-01-01T00:00:00Z"}
    row["updatedAt"] = row["createdAt"]
    good = {"data": [row], "total": 1, "limit": 50, "offset": 0}
    assert not list(OAS30Validator(page).iter_errors(good))
    for bad in (
        {**good, "data": [{**row, "surprise": 1}]},
        {**good, "data": [{k: v for k, v in row.items() if k != "slug"}]},
        {**good, "data": [{**row, "name": None}]},
        {k: v for k, v in good.items() if k != "total"},
    ):
        assert list(OAS30Validator(page).iter_errors(bad)), bad
    nullable_ref = _closed(components["Area"]["properties"]["areaType"], components)
    assert not list(OAS30Validator(nullable_ref).iter_errors(None))
    assert not list(OAS30Validator(nullable_ref).iter_errors({"id": 1, "name": "Court"}))
    assert list(OAS30Validator(nullable_ref).iter_errors({"id": 1}))


# Every test function of this module (the completeness check needs all of them to have run); kept last so it sees
# them all.
MODULE_TESTS = {name for name, value in list(globals().items()) if name.startswith("test_") and callable(value)}
