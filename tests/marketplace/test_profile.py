"""GET /v1/public/network/clubs/{slug}: the profile, only public items, locale, the one 404."""

import datetime as dt

import pytest
from django.utils import timezone

from apps.billing.models import Plan
from apps.bookings.models import Booking
from apps.classes.models import ClassOccurrence, ClassType
from apps.clubs.models import Amenity, Area
from apps.contacts.models import Contact
from apps.instructors.models import Instructor
from apps.marketplace.profile import plain_text

from .conftest import MADRID, PROFILE


@pytest.fixture
def club(make_listed_club):
    return make_listed_club(
        "Sol Padel",
        description="Courts in the centre.",
        phone="+34 600 000 000",
        email="hola@sol.example",
        website="https://sol.example",
        amenities=["parking", "unknown-code"],
        social_profiles={"instagram": "https://instagram.com/sol"},
    )


def instructor(organization, first, last, **fields):
    contact = Contact.objects.create(organization=organization, first_name=first, last_name=last)
    return Instructor.objects.create(organization=organization, contact=contact, **fields)


def a_class(organization, club, days, **fields):
    start = (timezone.now() + dt.timedelta(days=days)).replace(microsecond=0)
    fields.setdefault("price_before_tax", "10.00")
    return ClassOccurrence.objects.create(
        organization=organization,
        club=club,
        name=fields.pop("name", "Padel clinic"),
        start_time=start,
        end_time=start + dt.timedelta(minutes=90),
        **fields,
    )


def test_profile_shape_and_values(public, organization, club):
    Amenity.objects.create(code="parking", names={"en": "Parking", "es": "Aparcamiento"}, icon="car", category="x")
    court = club.areas.get(name="Court 1")
    court.hourly_rate = "19.99"
    court.is_indoor = True
    court.save()
    Area.objects.create(organization=organization, club=club, name="Closed court", is_active=False, position=9)

    body = public.get(PROFILE.format(slug=club.slug)).json()

    assert list(body) == [
        "slug", "name", "description", "address", "city", "state", "country", "postalCode", "phone", "email",
        "website", "logo", "images", "amenities", "sports", "rating", "socialProfiles", "timezone", "currency",
        "url", "courts", "passes", "instructors", "upcomingClasses",
    ]  # fmt: skip
    assert body["slug"] == club.slug
    assert body["description"] == "Courts in the centre."
    assert body["timezone"] == "Europe/Madrid"
    assert body["currency"] == "EUR"
    assert body["url"] == f"http://localhost:8000/marketplace/clubs/{club.slug}"
    assert body["amenities"] == [
        {"id": "parking", "name": "Parking", "icon": "car", "category": "x"},
        {"id": "unknown-code", "name": "unknown-code", "icon": None, "category": None},
    ]
    assert body["rating"] is None
    # Tax-inclusive as the pricing quote adds it: 19.99 + round(19.99 x 21 %) = 19.99 + 4.20.
    assert body["courts"] == [
        {
            "id": court.id,
            "name": "Court 1",
            "sports": ["padel"],
            "areaType": "Padel court",
            "isIndoor": True,
            "hourlyRate": 24.19,
        },
        {
            "id": club.areas.get(name="Court 2").id,
            "name": "Court 2",
            "sports": ["padel"],
            "areaType": "Padel court",
            "isIndoor": False,
            "hourlyRate": 24.2,
        },
    ]


