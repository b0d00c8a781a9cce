"""The gym's marketplace page: what a visitor sees (status, language, prices, free times, the preselected offer)."""

import datetime as dt
import re

import pytest

from apps.bookings.models import Booking
from apps.classes.models import ClassOccurrence
from apps.clubs.models import Area, Club
from apps.contacts.models import Contact
from apps.domain_events.models import DomainEvent
from apps.instructors.models import Instructor
from apps.marketplace import offers
from apps.marketplace.pages.labels import Labels
from apps.marketplace.pages.page import build_page
from apps.marketplace.profile import listed_club as listed
from apps.occupancy.models import AreaBlock
from apps.organizations.models import Organization
from apps.pricing.models import PricingRule

from .conftest import at

pytestmark = pytest.mark.django_db


def page(client, club, headers=None, **params):
    return client.get(f"/marketplace/clubs/{club.slug}", params, headers=headers or {})


def slot_times(html: str, area_id: int) -> list[str]:
    return re.findall(rf'data-area="{area_id}" data-time="(\d\d:\d\d)"', html)


def selected_slots(html: str) -> list[tuple[str, str]]:
    return re.findall(r'aria-current="true" id="selected-slot" data-area="(\d+)" data-time="(\d\d:\d\d)"', html)


def test_profile_courts_and_call_to_action_in_english(client, listed_club, court):
    response = page(client, listed_club)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert "<h1>Centre Court</h1>" in html
    assert "Courts and prices" in html
    # 20.00 before tax at 21 %: the tax-inclusive hourly rate
    assert '<tr><th scope="row">Court 1</th><td>padel</td><td>Outdoor (Padel court)</td><td>€24.20</td></tr>' in html
    assert 'href="https://centre-court.example.com"' in html and "Book on the club&#x27;s website" in html
    assert 'href="tel:+34910000001"' in html
    assert "Booking and payment happen with the club itself." in html
    assert "Access-Control-Allow-Origin" not in response


def test_spanish_labels_dates_and_money(client, listed_club, court, day):
    html = page(client, listed_club, locale="es", date=day.isoformat()).content.decode()
    assert '<html lang="es">' in html
    assert "Pistas y precios" in html and "Horas libres el" in html
    assert "<td>24,20\xa0€</td>" in html  # Babel's Spanish format: a no-break space before the symbol
    assert "Reservar en la web del club" in html
    # the page's own links keep the language
    assert f"?date={day.isoformat()}&amp;time=08:00&amp;areaId={court.id}&amp;locale=es" in html
    assert '<input type="hidden" name="locale" value="es">' in html


def test_unknown_locale_falls_back_to_the_organizations_language(client, organization, listed_club, court):
    organization.default_language = "es"
    organization.save()
    assert '<html lang="es">' in page(client, listed_club).content.decode()
    assert '<html lang="es">' in page(client, listed_club, locale="es-MX").content.decode()
    assert '<html lang="en">' in page(client, listed_club, locale="en").content.decode()
    assert '<html lang="es">' in page(client, listed_club, locale="xx").content.decode()


def test_free_times_exclude_bookings_blocks_and_classes(client, organization, listed_club, court, contact, day):
    Booking.objects.create(
        organization=organization,
        club=listed_club,
        area=court,
        contact=contact,
        type="area",
        status="confirmed",
        start_time=at(day, "10:00"),
        end_time=at(day, "11:00"),
    )
    Booking.objects.create(
        organization=organization,
        club=listed_club,
        area=court,
        contact=contact,
        type="area",
        status="cancelled",
        start_time=at(day, "18:00"),
        end_time=at(day, "19:00"),
    )
    AreaBlock.objects.create(
        organization=organization, club=listed_club, area=court, start_time=at(day, "12:00"), end_time=at(day, "13:00")
    )
    ClassOccurrence.objects.create(
        organization=organization,
        club=listed_club,
        area=court,
        name="Clinic",
        start_time=at(day, "15:00"),
        end_time=at(day, "16:00"),
    )
    times = slot_times(page(client, listed_club, date=day.isoformat()).content.decode(), court.id)
    assert times[0] == "08:00" and times[-1] == "21:00"  # opening hours 08:00-22:00, 60 minutes
    for taken in ("09:30", "10:00", "10:30", "11:30", "12:00", "12:30", "14:30", "15:00", "15:30", "21:30"):
        assert taken not in times
    for free in ("09:00", "11:00", "13:00", "14:00", "16:00", "18:00"):  # a cancelled booking frees its time
        assert free in times


