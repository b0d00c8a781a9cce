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
from collections import deque
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import DateField, Exists, ExpressionWrapper, F, OuterRef, Q
from django.utils import timezone

from apps.api.exceptions import InvalidStateTransition, ValidationFailed
from apps.api.resources import camel_case
from apps.billing.models import Plan
from apps.billing.revenue_accounts import revenue_account_for_plan
from apps.contacts.choices import ContactStatus
from apps.contacts.models import Contact
from apps.domain_events.services import changed_keys, emit, emit_many
from apps.invoices.services import issue_invoice, refresh_invoice_payment
from apps.kernel import clock
from apps.kernel.money import currency_exponent, round_money, tax_included
from apps.transactions.choices import TransactionPaymentStatus, TransactionSourceType, TransactionType
from apps.transactions.models import Transaction
from apps.transactions.services import payload as transaction_payload

from .choices import CancelEffective, MembershipPaymentStatus, MembershipSource, MembershipStatus
from .models import Membership, MembershipPeriod
from .periods import ONE_DAY, add_months, cadence_of, next_start, one_time_end, period_end, plan_cadence
from .resources import MEMBERSHIP
from .usage import lock_membership, locked_memberships

ZERO = Decimal("0")
OPEN = (MembershipStatus.ACTIVE, MembershipStatus.PAUSED)
# A run of the worker bills at most this many periods of one membership (a worker that was down catches up over
# runs); the run as a whole spends at most `MEMBERSHIP_LIFECYCLE_BUDGET` (see `run_lifecycle`).
MAX_PERIODS_PER_RUN = 12
# How far from today (the membership's clock) a sale's `startDate` may be, either way, and a PATCHed `endDate` ahead.
MAX_START_DISTANCE = dt.timedelta(days=366)
MAX_END_AHEAD_MONTHS = 120

# -- presenting and clocks --------------------------------------------------------------------------------------


def _membership_event(organization, type_: str, membership_id: int, changed=None):
    # built now: several events of one operation each show their moment
    data = MEMBERSHIP.event_body(organization, membership_id)
    return (type_, data, changed)


def _transaction_event(organization, type_: str, transaction_id: int, changed=None):
    return (type_, transaction_payload(organization, transaction_id), changed)


# -- charges ----------------------------------------------------------------------------------------------------


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
        tax_amount=tax_included(amount, organization.default_tax_rate, exponent),
        paid_amount=amount if paid else ZERO,
        payment_status=TransactionPaymentStatus.PAID if paid else TransactionPaymentStatus.UNPAID,
        occurred_at=now,
        paid_at=now if paid else None,
    )


def _period_label(start: dt.date, end: dt.date | None) -> str:
    return f"{start.isoformat()} to {end.isoformat()}" if end else f"from {start.isoformat()}"


def _bill_period(organization, membership, plan, start, end, *, signup_fee=ZERO, paid=False, now, uses_granted=True):
    """The period row (unique per membership and start: an IntegrityError when it is billed already) and its
    charges: the period's price and, when given, the sign-up fee; none for what costs nothing. The revenue
    account is resolved now (the plan's own, else the organization's default at this moment)."""
    period = MembershipPeriod.objects.create(
        organization=organization, membership=membership, start_date=start, end_date=end, uses_granted=uses_granted
    )
    account = revenue_account_for_plan(plan)
    charges = []
    for field_name, amount, description in (
        ("charge", membership.price, f"Membership {plan.name}, {_period_label(start, end)}"),
        ("signup_fee", signup_fee, f"Sign-up fee, membership {plan.name}"),
    ):
        if amount > 0:
            charge = _charge(
                organization, membership, amount=amount, description=description, account=account, paid=paid, now=now
            )
            setattr(period, field_name, charge)
            charges.append(charge)
    if charges:
        period.save(update_fields=["charge", "signup_fee"])
    return charges


