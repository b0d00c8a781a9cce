"""What drawing a seat or a walk-in from a membership checks and takes (bookings and check-ins call these):
`validate_membership_for_class`, `validate_membership_for_club`, `consume_use` and `restore_use`; and the row lock
every membership operation shares. A membership's clock is the kernel's `clock.today(club, organization)`: its
club's, else the organization's.
"""

import datetime as dt

from apps.api.exceptions import Conflict
from apps.kernel import clock

from .choices import MembershipStatus
from .models import Membership

CLASSES_SCOPE = "classes"


class MembershipNotValid(Conflict):
    """409 MEMBERSHIP_NOT_VALID with `details.reason` (a stable snake_case reason)."""

    code = "MEMBERSHIP_NOT_VALID"

    MESSAGES = {
        "contact_mismatch": "The membership belongs to another contact.",
        "not_active": "The membership is not active.",
        "not_started": "The membership has not started yet on that day.",
        "ended": "The membership has ended before that day.",
        "no_uses_left": "The membership has no uses left.",
        "not_valid_for_classes": "The membership's plan does not cover classes.",
        "class_type_not_covered": "The membership's plan does not cover this class type.",
        "club_not_covered": "The membership is not valid at this club.",
    }

    def __init__(self, reason: str):
        super().__init__(self.MESSAGES[reason], details={"reason": reason})


def locked_memberships(*, skip_locked: bool = False):
    """Memberships row-locked as they are read, with their plan, club, organization and contact (inside
    `transaction.atomic()`); `skip_locked` passes over rows another transaction holds."""
    return Membership.objects.select_for_update(of=("self",), skip_locked=skip_locked).select_related(
        "plan", "club", "organization", "contact"
    )


def lock_membership(membership_id: int) -> Membership:
    """Reload and row-lock a membership (call inside `transaction.atomic()`)."""
    return locked_memberships().get(pk=membership_id)


def uses_left(membership: Membership) -> int | None:
    """Uses still available; None means unlimited. A capped plan whose membership never recorded a count starts
    from the plan's `max_uses`."""
    if membership.uses_remaining is not None:
        return membership.uses_remaining
    return membership.plan.max_uses


def _validate_common(membership: Membership, *, contact, club, on: dt.date):
    if contact is not None and membership.contact_id != contact.pk:
        raise MembershipNotValid("contact_mismatch")
    if membership.status != MembershipStatus.ACTIVE:
        raise MembershipNotValid("not_active")
    if membership.start_date and on < membership.start_date:
        raise MembershipNotValid("not_started")
    if membership.end_date and on > membership.end_date:
        raise MembershipNotValid("ended")
    left = uses_left(membership)
    if left is not None and left <= 0:
        raise MembershipNotValid("no_uses_left")
    club_id = membership.club_id or membership.plan.club_id
    if club_id and club is not None and club_id != club.pk:
        raise MembershipNotValid("club_not_covered")


def validate_membership_for_class(membership: Membership, occurrence, contact) -> None:
    """Raise MembershipNotValid unless `membership` can pay for `contact`'s seat in `occurrence`.

    Rules: the contact's own membership, status active, the class day (club clock) within start/end dates, uses
    left when counted, the plan's `validFor.scopes` includes `classes` and, when `validFor.classTypes` is not
    empty, the class's type is listed; a membership or plan bound to a club only covers that club.
    """
    on = clock.local_date(occurrence.start_time, occurrence.club, membership.organization)
    _validate_common(membership, contact=contact, club=occurrence.club, on=on)
    valid_for = membership.plan.valid_for or {}
    if CLASSES_SCOPE not in (valid_for.get("scopes") or []):
        raise MembershipNotValid("not_valid_for_classes")
    class_types = valid_for.get("classTypes") or []
    if class_types and occurrence.class_type_id not in class_types:
        raise MembershipNotValid("class_type_not_covered")


def validate_membership_for_club(membership: Membership, club, at: dt.datetime) -> None:
    """Raise MembershipNotValid unless `membership` admits its contact to `club` at `at` (a walk-in)."""
    _validate_common(membership, contact=None, club=club, on=clock.local_date(at, club, membership.organization))


def consume_use(membership: Membership) -> Membership:
    """Take one use from a counted membership (row-locked). Unlimited memberships are left untouched.

    Call inside `transaction.atomic()`; raises MembershipNotValid("no_uses_left") when none is left.
    """
    locked = lock_membership(membership.pk)
    left = uses_left(locked)
    if left is None:
        return locked
    if left <= 0:
        raise MembershipNotValid("no_uses_left")
    locked.uses_remaining = left - 1
    locked.save(update_fields=["uses_remaining", "updated_at"])
    membership.uses_remaining = locked.uses_remaining
    return locked


def restore_use(membership: Membership) -> None:
    """Give back one use (e.g. a membership seat that was cancelled); unlimited memberships are untouched."""
    locked = lock_membership(membership.pk)
    if locked.uses_remaining is None:
        return
    cap = locked.plan.max_uses
    value = locked.uses_remaining + 1
    locked.uses_remaining = min(value, cap) if cap is not None else value
    locked.save(update_fields=["uses_remaining", "updated_at"])
