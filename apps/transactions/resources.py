"""The Transaction shape. A page is one query: the contact's name and e-mail are joined columns."""

import datetime as dt
from typing import Annotated, TypedDict

from apps.api.resources import Describe, PresentContext, RequiresScope, Resource
from apps.contacts.resources import CONTACT_EMAIL_HELP, contact_email, contact_name

from . import models
from .choices import TransactionPaymentStatus, TransactionSourceType, TransactionType


class Transaction(TypedDict):
    id: int
    type: TransactionType
    sourceType: TransactionSourceType
    description: str
    contactId: int | None
    contactName: str | None
    contactEmail: Annotated[str | None, Describe(CONTACT_EMAIL_HELP), RequiresScope("contacts:read")]
    clubId: int | None
    bookingId: int | None
    membershipId: int | None
    productId: int | None
    invoiceId: Annotated[int | None, Describe("The invoice listing this transaction; null while none does.")]
    revenueAccountId: int | None
    refundOfId: Annotated[int | None, Describe("On a `refund`: the outside revenue it refunds.")]
    amount: float
    taxAmount: float
    paidAmount: float
    refundedAmount: float
    paymentStatus: TransactionPaymentStatus
    paymentMethod: str | None
    reference: str | None
    occurredAt: dt.datetime
    paidAt: dt.datetime | None
    createdAt: dt.datetime
    updatedAt: dt.datetime


class TransactionResource(Resource):
    shape = Transaction
    model = models.Transaction
    columns = ("contact__first_name", "contact__last_name", "contact__email")

    def present(self, row: dict, ctx: PresentContext) -> Transaction:
        return self.body(
            row,
            ctx,
            contactName=contact_name(row),
            contactEmail=contact_email(row, ctx),
        )


TRANSACTION = TransactionResource()


class TransactionSummaryFigures(TypedDict):
    count: Annotated[int, Describe("Charges and outside revenue counted (refunds are not counted here).")]
    gross: Annotated[float, Describe("Tax-inclusive amount of the charges and outside revenue, paid or not.")]
    tax: Annotated[float, Describe("Tax included in `gross`.")]
    refunded: Annotated[
        float, Describe("Refund transactions plus refunds a partner reported on a charge (dated with the charge).")
    ]
    net: Annotated[float, Describe("`gross` minus `refunded`.")]


class TransactionSummaryGroup(TypedDict):
    key: Annotated[
        str,
        Describe(
            "`day`: the date; `week`: the date of its Monday (ISO week, may precede `startDate`); `month`: "
            "`YYYY-MM`; `revenueAccount`: the account id, or `none` for transactions without one."
        ),
    ]
    count: int
    gross: float
    tax: float
    refunded: float
    net: float


class TransactionSummary(TypedDict):
    startDate: Annotated[dt.date, Describe("First day (inclusive) of the report.")]
    endDate: Annotated[dt.date, Describe("Last day (inclusive) of the report.")]
    totals: TransactionSummaryFigures
    groups: Annotated[
        list[TransactionSummaryGroup],
        Describe(
            "Empty without `groupBy`. Dates: every day, week or month overlapping the period, in order, zero "
            "when nothing happened; accounts: those with counted transactions, by id, `none` last."
        ),
    ]
