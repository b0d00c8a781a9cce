"""The revenue report (`GET /transactions/summary`) through the HTTP API: what counts, each grouping across a week
and a month boundary on the organization's clock, the club filter, tenancy, the period's default and bounds, the
reports bucket and a query count that does not grow with the data."""

import datetime as dt
from decimal import Decimal
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.api import ratelimit
from apps.billing.models import RevenueAccount
from apps.transactions.models import Transaction
from tests.factories import make_club, make_transaction

URL = "/v1/platform/transactions/summary"
MADRID = ZoneInfo("Europe/Madrid")
PERIOD = {"startDate": "2026-02-23", "endDate": "2026-03-08"}  # two ISO weeks, across February and March


def _at(text):
    return dt.datetime.fromisoformat(text)


def _figures(count, gross, tax, refunded, net):
    return {"count": count, "gross": gross, "tax": tax, "refunded": refunded, "net": net}


@pytest.fixture
def ledger(organization, other_organization, club):
    """Known transactions of `organization` (Europe/Madrid) and one of another organization."""
    shop, courts = (
        RevenueAccount.objects.create(organization=organization, name="Courts"),
        RevenueAccount.objects.create(organization=organization, name="Tournaments"),
    )
    second_club = make_club(organization, name="Beach", timezone="Europe/Madrid")
    # Saturday 28 February, 23:30 in Madrid.
    make_transaction(
        organization, "2026-02-28T23:30:00+01:00", "12.10", tax_amount=Decimal("2.10"), club=club, revenue_account=shop
    )
    # Sunday 1 March, 00:30 in Madrid: still 28 February in UTC.
    outside = make_transaction(
        organization,
        "2026-03-01T00:30:00+01:00",
        "100.00",
        type="external_revenue",
        source_type="external",
        paid_amount=Decimal("100.00"),
        refunded_amount=Decimal("30.00"),
        payment_status="partially_refunded",
        club=club,
        revenue_account=courts,
    )
    # Monday 2 March: a refund of the outside revenue (a transaction of its own).
    make_transaction(
        organization,
        "2026-03-02T10:00:00+01:00",
        "30.00",
        type="refund",
        source_type="external",
        refunded_amount=Decimal("30.00"),
        payment_status="refunded",
        refund_of=outside,
        club=club,
        revenue_account=courts,
    )
    # A void charge counts nowhere.
    make_transaction(
        organization, "2026-03-03T10:00:00+01:00", "50.00", payment_status="void", club=club, revenue_account=shop
    )
    # A charge with no revenue account and no club.
    make_transaction(organization, "2026-03-04T10:00:00+01:00", "10.00")
    # A charge at the second club whose partner reported a refund of 5.
    make_transaction(
        organization,
        "2026-03-05T12:00:00+01:00",
        "24.20",
        tax_amount=Decimal("4.20"),
        paid_amount=Decimal("24.20"),
        refunded_amount=Decimal("5.00"),
        payment_status="partially_refunded",
        club=second_club,
        revenue_account=shop,
    )
    # Monday 9 March, 00:30 in Madrid: after the period although still 8 March in UTC.
    make_transaction(organization, "2026-03-09T00:30:00+01:00", "77.00", club=club, revenue_account=shop)
    # Another organization's charge inside the period.
    make_transaction(other_organization, "2026-03-03T10:00:00+01:00", "999.00")
    return SimpleNamespace(shop=shop, courts=courts, club=club, second_club=second_club)


TOTALS = _figures(4, 146.3, 6.3, 35.0, 111.3)


def test_totals_count_sales_and_refunds_on_the_organization_clock(api, ledger):
    response = api.get(URL, PERIOD)
    assert response.status_code == 200, response.content
    assert response.json() == {"startDate": "2026-02-23", "endDate": "2026-03-08", "totals": TOTALS, "groups": []}


def test_group_by_day_lists_every_day_of_the_period(api, ledger):
    body = api.get(URL, {**PERIOD, "groupBy": "day"}).json()
    assert body["totals"] == TOTALS
    groups = {group.pop("key"): group for group in body["groups"]}
    assert list(groups) == [(dt.date(2026, 2, 23) + dt.timedelta(days=n)).isoformat() for n in range(14)]
    zero = _figures(0, 0.0, 0.0, 0.0, 0.0)
    assert groups == {
        **dict.fromkeys(groups, zero),
        "2026-02-28": _figures(1, 12.1, 2.1, 0.0, 12.1),
        "2026-03-01": _figures(1, 100.0, 0.0, 0.0, 100.0),
        "2026-03-02": _figures(0, 0.0, 0.0, 30.0, -30.0),
        "2026-03-04": _figures(1, 10.0, 0.0, 0.0, 10.0),
        "2026-03-05": _figures(1, 24.2, 4.2, 5.0, 19.2),
    }


