"""The website admin: staff see and publish only their own organization's websites; the default one stays."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from apps.organizations.models import StaffMembership
from apps.website.models import Release, Website

pytestmark = pytest.mark.django_db
CHANGELIST = "/admin/website/website/"


@pytest.fixture
def staff(organization):
    user = get_user_model().objects.create_user("web@example.com", "web@example.com", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="website"))
    StaffMembership.objects.create(user=user, organization=organization, role="staff")
    client = Client()
    client.force_login(user)
    return client


def test_staff_see_only_their_own_websites(staff, organization, other_organization):
    ours = Website.objects.get(organization=organization)
    theirs = Website.objects.get(organization=other_organization)
    page = staff.get(CHANGELIST).content.decode()
    assert ours.slug in page and theirs.slug not in page
    assert staff.get(f"{CHANGELIST}{theirs.pk}/change/").status_code == 302  # "doesn't exist" redirect
    assert staff.get(f"{CHANGELIST}{ours.pk}/change/").status_code == 200


def test_staff_publish_the_draft_from_the_admin(staff, organization, other_organization):
    ours = Website.objects.get(organization=organization)
    theirs = Website.objects.get(organization=other_organization)
    response = staff.post(
        CHANGELIST, {"action": "publish_draft", "_selected_action": [ours.pk, theirs.pk]}, follow=True
    )
    assert response.status_code == 200
    release = Release.objects.get(website=ours)
    assert (release.version, release.published_by_type, release.published_by_name) == (1, "user", "web@example.com")
    assert not Release.objects.filter(website=theirs).exists()


def test_the_default_website_cannot_be_deleted(staff, organization):
    ours = Website.objects.get(organization=organization)
    assert staff.get(f"{CHANGELIST}{ours.pk}/delete/").status_code == 403
    extra = Website.objects.create(organization=organization, name="Extra", slug="extra-site")
    assert staff.post(f"{CHANGELIST}{extra.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not Website.objects.filter(pk=extra.pk).exists()
