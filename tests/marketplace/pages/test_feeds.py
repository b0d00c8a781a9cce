"""The club's public `classes.ics` and the instructors' private feeds, read the way a calendar app reads them."""

import datetime as dt
from types import SimpleNamespace
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import icalendar
import pytest
from django.conf import settings

from apps.clubs.models import Club
from apps.contacts.models import Contact
from apps.instructors.models import Instructor
from apps.marketplace.pages import views
from apps.organizations.models import Organization
from tests.factories import make_class

from .conftest import MADRID

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2031, 3, 20, 12, 0, tzinfo=dt.UTC)  # the week before Madrid's clocks go forward (30 March)
HOST = urlsplit(settings.BASE_URL).hostname


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch):
    monkeypatch.setattr(views, "timezone", SimpleNamespace(now=lambda: NOW))


def parse(response) -> icalendar.Calendar:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return icalendar.Calendar.from_ical(response.content)


def events(calendar) -> list:
    return list(calendar.walk("VEVENT"))


def feed(client, club):
    return client.get(f"/marketplace/clubs/{club.slug}/classes.ics")


def test_club_feed_lists_classes_at_local_times_across_a_dst_change(client, listed_club):
    before = make_class(
        listed_club.organization, listed_club, start=dt.datetime(2031, 3, 27, 19, 0, tzinfo=MADRID), name="Yoga"
    )  # CET, 18:00 UTC
    after = make_class(
        listed_club.organization, listed_club, start=dt.datetime(2031, 4, 3, 19, 0, tzinfo=MADRID), name="Yoga"
    )  # CEST, 17:00 UTC
    response = feed(client, listed_club)
    text = response.content.decode()
    assert "DTSTART;TZID=Europe/Madrid:20310327T190000" in text
    assert "DTSTART;TZID=Europe/Madrid:20310403T190000" in text
    assert "DTEND;TZID=Europe/Madrid:20310403T200000" in text

    calendar = parse(response)
    (timezone,) = calendar.walk("VTIMEZONE")
    assert timezone["TZID"] == "Europe/Madrid"
    assert "METHOD" not in calendar
    listed = {str(e["UID"]): e for e in events(calendar)}
    assert set(listed) == {f"class-{before.id}@{HOST}", f"class-{after.id}@{HOST}"}
    for occurrence in (before, after):
        event = listed[f"class-{occurrence.id}@{HOST}"]
        start = event.decoded("DTSTART")
        assert start.tzinfo is not None and start == occurrence.start_time
        assert start.astimezone(MADRID).hour == 19 and event["DTSTART"].params["TZID"] == "Europe/Madrid"
        assert str(event["SUMMARY"]) == "Yoga" and str(event["STATUS"]) == "CONFIRMED"
    assert listed[f"class-{before.id}@{HOST}"].decoded("DTSTART").utcoffset() == dt.timedelta(hours=1)
    assert listed[f"class-{after.id}@{HOST}"].decoded("DTSTART").utcoffset() == dt.timedelta(hours=2)


def test_club_feed_in_another_zone(client, organization):
    club = Club.objects.create(
        organization=organization,
        name="Brooklyn Padel",
        slug="brooklyn",
        timezone="America/New_York",
        marketplace_listed=True,
    )
    new_york = ZoneInfo("America/New_York")
    make_class(club.organization, club, start=dt.datetime(2031, 4, 1, 7, 30, tzinfo=new_york), name="Early padel")
    text = feed(client, club).content.decode()
    assert "DTSTART;TZID=America/New_York:20310401T073000" in text and "TZID:America/New_York" in text