def test_group_by_week_splits_at_monday(api, ledger):
    body = api.get(URL, {**PERIOD, "groupBy": "week"}).json()
    assert body["groups"] == [
        {"key": "2026-02-23", **_figures(2, 112.1, 2.1, 0.0, 112.1)},
        {"key": "2026-03-02", **_figures(2, 34.2, 4.2, 35.0, -0.8)},
    ]


def test_group_by_week_keys_the_monday_before_the_start(api, ledger):
    body = api.get(URL, {"startDate": "2026-02-28", "endDate": "2026-03-01", "groupBy": "week"}).json()
    assert body["groups"] == [{"key": "2026-02-23", **_figures(2, 112.1, 2.1, 0.0, 112.1)}]


def test_group_by_month_splits_at_the_first(api, ledger):
    body = api.get(URL, {**PERIOD, "groupBy": "month"}).json()
    assert body["groups"] == [
        {"key": "2026-02", **_figures(1, 12.1, 2.1, 0.0, 12.1)},
        {"key": "2026-03", **_figures(3, 134.2, 4.2, 35.0, 99.2)},
    ]


def test_group_by_revenue_account(api, ledger):
    body = api.get(URL, {**PERIOD, "groupBy": "revenueAccount"}).json()
    assert body["groups"] == [
        {"key": str(ledger.shop.id), **_figures(2, 36.3, 6.3, 5.0, 31.3)},
        {"key": str(ledger.courts.id), **_figures(1, 100.0, 0.0, 30.0, 70.0)},
        {"key": "none", **_figures(1, 10.0, 0.0, 0.0, 10.0)},
    ]


def test_club_filter(api, ledger):
    body = api.get(URL, {**PERIOD, "clubId": ledger.club.id}).json()
    assert body["totals"] == _figures(2, 112.1, 2.1, 30.0, 82.1)
    body = api.get(URL, {**PERIOD, "clubId": ledger.second_club.id, "groupBy": "revenueAccount"}).json()
    assert body["totals"] == _figures(1, 24.2, 4.2, 5.0, 19.2)
    assert body["groups"] == [{"key": str(ledger.shop.id), **_figures(1, 24.2, 4.2, 5.0, 19.2)}]


def test_club_clock_decides_the_days(api, organization, ledger):
    """With `clubId` the days are the club's: the same instant is another day in Tokyo."""
    tokyo = make_club(organization, name="Tokyo", timezone="Asia/Tokyo")
    make_transaction(organization, "2026-03-08T16:30:00+00:00", "8.00", club=tokyo)  # 9 March 01:30 in Tokyo
    assert api.get(URL, {**PERIOD, "clubId": tokyo.id}).json()["totals"]["count"] == 0
    body = api.get(URL, {"startDate": "2026-03-09", "endDate": "2026-03-09", "clubId": tokyo.id}).json()
    assert body["totals"]["gross"] == 8.0


def test_another_organization_sees_only_its_own(client_for, other_organization, ledger):
    body = client_for("*", other_organization).get(URL, PERIOD).json()
    assert body["totals"] == _figures(1, 999.0, 0.0, 0.0, 999.0)


def test_another_organizations_club_is_a_400(client_for, other_organization, ledger):
    response = client_for("*", other_organization).get(URL, {"clubId": ledger.club.id})
    assert response.status_code == 400
    assert list(response.json()["details"]["fields"]) == ["clubId"]


def test_default_is_the_last_30_days_on_the_organization_clock(api, organization):
    make_transaction(organization, timezone.now() - dt.timedelta(days=29), "5.00")
    make_transaction(organization, timezone.now() - dt.timedelta(days=31), "7.00")
    body = api.get(URL).json()
    today = timezone.now().astimezone(MADRID).date()
    assert body["endDate"] == today.isoformat()
    assert body["startDate"] == (today - dt.timedelta(days=29)).isoformat()
    assert body["totals"]["gross"] == 5.0


