"""The demo data invoices three shop sales (paid, open, partly paid) with working PDFs, and a second run adds
nothing."""

import io

from django.conf import settings
from pypdf import PdfReader
from rest_framework.test import APIClient

from apps.clubs import demo as clubs_demo
from apps.contacts import demo as contacts_demo
from apps.invoices import demo
from apps.invoices.models import Invoice
from apps.products import demo as products_demo
from apps.transactions.models import Transaction


def _seed(organization) -> dict:
    ctx: dict = {}
    for module in (clubs_demo, contacts_demo, products_demo, demo):
        module.seed(organization, ctx)
    return ctx


def test_seed_invoices_the_demo_sales_once(organization, api):
    first = _seed(organization)
    second = _seed(organization)
    assert [invoice.pk for invoice in first["invoices"]] == [invoice.pk for invoice in second["invoices"]]
    assert Invoice.objects.filter(organization=organization).count() == 3
    assert Transaction.objects.filter(organization=organization, source_type="product").count() == 5
    assert not Transaction.objects.filter(organization=organization, invoice__isnull=True).exists()

    listed = api.get("/v1/platform/invoices").json()["data"]
    assert [(row["number"], row["status"], len(row["lines"])) for row in listed] == [
        ("INV-000003", "open", 2),
        ("INV-000002", "open", 1),
        ("INV-000001", "paid", 2),
    ]
    partly = listed[0]
    assert 0 < partly["amountPaid"] < partly["total"] and partly["contactName"] == "David Moreno"
    # Padel balls at 6.95 (tax included at 21 %): two cans are 13.90, 11.49 before tax.
    assert listed[2]["lines"][0] == {
        "description": "Padel balls (can of 3) x 2",
        "quantity": 1,
        "unitPrice": 11.49,
        "amount": 11.49,
        "transactionId": listed[2]["lines"][0]["transactionId"],
    }
    assert listed[2]["total"] == 16.4  # 13.90 + 2.50

    pdf = APIClient().get(listed[2]["pdfUrl"].removeprefix(settings.BASE_URL))
    assert pdf.status_code == 200
    text = PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    assert "INV-000001" in text and "Padel balls (can of 3) x 2" in text and "16.40 EUR" in text
