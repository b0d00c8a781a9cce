"""The billing, memberships and bookings demo seeds: idempotent, and they leave a full class with a waitlist."""

from apps.billing import demo as billing_demo
from apps.billing.models import Plan
from apps.bookings import demo as bookings_demo
from apps.bookings.models import Booking, CheckIn, WaitlistEntry
from apps.memberships import demo as memberships_demo
from apps.memberships.models import Membership
from tests.factories import make_class, make_contact


def _ctx(organization, club):
    contacts = [make_contact(organization) for _ in range(8)]
    classes = [make_class(organization, club, name=f"Class {i}") for i in range(3)]
    full = make_class(organization, club, name="Full", max_capacity=4)
    return {"contacts": contacts, "classes": classes + [full], "full_class": full}


def test_seeds_are_idempotent(organization, club):
    ctx = _ctx(organization, club)
    for _ in range(2):
        billing_demo.seed(organization, ctx)
        memberships_demo.seed(organization, ctx)
        bookings_demo.seed(organization, ctx)
    assert set(Plan.objects.values_list("name", flat=True)) == {"Monthly unlimited", "10-class pass"}
    assert Membership.objects.count() == 8  # four active (in ctx) and one of each other state
    assert len(ctx["memberships"]) == 4
    full = ctx["full_class"]
    assert Booking.objects.filter(class_occurrence=full).count() == 4
    assert WaitlistEntry.objects.filter(class_occurrence=full, status="pending").count() == 2
    assert CheckIn.objects.filter(method="booking").count() == 2
    pass_holder = Membership.objects.get(plan__name="10-class pass", contact=ctx["contacts"][1])
    assert pass_holder.uses_remaining < 10  # seats drawn from the pass