def test_durations_and_a_closed_day(client, listed_club, court, day):
    times = slot_times(page(client, listed_club, date=day.isoformat(), duration=90).content.decode(), court.id)
    assert times[-1] == "20:30"
    times = slot_times(page(client, listed_club, date=day.isoformat(), duration=30).content.decode(), court.id)
    assert times[-1] == "21:30" and len(times) == 28
    listed_club.closed_dates = [day.isoformat()]
    listed_club.save()
    html = page(client, listed_club, date=day.isoformat()).content.decode()
    assert slot_times(html, court.id) == [] and "The club is closed on this day." in html


def test_no_time_in_the_past_on_the_clubs_clock(listed_club, court, day):
    labels = Labels("en")
    now = at(day, "09:10").astimezone(dt.UTC)
    context = build_page(listed(listed_club.slug), {"date": day.isoformat()}, locale="en", labels=labels, now=now)
    (entry,) = context["free_times"]
    assert entry["slots"][0]["time"] == "09:30"
    yesterday = build_page(
        listed(listed_club.slug),
        {"date": (day - dt.timedelta(days=1)).isoformat()},
        locale="en",
        labels=labels,
        now=now,
    )
    assert yesterday["free_times"][0]["slots"] == []


def test_prices_are_the_non_member_quote_tax_included(client, api, organization, listed_club, court, day):
    PricingRule.objects.create(
        organization=organization,
        name="Evening",
        adjustment_type="set_hourly_rate",
        value=30,
        start_minute=18 * 60,
        end_minute=22 * 60,
    )
    PricingRule.objects.create(
        organization=organization, name="Members", adjustment_type="percent", value=-50, audience="members"
    )
    html = page(client, listed_club, date=day.isoformat(), duration=90).content.decode()
    quoted = api.get(
        "/v1/platform/pricing-rules/quote",
        {"areaId": court.id, "startTime": at(day, "17:30").isoformat(), "endTime": at(day, "19:00").isoformat()},
    ).json()
    assert quoted["price"] == 48.4  # 30 min at 20 + 60 min at 30, plus 21 %
    assert f'data-area="{court.id}" data-time="17:30"><span class="sr-only">Court 1, </span>17:30 · €48.40</a>' in html
    assert 'data-time="09:00"><span class="sr-only">Court 1, </span>09:00 · €36.30</a>' in html


def test_an_offer_link_preselects_its_time_visibly(client, listed_club, court, day):
    html = page(client, listed_club, date=day.isoformat(), time="11:00", areaId=court.id).content.decode()
    assert selected_slots(html) == [(str(court.id), "11:00")]
    assert "11:00 · €24.20 · Selected</a>" in html
    assert "Your selected time" in html
    summary = Labels("en").date(day)
    assert f'<strong data-testid="selected-summary">Court 1, {summary}, 11:00–12:00</strong>' in html


def test_an_offer_time_off_the_grid_and_a_longer_duration(client, listed_club, court, day):
    html = page(client, listed_club, date=day.isoformat(), time="11:15", areaId=court.id, duration=90).content.decode()
    assert selected_slots(html) == [(str(court.id), "11:15")]
    assert "11:15–12:45" in html
    assert "11:00" in slot_times(html, court.id) and "11:30" in slot_times(html, court.id)


def test_an_offer_time_taken_since_says_so(client, organization, listed_club, court, day):
    AreaBlock.objects.create(
        organization=organization, club=listed_club, area=court, start_time=at(day, "11:00"), end_time=at(day, "12:00")
    )
    html = page(client, listed_club, date=day.isoformat(), time="11:00", areaId=court.id).content.decode()
    assert selected_slots(html) == []
    assert "is no longer free" in html and "Your selected time" not in html


def test_a_wall_time_the_clocks_skip_is_not_offered(listed_club, court):
    listed_club.opening_hours = {d: [["00:00", "24:00"]] for d in ("sunday",)}
    listed_club.save()
    spring_forward = dt.date(2031, 3, 30)  # Madrid: 02:00 jumps to 03:00
    now = dt.datetime(2031, 3, 29, 12, tzinfo=dt.UTC)
    context = build_page(
        listed(listed_club.slug),
        {"date": spring_forward.isoformat(), "time": "02:30", "areaId": str(court.id)},
        locale="en",
        labels=Labels("en"),
        now=now,
    )
    times = [slot["time"] for slot in context["free_times"][0]["slots"]]
    assert "01:00" in times and "03:00" in times and "02:00" not in times and "02:30" not in times
    assert context["selected"] is None and context["unavailable"]
    assert len(times) == 45  # 23 hours of :00 and :30 starts, less the last half hour


