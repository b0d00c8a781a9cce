import datetime as dt
import itertools
from decimal import Decimal

from django.utils import timezone

from apps.billing.models import Plan
from apps.contacts.models import Contact
from apps.memberships.models import Membership
from apps.organizations.models import ApiKey
from tests.harness import EndpointCase

_seq = itertools.count()


def _settle_key_usage(organization):
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


def _plan(organization):
    return Plan.objects.create(organization=organization, name=f"Monthly {next(_seq)}", price=Decimal("40"))


def _contact(organization):
    return Contact.objects.create(organization=organization, first_name="Member", email=f"m{next(_seq)}@example.com")


def membership_ids(organization):
    membership = Membership.objects.create(
        organization=organization,
        contact=_contact(organization),
        plan=_plan(organization),
        start_date=timezone.localdate(),
        end_date=timezone.localdate() + dt.timedelta(days=30),
    )
    return {"id": membership.id}


def membership_rows(organization, n):
    _settle_key_usage(organization)
    plan, contact = _plan(organization), _contact(organization)
    Membership.objects.bulk_create(
        [
            Membership(organization=organization, contact=contact, plan=plan, start_date=timezone.localdate())
            for _ in range(n)
        ]
    )


CASES = [
    EndpointCase("GET", "/v1/platform/memberships", "memberships:read", list_rows=membership_rows),
    EndpointCase("GET", "/v1/platform/memberships/{id}", "memberships:read", setup=membership_ids),
    EndpointCase("POST", "/v1/platform/memberships", "memberships:write", body={"contactId": 1, "planId": 1}),
    EndpointCase("PATCH", "/v1/platform/memberships/{id}", "memberships:write", setup=membership_ids, body={}),
    EndpointCase("POST", "/v1/platform/memberships/{id}/pause", "memberships:write", setup=membership_ids, body={}),
    EndpointCase("POST", "/v1/platform/memberships/{id}/resume", "memberships:write", setup=membership_ids, body={}),
    EndpointCase("POST", "/v1/platform/memberships/{id}/cancel", "memberships:write", setup=membership_ids, body={}),
]
