"""The indexes the lists lean on at a million rows (`bench/bench_scale.py`), proven with PostgreSQL's EXPLAIN.

Each test sends a real request, takes the page query the API ran, and asks the planner for its plan with the
alternatives that win only on small tables switched off (sequential scans, sorts, bitmap scans): the plan must
then read the named index, i.e. an index exists that serves this filter in this order. Without the index the
plan falls back to a disabled node and names no index of ours.
"""

import datetime as dt

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.bookings.models import Booking
from apps.contacts.filters import ContactFilterSet
from apps.contacts.models import Contact
from apps.domain_events.models import DomainEvent
from apps.marketplace import offers
from apps.occupancy.queries import area_bookings
from apps.transactions.models import Transaction
from tests.factories import AreaFactory, ClubFactory

pytestmark = pytest.mark.django_db


def plan_of(sql: str, disabled=("seqscan", "sort", "bitmapscan")) -> str:
    with transaction.atomic(), connection.cursor() as cursor:
        for node in disabled:
            cursor.execute(f"SET LOCAL enable_{node} = off")
        cursor.execute("EXPLAIN " + sql)
        return "\n".join(row[0] for row in cursor.fetchall())


def page_query(api, path: str, table: str) -> str:
    """The SQL of the page (the query with a LIMIT on `table`) that `GET path` ran."""
    with CaptureQueriesContext(connection) as captured:
        response = api.get(path)
    assert response.status_code == 200, response.content[:300]
    found = [q["sql"] for q in captured if f'FROM "{table}"' in q["sql"] and " LIMIT " in q["sql"]]
    assert found, [q["sql"] for q in captured]
    return found[0]


@pytest.fixture
def bookings(organization):
    club = ClubFactory(organization=organization)
    contact = Contact.objects.create(organization=organization, first_name="Ana")
    start = timezone.now() + dt.timedelta(days=1)
    return Booking.objects.bulk_create(
        Booking(
            organization=organization,
            club=club,
            contact=contact,
            type="area",
            start_time=start + dt.timedelta(hours=i),
            end_time=start + dt.timedelta(hours=i + 1),
        )
        for i in range(5)
    )


def index_on(model, *fields: str) -> str:
    return next(index.name for index in model._meta.indexes if tuple(index.fields) == fields)


def test_bookings_list_reads_the_organization_start_time_index(api, bookings):
    plan = plan_of(page_query(api, "/v1/platform/bookings?limit=2", "bookings_booking"))
    assert index_on(Booking, "organization", "start_time", "id") in plan, plan


def test_newest_bookings_read_the_organization_created_at_index(api, bookings):
    plan = plan_of(page_query(api, "/v1/platform/bookings?ordering=-createdAt&limit=2", "bookings_booking"))
    assert "booking_org_created" in plan, plan


def test_contacts_list_reads_the_organization_created_at_index(api, organization):
    Contact.objects.bulk_create(Contact(organization=organization, first_name=f"C{i}") for i in range(5))
    plan = plan_of(page_query(api, "/v1/platform/contacts?limit=2", "contacts_contact"))
    assert "contact_org_created" in plan, plan


def test_event_feed_reads_the_organization_sequence_index(api, organization):
    now = timezone.now()
    DomainEvent.objects.bulk_create(
        DomainEvent(id=f"evt_plan{i}", organization=organization, type="booking.created", data={}, sequence=i)
        for i in range(1, 6)
    )
    DomainEvent.objects.filter(organization=organization).update(created_at=now)
    plan = plan_of(page_query(api, "/v1/platform/webhook-events?limit=2", "domain_events_domainevent"))
    assert "domain_event_org_sequence" in plan, plan


def test_court_occupancy_reads_the_no_overlap_range_index(organization):
    """The offer search and the booking conflict check: the time range is an index condition, so a court's
    earlier bookings are not read."""
    club = ClubFactory(organization=organization)
    court = AreaFactory(organization=organization, club=club)
    start = timezone.now().replace(minute=0, second=0, microsecond=0) + dt.timedelta(days=1)
    Booking.objects.bulk_create(  # a year of the court's earlier bookings, one an hour apart
        Booking(organization=organization, club=club, area=court, type="area", start_time=begins,
                end_time=begins + dt.timedelta(hours=1))
        for begins in (start - dt.timedelta(hours=2 * i) for i in range(1, 4001))
    )  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE bookings_booking")
    bookings = area_bookings(start, start + dt.timedelta(hours=1)).filter(area_id__in=[court.id]).order_by()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        plan = bookings.explain()
    index_line = next(line for line in plan.splitlines() if "booking_area_no_overlap" in line)
    condition = plan.splitlines()[plan.splitlines().index(index_line) + 1]
    assert "Index Cond" in condition and "&&" in condition, plan


def test_one_clubs_window_is_counted_and_paged_through_the_organization_club_start_index(api, bookings):
    day = bookings[0].start_time.date().isoformat()
    with CaptureQueriesContext(connection) as captured:
        response = api.get(f"/v1/platform/bookings?clubId={bookings[0].club_id}&startDate={day}&endDate={day}")
    assert response.status_code == 200 and response.json()["total"] >= 1
    counts = [q["sql"] for q in captured if 'FROM "bookings_booking"' in q["sql"] and "COUNT(" in q["sql"]]
    assert counts, [q["sql"] for q in captured]
    plan = plan_of(counts[0])
    assert "booking_org_club_start" in plan, plan


