"""Generate one organization at a data size: its contacts, classes, bookings, a year of transactions and events.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/platform_bench REDIS_URL=redis://127.0.0.1:6379/14 \\
        python bench/seed_scale.py 10k 1M          # each size once; reused when complete (`--reseed` rebuilds)

Per million bookings (every count is proportional to `bookings`):

| rows | count | shape |
|---|---:|---|
| contacts | bookings / 10 | names from 40 x 40 lists, e-mail and phone, created over three years, 5 % archived |
| classes | bookings / 20 | over 365 days ending 65 days ahead, on 4 clubs, 1 % cancelled |
| class bookings | 90 % of bookings | 18 seats per class, 5 % cancelled, contacts spread evenly |
| court bookings | 10 % of bookings | 6 courts per club, every other hour from 08:00, never overlapping |
| transactions | bookings | a year ending yesterday, charges, outside revenue, refunds, voids, 3 revenue accounts |
| domain events | bookings / 12 | `booking.*` events of the last 30 days (the outbox keeps 30), relayed |

The organization (`bench-scale-<size>`, e.g. `bench-scale-1m`) has a full-access API key and its four clubs are
listed on the marketplace around one point per size (`MARKETPLACE_POINTS`), away from the other bench networks.
Rows are generated inside PostgreSQL (`INSERT ... SELECT` over `generate_series`, in chunks of `CHUNK` rows so that the
progress bar moves); nothing crosses the wire but the statements. About 1 minute per million rows on the 2-core
bench machine (7-8 minutes for the 1M size), a second or two for 10k. The tables are then `VACUUM ANALYZE`d, so
the planner knows the sizes and index-only scans see an up-to-date visibility map.
"""

import argparse
import datetime as dt
import os
import sys
import time
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/platform_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")

SIZES = {"10k": 10_000, "100k": 100_000, "1M": 1_000_000}
CHUNK = 50_000
CLUBS = 4
COURTS = 6
SEATS = 18  # bookings per class
# Each size's clubs around its own point, far from each other and from the other bench networks' cities.
MARKETPLACE_POINTS = {"10k": (39.4753, -6.3724), "100k": (42.3439, -3.6969), "1M": (40.9701, -5.6635)}
FIRST_NAMES = ("Ana Luis Marta Jorge Lucia Pablo Elena Diego Sara Carlos Laura Javier Paula Miguel Irene Sergio "
               "Alba David Nuria Raul Clara Ivan Julia Hugo Noelia Mario Eva Adrian Rocio Alvaro Maria Oscar Ines "
               "Ruben Teresa Victor Carmen Daniel Lidia Marcos").split()  # fmt: skip
LAST_NAMES = ("Garcia Lopez Martin Sanchez Perez Gomez Ruiz Diaz Moreno Munoz Alvarez Romero Alonso Gutierrez "
              "Navarro Torres Dominguez Vazquez Ramos Gil Ramirez Serrano Blanco Molina Morales Suarez Ortega "
              "Delgado Castro Ortiz Rubio Marin Sanz Nunez Iglesias Medina Garrido Cortes Castillo "
              "Santos").split()  # fmt: skip


@dataclass
class Scale:
    """A generated organization and what the benchmarks ask of it."""

    size: str
    organization_id: int
    token: str
    roster_class_id: int  # a class with a full roster
    contact_id: int  # a contact with bookings
    club_id: int
    search_term: str  # a contacts search that matches a few people


def counts(bookings: int) -> dict[str, int]:
    classes = bookings // 20
    return {
        "contacts": bookings // 10,
        "classes": classes,
        "class bookings": classes * SEATS,
        "court bookings": bookings - classes * SEATS,
        "transactions": bookings,
        "events": bookings // 12,
    }


def slug_of(size: str) -> str:
    return f"bench-scale-{size.lower()}"


