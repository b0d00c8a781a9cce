"""What every marketplace response shares: no credential, no CORS, per-address limits, the error bodies, 404 for
anything unserved, 500 without a trace, and nothing written."""

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from apps.classes.models import ClassOccurrence
from apps.clubs.models import ClubReview
from apps.domain_events.models import DomainEvent
from apps.pricing.models import PricingRule

from .conftest import OFFERS, PROFILE, SEARCH, book, future_weekday, wall

NOT_FOUND = {"error": "Not found", "code": "NOT_FOUND"}


def offer_body(**fields):
    return {"location": "Madrid", "date": future_weekday().isoformat(), "earliestTime": "20:00", **fields}


def no_cors(response):
    return not [name for name in response.headers if name.lower().startswith("access-control-")]


@pytest.fixture
def club(make_listed_club):
    return make_listed_club("Sol Padel")


def test_an_authorization_header_is_ignored(club, make_token):
    for credential in ("Bearer not-a-key", f"Bearer {make_token('*')}", "Basic Zm9vOmJhcg=="):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=credential)
        assert client.get(SEARCH).status_code == 200
        assert client.get(PROFILE.format(slug=club.slug)).status_code == 200
        assert client.post(OFFERS, offer_body(), format="json").status_code == 200


def test_no_cors_headers_on_any_response(public, club):
    origin = {"HTTP_ORIGIN": "https://evil.example"}
    responses = [
        public.get(SEARCH, **origin),
        public.get(SEARCH, {"location": "Atlantis of the Seas"}, **origin),
        public.get(PROFILE.format(slug=club.slug), **origin),
        public.get(PROFILE.format(slug="nope"), **origin),
        public.post(OFFERS, offer_body(), format="json", **origin),
        public.options(OFFERS, HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST", **origin),
        public.get("/v1/public/nothing-here", **origin),
    ]
    assert [r.status_code for r in responses] == [200, 400, 200, 404, 200, 404, 404]
    assert all(no_cors(r) for r in responses)


@pytest.mark.parametrize("path", [SEARCH, OFFERS, "/v1/public/network/clubs/any", "/v1/public/nothing"])
def test_options_is_404(db, public, path):
    response = public.options(path, HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET", HTTP_ORIGIN="https://a.example")

    assert response.status_code == 404
    assert response.json() == NOT_FOUND
    assert "Allow" not in response


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", SEARCH),
        ("delete", SEARCH),
        ("get", OFFERS),
        ("put", OFFERS),
        ("patch", "/v1/public/network/clubs/any"),
        ("get", "/v1/public/search/offers"),
        ("get", "/v1/public/search/clubs/"),
        ("post", "/v1/public/anything/at/all"),
        ("get", "/v1/public"),
        ("get", "/v1/public/"),
    ],
)
def test_unserved_paths_and_methods_are_404_not_found(db, public, method, path):
    response = getattr(public, method)(path)

    assert response.status_code == 404
    assert response.json() == NOT_FOUND
    assert response["Content-Type"] == "application/json"


@pytest.mark.usefixtures("one_minute")
def test_offers_limit_is_30_per_minute_per_address(public, club):
    for i in range(30):
        response = public.post(OFFERS, offer_body() if i % 2 else {"bad": True}, format="json")
        assert response.status_code in (200, 400)
        assert response["RateLimit-Remaining"] == str(29 - i)
    refused = public.post(OFFERS, offer_body(), format="json")

    assert refused.status_code == 429
    assert refused.json() == {"error": "Too many requests"}
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused["RateLimit-Limit"] == "30"
    assert refused["RateLimit-Remaining"] == "0"
    assert refused["RateLimit-Policy"] == "30;w=60"
    assert refused["RateLimit-Reset"] == refused["Retry-After"]
    # Another address has its own count; the other endpoints their own bucket.
    assert public.post(OFFERS, offer_body(), format="json", REMOTE_ADDR="10.0.0.9").status_code == 200
    assert public.get(SEARCH).status_code == 200


@pytest.mark.usefixtures("one_minute")
def test_search_and_profile_share_120_per_minute(public, club):
    for i in range(120):
        response = public.get(PROFILE.format(slug="unknown")) if i % 2 else public.get(SEARCH, {"limit": 1})
        assert response.status_code in (200, 404)
    assert response["RateLimit-Limit"] == "120"
    assert response["RateLimit-Policy"] == "120;w=60"

    for refused in (public.get(SEARCH), public.get(PROFILE.format(slug=club.slug))):
        assert refused.status_code == 429
        assert refused.json() == {"error": "Too many requests"}
        assert int(refused["Retry-After"]) >= 1


