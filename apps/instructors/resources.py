"""Instructor shapes: the public one embedded in classes, the full one of the instructors endpoints, instructor
types and pay-rate policies."""

import datetime as dt
from typing import Annotated, TypedDict

from apps.api.resources import Describe, PresentContext, Resource
from apps.clubs.choices import DayOfWeek
from apps.contacts.models import display_name

from . import models
from .choices import RateType


class InstructorTypeRef(TypedDict):
    id: int
    name: str


class InstructorContact(TypedDict):
    name: str | None
    profileImage: str | None


class InstructorSummary(TypedDict):
    """An instructor as classes embed it."""

    id: int
    contactId: int
    sports: list[str]
    typeId: int | None
    type: InstructorTypeRef | None
    experience: str | None
    hourlyRate: float | None
    bio: Annotated[dict | None, Describe("Block-editor document.")]
    certifications: list[str]
    isActive: bool
    isBookable: bool
    contact: InstructorContact | None


class AvailabilitySlot(TypedDict):
    dayOfWeek: DayOfWeek
    startTime: Annotated[str, Describe("HH:MM")]
    endTime: Annotated[str, Describe("HH:MM")]
    clubId: int | None


class Instructor(InstructorSummary):
    weeklyAvailability: list[AvailabilitySlot]
    payRatePolicyId: int | None
    createdAt: dt.datetime
    updatedAt: dt.datetime


class InstructorType(TypedDict):
    id: int
    name: str
    description: str | None


class PayRatePolicy(TypedDict):
    id: int
    name: str
    rateType: RateType
    amount: float
    isActive: bool
    createdAt: dt.datetime
    updatedAt: dt.datetime


class InstructorSummaryResource(Resource):
    shape = InstructorSummary
    model = models.Instructor
    columns = ("type__name", "contact__first_name", "contact__last_name", "contact__profile_image")

    def present(self, row: dict, ctx: PresentContext) -> InstructorSummary:
        return self.body(row, ctx, **self.summary_values(row))

    def summary_values(self, row: dict) -> dict:
        return dict(
            type={"id": row["type_id"], "name": row["type__name"]} if row["type_id"] is not None else None,
            contact={
                "name": display_name(row["contact__first_name"], row["contact__last_name"]) or None,
                "profileImage": row["contact__profile_image"],
            },
        )


class InstructorResource(InstructorSummaryResource):
    shape = Instructor

    def present(self, row: dict, ctx: PresentContext) -> Instructor:
        return self.body(
            row,
            ctx,
            **self.summary_values(row),
            weeklyAvailability=[
                {
                    "dayOfWeek": slot.get("dayOfWeek"),
                    "startTime": slot.get("startTime"),
                    "endTime": slot.get("endTime"),
                    "clubId": slot.get("clubId"),
                }
                for slot in row["weekly_availability"] or []
            ],
        )


INSTRUCTOR_SUMMARY = InstructorSummaryResource()
INSTRUCTOR = InstructorResource()
INSTRUCTOR_TYPE = Resource(InstructorType, models.InstructorType)
PAY_RATE_POLICY = Resource(PayRatePolicy, models.PayRatePolicy)
