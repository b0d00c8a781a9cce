"""Extending open-ended series: the beat task, the management command, concurrency and a real Celery worker."""

import datetime as dt
import io
from functools import partial
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.db.models import Count
from django.utils import timezone

from apps.classes import services
from apps.classes.models import ClassOccurrence, ClassSeries
from apps.classes.tasks import extend_open_series
from tests.celery_worker import real_worker, wait_until
from tests.concurrency import race

MADRID = ZoneInfo("Europe/Madrid")


@pytest.fixture
def open_series(create_class, instructor):
    """A daily open-ended series starting tomorrow 09:00 Madrid (a 90-day window is materialized)."""
    start = (
        (timezone.now() + dt.timedelta(days=1)).astimezone(MADRID).replace(hour=9, minute=0, second=0, microsecond=0)
    )
    body = create_class(
        startTime=start.isoformat(),
        endTime=(start + dt.timedelta(hours=1)).isoformat(),
        instructorIds=[instructor.id],
        recurrence={"frequency": "daily"},
    )
    return ClassSeries.objects.get(pk=body["recurrenceId"])


def assert_no_duplicates(series):
    rows = ClassOccurrence.objects.filter(series=series)
    assert not rows.values("occurrence_index").annotate(n=Count("id")).filter(n__gt=1).exists()
    assert not rows.values("start_time").annotate(n=Count("id")).filter(n__gt=1).exists()


def test_beat_task_extends_and_is_idempotent(open_series):
    before = ClassOccurrence.objects.count()
    expected = sum(r.created for r in services.extend_open_series(days=180, dry_run=True))
    assert expected in (90, 91)
    assert ClassOccurrence.objects.count() == before  # dry run writes nothing
    result = extend_open_series.delay(days=180).get()
    assert result["created"] == expected and result["series"] == 1
    after = ClassOccurrence.objects.count()
    assert after == before + expected
    assert extend_open_series.delay(days=180).get()["created"] == 0
    assert ClassOccurrence.objects.count() == after
    assert_no_duplicates(open_series)
    open_series.refresh_from_db()
    assert open_series.materialized_until >= timezone.now() + dt.timedelta(days=179)
    newest = ClassOccurrence.objects.filter(series=open_series).order_by("-start_time").first()
    assert newest.instructors.count() == 1 and newest.name == "Evening Yoga"
    assert newest.start_time.astimezone(MADRID).hour == 9


def test_default_window_creates_nothing_when_full(open_series):
    assert extend_open_series() == {"series": 1, "created": 0, "skippedLocked": 0}


def test_cancelled_and_bounded_series_are_not_extended(open_series, create_class):
    create_class(recurrence={"frequency": "daily", "ends": {"type": "after", "occurrences": 3}})
    ClassSeries.objects.filter(pk=open_series.pk).update(status="cancelled")
    assert extend_open_series(days=365)["series"] == 0


def test_command_reports_progress_and_is_idempotent(open_series, organization, other_organization):
    out = io.StringIO()
    call_command("extend_series", "--days", "120", "--dry-run", stdout=out)
    assert f"series {open_series.id} (organization {organization.id}): would create 30" in out.getvalue()
    assert "1 series, would create 30 occurrences in total" in out.getvalue()
    before = ClassOccurrence.objects.count()
    assert ClassOccurrence.objects.count() == before
    out = io.StringIO()
    call_command("extend_series", "--days", "120", "--organization", organization.slug, stdout=out)
    assert "created 30" in out.getvalue()
    assert ClassOccurrence.objects.count() == before + 30
    out = io.StringIO()
    call_command("extend_series", "--days", "120", stdout=out)
    assert "1 series, created 0 occurrences in total" in out.getvalue()
    out = io.StringIO()
    call_command("extend_series", "--days", "200", "--organization", other_organization.slug, stdout=out)
    assert "0 series" in out.getvalue()
    assert_no_duplicates(open_series)


@pytest.mark.django_db(transaction=True)
def test_concurrent_runs_create_no_duplicates(open_series):
    expected = ClassOccurrence.objects.count() + 90
    results = race([partial(services.extend_open_series, days=180) for _ in range(4)], catch=(Exception,))
    assert not [result for result in results if isinstance(result, Exception)]
    services.extend_open_series(days=180)  # whichever runs skipped a locked row, the window is now full
    assert ClassOccurrence.objects.count() in (expected, expected + 1)
    assert_no_duplicates(open_series)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_real_celery_worker_extends_series(open_series, settings):
    before = ClassOccurrence.objects.count()
    with real_worker(settings, "classes-test") as proc:
        extend_open_series.delay(days=150)
        wait_until(lambda: ClassOccurrence.objects.count() >= before + 60, proc)
        assert ClassOccurrence.objects.count() == before + 60
        assert_no_duplicates(open_series)