def test_a_wall_time_the_clocks_repeat_is_offered_at_both_instants(listed_club, court):
    listed_club.opening_hours = {"sunday": [["00:00", "24:00"]]}
    listed_club.save()
    fall_back = dt.date(2031, 10, 26)  # Madrid: 03:00 goes back to 02:00, a 25-hour day
    now = dt.datetime(2031, 10, 25, 12, tzinfo=dt.UTC)
    context = build_page(
        listed(listed_club.slug),
        {"date": fall_back.isoformat(), "time": "02:00", "areaId": str(court.id)},
        locale="en",
        labels=Labels("en"),
        now=now,
    )
    times = [slot["time"] for slot in context["free_times"][0]["slots"]]
    assert len(times) == 49 and times.count("02:00") == 2 and times.count("02:30") == 2
    assert times[0] == "00:00" and times[-1] == "23:00"
    # the link's time is the first 02:00 (summer time), 60 minutes long
    assert [s["selected"] for s in context["free_times"][0]["slots"]].count(True) == 1
    assert context["selected"]["time"] == "02:00" and context["selected"]["end"] == "02:00"


def test_the_night_the_clocks_go_back_lists_the_repeated_hour_exactly_as_the_offers_search(
    organization, contact, listed_club, court
):
    """2031-10-26, Europe/Madrid: 03:00 CEST goes back to 02:00 CET. The page lists the same start times, in the
    same order and with the same links, as `POST /network/search/offers` offers for the court."""
    listed_club.opening_hours = {"sunday": [["00:00", "24:00"]]}
    listed_club.latitude, listed_club.longitude = 40.4168, -3.7038
    listed_club.save()
    fall_back, now = dt.date(2031, 10, 26), dt.datetime(2031, 10, 25, 12, tzinfo=dt.UTC)
    second_two = dt.datetime(2031, 10, 26, 1, 0, tzinfo=dt.UTC)  # 02:00 CET, the second 02:00 of the night
    Booking.objects.create(
        organization=organization,
        club=listed_club,
        area=court,
        contact=contact,
        type="area",
        status="confirmed",
        start_time=second_two,
        end_time=second_two + dt.timedelta(minutes=30),
    )
    context = build_page(
        listed(listed_club.slug),
        {"date": fall_back.isoformat(), "duration": "30"},
        locale="en",
        labels=Labels("en"),
        now=now,
    )
    listed_times = [(slot["time"], slot["query"]) for slot in context["free_times"][0]["slots"]]
    found, total = offers.search_offers(
        latitude=40.4168, longitude=-3.7038, day=fall_back, duration_minutes=30, limit=200, now=now
    )
    assert listed_times == [(offer["time"], "?" + offer["url"].split("?", 1)[1]) for offer in found]
    times = [time for time, _ in listed_times]
    assert total == len(times) == 49  # 50 half hours on the 25-hour day, one booked
    i = times.index("02:00")
    assert times[i - 2 : i + 4] == ["01:00", "01:30", "02:00", "02:30", "02:30", "03:00"]


@pytest.mark.parametrize(
    "params",
    [
        {"date": "2031-13-01"},
        {"date": "tomorrow"},
        {"date": "2999-01-01"},
        {"time": "25:00"},
        {"time": "9am"},
        {"areaId": "abc"},
        {"areaId": "99999999"},
        {"duration": "45"},
    ],
)
def test_an_unreadable_link_is_a_400_page(client, listed_club, court, params):
    response = page(client, listed_club, **params)
    assert response.status_code == 400
    html = response.content.decode()
    assert "This link could not be read" in html and f'href="/marketplace/clubs/{listed_club.slug}"' in html


def test_another_clubs_court_cannot_be_preselected(client, organization, listed_club, court, day):
    other = Club.objects.create(organization=organization, name="Other", slug="other", marketplace_listed=True)
    foreign = Area.objects.create(organization=organization, club=other, name="Far court")
    response = page(client, listed_club, date=day.isoformat(), time="11:00", areaId=foreign.id)
    assert response.status_code == 400


