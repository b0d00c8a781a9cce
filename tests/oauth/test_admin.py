"""Staff see and revoke their organization's OAuth grants in the admin; revocation takes effect on the next request."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client as HttpClient
from rest_framework.test import APIClient

from apps.oauth.models import Grant
from apps.organizations.models import StaffMembership

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(organization):
    user = get_user_model().objects.create_user(username="desk@example.com", password="x" * 12, is_staff=True)
    StaffMembership.objects.create(user=user, organization=organization, role="admin")
    user.user_permissions.add(*Permission.objects.filter(codename__in=["view_grant", "change_grant"]))
    client = HttpClient()
    client.force_login(user)
    return client


def test_staff_revoke_their_organizations_grant(staff, make_oauth_token, organization, other_organization):
    ours = make_oauth_token("classes:read", client_name="Claude")
    theirs = make_oauth_token("*", organization_=other_organization, client_name="Rival agent")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {ours}")
    assert api.get("/v1/platform/me").status_code == 200

    listing = staff.get("/admin/oauth/grant/").content.decode()
    assert "Claude" in listing and "Rival agent" not in listing
    our_grant = Grant.objects.get(organization=organization)
    their_grant = Grant.objects.get(organization=other_organization)
    assert staff.get(f"/admin/oauth/grant/{their_grant.pk}/change/").status_code == 302  # missing: back to the list

    response = staff.post(
        "/admin/oauth/grant/",
        {"action": "revoke_selected", "_selected_action": [our_grant.pk, their_grant.pk]},
    )
    assert response.status_code == 302
    our_grant.refresh_from_db()
    their_grant.refresh_from_db()
    assert our_grant.revoked_reason == "revoked_by_staff"
    assert their_grant.revoked_at is None
    assert api.get("/v1/platform/me").status_code == 401
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {theirs}")
    assert other.get("/v1/platform/me").status_code == 200


def test_the_clients_list_is_for_superusers_only(staff):
    assert staff.get("/admin/oauth/client/").status_code == 403