def test_locale_translates_names(public, organization, club):
    Amenity.objects.create(code="parking", names={"en": "Parking", "es": "Aparcamiento"})
    Plan.objects.create(
        organization=organization,
        name="Monthly",
        description="Play all month",
        price="49.00",
        translations={"es": {"name": "Mensual", "description": "Juega todo el mes"}},
    )
    kind = ClassType.objects.create(organization=organization, name="Clinic", translations={"es": {"name": "Clínica"}})
    a_class(
        organization,
        club,
        2,
        name="Morning clinic",
        class_type=kind,
        translations={"es": {"name": "Clínica de mañana"}},
    )

    spanish = public.get(PROFILE.format(slug=club.slug), {"locale": "es"}).json()
    english = public.get(PROFILE.format(slug=club.slug)).json()

    assert spanish["amenities"][0]["name"] == "Aparcamiento"
    assert (spanish["passes"][0]["name"], spanish["passes"][0]["description"]) == ("Mensual", "Juega todo el mes")
    assert (spanish["upcomingClasses"][0]["name"], spanish["upcomingClasses"][0]["classType"]) == (
        "Clínica de mañana",
        "Clínica",
    )
    assert english["amenities"][0]["name"] == "Parking"
    assert english["passes"][0]["name"] == "Monthly"
    assert english["upcomingClasses"][0]["name"] == "Morning clinic"


def test_passes_are_the_clubs_public_active_plans(public, organization, club, make_listed_club):
    other_club = make_listed_club("Other")
    shown = Plan.objects.create(organization=organization, name="Ten sessions", price="80.00", signup_fee="5.00")
    everywhere = Plan.objects.create(organization=organization, name="All clubs", price="30.00", club=club)
    Plan.objects.create(organization=organization, name="Members", price="10", visibility="Member_only")
    Plan.objects.create(organization=organization, name="Secret", price="10", visibility="Private")
    Plan.objects.create(organization=organization, name="Off", price="10", is_active=False)
    Plan.objects.create(organization=organization, name="Old", price="10", retired_at=timezone.now())
    Plan.objects.create(organization=organization, name="Other club", price="10", club=other_club)

    passes = public.get(PROFILE.format(slug=club.slug)).json()["passes"]

    assert passes == [
        {
            "id": everywhere.id,
            "name": "All clubs",
            "description": None,
            "price": 30.0,
            "signupFee": 0.0,
            "billingFrequency": "monthly",
        },
        {
            "id": shown.id,
            "name": "Ten sessions",
            "description": None,
            "price": 80.0,
            "signupFee": 5.0,
            "billingFrequency": "monthly",
        },
    ]


def test_instructors_with_plain_text_bio(public, organization, club, make_listed_club):
    bio = {
        "blocks": [
            {"type": "header", "data": {"text": "About <b>Ana</b>"}},
            {"type": "paragraph", "data": {"text": "Coach &amp; player<br>since 2010."}},
            {"type": "list", "data": {"style": "unordered", "items": ["Padel", {"content": "Tennis", "items": []}]}},
        ]
    }
    ana = instructor(organization, "Ana", "Lopez", bio=bio, sports=["padel"], hourly_rate="30.00")
    ana.weekly_availability = [{"dayOfWeek": "monday", "startTime": "09:00", "endTime": "13:00", "clubId": club.id}]
    ana.save()
    teacher = instructor(organization, "Bea", "Ruiz")
    a_class(organization, club, 1).instructors.add(teacher)
    other = make_listed_club("Other")
    elsewhere = instructor(organization, "Carl", "Elsewhere")
    elsewhere.weekly_availability = [
        {"dayOfWeek": "monday", "startTime": "09:00", "endTime": "13:00", "clubId": other.id}
    ]
    elsewhere.save()
    instructor(organization, "Dan", "Idle", weekly_availability=ana.weekly_availability, is_active=False)

    body = public.get(PROFILE.format(slug=club.slug)).json()

    assert body["instructors"] == [
        {
            "id": ana.id,
            "name": "Ana Lopez",
            "profileImage": None,
            "sports": ["padel"],
            "bio": "About Ana\nCoach & player\nsince 2010.\nPadel\nTennis",
            "hourlyRate": 36.3,
        },
        {"id": teacher.id, "name": "Bea Ruiz", "profileImage": None, "sports": [], "bio": None, "hourlyRate": None},
    ]
    assert plain_text({"blocks": []}) is None
    assert plain_text(None) is None
    assert body["upcomingClasses"][0]["instructors"] == ["Bea Ruiz"]


