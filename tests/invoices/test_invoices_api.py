"""Invoices through the HTTP API: the item with its lines, the list's filters and order, a fresh PDF link on every
read, read-only methods, tenancy, and the cost of a page."""

import datetime as dt
import time
from decimal import Decimal

import pytest
from django.conf import settings
from django.core import signing
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.invoices.links import PDF_LINK_MAX_AGE_SECONDS, read_pdf_token
from apps.invoices.models import Invoice, InvoiceLine
from apps.organizations.models import ApiKey

from .factories import charge, invoice

URL = "/v1/platform/invoices"
DAY = dt.date(2026, 3, 10)


def _token(body) -> str:
    prefix = f"{settings.BASE_URL}/v1/invoices/pdf/"
    assert body["pdfUrl"].startswith(prefix)
    return body["pdfUrl"].removeprefix(prefix)


def test_item_presents_every_field_with_its_lines(api, organization, contact, club):
    membership = charge(organization, contact=contact, club=club, paid="12.10", status="partially_paid")
    fee = charge(organization, amount="12.10", tax="2.10", description="Sign-up fee", contact=contact, club=club)
    issued = invoice(organization, membership, fee, issue_date=DAY)
    response = api.get(f"{URL}/{issued.id}")
    assert response.status_code == 200, response.content
    body = response.json()
    assert read_pdf_token(_token(body)) == (organization.id, issued.id, 0)
    assert body == {
        "id": issued.id,
        "number": "INV-000001",
        "status": "open",
        "contactId": contact.id,
        "contactName": "Ana Lopez",
        "contactEmail": "ana@example.com",
        "clubId": club.id,
        "issueDate": "2026-03-10",
        "dueDate": "2026-03-24",
        "subtotal": 30.0,
        "tax": 6.3,
        "total": 36.3,
        "amountPaid": 12.1,
        "amountDue": 24.2,
        "lines": [
            {
                "description": "Monthly membership",
                "quantity": 1,
                "unitPrice": 20.0,
                "amount": 20.0,
                "transactionId": membership.id,
            },
            {"description": "Sign-up fee", "quantity": 1, "unitPrice": 10.0, "amount": 10.0, "transactionId": fee.id},
        ],
        "pdfUrl": body["pdfUrl"],
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    assert body["createdAt"].endswith("Z")


def test_contact_email_needs_contacts_read(client_for, organization, contact):
    issued = invoice(organization, contact=contact)
    body = client_for("invoices:read").get(f"{URL}/{issued.id}").json()
    assert (body["contactName"], body["contactEmail"]) == ("Ana Lopez", None)
    body = client_for("invoices:read contacts:read").get(f"{URL}/{issued.id}").json()
    assert body["contactEmail"] == "ana@example.com"


def test_every_read_returns_a_fresh_pdf_link(api, organization, monkeypatch):
    issued = invoice(organization)
    now = time.time()
    monkeypatch.setattr(signing.time, "time", lambda: now)
    first = _token(api.get(f"{URL}/{issued.id}").json())
    monkeypatch.setattr(signing.time, "time", lambda: now + 3 * 86400)
    listed = api.get(URL).json()["data"][0]
    second = _token(listed)
    assert second != first
    # Eight days after the first read, the first link has expired and the link of the later read still works.
    monkeypatch.setattr(signing.time, "time", lambda: now + PDF_LINK_MAX_AGE_SECONDS + 86400)
    assert read_pdf_token(first) is None
    assert read_pdf_token(second) == (organization.id, issued.id, 0)


def test_list_newest_issue_date_first_with_filters(api, organization, other_organization, contact, club):
    older = invoice(organization, issue_date=DAY - dt.timedelta(days=5), contact=contact)
    paid = invoice(organization, issue_date=DAY, paid="24.20", status="paid", club=club)
    same_day = invoice(organization, issue_date=DAY, contact=contact, club=club)
    invoice(other_organization, issue_date=DAY)

    def ids(**params):
        response = api.get(URL, params)
        assert response.status_code == 200, response.content
        return [row["id"] for row in response.json()["data"]]

    assert ids() == [same_day.id, paid.id, older.id]  # -issueDate, then the later number first
    assert ids(ordering="issueDate") == [older.id, paid.id, same_day.id]
    assert ids(ordering="number") == [older.id, paid.id, same_day.id]
    assert ids(status="paid") == [paid.id]
    assert ids(status="open,void") == [same_day.id, older.id]
    assert ids(contactId=contact.id) == [same_day.id, older.id]
    assert ids(clubId=club.id) == [same_day.id, paid.id]
    assert ids(startDate="2026-03-10") == [same_day.id, paid.id]
    assert ids(endDate="2026-03-09") == [older.id]
    assert ids(startDate="2026-03-05", endDate="2026-03-05") == [older.id]
    # A date-time counts as its day on the organization's clock (Madrid, UTC+1 in March).
    assert ids(startDate="2026-03-09T23:30:00Z") == [same_day.id, paid.id]
    assert ids(endDate="2026-03-09T23:30:00Z") == [same_day.id, paid.id, older.id]
    assert ids(endDate="2026-03-09T22:30:00Z") == [older.id]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"status": "pending"}, "status"),
        ({"contactId": "x"}, "contactId"),
        ({"clubId": "1.5"}, "clubId"),
        ({"startDate": "2026-13-01"}, "startDate"),
        ({"endDate": "2026-03-10T10:00:00"}, "endDate"),  # naive
        ({"startDate": "2026-03-10", "endDate": "2026-03-09"}, "endDate"),
        ({"ordering": "amount"}, "ordering"),
    ],
)
def test_bad_list_parameters_are_400(api, organization, params, field):
    response = api.get(URL, params)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert field in body["details"]["fields"]