def test_upcoming_public_classes_for_fourteen_days(client, organization, listed_club, court, day):
    contact = Contact.objects.create(organization=organization, first_name="Iris", last_name="Vega")
    coach = Instructor.objects.create(organization=organization, contact=contact)
    soon = ClassOccurrence.objects.create(
        organization=organization,
        club=listed_club,
        name="Yoga",
        translations={"es": {"name": "Yoga suave"}},
        start_time=at(day, "19:00"),
        end_time=at(day, "20:00"),
        price_before_tax="10.00",
        max_capacity=12,
    )
    soon.instructors.add(coach)
    for name, fields in {
        "Private": {"visibility": "Private"},
        "Cancelled": {"status": "cancelled"},
    }.items():
        ClassOccurrence.objects.create(
            organization=organization,
            club=listed_club,
            name=name,
            start_time=at(day, "09:00"),
            end_time=at(day, "10:00"),
            **fields,
        )
    ClassOccurrence.objects.create(
        organization=organization,
        club=listed_club,
        name="Far away",
        start_time=at(day + dt.timedelta(days=10), "09:00"),
        end_time=at(day + dt.timedelta(days=10), "10:00"),
    )
    html = page(client, listed_club).content.decode()
    assert "<strong>Yoga</strong>" in html and "With Iris Vega" in html and "€12.10" in html
    assert "12 spots left" in html
    assert "Private" not in html and "Cancelled" not in html and "Far away" not in html
    assert f'href="/marketplace/clubs/{listed_club.slug}/classes.ics"' in html
    assert "<strong>Yoga suave</strong>" in page(client, listed_club, locale="es").content.decode()


def test_not_found_for_unknown_unlisted_inactive_club_or_organization(client, organization, listed_club, court):
    assert page(client, listed_club).status_code == 200
    response = client.get("/marketplace/clubs/nope")
    assert response.status_code == 404 and "Club not found" in response.content.decode()
    assert '<html lang="es">' in client.get("/marketplace/clubs/nope?locale=es").content.decode()

    Club.objects.filter(pk=listed_club.pk).update(marketplace_listed=False)
    assert page(client, listed_club).status_code == 404
    Club.objects.filter(pk=listed_club.pk).update(marketplace_listed=True, is_active=False)
    assert page(client, listed_club).status_code == 404
    Club.objects.filter(pk=listed_club.pk).update(is_active=True)
    Organization.objects.filter(pk=organization.pk).update(status="inactive")
    assert page(client, listed_club).status_code == 404


def test_only_get_and_head(client, listed_club):
    assert client.head(f"/marketplace/clubs/{listed_club.slug}").status_code == 200
    assert client.post(f"/marketplace/clubs/{listed_club.slug}").status_code == 405
    assert client.options(f"/marketplace/clubs/{listed_club.slug}").status_code == 405


def test_reads_only_and_costs_the_same_queries_for_one_or_many_courts_and_classes(
    client, organization, listed_club, court, day, django_assert_max_num_queries
):
    ClassOccurrence.objects.create(
        organization=organization, club=listed_club, name="Yoga", start_time=at(day, "18:00"), end_time=at(day, "19:00")
    )
    events = DomainEvent.objects.count()
    with django_assert_max_num_queries(9) as one:
        assert page(client, listed_club, {"Authorization": "Bearer nonsense"}, date=day.isoformat()).status_code == 200
    for n in range(2, 8):
        Area.objects.create(organization=organization, club=listed_club, name=f"Court {n}", hourly_rate="18")
    for n in range(10):
        ClassOccurrence.objects.create(
            organization=organization,
            club=listed_club,
            name=f"Class {n}",
            start_time=at(day, "19:00"),
            end_time=at(day, "20:00"),
        )
    with django_assert_max_num_queries(len(one.captured_queries)):
        response = page(client, listed_club, date=day.isoformat())
    assert response.status_code == 200 and "Court 7" in response.content.decode()
    assert DomainEvent.objects.count() == events


def test_a_gym_page_is_reused_until_availability_changes(
    client, organization, listed_club, court, contact, day, settings, django_assert_max_num_queries
):
    settings.MARKETPLACE_PAGE_CACHE_SECONDS = 30
    first = page(client, listed_club, date=day.isoformat())
    assert "10:00" in slot_times(first.content.decode(), court.id)
    # The same query (whatever else the address carries) is served from the cache: only the listing is read.
    with django_assert_max_num_queries(1):
        again = page(client, listed_club, date=day.isoformat(), utm_source="x")
    assert again.status_code == 200 and again.content == first.content
    # Another query is another page.
    other = page(client, listed_club, date=day.isoformat(), duration=90)
    assert other.content != first.content

    Booking.objects.create(
        organization=organization,
        club=listed_club,
        area=court,
        contact=contact,
        type="area",
        status="confirmed",
        start_time=at(day, "10:00"),
        end_time=at(day, "11:00"),
    )
    assert "10:00" not in slot_times(page(client, listed_club, date=day.isoformat()).content.decode(), court.id)