def test_upcoming_classes_next_14_days_public_active_only(public, organization, club, make_listed_club):
    soon = a_class(organization, club, 1, max_capacity=8, name="Soon")
    free = a_class(organization, club, 3, is_free=True, price_before_tax=None, name="Free")
    a_class(organization, club, 15, name="Too late")
    a_class(organization, club, -1, name="Past")
    a_class(organization, club, 2, visibility="Member_only", name="Members")
    a_class(organization, club, 2, visibility="Private", name="Private")
    a_class(organization, club, 2, status="cancelled", name="Cancelled")
    a_class(organization, make_listed_club("Other"), 2, name="Other club")
    contact = Contact.objects.create(organization=organization, first_name="P")
    for status in ("confirmed", "confirmed", "cancelled"):
        Booking.objects.create(
            organization=organization,
            club=club,
            type="class",
            class_occurrence=soon,
            contact=contact,
            status=status,
            start_time=soon.start_time,
            end_time=soon.end_time,
        )

    classes = public.get(PROFILE.format(slug=club.slug)).json()["upcomingClasses"]

    assert [c["name"] for c in classes] == ["Soon", "Free"]
    local_day = soon.start_time.astimezone(MADRID).date()
    assert classes[0] == {
        "id": soon.id,
        "name": "Soon",
        "classType": None,
        "startTime": soon.start_time.astimezone(MADRID).isoformat(),
        "endTime": soon.end_time.astimezone(MADRID).isoformat(),
        "durationMinutes": 90,
        "instructors": [],
        "price": 12.1,
        "isFree": False,
        "spotsLeft": 6,
        "url": classes[0]["url"],
    }
    assert classes[0]["url"] == (
        f"http://localhost:8000/marketplace/clubs/{club.slug}?date={local_day.isoformat()}&classId={soon.id}"
    )
    assert (classes[1]["id"], classes[1]["price"], classes[1]["isFree"], classes[1]["spotsLeft"]) == (
        free.id,
        None,
        True,
        None,
    )


def test_at_most_50_upcoming_classes(public, organization, club):
    for i in range(55):
        a_class(organization, club, 1 + i / 10)

    assert len(public.get(PROFILE.format(slug=club.slug)).json()["upcomingClasses"]) == 50


@pytest.mark.parametrize("case", ["unknown", "unlisted", "inactive", "organization inactive"])
def test_not_listed_is_the_same_404(public, make_listed_club, make_org, case):
    fields = {
        "unknown": {},
        "unlisted": {"marketplace_listed": False},
        "inactive": {"is_active": False},
        "organization inactive": {"organization_": make_org(status="inactive")},
    }[case]
    club = make_listed_club("Hidden", **fields)
    slug = "no-such-club" if case == "unknown" else club.slug

    response = public.get(PROFILE.format(slug=slug))

    assert response.status_code == 404
    assert response.json() == {"error": "Club not found"}


def test_query_count_is_constant(public, organization, club, django_assert_max_num_queries):
    with django_assert_max_num_queries(8) as small:
        assert public.get(PROFILE.format(slug=club.slug)).status_code == 200
    for i in range(10):
        Area.objects.create(organization=organization, club=club, name=f"Extra {i}", position=10 + i)
        Plan.objects.create(organization=organization, name=f"Plan {i}", price="10")
        teacher = instructor(organization, f"T{i}", "X")
        a_class(organization, club, 1 + i).instructors.add(teacher)
    with django_assert_max_num_queries(len(small.captured_queries)):
        body = public.get(PROFILE.format(slug=club.slug)).json()
    assert (len(body["courts"]), len(body["passes"]), len(body["instructors"]), len(body["upcomingClasses"])) == (
        12,
        10,
        10,
        10,
    )
