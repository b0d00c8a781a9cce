"""The revenue report's sums per UTC hour and day (`RevenueSum`): kept exact by the trigger on every kind of write,
and the report read from them answers exactly what the transactions themselves answer, on clocks a whole number of hours
from UTC (DST days included) and on clocks that are not (India, Nepal), for every grouping and the club filter."""

import datetime as dt
import random
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db.models import Count, F, Sum, Value
from django.db.models.functions import TruncDay, TruncHour

from apps.billing.models import RevenueAccount
from apps.clubs.report_period import ReportPeriod, report_period
from apps.transactions import reports
from apps.transactions.models import RevenueSum, Transaction
from tests.factories import make_club, make_transaction

GROUPINGS = ("", "day", "week", "month", "revenueAccount")
KEY = ("organization_id", "club_id", "revenue_account_id", "type", "hours", "start")


def kept_sums(organization) -> dict:
    """What `RevenueSum` holds for the organization, one entry per key (its rows summed), zero keys left out."""
    rows = (
        RevenueSum.objects.filter(organization_id=organization.id)
        .values(*KEY)
        .annotate(
            n=Sum("count"), amount_sum=Sum("amount"), tax_sum=Sum("tax_amount"), refunded_sum=Sum("refunded_amount")
        )
    )
    return {tuple(row[k] for k in KEY): row for row in rows if row["n"]}


def recomputed_sums(organization) -> dict:
    """The same sums computed from the transactions, per UTC hour and per UTC day."""
    found = {}
    for hours, trunc in ((1, TruncHour), (24, TruncDay)):
        rows = (
            Transaction.objects.filter(organization=organization)
            .exclude(payment_status="void")
            .annotate(hours=Value(hours), start=trunc("occurred_at", tzinfo=dt.UTC))
            .order_by()
            .values(*KEY)
            .annotate(
                n=Count("id"), amount_sum=Sum("amount"), tax_sum=Sum("tax_amount"), refunded_sum=Sum("refunded_amount")
            )
        )
        found.update({tuple(row[k] for k in KEY): row for row in rows})
    return found


def test_every_kind_of_write_keeps_the_sums_exact(organization, club):
    account = RevenueAccount.objects.create(organization=organization, name="Courts")
    other_club = make_club(organization, name="Beach")
    at = dt.datetime(2026, 3, 29, 0, 59, 59, 999999, tzinfo=dt.UTC)  # the last instant of an hour
    first = make_transaction(organization, at, "12.10", tax_amount=Decimal("2.10"), club=club, revenue_account=account)
    second = make_transaction(organization, at, "5.00", club=club, revenue_account=account)
    make_transaction(organization, at, "7.00", type="refund", source_type="external", club=club)
    make_transaction(organization, at, "9.00", payment_status="void", club=club)
    assert kept_sums(organization) == recomputed_sums(organization)
    assert RevenueSum.objects.filter(organization_id=organization.id).count() == 4  # charge, refund: hour, day

    first.amount, first.refunded_amount = Decimal("20.00"), Decimal("3.00")
    first.save()  # an amount changes
    second.occurred_at += dt.timedelta(microseconds=1)
    second.save()  # into the next hour
    Transaction.objects.filter(pk=first.pk).update(payment_status="void")  # voided in bulk
    assert kept_sums(organization) == recomputed_sums(organization)
    Transaction.objects.filter(pk=first.pk).update(payment_status="paid", club=other_club)  # back, elsewhere
    Transaction.objects.filter(pk=second.pk).update(description="Renamed", paid_amount=Decimal("5.00"))
    assert kept_sums(organization) == recomputed_sums(organization)
    other_club.delete()  # SET NULL on its transactions
    assert Transaction.objects.get(pk=first.pk).club_id is None
    assert kept_sums(organization) == recomputed_sums(organization)
    Transaction.objects.filter(organization=organization).delete()
    assert not RevenueSum.objects.filter(organization_id=organization.id).exists()  # back at zero: deleted


def test_statements_over_many_rows_keep_the_sums_exact(organization, club):
    """One statement's rows are summed per key and hour before they are added (a statement trigger)."""
    start = dt.datetime(2026, 10, 24, 22, 30, tzinfo=dt.UTC)
    Transaction.objects.bulk_create(
        Transaction(organization=organization, type=("charge", "refund")[i % 2], source_type="booking",
                    description=f"T{i}", club=club if i % 3 else None, amount=Decimal(i + 1),
                    refunded_amount=Decimal(i % 4), payment_status="void" if i % 7 == 0 else "paid",
                    occurred_at=start + dt.timedelta(minutes=17 * i))
        for i in range(200)
    )  # fmt: skip
    assert kept_sums(organization) == recomputed_sums(organization)
    moved = Transaction.objects.filter(organization=organization, amount__lt=100)
    moved.update(occurred_at=F("occurred_at") + dt.timedelta(minutes=45), club=None)
    Transaction.objects.filter(organization=organization, amount__gte=150).update(payment_status="void")
    assert kept_sums(organization) == recomputed_sums(organization)
    Transaction.objects.filter(organization=organization, amount__lt=50).delete()
    assert kept_sums(organization) == recomputed_sums(organization)


def test_updates_that_leave_the_sums_alone_do_not_touch_them(organization, club):
    record = make_transaction(organization, dt.datetime(2026, 5, 4, 10, tzinfo=dt.UTC), club=club)
    before = list(RevenueSum.objects.filter(organization_id=organization.id).values())
    Transaction.objects.filter(pk=record.pk).update(payment_status="paid", paid_amount=Decimal("10.00"))
    assert list(RevenueSum.objects.filter(organization_id=organization.id).values()) == before


