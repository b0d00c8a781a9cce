"""Demo data (a default policy per appliesTo, idempotent) and the admin's organization scoping."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from apps.organizations.models import StaffMembership
from apps.policies import demo
from apps.policies.choices import PolicyAppliesTo
from apps.policies.models import BookingPolicy, DocumentRule


def test_demo_seeds_a_default_per_applies_to_idempotently(organization, api):
    demo.seed(organization, {})
    demo.seed(organization, {})
    assert BookingPolicy.objects.filter(organization=organization).count() == 3
    assert DocumentRule.objects.filter(organization=organization).count() == 2
    listed = api.get("/v1/platform/booking-policies").json()["data"]
    assert sorted(row["appliesTo"] for row in listed if row["isDefault"]) == sorted(PolicyAppliesTo.values)
    assert api.get("/v1/platform/document-rules").json()["total"] == 2


def test_demo_keeps_an_existing_default(organization):
    mine = BookingPolicy.objects.create(organization=organization, name="Mine", applies_to="areas", is_default=True)
    ctx = {}
    demo.seed(organization, ctx)
    assert list(BookingPolicy.objects.filter(applies_to="areas", is_default=True)) == [mine]
    assert ctx["booking_policies"]["areas"].is_default is False


@pytest.fixture
def staff_client(client, organization):
    user = get_user_model().objects.create_user(
        username="staff", email="staff@example.com", password="pw-123456789", is_staff=True
    )
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="policies"))
    StaffMembership.objects.create(user=user, organization=organization, role="admin")
    client.force_login(user)
    return client


def test_admin_shows_only_the_staff_members_organization(staff_client, organization, other_organization):
    BookingPolicy.objects.create(organization=organization, name="Ours", applies_to="areas", is_default=True)
    BookingPolicy.objects.create(organization=other_organization, name="Theirs", applies_to="areas", is_default=True)
    DocumentRule.objects.create(
        organization=other_organization,
        name="Their waiver",
        document_type="waiver",
        requirement="sign",
        applies_to="members",
    )
    page = staff_client.get("/admin/policies/bookingpolicy/")
    assert page.status_code == 200
    assert b"Ours" in page.content and b"Theirs" not in page.content
    rules = staff_client.get("/admin/policies/documentrule/")
    assert rules.status_code == 200 and b"Their waiver" not in rules.content


def test_admin_refuses_a_second_default_with_a_form_error(staff_client, organization):
    BookingPolicy.objects.create(organization=organization, name="Ours", applies_to="areas", is_default=True)
    response = staff_client.post(
        "/admin/policies/bookingpolicy/add/",
        {"organization": organization.id, "name": "Second", "applies_to": "areas", "is_default": "on"},
    )
    assert response.status_code == 200
    assert b"already the default" in response.content
    assert not BookingPolicy.objects.filter(name="Second").exists()
