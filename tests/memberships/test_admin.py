"""The memberships admin: staff of one organization browse their memberships with the billed periods, never
another organization's."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from apps.billing.models import Plan
from apps.contacts.models import Contact
from apps.memberships import services
from apps.memberships.models import Membership
from apps.organizations.models import StaffMembership


def _sold(organization, name):
    contact = Contact.objects.create(organization=organization, first_name=f"{name}member")
    plan = Plan.objects.create(organization=organization, name=f"{name} Plan", price=40)
    return services.sell_membership(organization, {"contact": contact, "plan": plan, "start_date": None})


@pytest.fixture
def staff(organization):
    user = get_user_model().objects.create_user("desk@example.com", "desk@example.com", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label__in=("billing", "memberships")))
    StaffMembership.objects.create(user=user, organization=organization, role="staff")
    client = Client()
    client.force_login(user)
    return client


def test_staff_browse_their_memberships_and_periods_only(staff, organization, other_organization):
    ours, theirs = _sold(organization, "Alpha"), _sold(other_organization, "Bravo")
    listing = staff.get("/admin/memberships/membership/")
    assert listing.status_code == 200
    html = listing.content.decode()
    assert "Alphamember" in html and "Bravo" not in html

    page = staff.get(f"/admin/memberships/membership/{ours.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Membership Alpha Plan" in html  # the period's charge, read only

    assert staff.get(f"/admin/memberships/membership/{theirs.pk}/change/").status_code == 302  # "doesn't exist"
    assert Membership.objects.filter(pk=theirs.pk).exists()
