"""The pricing rule shape and the quote shape."""

import datetime as dt
from typing import Annotated, TypedDict

from apps.api.resources import Describe, PresentContext, Resource
from apps.clubs.choices import DayOfWeek

from . import models
from .choices import AdjustmentType, Audience
from .quote import RULE_COLUMNS


def hhmm(minute: int | None) -> str | None:
    return None if minute is None else f"{minute // 60:02d}:{minute % 60:02d}"


class PricingRule(TypedDict):
    id: int
    name: str
    clubId: Annotated[int | None, Describe("Null: every club.")]
    areaIds: Annotated[list[int], Describe("Empty: every area.")]
    areaTypeIds: Annotated[list[int], Describe("Empty: every area type.")]
    sports: Annotated[list[str], Describe("Empty: every sport.")]
    daysOfWeek: Annotated[list[DayOfWeek], Describe("Empty: every day (on the club's clock).")]
    startTime: Annotated[str | None, Describe("`HH:MM` on the club's clock; null with `endTime`: all day.")]
    endTime: Annotated[str | None, Describe("`HH:MM` (exclusive, `24:00` is midnight at the end of the day).")]
    validFrom: Annotated[dt.date | None, Describe("First day (inclusive, club's clock).")]
    validUntil: Annotated[dt.date | None, Describe("Last day (inclusive, club's clock).")]
    audience: Audience
    planIds: Annotated[list[int], Describe("Non-empty: only contacts holding an active membership of one of them.")]
    adjustmentType: AdjustmentType
    value: float
    priority: Annotated[int, Describe("Rules apply in ascending priority, so the highest has the last word.")]
    isActive: bool
    createdAt: dt.datetime
    updatedAt: dt.datetime


class AppliedRule(TypedDict):
    id: int
    name: str


class PriceQuote(TypedDict):
    areaId: int
    startTime: dt.datetime
    endTime: dt.datetime
    durationMinutes: int
    priceBeforeTax: float
    tax: float
    price: float
    appliedRules: Annotated[list[AppliedRule], Describe("The rules that priced some minute, in order of application.")]


class PricingRuleResource(Resource):
    shape = PricingRule
    model = models.PricingRule
    columns = RULE_COLUMNS  # what the quote reads of a rule

    def present(self, row: dict, ctx: PresentContext) -> PricingRule:
        return self.body(row, ctx, startTime=hhmm(row["start_minute"]), endTime=hhmm(row["end_minute"]))


PRICING_RULE = PricingRuleResource()
