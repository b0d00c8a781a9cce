"""GET /pricing-rules/quote: bands of the club's wall clock, DST, priority, audience, validity, bad input."""

import datetime as dt

import pytest

from apps.bookings.models import Booking
from apps.contacts.models import Contact
from apps.domain_events.models import DomainEvent
from apps.pricing.models import PricingRule

from .conftest import QUOTE, madrid

pytestmark = pytest.mark.django_db


def prices(response):
    assert response.status_code == 200, response.content
    body = response.json()
    return body["priceBeforeTax"], body["tax"], body["price"]


def test_no_rule_prices_the_area_hourly_rate_with_the_organization_tax(quote, area):
    response = quote("2030-06-10 10:00", "2030-06-10 11:30")
    body = response.json()
    assert response.status_code == 200
    assert body == {
        "areaId": area.id,
        "startTime": "2030-06-10T08:00:00Z",
        "endTime": "2030-06-10T09:30:00Z",
        "durationMinutes": 90,
        "priceBeforeTax": 30.0,
        "tax": 6.3,
        "price": 36.3,
        "appliedRules": [],
    }


def test_a_booking_across_a_rule_boundary_is_priced_per_minute_in_each_band(quote, make_rule):
    peak = make_rule(name="Peak", start_minute=18 * 60, end_minute=22 * 60, value=30)
    # 30 minutes at 20/h then 30 minutes at 30/h.
    response = quote("2030-06-10 17:30", "2030-06-10 18:30")
    assert prices(response) == (25.0, 5.25, 30.25)
    assert response.json()["appliedRules"] == [{"id": peak.id, "name": "Peak"}]
    # Only before the band, or starting exactly at its end: the rule prices no minute.
    assert prices(quote("2030-06-10 17:00", "2030-06-10 18:00")) == (20.0, 4.2, 24.2)
    assert quote("2030-06-10 22:00", "2030-06-10 23:00").json()["appliedRules"] == []
    # The sum of the bands is rounded once, half-up: 15 min at 20/h + 10 min at 22/h = 8.666… -> 8.67.
    PricingRule.objects.filter(pk=peak.pk).update(adjustment_type="percent", value=10)
    assert prices(quote("2030-06-10 17:45", "2030-06-10 18:10")) == (8.67, 1.82, 10.49)


def test_spring_forward_counts_real_minutes_in_each_band(quote, make_rule):
    # 2026-03-29, Madrid: 02:00 CET jumps to 03:00 CEST. 01:00 -> 04:00 on the wall clock is two real hours.
    make_rule(name="Night", start_minute=0, end_minute=3 * 60, value=10)
    response = quote("2026-03-29 01:00", "2026-03-29 04:00")
    # 60 min at 10/h (01:00-02:00 CET) + 60 min at 20/h (03:00-04:00 CEST).
    assert prices(response) == (30.0, 6.3, 36.3)
    body = response.json()
    assert body["durationMinutes"] == 120
    assert (body["startTime"], body["endTime"]) == ("2026-03-29T00:00:00Z", "2026-03-29T02:00:00Z")


def test_fall_back_prices_the_repeated_wall_clock_hour_twice(api, area, make_rule):
    # 2026-10-25, Madrid: 03:00 CEST goes back to 02:00 CET, so 02:00-03:00 happens twice.
    make_rule(name="Late", start_minute=2 * 60, end_minute=3 * 60, value=50)
    response = api.get(
        QUOTE, {"areaId": area.id, "startTime": "2026-10-25T01:00:00+02:00", "endTime": "2026-10-25T04:00:00+01:00"}
    )
    # 01:00-02:00 CEST at 20, 02:00-03:00 CEST at 50, 02:00-03:00 CET at 50, 03:00-04:00 CET at 20.
    assert prices(response) == (140.0, 29.4, 169.4)
    assert response.json()["durationMinutes"] == 240