def test_club_feed_window_visibility_cancellation_and_stable_uids(client, organization, listed_club):
    shown = make_class(
        listed_club.organization, listed_club, start=dt.datetime(2031, 3, 25, 10, 0, tzinfo=MADRID), name="Pilates"
    )
    cancelled = make_class(
        listed_club.organization,
        listed_club,
        start=dt.datetime(2031, 3, 26, 10, 0, tzinfo=MADRID),
        name="Spin",
        status="cancelled",
    )
    running = make_class(
        listed_club.organization, listed_club, start=NOW - dt.timedelta(minutes=30), name="Running now"
    )
    make_class(listed_club.organization, listed_club, start=NOW - dt.timedelta(hours=3), name="Over")
    make_class(listed_club.organization, listed_club, start=NOW + dt.timedelta(days=61), name="Too far")
    make_class(
        listed_club.organization,
        listed_club,
        start=dt.datetime(2031, 3, 25, 12, 0, tzinfo=MADRID),
        name="Members",
        visibility="Member_only",
    )
    make_class(
        listed_club.organization,
        listed_club,
        start=dt.datetime(2031, 3, 25, 13, 0, tzinfo=MADRID),
        name="Secret",
        visibility="Private",
    )
    other = Club.objects.create(organization=organization, name="Other", slug="other", marketplace_listed=True)
    make_class(other.organization, other, start=dt.datetime(2031, 3, 25, 10, 0, tzinfo=MADRID), name="Elsewhere")

    first = events(parse(feed(client, listed_club)))
    assert sorted(str(e["SUMMARY"]) for e in first) == ["Pilates", "Running now", "Spin"]
    statuses = {str(e["UID"]): str(e["STATUS"]) for e in first}
    assert statuses == {
        f"class-{shown.id}@{HOST}": "CONFIRMED",
        f"class-{cancelled.id}@{HOST}": "CANCELLED",
        f"class-{running.id}@{HOST}": "CONFIRMED",
    }
    second = events(parse(feed(client, listed_club)))
    assert [str(e["UID"]) for e in second] == [str(e["UID"]) for e in first]


def test_club_feed_404_like_the_page(client, organization, listed_club):
    assert feed(client, listed_club).status_code == 200
    assert client.get("/marketplace/clubs/nope/classes.ics").status_code == 404
    Club.objects.filter(pk=listed_club.pk).update(marketplace_listed=False)
    assert feed(client, listed_club).status_code == 404
    Club.objects.filter(pk=listed_club.pk).update(marketplace_listed=True)
    Organization.objects.filter(pk=organization.pk).update(status="inactive")
    assert feed(client, listed_club).status_code == 404


def test_an_empty_feed_is_still_a_calendar(client, listed_club):
    calendar = parse(feed(client, listed_club))
    assert events(calendar) == [] and str(calendar["VERSION"]) == "2.0"


# --- the instructors' private feeds -------------------------------------------------------------------------------


@pytest.fixture
def instructor(organization):
    contact = Contact.objects.create(organization=organization, first_name="Iris", last_name="Vega")
    return Instructor.objects.create(organization=organization, contact=contact)


def feed_path(url: str) -> str:
    return urlsplit(url).path


def test_instructor_feed_url_is_signed_stable_and_needs_no_credential(client, client_for, club, instructor):
    taught = make_class(
        club.organization,
        club,
        start=dt.datetime(2031, 3, 25, 10, 0, tzinfo=MADRID),
        name="Private lesson",
        visibility="Private",
    )
    taught.instructors.add(instructor)
    old = make_class(club.organization, club, start=NOW - dt.timedelta(days=29), name="Last month")
    old.instructors.add(instructor)
    make_class(club.organization, club, start=NOW - dt.timedelta(days=31), name="Too old").instructors.add(instructor)
    make_class(club.organization, club, start=NOW + dt.timedelta(days=181), name="Too far").instructors.add(instructor)
    make_class(club.organization, club, start=dt.datetime(2031, 3, 25, 12, 0, tzinfo=MADRID), name="Someone else's")

    reader = client_for("instructors:read classes:read")
    response = reader.get(f"/v1/platform/instructors/{instructor.id}/calendar-feed")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"url", "webcalUrl"}
    assert body["url"].startswith(f"{settings.BASE_URL}/feeds/instructors/") and body["url"].endswith(".ics")
    assert body["webcalUrl"] == "webcal" + body["url"][body["url"].index(":") :]
    assert reader.get(f"/v1/platform/instructors/{instructor.id}/calendar-feed").json() == body

    calendar = parse(client.get(feed_path(body["url"])))  # no Authorization header
    assert sorted(str(e["SUMMARY"]) for e in events(calendar)) == ["Last month", "Private lesson"]
    text = client.get(feed_path(body["url"])).content.decode()
    assert "DTSTART;TZID=Europe/Madrid:20310325T100000" in text


