"""Selling memberships and their lifecycle: sale, price and paid state, pause, resume, cancel, and the worker's
expiry, scheduled resumes and cancellations, and renewals. The REST views, the contact archive and the beat task
call these.

Every operation runs in one transaction under the membership's row lock (a sale locks the contact and the plan:
an archive or a plan delete running at the same time waits for it) and records its events there. Nothing here
takes a payment: a charge records what a period costs, and `paymentStatus` records what staff say was paid.

Dates are on the membership's clock: its club's time zone when the plan is bound to a club, else the
organization's. Period arithmetic is in `periods.py`.
"""

import datetime as dt
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import DateField, ExpressionWrapper, F, Q
from django.utils import timezone

from apps.api.exceptions import InvalidStateTransition, ValidationFailed
from apps.api.resources import PresentContext
from apps.billing.models import Plan
from apps.billing.revenue_accounts import revenue_account_for_plan
from apps.contacts.choices import ContactStatus
from apps.contacts.models import Contact
from apps.domain_events.services import emit, emit_many
from apps.invoices.services import issue_invoice, refresh_invoice_payment
from apps.pricing.quote import currency_exponent, round_money
from apps.transactions.choices import TransactionPaymentStatus, TransactionSourceType, TransactionType
from apps.transactions.models import Transaction
from apps.transactions.services import payload as transaction_payload

from .choices import CancelEffective, MembershipPaymentStatus, MembershipSource, MembershipStatus
from .models import Membership, MembershipPeriod
from .periods import ONE_DAY, cadence_of, one_time_end, period_end, plan_cadence
from .resources import MEMBERSHIP
from .usage import local_today, lock_membership, locked_memberships

ZERO = Decimal("0")
OPEN = (MembershipStatus.ACTIVE, MembershipStatus.PAUSED)
# A renewal run bills at most this many periods of one membership (a sale backdated by years catches up over runs).
MAX_PERIODS_PER_RUN = 60

API_NAMES = {
    "price": "price",
    "payment_status": "paymentStatus",
    "end_date": "endDate",
    "notes": "notes",
}


# -- presenting and clocks --------------------------------------------------------------------------------------


def payload(organization, pk) -> dict:
    """The event body of membership `pk`: the API's Membership, presented for an event (every scope)."""
    return MEMBERSHIP.get(
        Membership.objects.filter(organization=organization), pk, PresentContext.for_event(organization)
    )


def _membership_event(organization, type_: str, membership_id: int, changed=None):
    data = payload(organization, membership_id)  # now: several events of one operation each show their moment
    return (type_, data, changed)


def _transaction_event(organization, type_: str, transaction_id: int, changed=None):
    return (type_, transaction_payload(organization, transaction_id), changed)


# -- charges ----------------------------------------------------------------------------------------------------


def included_tax(organization, amount: Decimal, exponent: int) -> Decimal:
    """The tax inside a tax-inclusive `amount` at the organization's default rate."""
    rate = Decimal(organization.default_tax_rate or 0)
    if amount <= 0 or rate <= 0:
        return ZERO
    return amount - round_money(amount * Decimal(100) / (Decimal(100) + rate), exponent)


def _charge(organization, membership, *, amount, description, account, paid, now) -> Transaction:
    exponent = currency_exponent(organization.currency)
    return Transaction.objects.create(
        organization=organization,
        type=TransactionType.CHARGE,
        source_type=TransactionSourceType.MEMBERSHIP,
        description=description[:500],
        contact_id=membership.contact_id,
        club_id=membership.club_id,
        membership=membership,
        revenue_account=account,
        amount=amount,
        tax_amount=included_tax(organization, amount, exponent),
        paid_amount=amount if paid else ZERO,
        payment_status=TransactionPaymentStatus.PAID if paid else TransactionPaymentStatus.UNPAID,
        occurred_at=now,
        paid_at=now if paid else None,
    )


def _period_label(start: dt.date, end: dt.date | None) -> str:
    return f"{start.isoformat()} to {end.isoformat()}" if end else f"from {start.isoformat()}"


