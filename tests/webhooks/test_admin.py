"""The webhook admins: scoped to the staff user's organizations, secrets never shown."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from apps.organizations.models import StaffMembership
from tests.webhooks.factories import make_delivery, make_subscription


@pytest.fixture
def staff(organization):
    user = get_user_model().objects.create_user("desk@example.com", "desk@example.com", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="webhooks"))
    StaffMembership.objects.create(user=user, organization=organization, role="staff")
    client = Client()
    client.force_login(user)
    return client


def test_staff_see_only_their_organizations_webhooks(staff, organization, other_organization):
    ours = make_subscription(organization, url="https://93.184.215.14/ours", failing_since=None)
    theirs = make_subscription(other_organization, url="https://93.184.215.14/theirs")
    our_delivery, their_delivery = make_delivery(ours), make_delivery(theirs)

    page = staff.get("/admin/webhooks/webhooksubscription/")
    assert [row.pk for row in page.context["cl"].result_list] == [ours.pk]
    assert "theirs" not in page.content.decode()
    log = staff.get("/admin/webhooks/webhookdelivery/")
    assert [row.pk for row in log.context["cl"].result_list] == [our_delivery.pk]

    for url in (
        f"/admin/webhooks/webhooksubscription/{theirs.pk}/change/",
        f"/admin/webhooks/webhookdelivery/{their_delivery.pk}/change/",
    ):
        response = staff.get(url, follow=True)
        assert response.redirect_chain == [("/admin/", 302)]

    change = staff.get(f"/admin/webhooks/webhooksubscription/{ours.pk}/change/")
    assert change.status_code == 200
    assert ours.secret not in change.content.decode()
    assert staff.get("/admin/webhooks/webhooksubscription/add/").status_code == 403


def test_reenabling_in_the_admin_clears_the_reason(staff, organization):
    hook = make_subscription(organization, is_active=False, disabled_reason="failing")
    url = f"/admin/webhooks/webhooksubscription/{hook.pk}/change/"
    response = staff.post(url, {"description": "", "is_active": "on"})
    assert response.status_code == 302, response.content[:2000]
    hook.refresh_from_db()
    assert (hook.is_active, hook.disabled_reason) == (True, None)
