from django.utils import timezone

from apps.clubs.models import Club
from apps.contacts.models import Contact
from apps.events.choices import EventStatus
from apps.events.models import Event, EventTicket
from apps.organizations.models import ApiKey
from tests.events.factories import make_event, sell
from tests.harness import EndpointCase


def _settle_key_usage(organization):
    """The first request of a fresh API key also writes `last_used_at`: marked used, the contract's one-row vs
    many-rows comparison counts only the list's own queries."""
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


def _club(organization):
    club = Club.objects.filter(organization=organization).first()
    if club is None:
        club = Club.objects.create(
            organization=organization, name="Event Club", slug=f"event-club-{organization.pk}", timezone="UTC"
        )
    return club


def event_ids(organization):
    return {"id": make_event(organization, _club(organization), status=EventStatus.DRAFT).id}


def published_event_ids(organization):
    return {"id": make_event(organization, _club(organization)).id}


def event_rows(organization, n):
    """n events with two ticket types each (every list item carries its tickets)."""
    _settle_key_usage(organization)
    club = _club(organization)
    start = timezone.now()
    events = Event.objects.bulk_create(
        [
            Event(
                organization=organization,
                club=club,
                name=f"E{i}",
                slug=f"e-{organization.pk}-{i}-{n}",
                start_time=start,
                end_time=start + timezone.timedelta(hours=2),
                translations={"es": {"name": f"Evento {i}"}},
            )
            for i in range(n)
        ]
    )
    EventTicket.objects.bulk_create(
        [
            EventTicket(organization=organization, event=event, name=name, price_before_tax=price, quantity=50)
            for event in events
            for name, price in (("Adult", "12.00"), ("Child", "0"))
        ]
    )


def roster_ids(organization):
    return {"id": make_event(organization, _club(organization), name="Roster").id}


def roster_rows(organization, n):
    """n attendees on the organization's latest "Roster" event (the one `roster_ids` put in the path)."""
    _settle_key_usage(organization)
    event = Event.objects.filter(organization=organization, name="Roster").latest("id")
    ticket = event.tickets.get()
    contacts = Contact.objects.bulk_create(
        [Contact(organization=organization, first_name=f"Guest {i}", email=f"g{i}@example.com") for i in range(n)]
    )
    for contact in contacts:
        sell(event, ticket, contact)


CASES = [
    EndpointCase("GET", "/v1/platform/events", "events:read", list_rows=event_rows),
    EndpointCase("GET", "/v1/platform/events/{id}", "events:read", setup=event_ids),
    EndpointCase("POST", "/v1/platform/events", "events:write", body={"name": "Cup"}),
    EndpointCase("PATCH", "/v1/platform/events/{id}", "events:write", setup=event_ids, body={}),
    EndpointCase("DELETE", "/v1/platform/events/{id}", "events:write", setup=event_ids),
    EndpointCase("POST", "/v1/platform/events/{id}/duplicate", "events:write", setup=event_ids),
    EndpointCase("POST", "/v1/platform/events/{id}/publish", "events:write", setup=event_ids),
    EndpointCase("POST", "/v1/platform/events/{id}/unpublish", "events:write", setup=published_event_ids),
    EndpointCase("POST", "/v1/platform/events/{id}/cancel", "events:write", setup=event_ids),
    EndpointCase("GET", "/v1/platform/events/{id}/bookings", "bookings:read", setup=roster_ids, list_rows=roster_rows),
    EndpointCase("POST", "/v1/platform/events/{id}/bookings", "bookings:write", setup=published_event_ids, body={}),
]
