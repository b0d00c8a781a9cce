"""Pricing rules through HTTP: create, update, turn off, delete, list filters, and every input rule at its edge."""

import pytest

from apps.billing.models import Plan
from apps.clubs.models import Area, Club
from apps.pricing.models import PricingRule

from .conftest import RULES

pytestmark = pytest.mark.django_db

MINIMAL = {"name": "Peak", "adjustmentType": "percent", "value": 10}


def fields_of(response):
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    return body["details"]["fields"]


def test_create_with_every_field(api, club, area, plan):
    body = {
        "name": "Weekday evenings",
        "clubId": club.id,
        "areaIds": [area.id, area.id],
        "areaTypeIds": [area.area_type_id],
        "sports": ["padel", "padel"],
        "daysOfWeek": ["friday", "monday"],
        "startTime": "18:00",
        "endTime": "24:00",
        "validFrom": "2030-01-01",
        "validUntil": "2030-12-31",
        "audience": "members",
        "planIds": [plan.id],
        "adjustmentType": "set_hourly_rate",
        "value": 32.5,
        "priority": 7,
        "isActive": True,
    }
    response = api.post(RULES, body, format="json")
    assert response.status_code == 201, response.content
    rule = response.json()
    assert response["Location"].endswith(f"/pricing-rules/{rule['id']}")
    assert {k: v for k, v in rule.items() if k not in ("id", "createdAt", "updatedAt")} == {
        **body,
        "areaIds": [area.id],
        "sports": ["padel"],
        "daysOfWeek": ["monday", "friday"],  # Sunday-first order, no repeats
    }
    stored = PricingRule.objects.get(pk=rule["id"])
    assert (stored.start_minute, stored.end_minute, stored.organization_id) == (18 * 60, 24 * 60, club.organization_id)
    assert api.get(f"{RULES}/{rule['id']}").json() == rule


def test_defaults_of_a_minimal_rule(api):
    rule = api.post(RULES, MINIMAL, format="json").json()
    assert rule["clubId"] is None and rule["areaIds"] == [] and rule["planIds"] == []
    assert (rule["startTime"], rule["endTime"], rule["validFrom"], rule["validUntil"]) == (None, None, None, None)
    assert (rule["audience"], rule["priority"], rule["isActive"]) == ("everyone", 0, True)


def test_name_adjustment_type_and_value_are_required(api):
    assert set(fields_of(api.post(RULES, {}, format="json"))) == {"name", "adjustmentType", "value"}


@pytest.mark.parametrize(
    "change, field",
    [
        ({"name": "x" * 121}, "name"),
        ({"name": 5}, "name"),
        ({"value": "10"}, "value"),
        ({"value": True}, "value"),
        ({"adjustmentType": "double"}, "adjustmentType"),
        ({"adjustmentType": "percent", "value": -100.01}, "value"),
        ({"adjustmentType": "percent", "value": 1000.01}, "value"),
        ({"adjustmentType": "set_hourly_rate", "value": -0.01}, "value"),
        ({"value": 0.001}, "value"),
        ({"priority": -1}, "priority"),
        ({"priority": 10001}, "priority"),
        ({"priority": "1"}, "priority"),
        ({"startTime": "18:00"}, "endTime"),
        ({"endTime": "18:00"}, "startTime"),
        ({"startTime": "18:00", "endTime": "18:00"}, "endTime"),
        ({"startTime": "22:00", "endTime": "02:00"}, "endTime"),
        ({"startTime": "18:00", "endTime": "24:01"}, "endTime"),
        ({"startTime": "9:00", "endTime": "10:00"}, "startTime"),
        ({"validFrom": "2030-02-01", "validUntil": "2030-01-31"}, "validUntil"),
        ({"validFrom": "01/02/2030"}, "validFrom"),
        ({"daysOfWeek": ["mon"]}, "daysOfWeek"),
        ({"daysOfWeek": ["monday"] * 8}, "daysOfWeek"),
        ({"sports": ["x" * 61]}, "sports"),
        ({"sports": ["s"] * 51}, "sports"),
        ({"areaIds": list(range(1, 102))}, "areaIds"),
        ({"areaIds": ["1"]}, "areaIds"),
        ({"areaIds": [99999999]}, "areaIds"),
        ({"areaTypeIds": [99999999]}, "areaTypeIds"),
        ({"planIds": [99999999]}, "planIds"),
        ({"clubId": 99999999}, "clubId"),
        ({"audience": "staff"}, "audience"),
        ({"isActive": "false"}, "isActive"),
    ],
)
def test_bad_input_is_a_400_on_the_field(api, change, field):
    fields = fields_of(api.post(RULES, {**MINIMAL, **change}, format="json"))
    assert any(name == field or name.startswith(f"{field}.") for name in fields), fields  # `areaIds.0` names an item
    assert not PricingRule.objects.exists()


@pytest.mark.parametrize(
    "change",
    [
        {"name": "x" * 120},
        {"adjustmentType": "percent", "value": -100},
        {"adjustmentType": "percent", "value": 1000},
        {"adjustmentType": "set_hourly_rate", "value": 0},
        {"adjustmentType": "amount", "value": -99999999.99},
        {"priority": 0},
        {"priority": 10000},
        {"startTime": "00:00", "endTime": "24:00"},
        {"validFrom": "2030-01-31", "validUntil": "2030-01-31"},
        {"sports": ["s"] * 50},
        {"daysOfWeek": ["monday"] * 7},
    ],
)
def test_edges_that_are_accepted(api, change):
    assert api.post(RULES, {**MINIMAL, **change}, format="json").status_code == 201


