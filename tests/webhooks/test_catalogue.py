"""One test per event type of the catalogue: its operation records it (in the write's transaction), with `data`
of the catalogue's shape. A type without a trigger here fails `test_every_type_has_a_trigger`."""

import datetime as dt
import typing
from decimal import Decimal

import pytest
from django.db import transaction
from django.utils import timezone

from apps.contacts import services as contact_services
from apps.domain_events.models import DomainEvent
from apps.invoices import services as invoice_services
from apps.memberships import services as membership_services
from apps.transactions.models import Transaction
from apps.webhooks.catalogue import EVENT_TYPES
from apps.webhooks.models import WebhookDelivery
from tests.factories import make_class, make_contact, make_membership
from tests.webhooks.factories import make_subscription

P = "/v1/platform"


class Ctx:
    def __init__(self, api, organization, club, area, contact):
        self.api, self.organization, self.club, self.area, self.contact = api, organization, club, area, contact

    def ok(self, method, path, body=None, status=None):
        response = getattr(self.api, method)(f"{P}{path}", body or {}, format="json")
        assert response.status_code < 300, (path, response.status_code, response.content[:300])
        return response.json() if response.content else None

    def slot(self, days=6, hour=11, minutes=60):
        start = (timezone.now() + dt.timedelta(days=days)).replace(hour=hour, minute=0, second=0, microsecond=0)
        return start.isoformat(), (start + dt.timedelta(minutes=minutes)).isoformat()

    def booking(self):
        start, end = self.slot()
        return self.ok(
            "post",
            "/bookings",
            {"areaId": self.area.id, "contactId": self.contact.id, "startTime": start, "endTime": end},
        )

    def block(self):
        start, end = self.slot(days=8)
        return self.ok("post", "/area-blocks", {"areaId": self.area.id, "startTime": start, "endTime": end})

    def klass(self, **extra):
        start, end = self.slot(days=9, hour=18)
        return self.ok(
            "post", "/classes", {"clubId": self.club.id, "name": "Spin", "startTime": start, "endTime": end, **extra}
        )

    def full_class_with_waiting(self):
        occurrence = make_class(self.organization, self.club, max_capacity=1)
        seat = self.ok("post", f"/classes/{occurrence.id}/bookings", {"contactId": self.contact.id})
        waiting = make_contact(self.organization)
        entry = self.ok("post", f"/classes/{occurrence.id}/waitlist", {"contactId": waiting.id})
        return occurrence, seat, entry

    def membership(self):
        plan = self.ok("post", "/plans", {"name": "Monthly", "price": 40})
        return self.ok("post", "/memberships", {"contactId": self.contact.id, "planId": plan["id"]})

    def outside_revenue(self):
        return self.ok("post", "/transactions", {"amount": 20, "description": "Cash box"})

    def event(self):
        start, end = self.slot(days=20, hour=18, minutes=120)
        return self.ok("post", "/events", {"name": "Cup", "clubId": self.club.id, "startTime": start, "endTime": end})

    def charge(self):
        return Transaction.objects.create(
            organization=self.organization,
            type="charge",
            source_type="membership",
            description="Fee",
            contact=self.contact,
            amount=Decimal("12.10"),
            tax_amount=Decimal("2.10"),
            occurred_at=timezone.now(),
        )


def _pay_invoice(c):
    charge = c.charge()
    invoice = invoice_services.issue_invoice(c.organization, [charge])

    def pay():
        Transaction.objects.filter(pk=charge.pk).update(paid_amount=charge.amount, payment_status="paid")
        invoice_services.refresh_invoice_payment(invoice.pk)

    return pay


def _expire(c):
    yesterday = timezone.now().date() - dt.timedelta(days=2)
    make_membership(c.organization, c.contact, end_date=yesterday, next_billing_date=None)
    return lambda: membership_services.run_lifecycle(now=timezone.now())


def _notified(c):
    _occurrence, seat, _entry = c.full_class_with_waiting()
    return lambda: c.ok("post", f"/bookings/{seat['bookingId']}/cancel")


def _promoted(c):
    occurrence, seat, entry = c.full_class_with_waiting()
    c.ok("post", f"/bookings/{seat['bookingId']}/cancel")
    return lambda: c.ok("post", f"/classes/{occurrence.id}/waitlist/{entry['id']}/promote")


def _removed(c):
    occurrence, _seat, entry = c.full_class_with_waiting()
    return lambda: c.api.delete(f"{P}/classes/{occurrence.id}/waitlist/{entry['id']}")