def _bill_period(organization, membership, plan, start, end, *, signup_fee=ZERO, paid=False, now) -> list:
    """The period row (unique per membership and start: an IntegrityError when it is billed already) and its
    charges: the period's price and, when given, the sign-up fee; none for what costs nothing. The revenue
    account is resolved now (the plan's own, else the organization's default at this moment)."""
    period = MembershipPeriod.objects.create(
        organization=organization, membership=membership, start_date=start, end_date=end
    )
    account = revenue_account_for_plan(plan)
    charges = []
    if membership.price > 0:
        period.charge = _charge(
            organization,
            membership,
            amount=membership.price,
            description=f"Membership {plan.name}, {_period_label(start, end)}",
            account=account,
            paid=paid,
            now=now,
        )
        charges.append(period.charge)
    if signup_fee > 0:
        period.signup_fee = _charge(
            organization,
            membership,
            amount=signup_fee,
            description=f"Sign-up fee, membership {plan.name}",
            account=account,
            paid=paid,
            now=now,
        )
        charges.append(period.signup_fee)
    if charges:
        period.save(update_fields=["charge", "signup_fee"])
    return charges


def _invoice(organization, charges: list, issue_date: dt.date) -> None:
    """One invoice for the charges of one billed period (the period's price and, at sale, the sign-up fee);
    none when the period cost nothing. Emits `invoice.created` after the membership's and the charges' events."""
    if charges:
        issue_invoice(organization, charges, issue_date=issue_date)


# -- sale -------------------------------------------------------------------------------------------------------


def first_period(plan, start: dt.date) -> tuple[dt.date | None, dt.date | None]:
    """(endDate, nextBillingDate) of a membership of `plan` starting on `start`."""
    cadence = plan_cadence(plan)
    if cadence is None:
        return one_time_end(start, plan.validity_period), None
    end = period_end(start, cadence, start.day)
    return end, (end + ONE_DAY if plan.auto_renews else None)


def sell_membership(organization, data: dict, *, source: str = MembershipSource.API) -> Membership:
    """Sell `data["plan"]` to `data["contact"]` (validated input with model field names).

    One transaction: the membership, its first period's charge and the sign-up fee's (paid when `payment_status`
    is `paid`), the invoice listing them, and the events. An archived contact or an inactive plan is 400 on
    `contactId`/`planId`, checked under their row locks."""
    now = timezone.now()
    with transaction.atomic():
        contact = Contact.objects.select_for_update().get(pk=data["contact"].pk)
        if contact.status != ContactStatus.ACTIVE:
            raise ValidationFailed({"contactId": ["The contact is archived."]})
        plan = Plan.objects.select_for_update(of=("self",)).select_related("club").get(pk=data["plan"].pk)
        if not plan.is_active:
            raise ValidationFailed({"planId": ["The plan is retired or inactive: it cannot be sold."]})
        exponent = currency_exponent(organization.currency)
        price = round_money(Decimal(data.get("price", plan.price)), exponent)
        signup_fee = round_money(Decimal(data.get("signup_fee", plan.signup_fee)), exponent)
        start = data.get("start_date") or local_today(organization, plan.club, now)
        end, next_billing = first_period(plan, start)
        paid = data.get("payment_status", MembershipPaymentStatus.UNPAID) == MembershipPaymentStatus.PAID
        membership = Membership.objects.create(
            organization=organization,
            contact=contact,
            plan=plan,
            club=plan.club,
            status=MembershipStatus.ACTIVE,
            price=price,
            signup_fee=signup_fee,
            billing_frequency=plan.billing_frequency,
            payment_status=MembershipPaymentStatus.PAID if paid else MembershipPaymentStatus.UNPAID,
            start_date=start,
            end_date=end,
            next_billing_date=next_billing,
            uses_remaining=plan.max_uses,
            source=source,
            notes=data.get("notes"),
        )
        charges = _bill_period(organization, membership, plan, start, end, signup_fee=signup_fee, paid=paid, now=now)
        emit(organization, "membership.created", payload(organization, membership.pk))
        _invoice(organization, charges, local_today(organization, plan.club, now))
        # after the invoice: the charges' events show their `invoiceId`
        emit_many(organization, [_transaction_event(organization, "transaction.created", c.pk) for c in charges])
    return membership


# -- price and paid state ---------------------------------------------------------------------------------------


def _latest_period(membership) -> MembershipPeriod | None:
    return MembershipPeriod.objects.filter(membership=membership).order_by("-start_date").first()


