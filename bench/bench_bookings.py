"""Booking-into-class throughput under contention.

Standalone: `make bench` provides DATABASE_URL/REDIS_URL (PostgreSQL + Redis), or run it directly:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/platform_bench REDIS_URL=redis://127.0.0.1:6379/14 \
        python bench/bench_bookings.py --threads 8 --requests 40 --capacity 100

Every thread sends POST /v1/platform/classes/{id}/bookings through Django's in-process test client (a real
PostgreSQL connection per thread, the full middleware/auth/rate-limit/idempotency stack) for distinct contacts
against ONE class. Seats are taken under a row lock on the class, so the confirmed count must equal the capacity
exactly; everything beyond it must be 409 CLASS_FULL. Prints bookings/second, p50/p99 latency and the counts.
Rate limits are lifted (RATE_LIMIT_MULTIPLIER) so the bench measures booking, not the 60/min bucket.
"""

import argparse
import os
import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("RATE_LIMIT_MULTIPLIER", "10000")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")

import django  # noqa: E402

django.setup()

import datetime as dt  # noqa: E402
from decimal import Decimal  # noqa: E402

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from apps.bookings.models import Booking  # noqa: E402
from apps.classes.models import ClassOccurrence  # noqa: E402
from apps.clubs.models import Club  # noqa: E402
from apps.contacts.models import Contact  # noqa: E402
from apps.organizations.models import ApiKey, Organization  # noqa: E402
from bench.table import emit  # noqa: E402


def setup(capacity: int, people: int):
    run = uuid.uuid4().hex[:8]
    organization = Organization.objects.create(
        name=f"Bench {run}", slug=f"bench-{run}", currency="EUR", default_tax_rate=Decimal("21"), plan="pro"
    )
    club = Club.objects.create(organization=organization, name="Bench club", slug=f"bench-{run}", timezone="UTC")
    start = timezone.now() + dt.timedelta(days=1)
    occurrence = ClassOccurrence.objects.create(
        organization=organization,
        club=club,
        name="Bench class",
        start_time=start,
        end_time=start + dt.timedelta(hours=1),
        price_before_tax=Decimal("10.00"),
        max_capacity=capacity,
    )
    contacts = Contact.objects.bulk_create(
        [Contact(organization=organization, first_name=f"Bench {i}") for i in range(people)]
    )
    _, token = ApiKey.issue(organization=organization, name="bench", scopes=["*"])
    return organization, occurrence, [c.pk for c in contacts], token


def percentile(values, pct):
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * len(ordered)) - 1))
    return ordered[index]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--requests", type=int, default=40, help="requests per thread")
    parser.add_argument("--capacity", type=int, default=100)
    args = parser.parse_args()

    call_command("migrate", verbosity=0, interactive=False)
    total = args.threads * args.requests
    organization, occurrence, contact_ids, token = setup(args.capacity, total)
    url = f"/v1/platform/classes/{occurrence.pk}/bookings"
    latencies: list[float] = []
    outcomes: Counter = Counter()
    lock = threading.Lock()
    barrier = threading.Barrier(args.threads)

    def worker(chunk):
        client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
        mine, seen = [], Counter()
        try:
            barrier.wait()
            for contact_id in chunk:
                began = time.perf_counter()
                response = client.post(url, {"contactId": contact_id}, content_type="application/json")
                mine.append(time.perf_counter() - began)
                code = response.json().get("code") if response.status_code != 201 else None
                seen[(response.status_code, code)] += 1
        finally:
            connection.close()
        with lock:
            latencies.extend(mine)
            outcomes.update(seen)

    chunks = [contact_ids[i :: args.threads] for i in range(args.threads)]
    threads = [threading.Thread(target=worker, args=(chunk,)) for chunk in chunks]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began

    confirmed = Booking.objects.filter(class_occurrence=occurrence, status="confirmed").count()
    print(f"threads={args.threads} requests={total} capacity={args.capacity} elapsed={elapsed:.2f}s")
    print(f"throughput: {total / elapsed:.1f} requests/s, {confirmed / elapsed:.1f} bookings/s")
    print(
        f"latency: p50={statistics.median(latencies) * 1000:.1f}ms p99={percentile(latencies, 99) * 1000:.1f}ms "
        f"max={max(latencies) * 1000:.1f}ms"
    )
    summary = ", ".join(f"{status} {code or ''}".strip() + f" x{n}" for (status, code), n in outcomes.items())
    print(f"outcomes: {summary}")
    print(f"confirmed bookings: {confirmed} (capacity {args.capacity})")
    unexpected = {k: n for k, n in outcomes.items() if k not in {(201, None), (409, "CLASS_FULL")}}
    ok = confirmed == min(args.capacity, total) and not unexpected
    print("OK" if ok else f"FAILED: overbooked or unexpected answers {unexpected}")
    emit(
        row="class-booking-contention",
        label=f"POST /v1/platform/classes/{{id}}/bookings, {args.threads} threads, one class of {args.capacity}",
        rps=total / elapsed,
        p50=statistics.median(latencies) * 1000,
        p99=percentile(latencies, 99) * 1000,
        note=f"in process; {confirmed} confirmed of capacity {args.capacity}, {summary}",
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
