"""Revenue accounts: the organization's chart of accounts, with exactly one default sales account.

Every write that touches the default runs under the organization's row lock, so two concurrent switches end with
one default (and the partial unique index `billing_one_default_revenue_account` backs it up).
"""

from django.db import transaction

from apps.api.exceptions import Conflict
from apps.kernel.records import lock_row, set_fields
from apps.organizations.models import Organization

from .models import Plan, RevenueAccount

DEFAULT_ACCOUNT_NAME = "Sales"


class DefaultAccountRequired(Conflict):
    """409 CONFLICT: the default sales account must stay active and the default (switch the default instead)."""


def ensure_default_account(organization) -> RevenueAccount:
    """The organization's default account, created as "Sales" when it has none (a new organization)."""
    with transaction.atomic():
        lock_row(Organization, organization.pk)
        account = RevenueAccount.objects.filter(organization=organization, is_default=True).first()
        if account is None:
            account = RevenueAccount.objects.create(
                organization=organization, name=DEFAULT_ACCOUNT_NAME, is_default=True, is_active=True
            )
        return account


def default_account(organization) -> RevenueAccount | None:
    """The default sales account now (a sale resolves it at sale time)."""
    return RevenueAccount.objects.filter(organization=organization, is_default=True).first()


def revenue_account_for_plan(plan: Plan) -> RevenueAccount | None:
    """Where a sale of `plan` posts: its own account, else the organization's default at the time of the sale."""
    if plan.revenue_account_id is not None:
        return plan.revenue_account
    return default_account(plan.organization_id)


def _clear_other_defaults(account: RevenueAccount) -> None:
    RevenueAccount.objects.filter(organization_id=account.organization_id, is_default=True).exclude(
        pk=account.pk
    ).update(is_default=False)


def _check(account: RevenueAccount, was_default: bool) -> None:
    if was_default and not account.is_default:
        raise DefaultAccountRequired(
            "The default sales account stays the default: make another account the default instead."
        )
    if account.is_default and not account.is_active:
        raise DefaultAccountRequired("The default sales account cannot be deactivated.")


def create_account(organization, data: dict) -> RevenueAccount:
    """`data` holds model field names. `is_default` makes it the default and clears the flag elsewhere."""
    with transaction.atomic():
        lock_row(Organization, organization.pk)
        account = RevenueAccount(organization=organization, **data)
        _check(account, was_default=False)
        if account.is_default:
            RevenueAccount.objects.filter(organization=organization, is_default=True).update(is_default=False)
        account.save()
        return account


def update_account(account: RevenueAccount, data: dict) -> RevenueAccount:
    """Partial update under the organization's lock; the default cannot be deactivated or un-defaulted (409)."""
    with transaction.atomic():
        lock_row(Organization, account.organization_id)
        locked = RevenueAccount.objects.select_for_update().get(pk=account.pk)
        was_default = locked.is_default
        set_fields(locked, data)
        _check(locked, was_default)
        if locked.is_default and not was_default:
            _clear_other_defaults(locked)
        locked.save()
        return locked
