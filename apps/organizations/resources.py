"""Shapes of the caller's identity (`/me`) and organization settings: single objects, presented from the model."""

import datetime as dt
from typing import Annotated, NotRequired, TypedDict

from apps.api.resources import Describe, FieldOptions, shape_serializer

from . import services
from .choices import CredentialType

CardName = Annotated[str, FieldOptions(max_length=services.BOOKING_CARD_NAME_MAX)]

# `class` is a keyword, so these shapes are spelled the functional way, one key per booking card.
BookingCardNames = TypedDict("BookingCardNames", {key: CardName for key in services.BOOKING_CARD_KEYS})
# The same keys in a PATCH body, each optional: an omitted key shows its default name.
BookingCardNamesUpdate = TypedDict(
    "BookingCardNamesUpdate", {key: NotRequired[CardName] for key in services.BOOKING_CARD_KEYS}
)


class OrganizationSettings(TypedDict):
    id: int
    name: str
    defaultLanguage: str
    offeredLanguages: list[str]
    bookingCardNames: BookingCardNames
    updatedAt: dt.datetime


def present_settings(organization) -> OrganizationSettings:
    return {
        "id": organization.id,
        "name": organization.name,
        "defaultLanguage": organization.default_language,
        "offeredLanguages": services.offered_languages(organization),
        "bookingCardNames": services.booking_card_names(organization),
        "updatedAt": organization.updated_at,
    }


class MeOrganization(TypedDict):
    id: int
    currency: str


class MeResource(TypedDict):
    resource: str
    actions: list[str]


class MeCredential(TypedDict):
    type: Annotated[CredentialType, Describe("An API key, or an OAuth access token")]
    name: Annotated[str, Describe("The API key's name, or the name of the OAuth client the token was granted to")]


class Me(TypedDict):
    credential: MeCredential
    organization: MeOrganization
    scopes: list[str]
    effectiveScopes: list[str]
    fullAccess: bool
    resources: list[MeResource]


SETTINGS_SCHEMA = shape_serializer(OrganizationSettings)
ME_SCHEMA = shape_serializer(Me)
BOOKING_CARD_NAMES_UPDATE_SCHEMA = shape_serializer(BookingCardNamesUpdate)
