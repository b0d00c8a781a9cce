"""Plan and status are the billing relationship: only superusers change them, whatever model permissions say."""

import pytest
from django.contrib.auth.models import Permission

from apps.organizations.models import Organization
from tests.admin_tenancy.forms import submitted_fields

pytestmark = pytest.mark.django_db


def change_url(organization):
    return f"/admin/organizations/organization/{organization.pk}/change/"


@pytest.fixture
def settings_manager(make_staff, organization):
    """An organization admin who was also granted every Django permission on organizations."""
    client = make_staff(organization, "admin")
    client.user.user_permissions.set(Permission.objects.filter(content_type__model="organization"))
    return client


@pytest.fixture
def starter_inactive(organization):
    organization.plan, organization.status = "starter", "inactive"
    organization.save()
    return organization


def test_settings_manager_cannot_lift_own_plan_or_status(settings_manager, starter_inactive):
    page = settings_manager.get(change_url(starter_inactive))
    assert page.status_code == 200
    assert {"plan", "status"}.isdisjoint(page.context["adminform"].form.fields)
    data = {**submitted_fields(page, "organization"), "name": "Padel Palace Madrid"}
    response = settings_manager.post(change_url(starter_inactive), {**data, "plan": "enterprise", "status": "active"})
    assert response.status_code == 302
    starter_inactive.refresh_from_db()
    assert (starter_inactive.name, starter_inactive.plan, starter_inactive.status) == (
        "Padel Palace Madrid",
        "starter",
        "inactive",
    )


def test_settings_manager_cannot_add_delete_or_reach_other_organizations(
    settings_manager, organization, other_organization
):
    assert settings_manager.get("/admin/organizations/organization/add/").status_code == 403
    response = settings_manager.post(
        "/admin/organizations/organization/add/", {"name": "Own Gym", "slug": "own-gym", "plan": "enterprise"}
    )
    assert response.status_code == 403
    assert settings_manager.get(f"/admin/organizations/organization/{organization.pk}/delete/").status_code == 403
    response = settings_manager.post(f"/admin/organizations/organization/{organization.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403
    assert settings_manager.get(change_url(other_organization)).status_code == 302  # not found: back to the index
    assert Organization.objects.count() == 2


def test_superuser_changes_plan_and_status(superuser_client, starter_inactive):
    page = superuser_client.get(change_url(starter_inactive))
    data = submitted_fields(page, "organization")
    response = superuser_client.post(change_url(starter_inactive), {**data, "plan": "enterprise", "status": "active"})
    assert response.status_code == 302
    starter_inactive.refresh_from_db()
    assert (starter_inactive.plan, starter_inactive.status) == ("enterprise", "active")


def test_users_and_groups_are_superuser_only(settings_manager, superuser_client):
    user = settings_manager.user
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="auth"))
    assert settings_manager.get("/admin/auth/user/").status_code == 403
    assert settings_manager.get("/admin/auth/group/").status_code == 403
    response = settings_manager.post(
        f"/admin/auth/user/{user.pk}/change/",
        {"username": user.username, "is_active": "on", "is_staff": "on", "is_superuser": "on"},
    )
    assert response.status_code == 403
    user.refresh_from_db()
    assert not user.is_superuser
    assert superuser_client.get("/admin/auth/user/").status_code == 200