def test_ids_must_be_the_organization_own(api, organization, other_organization, club, area, plan):
    other_club = Club.objects.create(organization=other_organization, name="Rival", slug="rival")
    other_area = Area.objects.create(organization=other_organization, club=other_club, name="Court")
    other_plan = Plan.objects.create(organization=other_organization, name="Rival plan", price=1)
    fields = fields_of(
        api.post(
            RULES,
            {**MINIMAL, "clubId": other_club.id, "areaIds": [other_area.id], "planIds": [plan.id, other_plan.id]},
            format="json",
        )
    )
    assert set(fields) == {"clubId", "areaIds", "planIds"}
    assert str(other_plan.id) in fields["planIds"][0]
    # An area of another club of the same organization, with `clubId` set.
    second_club = Club.objects.create(organization=organization, name="Second", slug="second")
    second_area = Area.objects.create(organization=organization, club=second_club, name="Court 9")
    assert "areaIds" in fields_of(
        api.post(RULES, {**MINIMAL, "clubId": club.id, "areaIds": [area.id, second_area.id]}, format="json")
    )
    assert api.post(RULES, {**MINIMAL, "areaIds": [area.id, second_area.id]}, format="json").status_code == 201


def test_non_members_cannot_be_narrowed_to_plans(api, plan):
    assert "planIds" in fields_of(
        api.post(RULES, {**MINIMAL, "audience": "non_members", "planIds": [plan.id]}, format="json")
    )


def test_patch_is_checked_against_the_stored_rule(api, make_rule, plan):
    rule = make_rule(start_minute=18 * 60, end_minute=22 * 60, audience="non_members", adjustment_type="percent",
                     value=50)  # fmt: skip
    url = f"{RULES}/{rule.id}"
    assert "endTime" in fields_of(api.patch(url, {"endTime": "17:00"}, format="json"))
    assert "planIds" in fields_of(api.patch(url, {"planIds": [plan.id]}, format="json"))
    assert "value" in fields_of(api.patch(url, {"value": 1001}, format="json"))
    assert "value" in fields_of(api.patch(url, {"adjustmentType": "set_hourly_rate", "value": -1}, format="json"))
    rule.refresh_from_db()
    assert (rule.end_minute, rule.plan_ids, rule.value) == (22 * 60, [], 50)

    response = api.patch(url, {"startTime": None, "endTime": None, "name": "All day", "audience": "members"},
                         format="json")  # fmt: skip
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["startTime"], body["endTime"], body["name"], body["audience"]) == (None, None, "All day", "members")
    assert body["value"] == 50.0 and body["adjustmentType"] == "percent"  # omitted fields stay unchanged


def test_turning_a_rule_off_removes_it_from_the_quote(api, make_rule, quote):
    rule = make_rule(value=40)
    assert quote("2030-06-10 10:00", "2030-06-10 11:00").json()["priceBeforeTax"] == 40.0
    assert api.patch(f"{RULES}/{rule.id}", {"isActive": False}, format="json").json()["isActive"] is False
    assert quote("2030-06-10 10:00", "2030-06-10 11:00").json()["priceBeforeTax"] == 20.0


def test_delete(api, make_rule, other_organization):
    rule = make_rule()
    response = api.delete(f"{RULES}/{rule.id}")
    assert response.status_code == 204 and not response.content
    assert not PricingRule.objects.filter(pk=rule.id).exists()
    assert api.delete(f"{RULES}/{rule.id}").status_code == 404
    foreign = PricingRule.objects.create(organization=other_organization, name="X", adjustment_type="amount", value=1)
    assert api.delete(f"{RULES}/{foreign.id}").status_code == 404
    assert api.patch(f"{RULES}/{foreign.id}", {"name": "Mine"}, format="json").status_code == 404
    assert PricingRule.objects.get(pk=foreign.id).name == "X"


def test_list_filters_and_ordering(api, make_rule, club, area, other_organization):
    first = make_rule(name="A", club=club, area_ids=[area.id], priority=5)
    second = make_rule(name="B", priority=1, is_active=False)
    third = make_rule(name="C", priority=3)
    PricingRule.objects.create(organization=other_organization, name="Foreign", adjustment_type="amount", value=1)

    def ids(**params):
        response = api.get(RULES, params)
        assert response.status_code == 200, response.content
        return [row["id"] for row in response.json()["data"]]

    assert ids() == [third.id, second.id, first.id]  # newest first
    assert ids(ordering="priority") == [second.id, third.id, first.id]
    assert ids(ordering="-priority") == [first.id, third.id, second.id]
    assert ids(clubId=club.id) == [first.id]
    assert ids(areaId=area.id) == [first.id]
    assert ids(isActive="false") == [second.id]
    assert api.get(RULES).json()["total"] == 3
    for bad in ({"clubId": "x"}, {"areaId": "1.5"}, {"isActive": "yes"}, {"ordering": "name"}):
        assert set(fields_of(api.get(RULES, bad))) == set(bad)


def test_writes_need_the_write_scope(client_for, make_rule):
    rule = make_rule()
    reader = client_for("pricing-rules:read")
    for response in (
        reader.post(RULES, MINIMAL, format="json"),
        reader.patch(f"{RULES}/{rule.id}", {"name": "N"}, format="json"),
        reader.delete(f"{RULES}/{rule.id}"),
    ):
        assert response.status_code == 403
        assert response.json() == {"error": "Insufficient access scope", "requiredScope": "pricing-rules:write"}
    assert PricingRule.objects.get(pk=rule.id).name == "Rule"
