"""Shapes of revenue accounts, plan categories and plans (the spec's Plan body plus `id`, `planCategory`,
`retiredAt`, `createdAt`, `updatedAt`). Names and descriptions of plans and categories follow `?locale=`."""

import datetime as dt
from typing import Annotated, TypedDict

from apps.api.resources import Describe, PresentContext, Resource
from apps.classes.choices import Visibility

from . import models
from .choices import BillingFrequency, CustomPeriodUnit, SessionUnit, ValidForScope


class RevenueAccount(TypedDict):
    id: int
    name: str
    code: str | None
    description: str | None
    isDefault: Annotated[bool, Describe("The default sales account: exactly one per organization.")]
    isActive: bool
    createdAt: dt.datetime
    updatedAt: dt.datetime


class PlanCategory(TypedDict):
    id: int
    name: str
    description: str | None
    position: int
    translations: Annotated[dict, Describe("{locale: {name, description}}; read-only.")]
    createdAt: dt.datetime
    updatedAt: dt.datetime


class PlanCategoryRef(TypedDict):
    id: int
    name: str


class PlanValidFor(TypedDict):
    scopes: list[ValidForScope]
    classTypes: list[int]
    areaTypes: list[int]
    instructorTypes: list[int]


class Plan(TypedDict):
    id: int
    name: str
    description: str | None
    clubId: int | None
    planCategoryId: int | None
    planCategory: PlanCategoryRef | None
    revenueAccountId: Annotated[
        int | None,
        Describe("null: sales post to the organization's default revenue account, resolved at sale time."),
    ]
    price: float
    signupFee: float
    billingFrequency: BillingFrequency
    customPeriod: int | None
    customPeriodUnit: CustomPeriodUnit | None
    isActive: bool
    maxUses: int | None
    sessionUnit: SessionUnit | None
    validityPeriod: Annotated[int | None, Describe("Days.")]
    autoRenews: bool
    renewalDaysInAdvance: int
    requirePaymentUpfront: bool
    sports: list[str]
    features: list[str]
    visibility: Visibility
    validFor: PlanValidFor
    retiredAt: dt.datetime | None
    createdAt: dt.datetime
    updatedAt: dt.datetime


class RevenueAccountResource(Resource):
    shape = RevenueAccount
    model = models.RevenueAccount


class PlanCategoryResource(Resource):
    shape = PlanCategory
    model = models.PlanCategory
    translated = ("name", "description")


def present_valid_for(value) -> PlanValidFor:
    """The stored `valid_for` with every key present (older rows may lack some)."""
    value = value if isinstance(value, dict) else {}
    return {
        "scopes": list(value.get("scopes") or []),
        "classTypes": list(value.get("classTypes") or []),
        "areaTypes": list(value.get("areaTypes") or []),
        "instructorTypes": list(value.get("instructorTypes") or []),
    }


class PlanResource(Resource):
    shape = Plan
    model = models.Plan
    translated = ("name", "description")
    columns = ("translations", "plan_category__name", "plan_category__translations")

    def present(self, row: dict, ctx: PresentContext) -> Plan:
        return self.body(
            row,
            ctx,
            planCategory=ctx.translated_ref(row, "plan_category"),
            validFor=present_valid_for(row["valid_for"]),
        )


REVENUE_ACCOUNT = RevenueAccountResource()
PLAN_CATEGORY = PlanCategoryResource()
PLAN = PlanResource()
