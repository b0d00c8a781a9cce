"""Plans through the HTTP API: every field of the spec's Plan body at its edges, categories, filters, `locale`,
retire and delete, and the `plan.*` events."""

import datetime as dt
from decimal import Decimal

import pytest

from apps.billing.models import Plan, PlanCategory, RevenueAccount
from apps.billing.revenue_accounts import revenue_account_for_plan
from apps.classes.models import ClassType
from apps.clubs.models import AreaType
from apps.domain_events.models import DomainEvent
from apps.instructors.models import InstructorType
from apps.memberships.models import Membership

URL = "/v1/platform/plans"
CATEGORIES = "/v1/platform/plan-categories"


@pytest.fixture
def category(organization):
    return PlanCategory.objects.create(organization=organization, name="Passes", translations={"es": {"name": "Bonos"}})


@pytest.fixture
def plan(organization):
    return Plan.objects.create(organization=organization, name="Monthly", price=Decimal("49.00"))


def create(api, **fields):
    return api.post(URL, {"name": "Gold", "price": 59.9, **fields}, format="json")


def field_errors(response):
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    return response.json()["details"]["fields"]


def test_create_minimal_plan_presents_every_field(api, organization):
    response = create(api)
    assert response.status_code == 201, response.content
    body = response.json()
    plan = Plan.objects.get(organization=organization)
    assert response["Location"] == f"{URL}/{plan.id}"
    assert body == {
        "id": plan.id,
        "name": "Gold",
        "description": None,
        "clubId": None,
        "planCategoryId": None,
        "planCategory": None,
        "revenueAccountId": None,
        "price": 59.9,
        "signupFee": 0.0,
        "billingFrequency": "monthly",
        "customPeriod": None,
        "customPeriodUnit": None,
        "isActive": True,
        "maxUses": None,
        "sessionUnit": None,
        "validityPeriod": None,
        "autoRenews": False,
        "renewalDaysInAdvance": 0,
        "requirePaymentUpfront": False,
        "sports": [],
        "features": [],
        "visibility": "Public",
        "validFor": {"scopes": [], "classTypes": [], "areaTypes": [], "instructorTypes": []},
        "retiredAt": None,
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    assert plan.price == Decimal("59.90") and plan.revenue_account_id is None
    assert api.get(f"{URL}/{plan.id}").json() == body
    event = DomainEvent.objects.get(type="plan.created")
    assert event.data["id"] == plan.id and event.data["name"] == "Gold"


def test_create_with_every_field(api, organization, club, category, area_type):
    class_type = ClassType.objects.create(organization=organization, name="Yoga")
    instructor_type = InstructorType.objects.create(organization=organization, name="Coach")
    account = RevenueAccount.objects.create(organization=organization, name="Passes", code="4200")
    response = create(
        api,
        description="Ten sessions",
        clubId=club.id,
        planCategoryId=category.id,
        revenueAccountId=account.id,
        signupFee=10,
        billingFrequency="custom",
        customPeriod=2,
        customPeriodUnit="weeks",
        isActive=True,
        maxUses=10,
        sessionUnit="hour",
        validityPeriod=90,
        autoRenews=True,
        renewalDaysInAdvance=7,
        requirePaymentUpfront=True,
        sports=["padel", "yoga"],
        features=["Towel", "Locker"],
        visibility="Member_only",
        validFor={
            "scopes": ["classes", "areas", "instructors"],
            "classTypes": [class_type.id],
            "areaTypes": [area_type.id],
            "instructorTypes": [instructor_type.id],
        },
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["planCategory"] == {"id": category.id, "name": "Passes"}
    assert body["revenueAccountId"] == account.id and body["clubId"] == club.id
    assert (body["billingFrequency"], body["customPeriod"], body["customPeriodUnit"]) == ("custom", 2, "weeks")
    assert (body["maxUses"], body["sessionUnit"], body["validityPeriod"]) == (10, "hour", 90)
    assert body["autoRenews"] is True and body["renewalDaysInAdvance"] == 7 and body["requirePaymentUpfront"] is True
    assert body["signupFee"] == 10.0 and body["visibility"] == "Member_only"
    assert body["validFor"] == {
        "scopes": ["classes", "areas", "instructors"],
        "classTypes": [class_type.id],
        "areaTypes": [area_type.id],
        "instructorTypes": [instructor_type.id],
    }
    plan = Plan.objects.get(pk=body["id"])
    assert revenue_account_for_plan(plan) == account


def test_name_and_price_are_required(api):
    assert set(field_errors(api.post(URL, {}, format="json"))) == {"name", "price"}


@pytest.mark.parametrize(
    "fields, ok",
    [
        ({"name": "x" * 120}, True),
        ({"name": "x" * 121}, False),
        ({"description": "d" * 5000}, True),
        ({"description": "d" * 5001}, False),
        ({"renewalDaysInAdvance": 0}, True),
        ({"renewalDaysInAdvance": 60}, True),
        ({"renewalDaysInAdvance": 61}, False),
        ({"renewalDaysInAdvance": -1}, False),
        ({"sports": [f"s{i}" for i in range(50)]}, True),
        ({"sports": [f"s{i}" for i in range(51)]}, False),
        ({"features": [f"f{i}" for i in range(100)]}, True),
        ({"features": [f"f{i}" for i in range(101)]}, False),
        ({"price": 0}, True),
        ({"price": -0.01}, False),
        ({"signupFee": -1}, False),
        ({"maxUses": 0}, True),
        ({"maxUses": -1}, False),
        ({"validityPeriod": 1}, True),
        ({"validityPeriod": 0}, False),
        ({"billingFrequency": "custom", "customPeriod": 1, "customPeriodUnit": "days"}, True),
        ({"billingFrequency": "custom", "customPeriod": 0, "customPeriodUnit": "days"}, False),
        ({"billingFrequency": "custom", "customPeriod": 1, "customPeriodUnit": "years"}, False),
        ({"billingFrequency": "fortnightly"}, False),
        ({"sessionUnit": "minute"}, False),
        ({"visibility": "public"}, False),
        ({"price": "12.50"}, False),
        ({"isActive": "true"}, False),
        ({"sports": "padel"}, False),
        ({"validFor": {"scopes": ["gyms"]}}, False),
        ({"validFor": ["classes"]}, False),
    ],
)
def test_plan_body_limits_at_their_edges(api, fields, ok):
    response = create(api, **fields)
    if ok:
        assert response.status_code == 201, response.content
    else:
        errors = field_errors(response)
        assert {key.split(".")[0] for key in errors} <= set(fields), errors


def test_custom_frequency_needs_its_period(api):
    errors = field_errors(create(api, billingFrequency="custom"))
    assert set(errors) == {"customPeriod", "customPeriodUnit"}
    errors = field_errors(create(api, billingFrequency="monthly", customPeriod=3))
    assert set(errors) == {"customPeriod"}


def test_patch_away_from_custom_clears_the_period(api, organization):
    plan_id = create(api, billingFrequency="custom", customPeriod=3, customPeriodUnit="months").json()["id"]
    assert field_errors(api.patch(f"{URL}/{plan_id}", {"customPeriod": None}, format="json")) == {
        "customPeriod": ["Required when `billingFrequency` is `custom`."]
    }
    body = api.patch(f"{URL}/{plan_id}", {"billingFrequency": "annually"}, format="json").json()
    assert (body["billingFrequency"], body["customPeriod"], body["customPeriodUnit"]) == ("annually", None, None)


def test_valid_for_type_ids_must_be_the_organizations_own(api, organization, other_organization):
    theirs = ClassType.objects.create(organization=other_organization, name="Theirs")
    their_area_type = AreaType.objects.create(organization=other_organization, name="Court")
    ours = ClassType.objects.create(organization=organization, name="Ours")
    errors = field_errors(
        create(
            api, validFor={"scopes": ["classes"], "classTypes": [ours.id, theirs.id], "areaTypes": [their_area_type.id]}
        )
    )
    assert errors == {
        "validFor.classTypes": [f"No object with id {theirs.id} exists in this organization."],
        "validFor.areaTypes": [f"No object with id {their_area_type.id} exists in this organization."],
    }
    assert Plan.objects.count() == 0


def test_ids_of_another_organization_in_the_body_are_400(api, other_organization):
    their_account = RevenueAccount.objects.get(organization=other_organization)
    their_category = PlanCategory.objects.create(organization=other_organization, name="X")
    errors = field_errors(create(api, revenueAccountId=their_account.id, planCategoryId=their_category.id))
    assert set(errors) == {"revenueAccountId", "planCategoryId"}


def test_an_inactive_revenue_account_cannot_be_assigned(api, organization):
    inactive = RevenueAccount.objects.create(organization=organization, name="Old", is_active=False)
    assert set(field_errors(create(api, revenueAccountId=inactive.id))) == {"revenueAccountId"}


def test_omitted_revenue_account_resolves_to_the_default_at_sale_time(api, organization):
    plan_id = create(api).json()["id"]
    plan = Plan.objects.get(pk=plan_id)
    assert revenue_account_for_plan(plan).name == "Sales"
    newer = api.post("/v1/platform/revenue-accounts", {"name": "Memberships", "isDefault": True}, format="json")
    assert revenue_account_for_plan(plan).id == newer.json()["id"]
    assert api.get(f"{URL}/{plan_id}").json()["revenueAccountId"] is None


def test_patch_plan_category_null_removes_it_from_every_category(api, plan, category):
    body = api.patch(f"{URL}/{plan.id}", {"planCategoryId": category.id}, format="json").json()
    assert body["planCategoryId"] == category.id
    body = api.patch(f"{URL}/{plan.id}", {"planCategoryId": None}, format="json").json()
    assert body["planCategoryId"] is None and body["planCategory"] is None
    assert api.get(f"{URL}?planCategoryId={category.id}").json()["total"] == 0


def test_patch_replaces_lists_and_emits_updated_with_changed_fields(api, plan):
    response = api.patch(f"{URL}/{plan.id}", {"sports": ["padel"], "price": 55}, format="json")
    assert response.status_code == 200
    assert response.json()["sports"] == ["padel"] and response.json()["price"] == 55.0
    event = DomainEvent.objects.get(type="plan.updated")
    assert set(event.changed_fields) == {"sports", "price"}
    assert api.patch(f"{URL}/{plan.id}", {}, format="json").status_code == 200
    assert DomainEvent.objects.filter(type="plan.updated").count() == 1


def test_patch_limits_are_the_same(api, plan):
    assert set(field_errors(api.patch(f"{URL}/{plan.id}", {"name": "x" * 121}, format="json"))) == {"name"}
    assert set(field_errors(api.patch(f"{URL}/{plan.id}", {"name": None}, format="json"))) == {"name"}
    assert set(field_errors(api.patch(f"{URL}/{plan.id}", {"renewalDaysInAdvance": 61}, format="json"))) == {
        "renewalDaysInAdvance"
    }
    assert (
        api.patch(f"{URL}/{plan.id}", {"renewalDaysInAdvance": 60}, format="json").json()["renewalDaysInAdvance"] == 60
    )


def test_filters_and_search(api, organization, club, category):
    Plan.objects.create(organization=organization, name="Yoga pass", price=1, club=club, plan_category=category)
    Plan.objects.create(
        organization=organization, name="Gold", price=2, billing_frequency="annually", visibility="Private"
    )
    Plan.objects.create(organization=organization, name="Old", price=3, is_active=False, description="legacy yoga")

    def names(query):
        response = api.get(f"{URL}?{query}")
        assert response.status_code == 200, response.content
        return sorted(item["name"] for item in response.json()["data"])

    assert names(f"clubId={club.id}") == ["Yoga pass"]
    assert names(f"planCategoryId={category.id}") == ["Yoga pass"]
    assert names("isActive=false") == ["Old"]
    assert names("visibility=Private") == ["Gold"]
    assert names("visibility=Public,Private") == ["Gold", "Old", "Yoga pass"]
    assert names("billingFrequency=annually") == ["Gold"]
    assert names("q=YOGA") == ["Old", "Yoga pass"]
    assert [item["name"] for item in api.get(f"{URL}?ordering=name").json()["data"]] == ["Gold", "Old", "Yoga pass"]
    for bad in ("clubId=x", "isActive=yes", "visibility=public", "billingFrequency=daily", "ordering=color"):
        assert api.get(f"{URL}?{bad}").status_code == 400, bad


def test_locale_resolves_names_with_fallback(api, organization, category):
    plan = Plan.objects.create(
        organization=organization,
        name="Monthly",
        description="Every month",
        price=1,
        plan_category=category,
        translations={"es": {"name": "Mensual", "description": "Cada mes"}},
    )
    body = api.get(f"{URL}/{plan.id}?locale=es").json()
    assert (body["name"], body["description"], body["planCategory"]["name"]) == ("Mensual", "Cada mes", "Bonos")
    assert api.get(f"{URL}/{plan.id}?locale=fr").json()["name"] == "Monthly"
    assert api.get(f"{URL}?locale=es").json()["data"][0]["name"] == "Mensual"
    listed = api.get(f"{CATEGORIES}?locale=es").json()["data"][0]
    assert listed["name"] == "Bonos" and listed["translations"] == {"es": {"name": "Bonos"}}


def test_retire_stops_sales_keeps_memberships_and_patch_reactivates(api, organization, plan, contact):
    membership = Membership.objects.create(
        organization=organization, contact=contact, plan=plan, start_date=dt.date(2026, 1, 1)
    )
    response = api.post(f"{URL}/{plan.id}/retire")
    assert response.status_code == 200
    body = response.json()
    assert body["isActive"] is False and body["retiredAt"].endswith("Z")
    membership.refresh_from_db()
    assert membership.status == "active"
    assert DomainEvent.objects.filter(type="plan.retired").count() == 1

    again = api.post(f"{URL}/{plan.id}/retire")
    assert again.status_code == 409
    assert again.json()["code"] == "INVALID_STATE_TRANSITION"
    assert again.json()["details"] == {"currentStatus": "retired"}

    reactivated = api.patch(f"{URL}/{plan.id}", {"isActive": True}, format="json").json()
    assert reactivated["isActive"] is True and reactivated["retiredAt"] is None


def test_delete_is_refused_while_a_membership_references_the_plan(api, organization, plan, contact):
    Membership.objects.create(
        organization=organization, contact=contact, plan=plan, start_date=dt.date(2026, 1, 1), status="cancelled"
    )
    response = api.delete(f"{URL}/{plan.id}")
    assert response.status_code == 409
    assert response.json()["code"] == "RESOURCE_IN_USE"
    assert response.json()["details"] == {"references": {"memberships": 1}}
    assert Plan.objects.filter(pk=plan.pk).exists()
    assert not DomainEvent.objects.filter(type="plan.deleted").exists()


def test_delete_an_unused_plan(api, plan):
    assert api.delete(f"{URL}/{plan.id}").status_code == 204
    assert not Plan.objects.filter(pk=plan.pk).exists()
    event = DomainEvent.objects.get(type="plan.deleted")
    assert event.data["id"] == plan.id
    assert api.get(f"{URL}/{plan.id}").status_code == 404


def test_category_crud_and_delete_leaves_plans_without_category(api, organization):
    response = api.post(CATEGORIES, {"name": "Memberships", "description": "Monthly", "position": 2}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body == {
        "id": body["id"],
        "name": "Memberships",
        "description": "Monthly",
        "position": 2,
        "translations": {},
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    assert api.patch(f"{CATEGORIES}/{body['id']}", {"name": "Members"}, format="json").json()["name"] == "Members"
    plan = Plan.objects.create(organization=organization, name="P", price=1, plan_category_id=body["id"])
    assert api.delete(f"{CATEGORIES}/{body['id']}").status_code == 204
    plan.refresh_from_db()
    assert plan.plan_category_id is None
    assert set(field_errors(api.post(CATEGORIES, {"name": "x" * 121}, format="json"))) == {"name"}
    assert set(field_errors(api.post(CATEGORIES, {"position": -1, "name": "A"}, format="json"))) == {"position"}


def test_plans_scopes(client_for, plan):
    reader = client_for("plans:read")
    assert reader.get(URL).status_code == 200
    assert reader.post(URL, {"name": "X", "price": 1}, format="json").status_code == 403
    assert reader.post(f"{URL}/{plan.id}/retire").status_code == 403
    assert reader.delete(f"{URL}/{plan.id}").status_code == 403
    writer = client_for("plans:write")
    assert writer.get(URL).status_code == 403
    assert writer.post(f"{URL}/{plan.id}/retire").status_code == 200