def _checkin(c):
    booking = c.booking()
    return lambda: c.ok("post", "/checkins", {"bookingId": booking["id"]})


def _website(c, verb):
    c.ok("patch", "/website", {"name": "Site", "clubId": c.club.id})
    c.ok("post", "/website/pages", {"slug": "home", "title": "Home"})
    if verb == "publish":
        return lambda: c.ok("post", "/website/publish", {"note": "Launch"})
    release = c.ok("post", "/website/publish", {"note": "Launch"})
    return lambda: c.ok("post", f"/website/releases/{release['version']}/rollback")


def _then(setup, op):
    """setup(c) -> value; the operation op(c, value)."""
    return lambda c: (lambda value: lambda: op(c, value))(setup(c))


QUESTIONS = [{"type": "text", "label": "Name", "required": True}]

TRIGGERS = {
    "availability.changed": lambda c: c.block,
    "booking.created": lambda c: c.booking,
    "booking.updated": _then(Ctx.booking, lambda c, b: c.ok("patch", f"/bookings/{b['id']}", {"notes": "Balls"})),
    "booking.cancelled": _then(Ctx.booking, lambda c, b: c.ok("post", f"/bookings/{b['id']}/cancel")),
    "waitlist.joined": lambda c: lambda: c.full_class_with_waiting(),
    "waitlist.notified": _notified,
    "waitlist.promoted": _promoted,
    "waitlist.removed": _removed,
    "checkin.created": _checkin,
    "class.created": lambda c: c.klass,
    "class.updated": _then(Ctx.klass, lambda c, k: c.ok("patch", f"/classes/{k['id']}", {"name": "Spin 45"})),
    "class.cancelled": _then(Ctx.klass, lambda c, k: c.ok("post", f"/classes/{k['id']}/cancel")),
    "class.deleted": _then(Ctx.klass, lambda c, k: c.api.delete(f"{P}/classes/{k['id']}")),
    "class.series_changed": lambda c: (
        lambda: c.klass(
            recurrence={"frequency": "weekly", "daysOfWeek": ["monday"], "ends": {"type": "after", "occurrences": 2}}
        )
    ),
    "area_block.created": lambda c: c.block,
    "area_block.deleted": _then(Ctx.block, lambda c, b: c.api.delete(f"{P}/area-blocks/{b['id']}")),
    "contact.created": lambda c: lambda: c.ok("post", "/contacts", {"firstName": "New"}),
    "contact.updated": lambda c: lambda: c.ok("patch", f"/contacts/{c.contact.id}", {"phone": "+34600000000"}),
    "contact.archived": lambda c: lambda: c.ok("post", f"/contacts/{c.contact.id}/archive"),
    "contact.restored": _then(
        lambda c: c.ok("post", f"/contacts/{c.contact.id}/archive"),
        lambda c, _: c.ok("post", f"/contacts/{c.contact.id}/restore"),
    ),
    "membership.created": lambda c: c.membership,
    "membership.updated": _then(
        Ctx.membership, lambda c, m: c.ok("patch", f"/memberships/{m['id']}", {"notes": "VIP"})
    ),
    "membership.paused": _then(Ctx.membership, lambda c, m: c.ok("post", f"/memberships/{m['id']}/pause")),
    "membership.resumed": _then(
        lambda c: c.ok("post", f"/memberships/{c.membership()['id']}/pause"),
        lambda c, m: c.ok("post", f"/memberships/{m['id']}/resume"),
    ),
    "membership.cancelled": _then(Ctx.membership, lambda c, m: c.ok("post", f"/memberships/{m['id']}/cancel")),
    "membership.expired": _expire,
    "transaction.created": lambda c: c.outside_revenue,
    "transaction.updated": _then(
        Ctx.membership, lambda c, m: c.ok("patch", f"/memberships/{m['id']}", {"paymentStatus": "paid"})
    ),
    "transaction.refunded": _then(
        Ctx.outside_revenue, lambda c, t: c.ok("post", f"/transactions/{t['id']}/refund", {"amount": 5})
    ),
    "invoice.created": lambda c: lambda: invoice_services.issue_invoice(c.organization, [c.charge()]),
    "invoice.updated": _pay_invoice,
    "event.created": lambda c: c.event,
    "event.updated": _then(Ctx.event, lambda c, e: c.ok("patch", f"/events/{e['id']}", {"description": "Fun"})),
    "event.published": _then(Ctx.event, lambda c, e: c.ok("post", f"/events/{e['id']}/publish")),
    "event.unpublished": _then(
        lambda c: c.ok("post", f"/events/{c.event()['id']}/publish"),
        lambda c, e: c.ok("post", f"/events/{e['id']}/unpublish"),
    ),
    "event.cancelled": _then(Ctx.event, lambda c, e: c.ok("post", f"/events/{e['id']}/cancel")),
    "event.deleted": _then(Ctx.event, lambda c, e: c.api.delete(f"{P}/events/{e['id']}")),
    "plan.created": lambda c: lambda: c.ok("post", "/plans", {"name": "Drop-in", "price": 12}),
    "plan.updated": _then(
        lambda c: c.ok("post", "/plans", {"name": "Drop-in", "price": 12}),
        lambda c, p: c.ok("patch", f"/plans/{p['id']}", {"price": 14}),
    ),
    "plan.retired": _then(
        lambda c: c.ok("post", "/plans", {"name": "Drop-in", "price": 12}),
        lambda c, p: c.ok("post", f"/plans/{p['id']}/retire"),
    ),
    "plan.deleted": _then(
        lambda c: c.ok("post", "/plans", {"name": "Drop-in", "price": 12}),
        lambda c, p: c.api.delete(f"{P}/plans/{p['id']}"),
    ),
    "instructor.created": lambda c: lambda: c.ok("post", "/instructors", {"contact": {"firstName": "Nacho"}}),
    "instructor.updated": _then(
        lambda c: c.ok("post", "/instructors", {"contact": {"firstName": "Nacho"}}),
        lambda c, i: c.ok("patch", f"/instructors/{i['id']}", {"experience": "10 years"}),
    ),
    "form.created": lambda c: lambda: c.ok("post", "/forms", {"name": "Trial", "questions": QUESTIONS}),
    "form.updated": _then(
        lambda c: c.ok("post", "/forms", {"name": "Trial", "questions": QUESTIONS}),
        lambda c, f: c.ok("patch", f"/forms/{f['id']}", {"isActive": False}),
    ),
    "content_item.created": lambda c: lambda: c.ok("post", "/content-items", {"title": "FAQ", "type": "faq"}),
    "content_item.updated": _then(
        lambda c: c.ok("post", "/content-items", {"title": "FAQ", "type": "faq"}),
        lambda c, i: c.ok("patch", f"/content-items/{i['id']}", {"title": "FAQ 2"}),
    ),
    "content_item.deleted": _then(
        lambda c: c.ok("post", "/content-items", {"title": "FAQ", "type": "faq"}),
        lambda c, i: c.api.delete(f"{P}/content-items/{i['id']}"),
    ),
    "website.published": lambda c: _website(c, "publish"),
    "website.rolled_back": lambda c: _website(c, "rollback"),
}


