"""Plans and plan categories: create, update, retire, delete. Plans record `plan.*` events in the transaction.

Rules on the whole plan (checked on the stored values merged with the change, so a PATCH of one field is checked
against the rest): `billingFrequency: custom` needs `customPeriod` and `customPeriodUnit`; any other frequency
stores both as null and refuses them when sent.
"""

from django.db import transaction
from django.utils import timezone

from apps.api.exceptions import InvalidStateTransition, ResourceInUse, ValidationFailed
from apps.api.resources import camel_case
from apps.domain_events.services import emit, emit_if_changed
from apps.kernel.records import delete_unless_in_use, set_fields
from apps.memberships.models import Membership

from .choices import BillingFrequency
from .models import Plan
from .resources import PLAN

RETIRED = "retired"
CUSTOM_PERIOD_FIELDS = ("custom_period", "custom_period_unit")  # set exactly when `billingFrequency` is custom


def _apply_period_rules(plan: Plan, sent: dict) -> None:
    custom = plan.billing_frequency == BillingFrequency.CUSTOM
    if custom:
        wrong = [field for field in CUSTOM_PERIOD_FIELDS if getattr(plan, field) is None]
        message = "Required when `billingFrequency` is `custom`."
    else:
        wrong = [field for field in CUSTOM_PERIOD_FIELDS if sent.get(field) is not None]
        message = "Only allowed when `billingFrequency` is `custom`."
    if wrong:
        raise ValidationFailed({camel_case(field): [message] for field in wrong})
    if not custom:
        plan.custom_period = None
        plan.custom_period_unit = None


@transaction.atomic
def create_plan(organization, data: dict) -> Plan:
    """`data` holds model field names (validated input)."""
    plan = Plan(organization=organization, **data)
    _apply_period_rules(plan, data)
    if not plan.is_active:
        plan.retired_at = None
    plan.save()
    emit(organization, "plan.created", lambda: PLAN.event_body(organization, plan.pk))
    return plan


@transaction.atomic
def update_plan(plan: Plan, data: dict) -> Plan:
    """Partial update under the plan's row lock. `isActive: true` re-activates a retired plan (clears
    `retiredAt`). Emits `plan.updated` with the changed fields when something changed."""
    organization = plan.organization
    locked = Plan.objects.select_for_update().get(pk=plan.pk)
    before = PLAN.event_body(organization, locked.pk)
    set_fields(locked, data)
    _apply_period_rules(locked, data)
    if data.get("is_active") is True:
        locked.retired_at = None
    locked.save()
    after = PLAN.event_body(organization, locked.pk)
    emit_if_changed(organization, "plan.updated", before, after)
    return locked


@transaction.atomic
def retire_plan(plan: Plan) -> Plan:
    """No new sales (`isActive: false`, `retiredAt` now); existing memberships run on. A retired plan is 409."""
    locked = Plan.objects.select_for_update().get(pk=plan.pk)
    if locked.retired_at is not None and not locked.is_active:
        raise InvalidStateTransition(RETIRED, "The plan is already retired.")
    locked.is_active = False
    locked.retired_at = timezone.now()
    locked.save(update_fields=["is_active", "retired_at", "updated_at"])
    emit(plan.organization, "plan.retired", lambda: PLAN.event_body(plan.organization, locked.pk))
    return locked


def _refuse_if_in_use(plan: Plan) -> None:
    in_use = Membership.objects.filter(plan_id=plan.pk).count()
    if in_use:
        raise ResourceInUse(f"The plan is used by {in_use} membership(s); retire it instead.", {"memberships": in_use})


@transaction.atomic
def delete_plan(plan: Plan) -> None:
    """Refused with 409 RESOURCE_IN_USE while any membership (whatever its status) references the plan."""
    organization = plan.organization
    locked = Plan.objects.select_for_update().get(pk=plan.pk)
    data = PLAN.event_body(organization, locked.pk)
    delete_unless_in_use(locked, _refuse_if_in_use)
    emit(organization, "plan.deleted", data)
