"""API key management through the Django admin's real views (Settings > Organization > APIs & webhooks)."""

import datetime
import re
from zoneinfo import ZoneInfo

import pytest
from rest_framework.test import APIClient

from apps.organizations.models import ApiKey, hash_token

ADD_URL = "/admin/organizations/apikey/add/"
LIST_URL = "/admin/organizations/apikey/"
TOKEN_RE = re.compile(r"gpk_[0-9a-f]{12}_[A-Za-z0-9_\-]{20,}")


def change_url(key):
    return f"/admin/organizations/apikey/{key.pk}/change/"


def create_key(client, organization, **overrides):
    data = {"organization": organization.pk, "name": "Zapier", "description": "Sync bookings", "_save": "Save"}
    data.update(overrides)
    return client.post(ADD_URL, data)


def token_from(response) -> str:
    found = TOKEN_RE.findall(response.content.decode())
    assert len(set(found)) == 1, response.content.decode()[:3000]
    return found[0]


def me(token):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client.get("/v1/platform/me")


def revoke(client, *keys):
    return client.post(LIST_URL, {"action": "revoke_selected", "_selected_action": [k.pk for k in keys]})


@pytest.mark.django_db
class TestKeyLifecycle:
    def test_add_form_offers_one_choice_per_resource_full_access_and_expiry(self, org_admin, organization):
        response = org_admin.get(ADD_URL)
        assert response.status_code == 200
        html = response.content.decode()
        for field in ('name="name"', 'name="description"', 'name="full_access"', 'name="expires_on"'):
            assert field in html
        assert 'value="classes:read"' in html and 'value="classes:write"' in html
        assert 'value="media:delete"' in html and 'value="website:publish"' in html
        assert 'value="clubs:write"' not in html  # the registry has no clubs:write
        assert 'value="*"' not in html  # full access is its own checkbox

    def test_create_show_once_use_and_revoke(self, org_admin, organization):
        response = create_key(org_admin, organization, scopes=["bookings:write", "classes:read"])
        assert response.status_code == 200
        assert "no-store" in response["Cache-Control"]
        token = token_from(response)
        assert "shown only this once" in response.content.decode()

        key = ApiKey.objects.get()
        assert (key.organization, key.name, key.description) == (organization, "Zapier", "Sync bookings")
        assert key.scopes == ["classes:read", "bookings:write"]  # registry order
        assert key.expires_at is None and key.revoked_at is None
        assert key.created_by == org_admin.user
        assert key.token_hash == hash_token(token) and token.startswith(f"gpk_{key.prefix}_")
        secret = token.split("_", 2)[2]
        assert all(secret not in str(value) for value in vars(key).values())

        response = me(token)
        assert response.status_code == 200
        assert response.json()["scopes"] == ["classes:read", "bookings:write"]
        assert response.json()["organization"]["id"] == organization.id

        # never shown again: not on the change page, not in the list
        for url in (change_url(key), LIST_URL):
            page = org_admin.get(url)
            assert page.status_code == 200
            assert secret not in page.content.decode()
            assert f"gpk_{key.prefix}_…" in page.content.decode()

        response = revoke(org_admin, key)
        assert response.status_code == 302
        key.refresh_from_db()
        assert key.revoked_at is not None
        assert "Revoked 1 API key" in org_admin.get(LIST_URL).content.decode()

        response = me(token)
        assert response.status_code == 401
        assert response.json()["code"] == "UNAUTHENTICATED"

    def test_full_access_stores_wildcard(self, org_admin, organization):
        token = token_from(create_key(org_admin, organization, full_access="on", scopes=["classes:read"]))
        assert ApiKey.objects.get().scopes == ["*"]
        assert me(token).json()["fullAccess"] is True

    def test_no_scope_is_a_form_error(self, org_admin, organization):
        response = create_key(org_admin, organization)
        assert response.status_code == 200
        assert "Choose at least one scope, or full access." in response.content.decode()
        assert not ApiKey.objects.exists()

    def test_unknown_scope_is_refused(self, org_admin, organization):
        response = create_key(org_admin, organization, scopes=["clubs:write"])
        assert response.status_code == 200
        assert "Select a valid choice" in response.content.decode()
        assert not ApiKey.objects.exists()

    def test_expiry_is_end_of_day_in_organization_timezone(self, org_admin, organization):
        response = create_key(org_admin, organization, scopes=["classes:read"], expires_on="2031-06-15")
        assert response.status_code == 200
        key = ApiKey.objects.get()
        madrid_end = datetime.datetime(2031, 6, 15, 23, 59, 59, 999999, tzinfo=ZoneInfo("Europe/Madrid"))
        assert key.expires_at == madrid_end
        assert key.expires_at == datetime.datetime(2031, 6, 15, 21, 59, 59, 999999, tzinfo=datetime.UTC)

    def test_past_expiry_is_refused(self, org_admin, organization):
        response = create_key(org_admin, organization, scopes=["classes:read"], expires_on="2020-01-01")
        assert "The expiry date cannot be in the past." in response.content.decode()
        assert not ApiKey.objects.exists()

    @pytest.mark.parametrize("plan", ["free", "trial"])
    def test_free_and_trial_plans_cannot_create_keys(self, org_admin, organization, plan):
        organization.plan = plan
        organization.save()
        response = create_key(org_admin, organization, scopes=["classes:read"])
        assert response.status_code == 200
        assert "API keys are not available on the" in response.content.decode()
        assert not ApiKey.objects.exists()

    def test_change_edits_only_name_and_description(self, org_admin, organization):
        key, _ = ApiKey.issue(organization=organization, name="Old", scopes=["classes:read"])
        response = org_admin.post(
            change_url(key),
            {"name": "New", "description": "Renamed", "scopes": ["bookings:write"], "expires_at": "2030-01-01"},
        )
        assert response.status_code == 302
        key.refresh_from_db()
        assert (key.name, key.description, key.scopes, key.expires_at) == ("New", "Renamed", ["classes:read"], None)

    def test_keys_cannot_be_deleted(self, org_admin, organization):
        key, _ = ApiKey.issue(organization=organization, name="Keep", scopes=["classes:read"])
        assert org_admin.get(f"/admin/organizations/apikey/{key.pk}/delete/").status_code == 403
        assert "delete_selected" not in org_admin.get(LIST_URL).content.decode()