@pytest.mark.usefixtures("one_minute")
def test_a_client_cannot_dodge_the_limit_with_x_forwarded_for(public, club):
    for i in range(30):
        public.post(OFFERS, {}, format="json", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}")

    assert public.post(OFFERS, {}, format="json", HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 429


@pytest.mark.usefixtures("one_minute")
def test_behind_a_trusted_proxy_the_forwarded_address_counts(public, club, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for _ in range(30):
        public.post(OFFERS, {}, format="json", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")

    assert public.post(OFFERS, {}, format="json", HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == 429
    assert public.post(OFFERS, {}, format="json", HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 400


@pytest.mark.urls("tests.marketplace.urls_for_tests")
@pytest.mark.parametrize("path", ["/v1/public/_test/boom", "/v1/public/_test/plain-boom"])
def test_a_failure_is_500_internal_error_without_a_trace(db, path):
    client = APIClient(raise_request_exception=False)

    response = client.get(path)

    assert response.status_code == 500
    assert response.json() == {"error": "Internal error"}
    assert b"secret" not in response.content
    assert no_cors(response)


def _row_counts() -> dict[str, int]:
    with connection.cursor() as cursor:
        counts = {}
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f'SELECT count(*) FROM "{table}"')
            counts[table] = cursor.fetchone()[0]
    return counts


def test_the_marketplace_only_reads(public, organization, club, make_listed_club):
    court = club.areas.first()
    day = future_weekday()
    book(court, wall(day, "20:00"))
    ClubReview.objects.create(organization=organization, club=club, rating=5)
    PricingRule.objects.create(organization=organization, name="Evening", adjustment_type="percent", value=10)
    start = timezone.now() + dt.timedelta(days=2)
    ClassOccurrence.objects.create(
        organization=organization, club=club, name="Clinic", start_time=start, end_time=start + dt.timedelta(hours=1)
    )
    make_listed_club("Second", 40.42, -3.70)
    before, events = _row_counts(), list(DomainEvent.objects.values_list("id", flat=True))

    assert public.get(SEARCH, {"location": "Madrid", "date": day.isoformat()}).json()["total"] == 2
    assert public.get(PROFILE.format(slug=club.slug)).json()["upcomingClasses"]
    assert public.post(OFFERS, offer_body(date=day.isoformat()), format="json").json()["total"] > 0
    public.get(PROFILE.format(slug="unknown"))
    public.post(OFFERS, {"bad": True}, format="json")

    assert _row_counts() == before
    assert list(DomainEvent.objects.values_list("id", flat=True)) == events


def _date_times(value):
    """Every ISO date-time string anywhere in a JSON body."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _date_times(item)
    elif isinstance(value, list):
        for item in value:
            yield from _date_times(item)
    elif isinstance(value, str) and DATE_TIME.fullmatch(value):
        yield value


DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})")


@pytest.mark.parametrize("zone", ["Europe/Madrid", "America/New_York", "Asia/Kolkata"])
def test_every_marketplace_date_time_carries_the_clubs_own_offset(public, organization, make_listed_club, zone):
    club = make_listed_club("Offset Padel", timezone=zone)
    start = (timezone.now() + dt.timedelta(days=2)).replace(microsecond=0)
    ClassOccurrence.objects.create(
        organization=organization, club=club, name="Clinic", start_time=start, end_time=start + dt.timedelta(hours=1)
    )
    day = future_weekday()
    bodies = [
        public.get(SEARCH, {"location": "Madrid", "date": day.isoformat()}).json(),
        public.get(PROFILE.format(slug=club.slug)).json(),
        public.post(OFFERS, offer_body(date=day.isoformat()), format="json").json(),
    ]

    seen = [value for body in bodies for value in _date_times(body)]
    assert len(seen) == 2  # the class's start and end
    offset = start.astimezone(ZoneInfo(zone)).isoformat()[-6:]
    assert all(value.endswith(offset) for value in seen), (seen, offset)
    classes = bodies[1]["upcomingClasses"]
    assert dt.datetime.fromisoformat(classes[0]["startTime"]) == start
    assert classes[0]["startTime"] == start.astimezone(ZoneInfo(zone)).isoformat()