def _invoice(organization, charges: list, issue_date: dt.date) -> None:
    """One invoice for the charges of one billed period (the period's price and, at sale, the sign-up fee);
    none when the period cost nothing. Emits `invoice.created` after the membership's and the charges' events."""
    if charges:
        issue_invoice(organization, charges, issue_date=issue_date)


# -- sale -------------------------------------------------------------------------------------------------------


def first_period(plan, start: dt.date, today: dt.date) -> tuple[dt.date, dt.date | None, dt.date | None]:
    """(first billed day, endDate, nextBillingDate) of a membership of `plan` starting on `start`. A back-dated
    membership of an auto-renewing plan is billed from the period that contains `today` (its earlier periods are
    not billed: a sale dated a year back bills one period, not twelve); any other starts with its first period."""
    cadence = plan_cadence(plan)
    if cadence is None:
        return start, one_time_end(start, plan.validity_period), None
    if not plan.auto_renews:
        return start, period_end(start, cadence, start.day), None
    billed = current_period_start(start, cadence, start.day, today)
    end = period_end(billed, cadence, start.day)
    return billed, end, end + ONE_DAY


def current_period_start(first: dt.date, cadence, anchor_day: int, today: dt.date) -> dt.date:
    """The first day of the period, on the grid of periods from `first`, that contains `today` (`first` when it
    has not begun)."""
    day = first
    while (following := next_start(day, cadence, anchor_day)) <= today:
        day = following
    return day


def _check_start(start: dt.date, today: dt.date) -> None:
    earliest, latest = today - MAX_START_DISTANCE, today + MAX_START_DISTANCE
    if not earliest <= start <= latest:
        raise ValidationFailed(
            {"startDate": [f"Must be between {earliest} and {latest} (at most 366 days from today)."]}
        )


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
        today = clock.today(plan.club, organization, now=now)
        start = data.get("start_date") or today
        _check_start(start, today)
        billed_from, end, next_billing = first_period(plan, start, today)
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
        charges = _bill_period(
            organization, membership, plan, billed_from, end, signup_fee=signup_fee, paid=paid, now=now
        )
        emit(organization, "membership.created", MEMBERSHIP.event_body(organization, membership.pk))
        _invoice(organization, charges, today)
        # after the invoice: the charges' events show their `invoiceId`
        emit_many(organization, [_transaction_event(organization, "transaction.created", c.pk) for c in charges])
    return membership


# -- price and paid state ---------------------------------------------------------------------------------------


def _latest_period(membership) -> MembershipPeriod | None:
    return MembershipPeriod.objects.filter(membership=membership).order_by("-start_date").first()


def _locked_charges(period: MembershipPeriod) -> list[Transaction]:
    """The period's charges (its price's and its sign-up fee's), row-locked."""
    ids = [pk for pk in (period.charge_id, period.signup_fee_id) if pk is not None]
    return list(Transaction.objects.select_for_update().filter(pk__in=ids).order_by("id"))


def _settle(organization, membership, *, paid: bool, now) -> tuple[list, list]:
    """Mark the latest billed period's charges paid in full (or back to unpaid): (events for those that changed,
    the ids of their invoices). A charge with refunds, or void, is left alone."""
    period = _latest_period(membership)
    if period is None:
        return [], []
    events, invoice_ids = [], []
    for charge in _locked_charges(period):
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


def _save_and_record(organization, locked: Membership, before: dict, events: list) -> None:
    """Save `locked` and record `membership.updated` (when a key of its body changed) before `events`."""
    locked.save()
    after = MEMBERSHIP.event_body(organization, locked.pk)
    changed = changed_keys(before, after)
    emit_many(organization, [("membership.updated", after, changed), *events] if changed else events)


def update_membership(membership: Membership, data: dict) -> Membership:
    """PATCH: `price` (later periods), `payment_status` (the latest billed period's charges follow), `end_date`
    (active or paused only; `nextBillingDate` and a pending `cancelAt` follow), `notes`."""
    organization = membership.organization
    now = timezone.now()
    with transaction.atomic():
        locked = lock_membership(membership.pk)
        before = MEMBERSHIP.event_body(organization, locked.pk)
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
        _save_and_record(organization, locked, before, events)
        for invoice_id in invoice_ids:
            refresh_invoice_payment(invoice_id)  # `amountPaid` and `status` follow (invoice.updated)
    return locked


