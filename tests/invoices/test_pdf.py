"""The invoice PDF at its signed link: a real PDF (opened and its text extracted with pypdf) showing the organization,
number, dates, contact, lines and totals in the currency's precision; no credential needed; a tampered, expired or
misdirected link is a JSON 404."""

import datetime as dt
import io
import time

import pytest
from django.conf import settings
from django.core import signing
from pypdf import PdfReader
from rest_framework.test import APIClient

from apps.invoices import links
from apps.invoices.models import Invoice
from apps.organizations.models import Organization

from .factories import charge, invoice

DAY = dt.date(2026, 3, 10)


def _path(organization_id, invoice_id) -> str:
    return links.pdf_url(organization_id, invoice_id, 0).removeprefix(settings.BASE_URL)


def _text(response) -> str:
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages)


def _assert_not_found(response):
    assert response.status_code == 404, response.content[:200]
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "NOT_FOUND" and body["error"] == "Not Found"


def test_the_link_of_a_read_serves_the_pdf_without_a_credential(api, organization, contact, club):
    membership = charge(organization, contact=contact, club=club, paid="24.20", status="paid")
    fee = charge(organization, amount="1212.10", tax="210.36", description="Sign-up fee", contact=contact, club=club)
    issued = invoice(organization, membership, fee, issue_date=DAY)
    pdf_url = api.get(f"/v1/platform/invoices/{issued.id}").json()["pdfUrl"]

    response = APIClient().get(pdf_url.removeprefix(settings.BASE_URL))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'inline; filename="INV-000001.pdf"'
    assert response["Cache-Control"] == "private, no-store"
    assert response.content.startswith(b"%PDF-")
    text = _text(response)
    for shown in (
        "Padel Palace",
        "Centre Court",
        "Invoice INV-000001",
        "Open",
        "2026-03-10",  # issued
        "2026-03-24",  # due, 14 days later
        "Ana Lopez",
        "Monthly membership",
        "Sign-up fee",
        "20.00 EUR",  # the membership line before tax
        "1,001.74 EUR",  # the fee line before tax, with a thousands separator
        "1,021.74 EUR",  # subtotal
        "214.56 EUR",  # tax
        "1,236.30 EUR",  # total
        "24.20 EUR",  # paid
        "1,212.10 EUR",  # due
    ):
        assert shown in text, shown
    assert "ana@example.com" not in text  # the link needs no credential: no contact e-mail


@pytest.mark.parametrize(
    ("currency", "amount", "tax", "total", "net"),
    [("JPY", "1210", "210", "1,210 JPY", "1,000 JPY"), ("KWD", "12.345", "1.111", "12.345 KWD", "11.234 KWD")],
)
def test_money_at_the_currency_precision(db, currency, amount, tax, total, net):
    organization = Organization.objects.create(name="Abroad", slug=f"abroad-{currency}", currency=currency, plan="pro")
    issued = invoice(organization, amount=amount, tax=tax)
    text = _text(APIClient().get(_path(organization.id, issued.id)))
    assert total in text and net in text
    assert f"Amounts in {currency}." in text


def test_names_outside_the_builtin_font_still_render(organization, contact):
    contact.first_name, contact.last_name = "Łukasz", "山田"
    contact.save()
    issued = invoice(organization, contact=contact, description="Cuota mensual · 12 € ✓")
    response = APIClient().get(_path(organization.id, issued.id))
    assert response.status_code == 200
    text = _text(response)
    assert "Cuota mensual · 12 €" in text and "INV-000001" in text


def test_many_lines_run_over_several_pages(organization):
    charges = [charge(organization, description=f"Ticket {n}") for n in range(80)]
    response = APIClient().get(_path(organization.id, invoice(organization, *charges).id))
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) > 1
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "Ticket 0" in text and "Ticket 79" in text and "1,936.00 EUR" in text


def test_a_tampered_token_is_not_found(organization):
    issued = invoice(organization)
    token = links.pdf_token(organization.id, issued.id, 0)
    value, timestamp, signature = token.split(":")
    for bad in (
        f"{organization.id}.{issued.id + 1}:{timestamp}:{signature}",  # another invoice under this signature
        f"{value}:{timestamp}:{signature[:-1]}{'A' if signature[-1] != 'A' else 'B'}",
        f"{value}:{timestamp}",
        "not-a-token",
        "%00",
        "%C3%A9:%C3%A9:%C3%A9",
        "x" * 5000,
    ):
        _assert_not_found(APIClient().get(f"/v1/invoices/pdf/{bad}"))
    assert APIClient().get(f"/v1/invoices/pdf/{token}").status_code == 200


def test_a_link_expires_after_seven_days(organization, monkeypatch):
    issued = invoice(organization)
    now = time.time()
    monkeypatch.setattr(signing.time, "time", lambda: now - 8 * 86400)
    expired = links.pdf_token(organization.id, issued.id, 0)
    monkeypatch.setattr(signing.time, "time", lambda: now - 6 * 86400)
    still_valid = links.pdf_token(organization.id, issued.id, 0)
    monkeypatch.setattr(signing.time, "time", lambda: now)
    _assert_not_found(APIClient().get(f"/v1/invoices/pdf/{expired}"))
    assert APIClient().get(f"/v1/invoices/pdf/{still_valid}").status_code == 200


def test_a_token_names_its_organization(organization, other_organization):
    ours = invoice(organization)
    # Correctly signed, but for the other organization: the invoice is not theirs.
    _assert_not_found(APIClient().get(_path(other_organization.id, ours.id)))
    theirs = invoice(other_organization)
    _assert_not_found(APIClient().get(_path(organization.id, theirs.id)))
    assert APIClient().get(_path(other_organization.id, theirs.id)).status_code == 200


def test_a_deleted_invoice_is_not_found(organization):
    issued = invoice(organization)
    path = _path(organization.id, issued.id)
    Invoice.objects.filter(pk=issued.pk).delete()
    _assert_not_found(APIClient().get(path))


def test_only_get_and_head(organization):
    path = _path(organization.id, invoice(organization).id)
    assert APIClient().head(path).status_code == 200
    for method in ("post", "put", "patch", "delete"):
        response = getattr(APIClient(), method)(path, {}, format="json")
        assert response.status_code == 405, method
        assert response.json()["code"] == "METHOD_NOT_ALLOWED"
        assert response["Allow"] == "GET, HEAD"


def test_the_platform_catch_all_still_answers_other_paths(db):
    _assert_not_found(APIClient().get("/v1/invoices/pdf"))
    _assert_not_found(APIClient().get("/v1/invoices/pdf/a/b"))
    _assert_not_found(APIClient().get("/v1/invoices"))
