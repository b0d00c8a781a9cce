"""Instructors through the HTTP API: what a caller sees, and what is written."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from apps.clubs.models import Club
from apps.contacts.models import Contact
from apps.domain_events.models import DomainEvent
from apps.instructors.models import Instructor, InstructorType, PayRatePolicy
from apps.organizations.models import StaffMembership
from tests.factories import make_instructor

URL = "/v1/platform/instructors"

MONDAY = {"dayOfWeek": "monday", "startTime": "09:00", "endTime": "13:00", "clubId": None}


@pytest.fixture
def coach_type(organization):
    return InstructorType.objects.create(organization=organization, name="Coach", description="Group classes")


@pytest.fixture
def policy(organization):
    return PayRatePolicy.objects.create(organization=organization, name="Hourly", rate_type="hourly", amount="25.00")


@pytest.fixture
def instructor(organization, contact, coach_type, club):
    return Instructor.objects.create(
        organization=organization,
        contact=contact,
        type=coach_type,
        sports=["padel", "yoga"],
        experience="10 years",
        hourly_rate="30.50",
        bio={"blocks": [{"type": "paragraph", "data": {"text": "Hi"}}]},
        certifications=["RYT-200"],
        weekly_availability=[
            {"dayOfWeek": "monday", "startTime": "09:00", "endTime": "13:00", "clubId": club.id},
            {"dayOfWeek": "friday", "startTime": "17:00", "endTime": "21:00", "clubId": None},
        ],
    )


def test_list_includes_weekly_availability(api, instructor, contact, coach_type, club):
    response = api.get(URL)
    assert response.status_code == 200
    body = response.json()
    assert body["total"] == 1 and body["limit"] == 50 and body["offset"] == 0
    row = body["data"][0]
    assert row == {
        "id": instructor.id,
        "contactId": contact.id,
        "sports": ["padel", "yoga"],
        "typeId": coach_type.id,
        "type": {"id": coach_type.id, "name": "Coach"},
        "experience": "10 years",
        "hourlyRate": 30.5,
        "bio": {"blocks": [{"type": "paragraph", "data": {"text": "Hi"}}]},
        "certifications": ["RYT-200"],
        "isActive": True,
        "isBookable": True,
        "contact": {"name": "Ana Lopez", "profileImage": None},
        "weeklyAvailability": [
            {"dayOfWeek": "monday", "startTime": "09:00", "endTime": "13:00", "clubId": club.id},
            {"dayOfWeek": "friday", "startTime": "17:00", "endTime": "21:00", "clubId": None},
        ],
        "payRatePolicyId": None,
        "createdAt": row["createdAt"],
        "updatedAt": row["updatedAt"],
    }
    assert row["createdAt"].endswith("Z")


def test_get_one(api, instructor):
    response = api.get(f"{URL}/{instructor.id}")
    assert response.status_code == 200
    assert response.json()["id"] == instructor.id
    assert response.json()["weeklyAvailability"][0]["dayOfWeek"] == "monday"


def test_get_unknown_is_404(api):
    assert api.get(f"{URL}/999999").json()["code"] == "NOT_FOUND"


def test_list_filters(api, organization, coach_type):
    yogi = make_instructor(organization, "Maya", "Sol", sports=["yoga"], type=coach_type)
    padel = make_instructor(organization, "Pablo", "Ruiz", sports=["padel"], is_bookable=False)
    retired = make_instructor(organization, "Olga", "Ruiz", sports=["padel"], is_active=False)

    def ids(query):
        response = api.get(f"{URL}?{query}")
        assert response.status_code == 200, response.content
        return {row["id"] for row in response.json()["data"]}

    assert ids("isActive=true") == {yogi.id, padel.id}
    assert ids("isActive=false") == {retired.id}
    assert ids("isBookable=false") == {padel.id}
    assert ids(f"typeId={coach_type.id}") == {yogi.id}
    assert ids("sport=padel") == {padel.id, retired.id}
    assert ids("q=ruiz") == {padel.id, retired.id}
    assert ids("q=pablo%20ruiz") == {padel.id}
    assert ids("unknownParam=1") == {yogi.id, padel.id, retired.id}


@pytest.mark.parametrize("query", ["isActive=yes", "typeId=abc", "ordering=salary", "limit=0"])
def test_list_bad_filter_values(api, query):
    response = api.get(f"{URL}?{query}")
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"


def test_list_other_organization_hidden(api, other_organization):
    make_instructor(other_organization, "Foreign")
    assert api.get(URL).json()["total"] == 0


def test_create_from_existing_contact(
    api, organization, contact, coach_type, policy, club, django_capture_on_commit_callbacks
):
    users_before = get_user_model().objects.count()
    body = {
        "contactId": contact.id,
        "sports": ["yoga"],
        "typeId": coach_type.id,
        "payRatePolicyId": policy.id,
        "experience": "5 years",
        "hourlyRate": 22.5,
        "bio": {"blocks": []},
        "certifications": ["CPR"],
        "isBookable": False,
        "weeklyAvailability": [
            {"dayOfWeek": "wednesday", "startTime": "18:00", "endTime": "20:00", "clubId": club.id},
            {"dayOfWeek": "monday", "startTime": "09:00", "endTime": "13:00"},
        ],
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(URL, body, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    instructor = Instructor.objects.get(contact=contact)
    assert response["Location"] == f"/v1/platform/instructors/{instructor.id}"
    assert data["id"] == instructor.id
    assert data["contactId"] == contact.id
    assert data["type"] == {"id": coach_type.id, "name": "Coach"}
    assert data["payRatePolicyId"] == policy.id
    assert data["hourlyRate"] == 22.5
    assert data["isActive"] is True and data["isBookable"] is False
    assert data["weeklyAvailability"] == [
        {"dayOfWeek": "monday", "startTime": "09:00", "endTime": "13:00", "clubId": None},
        {"dayOfWeek": "wednesday", "startTime": "18:00", "endTime": "20:00", "clubId": club.id},
    ]
    # An instructor is not staff: no login, no invitation.
    assert get_user_model().objects.count() == users_before
    assert not StaffMembership.objects.exists()
    assert mail.outbox == []
    event = DomainEvent.objects.get(type="instructor.created")
    assert event.organization_id == organization.id
    assert event.data == data
    assert event.changed_fields is None


def test_create_with_new_contact(api, organization, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            URL,
            {"contact": {"firstName": "Zoe", "lastName": "Park", "email": "zoe@example.com", "phone": "+34 600"}},
            format="json",
        )
    assert response.status_code == 201, response.content
    contact = Contact.objects.get(email="zoe@example.com")
    assert contact.organization == organization
    assert (contact.first_name, contact.last_name, contact.phone) == ("Zoe", "Park", "+34 600")
    data = response.json()
    assert data["contactId"] == contact.id
    assert data["contact"] == {"name": "Zoe Park", "profileImage": None}
    assert data["sports"] == [] and data["certifications"] == [] and data["weeklyAvailability"] == []
    assert data["typeId"] is None and data["type"] is None and data["hourlyRate"] is None
    assert mail.outbox == []
    assert sorted(DomainEvent.objects.values_list("type", flat=True)) == ["contact.created", "instructor.created"]


def test_create_with_new_contact_whose_email_exists(api, contact):
    response = api.post(URL, {"contact": {"firstName": "Ana", "email": "ANA@example.com"}}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "DUPLICATE_VALUE"
    assert body["details"] == {"field": "contact.email", "existingId": contact.id}
    assert not Instructor.objects.exists()


def test_create_for_contact_already_instructor(api, instructor, contact):
    response = api.post(URL, {"contactId": contact.id}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "DUPLICATE_VALUE"
    assert body["details"] == {"field": "contactId", "existingId": instructor.id}


@pytest.mark.parametrize(
    "body",
    [{}, {"sports": ["yoga"]}, "both"],
    ids=["empty", "neither", "both"],
)
def test_create_needs_exactly_one_contact_source(api, contact, body):
    if body == "both":
        body = {"contactId": contact.id, "contact": {"firstName": "X"}}
    response = api.post(URL, body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert "contactId" in response.json()["details"]["fields"]
    assert not Instructor.objects.exists()


def test_create_with_foreign_contact_is_400(api, other_organization):
    foreign = Contact.objects.create(organization=other_organization, first_name="F")
    response = api.post(URL, {"contactId": foreign.id}, format="json")
    assert response.status_code == 400
    assert list(response.json()["details"]["fields"]) == ["contactId"]


def test_create_with_foreign_type_and_policy_is_400(api, contact, other_organization):
    itype = InstructorType.objects.create(organization=other_organization, name="X")
    policy = PayRatePolicy.objects.create(organization=other_organization, name="X", rate_type="hourly", amount=1)
    response = api.post(URL, {"contactId": contact.id, "typeId": itype.id, "payRatePolicyId": policy.id}, format="json")
    assert response.status_code == 400
    assert set(response.json()["details"]["fields"]) == {"typeId", "payRatePolicyId"}


def test_new_contact_needs_first_name(api):
    response = api.post(URL, {"contact": {"lastName": "Only"}}, format="json")
    assert response.status_code == 400
    assert "contact.firstName" in response.json()["details"]["fields"]


@pytest.mark.parametrize(
    "slot, field",
    [
        ({"dayOfWeek": "mon", "startTime": "09:00", "endTime": "10:00"}, "weeklyAvailability.0.dayOfWeek"),
        ({"dayOfWeek": "monday", "startTime": "9:00", "endTime": "10:00"}, "weeklyAvailability.0.startTime"),
        ({"dayOfWeek": "monday", "startTime": "09:00", "endTime": "24:30"}, "weeklyAvailability.0.endTime"),
        ({"dayOfWeek": "monday", "startTime": "10:00", "endTime": "10:00"}, "weeklyAvailability.0.endTime"),
        ({"dayOfWeek": "monday", "startTime": "11:00", "endTime": "10:00"}, "weeklyAvailability.0.endTime"),
        ({"startTime": "09:00", "endTime": "10:00"}, "weeklyAvailability.0.dayOfWeek"),
    ],
)
def test_weekly_availability_validation(api, contact, slot, field):
    response = api.post(URL, {"contactId": contact.id, "weeklyAvailability": [slot]}, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["details"]["fields"]


def test_weekly_availability_foreign_club_is_400(api, contact, other_organization):
    foreign = Club.objects.create(organization=other_organization, name="Other", slug="other", timezone="UTC")
    slot = {"dayOfWeek": "monday", "startTime": "09:00", "endTime": "10:00", "clubId": foreign.id}
    response = api.post(URL, {"contactId": contact.id, "weeklyAvailability": [slot]}, format="json")
    assert response.status_code == 400
    assert "weeklyAvailability.0.clubId" in response.json()["details"]["fields"]


@pytest.mark.parametrize(
    "field, value",
    [("hourlyRate", -1), ("hourlyRate", "abc"), ("sports", "yoga"), ("bio", "text"), ("isActive", None)],
)
def test_create_field_validation(api, contact, field, value):
    response = api.post(URL, {"contactId": contact.id, field: value}, format="json")
    assert response.status_code == 400
    assert field in response.json()["details"]["fields"]


def test_patch_replaces_availability_and_emits_update(api, instructor, club, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.patch(
            f"{URL}/{instructor.id}",
            {"weeklyAvailability": [{"dayOfWeek": "sunday", "startTime": "10:00", "endTime": "12:00"}], "sports": []},
            format="json",
        )
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["weeklyAvailability"] == [
        {"dayOfWeek": "sunday", "startTime": "10:00", "endTime": "12:00", "clubId": None}
    ]
    assert data["sports"] == []
    assert data["experience"] == "10 years"  # omitted fields unchanged
    instructor.refresh_from_db()
    assert instructor.weekly_availability == data["weeklyAvailability"]
    event = DomainEvent.objects.get(type="instructor.updated")
    assert sorted(event.changed_fields) == ["sports", "weeklyAvailability"]
    assert event.data == data


def test_patch_clears_nullable_fields_and_deactivates(api, instructor):
    response = api.patch(
        f"{URL}/{instructor.id}", {"typeId": None, "hourlyRate": None, "bio": None, "isActive": False}, format="json"
    )
    assert response.status_code == 200
    data = response.json()
    assert (data["typeId"], data["type"], data["hourlyRate"], data["bio"], data["isActive"]) == (
        None,
        None,
        None,
        None,
        False,
    )


def test_patch_without_change_emits_nothing(api, instructor, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.patch(f"{URL}/{instructor.id}", {"experience": "10 years"}, format="json")
    assert response.status_code == 200
    assert not DomainEvent.objects.filter(type="instructor.updated").exists()


def test_patch_ignores_contact_and_read_only_fields(api, instructor, contact, organization):
    other = Contact.objects.create(organization=organization, first_name="Other")
    response = api.patch(f"{URL}/{instructor.id}", {"contactId": other.id, "id": 5, "createdAt": "x"}, format="json")
    assert response.status_code == 200
    assert response.json()["contactId"] == contact.id


def test_no_delete_and_no_put(api, instructor):
    response = api.delete(f"{URL}/{instructor.id}")
    assert response.status_code == 405
    assert response.json()["code"] == "METHOD_NOT_ALLOWED"
    assert "DELETE" not in response["Allow"] and "PATCH" in response["Allow"]
    assert api.put(f"{URL}/{instructor.id}", {}, format="json").status_code == 405
    assert Instructor.objects.filter(pk=instructor.pk).exists()


def test_read_scope_cannot_write(client_for, contact):
    client = client_for(["instructors:read"])
    response = client.post(URL, {"contactId": contact.id}, format="json")
    assert response.status_code == 403
    assert response.json() == {"error": "Insufficient access scope", "requiredScope": "instructors:write"}


def test_list_query_count_is_constant(api, organization, coach_type, django_assert_max_num_queries):
    for i in range(5):
        make_instructor(organization, f"I{i}", type=coach_type)
    with django_assert_max_num_queries(8):
        assert api.get(URL).json()["total"] == 5


@pytest.mark.parametrize("missing", ["dayOfWeek", "startTime", "endTime"])
def test_patch_with_incomplete_availability_slot_is_400(api, instructor, missing):
    slot = {"dayOfWeek": "sunday", "startTime": "10:00", "endTime": "12:00"}
    del slot[missing]
    response = api.patch(f"{URL}/{instructor.id}", {"weeklyAvailability": [slot]}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert any(missing in key for key in response.json()["details"]["fields"])
    instructor.refresh_from_db()
    assert instructor.weekly_availability != [slot]