def _move_end(locked: Membership, end: dt.date | None) -> None:
    if end is not None and end < locked.start_date:
        raise ValidationFailed({"endDate": ["Must not be before `startDate`."]})
    latest = add_months(clock.today(locked.club, locked.organization), MAX_END_AHEAD_MONTHS)
    if end is not None and end > latest:
        raise ValidationFailed({"endDate": [f"Must not be after {latest} (10 years from today)."]})
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
    membership admits nobody and is not renewed (see `_resume`); a non-renewing one still expires at its end."""
    organization = membership.organization
    with transaction.atomic():
        locked = lock_membership(membership.pk)
        if resume_date is not None and resume_date <= clock.today(locked.club, organization):
            raise ValidationFailed({"resumeDate": ["Must be after today; resume now with /resume."]})
        if locked.status != MembershipStatus.ACTIVE:
            raise InvalidStateTransition(locked.status)
        locked.status = MembershipStatus.PAUSED
        locked.paused_at = timezone.now()
        locked.resume_date = resume_date
        locked.save(update_fields=["status", "paused_at", "resume_date", "updated_at"])
        emit(organization, "membership.paused", MEMBERSHIP.event_body(organization, locked.pk))
    return locked


def _resume(locked: Membership, today: dt.date) -> None:
    """paused -> active. A renewal that fell due during the pause was not billed: billing restarts with the period
    (on the membership's own grid) that contains `today`, and the periods wholly inside the pause are never billed.
    The caller renews what is then due (`_renew_due`)."""
    locked.status = MembershipStatus.ACTIVE
    locked.paused_at = None
    locked.resume_date = None
    locked.save(update_fields=["status", "paused_at", "resume_date", "updated_at"])
    due, plan = locked.next_billing_date, locked.plan
    cadence = cadence_of(locked.billing_frequency, plan.custom_period, plan.custom_period_unit)
    if due is not None and cadence is not None and due < today:
        locked.next_billing_date = current_period_start(due, cadence, locked.start_date.day, today)


def resume_membership(membership: Membership) -> Membership:
    """paused -> active; the period that contains today is billed at once when the pause outlasted the last one."""
    organization = membership.organization
    now = timezone.now()
    with transaction.atomic():
        locked = lock_membership(membership.pk)
        if locked.status != MembershipStatus.PAUSED:
            raise InvalidStateTransition(locked.status)
        today = clock.today(locked.club, organization, now=now)
        _resume(locked, today)
        events = [_membership_event(organization, "membership.resumed", locked.pk)]
        before = MEMBERSHIP.event_body(organization, locked.pk)
        _grant_started_uses(locked, locked.plan, today)
        billed = _renew_due(organization, locked, locked.plan, today, now, MAX_PERIODS_PER_RUN)
        _record_progress(organization, locked, before, events, billed, today)
    return locked


def _collected(charge: Transaction) -> bool:
    return bool(charge.paid_amount) or bool(charge.refunded_amount)


def _withdraw_unstarted_renewals(organization, locked: Membership, now) -> tuple[list, list]:
    """A cancellation takes back what a renewal billed ahead: each renewal period that has not started by today
    on the membership's clock at `now` (never the sale's first period), latest first, on whose charges nothing was
    collected, is removed and its charges become `void`; `endDate` moves back to the end of the last period kept,
    and `paymentStatus` follows that period. A period something was paid on is kept, with every period before it
    (nothing is paid out here). Returns (`transaction.updated` events, the ids of the invoices to refresh)."""
    today = clock.today(locked.club, organization, now=now)
    periods = list(MembershipPeriod.objects.filter(membership=locked).order_by("start_date"))
    events, invoice_ids, withdrawn = [], [], False
    for period in reversed(periods[1:]):
        if period.start_date <= today:
            break
        charges = _locked_charges(period)
        if any(_collected(charge) for charge in charges):
            break
        for charge in charges:
            if charge.payment_status != TransactionPaymentStatus.VOID:
                charge.payment_status = TransactionPaymentStatus.VOID
                charge.save(update_fields=["payment_status", "updated_at"])
                events.append(_transaction_event(organization, "transaction.updated", charge.pk, ["paymentStatus"]))
                if charge.invoice_id is not None and charge.invoice_id not in invoice_ids:
                    invoice_ids.append(charge.invoice_id)
        period.delete()
        locked.end_date, withdrawn = period.start_date - ONE_DAY, True
    if withdrawn:
        kept = _latest_period(locked)
        charges = [c for c in (kept.charge, kept.signup_fee) if c is not None] if kept else []
        if charges:
            all_paid = all(c.payment_status == TransactionPaymentStatus.PAID for c in charges)
            locked.payment_status = MembershipPaymentStatus.PAID if all_paid else MembershipPaymentStatus.UNPAID
    return events, invoice_ids


def _cancel_now(locked: Membership, reason: str | None, now) -> None:
    locked.status = MembershipStatus.CANCELLED
    locked.cancelled_at = now
    locked.cancellation_reason = reason if reason is not None else locked.cancellation_reason
    locked.cancel_at = None
    locked.next_billing_date = None
    locked.save()


def _cancel_with_withdrawal(organization, locked: Membership, reason: str | None, now) -> None:
    """Cancel now: withdraw the periods billed ahead, then `membership.cancelled`, the voided charges'
    `transaction.updated` and their invoices' `invoice.updated`."""
    events, invoice_ids = _withdraw_unstarted_renewals(organization, locked, now)
    _cancel_now(locked, reason, now)
    emit_many(organization, [_membership_event(organization, "membership.cancelled", locked.pk), *events])
    for invoice_id in invoice_ids:
        refresh_invoice_payment(invoice_id)


