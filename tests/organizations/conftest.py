import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from apps.organizations.models import StaffMembership


@pytest.fixture
def make_staff(db):
    """make_staff(organization, role="admin", full_settings_management=False, email=None) -> a signed-in Client."""

    def make(organization, role="admin", full_settings_management=False, email=None, is_staff=True):
        email = email or f"{role}-{organization.slug}@example.com"
        user = get_user_model().objects.create_user(
            username=email, email=email, password="correct-horse-battery", is_staff=is_staff
        )
        if organization is not None:
            StaffMembership.objects.create(
                user=user, organization=organization, role=role, full_settings_management=full_settings_management
            )
        client = Client()
        client.force_login(user)
        client.user = user
        return client

    return make


@pytest.fixture
def org_admin(make_staff, organization):
    return make_staff(organization, "admin")


@pytest.fixture
def superuser_client(db):
    user = get_user_model().objects.create_superuser(username="root", email="root@example.com", password="x" * 12)
    client = Client()
    client.force_login(user)
    client.user = user
    return client