def _settle(organization, membership, *, paid: bool, now) -> tuple[list, list]:
    """Mark the latest billed period's charges paid in full (or back to unpaid): (events for those that changed,
    the ids of their invoices). A charge with refunds, or void, is left alone."""
    period = _latest_period(membership)
    if period is None:
        return [], []
    ids = [pk for pk in (period.charge_id, period.signup_fee_id) if pk is not None]
    events, invoice_ids = [], []
    for charge in Transaction.objects.select_for_update().filter(pk__in=ids).order_by("id"):
        if paid and charge.payment_status in (
            TransactionPaymentStatus.UNPAID,
            TransactionPaymentStatus.PARTIALLY_PAID,
        ):
            charge.paid_amount, charge.paid_at = charge.amount, now
            charge.payment_status = TransactionPaymentStatus.PAID
        elif not paid and charge.payment_status == TransactionPaymentStatus.PAID and charge.refunded_amount == 0:
            charge.paid_amount, charge.paid_at = ZERO, None
            charge.payment_status = TransactionPaymentStatus.UNPAID
        else:
            continue
        charge.save(update_fields=["paid_amount", "paid_at", "payment_status", "updated_at"])
        if charge.invoice_id is not None and charge.invoice_id not in invoice_ids:
            invoice_ids.append(charge.invoice_id)
        events.append(
            _transaction_event(
                organization, "transaction.updated", charge.pk, ["paidAmount", "paymentStatus", "paidAt"]
            )
        )
    return events, invoice_ids


def renews(membership, plan) -> bool:
    """Whether the membership bills another period when this one ends (auto-renewing plan, recurring, no
    cancellation pending)."""
    cadence = cadence_of(membership.billing_frequency, plan.custom_period, plan.custom_period_unit)
    return cadence is not None and plan.auto_renews and membership.cancel_at is None


def update_membership(membership: Membership, data: dict) -> Membership:
    """PATCH: `price` (later periods), `payment_status` (the latest billed period's charges follow), `end_date`
    (active or paused only; `nextBillingDate` and a pending `cancelAt` follow), `notes`."""
    organization = membership.organization
    now = timezone.now()
    with transaction.atomic():
        locked = lock_membership(membership.pk)
        before = payload(organization, locked.pk)
        events, invoice_ids = [], []
        if "price" in data:
            locked.price = round_money(Decimal(data["price"]), currency_exponent(organization.currency))
        if "notes" in data:
            locked.notes = data["notes"]
        if "end_date" in data and data["end_date"] != locked.end_date:
            _move_end(locked, data["end_date"])
        status = data.get("payment_status")
        if status is not None and status != locked.payment_status:
            locked.payment_status = status
            events, invoice_ids = _settle(organization, locked, paid=status == MembershipPaymentStatus.PAID, now=now)
        locked.save()
        after = payload(organization, locked.pk)
        changed = [key for key in after if key != "updatedAt" and after[key] != before[key]]
        if changed:
            events.insert(0, ("membership.updated", after, changed))
        emit_many(organization, events)
        for invoice_id in invoice_ids:
            refresh_invoice_payment(invoice_id)  # `amountPaid` and `status` follow (invoice.updated)
    return locked


def _move_end(locked: Membership, end: dt.date | None) -> None:
    if end is not None and end < locked.start_date:
        raise ValidationFailed({"endDate": ["Must not be before `startDate`."]})
    if locked.status not in OPEN:
        raise InvalidStateTransition(locked.status, f"The end date of a {locked.status} membership cannot change.")
    if end is None and locked.cancel_at is not None:
        raise ValidationFailed(
            {"endDate": ["A cancellation at the end of the period is pending: it needs an end date."]}
        )
    locked.end_date = end
    if locked.cancel_at is not None:
        locked.cancel_at = end + ONE_DAY
    locked.next_billing_date = end + ONE_DAY if end is not None and renews(locked, locked.plan) else None


# -- pause, resume, cancel --------------------------------------------------------------------------------------


