"""Demo memberships, sold through the services so each has its charges: four active ones that the bookings demo
draws seats from (a monthly plan and a 10-class pass, alternately; the first two paid), then one of every other
state: paused until a resume date, cancelling at the end of its period, cancelled, and an expired pass."""

import datetime as dt

from apps.billing.models import Plan
from apps.contacts.choices import ContactStatus
from apps.contacts.models import Contact
from apps.kernel import clock

from . import services
from .choices import CancelEffective, MembershipSource
from .models import Membership

MONTHLY, PASS = "Monthly unlimited", "10-class pass"


def _contacts(organization, ctx) -> list:
    contacts = ctx.get("contacts")
    if isinstance(contacts, dict):
        contacts = list(contacts.values())
    return list(contacts or Contact.objects.filter(organization=organization, status=ContactStatus.ACTIVE)[:10])


def _sell(organization, contact, plan, **fields) -> tuple[Membership, bool]:
    """The contact's membership of `plan`, sold now unless it exists (idempotent); (membership, sold now)."""
    existing = Membership.objects.filter(organization=organization, contact=contact, plan=plan).order_by("id").first()
    if existing is not None:
        return existing, False
    data = {"contact": contact, "plan": plan, **fields}
    return services.sell_membership(organization, data, source=MembershipSource.ADMIN), True


def seed(organization, ctx: dict) -> None:
    """Idempotent. Needs the billing demo's plans; puts `ctx["memberships"]` (the four active ones)."""
    plans = ctx.get("plans") or {p.name: p for p in Plan.objects.filter(organization=organization)}
    if MONTHLY not in plans or PASS not in plans:
        return
    contacts = [c for c in _contacts(organization, ctx) if c.status == ContactStatus.ACTIVE]
    today = clock.today(organization)
    active = []
    for index, contact in enumerate(contacts[:4]):
        plan = plans[MONTHLY] if index % 2 == 0 else plans[PASS]
        start = today - dt.timedelta(days=15)
        paid = "paid" if index < 2 else "unpaid"
        membership, _ = _sell(organization, contact, plan, start_date=start, payment_status=paid)
        active.append(membership)
    others = contacts[4:8]
    if len(others) == 4:
        paused, sold = _sell(organization, others[0], plans[MONTHLY], start_date=today - dt.timedelta(days=5))
        if sold:
            services.pause_membership(paused, resume_date=today + dt.timedelta(days=14))
        leaving, sold = _sell(organization, others[1], plans[MONTHLY], start_date=today - dt.timedelta(days=20))
        if sold:
            services.cancel_membership(leaving, effective=CancelEffective.END_OF_PERIOD, reason="Moving away")
        cancelled, sold = _sell(organization, others[2], plans[MONTHLY], start_date=today - dt.timedelta(days=40))
        if sold:
            services.cancel_membership(cancelled, reason="Changed to a pass")
        expired, sold = _sell(
            organization, others[3], plans[PASS], start_date=today - dt.timedelta(days=120), payment_status="paid"
        )
        if sold:
            services.process_membership(expired.pk)  # 90 days of validity ended a month ago
    ctx["memberships"] = active
