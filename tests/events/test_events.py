"""Events through the API: create with tickets, read (filters, locale), PATCH and the ticket list replaced by id,
duplicate, publish / unpublish / cancel per the state table, delete refused once tickets are sold, and the
`event.*` domain events recorded with each change."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.clubs.models import Club
from apps.contacts.models import Contact
from apps.domain_events.models import DomainEvent
from apps.events.models import Event, EventTicket
from tests.events.factories import make_event, sell

URL = "/v1/platform/events"


def _iso(value):
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


@pytest.fixture
def body(club):
    start = dt.datetime(2030, 6, 1, 18, 0, tzinfo=dt.UTC)
    return {
        "name": "Summer Cup",
        "clubId": club.id,
        "startTime": _iso(start),
        "endTime": _iso(start + dt.timedelta(hours=4)),
        "description": "Padel tournament",
        "capacity": 40,
        "tickets": [
            {"name": "Adult", "priceBeforeTax": 10, "quantity": 30, "salesEnd": "2030-06-01T12:00:00Z"},
            {"name": "Child", "priceBeforeTax": 0},
        ],
    }


def _events(type_):
    return list(DomainEvent.objects.filter(type=type_).order_by("created_at", "id"))


def test_create_returns_a_draft_with_its_tickets_and_records_event_created(api, body, club):
    response = api.post(URL, body, format="json")
    assert response.status_code == 201, response.content
    event = response.json()
    assert response["Location"] == f"{URL}/{event['id']}"
    assert (event["status"], event["slug"], event["clubId"], event["capacity"]) == ("draft", "summer-cup", club.id, 40)
    assert (event["soldCount"], event["publishedAt"], event["cancelledAt"]) == (0, None, None)
    assert event["visibility"] == "Public" and event["images"] == [] and event["translations"] == {}
    adult, child = event["tickets"]
    # 21 % tax on 10.00: the tax-inclusive price is read back beside the stored one.
    assert (adult["name"], adult["priceBeforeTax"], adult["price"], adult["quantity"], adult["soldCount"]) == (
        "Adult",
        10.0,
        12.1,
        30,
        0,
    )
    assert (adult["salesStart"], adult["salesEnd"]) == (None, "2030-06-01T12:00:00Z")
    assert (child["price"], child["quantity"]) == (0.0, None)
    assert api.get(f"{URL}/{event['id']}").json() == event
    [created] = _events("event.created")
    assert created.data["id"] == event["id"] and created.data["tickets"] == event["tickets"]


def test_slugs_stay_unique_in_the_organization(api, body):
    slugs = [api.post(URL, body, format="json").json()["slug"] for _ in range(3)]
    assert slugs == ["summer-cup", "summer-cup-2", "summer-cup-3"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": None}, "name"),
        ({"clubId": 999999}, "clubId"),
        ({"startTime": "2030-06-01T18:00:00"}, "startTime"),
        ({"endTime": "2030-06-01T17:00:00Z"}, "endTime"),
        ({"capacity": 0}, "capacity"),
        ({"capacity": "5"}, "capacity"),
        ({"visibility": "public"}, "visibility"),
        ({"tickets": [{"name": "Adult"}]}, "tickets.0.priceBeforeTax"),
        ({"tickets": [{"name": "A", "priceBeforeTax": -1}]}, "tickets.0.priceBeforeTax"),
        ({"tickets": [{"name": "A", "priceBeforeTax": 1, "quantity": -1}]}, "tickets.0.quantity"),
        (
            {
                "tickets": [
                    {
                        "name": "A",
                        "priceBeforeTax": 1,
                        "salesStart": "2030-01-02T00:00:00Z",
                        "salesEnd": "2030-01-01T00:00:00Z",
                    }
                ]
            },
            "tickets.0.salesEnd",
        ),
        ({"tickets": "Adult"}, "tickets"),
    ],
)
def test_bad_create_bodies_are_400_on_the_field(api, body, change, field):
    response = api.post(URL, {**body, **change}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert field in response.json()["details"]["fields"], response.json()
    assert not Event.objects.exists()


def test_a_club_of_another_organization_is_400(api, body, other_organization):
    foreign = Club.objects.create(organization=other_organization, name="Rival", slug="rival", timezone="UTC")
    response = api.post(URL, {**body, "clubId": foreign.id}, format="json")
    assert response.status_code == 400
    assert "clubId" in response.json()["details"]["fields"]


def test_list_filters_status_club_dates_and_q(api, organization, club, other_organization):
    second = Club.objects.create(organization=organization, name="North", slug="north", timezone="UTC")
    cup = make_event(organization, club, name="Summer Cup", days=5)
    gala = make_event(organization, second, name="Winter Gala", status="draft", days=40)
    make_event(
        other_organization,
        Club.objects.create(organization=other_organization, name="X", slug="x", timezone="UTC"),
        name="Summer Rival",
    )

    def ids(**params):
        response = api.get(URL, params)
        assert response.status_code == 200, response.content
        return [row["id"] for row in response.json()["data"]]

    assert ids() == [cup.id, gala.id]
    assert ids(status="draft") == [gala.id]
    assert ids(status="published,cancelled") == [cup.id]
    assert ids(clubId=second.id) == [gala.id]
    assert ids(q="summer") == [cup.id]
    assert ids(ordering="-startTime") == [gala.id, cup.id]
    day = cup.start_time.astimezone(dt.UTC).date()
    assert ids(startDate=(day - dt.timedelta(days=1)).isoformat(), endDate=(day + dt.timedelta(days=1)).isoformat())[
        :1
    ] == [cup.id]
    assert ids(startDate=(day + dt.timedelta(days=2)).isoformat()) == [gala.id]
    for bad in ({"status": "open"}, {"clubId": "x"}, {"startDate": "tomorrow"}, {"ordering": "price"}):
        response = api.get(URL, bad)
        assert response.status_code == 400, bad
        assert response.json()["code"] == "VALIDATION_ERROR"


def test_locale_resolves_names_and_falls_back(api, organization, club):
    event = make_event(organization, club, name="Summer Cup")
    Event.objects.filter(pk=event.pk).update(translations={"es": {"name": "Copa de verano"}})
    assert api.get(f"{URL}/{event.id}", {"locale": "es"}).json()["name"] == "Copa de verano"
    assert api.get(URL, {"locale": "es"}).json()["data"][0]["name"] == "Copa de verano"
    assert api.get(f"{URL}/{event.id}", {"locale": "fr"}).json()["name"] == "Summer Cup"


def test_list_costs_the_same_queries_for_one_or_two_hundred_events(api, organization, club):
    make_event(organization, club, tickets=[("A", "5", 10), ("B", "0", None)])
    api.get(URL)
    with CaptureQueriesContext(connection) as one:
        first = api.get(URL, {"limit": 200})
    for i in range(199):
        make_event(organization, club, name=f"E{i}", tickets=[("A", "5", 10), ("B", "0", None), ("C", "1", 1)])
    with CaptureQueriesContext(connection) as many:
        second = api.get(URL, {"limit": 200})
    assert len(first.json()["data"]) == 1 and len(second.json()["data"]) == 200
    assert all(len(row["tickets"]) in (2, 3) for row in second.json()["data"])
    assert len(many) == len(one)


# --- PATCH and the ticket list ------------------------------------------------------------------------------------


def test_patch_changes_fields_and_records_changed_fields(api, organization, club):
    event = make_event(organization, club, status="draft")
    response = api.patch(f"{URL}/{event.id}", {"name": "Autumn Cup", "capacity": None, "slug": "x"}, format="json")
    assert response.status_code == 200, response.content
    assert (response.json()["name"], response.json()["capacity"], response.json()["slug"]) == (
        "Autumn Cup",
        None,
        event.slug,
    )
    [updated] = _events("event.updated")
    assert updated.changed_fields == ["name"]
    assert api.patch(f"{URL}/{event.id}", {"name": "Autumn Cup"}, format="json").status_code == 200
    assert len(_events("event.updated")) == 1  # nothing changed: no event


def test_tickets_are_replaced_matched_by_id(api, organization, club, contact):
    event = make_event(organization, club, tickets=[("Adult", "10", 30), ("Child", "5", None), ("VIP", "50", 5)])
    adult, child, vip = event.tickets.order_by("position")
    sell(event, adult, contact)
    response = api.patch(
        f"{URL}/{event.id}",
        {
            "tickets": [
                {"id": child.id, "name": "Junior", "priceBeforeTax": 4, "quantity": 20},
                {"name": "Family", "priceBeforeTax": 25},
                {"id": adult.id, "name": "Adult", "priceBeforeTax": 10, "quantity": 30, "soldCount": 99},
            ]
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    tickets = response.json()["tickets"]
    assert [
        (t["id"] if t["name"] != "Family" else None, t["name"], t["quantity"], t["soldCount"]) for t in tickets
    ] == [
        (child.id, "Junior", 20, 0),
        (None, "Family", None, 0),
        (adult.id, "Adult", 30, 1),
    ]
    assert not EventTicket.objects.filter(pk=vip.pk).exists()
    assert _events("event.updated")[-1].changed_fields == ["tickets"]


def test_removing_a_ticket_with_sales_is_409_and_changes_nothing(api, organization, club, contact):
    event = make_event(organization, club, tickets=[("Adult", "10", 30), ("Child", "5", None)])
    adult, child = event.tickets.order_by("position")
    sell(event, adult, contact, status="cancelled")  # a cancelled sale still references its ticket
    response = api.patch(
        f"{URL}/{event.id}",
        {"name": "Renamed", "tickets": [{"id": child.id, "name": "Kid", "priceBeforeTax": 5}]},
        format="json",
    )
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "CONFLICT"
    assert response.json()["details"]["ticketId"] == adult.id
    event.refresh_from_db()
    child.refresh_from_db()
    assert (event.name, child.name, event.tickets.count()) == ("Summer Cup", "Child", 2)
    assert not _events("event.updated")


def test_ticket_ids_of_another_event_are_400(api, organization, club):
    event = make_event(organization, club)
    other = make_event(organization, club, name="Other")
    foreign_ticket = other.tickets.get()
    response = api.patch(
        f"{URL}/{event.id}", {"tickets": [{"id": foreign_ticket.id, "name": "X", "priceBeforeTax": 1}]}, format="json"
    )
    assert response.status_code == 400
    assert "tickets.0.id" in response.json()["details"]["fields"]


def test_capacity_or_quantity_below_what_is_sold_is_409(api, organization, club, contact):
    event = make_event(organization, club, tickets=[("Adult", "10", 30)])
    adult = event.tickets.get()
    sell(event, adult, contact)
    sell(event, adult, Contact.objects.create(organization=organization, first_name="Bo"))
    response = api.patch(f"{URL}/{event.id}", {"capacity": 1}, format="json")
    assert (response.status_code, response.json()["details"]) == (409, {"soldCount": 2})
    response = api.patch(
        f"{URL}/{event.id}",
        {"tickets": [{"id": adult.id, "name": "Adult", "priceBeforeTax": 10, "quantity": 1}]},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["details"] == {"ticketId": adult.id, "soldCount": 2}
    assert api.patch(f"{URL}/{event.id}", {"capacity": 2}, format="json").json()["capacity"] == 2


def test_moving_an_event_moves_its_open_bookings(api, organization, club, contact):
    event = make_event(organization, club)
    booking = sell(event, event.tickets.get(), contact)
    start = event.start_time + dt.timedelta(days=1)
    response = api.patch(
        f"{URL}/{event.id}", {"startTime": _iso(start), "endTime": _iso(start + dt.timedelta(hours=2))}, format="json"
    )
    assert response.status_code == 200, response.content
    booked = api.get(f"/v1/platform/bookings/{booking.id}").json()
    assert (booked["startTime"], booked["endTime"]) == (_iso(start), _iso(start + dt.timedelta(hours=2)))
    assert _events("booking.updated")[-1].changed_fields == ["startTime", "endTime"]
    response = api.patch(f"{URL}/{event.id}", {"endTime": _iso(start - dt.timedelta(hours=1))}, format="json")
    assert response.status_code == 400 and "endTime" in response.json()["details"]["fields"]


# --- state verbs ---------------------------------------------------------------------------------------------------


def test_publish_unpublish_cancel_follow_the_state_table(api, organization, club):
    event = make_event(organization, club, status="draft")
    path = f"{URL}/{event.id}"
    published = api.post(f"{path}/publish")
    assert published.status_code == 200
    assert published.json()["status"] == "published" and published.json()["publishedAt"] is not None
    first_published_at = published.json()["publishedAt"]
    assert api.post(f"{path}/publish").json() == {
        "error": "Conflict",
        "message": "Not allowed while the status is `published`.",
        "code": "INVALID_STATE_TRANSITION",
        "details": {"currentStatus": "published"},
    }
    assert api.post(f"{path}/unpublish").json()["status"] == "draft"
    assert api.post(f"{path}/unpublish").status_code == 409
    assert api.post(f"{path}/publish").json()["publishedAt"] == first_published_at
    cancelled = api.post(f"{path}/cancel", {"reason": "Rain"}, format="json")
    assert cancelled.status_code == 200
    assert cancelled.json()["status"] == "cancelled" and cancelled.json()["cancelledAt"] is not None
    for verb in ("publish", "unpublish", "cancel"):
        response = api.post(f"{path}/{verb}")
        assert response.status_code == 409, verb
        assert response.json()["details"] == {"currentStatus": "cancelled"}
    response = api.patch(path, {"name": "Back"}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "INVALID_STATE_TRANSITION"
    types = list(
        DomainEvent.objects.filter(type__startswith="event.")
        .order_by("created_at", "id")
        .values_list("type", flat=True)
    )
    assert types == ["event.published", "event.unpublished", "event.published", "event.cancelled"]


def test_a_draft_can_be_cancelled(api, organization, club):
    event = make_event(organization, club, status="draft")
    assert api.post(f"{URL}/{event.id}/cancel").json()["status"] == "cancelled"


def test_a_garbage_body_on_publish_or_duplicate_is_400_and_changes_nothing(api, organization, club):
    event = make_event(organization, club, status="draft")
    for action in ("publish", "duplicate"):
        response = api.generic("POST", f"{URL}/{event.id}/{action}", b"{bad", content_type="application/json")
        assert response.status_code == 400 and response.json()["code"] == "INVALID_JSON", response.content
    assert list(Event.objects.filter(organization=organization).values_list("status", flat=True)) == ["draft"]
    # A missing event is still 404 first: the path object is resolved before the body's answer.
    missing = api.generic("POST", f"{URL}/{event.id + 1000}/publish", b"{bad", content_type="application/json")
    assert missing.status_code == 404


def test_duplicate_is_a_draft_copy_without_sales(api, organization, club, contact):
    event = make_event(organization, club, capacity=10, tickets=[("Adult", "10", 5), ("Child", "0", None)])
    Event.objects.filter(pk=event.pk).update(translations={"es": {"name": "Copa"}}, images=["https://x.example/a.png"])
    sell(event, event.tickets.order_by("position").first(), contact)
    response = api.post(f"{URL}/{event.id}/duplicate")
    assert response.status_code == 201, response.content
    copy = response.json()
    assert response["Location"] == f"{URL}/{copy['id']}"
    assert copy["id"] != event.id
    assert (copy["name"], copy["status"], copy["soldCount"], copy["capacity"]) == ("Summer Cup (copy)", "draft", 0, 10)
    assert copy["slug"] == "summer-cup-copy" and copy["publishedAt"] is None
    assert copy["images"] == ["https://x.example/a.png"] and copy["translations"] == {"es": {"name": "Copa"}}
    assert [(t["name"], t["quantity"], t["soldCount"]) for t in copy["tickets"]] == [
        ("Adult", 5, 0),
        ("Child", None, 0),
    ]
    assert not {t["id"] for t in copy["tickets"]} & set(event.tickets.values_list("id", flat=True))
    assert _events("event.created")[-1].data["id"] == copy["id"]


def test_delete_is_refused_once_tickets_are_sold(api, organization, club, contact):
    sold = make_event(organization, club)
    sell(sold, sold.tickets.get(), contact, status="cancelled")
    response = api.delete(f"{URL}/{sold.id}")
    assert response.status_code == 409
    assert response.json()["code"] == "RESOURCE_IN_USE"
    assert response.json()["details"] == {"references": {"bookings": 1}}
    assert Event.objects.filter(pk=sold.pk).exists()

    unsold = make_event(organization, club, name="Quiet")
    response = api.delete(f"{URL}/{unsold.id}")
    assert response.status_code == 204 and not response.content
    assert not Event.objects.filter(pk=unsold.pk).exists()
    assert not EventTicket.objects.filter(event_id=unsold.pk).exists()
    [deleted] = _events("event.deleted")
    assert deleted.data["id"] == unsold.id and deleted.data["name"] == "Quiet"
    assert api.get(f"{URL}/{unsold.id}").status_code == 404


def test_events_scopes_are_read_and_write(client_for, organization, club):
    event = make_event(organization, club, status="draft")
    reader = client_for("events:read")
    assert reader.get(URL).status_code == 200
    refused = reader.post(f"{URL}/{event.id}/publish")
    assert refused.status_code == 403
    assert refused.json() == {"error": "Insufficient access scope", "requiredScope": "events:write"}
    writer = client_for("events:write")
    assert writer.get(URL).status_code == 403
    assert writer.post(f"{URL}/{event.id}/publish").status_code == 200