def test_rules_apply_in_ascending_priority_so_the_highest_has_the_last_word(quote, make_rule):
    rate = make_rule(name="Rate 30", adjustment_type="set_hourly_rate", value=30, priority=1)
    half = make_rule(name="Half", adjustment_type="percent", value=-50, priority=2)
    plus = make_rule(name="Plus 4", adjustment_type="amount", value=4, priority=3)
    response = quote("2030-06-10 10:00", "2030-06-10 11:00")
    assert prices(response)[0] == 19.0  # (30 × 0.5) + 4
    assert [r["id"] for r in response.json()["appliedRules"]] == [rate.id, half.id, plus.id]

    PricingRule.objects.filter(pk=rate.pk).update(priority=9)  # the rate now overrides both adjustments
    response = quote("2030-06-10 10:00", "2030-06-10 11:00")
    assert prices(response)[0] == 30.0
    assert [r["id"] for r in response.json()["appliedRules"]] == [half.id, plus.id, rate.id]

    PricingRule.objects.filter(pk=rate.pk).update(priority=2)  # equal priorities: the older rule (lower id) first
    assert prices(quote("2030-06-10 10:00", "2030-06-10 11:00"))[0] == 19.0


def test_the_rate_never_goes_below_zero(quote, make_rule):
    make_rule(adjustment_type="amount", value=-50, priority=1)
    make_rule(adjustment_type="amount", value=5, priority=2)
    assert prices(quote("2030-06-10 10:00", "2030-06-10 11:00")) == (5.0, 1.05, 6.05)


def test_audience_members_non_members_and_plans(quote, make_rule, make_membership, contact, organization, plan):
    members = make_rule(name="Members", audience="members", adjustment_type="percent", value=-50)
    outsiders = make_rule(name="Others", audience="non_members", adjustment_type="amount", value=10)
    member = contact
    make_membership(member)
    lapsed = Contact.objects.create(organization=organization, first_name="Lapsed")
    make_membership(lapsed, status="cancelled")
    ended = Contact.objects.create(organization=organization, first_name="Ended")
    make_membership(ended, end_date=dt.date(2030, 6, 9))

    def applied(**params):
        return [r["id"] for r in quote("2030-06-10 10:00", "2030-06-10 11:00", **params).json()["appliedRules"]]

    assert applied(contactId=member.id) == [members.id]
    assert prices(quote("2030-06-10 10:00", "2030-06-10 11:00", contactId=member.id))[0] == 10.0
    assert applied() == [outsiders.id]  # no contact: a non-member
    assert applied(contactId=lapsed.id) == [outsiders.id]  # a cancelled membership is not active
    assert applied(contactId=ended.id) == [outsiders.id]  # ended the day before the booking

    other_plan = plan.__class__.objects.create(organization=organization, name="Silver", price=20)
    gold_only = make_rule(name="Gold", audience="everyone", plan_ids=[plan.id], adjustment_type="amount", value=-1)
    silver_only = make_rule(name="Silver", audience="members", plan_ids=[other_plan.id], value=1)
    assert applied(contactId=member.id) == [members.id, gold_only.id]
    assert silver_only.id not in applied(contactId=member.id)


def test_validity_dates_and_days_are_read_on_the_club_clock(quote, make_rule):
    # Valid through Monday 2030-06-10 (Madrid): the booking crosses midnight into Tuesday.
    make_rule(name="June", valid_until=dt.date(2030, 6, 10), value=40)
    assert prices(quote("2030-06-10 23:30", "2030-06-11 00:30"))[0] == 30.0  # 30 min at 40 + 30 min at 20
    PricingRule.objects.update(valid_until=None, valid_from=dt.date(2030, 6, 11))
    assert prices(quote("2030-06-10 23:30", "2030-06-11 00:30"))[0] == 30.0  # 30 min at 20 + 30 min at 40
    assert prices(quote("2030-06-10 10:00", "2030-06-10 11:00"))[0] == 20.0
    PricingRule.objects.update(valid_from=None, days_of_week=["tuesday"])
    assert prices(quote("2030-06-10 23:00", "2030-06-11 01:00"))[0] == 60.0  # 1 h Monday at 20 + 1 h Tuesday at 40