def test_one_bound_alone_spans_30_days(api):
    assert api.get(URL, {"startDate": "2026-01-01"}).json()["endDate"] == "2026-01-30"
    assert api.get(URL, {"endDate": "2026-01-30"}).json()["startDate"] == "2026-01-01"


def test_366_days_is_the_longest_period(api):
    response = api.get(URL, {"startDate": "2025-01-01", "endDate": "2026-01-01"})
    assert response.status_code == 200
    response = api.get(URL, {"startDate": "2025-01-01", "endDate": "2026-01-02"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert list(body["details"]["fields"]) == ["endDate"]
    assert "366" in body["details"]["fields"]["endDate"][0]


@pytest.mark.parametrize(
    "params, field",
    [
        ({"startDate": "2026-02-30"}, "startDate"),
        ({"startDate": "2026-02-01T00:00:00Z"}, "startDate"),
        ({"endDate": "soon"}, "endDate"),
        ({"startDate": "2026-03-02", "endDate": "2026-03-01"}, "endDate"),
        ({"startDate": "1899-12-31"}, "startDate"),
        ({"groupBy": "year"}, "groupBy"),
        ({"groupBy": "day,week"}, "groupBy"),
        ({"clubId": "abc"}, "clubId"),
        ({"clubId": "99999999999999999999"}, "clubId"),
        ({"clubId": "123456789"}, "clubId"),
    ],
)
def test_bad_parameters_are_400_naming_them(api, params, field):
    response = api.get(URL, params)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert list(body["details"]["fields"]) == [field]


def test_summary_is_not_a_transaction_id(api):
    """The route does not fall through to `/transactions/{id}` and needs no id."""
    assert api.get(URL).status_code == 200
    assert api.get("/v1/platform/transactions/summary/1").status_code == 404


def test_needs_transactions_read(client_for):
    assert client_for("transactions:read").get(URL).status_code == 200
    response = client_for("transactions:write analytics:read").get(URL)
    assert response.status_code == 403
    assert response.json()["requiredScope"] == "transactions:read"


@pytest.fixture
def frozen_rate_limit_clock(monkeypatch):
    """The 21 requests must fall in one fixed window."""
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: 1_000_000_020))


def test_21st_report_request_in_a_minute_is_429(api, frozen_rate_limit_clock):
    for i in range(10):
        assert api.get(URL).status_code == 200
        response = api.get("/v1/platform/analytics/summary")  # the same bucket
        assert response.status_code == 200
        assert response["RateLimit-Remaining"] == str(20 - 2 * (i + 1))
    assert response["RateLimit-Limit"] == response["X-RateLimit-Limit"] == "20"
    assert response["RateLimit-Policy"] == "20;w=60"
    limited = api.get(URL)
    assert limited.status_code == 429
    assert limited.json()["code"] == "RATE_LIMITED"
    assert limited.json()["details"] == {"bucket": "reports", "limit": 20, "windowSeconds": 60}
    assert limited["RateLimit-Remaining"] == limited["X-RateLimit-Remaining"] == "0"
    assert int(limited["Retry-After"]) >= 1
    # The general bucket still has room: the transactions list answers.
    assert api.get("/v1/platform/transactions").status_code == 200


def _queries(api, params) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = api.get(URL, params)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("group_by", [None, "day", "week", "month", "revenueAccount"])
def test_query_count_does_not_grow_with_rows(api, organization, group_by):
    params = {**PERIOD, **({"groupBy": group_by} if group_by else {})}
    accounts = [RevenueAccount.objects.create(organization=organization, name=f"A{n}") for n in range(3)]
    make_transaction(organization, "2026-03-01T10:00:00+01:00", "1.00", revenue_account=accounts[0])
    api.get(URL, params)  # the key's first use writes last_used_at
    few = _queries(api, params)
    start = _at("2026-02-23T00:00:00+01:00")
    Transaction.objects.bulk_create(
        Transaction(
            organization=organization,
            type="charge",
            source_type="booking",
            description="Row",
            amount=Decimal("1.00"),
            occurred_at=start + dt.timedelta(hours=n),
            revenue_account=accounts[n % 3],
        )
        for n in range(300)
    )
    assert _queries(api, params) == few
    body = api.get(URL, params).json()
    assert body["totals"]["count"] == 301