def ensure(size: str, reseed: bool = False, progress: bool = True) -> Scale:
    """The organization of `size` (generated when missing or incomplete) and a fresh full-access key."""
    from apps.bookings.models import Booking
    from apps.domain_events.models import DomainEvent
    from apps.organizations.models import ApiKey, Organization

    bookings = SIZES[size]
    wanted = counts(bookings)
    organization = Organization.objects.filter(slug=slug_of(size)).first()
    complete = (
        organization is not None
        and not reseed
        and DomainEvent.objects.filter(organization=organization).count() == wanted["events"]
        and Booking.objects.filter(organization=organization).count() == bookings
    )
    if not complete:
        if organization is not None:
            _delete(organization.id)
        organization = _generate(size, bookings, wanted, progress)
    ApiKey.objects.filter(organization=organization, name="bench-scale").delete()
    _, token = ApiKey.issue(organization=organization, name="bench-scale", scopes=["*"])
    return _describe(size, organization, token)


def _describe(size: str, organization, token: str) -> Scale:
    from django.utils import timezone

    from apps.bookings.models import Booking
    from apps.classes.models import ClassOccurrence
    from apps.clubs.models import Club

    roster_class = (
        ClassOccurrence.objects.filter(organization=organization, start_time__gte=timezone.now()).order_by("start_time")
    ).first()
    contact_id = (
        Booking.objects.filter(organization=organization, class_occurrence=roster_class)
        .order_by("id")
        .values_list("contact_id", flat=True)
        .first()
    )
    club = Club.objects.filter(organization=organization).order_by("id").first()
    return Scale(
        size=size,
        organization_id=organization.id,
        token=token,
        roster_class_id=roster_class.id,
        contact_id=contact_id,
        club_id=club.id,
        search_term=f"{FIRST_NAMES[7]} {LAST_NAMES[11]}",
    )


def _delete(organization_id: int) -> None:
    """Remove a partly generated organization fast (SQL per table, then the ORM for the few rows left)."""
    from django.db import connection

    from apps.organizations.models import Organization

    with connection.cursor() as cursor:
        for table in (
            "webhooks_feedcounter",
            "domain_events_domainevent",
            "transactions_transaction",
            "bookings_booking",
            "classes_class",
            "contacts_contact",
        ):
            cursor.execute(f"DELETE FROM {table} WHERE organization_id = %s", [organization_id])
    Organization.objects.filter(id=organization_id).delete()


