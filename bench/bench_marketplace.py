"""Marketplace: offer search and club search over a generated network of 1,000 clubs with 6 courts each.

Standalone (`make bench` runs it after the Platform API rows), or directly:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/platform_bench REDIS_URL=redis://127.0.0.1:6379/14 \\
        python bench/bench_marketplace.py

The network (seeded once, kept between runs, recognised by its organizations' `bench-mkt-` slugs): 10
organizations, 1,000 listed clubs in 20 Spanish cities (50 per city, scattered up to about 12 km from the
centre), 6 padel courts each (20-26 an hour), opening 08:00-22:00, two pricing rules per organization (evening
+25 %, weekend set rate), and a day of bookings on the bench day (about half of each court's day taken, in 60- and
90-minute bookings: 30,000 bookings). Then gunicorn serves it (2 workers, as `bench/run.py`) and 8
keep-alive client threads drive:

- `POST /v1/public/network/search/offers`: each request a different one of the 20 cities in turn, padel, from
  08:00, 60 minutes, 25 km, first page of 50; the total enumerates every free time in range (about 50 clubs);
- `GET /v1/public/search/clubs?location=<city>&date=<bench day>`;

each beside a bare Django view in the same process returning the same bytes from memory. Rate limits are lifted
(`RATE_LIMIT_MULTIPLIER`) so the bench measures the work, but every request still counts in Redis.
"""

import datetime as dt
import json
import os
import random
import sys
import time
from decimal import Decimal
from pathlib import Path
from urllib.parse import quote
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run import CONCURRENCY, REQUESTS, SECONDS, ensure_database, free_port, load, start_server  # noqa: E402
from bench.table import emit, measured, reset_worker_peaks, worker_peak_mib  # noqa: E402

CITIES = [
    ("Madrid, ES", 40.4168, -3.7038),
    ("Barcelona, ES", 41.3874, 2.1686),
    ("Valencia, ES", 39.4699, -0.3763),
    ("Sevilla, ES", 37.3891, -5.9845),
    ("Zaragoza, ES", 41.6488, -0.8891),
    ("Malaga, ES", 36.7213, -4.4214),
    ("Murcia, ES", 37.9922, -1.1307),
    ("Palma, ES", 39.5696, 2.6502),
    ("Bilbao, ES", 43.2630, -2.9350),
    ("Alicante, ES", 38.3452, -0.4810),
    ("Cordoba, ES", 37.8882, -4.7794),
    ("Valladolid, ES", 41.6523, -4.7245),
    ("Vigo, ES", 42.2406, -8.7207),
    ("Gijon, ES", 43.5322, -5.6611),
    ("Granada, ES", 37.1773, -3.5986),
    ("A Coruna, ES", 43.3623, -8.4115),
    ("Vitoria-Gasteiz, ES", 42.8467, -2.6716),
    ("Santander, ES", 43.4623, -3.8099),
    ("Pamplona, ES", 42.8125, -1.6458),
    ("Oviedo, ES", 43.3614, -5.8494),
]
CLUBS = 1000
COURTS = 6
ORGANIZATIONS = 10
MADRID = ZoneInfo("Europe/Madrid")
OFFERS = "/v1/public/network/search/offers"
EVERY_DAY = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def bench_day() -> dt.date:
    """A Wednesday a few weeks ahead: a day of bookings, none of it in the past."""
    day = dt.date.today() + dt.timedelta(days=21)
    return day + dt.timedelta(days=(2 - day.weekday()) % 7)