def pause_membership(membership: Membership, *, resume_date: dt.date | None = None) -> Membership:
    """active -> paused (`pausedAt` now, `resumeDate` when given: the worker resumes it that day). A paused
    membership admits nobody; its dates and billing run on."""
    organization = membership.organization
    with transaction.atomic():
        locked = lock_membership(membership.pk)
        if resume_date is not None and resume_date <= local_today(organization, locked.club):
            raise ValidationFailed({"resumeDate": ["Must be after today; resume now with /resume."]})
        if locked.status != MembershipStatus.ACTIVE:
            raise InvalidStateTransition(locked.status)
        locked.status = MembershipStatus.PAUSED
        locked.paused_at = timezone.now()
        locked.resume_date = resume_date
        locked.save(update_fields=["status", "paused_at", "resume_date", "updated_at"])
        emit(organization, "membership.paused", payload(organization, locked.pk))
    return locked


def _resume(locked: Membership) -> None:
    locked.status = MembershipStatus.ACTIVE
    locked.paused_at = None
    locked.resume_date = None
    locked.save(update_fields=["status", "paused_at", "resume_date", "updated_at"])


def resume_membership(membership: Membership) -> Membership:
    """paused -> active."""
    organization = membership.organization
    with transaction.atomic():
        locked = lock_membership(membership.pk)
        if locked.status != MembershipStatus.PAUSED:
            raise InvalidStateTransition(locked.status)
        _resume(locked)
        emit(organization, "membership.resumed", payload(organization, locked.pk))
    return locked


def _cancel_now(locked: Membership, reason: str | None, now) -> None:
    locked.status = MembershipStatus.CANCELLED
    locked.cancelled_at = now
    locked.cancellation_reason = reason if reason is not None else locked.cancellation_reason
    locked.cancel_at = None
    locked.next_billing_date = None
    locked.save(
        update_fields=["status", "cancelled_at", "cancellation_reason", "cancel_at", "next_billing_date", "updated_at"]
    )


def cancel_membership(membership: Membership, *, effective=CancelEffective.IMMEDIATELY, reason=None) -> Membership:
    """active/paused -> cancelled now, or, `end_of_period`, `cancelAt` set to the day after `endDate` (the status
    stays; no further renewal; the worker cancels it that day). Charges already billed stay as they are."""
    organization = membership.organization
    with transaction.atomic():
        locked = lock_membership(membership.pk)
        if locked.status not in OPEN:
            raise InvalidStateTransition(locked.status)
        if effective == CancelEffective.IMMEDIATELY:
            _cancel_now(locked, reason, timezone.now())
            emit(organization, "membership.cancelled", payload(organization, locked.pk))
            return locked
        if locked.end_date is None:
            raise ValidationFailed(
                {"effective": ["The membership has no end date, so no period end: cancel it `immediately`."]}
            )
        before = payload(organization, locked.pk)
        locked.cancel_at = locked.end_date + ONE_DAY
        locked.next_billing_date = None
        if reason is not None:
            locked.cancellation_reason = reason
        locked.save(update_fields=["cancel_at", "next_billing_date", "cancellation_reason", "updated_at"])
        after = payload(organization, locked.pk)
        changed = [key for key in after if key != "updatedAt" and after[key] != before[key]]
        if changed:
            emit(organization, "membership.updated", after, changed)
    return locked


def cancel_for_archived_contact(contact, *, reason: str | None, now) -> None:
    """Cancel the contact's active and paused memberships at once (inside the archive's transaction)."""
    ids = Membership.objects.filter(contact=contact, status__in=OPEN).order_by("id").values_list("id", flat=True)
    for membership_id in list(ids):
        locked = lock_membership(membership_id)
        if locked.status not in OPEN:
            continue
        _cancel_now(locked, reason or "Contact archived", now)
        emit(contact.organization_id, "membership.cancelled", payload(locked.organization, locked.pk))


# -- the worker -------------------------------------------------------------------------------------------------


def due_membership_ids(now: dt.datetime) -> list[int]:
    """Open memberships with something due by tomorrow in UTC (every clock's today is at most that): a
    scheduled cancellation or resume, a renewal inside its plan's advance window, or an end date passed."""
    horizon = now.astimezone(dt.UTC).date() + ONE_DAY
    renew_from = ExpressionWrapper(
        F("next_billing_date") - F("plan__renewal_days_in_advance"), output_field=DateField()
    )
    due = (
        Q(cancel_at__lte=horizon)
        | Q(status=MembershipStatus.PAUSED, resume_date__lte=horizon)
        | Q(next_billing_date__isnull=False, cancel_at__isnull=True, renew_from__lte=horizon)
        | Q(next_billing_date__isnull=True, end_date__lt=horizon)
    )
    return list(
        Membership.objects.filter(status__in=OPEN)
        .alias(renew_from=renew_from)
        .filter(due)
        .order_by("id")
        .values_list("id", flat=True)
    )


