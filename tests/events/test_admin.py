"""The events admin: staff see only their organization's events, and the status moves of the actions go through
the services (cancelling cancels the attendees' bookings)."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from apps.bookings.models import Booking
from apps.clubs.models import Club
from apps.domain_events.models import DomainEvent
from apps.events.models import Event
from apps.organizations.models import StaffMembership
from tests.events.factories import make_event, sell

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(organization):
    user = get_user_model().objects.create_user("desk@example.com", "desk@example.com", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label__in=("events", "clubs")))
    StaffMembership.objects.create(user=user, organization=organization, role="staff")
    client = Client()
    client.force_login(user)
    return client


def test_staff_see_only_their_events(staff, organization, club, other_organization):
    ours = make_event(organization, club, name="Alpha Gala")
    rival = Club.objects.create(organization=other_organization, name="Rival", slug="rival", timezone="UTC")
    theirs = make_event(other_organization, rival, name="Bravo Gala")
    response = staff.get("/admin/events/event/")
    assert [row.pk for row in response.context["cl"].result_list] == [ours.pk]
    assert "Bravo" not in response.content.decode()
    assert staff.get(f"/admin/events/event/{theirs.pk}/change/").status_code == 302


def test_cancel_action_cancels_attendees_and_publish_refuses_a_cancelled_event(staff, organization, club, contact):
    event = make_event(organization, club)
    booking = sell(event, event.tickets.get(), contact)
    response = staff.post(
        "/admin/events/event/", {"action": "cancel_events", "_selected_action": [event.pk]}, follow=True
    )
    assert response.status_code == 200
    event.refresh_from_db()
    booking.refresh_from_db()
    assert (event.status, booking.status) == ("cancelled", "cancelled")
    assert DomainEvent.objects.filter(type="event.cancelled").count() == 1
    response = staff.post(
        "/admin/events/event/", {"action": "publish_events", "_selected_action": [event.pk]}, follow=True
    )
    assert "Not allowed while the status is `cancelled`." in response.content.decode()
    assert Event.objects.get(pk=event.pk).status == "cancelled"
    assert Booking.objects.get(pk=booking.pk).status == "cancelled"
