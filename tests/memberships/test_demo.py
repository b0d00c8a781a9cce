"""The memberships demo: one membership in every state, each with its charges, seeded idempotently."""

from collections import Counter

from apps.billing import demo as billing_demo
from apps.memberships import demo
from apps.memberships.models import Membership
from apps.transactions.models import Transaction
from tests.factories import make_contact


def test_seed_sells_memberships_in_every_state_with_their_charges(organization, api):
    ctx = {"contacts": [make_contact(organization) for _ in range(8)]}
    for _ in range(2):
        billing_demo.seed(organization, ctx)
        demo.seed(organization, ctx)
    rows = api.get("/v1/platform/memberships", {"limit": 50}).json()["data"]
    assert Counter(row["status"] for row in rows) == {"active": 5, "paused": 1, "cancelled": 1, "expired": 1}
    assert len(ctx["memberships"]) == 4 and {m.status for m in ctx["memberships"]} == {"active"}
    assert sum(1 for row in rows if row["status"] == "active" and row["cancelAt"]) == 1
    assert next(row for row in rows if row["status"] == "paused")["resumeDate"] is not None
    assert {row["paymentStatus"] for row in rows} == {"paid", "unpaid"}
    for membership in Membership.objects.all():
        assert Transaction.objects.filter(membership=membership, type="charge").exists()
    assert Transaction.objects.filter(source_type="membership").count() == 8