@pytest.mark.parametrize("method", ["post", "patch", "put", "delete"])
def test_invoices_are_read_only(api, organization, method):
    issued = invoice(organization)
    for path in (URL, f"{URL}/{issued.id}", f"{URL}/summary"):
        response = getattr(api, method)(path, {"status": "void"}, format="json")
        assert response.status_code == 405, (path, response.content)
        assert response.json()["code"] == "METHOD_NOT_ALLOWED"
        assert response["Allow"] == "GET, HEAD"
    assert Invoice.objects.get(pk=issued.pk).status == "open"


def test_other_organizations_invoice_is_not_found(api, other_organization):
    theirs = invoice(other_organization)
    response = api.get(f"{URL}/{theirs.id}")
    assert response.status_code == 404
    assert response.json()["code"] == "NOT_FOUND"
    assert api.get(URL).json()["total"] == 0


def test_a_page_costs_the_same_queries_for_1_or_200_invoices(api, organization, django_assert_max_num_queries):
    def add(n, start):
        invoices = Invoice.objects.bulk_create(
            [
                Invoice(
                    organization=organization,
                    sequence=start + i,
                    number=f"INV-{start + i:06d}",
                    currency="EUR",
                    issue_date=DAY,
                    due_date=DAY + dt.timedelta(days=14),
                    subtotal=Decimal("10"),
                    total=Decimal("10"),
                )
                for i in range(n)
            ]
        )
        InvoiceLine.objects.bulk_create(
            [
                InvoiceLine(invoice=row, position=p, description=f"Line {p}", unit_price=5, amount=5)
                for row in invoices
                for p in range(2)
            ]
        )

    add(1, 1)
    ApiKey.objects.filter(organization=organization).update(last_used_at=dt.datetime.now(dt.UTC))
    api.get(URL)  # the key's first use
    with CaptureQueriesContext(connection) as one:
        assert len(api.get(URL, {"limit": 200}).json()["data"]) == 1
    add(199, 2)
    with django_assert_max_num_queries(len(one)):
        page = api.get(URL, {"limit": 200}).json()
    assert len(page["data"]) == 200 and all(len(row["lines"]) == 2 for row in page["data"])


def test_the_scope_catalogue_names_invoices_read(api):
    resources = api.get("/v1/platform/me").json()["resources"]
    assert {"resource": "invoices", "actions": ["read"]} in resources
