"""Response shapes of the marketplace API, one `TypedDict` each (the OpenAPI components are generated from them).

Names carry a `Marketplace` prefix where the Platform API already has a component of that noun.
"""

import datetime as dt
from typing import Annotated, NotRequired, TypedDict

from apps.api.resources import Describe
from apps.billing.choices import BillingFrequency


class MarketplaceRating(TypedDict):
    average: float
    total: int


class ClubListing(TypedDict):
    """A club in the marketplace search."""

    slug: str
    name: str
    address: str | None
    city: str | None
    state: str | None
    country: str | None
    postalCode: str | None
    logo: str | None
    images: list[str]
    sports: list[str]
    rating: Annotated[MarketplaceRating | None, Describe("Null without public reviews.")]
    distanceKm: Annotated[float | None, Describe("Great-circle distance from the point searched; null without one.")]
    timezone: Annotated[str, Describe("IANA time zone of the club's clock.")]
    url: Annotated[str, Describe("The club's marketplace page.")]


class ClubListingPage(TypedDict):
    data: list[ClubListing]
    total: int
    limit: int
    offset: int


class MarketplaceAmenity(TypedDict):
    id: str
    name: str
    icon: str | None
    category: str | None


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


class ClubProfile(TypedDict):
    """One club on the marketplace."""

    slug: str
    name: str
    description: str
    address: str | None
    city: str | None
    state: str | None
    country: str | None
    postalCode: str | None
    phone: str | None
    email: str | None
    website: str | None
    logo: str | None
    images: list[str]
    amenities: list[MarketplaceAmenity]
    sports: list[str]
    rating: Annotated[MarketplaceRating | None, Describe("Null without public reviews.")]
    socialProfiles: dict[str, str]
    timezone: Annotated[str, Describe("IANA time zone of the club's clock.")]
    currency: Annotated[str, Describe("ISO 4217 code of every price.")]
    url: str
    courts: list[MarketplaceCourt]
    passes: list[MarketplacePass]
    instructors: list[MarketplaceInstructor]
    upcomingClasses: Annotated[list[MarketplaceClass], Describe("Public classes of the next 14 days, at most 50.")]


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
