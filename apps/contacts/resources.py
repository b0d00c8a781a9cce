"""Contact, pipeline stage and contact source shapes: value rows with the stage and source names joined."""

import datetime as dt
from typing import TypedDict

from apps.api.resources import Email, PresentContext, Resource

from . import models
from .choices import ContactStatus
from .models import display_name

CONTACT_EMAIL_HELP = "Null unless the credential holds contacts:read."


def contact_name(row) -> str | None:
    """The name of a row's joined contact (`contact_id`, `contact__first_name`, `contact__last_name`); None when
    the row has no contact."""
    if row["contact_id"] is None:
        return None
    return display_name(row["contact__first_name"], row["contact__last_name"])


def contact_email(row, ctx: PresentContext) -> str | None:
    """The joined contact's e-mail (`contact__email`), shown only to a credential holding contacts:read."""
    return row["contact__email"] if row["contact_id"] and ctx.allows("contacts:read") else None


class PipelineStageRef(TypedDict):
    id: int
    name: str


class ContactSourceRef(TypedDict):
    id: int
    name: str


class Contact(TypedDict):
    id: int
    firstName: str
    lastName: str | None
    name: str
    email: Email | None
    phone: str | None
    dateOfBirth: dt.date | None
    language: str | None
    profileImage: str | None
    status: ContactStatus
    pipelineStageId: int | None
    pipelineStage: PipelineStageRef | None
    sourceId: int | None
    source: ContactSourceRef | None
    tags: list[str]
    notes: str | None
    marketingConsent: bool
    customFields: dict
    archivedAt: dt.datetime | None
    createdAt: dt.datetime
    updatedAt: dt.datetime


class ContactResource(Resource):
    shape = Contact
    model = models.Contact
    columns = ("pipeline_stage__name", "source__name")

    def present(self, row: dict, ctx: PresentContext) -> Contact:
        stage_id, source_id = row["pipeline_stage_id"], row["source_id"]
        return self.body(
            row,
            ctx,
            name=display_name(row["first_name"], row["last_name"]),
            pipelineStage={"id": stage_id, "name": row["pipeline_stage__name"]} if stage_id is not None else None,
            source={"id": source_id, "name": row["source__name"]} if source_id is not None else None,
        )


class PipelineStage(TypedDict):
    id: int
    name: str
    position: int
    color: str | None
    isDefault: bool


class ContactSource(TypedDict):
    id: int
    name: str
    isActive: bool


CONTACT = ContactResource()
PIPELINE_STAGE = Resource(PipelineStage, models.PipelineStage)
CONTACT_SOURCE = Resource(ContactSource, models.ContactSource)
