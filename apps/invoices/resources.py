"""The Invoice shape. A page of invoices is two queries: the invoices (contact joined) and all their lines."""

import datetime as dt
from collections import defaultdict
from typing import Annotated, TypedDict

from apps.api.presenters import number
from apps.api.resources import Describe, PresentContext, RequiresScope, Resource
from apps.contacts.resources import CONTACT_EMAIL_HELP, contact_email, contact_name

from . import models
from .choices import InvoiceStatus
from .links import pdf_url


class InvoiceLine(TypedDict):
    description: str
    quantity: int
    unitPrice: Annotated[float, Describe("Before tax.")]
    amount: Annotated[float, Describe("`quantity` × `unitPrice`, before tax.")]
    transactionId: int | None


class Invoice(TypedDict):
    id: int
    number: Annotated[str, Describe("Per organization, without gaps (INV-000001, INV-000002, ...).")]
    status: InvoiceStatus
    contactId: int | None
    contactName: str | None
    contactEmail: Annotated[str | None, Describe(CONTACT_EMAIL_HELP), RequiresScope("contacts:read")]
    clubId: int | None
    issueDate: dt.date
    dueDate: dt.date
    subtotal: float
    tax: float
    total: float
    amountPaid: float
    amountDue: float
    lines: list[InvoiceLine]
    pdfUrl: Annotated[str, Describe("Signed link to the PDF; needs no credential; expires 7 days after this read.")]
    createdAt: dt.datetime
    updatedAt: dt.datetime


class InvoiceResource(Resource):
    shape = Invoice
    model = models.Invoice
    columns = (
        "organization_id",
        "organization__link_epoch",
        "contact__first_name",
        "contact__last_name",
        "contact__email",
    )

    def load(self, rows: list[dict], ctx: PresentContext) -> None:
        lines = defaultdict(list)
        ids = [row["id"] for row in rows]
        if ids:
            for line in models.InvoiceLine.objects.filter(invoice_id__in=ids).values(
                "invoice_id", "description", "quantity", "unit_price", "amount", "transaction_id"
            ):
                lines[line["invoice_id"]].append(
                    {
                        "description": line["description"],
                        "quantity": line["quantity"],
                        "unitPrice": number(line["unit_price"]),
                        "amount": number(line["amount"]),
                        "transactionId": line["transaction_id"],
                    }
                )
        for row in rows:
            row["lines"] = lines.get(row["id"], [])

    def present(self, row: dict, ctx: PresentContext) -> Invoice:
        return self.body(
            row,
            ctx,
            contactName=contact_name(row),
            contactEmail=contact_email(row, ctx),
            amountDue=number(max(row["total"] - row["amount_paid"], 0)),
            pdfUrl=pdf_url(row["organization_id"], row["id"], row["organization__link_epoch"]),
        )


INVOICE = InvoiceResource()


class InvoiceSummary(TypedDict):
    startDate: dt.date
    endDate: dt.date
    invoiceCount: Annotated[int, Describe("Invoices issued in the period, `void` and `draft` ones left out.")]
    totalInvoiced: Annotated[float, Describe("Sum of their `total` (tax included).")]
    totalPaid: Annotated[float, Describe("Sum of their `amountPaid`.")]
    totalOutstanding: Annotated[
        float, Describe("Sum of the `amountDue` of the `open` ones (an `uncollectible` invoice's is written off).")
    ]
