"""Area bookings created without `priceBeforeTax` are priced by the quote; an explicit price is kept."""

import pytest

from apps.bookings.models import Booking

from .conftest import madrid

pytestmark = pytest.mark.django_db

BOOKINGS = "/v1/platform/bookings"


def booking_body(area, contact, start, end, **extra):
    return {"areaId": area.id, "contactId": contact.id, "startTime": madrid(start), "endTime": madrid(end), **extra}


def test_a_booking_without_a_price_gets_the_quote_price(api, area, contact, make_rule, quote):
    make_rule(name="Peak", start_minute=18 * 60, end_minute=22 * 60, value=30)
    response = api.post(BOOKINGS, booking_body(area, contact, "2030-06-10 17:30", "2030-06-10 18:30"), format="json")
    assert response.status_code == 201, response.content
    quoted = quote("2030-06-10 17:30", "2030-06-10 19:30", contactId=contact.id).json()  # another slot, same rules
    assert quoted["priceBeforeTax"] == 55.0
    body = response.json()
    assert (body["priceBeforeTax"], body["price"]) == (25.0, 30.25)
    stored = Booking.objects.get(pk=body["id"])
    assert (str(stored.price_before_tax), str(stored.payment_amount)) == ("25.00", "30.25")


def test_the_member_price_follows_the_booking_contact(api, area, contact, make_rule, make_membership):
    make_rule(name="Members", audience="members", adjustment_type="percent", value=-50)
    make_membership(contact)
    response = api.post(BOOKINGS, booking_body(area, contact, "2030-06-10 10:00", "2030-06-10 11:00"), format="json")
    assert response.json()["priceBeforeTax"] == 10.0


def test_an_explicit_price_is_kept(api, area, contact, make_rule):
    make_rule(value=99)
    response = api.post(
        BOOKINGS,
        booking_body(area, contact, "2030-06-10 10:00", "2030-06-10 11:00", priceBeforeTax=12.5),
        format="json",
    )
    assert response.json()["priceBeforeTax"] == 12.5


def test_a_quoted_price_too_large_to_store_is_a_400(api, area, contact, make_rule):
    make_rule(value=99999999.99)
    response = api.post(BOOKINGS, booking_body(area, contact, "2030-06-10 10:00", "2030-06-10 12:00"), format="json")
    assert response.status_code == 400, response.content
    assert "priceBeforeTax" in response.json()["details"]["fields"]
    assert not Booking.objects.exists()
