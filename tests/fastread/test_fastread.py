"""apps.api.fastread: the same rows as the ORM (values, types, time zones), counts equal to Django's, one query."""

import datetime as dt
import os

import pytest
from django.db import connection
from django.db.models import Q, Value
from django.db.models.functions import Concat
from django.test.utils import CaptureQueriesContext

from apps.api.fastread import ValuesPage, cheap_count, fetch, fetch_values, fetch_values_list
from apps.contacts.models import Contact, PipelineStage
from apps.contacts.resources import CONTACT

pytestmark = pytest.mark.django_db


@pytest.fixture
def contacts(organization):
    stage = PipelineStage.objects.create(organization=organization, name="Lead", position=1)
    rows = [
        Contact.objects.create(
            organization=organization,
            first_name=f"Ana{i}",
            last_name="Ruiz",
            email=f"ana{i}@example.com",
            date_of_birth=dt.date(1990, 1, 1 + i),
            pipeline_stage=stage if i % 2 else None,
            tags=["vip", f"t{i}"] if i % 3 else [],
            custom_fields={"shoe": 40 + i, "nested": {"a": [1, 2.5, None, "é"]}},
        )
        for i in range(5)
    ]
    Contact.objects.filter(pk=rows[0].pk).update(created_at=dt.datetime(2024, 3, 1, 10, 0, 0, 123456, tzinfo=dt.UTC))
    return rows


def test_fetch_values_equals_the_orm(organization, contacts):
    qs = CONTACT.values(Contact.objects.filter(organization=organization).order_by("-created_at", "-id"))
    fast, orm = fetch_values(qs), list(qs)
    assert fast == orm
    for a, b in zip(fast, orm, strict=True):
        for key in a:
            assert type(a[key]) is type(b[key]), key
        assert a["created_at"].tzinfo is dt.UTC
    first = next(r for r in fast if r["id"] == contacts[0].pk)
    assert first["created_at"] == dt.datetime(2024, 3, 1, 10, 0, 0, 123456, tzinfo=dt.UTC)
    assert first["custom_fields"] == {"shoe": 40, "nested": {"a": [1, 2.5, None, "é"]}}


def test_fast_loaders_are_on_for_postgresql_only_on_the_helper_cursor(organization, contacts):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    fetch_values(Contact.objects.values("id", "custom_fields"))
    if os.environ.get("FAST_READ") == "0":  # `make test` runs the list tests a second time with the switch off
        assert connection._fast_read_loaders is None
    else:
        assert connection._fast_read_loaders  # UTC session: the fast loaders apply
    # The ORM elsewhere still reads JSON through Django's converters.
    contact = Contact.objects.get(pk=contacts[1].pk)
    assert contact.custom_fields["shoe"] == 41
    assert isinstance(Contact.objects.values_list("created_at", flat=True).first(), dt.datetime)


def test_values_list_flat_and_slices(organization, contacts):
    qs = Contact.objects.filter(organization=organization).order_by("id")
    assert fetch_values_list(qs.values_list("id", flat=True)) == list(qs.values_list("id", flat=True))
    assert fetch_values_list(qs.values_list("id", "tags")[1:3]) == list(qs.values_list("id", "tags")[1:3])
    assert fetch(qs.values("id")[2:4]) == list(qs.values("id")[2:4])
    assert fetch(qs) == list(qs)  # model instances: the ORM path
    assert fetch_values(qs.values("id").filter(id__in=[])) == []


def test_cheap_count_matches_django_count(organization, other_organization, contacts, area):
    from tests.bookings.factories import area_booking

    Contact.objects.create(organization=other_organization, first_name="Other")
    for _ in range(2):
        area_booking(organization, contact=contacts[1])
    base = Contact.objects.filter(organization=organization)
    querysets = [
        CONTACT.values(base.order_by("-created_at")),
        CONTACT.values(base.filter(pipeline_stage__name="Lead")),
        base.annotate(full=Concat("first_name", Value(" "), "last_name")).filter(full__icontains="ana1 ruiz"),
        base.filter(Q(tags__contains=["vip"]) | Q(email__iexact="ana0@example.com")).values("id", "source__name"),
        base.values("id", "bookings__id"),  # a reverse join multiplies rows: it must stay
        base.values("pipeline_stage__name").distinct(),
    ]
    for qs in querysets:
        assert cheap_count(qs) == qs.count(), str(qs.query)


def test_count_drops_select_only_joins(organization, contacts):
    qs = CONTACT.values(Contact.objects.filter(organization=organization).order_by("-created_at"))
    with CaptureQueriesContext(connection) as ctx:
        assert cheap_count(qs) == 5
    assert "JOIN" not in ctx.captured_queries[0]["sql"]
    assert "ORDER BY" not in ctx.captured_queries[0]["sql"]


def test_values_page(organization, contacts):
    page = ValuesPage(Contact.objects.filter(organization=organization).order_by("id"), lambda q: q.values("id"))
    assert page.count() == 5
    assert page[1:3] == [{"id": contacts[1].pk}, {"id": contacts[2].pk}]
    assert len(page.all()) == 5


def test_contacts_list_uses_three_queries_whatever_the_page(api, organization, django_assert_max_num_queries):
    Contact.objects.bulk_create(Contact(organization=organization, first_name=f"N{i}") for i in range(60))
    api.get("/v1/platform/contacts?limit=200")
    with django_assert_max_num_queries(3):  # key + organization, count, page
        response = api.get("/v1/platform/contacts?limit=200")
    assert response.status_code == 200
    assert response.json()["total"] == 60
    assert len(response.json()["data"]) == 60
    assert response.json()["data"][0]["createdAt"].endswith("Z")