def test_only_active_rules_of_the_area_club_type_and_sport_apply(quote, make_rule, area, organization):
    other_club = area.club.__class__.objects.create(organization=organization, name="Other", slug="other")
    make_rule(name="Off", is_active=False)
    make_rule(name="Other club", club=other_club)
    make_rule(name="Other area", area_ids=[area.id + 1000])
    make_rule(name="Other type", area_type_ids=[area.area_type_id + 1000])
    make_rule(name="Tennis", sports=["tennis"])
    assert quote("2030-06-10 10:00", "2030-06-10 11:00").json()["appliedRules"] == []
    padel = make_rule(name="Padel here", club=area.club, area_ids=[area.id], area_type_ids=[area.area_type_id],
                      sports=["padel"])  # fmt: skip
    assert [r["id"] for r in quote("2030-06-10 10:00", "2030-06-10 11:00").json()["appliedRules"]] == [padel.id]
    # An explicit sport decides; the area's only sport is the default.
    assert quote("2030-06-10 10:00", "2030-06-10 11:00", sport="tennis").json()["appliedRules"][0]["name"] == "Tennis"


def test_zero_decimal_currency_rounds_to_whole_units(quote, make_rule, organization):
    organization.currency = "JPY"
    organization.save()
    make_rule(value=1000)
    # 25 minutes at 1000/h = 416.67 -> 417; tax 21 % = 87.57 -> 88.
    assert prices(quote("2030-06-10 10:00", "2030-06-10 10:25")) == (417.0, 88.0, 505.0)


def test_the_quote_has_no_side_effects(quote, make_rule):
    make_rule()
    before = PricingRule.objects.values().get()
    assert quote("2030-06-10 10:00", "2030-06-10 11:00").status_code == 200
    assert not Booking.objects.exists() and not DomainEvent.objects.exists()
    assert PricingRule.objects.values().get() == before


@pytest.mark.parametrize(
    "params, field",
    [
        ({"startTime": None}, "startTime"),
        ({"endTime": None}, "endTime"),
        ({"areaId": None}, "areaId"),
        ({"areaId": "x"}, "areaId"),
        ({"areaId": "99999999"}, "areaId"),
        ({"startTime": "2030-06-10T10:00:00"}, "startTime"),  # naive
        ({"startTime": "tomorrow"}, "startTime"),
        ({"endTime": "2030-06-10T07:00:00Z"}, "endTime"),  # before the start
        ({"endTime": "2030-06-10T08:00:00Z"}, "endTime"),  # equal to the start
        ({"endTime": "2030-06-17T08:01:00Z"}, "endTime"),  # more than 7 days
        ({"contactId": "0"}, "contactId"),
        ({"contactId": "99999999"}, "contactId"),
        ({"playerCount": "0"}, "playerCount"),
        ({"playerCount": "5"}, "playerCount"),  # the area type's maxPlayers is 4
        ({"sport": "x" * 61}, "sport"),
    ],
)
def test_bad_input_is_a_400_naming_the_parameter(api, area, params, field):
    query = {"areaId": area.id, "startTime": "2030-06-10T08:00:00Z", "endTime": "2030-06-10T09:00:00Z", **params}
    response = api.get(QUOTE, {k: v for k, v in query.items() if v is not None})
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert field in body["details"]["fields"], body


def test_edges_that_are_accepted(api, area):
    query = {"areaId": area.id, "startTime": "2030-06-10T08:00:00Z", "endTime": "2030-06-17T08:00:00Z"}
    assert api.get(QUOTE, {**query, "playerCount": 4}).status_code == 200  # exactly 7 days, maxPlayers players


def test_ids_of_another_organization_are_400(api, area, other_organization):
    other = Contact.objects.create(organization=other_organization, first_name="Rival")
    query = {"areaId": area.id, "startTime": "2030-06-10T08:00:00Z", "endTime": "2030-06-10T09:00:00Z"}
    response = api.get(QUOTE, {**query, "contactId": other.id})
    assert response.status_code == 400 and "contactId" in response.json()["details"]["fields"]


def test_the_quote_needs_the_read_scope(client_for, area):
    query = {"areaId": area.id, "startTime": madrid("2030-06-10 10:00"), "endTime": madrid("2030-06-10 11:00")}
    assert client_for("pricing-rules:read").get(QUOTE, query).status_code == 200
    denied = client_for("pricing-rules:write").get(QUOTE, query)
    assert denied.status_code == 403
    assert denied.json() == {"error": "Insufficient access scope", "requiredScope": "pricing-rules:read"}


def test_stacked_rules_are_capped_not_a_500(quote, make_rule):
    for _ in range(40):
        make_rule(adjustment_type="percent", value=1000)
    response = quote("2030-06-10 10:00", "2030-06-17 10:00")
    assert prices(response)[0] == 99999999.99 * 168