def seed(day: dt.date) -> None:
    from django.core.management import call_command
    from django.db import connection

    from apps.bookings.models import Booking
    from apps.clubs.models import Area, AreaType, Club
    from apps.organizations.models import Organization
    from apps.pricing.models import PricingRule

    call_command("migrate", verbosity=0, interactive=False)
    started = time.perf_counter()
    organizations = list(Organization.objects.filter(slug__startswith="bench-mkt-").order_by("slug"))
    if len(organizations) < ORGANIZATIONS or Club.objects.filter(organization__in=organizations).count() < CLUBS:
        Organization.objects.filter(slug__startswith="bench-mkt-").delete()
        organizations = [
            Organization.objects.create(
                name=f"Bench network {i}",
                slug=f"bench-mkt-{i}",
                currency="EUR",
                default_tax_rate=Decimal("21"),
                timezone="Europe/Madrid",
                plan="pro",
            )
            for i in range(ORGANIZATIONS)
        ]
        rng = random.Random(2031)
        hours = {d: [["08:00", "22:00"]] for d in EVERY_DAY}
        clubs = []
        for i in range(CLUBS):
            _, lat, lng = CITIES[i % len(CITIES)]
            clubs.append(
                Club(
                    organization=organizations[i % ORGANIZATIONS],
                    name=f"Padel {i:04d}",
                    slug=f"bench-padel-{i:04d}",
                    timezone="Europe/Madrid",
                    country="ES",
                    sports=["padel"],
                    latitude=lat + rng.uniform(-0.11, 0.11),
                    longitude=lng + rng.uniform(-0.14, 0.14),
                    opening_hours=hours,
                    marketplace_listed=True,
                )
            )
        clubs = Club.objects.bulk_create(clubs)
        types = {
            org.id: AreaType.objects.create(organization=org, name="Padel court", slug="padel-court", max_players=4)
            for org in organizations
        }
        areas = Area.objects.bulk_create(
            Area(
                organization_id=club.organization_id,
                club=club,
                area_type=types[club.organization_id],
                name=f"Court {n + 1}",
                sports=["padel"],
                hourly_rate=Decimal(20 + n),
                position=n,
            )
            for club in clubs
            for n in range(COURTS)
        )
        for org in organizations:
            PricingRule.objects.create(
                organization=org,
                name="Evening",
                adjustment_type="percent",
                value=25,
                start_minute=18 * 60,
                end_minute=22 * 60,
            )
            PricingRule.objects.create(
                organization=org,
                name="Weekend",
                adjustment_type="set_hourly_rate",
                value=30,
                days_of_week=["saturday", "sunday"],
                priority=1,
            )
        bookings = []
        for area in areas:
            minute = 8 * 60 + rng.choice((0, 30, 60))
            while minute < 21 * 60:
                length = rng.choice((60, 90))
                if rng.random() < 0.55 and minute + length <= 22 * 60:
                    start = dt.datetime.combine(day, dt.time(minute // 60, minute % 60), tzinfo=MADRID)
                    bookings.append(
                        Booking(
                            organization_id=area.organization_id,
                            club_id=area.club_id,
                            area=area,
                            type="area",
                            status="confirmed",
                            start_time=start,
                            end_time=start + dt.timedelta(minutes=length),
                            sport="padel",
                        )
                    )
                minute += length + rng.choice((0, 30))
        Booking.objects.bulk_create(bookings, batch_size=5000)
        with connection.cursor() as cursor:
            for table in ("clubs_club", "clubs_area", "bookings_booking", "pricing_pricingrule"):
                cursor.execute(f"ANALYZE {table}")
    elif not Booking.objects.filter(organization__in=organizations, start_time__date=day).exists():
        raise SystemExit(f"the bench network's bookings are for another day; delete organizations bench-mkt-* ({day})")
    clubs = Club.objects.filter(organization__in=organizations).count()
    areas = Area.objects.filter(organization__in=organizations).count()
    bookings = Booking.objects.filter(organization__in=organizations).count()
    print(f"network: {clubs} clubs, {areas} courts, {bookings} bookings ({time.perf_counter() - started:.1f} s)")


def offer_body(city: str, day: dt.date) -> bytes:
    body = {"location": city, "sports": ["padel"], "date": day.isoformat(), "earliestTime": "08:00"}
    return json.dumps(body).encode()


def capture(day: dt.date) -> dict[str, int]:
    """The API's answers for the bare twins, and a look at one of each; returns the queries of each request."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    capture_dir = Path(os.environ["BENCH_CAPTURE_DIR"])
    capture_dir.mkdir(parents=True, exist_ok=True)
    from django.test import override_settings

    client = Client()
    client.post("/v1/public/network/search/offers", offer_body("Madrid, ES", day), content_type="application/json")
    with override_settings(MARKETPLACE_OFFERS_CACHE_SECONDS=0), CaptureQueriesContext(connection) as queries:
        offers = client.post(
            "/v1/public/network/search/offers", offer_body("Madrid, ES", day), content_type="application/json"
        )
    assert offers.status_code == 200, offers.content[:300]
    body = offers.json()
    print(
        f"offers around Madrid: {body['total']} free times, page of {len(body['data'])}, {len(queries)} queries "
        "(computed, cache off)"
    )
    (capture_dir / "marketplace-offers.json").write_bytes(offers.content)
    with CaptureQueriesContext(connection) as club_queries:
        clubs = client.get(f"/v1/public/search/clubs?location=Madrid&date={day.isoformat()}")
    assert clubs.status_code == 200, clubs.content[:300]
    print(f"clubs around Madrid: {clubs.json()['total']}")
    (capture_dir / "marketplace-clubs.json").write_bytes(clubs.content)
    return {"offers": len(queries), "clubs": len(club_queries)}


def in_process(day: dt.date, rounds: int = 5) -> None:
    """Both with the offer cache off (the search's own service time) and on (identical searches reused)."""
    from django.test import override_settings

    with override_settings(MARKETPLACE_OFFERS_CACHE_SECONDS=0):
        _in_process(day, rounds, "cache off")
    _in_process(day, rounds, "cache on")


def _in_process(day: dt.date, rounds: int, label: str) -> None:
    """Per-request service time without the server and the load generator competing for the two CPUs: the Django
    test client, one request at a time, every city in turn (`rounds` x 20 requests per endpoint)."""
    from django.test import Client

    client = Client()
    timings = {"offers": [], "clubs": []}
    for _ in range(rounds):
        for city, _, _ in CITIES:
            started = time.perf_counter()
            response = client.post(OFFERS, offer_body(city, day), content_type="application/json")
            timings["offers"].append(time.perf_counter() - started)
            assert response.status_code == 200, response.content[:200]
            started = time.perf_counter()
            response = client.get("/v1/public/search/clubs", {"location": city, "date": day.isoformat()})
            timings["clubs"].append(time.perf_counter() - started)
            assert response.status_code == 200, response.content[:200]
    for name, values in timings.items():
        values.sort()
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        print(
            f"in process ({label}), {name}: p50 {values[len(values) // 2] * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms "
            f"({len(values)} requests, one at a time)"
        )


def main():
    ensure_database()
    import django

    django.setup()
    from django.db import connections

    day = bench_day()
    seed(day)
    queries = capture(day)
    in_process(day)
    connections.close_all()

    json_headers = {"Content-Type": "application/json"}
    offer_bodies = [offer_body(city, day) for city, _, _ in CITIES]
    club_paths = [f"/v1/public/search/clubs?location={quote(city)}&date={day}" for city, _, _ in CITIES]
    port = free_port()
    server = start_server(port)
    rows = []
    try:
        warm = {"total": 200, "seconds": 10, "concurrency": CONCURRENCY}
        load(port, OFFERS, json_headers, method="POST", bodies=offer_bodies, **warm)
        load(port, "/bench/bare/marketplace-offers", json_headers, method="POST", bodies=[b"{}"], **warm)
        reset_worker_peaks(server.pid)
        offers = load(port, OFFERS, json_headers, REQUESTS, SECONDS, CONCURRENCY, "POST", offer_bodies)
        offers["memory_mib"] = worker_peak_mib(server.pid)
        bare = load(
            port, "/bench/bare/marketplace-offers", json_headers, REQUESTS, SECONDS, CONCURRENCY, "POST", [b"{}"]
        )
        rows.append(("POST /v1/public/network/search/offers", offers, bare))
        load(port, club_paths, {}, **warm)
        reset_worker_peaks(server.pid)
        clubs = load(port, club_paths, {}, REQUESTS, SECONDS, CONCURRENCY)
        clubs["memory_mib"] = worker_peak_mib(server.pid)
        bare_clubs = load(port, "/bench/bare/marketplace-clubs", {}, REQUESTS, SECONDS, CONCURRENCY)
        rows.append(("GET /v1/public/search/clubs?location&date", clubs, bare_clubs))
    finally:
        server.terminate()
        server.wait(timeout=15)

    # The same offers row with the offer cache off: every search computed (the service time under load).
    os.environ["MARKETPLACE_OFFERS_CACHE_SECONDS"] = "0"
    port = free_port()
    server = start_server(port)
    try:
        load(port, OFFERS, json_headers, method="POST", bodies=offer_bodies, **warm)
        reset_worker_peaks(server.pid)
        uncached = load(port, OFFERS, json_headers, REQUESTS, SECONDS, CONCURRENCY, "POST", offer_bodies)
        uncached["memory_mib"] = worker_peak_mib(server.pid)
        rows.insert(1, ("POST …/search/offers (offer cache off)", uncached, bare))
    finally:
        server.terminate()
        server.wait(timeout=15)
        del os.environ["MARKETPLACE_OFFERS_CACHE_SECONDS"]

    print(f"{CONCURRENCY} keep-alive client threads, up to {REQUESTS} requests / {SECONDS:.0f} s per row")
    print(f"{'endpoint':<46} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} | {'bare req/s':>10} {'p50 ms':>7} {'p99 ms':>7}")
    for label, api, bare in rows:
        print(
            f"{label:<46} {api['rps']:>8.0f} {api['p50']:>8.2f} {api['p99']:>8.2f} | {bare['rps']:>10.0f} "
            f"{bare['p50']:>7.2f} {bare['p99']:>7.2f}"
        )
        if api["errors"] or bare["errors"]:
            print(f"  errors: api={api['errors']} bare={bare['errors']}")
    names = ["marketplace-offers", "marketplace-offers-computed", "marketplace-clubs"]
    for name, (label, api, bare) in zip(names, rows, strict=True):
        # The computed search ran `queries["offers"]` queries; a cached one reads Redis and runs none of them.
        count = queries["clubs"] if name == "marketplace-clubs" else queries["offers"]
        emit(measured(name, label, api, bare, ref_label="bare", queries=None if name == names[0] else count))


if __name__ == "__main__":
    main()
