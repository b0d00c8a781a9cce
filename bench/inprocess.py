"""In-process read benchmark: ms per request (Django test Client, no HTTP) for the main lists with 200 rows and /me.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/platform_bench REDIS_URL=redis://127.0.0.1:6379/14 \
        python bench/inprocess.py [--reseed] [--profile NAME]

Seeds (once; `--reseed` rebuilds) an organization `bench-read` with 200 rows per list through the contract test
row factories (tests/*/cases.py), then prints the best of 3 rounds of BENCH_INPROC_N requests per endpoint.
"""

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
os.environ.setdefault("RATE_LIMIT_MULTIPLIER", "100000")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/platform_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")
os.environ.setdefault("LOG_LEVEL", "WARNING")

ROWS = 200
N = int(os.environ.get("BENCH_INPROC_N", "100"))


def seed(reseed: bool):
    from django.core.management import call_command
    from django.db import transaction

    from apps.organizations.models import ApiKey, Organization

    call_command("migrate", verbosity=0, interactive=False)
    organization = Organization.objects.filter(slug="bench-read").first()
    if organization is not None and reseed:
        organization.delete()
        organization = None
    if organization is None:
        from tests.bookings.cases import _bookings
        from tests.class_bookings.cases import _class, _roster_rows
        from tests.classes.cases import class_rows
        from tests.clubs.cases import club_rows
        from tests.contacts.cases import _contacts
        from tests.factories import ClubFactory
        from tests.instructors.cases import instructor_rows

        ClubFactory.reset_sequence(10_000)  # clear of the `club-<organization id>` slug the booking rows' club takes

        with transaction.atomic():
            organization = Organization.objects.create(
                slug="bench-read", name="Bench Read Gym", currency="EUR", plan="pro", timezone="Europe/Madrid"
            )
            for fill in (_contacts, _bookings, class_rows, club_rows, instructor_rows):
                fill(organization, ROWS)
            _roster_rows(organization, ROWS)
            roster_class = _class(organization)["id"]
    else:
        from django.db.models import Count

        from apps.bookings.models import Booking

        roster_class = (
            Booking.objects.filter(organization=organization, class_occurrence__isnull=False)
            .values("class_occurrence_id")
            .annotate(n=Count("id"))
            .order_by("-n")
            .first()["class_occurrence_id"]
        )
    ApiKey.objects.filter(organization=organization, name="bench-read").delete()
    _, token = ApiKey.issue(organization=organization, name="bench-read", scopes=["*"])
    return token, roster_class


def main():
    import django

    django.setup()
    from django.test import Client

    token, roster_class = seed("--reseed" in sys.argv)
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    paths = {
        "me": "/v1/platform/me",
        "contacts": f"/v1/platform/contacts?limit={ROWS}",
        "bookings": f"/v1/platform/bookings?limit={ROWS}",
        "classes": f"/v1/platform/classes?limit={ROWS}",
        "roster": f"/v1/platform/classes/{roster_class}/bookings?limit={ROWS}",
        "clubs": f"/v1/platform/clubs?limit={ROWS}",
        "instructors": f"/v1/platform/instructors?limit={ROWS}",
    }
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    profile = "--profile" in sys.argv
    for name, path in paths.items():
        if only and name not in only:
            continue
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code, response.content[:300])
        body = response.json()
        rows = len(body.get("data", [])) if isinstance(body, dict) else 0
        for _ in range(20):
            client.get(path)
        if profile:
            import cProfile
            import pstats

            prof = cProfile.Profile()
            prof.enable()
            for _ in range(N):
                client.get(path)
            prof.disable()
            pstats.Stats(prof).sort_stats("tottime").print_stats(25)
            continue
        best = None
        for _ in range(3):
            started = time.perf_counter()
            for _ in range(N):
                client.get(path)
            elapsed = (time.perf_counter() - started) / N * 1000
            best = elapsed if best is None else min(best, elapsed)
        print(f"{name:<12} {best:7.2f} ms/request  ({rows} rows, {len(response.content)} bytes)", flush=True)


if __name__ == "__main__":
    main()