def test_refunds_through_the_api_keep_the_sums_exact(api, organization):
    created = api.post("/v1/platform/transactions", {"amount": 30, "description": "Fees"}, format="json")
    assert created.status_code == 201
    refunded = api.post(f"/v1/platform/transactions/{created.json()['id']}/refund", {"amount": 12}, format="json")
    assert refunded.status_code == 201
    sums = kept_sums(organization)
    assert sums == recomputed_sums(organization)
    assert sorted((key[3], key[4], row["refunded_sum"]) for key, row in sums.items()) == [
        ("external_revenue", 1, Decimal("12.000")),
        ("external_revenue", 24, Decimal("12.000")),
        ("refund", 1, Decimal("12.000")),
        ("refund", 24, Decimal("12.000")),
    ]


def summary(organization, query: dict) -> dict:
    return reports.revenue_summary(organization, report_period(query, organization), query["groupBy"] or None)


def _ledger(organization, clubs, accounts, zone: ZoneInfo):
    """Transactions over 2026 at random minutes and seconds, and on every local midnight and DST change of the
    report's clock (and a microsecond either side), of every type, status, club and account (or none)."""
    rng = random.Random(20)
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    instants = [start + dt.timedelta(seconds=rng.randrange(366 * 86400), microseconds=rng.randrange(10**6))
                for _ in range(400)]  # fmt: skip
    for day in (dt.date(2026, 3, 1), dt.date(2026, 3, 29), dt.date(2026, 3, 30), dt.date(2026, 10, 25),
                dt.date(2026, 10, 26), dt.date(2026, 11, 1), dt.date(2026, 12, 31)):  # fmt: skip
        midnight = dt.datetime.combine(day, dt.time(), tzinfo=zone)
        for offset in (-1, 0, 1):
            instants.append(midnight + dt.timedelta(microseconds=offset))
    instants += [dt.datetime(2026, 3, 29, 1, tzinfo=dt.UTC), dt.datetime(2026, 10, 25, 1, tzinfo=dt.UTC)]
    records = []
    for i, occurred_at in enumerate(instants):
        kind = ("charge", "charge", "external_revenue", "refund")[i % 4]
        amount = Decimal(rng.randrange(1, 100_000)) / 100
        records.append(
            Transaction(
                organization=organization,
                type=kind,
                source_type="external" if kind != "charge" else "booking",
                description=f"T{i}",
                club=clubs[i % len(clubs)],
                revenue_account=accounts[i % len(accounts)],
                amount=amount,
                tax_amount=(amount * Decimal("0.21")).quantize(Decimal("0.001")),
                refunded_amount=amount / 4 if i % 5 == 0 else Decimal(0),
                payment_status="void" if i % 13 == 0 else "paid",
                occurred_at=occurred_at,
            )
        )
    Transaction.objects.bulk_create(records)


@pytest.mark.parametrize(
    "zone_name", ["Europe/Madrid", "UTC", "Europe/London", "Asia/Kolkata", "Asia/Kathmandu", "America/St_Johns"]
)
def test_the_report_from_kept_sums_equals_the_report_from_transactions(organization, monkeypatch, zone_name):
    organization.timezone = zone_name
    organization.save(update_fields=["timezone"])
    zone = ZoneInfo(zone_name)
    clubs = [make_club(organization, name="North", timezone=zone_name),
             make_club(organization, name="South", timezone="Asia/Kolkata"), None]  # fmt: skip
    accounts = [RevenueAccount.objects.create(organization=organization, name=n) for n in ("Courts", "Shop")] + [None]
    _ledger(organization, clubs, accounts, zone)
    periods = [
        ("2026-01-01", "2026-12-31"),  # a year: every grouping, 366 edges on a half-hour clock
        ("2026-03-29", "2026-03-29"),  # the spring DST day alone
        ("2026-10-24", "2026-10-26"),  # around the autumn one
        ("2026-02-14", "2026-03-13"),  # weeks and a month cut in the middle
    ]
    params = [
        {"startDate": start, "endDate": end, "groupBy": group_by, **({"clubId": club_id} if club_id else {})}
        for start, end in periods
        for group_by in GROUPINGS
        for club_id in (None, clubs[0].id, clubs[1].id)
    ]
    # The report itself (the endpoint's period and filters, not its rate limit of 20 a minute).
    from_sums = [summary(organization, query) for query in params]
    monkeypatch.setattr(reports, "reads_kept_sums", lambda database: False)
    from_transactions = [summary(organization, query) for query in params]
    for query, answer, expected in zip(params, from_sums, from_transactions, strict=True):
        assert answer == expected, query
    # The fixture is not empty where it matters: every grouping of the year found sales and refunds.
    assert all(body["totals"]["count"] and body["totals"]["refunded"] for body in from_sums[:15])


def test_edge_hours_are_the_hours_a_bucket_starts_inside(organization):
    madrid = ReportPeriod(dt.date(2026, 1, 1), dt.date(2026, 12, 31), "Europe/Madrid", None)
    assert reports.edge_hours(madrid, "day") == []
    kolkata = ReportPeriod(dt.date(2026, 1, 1), dt.date(2026, 12, 31), "Asia/Kolkata", None)
    assert len(reports.edge_hours(kolkata, "day")) == 366  # every midnight, and the end
    assert len(reports.edge_hours(kolkata, "month")) == 13
    assert reports.edge_hours(kolkata, None) == [
        dt.datetime(2025, 12, 31, 18, tzinfo=dt.UTC),
        dt.datetime(2026, 12, 31, 18, tzinfo=dt.UTC),
    ]