def _renew(organization, locked: Membership, plan, now) -> list:
    """Bill the period starting on `nextBillingDate` and move the dates: the period's charges ([] when it cost
    nothing, or cannot renew any more)."""
    cadence = cadence_of(locked.billing_frequency, plan.custom_period, plan.custom_period_unit)
    start = locked.next_billing_date
    if cadence is None or not plan.auto_renews:
        locked.next_billing_date = None  # the plan stopped renewing: this membership runs out at its end date
        return []
    end = period_end(start, cadence, locked.start_date.day)
    try:
        with transaction.atomic():
            charges = _bill_period(organization, locked, plan, start, end, now=now)
    except IntegrityError:
        charges = []  # this period was billed already (a run that crashed after billing): only move the dates
    locked.end_date = end
    locked.next_billing_date = end + ONE_DAY
    locked.uses_remaining = plan.max_uses
    if charges:
        locked.payment_status = MembershipPaymentStatus.UNPAID
    return charges


def process_membership(membership_id: int, now: dt.datetime | None = None) -> list[str]:
    """Bring one membership up to date, under its row lock (skipped when another worker holds it): a due
    `cancelAt` cancels it; a due `resumeDate` resumes it; an auto-renewing one within `renewalDaysInAdvance`
    days of its `nextBillingDate` is renewed (as many periods as are due, at most MAX_PERIODS_PER_RUN); a
    non-renewing one past its `endDate` expires. Returns what was done (event types)."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = locked_memberships(skip_locked=True).filter(pk=membership_id, status__in=OPEN).first()
        if locked is None:
            return []
        organization, plan = locked.organization, locked.plan
        today = local_today(organization, locked.club, now)
        events = []
        if locked.cancel_at is not None and locked.cancel_at <= today:
            _cancel_now(locked, None, now)
            events.append(_membership_event(organization, "membership.cancelled", locked.pk))
            emit_many(organization, events)
            return [e[0] for e in events]
        if locked.status == MembershipStatus.PAUSED and locked.resume_date and locked.resume_date <= today:
            _resume(locked)
            events.append(_membership_event(organization, "membership.resumed", locked.pk))
        before = payload(organization, locked.pk)
        billed = []  # the charges of each period billed now
        for _ in range(MAX_PERIODS_PER_RUN):
            due = locked.next_billing_date
            if due is None or locked.cancel_at is not None or due - dt.timedelta(plan.renewal_days_in_advance) > today:
                break
            billed.append(_renew(organization, locked, plan, now))
        if locked.next_billing_date != before["nextBillingDate"] or locked.end_date != before["endDate"]:
            locked.save()
            after = payload(organization, locked.pk)
            changed = [key for key in after if key != "updatedAt" and after[key] != before[key]]
            events.append(("membership.updated", after, changed))
            emit_many(organization, events)
            done, events = [e[0] for e in events], []
            for charges in billed:
                _invoice(organization, charges, today)
            # after the invoices: the charges' events show their `invoiceId`
            events += [
                _transaction_event(organization, "transaction.created", charge.pk)
                for charges in billed
                for charge in charges
            ]
        else:
            done = []
        if locked.next_billing_date is None and locked.end_date is not None and locked.end_date < today:
            locked.status = MembershipStatus.EXPIRED
            locked.save(update_fields=["status", "updated_at"])
            events.append(_membership_event(organization, "membership.expired", locked.pk))
        emit_many(organization, events)
        return done + [e[0] for e in events]


def run_lifecycle(now: dt.datetime | None = None) -> dict:
    """The beat task's work: every due membership brought up to date, each in its own transaction. Idempotent:
    a second run finds nothing due; a concurrent run skips the rows this one holds (and the unique period start
    refuses a second bill of the same period)."""
    now = now or timezone.now()
    counts: dict[str, int] = {}
    for membership_id in due_membership_ids(now):
        for done in process_membership(membership_id, now):
            counts[done] = counts.get(done, 0) + 1
    return counts