def _generate(size: str, bookings: int, wanted: dict[str, int], progress: bool):
    from django.db import connection, transaction
    from tqdm import tqdm

    from apps.billing.models import RevenueAccount
    from apps.clubs.models import Area, AreaType, Club
    from apps.organizations.models import Organization

    started = time.perf_counter()
    with transaction.atomic():
        organization = Organization.objects.create(
            slug=slug_of(size),
            name=f"Bench scale {size}",
            currency="EUR",
            default_tax_rate=Decimal("21"),
            timezone="Europe/Madrid",
            plan="pro",
        )
        hours = {d: [["08:00", "22:00"]] for d in ("monday", "tuesday", "wednesday", "thursday", "friday",
                                                    "saturday", "sunday")}  # fmt: skip
        lat, lng = MARKETPLACE_POINTS[size]
        clubs = [
            Club.objects.create(
                organization=organization,
                name=f"Scale {size} club {i + 1}",
                slug=f"{slug_of(size)}-{i + 1}",
                timezone="Europe/Madrid",
                country="ES",
                sports=["padel"],
                latitude=lat + 0.01 * i,
                longitude=lng - 0.01 * i,
                opening_hours=hours,
                marketplace_listed=True,
            )
            for i in range(CLUBS)
        ]
        court_type = AreaType.objects.create(organization=organization, name="Padel court", slug="padel-court")
        courts = [
            Area.objects.create(
                organization=organization,
                club=club,
                area_type=court_type,
                name=f"Court {n + 1}",
                sports=["padel"],
                hourly_rate=Decimal(20 + n),
                position=n,
            )
            for club in clubs
            for n in range(COURTS)
        ]
        accounts = [RevenueAccount.objects.create(organization=organization, name=n).id for n in ("Courts", "Classes")]
    params = {
        "org": organization.id,
        "clubs": [c.id for c in clubs],
        "courts": [c.id for c in courts],
        "accounts": accounts,
        "first_names": FIRST_NAMES,
        "last_names": LAST_NAMES,
        # Classes and court bookings span the 365 days ending 65 days ahead; transactions and events the year
        # ending yesterday.
        "class_start": _midnight(-300),
        "class_step": 365 * 86400 / wanted["classes"],
        # Court bookings take every other hour of a court's day: centred on today, so every day around the bench
        # day has the same half-booked courts at every size.
        "court_start": _midnight(-(wanted["court bookings"] // (CLUBS * COURTS * 7)) // 2),
        "year_start": _midnight(-366),
        "year_step": 365 * 86400 / bookings,
        "label": "Scale",
        "events_start": _midnight(-29),
        "events_step": 29 * 86400 / (bookings // 12),
        **wanted,
    }
    steps = [
        ("contacts", wanted["contacts"], CONTACTS_SQL),
        ("classes", wanted["classes"], CLASSES_SQL),
        ("class bookings", wanted["classes"], CLASS_BOOKINGS_SQL),  # counted in classes: SEATS rows each
        ("court bookings", wanted["court bookings"], COURT_BOOKINGS_SQL),
        ("transactions", wanted["transactions"], TRANSACTIONS_SQL),
        ("events", wanted["events"], EVENTS_SQL),
    ]
    total_rows = sum(wanted.values())
    bar = tqdm(total=total_rows, unit=" rows", unit_scale=True, disable=not progress, desc=f"seeding {size}")
    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 0")  # VACUUM of a million rows outlasts the API's timeout
        cursor.execute("SELECT COALESCE(MAX(id), 0) FROM contacts_contact")
        params["contact_base"] = cursor.fetchone()[0]
        for name, rows, sql in steps:
            if name == "class bookings":
                cursor.execute(
                    "SELECT MIN(id) FROM classes_class WHERE organization_id = %(org)s", {"org": organization.id}
                )
                params["class_base"] = cursor.fetchone()[0]
            step = CHUNK // SEATS if name == "class bookings" else CHUNK  # SEATS rows per class
            for first in range(0, rows, step):
                bar.set_postfix_str(name)
                cursor.execute(sql, {**params, "lo": first, "hi": min(rows, first + step) - 1})
                bar.update(cursor.rowcount)
            if name == "contacts":
                # Contacts are addressed as contact_base + n: check no other writer interleaved its ids.
                cursor.execute("SELECT MIN(id), MAX(id) FROM contacts_contact WHERE organization_id = %(org)s", params)
                low, high = cursor.fetchone()
                if high - low + 1 != rows:
                    raise SystemExit("contact ids are not contiguous: another writer interleaved; run again")
                params["contact_base"] = low - 1
        cursor.execute(
            "INSERT INTO webhooks_feedcounter (organization_id, last_sequence) VALUES (%(org)s, %(events)s)", params
        )
        bar.set_postfix_str("vacuum analyze")
        for table in ("contacts_contact", "classes_class", "bookings_booking", "transactions_transaction",
                      "transactions_revenuesum", "domain_events_domainevent"):  # fmt: skip
            cursor.execute(f"VACUUM ANALYZE {table}")
    bar.close()
    print(f"generated {slug_of(size)}: {total_rows:,} rows in {time.perf_counter() - started:.0f} s", flush=True)
    return organization


def _midnight(days: int) -> dt.datetime:
    today = dt.datetime.now(dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return today + dt.timedelta(days=days)


CONTACTS_SQL = """
INSERT INTO contacts_contact (organization_id, first_name, last_name, email, phone, status, tags, marketing_consent,
                              custom_fields, created_at, updated_at)
SELECT %(org)s,
       (%(first_names)s::text[])[1 + n %% 40],
       (%(last_names)s::text[])[1 + (n / 40) %% 40],
       lower((%(first_names)s::text[])[1 + n %% 40] || '.' || (%(last_names)s::text[])[1 + (n / 40) %% 40])
           || '.' || n || '@example.com',
       '+34 6' || lpad((n * 7919 %% 100000000)::text, 8, '0'),
       CASE WHEN n %% 20 = 19 THEN 'archived' ELSE 'active' END,
       '[]'::jsonb, n %% 3 = 0, '{}'::jsonb,
       %(year_start)s::timestamptz - interval '730 days' + n * (1095 * 86400.0 / %(contacts)s) * interval '1 second',
       now()
FROM generate_series(%(lo)s, %(hi)s) AS n
"""

CLASSES_SQL = """
INSERT INTO classes_class (organization_id, club_id, name, images, start_time, end_time, status, visibility, sport,
                           price_before_tax, is_free, max_capacity, allow_waitlist, translations, created_at,
                           updated_at)
SELECT %(org)s,
       (%(clubs)s::bigint[])[1 + n %% 4],
       (ARRAY['Yoga', 'Pilates', 'Spinning', 'Padel clinic', 'HIIT', 'Zumba'])[1 + n %% 6] || ' ' || (1 + n %% 9),
       '[]'::jsonb,
       %(class_start)s::timestamptz + n * %(class_step)s * interval '1 second',
       %(class_start)s::timestamptz + n * %(class_step)s * interval '1 second' + interval '1 hour',
       CASE WHEN n %% 100 = 99 THEN 'cancelled' ELSE 'active' END,
       'Public', 'fitness', 12.00, false, 20, true, '{}'::jsonb,
       %(class_start)s::timestamptz - interval '30 days' + n * %(class_step)s * interval '1 second',
       now()
FROM generate_series(%(lo)s, %(hi)s) AS n
"""

# Seat s of class n: contact (n * SEATS + s) * 7 mod contacts spreads each contact over about 10 classes a year.
CLASS_BOOKINGS_SQL = f"""
INSERT INTO bookings_booking (organization_id, type, status, club_id, class_occurrence_id, contact_id, start_time,
                              end_time, sport, price_before_tax, payment_status, payment_amount, paid_amount,
                              refunded_amount, source, created_at, updated_at)
SELECT c.organization_id, 'class',
       CASE WHEN (c.id + s) %% 20 = 0 THEN 'cancelled' ELSE 'confirmed' END,
       c.club_id, c.id,
       %(contact_base)s + 1 + ((c.id - %(class_base)s) * {SEATS} + s) * 7 %% %(contacts)s,
       c.start_time, c.end_time, 'fitness', 12.00, 'paid', 14.52, 14.52, 0, 'api',
       c.start_time - (1 + s %% 10) * interval '1 day', now()
FROM classes_class c CROSS JOIN generate_series(1, {SEATS}) AS s
WHERE c.organization_id = %(org)s AND c.id - %(class_base)s BETWEEN %(lo)s AND %(hi)s
"""

# Court slot n: court n mod courts, the (n / courts)-th one-hour slot of its days (7 a day, every other hour from
# 08:00 UTC).
COURT_BOOKINGS_SQL = f"""
INSERT INTO bookings_booking (organization_id, type, status, club_id, area_id, contact_id, start_time, end_time,
                              sport, price_before_tax, payment_status, payment_amount, paid_amount, refunded_amount,
                              source, created_at, updated_at)
SELECT %(org)s, 'area',
       CASE WHEN n %% 25 = 0 THEN 'cancelled' ELSE 'confirmed' END,
       (%(clubs)s::bigint[])[1 + (n %% {CLUBS * COURTS}) / {COURTS}],
       (%(courts)s::bigint[])[1 + n %% {CLUBS * COURTS}],
       %(contact_base)s + 1 + (n * 13) %% %(contacts)s,
       slot, slot + interval '1 hour', 'padel', 20.00, 'unpaid', 24.20, 0, 0, 'api',
       slot - interval '3 days', now()
FROM generate_series(%(lo)s, %(hi)s) AS n,
     LATERAL (SELECT %(court_start)s::timestamptz
                     + ((n / {CLUBS * COURTS}) / 7) * interval '1 day'
                     + (8 + 2 * ((n / {CLUBS * COURTS}) %% 7)) * interval '1 hour' AS slot) AS t
"""

# Transaction n of a year from `year_start`, `year_step` seconds apart: also the bench ledger's (`bench/run.py`,
# `contacts` 0: no contact). Clubs and revenue accounts are taken in turn from their arrays.
TRANSACTIONS_SQL = """
INSERT INTO transactions_transaction (organization_id, type, source_type, description, contact_id, club_id,
                                      revenue_account_id, amount, tax_amount, paid_amount, refunded_amount,
                                      payment_status, occurred_at, created_at, updated_at)
SELECT %(org)s,
       CASE WHEN n %% 40 = 0 THEN 'refund' WHEN n %% 10 = 0 THEN 'external_revenue' ELSE 'charge' END,
       CASE WHEN n %% 10 = 0 THEN 'external' ELSE 'booking' END,
       %(label)s || ' ' || n,
       %(contact_base)s + 1 + (n * 17) %% NULLIF(%(contacts)s, 0),
       (%(clubs)s::bigint[])[1 + n %% cardinality(%(clubs)s::bigint[])],
       (%(accounts)s::bigint[])[1 + n %% cardinality(%(accounts)s::bigint[])],
       (10 + n %% 90) * 1.21, (10 + n %% 90) * 0.21, (10 + n %% 90) * 1.21, 0,
       CASE WHEN n %% 40 = 0 THEN 'refunded' WHEN n %% 97 = 0 THEN 'void' ELSE 'paid' END,
       %(year_start)s::timestamptz + n * %(year_step)s * interval '1 second',
       %(year_start)s::timestamptz + n * %(year_step)s * interval '1 second',
       now()
FROM generate_series(%(lo)s, %(hi)s) AS n
"""

EVENTS_SQL = """
INSERT INTO domain_events_domainevent (id, organization_id, type, data, created_at, sequence)
SELECT 'evt_s' || %(org)s || '_' || lpad(n::text, 8, '0'), %(org)s,
       (ARRAY['booking.created', 'booking.updated', 'booking.cancelled'])[1 + (n %% 10) / 8 + (n %% 10) / 9],
       jsonb_build_object('id', n, 'type', 'class', 'status', 'confirmed', 'clubId', (%(clubs)s::bigint[])[1 + n %% 4],
                          'contactId', %(contact_base)s + 1 + (n * 7) %% %(contacts)s, 'sport', 'fitness',
                          'startTime', %(events_start)s::timestamptz + n * %(events_step)s * interval '1 second',
                          'payment', jsonb_build_object('status', 'paid', 'amount', 14.52, 'paidAmount', 14.52)),
       %(events_start)s::timestamptz + n * %(events_step)s * interval '1 second',
       n + 1
FROM generate_series(%(lo)s, %(hi)s) AS n
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", default=["10k", "1M"], choices=sorted(SIZES))
    parser.add_argument("--reseed", action="store_true", help="generate again even when complete")
    args = parser.parse_args()
    from bench.run import ensure_database

    ensure_database()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    for size in args.sizes:
        scale = ensure(size, reseed=args.reseed)
        print(f"{slug_of(size)}: organization {scale.organization_id}, roster class {scale.roster_class_id}")


if __name__ == "__main__":
    main()