def test_a_club_clock_window_reads_the_clock_from_the_clubs_not_from_every_booking(api, bookings):
    day = bookings[0].start_time.date().isoformat()
    with CaptureQueriesContext(connection) as captured:
        response = api.get(f"/v1/platform/bookings?clubId={bookings[0].club_id}&startDate={day}&endDate={day}")
    assert response.status_code == 200
    assert response.json()["total"] >= 1
    clocks = [q["sql"] for q in captured if '"timezone"' in q["sql"] and "DISTINCT" in q["sql"]]
    assert clocks and all('FROM "bookings_booking"' not in sql for sql in clocks), clocks


def test_contacts_search_reads_the_trigram_index(api, organization):
    """The index holds the very expression the `q` filter compares (the planner uses it only then); on a handful
    of rows the organization's index wins, so the plan is taken for the filter alone."""
    Contact.objects.bulk_create(
        Contact(organization=organization, first_name=f"Ana{i}", last_name="Garcia", email=f"a{i}@example.com")
        for i in range(5)
    )
    assert [c["firstName"] for c in api.get("/v1/platform/contacts?q=ana3 garc").json()["data"]] == ["Ana3"]
    searched = ContactFilterSet.search(None, Contact.objects.order_by(), "q", "ana3 garc")
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        plan = searched.explain()
    assert "contact_search_trgm" in plan, plan


def _report_sql(api, organization, zone: str) -> str:
    """The one query `GET /transactions/summary` over a year by month ran, on `zone`'s clock."""
    organization.timezone = zone
    organization.save(update_fields=["timezone"])
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    Transaction.objects.bulk_create(
        Transaction(organization=organization, type="charge", source_type="booking", description="Court",
                    amount=10, occurred_at=start + dt.timedelta(hours=7 * i))
        for i in range(1200)
    )  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE transactions_transaction")
        cursor.execute("ANALYZE transactions_revenuesum")
    with CaptureQueriesContext(connection) as captured:
        response = api.get("/v1/platform/transactions/summary?startDate=2026-01-01&endDate=2026-12-31&groupBy=month")
    assert response.status_code == 200 and response.json()["totals"]["count"] == 1200, response.content[:300]
    found = [q["sql"] for q in captured if "transactions_revenuesum" in q["sql"]]
    assert len(found) == 1, [q["sql"] for q in captured]
    return found[0]


def test_revenue_report_reads_the_kept_sums_not_the_transactions(api, organization):
    """On a clock a whole number of hours from UTC every hour of the year lies inside one month: the report sums
    the day and hour rows through their index and reads no transaction."""
    plan = plan_of(_report_sql(api, organization, "Europe/Madrid"), disabled=("seqscan",))
    assert "revenue_sum_org_hours_start" in plan, plan
    assert "transactions_transaction" not in plan, plan


def test_revenue_report_reads_transactions_only_in_the_hours_a_month_starts_inside(api, organization):
    """On India's clock each month starts at half past an hour: those 13 hours are read from the transactions,
    each an index range of the organization's `occurred_at`, the rest from the kept sums."""
    plan = plan_of(_report_sql(api, organization, "Asia/Kolkata"), disabled=("seqscan",))
    assert "revenue_sum_org_hours_start" in plan, plan
    assert "transaction_org_occurred" in plan and "Seq Scan" not in plan, plan


def test_offer_search_reads_each_courts_occupancy_through_the_no_overlap_index(organization):
    """The courts query of the offer search asks, per court, the GiST index for that court and the day together
    (`area_id = court AND range && day`): a few entries per court, not every court's booking of the day."""
    day = (timezone.now() + dt.timedelta(days=14)).date()
    club = ClubFactory(organization=organization, marketplace_listed=True, latitude=40.4, longitude=-3.7,
                       sports=["padel"], timezone="Europe/Madrid",
                       opening_hours={d: [["08:00", "22:00"]] for d in ("monday", "tuesday", "wednesday", "thursday",
                                                                         "friday", "saturday", "sunday")})  # fmt: skip
    courts = [AreaFactory(organization=organization, club=club, sports=["padel"]) for _ in range(3)]
    other = AreaFactory(organization=organization, club=ClubFactory(organization=organization))
    start = dt.datetime.combine(day, dt.time(9), tzinfo=dt.UTC)
    Booking.objects.bulk_create(  # that day, on the courts in range and on a court elsewhere
        Booking(organization=organization, club_id=court.club_id, area=court, type="area",
                start_time=start + dt.timedelta(hours=i), end_time=start + dt.timedelta(hours=i, minutes=30))
        for court in [*courts, other] for i in range(5)
    )  # fmt: skip
    with CaptureQueriesContext(connection) as captured:
        page, total = offers.search_offers(latitude=40.4, longitude=-3.7, day=day, sports=["padel"])
    assert total > 0 and len(captured) == 3, [q["sql"] for q in captured]
    courts_sql = next(q["sql"] for q in captured if 'FROM "clubs_area"' in q["sql"])
    plan = plan_of(courts_sql, disabled=("seqscan", "bitmapscan"))
    index_line = next(line for line in plan.splitlines() if "booking_area_no_overlap" in line)
    condition = plan.splitlines()[plan.splitlines().index(index_line) + 1]
    assert "Index Cond" in condition and "area_id = " in condition and "&&" in condition, plan