@pytest.mark.django_db
class TestWhoMayManageKeys:
    def test_manager_is_refused_even_with_full_settings_management(self, make_staff, organization):
        manager = make_staff(organization, "manager", full_settings_management=True)
        key, token = ApiKey.issue(organization=organization, name="Existing", scopes=["classes:read"])
        assert manager.get(LIST_URL).status_code == 403
        assert manager.get(ADD_URL).status_code == 403
        assert manager.get(change_url(key)).status_code == 403
        assert create_key(manager, organization, scopes=["classes:read"]).status_code == 403
        assert revoke(manager, key).status_code == 403
        key.refresh_from_db()
        assert key.revoked_at is None and ApiKey.objects.count() == 1
        assert "API keys" not in manager.get("/admin/").content.decode()

    def test_plain_staff_is_refused(self, make_staff, organization):
        staff = make_staff(organization, "staff")
        assert staff.get(LIST_URL).status_code == 403
        assert staff.get(ADD_URL).status_code == 403

    def test_staff_with_full_settings_management_may_manage(self, make_staff, organization):
        staff = make_staff(organization, "staff", full_settings_management=True)
        assert staff.get(LIST_URL).status_code == 200
        token_from(create_key(staff, organization, scopes=["contacts:read"]))
        assert ApiKey.objects.get().scopes == ["contacts:read"]

    def test_admin_of_another_organization_cannot_see_or_touch_the_key(
        self, make_staff, organization, other_organization
    ):
        key, token = ApiKey.issue(organization=organization, name="Secret integration", scopes=["classes:read"])
        rival = make_staff(other_organization, "admin")

        listing = rival.get(LIST_URL)
        assert listing.status_code == 200
        assert "Secret integration" not in listing.content.decode()
        assert organization.name not in listing.content.decode()  # not even in the filter

        response = rival.get(change_url(key))
        assert response.status_code == 302 and response["Location"] == "/admin/"

        add_form = rival.get(ADD_URL).content.decode()
        assert other_organization.name in add_form and organization.name not in add_form
        response = create_key(rival, organization, scopes=["classes:read"])
        assert "Select a valid choice" in response.content.decode()
        assert ApiKey.objects.count() == 1

        revoke(rival, key)
        key.refresh_from_db()
        assert key.revoked_at is None
        assert me(token).status_code == 200

    def test_user_managing_two_organizations_sees_both(self, make_staff, organization, other_organization):
        client = make_staff(organization, "admin")
        from apps.organizations.models import StaffMembership

        StaffMembership.objects.create(user=client.user, organization=other_organization, role="admin")
        ApiKey.issue(organization=organization, name="Key A", scopes=["classes:read"])
        ApiKey.issue(organization=other_organization, name="Key B", scopes=["classes:read"])
        html = client.get(LIST_URL).content.decode()
        assert "Key A" in html and "Key B" in html

    def test_superuser_sees_every_organization(self, superuser_client, organization, other_organization):
        ApiKey.issue(organization=organization, name="Key A", scopes=["classes:read"])
        ApiKey.issue(organization=other_organization, name="Key B", scopes=["classes:read"])
        html = superuser_client.get(LIST_URL).content.decode()
        assert "Key A" in html and "Key B" in html
        token_from(create_key(superuser_client, other_organization, scopes=["classes:read"]))

    def test_non_staff_user_cannot_enter_the_admin(self, make_staff, organization):
        client = make_staff(organization, "admin", is_staff=False)
        response = client.get(LIST_URL)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]


@pytest.mark.django_db
class TestOrganizationAdmin:
    def test_settings_manager_sees_only_own_organization_read_only(self, org_admin, organization, other_organization):
        listing = org_admin.get("/admin/organizations/organization/")
        assert listing.status_code == 200
        html = listing.content.decode()
        assert organization.name in html and other_organization.name not in html

        page = org_admin.get(f"/admin/organizations/organization/{organization.pk}/change/")
        assert page.status_code == 200
        assert "Manage API keys" in page.content.decode()
        response = org_admin.post(
            f"/admin/organizations/organization/{organization.pk}/change/", {"name": "Hijacked", "plan": "enterprise"}
        )
        assert response.status_code == 403
        organization.refresh_from_db()
        assert organization.name == "Padel Palace"
        assert org_admin.get(f"/admin/organizations/organization/{other_organization.pk}/change/").status_code == 302
        assert org_admin.get("/admin/organizations/organization/add/").status_code == 403

    def test_manager_has_no_organization_admin(self, make_staff, organization):
        manager = make_staff(organization, "manager")
        assert manager.get("/admin/organizations/organization/").status_code == 403

    def test_superuser_edits_organization_and_memberships(self, superuser_client, organization):
        page = superuser_client.get(f"/admin/organizations/organization/{organization.pk}/change/")
        assert page.status_code == 200
        assert "staff-TOTAL_FORMS" in page.content.decode()