def cancel_membership(membership: Membership, *, effective=CancelEffective.IMMEDIATELY, reason=None) -> Membership:
    """active/paused -> cancelled now, or, `end_of_period`, `cancelAt` set to the day after the current period's
    end (the status stays; no further renewal; the worker cancels it that day). Either way a period billed ahead
    and not started is withdrawn (`_withdraw_unstarted_renewals`); other charges stay as they are."""
    organization = membership.organization
    now = timezone.now()
    with transaction.atomic():
        locked = lock_membership(membership.pk)
        if locked.status not in OPEN:
            raise InvalidStateTransition(locked.status)
        if effective == CancelEffective.IMMEDIATELY:
            _cancel_with_withdrawal(organization, locked, reason, now)
            return locked
        if locked.end_date is None:
            raise ValidationFailed(
                {"effective": ["The membership has no end date, so no period end: cancel it `immediately`."]}
            )
        before = MEMBERSHIP.event_body(organization, locked.pk)
        events, invoice_ids = _withdraw_unstarted_renewals(organization, locked, now)
        locked.cancel_at = locked.end_date + ONE_DAY
        locked.next_billing_date = None
        if reason is not None:
            locked.cancellation_reason = reason
        _save_and_record(organization, locked, before, events)
        for invoice_id in invoice_ids:
            refresh_invoice_payment(invoice_id)
    return locked


def cancel_for_archived_contact(contact, *, reason: str | None, now) -> None:
    """Cancel the contact's active and paused memberships at once (inside the archive's transaction)."""
    ids = Membership.objects.filter(contact=contact, status__in=OPEN).order_by("id").values_list("id", flat=True)
    for membership_id in list(ids):
        locked = lock_membership(membership_id)
        if locked.status not in OPEN:
            continue
        _cancel_with_withdrawal(locked.organization, locked, reason or "Contact archived", now)


# -- the worker -------------------------------------------------------------------------------------------------


