"""The Membership shape. A page is one query: the contact's and the plan's columns are joined."""

import datetime as dt
from typing import Annotated, TypedDict

from apps.api.resources import Describe, Email, PresentContext, RequiresScope, Resource
from apps.billing.choices import BillingFrequency
from apps.contacts.resources import CONTACT_EMAIL_HELP, contact_email, contact_name

from . import models
from .choices import MembershipPaymentStatus, MembershipStatus


class MembershipPlanRef(TypedDict):
    id: int
    name: str


class Membership(TypedDict):
    id: int
    contactId: int
    contactName: str | None
    contactEmail: Annotated[Email | None, Describe(CONTACT_EMAIL_HELP), RequiresScope("contacts:read")]
    planId: int
    plan: MembershipPlanRef
    clubId: Annotated[int | None, Describe("The plan's club when the plan is bound to one.")]
    status: MembershipStatus
    price: Annotated[float, Describe("Charged for each period (tax-inclusive).")]
    signupFee: Annotated[float, Describe("Charged once, with the first period.")]
    billingFrequency: BillingFrequency
    paymentStatus: Annotated[MembershipPaymentStatus, Describe("Whether the latest billed period is paid.")]
    startDate: dt.date
    endDate: Annotated[dt.date | None, Describe("The last day covered (inclusive); null: open-ended.")]
    nextBillingDate: Annotated[
        dt.date | None, Describe("The first day of the next period while the membership renews; else null.")
    ]
    usesRemaining: Annotated[
        int | None,
        Describe("Uses left in this period (reset on each period's first day); null: not counted."),
    ]
    pausedAt: dt.datetime | None
    resumeDate: Annotated[dt.date | None, Describe("A paused membership is resumed on this day.")]
    cancelAt: Annotated[
        dt.date | None,
        Describe("A cancellation at the end of the period takes effect on this day (the day after `endDate`)."),
    ]
    cancelledAt: dt.datetime | None
    cancellationReason: str | None
    source: Annotated[str, Describe("Where it was sold: `api`, `admin`.")]
    notes: str | None
    createdAt: dt.datetime
    updatedAt: dt.datetime


class MembershipResource(Resource):
    shape = Membership
    model = models.Membership
    columns = ("contact__first_name", "contact__last_name", "contact__email", "plan__name", "plan__max_uses")

    def present(self, row: dict, ctx: PresentContext) -> Membership:
        uses = row["uses_remaining"]
        if uses is None:
            uses = row["plan__max_uses"]  # a counted plan whose membership never recorded a count starts full
        return self.body(
            row,
            ctx,
            contactName=contact_name(row),
            contactEmail=contact_email(row, ctx),
            plan={"id": row["plan_id"], "name": row["plan__name"]},
            usesRemaining=uses,
        )


MEMBERSHIP = MembershipResource()
