"""Revenue accounts through the HTTP API: the any-of read scopes, exactly one default, and the default Sales account
every organization starts with."""

import importlib
from functools import partial

import pytest
from django.apps import apps as django_apps

from apps.billing.models import RevenueAccount
from apps.organizations.models import Organization
from tests.concurrency import race

URL = "/v1/platform/revenue-accounts"


@pytest.fixture
def sales(organization):
    return RevenueAccount.objects.get(organization=organization, is_default=True)


def test_a_new_organization_starts_with_a_default_sales_account(api, organization):
    body = api.get(URL).json()
    assert body["total"] == 1
    account = body["data"][0]
    assert account == {
        "id": account["id"],
        "name": "Sales",
        "code": None,
        "description": None,
        "isDefault": True,
        "isActive": True,
        "createdAt": account["createdAt"],
        "updatedAt": account["updatedAt"],
    }
    fresh = Organization.objects.create(name="New Gym", slug="new-gym")
    assert list(RevenueAccount.objects.filter(organization=fresh).values_list("name", "is_default")) == [
        ("Sales", True)
    ]


@pytest.mark.parametrize("scope", ["plans:read", "products:read", "transactions:read"])
def test_reading_needs_any_of_three_scopes(client_for, sales, scope):
    client = client_for(scope)
    assert client.get(URL).status_code == 200
    assert client.get(f"{URL}/{sales.id}").json()["id"] == sales.id


def test_reading_without_any_of_them_names_the_any_of_rule(client_for):
    response = client_for("plans:write products:write transactions:write revenue-accounts:write").get(URL)
    assert response.status_code == 403
    assert response.json() == {
        "error": "Insufficient access scope",
        "requiredScope": "plans:read",
        "anyOf": ["plans:read", "products:read", "transactions:read"],
    }


def test_writing_needs_revenue_accounts_write(client_for):
    response = client_for("plans:read plans:write transactions:write").post(URL, {"name": "Shop"}, format="json")
    assert response.status_code == 403
    assert response.json() == {"error": "Insufficient access scope", "requiredScope": "revenue-accounts:write"}
    assert client_for("revenue-accounts:write").post(URL, {"name": "Shop"}, format="json").status_code == 201


def test_create_with_is_default_moves_the_default(api, organization, sales):
    response = api.post(URL, {"name": "Memberships", "code": "4100", "isDefault": True}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["isDefault"] is True and body["code"] == "4100"
    assert response["Location"] == f"{URL}/{body['id']}"
    sales.refresh_from_db()
    assert sales.is_default is False
    assert list(
        RevenueAccount.objects.filter(organization=organization, is_default=True).values_list("id", flat=True)
    ) == [body["id"]]


def test_patch_is_default_switches_and_then_the_old_one_can_be_deactivated(api, organization, sales):
    other = RevenueAccount.objects.create(organization=organization, name="Shop")
    response = api.patch(f"{URL}/{other.id}", {"isDefault": True}, format="json")
    assert response.status_code == 200 and response.json()["isDefault"] is True
    assert api.get(f"{URL}/{sales.id}").json()["isDefault"] is False
    deactivated = api.patch(f"{URL}/{sales.id}", {"isActive": False}, format="json")
    assert deactivated.status_code == 200 and deactivated.json()["isActive"] is False
    assert api.get(f"{URL}?isActive=false").json()["total"] == 1
    assert api.get(f"{URL}?isActive=true").json()["data"][0]["id"] == other.id


def test_the_default_cannot_be_deactivated(api, sales):
    response = api.patch(f"{URL}/{sales.id}", {"isActive": False, "name": "Renamed"}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "CONFLICT"
    sales.refresh_from_db()
    assert sales.is_active is True and sales.name == "Sales"


def test_the_default_cannot_be_unset_without_a_replacement(api, sales):
    response = api.patch(f"{URL}/{sales.id}", {"isDefault": False}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "CONFLICT"
    assert RevenueAccount.objects.get(pk=sales.pk).is_default is True


def test_an_inactive_new_default_is_refused(api, organization, sales):
    response = api.post(URL, {"name": "X", "isDefault": True, "isActive": False}, format="json")
    assert response.status_code == 409
    assert RevenueAccount.objects.filter(organization=organization).count() == 1


def test_editing_the_default_keeps_it_default(api, sales):
    response = api.patch(f"{URL}/{sales.id}", {"name": "Front desk sales", "description": "All sales"}, format="json")
    assert response.status_code == 200
    assert response.json()["isDefault"] is True and response.json()["name"] == "Front desk sales"


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "x" * 121}, "name"),
        ({"name": "X", "isDefault": "yes"}, "isDefault"),
        ({"name": "X", "code": "c" * 41}, "code"),
    ],
)
def test_bad_input_is_400(api, body, field):
    response = api.post(URL, body, format="json")
    assert response.status_code == 400
    assert field in response.json()["details"]["fields"]


def test_no_delete(api, sales):
    assert api.delete(f"{URL}/{sales.id}").status_code == 405
    assert RevenueAccount.objects.filter(pk=sales.pk).exists()


def test_other_organization_account_is_404(api, other_organization):
    theirs = RevenueAccount.objects.get(organization=other_organization)
    assert api.get(f"{URL}/{theirs.id}").status_code == 404
    assert api.patch(f"{URL}/{theirs.id}", {"isDefault": True}, format="json").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_concurrent_switches_leave_exactly_one_default(client_for, organization):
    first = RevenueAccount.objects.create(organization=organization, name="A")
    second = RevenueAccount.objects.create(organization=organization, name="B")
    clients = [client_for("revenue-accounts:write") for _ in range(2)]
    calls = [
        partial(client.patch, f"{URL}/{pk}", {"isDefault": True}, format="json")
        for client, pk in zip(clients, (first.id, second.id), strict=True)
    ]
    assert [response.status_code for response in race(calls)] == [200, 200]
    assert RevenueAccount.objects.filter(organization=organization, is_default=True).count() == 1


def test_the_data_migration_gives_existing_organizations_a_default(organization, other_organization):
    migration = importlib.import_module("apps.billing.migrations.0006_default_sales_accounts")
    RevenueAccount.objects.filter(organization=organization).delete()
    kept = RevenueAccount.objects.get(organization=other_organization)
    migration.create_default_accounts(django_apps, None)
    created = RevenueAccount.objects.get(organization=organization)
    assert (created.name, created.is_default, created.is_active) == ("Sales", True, True)
    assert list(RevenueAccount.objects.filter(organization=other_organization)) == [kept]


def test_an_inactive_account_becomes_default_only_when_reactivated_with_it(api, organization, sales):
    old = RevenueAccount.objects.create(organization=organization, name="Old", is_active=False)
    refused = api.patch(f"{URL}/{old.id}", {"isDefault": True}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "CONFLICT"
    assert RevenueAccount.objects.get(pk=sales.pk).is_default is True
    switched = api.patch(f"{URL}/{old.id}", {"isDefault": True, "isActive": True}, format="json")
    assert switched.status_code == 200 and switched.json()["isDefault"] is True
    assert RevenueAccount.objects.get(pk=sales.pk).is_default is False