def due_memberships(now: dt.datetime) -> list[tuple[int, int]]:
    """(organization id, membership id) of the open memberships with something due by tomorrow in UTC (every
    clock's today is at most that), by organization: a scheduled cancellation or resume, a renewal of an active
    one inside its plan's advance window, the uses of a period billed in advance that has started, or an end
    date passed."""
    horizon = now.astimezone(dt.UTC).date() + ONE_DAY
    renew_from = ExpressionWrapper(
        F("next_billing_date") - F("plan__renewal_days_in_advance"), output_field=DateField()
    )
    uses_pending = MembershipPeriod.objects.filter(
        membership=OuterRef("pk"), uses_granted=False, start_date__lte=horizon
    )
    due = (
        Q(cancel_at__lte=horizon)
        | Q(status=MembershipStatus.PAUSED, resume_date__lte=horizon)
        | Q(status=MembershipStatus.ACTIVE, next_billing_date__isnull=False, cancel_at__isnull=True)
        & Q(renew_from__lte=horizon)
        | Q(next_billing_date__isnull=True, end_date__lt=horizon)
        | Q(Exists(uses_pending))
    )
    return list(
        Membership.objects.filter(status__in=OPEN)
        .alias(renew_from=renew_from)
        .filter(due)
        .order_by("organization_id", "id")
        .values_list("organization_id", "id")
    )


def _renew(organization, locked: Membership, plan, today: dt.date, now) -> list:
    """Bill the period starting on `nextBillingDate` and move the dates: the period's charges ([] when it cost
    nothing, or cannot renew any more). The uses are reset now only when the period has started (else on its
    first day, `_grant_started_uses`)."""
    cadence = cadence_of(locked.billing_frequency, plan.custom_period, plan.custom_period_unit)
    start = locked.next_billing_date
    if cadence is None or not plan.auto_renews:
        locked.next_billing_date = None  # the plan stopped renewing: this membership runs out at its end date
        return []
    end = period_end(start, cadence, locked.start_date.day)
    started = start <= today
    try:
        with transaction.atomic():
            charges = _bill_period(organization, locked, plan, start, end, now=now, uses_granted=started)
    except IntegrityError:
        charges = []  # this period was billed already (a run that crashed after billing): only move the dates
    locked.end_date = end
    locked.next_billing_date = end + ONE_DAY
    if started:
        locked.uses_remaining = plan.max_uses
    if charges:
        locked.payment_status = MembershipPaymentStatus.UNPAID
    return charges


def _renew_due(organization, locked: Membership, plan, today: dt.date, now, max_periods: int) -> list[list]:
    """Renew an active membership as long as its next period is inside the advance window, at most
    `max_periods` times: the charges of each period billed."""
    billed = []
    while len(billed) < max_periods and locked.status == MembershipStatus.ACTIVE and locked.cancel_at is None:
        due = locked.next_billing_date
        if due is None or due - dt.timedelta(plan.renewal_days_in_advance) > today:
            break
        billed.append(_renew(organization, locked, plan, today, now))
    return billed


def _grant_started_uses(locked: Membership, plan, today: dt.date) -> None:
    """A period billed in advance grants its uses on its first day: `usesRemaining` back to the plan's `maxUses`."""
    pending = MembershipPeriod.objects.filter(membership=locked, uses_granted=False, start_date__lte=today)
    if pending.update(uses_granted=True):
        locked.uses_remaining = plan.max_uses


PROGRESS_FIELDS = ("next_billing_date", "end_date", "uses_remaining", "payment_status")  # what the worker moves


