"""Response shapes of the marketplace API, one `TypedDict` each (the OpenAPI components are generated from them).

Names carry a `Marketplace` prefix where the Platform API already has a component of that noun. A club's own fields
are declared once, by the Platform API's Club shape (`apps.clubs.resources.Club`): the listing and the profile take
theirs from it (`club_fields`) and declare only what differs (a listed club always has a slug) or is their own.
"""

import datetime as dt
import typing
from typing import Annotated, NotRequired, TypedDict

from apps.api.resources import Describe
from apps.billing.choices import BillingFrequency
from apps.clubs.resources import AmenityResolved, Club


def club_fields(*names: str) -> dict:
    """The declarations of these fields of the Platform API's Club shape, in the order given."""
    hints = typing.get_type_hints(Club, include_extras=True)
    return {name: hints[name] for name in names}


class MarketplaceRating(TypedDict):
    average: float
    total: int


RATING = Annotated[MarketplaceRating | None, Describe("Null without public reviews.")]
TIMEZONE = Annotated[str, Describe("IANA time zone of the club's clock.")]

ClubListing = TypedDict(
    "ClubListing",
    {
        "slug": str,
        **club_fields("name", "address", "city", "state", "country", "postalCode", "logo", "images", "sports"),
        "rating": RATING,
        "distanceKm": Annotated[
            float | None, Describe("Great-circle distance from the point searched; null without one.")
        ],
        "timezone": TIMEZONE,
        "url": Annotated[str, Describe("The club's marketplace page.")],
    },
)
ClubListing.__doc__ = "A club in the marketplace search."


class ClubListingPage(TypedDict):
    data: list[ClubListing]
    total: int
    limit: int
    offset: int


# The Platform API's resolved amenity, under the marketplace's own component name.
MarketplaceAmenity = TypedDict("MarketplaceAmenity", typing.get_type_hints(AmenityResolved, include_extras=True))


class MarketplaceCourt(TypedDict):
    id: int
    name: str
    sports: list[str]
    areaType: Annotated[str | None, Describe("The area type's name.")]
    isIndoor: bool
    hourlyRate: Annotated[
        float | None, Describe("Base hourly rate, tax-inclusive; pricing rules may change the price of a given time.")
    ]


class MarketplacePass(TypedDict):
    id: int
    name: str
    description: str | None
    price: float
    signupFee: float
    billingFrequency: BillingFrequency


class MarketplaceInstructor(TypedDict):
    id: int
    name: str | None
    profileImage: str | None
    sports: list[str]
    bio: Annotated[str | None, Describe("Plain text.")]
    hourlyRate: Annotated[float | None, Describe("Tax-inclusive.")]


class MarketplaceClass(TypedDict):
    id: int
    name: str
    classType: Annotated[str | None, Describe("The class type's name.")]
    startTime: Annotated[dt.datetime, Describe("With the club's own UTC offset (its clock), not `Z`.")]
    endTime: Annotated[dt.datetime, Describe("With the club's own UTC offset (its clock), not `Z`.")]
    durationMinutes: int
    instructors: Annotated[list[str], Describe("Instructor names.")]
    price: Annotated[float | None, Describe("Tax-inclusive.")]
    isFree: bool
    spotsLeft: Annotated[int | None, Describe("Null when the class has no capacity limit.")]
    url: Annotated[str, Describe("The club's marketplace page on the class's day.")]


ClubProfile = TypedDict(
    "ClubProfile",
    {
        "slug": str,
        **club_fields("name"),
        "description": str,
        **club_fields(
            "address", "city", "state", "country", "postalCode", "phone", "email", "website", "logo", "images"
        ),
        "amenities": list[MarketplaceAmenity],
        **club_fields("sports"),
        "rating": RATING,
        **club_fields("socialProfiles"),
        "timezone": TIMEZONE,
        "currency": Annotated[str, Describe("ISO 4217 code of every price.")],
        "url": str,
        "courts": list[MarketplaceCourt],
        "passes": list[MarketplacePass],
        "instructors": list[MarketplaceInstructor],
        "upcomingClasses": Annotated[
            list[MarketplaceClass], Describe("Public classes of the next 14 days, at most 50.")
        ],
    },
)
ClubProfile.__doc__ = "One club on the marketplace."


class Offer(TypedDict):
    """A bookable court time."""

    clubSlug: str
    clubName: str
    areaId: int
    areaName: str
    sport: str | None
    date: Annotated[dt.date, Describe("On the club's clock.")]
    time: Annotated[str, Describe("HH:MM on the club's clock.")]
    durationMinutes: int
    price: Annotated[float, Describe("Tax-inclusive, in `currency`; the non-member price of the pricing rules.")]
    currency: str
    timezone: str
    url: Annotated[str, Describe("The club's marketplace page with this time selected.")]


class OfferPage(TypedDict):
    data: list[Offer]
    total: int
    limit: int
    offset: int


class MarketplaceIssue(TypedDict):
    path: Annotated[str, Describe("The request field (dotted for nested ones; `body` for the whole body).")]
    message: str


class MarketplaceErrorDetails(TypedDict):
    issues: list[MarketplaceIssue]


class MarketplaceError(TypedDict):
    """The marketplace's error body: `details` on a validation failure, `code` on an unserved path."""

    error: str
    details: NotRequired[Annotated[MarketplaceErrorDetails, Describe("Present on a validation failure.")]]
    code: NotRequired[Annotated[str, Describe("`NOT_FOUND` for a path or method no marketplace route serves.")]]
