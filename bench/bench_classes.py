"""Classes: creating a 520-occurrence series and listing 200 classes through the HTTP API.

Standalone: `make bench` provides DATABASE_URL/REDIS_URL (PostgreSQL + Redis), or run it directly:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/platform_bench REDIS_URL=redis://127.0.0.1:6379/14 \
        python bench/bench_classes.py --repeat 3 --list-requests 20

Requests go through Django's in-process test client (the full middleware, authentication, rate-limit and
idempotency stack, a real PostgreSQL connection). Prints the wall time and query count of each series create
(POST /v1/platform/classes, daily, ends after 520) and, for GET /v1/platform/classes?limit=200, the time per
request (p50/p99) and its query count. Rate limits are lifted (RATE_LIMIT_MULTIPLIER) so the bench measures the work.
"""

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
os.environ.setdefault("RATE_LIMIT_MULTIPLIER", "10000")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")

import django  # noqa: E402

django.setup()

from decimal import Decimal  # noqa: E402

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from apps.classes.models import ClassOccurrence  # noqa: E402
from apps.clubs.models import Area, Club  # noqa: E402
from apps.contacts.models import Contact  # noqa: E402
from apps.instructors.models import Instructor  # noqa: E402
from apps.organizations.models import ApiKey, Organization  # noqa: E402
from bench.table import emit  # noqa: E402


def setup():
    run = uuid.uuid4().hex[:8]
    organization = Organization.objects.create(
        name=f"Bench classes {run}",
        slug=f"bench-classes-{run}",
        currency="EUR",
        default_tax_rate=Decimal("21"),
        timezone="Europe/Madrid",
        plan="pro",
    )
    club = Club.objects.create(
        organization=organization, name="Bench club", slug=f"bench-{run}", timezone="Europe/Madrid"
    )
    area = Area.objects.create(organization=organization, club=club, name="Studio")
    instructors = [
        Instructor.objects.create(
            organization=organization,
            contact=Contact.objects.create(organization=organization, first_name=f"Coach {i}", email=f"c{i}@x.com"),
        )
        for i in range(2)
    ]
    _, token = ApiKey.issue(organization=organization, name="bench", scopes=["*"])
    return organization, club, area, instructors, token


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="series creates to time")
    parser.add_argument("--list-requests", type=int, default=20, help="list requests to time")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    organization, club, area, instructors, token = setup()
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    try:
        create_times, create_queries = [], []
        for i in range(args.repeat):
            body = {
                "clubId": club.id,
                "areaId": area.id,
                "instructorIds": [x.id for x in instructors],
                "name": f"Daily bench {i}",
                "startTime": "2031-01-05T18:00:00+01:00",
                "endTime": "2031-01-05T19:00:00+01:00",
                "priceBeforeTax": 10,
                "maxCapacity": 20,
                "recurrence": {"frequency": "daily", "ends": {"type": "after", "occurrences": 520}},
            }
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                response = client.post("/v1/platform/classes", body, content_type="application/json")
                create_times.append(time.perf_counter() - started)
            assert response.status_code == 201, response.content
            assert response.json()["series"]["occurrencesCreated"] == 520
            create_queries.append(len(queries))
        print(
            f"series create (520 occurrences, 2 instructors): "
            f"median {statistics.median(create_times) * 1000:.0f} ms, best {min(create_times) * 1000:.0f} ms, "
            f"{create_queries[-1]} queries (incl. domain events after commit)"
        )
        emit(
            row="class-series-create",
            label="POST /v1/platform/classes, daily series of 520 occurrences",
            p50=statistics.median(create_times) * 1000,
            p99=max(create_times) * 1000,
            queries=create_queries[-1],
            note=f"in process, {args.repeat} creates (p99 column: the slowest)",
        )

        total = ClassOccurrence.objects.filter(organization=organization).count()
        list_times, list_queries = [], 0
        client.get("/v1/platform/classes?limit=200")  # warm-up
        for _ in range(args.list_requests):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                response = client.get("/v1/platform/classes?limit=200")
                list_times.append(time.perf_counter() - started)
            assert response.status_code == 200 and len(response.json()["data"]) == 200
            list_queries = len(queries)
        list_times.sort()
        p99 = list_times[min(len(list_times) - 1, int(len(list_times) * 0.99))]
        print(
            f"list 200 classes (of {total}): p50 {statistics.median(list_times) * 1000:.1f} ms, "
            f"p99 {p99 * 1000:.1f} ms per request, {list_queries} queries"
        )
        emit(
            row="classes-list-inprocess",
            label="GET /v1/platform/classes?limit=200",
            p50=statistics.median(list_times) * 1000,
            p99=p99 * 1000,
            queries=list_queries,
            note=f"in process, {args.list_requests} requests one at a time",
        )
    finally:
        organization.delete()


if __name__ == "__main__":
    main()
