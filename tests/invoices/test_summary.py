"""`GET /invoices/summary`: the amount invoiced over a period (default the last 30 days, at most 366), of one club
with `clubId`, void and draft invoices left out; one aggregate query; the reports rate bucket."""

import datetime as dt
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.api import ratelimit
from apps.clubs.models import Club
from apps.invoices import services
from apps.invoices.models import Invoice
from apps.kernel import clock
from apps.organizations.models import Organization
from apps.transactions.models import Transaction

from .factories import charge, invoice

URL = "/v1/platform/invoices/summary"


def _today(organization):
    return clock.today(organization)


def test_default_period_is_the_last_30_days(api, organization):
    today = _today(organization)
    invoice(organization, issue_date=today)
    invoice(organization, issue_date=today - dt.timedelta(days=29), amount="12.10", tax="2.10")
    invoice(organization, issue_date=today - dt.timedelta(days=30), amount="1000", tax="0")  # one day too old
    response = api.get(URL)
    assert response.status_code == 200, response.content
    assert response.json() == {
        "startDate": (today - dt.timedelta(days=29)).isoformat(),
        "endDate": today.isoformat(),
        "invoiceCount": 2,
        "totalInvoiced": 36.3,
        "totalPaid": 0.0,
        "totalOutstanding": 36.3,
    }


def test_what_counts(api, organization, other_organization, club):
    day = dt.date(2026, 3, 10)
    invoice(organization, issue_date=day, paid="24.20", status="paid")  # paid in full
    invoice(organization, issue_date=day, amount="100", tax="0", paid="40", status="partially_paid", club=club)
    void = invoice(organization, issue_date=day, amount="500", tax="0", status="void")
    draft = invoice(organization, issue_date=day, amount="700", tax="0")
    Invoice.objects.filter(pk=draft.pk).update(status="draft")
    uncollectible = invoice(organization, issue_date=day, amount="50", tax="0", paid="10", status="partially_paid")
    Invoice.objects.filter(pk=uncollectible.pk).update(status="uncollectible")
    invoice(other_organization, issue_date=day, amount="900", tax="0")
    assert void.status == "void"

    body = api.get(URL, {"startDate": "2026-03-10", "endDate": "2026-03-10"}).json()
    assert body == {
        "startDate": "2026-03-10",
        "endDate": "2026-03-10",
        "invoiceCount": 3,
        "totalInvoiced": 174.2,  # 24.20 + 100 + 50
        "totalPaid": 74.2,  # 24.20 + 40 + 10
        "totalOutstanding": 60.0,  # the open one's 60; the uncollectible 40 is written off
    }
    by_club = api.get(URL, {"startDate": "2026-03-10", "endDate": "2026-03-10", "clubId": club.id}).json()
    assert (by_club["invoiceCount"], by_club["totalInvoiced"], by_club["totalOutstanding"]) == (1, 100.0, 60.0)
    # A payment recorded later moves the figures (they follow amountPaid).
    Transaction.objects.filter(club=club).update(paid_amount=100, payment_status="paid")
    services.refresh_invoice_payment(Transaction.objects.get(club=club).invoice_id)
    by_club = api.get(URL, {"startDate": "2026-03-10", "endDate": "2026-03-10", "clubId": club.id}).json()
    assert (by_club["totalPaid"], by_club["totalOutstanding"]) == (100.0, 0.0)


def test_one_bound_and_the_period_edges(api, organization):
    invoice(organization, issue_date=dt.date(2026, 1, 1))
    invoice(organization, issue_date=dt.date(2026, 1, 30))
    invoice(organization, issue_date=dt.date(2026, 1, 31))
    body = api.get(URL, {"startDate": "2026-01-01"}).json()
    assert (body["startDate"], body["endDate"], body["invoiceCount"]) == ("2026-01-01", "2026-01-30", 2)
    body = api.get(URL, {"endDate": "2026-01-31"}).json()
    assert (body["startDate"], body["endDate"], body["invoiceCount"]) == ("2026-01-02", "2026-01-31", 2)
    body = api.get(URL, {"startDate": "2025-01-31", "endDate": "2026-01-31"}).json()  # 366 days: the maximum
    assert body["invoiceCount"] == 3


def test_currency_precision(api, db, client_for):
    organization = Organization.objects.create(name="Kuwait Padel", slug="kw", currency="KWD", plan="pro")
    day = dt.date(2026, 3, 10)
    invoice(organization, issue_date=day, amount="1.235", tax="0.112", paid="1.235", status="paid")
    invoice(organization, issue_date=day, amount="2.001", tax="0.182")
    client = client_for("invoices:read", organization)
    body = client.get(URL, {"startDate": "2026-03-10", "endDate": "2026-03-10"}).json()
    assert (body["totalInvoiced"], body["totalPaid"], body["totalOutstanding"]) == (3.236, 1.235, 2.001)


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"startDate": "2025-01-30", "endDate": "2026-01-31"}, "endDate"),  # 367 days
        ({"startDate": "2026-02-01", "endDate": "2026-01-31"}, "endDate"),
        ({"startDate": "2026-02-30"}, "startDate"),
        ({"endDate": "yesterday"}, "endDate"),
        ({"clubId": "x"}, "clubId"),
        ({"clubId": "999999"}, "clubId"),
    ],
)
def test_bad_parameters_are_400(api, organization, params, field):
    response = api.get(URL, params)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert field in body["details"]["fields"]


def test_another_organizations_club_is_400(api, other_organization):
    theirs = Club.objects.create(organization=other_organization, name="Theirs", slug="theirs", timezone="UTC")
    response = api.get(URL, {"clubId": theirs.id})
    assert response.status_code == 400
    assert "clubId" in response.json()["details"]["fields"]


def test_one_aggregate_query_whatever_the_number_of_invoices(api, organization):
    day = dt.date(2026, 3, 10)
    params = {"startDate": "2026-03-01", "endDate": "2026-03-31"}
    invoice(organization, issue_date=day)
    api.get(URL, params)  # the key's first use

    def invoice_queries():
        with CaptureQueriesContext(connection) as queries:
            assert api.get(URL, params).status_code == 200
        return [q["sql"] for q in queries.captured_queries if '"invoices_invoice"' in q["sql"]]

    one = invoice_queries()
    for _ in range(20):
        invoice(organization, charge(organization), issue_date=day)
    many = invoice_queries()
    assert len(one) == len(many) == 1
    assert "SUM(" in many[0] and "COUNT(" in many[0]


def test_the_21st_request_in_a_minute_is_rate_limited(api, organization, monkeypatch):
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: 1_000_000_020))  # one window throughout
    for i in range(20):
        assert api.get(URL).status_code == 200, i
    limited = api.get(URL)
    assert limited.status_code == 429
    assert limited.json()["details"] == {"bucket": "reports", "limit": 20, "windowSeconds": 60}
    assert api.get("/v1/platform/invoices").status_code == 200  # the list is not a report
