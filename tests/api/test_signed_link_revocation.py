"""Signed links that carry their own proof (issue 17, items 3 and 6): the instructor calendar feed needs
`classes:read` as well as `instructors:read`; feeds, invoice PDF links and website preview links carry an epoch of
their organization that staff bump from the organization admin to revoke them all at once; a switched-off
organization serves no PDF."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from rest_framework.test import APIClient

from apps.contacts.models import Contact
from apps.instructors.models import Instructor
from apps.organizations.models import Organization, StaffMembership
from tests.invoices.factories import charge, invoice

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/organizations/organization/"
SITE_HOST = "padel-palace.sites.localhost"


@pytest.fixture
def org_admin(organization):
    """A staff user who manages `organization`'s settings, through the real admin."""
    user = get_user_model().objects.create_user("boss", "boss@example.com", "pw", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename__in=["view_organization", "change_organization"]))
    StaffMembership.objects.create(user=user, organization=organization, role="admin")
    client = Client()
    client.force_login(user)
    return client


def run_action(client, action, *organizations):
    response = client.post(
        CHANGELIST, {"action": action, "_selected_action": [o.pk for o in organizations]}, follow=True
    )
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def instructor(organization):
    contact = Contact.objects.create(organization=organization, first_name="Marta", last_name="Ruiz")
    return Instructor.objects.create(organization=organization, contact=contact)


def feed_url(client_for, instructor):
    response = client_for("instructors:read classes:read").get(
        f"/v1/platform/instructors/{instructor.id}/calendar-feed"
    )
    assert response.status_code == 200, response.content
    return response.json()["url"].removeprefix(settings.BASE_URL)


def test_the_calendar_feed_needs_classes_read_too(client_for, instructor):
    path = f"/v1/platform/instructors/{instructor.id}/calendar-feed"
    response = client_for("instructors:read").get(path)
    assert response.status_code == 403
    assert response.json() == {"error": "Insufficient access scope", "requiredScope": "classes:read"}
    response = client_for("classes:read").get(path)
    assert response.status_code == 403
    assert response.json() == {"error": "Insufficient access scope", "requiredScope": "instructors:read"}
    assert client_for("instructors:read classes:read").get(path).status_code == 200


def test_the_document_says_the_feed_needs_both_scopes(api):
    operation = api.get("/v1/openapi.json").json()["paths"]["/v1/platform/instructors/{id}/calendar-feed"]["get"]
    assert operation["x-required-scope"] == {"allOf": ["instructors:read", "classes:read"]}
    assert {"platformOAuth": ["instructors:read", "classes:read"]} in operation["security"]


def test_staff_revoke_every_calendar_feed_of_their_organization_at_once(
    org_admin, client_for, organization, other_organization, instructor
):
    contact = Contact.objects.create(organization=organization, first_name="Luis")
    colleague = Instructor.objects.create(organization=organization, contact=contact)
    theirs = Instructor.objects.create(
        organization=other_organization, contact=Contact.objects.create(organization=other_organization, first_name="Z")
    )
    ours = [feed_url(client_for, instructor), feed_url(client_for, colleague)]
    foreign = feed_url(lambda s: client_for(s, other_organization), theirs)
    assert all(Client().get(path).status_code == 200 for path in [*ours, foreign])

    page = run_action(org_admin, "revoke_feeds", organization)
    assert "Every calendar feed URL of 1 organization was revoked" in page
    assert [Client().get(path).status_code for path in ours] == [404, 404]
    assert Client().get(foreign).status_code == 200  # another organization's feeds are untouched
    fresh = feed_url(client_for, instructor)
    assert fresh not in ours and Client().get(fresh).status_code == 200


def test_staff_cannot_revoke_another_organizations_feeds(org_admin, client_for, other_organization):
    theirs = Instructor.objects.create(
        organization=other_organization, contact=Contact.objects.create(organization=other_organization, first_name="Z")
    )
    foreign = feed_url(lambda s: client_for(s, other_organization), theirs)
    run_action(org_admin, "revoke_feeds", other_organization)
    assert Organization.objects.get(pk=other_organization.pk).calendar_feed_epoch == 0
    assert Client().get(foreign).status_code == 200


def pdf_path(api, organization):
    issued = invoice(organization, charge(organization, amount="10.00"))
    url = api.get(f"/v1/platform/invoices/{issued.id}").json()["pdfUrl"]
    return url.removeprefix(settings.BASE_URL)


@pytest.mark.parametrize("change", [{"status": "inactive"}, {"plan": "free"}, {"plan": "trial"}])
def test_a_switched_off_organization_serves_no_pdf(api, organization, change):
    path = pdf_path(api, organization)
    assert APIClient().get(path).status_code == 200
    Organization.objects.filter(pk=organization.pk).update(**change)
    response = APIClient().get(path)
    assert response.status_code == 404 and response.json()["code"] == "NOT_FOUND"
    Organization.objects.filter(pk=organization.pk).update(status="active", plan="pro")
    assert APIClient().get(path).status_code == 200


def test_staff_revoke_every_pdf_and_preview_link_at_once(org_admin, api, organization):
    pdf = pdf_path(api, organization)
    api.post("/v1/platform/website/pages", {"slug": "home", "title": "Home", "sections": []}, format="json")
    preview = api.get("/v1/platform/website").json()["previewUrl"].split(SITE_HOST, 1)[1]
    assert APIClient().get(pdf).status_code == 200
    assert Client().get(preview, HTTP_HOST=SITE_HOST).status_code == 200

    page = run_action(org_admin, "revoke_links", organization)
    assert "Every PDF and preview link of 1 organization was revoked" in page
    assert APIClient().get(pdf).status_code == 404
    assert Client().get(preview, HTTP_HOST=SITE_HOST).status_code == 404
    fresh_pdf = pdf_path(api, organization)
    fresh_preview = api.get("/v1/platform/website").json()["previewUrl"].split(SITE_HOST, 1)[1]
    assert APIClient().get(fresh_pdf).status_code == 200
    assert Client().get(fresh_preview, HTTP_HOST=SITE_HOST).status_code == 200
