"""Instructor types and pay-rate policies through the HTTP API."""

import pytest

from apps.instructors.models import InstructorType, PayRatePolicy

TYPES = "/v1/platform/instructor-types"
POLICIES = "/v1/platform/pay-rate-policies"


def test_instructor_type_crud(api, organization):
    response = api.post(TYPES, {"name": "Personal trainer", "description": "1:1 sessions"}, format="json")
    assert response.status_code == 201, response.content
    itype = InstructorType.objects.get(organization=organization)
    assert response.json() == {"id": itype.id, "name": "Personal trainer", "description": "1:1 sessions"}
    assert response["Location"] == f"{TYPES}/{itype.id}"

    assert api.get(f"{TYPES}/{itype.id}").json() == response.json()
    listed = api.get(TYPES).json()
    assert listed == {"data": [response.json()], "total": 1, "limit": 50, "offset": 0}

    patched = api.patch(f"{TYPES}/{itype.id}", {"description": None}, format="json")
    assert patched.status_code == 200
    assert patched.json() == {"id": itype.id, "name": "Personal trainer", "description": None}


def test_instructor_type_requires_name(api):
    response = api.post(TYPES, {"description": "x"}, format="json")
    assert response.status_code == 400
    assert "name" in response.json()["details"]["fields"]
    assert api.patch(f"{TYPES}/1", {"name": ""}, format="json").status_code in (400, 404)


def test_instructor_type_has_no_delete(api, organization):
    itype = InstructorType.objects.create(organization=organization, name="Coach")
    response = api.delete(f"{TYPES}/{itype.id}")
    assert response.status_code == 405
    assert InstructorType.objects.filter(pk=itype.pk).exists()


def test_pay_rate_policy_crud(api, organization):
    response = api.post(POLICIES, {"name": "Per class", "rateType": "per_class", "amount": 35.5}, format="json")
    assert response.status_code == 201, response.content
    policy = PayRatePolicy.objects.get(organization=organization)
    body = response.json()
    assert body == {
        "id": policy.id,
        "name": "Per class",
        "rateType": "per_class",
        "amount": 35.5,
        "isActive": True,
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    assert response["Location"] == f"{POLICIES}/{policy.id}"
    assert api.get(f"{POLICIES}/{policy.id}").json() == body

    patched = api.patch(f"{POLICIES}/{policy.id}", {"isActive": False, "rateType": "per_attendee"}, format="json")
    assert patched.status_code == 200
    assert patched.json()["isActive"] is False and patched.json()["rateType"] == "per_attendee"
    assert patched.json()["amount"] == 35.5

    assert api.get(f"{POLICIES}?isActive=true").json()["total"] == 0
    assert api.get(f"{POLICIES}?isActive=false").json()["total"] == 1


@pytest.mark.parametrize(
    "body, fields",
    [
        ({}, {"name", "rateType", "amount"}),
        ({"name": "X", "rateType": "monthly", "amount": 1}, {"rateType"}),
        ({"name": "X", "rateType": "hourly", "amount": -1}, {"amount"}),
        ({"name": "X", "rateType": "hourly", "amount": None}, {"amount"}),
    ],
)
def test_pay_rate_policy_validation(api, body, fields):
    response = api.post(POLICIES, body, format="json")
    assert response.status_code == 400
    assert set(response.json()["details"]["fields"]) == fields


def test_pay_rate_policy_other_organization_is_404(api, other_organization):
    policy = PayRatePolicy.objects.create(organization=other_organization, name="X", rate_type="hourly", amount=1)
    assert api.patch(f"{POLICIES}/{policy.id}", {"name": "Y"}, format="json").status_code == 404
    assert api.get(POLICIES).json()["total"] == 0
