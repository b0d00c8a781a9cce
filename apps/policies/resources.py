"""BookingPolicy and DocumentRule shapes. A page costs one query: the id lists are SQL subqueries."""

import datetime as dt
from typing import Annotated, TypedDict

from apps.api.expressions import related_ids
from apps.api.resources import Describe, PresentContext, Resource

from . import models
from .choices import DocumentAppliesTo, DocumentRequirement, DocumentType, PolicyAppliesTo

NO_LIMIT = "Null: no limit."


class BookingPolicy(TypedDict):
    id: int
    name: str
    appliesTo: PolicyAppliesTo
    clubId: Annotated[int | None, Describe("Null: every club.")]
    areaTypeIds: Annotated[list[int], Describe("Area types the policy covers (`appliesTo: areas`); empty: all.")]
    classTypeIds: Annotated[list[int], Describe("Class types the policy covers (`appliesTo: classes`); empty: all.")]
    advanceBookingDays: Annotated[int | None, Describe("How many days ahead a booking may start. " + NO_LIMIT)]
    minAdvanceMinutes: Annotated[int | None, Describe("Minutes a booking must be made before it starts. " + NO_LIMIT)]
    maxDurationMinutes: Annotated[int | None, Describe("Longest booking. " + NO_LIMIT)]
    cancellationWindowHours: Annotated[
        int | None, Describe("Hours before the start after which a cancellation is late. Null: never late.")
    ]
    lateCancellationFee: Annotated[float | None, Describe("Fee of a late cancellation (before tax). Null: none.")]
    maxActiveBookingsPerContact: Annotated[int | None, Describe("Active bookings one contact may hold. " + NO_LIMIT)]
    isDefault: bool
    createdAt: dt.datetime
    updatedAt: dt.datetime


class DocumentRule(TypedDict):
    id: int
    name: str
    documentType: DocumentType
    contentItemId: Annotated[int | None, Describe("The content item holding the document's text.")]
    documentUrl: str | None
    requirement: DocumentRequirement
    appliesTo: DocumentAppliesTo
    planIds: list[int]
    classTypeIds: list[int]
    eventIds: Annotated[list[int], Describe("With `appliesTo: events`: the events whose attendees must sign.")]
    renewEveryDays: Annotated[int | None, Describe("Days after which the document must be signed again. Null: never.")]
    isActive: bool
    createdAt: dt.datetime
    updatedAt: dt.datetime


def _ids(values) -> list[int]:
    return sorted(values or ())


class BookingPolicyResource(Resource):
    shape = BookingPolicy
    model = models.BookingPolicy
    columns = ("area_type_ids", "class_type_ids")

    def annotate(self, queryset):
        area_types = models.BookingPolicy.area_types.through.objects
        class_types = models.BookingPolicy.class_types.through.objects
        return queryset.annotate(
            area_type_ids=related_ids(area_types, "bookingpolicy_id", "areatype_id"),
            class_type_ids=related_ids(class_types, "bookingpolicy_id", "classtype_id"),
        )

    def present(self, row: dict, ctx: PresentContext) -> BookingPolicy:
        return self.body(
            row,
            ctx,
            areaTypeIds=_ids(row["area_type_ids"]),
            classTypeIds=_ids(row["class_type_ids"]),
        )


class DocumentRuleResource(Resource):
    shape = DocumentRule
    model = models.DocumentRule
    columns = ("plan_ids", "class_type_ids", "event_ids")

    def annotate(self, queryset):
        plans = models.DocumentRule.plans.through.objects
        class_types = models.DocumentRule.class_types.through.objects
        events = models.DocumentRule.events.through.objects
        return queryset.annotate(
            plan_ids=related_ids(plans, "documentrule_id", "plan_id"),
            class_type_ids=related_ids(class_types, "documentrule_id", "classtype_id"),
            event_ids=related_ids(events, "documentrule_id", "event_id"),
        )

    def present(self, row: dict, ctx: PresentContext) -> DocumentRule:
        return self.body(
            row,
            ctx,
            planIds=_ids(row["plan_ids"]),
            classTypeIds=_ids(row["class_type_ids"]),
            eventIds=_ids(row["event_ids"]),
        )


BOOKING_POLICY = BookingPolicyResource()
DOCUMENT_RULE = DocumentRuleResource()
