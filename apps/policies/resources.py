"""BookingPolicy and DocumentRule shapes. A page costs one query: the id lists are SQL subqueries."""

import datetime as dt
from typing import Annotated, TypedDict

from apps.api.expressions import related_ids
from apps.api.resources import Describe, PresentContext, Resource, camel_case

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


def _column(relation: str) -> str:
    """The id-list column of a many-to-many relation (`area_types` is `area_type_ids`, the body's `areaTypeIds`)."""
    return relation.removesuffix("s") + "_ids"


class IdListsResource(Resource):
    """A shape whose many-to-many `relations` are sorted id lists, each one SQL subquery of the page's query."""

    relations: tuple[str, ...] = ()

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(_column(relation) for relation in self.relations)

    def annotate(self, queryset):
        lists = {}
        for relation in self.relations:
            field = self.model._meta.get_field(relation)
            through = field.remote_field.through.objects
            lists[_column(relation)] = related_ids(through, field.m2m_column_name(), field.m2m_reverse_name())
        return queryset.annotate(**lists)

    def present(self, row: dict, ctx: PresentContext) -> dict:
        return self.body(row, ctx, **{camel_case(column): sorted(row[column] or ()) for column in self.columns})


class BookingPolicyResource(IdListsResource):
    shape = BookingPolicy
    model = models.BookingPolicy
    relations = ("area_types", "class_types")


class DocumentRuleResource(IdListsResource):
    shape = DocumentRule
    model = models.DocumentRule
    relations = ("plans", "class_types", "events")


BOOKING_POLICY = BookingPolicyResource()
DOCUMENT_RULE = DocumentRuleResource()