def test_every_type_has_a_trigger():
    assert set(TRIGGERS) == set(EVENT_TYPES)


def _keys(shape):
    hints = typing.get_type_hints(shape)
    return set(hints), set(shape.__required_keys__)


@pytest.mark.parametrize("event_type", sorted(EVENT_TYPES))
def test_the_operation_records_its_event(event_type, api, organization, club, area, contact):
    ctx = Ctx(api, organization, club, area, contact)
    operation = TRIGGERS[event_type](ctx)
    before = set(DomainEvent.objects.values_list("id", flat=True))
    operation()
    new = DomainEvent.objects.exclude(id__in=before)
    emitted = new.filter(type=event_type)
    assert emitted.exists(), (event_type, list(new.values_list("type", flat=True)))
    declared, required = _keys(EVENT_TYPES[event_type].shape)
    for event in emitted:
        assert event.organization_id == organization.id
        assert required <= set(event.data) <= declared, set(event.data) ^ declared
        if event_type.endswith(".updated"):
            assert event.changed_fields, event_type
    if event_type == "availability.changed":
        assert all(e.data["organizationId"] == organization.id for e in emitted)


def test_a_rolled_back_write_records_and_sends_nothing(organization):
    make_subscription(organization)
    with pytest.raises(RuntimeError), transaction.atomic():
        contact_services.create_contact(organization, first_name="Ghost", email="ghost@example.com")
        assert DomainEvent.objects.filter(type="contact.created").exists()  # recorded inside the transaction
        raise RuntimeError("the write fails after its event was recorded")
    assert not DomainEvent.objects.exists()
    assert not WebhookDelivery.objects.exists()


def test_a_refused_write_records_nothing(api, contact):
    response = api.post(f"{P}/contacts", {"firstName": "Twin", "email": contact.email}, format="json")
    assert response.status_code == 409
    assert not DomainEvent.objects.exists()