def _record_progress(organization, locked: Membership, before: dict, events: list, billed: list, today) -> list[str]:
    """Save what the worker (or a resume) moved and record it: `events` so far, `membership.updated` when the
    membership changed, one invoice per billed period, then the charges' `transaction.created` (after the
    invoices, so they show their `invoiceId`). Returns the event types (invoices aside)."""
    if any(before[camel_case(name)] != getattr(locked, name) for name in PROGRESS_FIELDS):
        locked.save()
        after = MEMBERSHIP.event_body(organization, locked.pk)
        changed = changed_keys(before, after)
        events = [*events, ("membership.updated", after, changed)]
    emit_many(organization, events)
    for charges in billed:
        _invoice(organization, charges, today)
    created = [_transaction_event(organization, "transaction.created", c.pk) for charges in billed for c in charges]
    emit_many(organization, created)
    return [event[0] for event in events + created]


@dataclass
class Outcome:
    """What one visit of the worker did: the event types recorded and the periods billed."""

    done: list[str] = field(default_factory=list)
    periods: int = 0


def process_membership(
    membership_id: int, now: dt.datetime | None = None, max_periods: int = MAX_PERIODS_PER_RUN
) -> Outcome:
    """Bring one membership up to date, under its row lock (skipped when another worker holds it): a due
    `cancelAt` cancels it; a due `resumeDate` resumes it; a period billed in advance that has started grants its
    uses; an active auto-renewing one within `renewalDaysInAdvance` days of its `nextBillingDate` is renewed (as
    many periods as are due, at most `max_periods`; the next run continues); a non-renewing one past its
    `endDate` expires."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = locked_memberships(skip_locked=True).filter(pk=membership_id, status__in=OPEN).first()
        if locked is None:
            return Outcome()
        organization, plan = locked.organization, locked.plan
        today = clock.today(locked.club, organization, now=now)
        if locked.cancel_at is not None and locked.cancel_at <= today:
            _cancel_now(locked, None, now)
            emit_many(organization, [_membership_event(organization, "membership.cancelled", locked.pk)])
            return Outcome(["membership.cancelled"])
        events = []
        if locked.status == MembershipStatus.PAUSED and locked.resume_date and locked.resume_date <= today:
            _resume(locked, today)
            events.append(_membership_event(organization, "membership.resumed", locked.pk))
        before = MEMBERSHIP.event_body(organization, locked.pk)
        _grant_started_uses(locked, plan, today)
        billed = _renew_due(organization, locked, plan, today, now, max_periods)
        done = _record_progress(organization, locked, before, events, billed, today)
        if locked.next_billing_date is None and locked.end_date is not None and locked.end_date < today:
            locked.status = MembershipStatus.EXPIRED
            locked.save(update_fields=["status", "updated_at"])
            emit_many(organization, [_membership_event(organization, "membership.expired", locked.pk)])
            done.append("membership.expired")
        return Outcome(done, len(billed))


def run_lifecycle(now: dt.datetime | None = None, budget: int | None = None) -> dict:
    """The beat task's work, each membership in its own transaction, within a budget
    (`MEMBERSHIP_LIFECYCLE_BUDGET`: one unit per membership visited and per period billed) shared fairly: the
    organizations take turns, one due membership each per turn, so one organization's backlog cannot hold back
    the others; what the budget leaves is due again at the next run (counted as `deferred`). Idempotent: a second
    run finds nothing due; a concurrent run skips the rows this one holds (and the unique period start refuses a
    second bill of the same period)."""
    now = now or timezone.now()
    budget = settings.MEMBERSHIP_LIFECYCLE_BUDGET if budget is None else budget
    queues: dict[int, deque] = {}
    for organization_id, membership_id in due_memberships(now):
        queues.setdefault(organization_id, deque()).append(membership_id)
    turns = deque(queues)
    counts: dict[str, int] = {}
    while turns and budget > 0:
        organization_id = turns.popleft()
        queue = queues[organization_id]
        outcome = process_membership(queue.popleft(), now, max_periods=min(MAX_PERIODS_PER_RUN, budget))
        budget -= 1 + outcome.periods
        for done in outcome.done:
            counts[done] = counts.get(done, 0) + 1
        if queue:
            turns.append(organization_id)
    deferred = sum(len(queue) for queue in queues.values())
    if deferred:
        counts["deferred"] = deferred
    return counts