def test_rotating_revokes_the_previous_url(client, client_for, instructor):
    path = f"/v1/platform/instructors/{instructor.id}/calendar-feed"
    old = client_for("instructors:read classes:read").get(path).json()["url"]
    assert client.get(feed_path(old)).status_code == 200
    assert client_for("instructors:read").post(f"{path}/rotate").status_code == 403
    rotated = client_for("instructors:write").post(f"{path}/rotate")
    assert rotated.status_code == 200
    new = rotated.json()["url"]
    assert new != old
    assert client.get(feed_path(old)).status_code == 404
    assert client.get(feed_path(new)).status_code == 200
    assert client_for("instructors:read classes:read").get(path).json()["url"] == new


def test_a_forged_or_stale_feed_token_is_404(client, client_for, organization, instructor):
    url = (
        client_for("instructors:read classes:read")
        .get(f"/v1/platform/instructors/{instructor.id}/calendar-feed")
        .json()["url"]
    )
    path = feed_path(url)
    token = path.rsplit("/", 1)[1].removesuffix(".ics")
    value, signature = token.split(":")
    other = Instructor.objects.create(
        organization=organization, contact=Contact.objects.create(organization=organization, first_name="Max")
    )
    for forged in (
        f"{other.id}-1~0:{signature}",  # another instructor's id under this signature
        f"{value.replace('~0', '~1')}:{signature}",  # another epoch
        f"{value}:{signature[:-2]}xx",
        value,
        "nonsense",
    ):
        assert client.get(f"/feeds/instructors/{forged}.ics").status_code == 404, forged
    Instructor.objects.filter(pk=instructor.pk).update(is_active=False)
    assert client.get(path).status_code == 404
    Instructor.objects.filter(pk=instructor.pk).update(is_active=True)
    Organization.objects.filter(pk=organization.pk).update(status="inactive")
    assert client.get(path).status_code == 404


def test_another_organizations_instructor_is_404(client_for, other_organization):
    contact = Contact.objects.create(organization=other_organization, first_name="Zed")
    foreign = Instructor.objects.create(organization=other_organization, contact=contact)
    response = client_for("instructors:read classes:read").get(f"/v1/platform/instructors/{foreign.id}/calendar-feed")
    assert response.status_code == 404 and response.json()["code"] == "NOT_FOUND"


def test_the_club_feed_is_reused_until_a_class_changes(
    client, organization, listed_club, settings, django_assert_max_num_queries
):
    settings.MARKETPLACE_PAGE_CACHE_SECONDS = 30
    local = dt.datetime(2031, 3, 24, 18, 0, tzinfo=MADRID)
    make_class(listed_club.organization, listed_club, start=local, name="Yoga")
    first = feed(client, listed_club)
    with django_assert_max_num_queries(1):  # whether the club is still listed
        assert feed(client, listed_club).content == first.content
    make_class(listed_club.organization, listed_club, start=local + dt.timedelta(days=1), name="Pilates")
    assert [str(e["SUMMARY"]) for e in events(parse(feed(client, listed_club)))] == ["Yoga", "Pilates"]


def test_an_instructor_feed_is_reused_until_the_teaching_changes(client, client_for, club, instructor, settings):
    settings.MARKETPLACE_PAGE_CACHE_SECONDS = 30
    make_class(
        club.organization, club, start=dt.datetime(2031, 3, 25, 10, 0, tzinfo=MADRID), name="Yoga"
    ).instructors.add(instructor)
    later = make_class(club.organization, club, start=dt.datetime(2031, 3, 26, 10, 0, tzinfo=MADRID), name="Pilates")
    url = client_for("instructors:read classes:read").get(f"/v1/platform/instructors/{instructor.id}/calendar-feed")
    path = feed_path(url.json()["url"])
    first = client.get(path)
    assert [str(e["SUMMARY"]) for e in events(parse(first))] == ["Yoga"]
    assert client.get(path).content == first.content
    later.instructors.add(instructor)  # a change of who teaches shows at once
    assert [str(e["SUMMARY"]) for e in events(parse(client.get(path)))] == ["Yoga", "Pilates"]
