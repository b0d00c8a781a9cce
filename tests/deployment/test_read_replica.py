"""The database router with a read replica configured: lists, reports and marketplace search read from the replica;
every write, every read after a write in the same request, reads inside a transaction, credentials, the admin and
Celery tasks use the primary.

The replica here is a second connection to the primary's test database (a `TEST: {"MIRROR": "default"}` alias, as
config/settings.py configures it from DATABASE_REPLICA_URL), so the queries of each alias are told apart. The tests
are transactional: the replica connection only sees committed rows, as a real replica would.
"""

import datetime as dt
import os
import subprocess
import sys
from contextlib import ExitStack, contextmanager

import pytest
from django.db import connections, router, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from apps.clubs.models import Area, AreaType, Club
from apps.contacts.models import Contact
from apps.kernel import db_routing
from apps.organizations.models import ApiKey, Organization

ROUTER = "apps.kernel.db_routing.PrimaryReplicaRouter"
pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "replica"])


@pytest.fixture(scope="module", autouse=True)
def replica_alias(django_db_setup, django_db_blocker):
    """A `replica` alias mirroring the test database, added after the test databases exist."""
    mirror = dict(connections["default"].settings_dict)
    mirror["TEST"] = {**mirror.get("TEST", {}), "MIRROR": "default"}
    connections.settings[db_routing.REPLICA_DB_ALIAS] = mirror
    yield
    with django_db_blocker.unblock():
        connections[db_routing.REPLICA_DB_ALIAS].close()
    del connections[db_routing.REPLICA_DB_ALIAS]
    del connections.settings[db_routing.REPLICA_DB_ALIAS]


@pytest.fixture(autouse=True)
def routed(settings, replica_alias):
    settings.DATABASE_ROUTERS = [ROUTER]  # the router installed as DATABASE_REPLICA_URL installs it
    yield
    db_routing.end_request()


@contextmanager
def captured():
    """The queries of each alias during the block: {"default": [sql…], "replica": [sql…]}."""
    with ExitStack() as stack:
        contexts = {alias: stack.enter_context(CaptureQueriesContext(connections[alias])) for alias in connections}
        queries: dict[str, list[str]] = {}
        yield queries
    for alias, context in contexts.items():
        queries[alias] = [q["sql"] for q in context.captured_queries]


def touching(sqls: list[str], table: str) -> list[str]:
    return [sql for sql in sqls if f'"{table}"' in sql]


@pytest.fixture
def org():
    return Organization.objects.create(
        name="Replica Gym", slug="replica-gym", currency="EUR", default_tax_rate="21.00", timezone="Europe/Madrid"
    )


@pytest.fixture
def api(org):
    """A full-access client whose key was already used (so its `last_used_at` bookkeeping write is done)."""
    _, token = ApiKey.issue(organization=org, name="replica test", scopes=["*"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert client.get("/v1/platform/me").status_code == 200
    return client


@pytest.fixture
def contacts(org):
    return [Contact.objects.create(organization=org, first_name=name) for name in ("Ana", "Ben")]


def test_lists_read_from_the_replica_and_credentials_from_the_primary(api, contacts):
    with captured() as queries:
        response = api.get("/v1/platform/contacts?limit=10")
    assert response.status_code == 200
    assert {c["firstName"] for c in response.json()["data"]} == {"Ana", "Ben"}
    assert touching(queries["replica"], "contacts_contact")
    # The key is looked up on the primary (a revocation is live), never on the replica; nothing else is.
    assert queries["default"] and all("organizations_apikey" in sql for sql in queries["default"])
    assert not touching(queries["replica"], "organizations_apikey")


def test_single_objects_read_from_the_primary(api, contacts):
    with captured() as queries:
        response = api.get(f"/v1/platform/contacts/{contacts[0].pk}")
    assert response.status_code == 200
    assert touching(queries["default"], "contacts_contact")
    assert queries["replica"] == []


@pytest.mark.parametrize(
    "path", ["/v1/platform/invoices/summary", "/v1/platform/transactions/summary", "/v1/platform/analytics/summary"]
)
def test_reports_read_from_the_replica(api, contacts, path):
    with captured() as queries:
        response = api.get(path)
    assert response.status_code == 200, response.content
    assert queries["replica"]
    # The primary only answers the credential lookup.
    assert queries["default"] and all("organizations_apikey" in sql for sql in queries["default"])


@pytest.fixture
def listed_club(org):
    opening = {
        day: [["00:00", "24:00"]]
        for day in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    }
    club = Club.objects.create(
        organization=org,
        name="Replica Padel",
        slug="replica-padel",
        latitude=40.4168,
        longitude=-3.7038,
        timezone="Europe/Madrid",
        sports=["padel"],
        opening_hours=opening,
        marketplace_listed=True,
        city="Madrid",
        country="ES",
    )
    court_type = AreaType.objects.create(organization=org, slug="padel-court", name="Padel court", max_players=4)
    Area.objects.create(
        organization=org, club=club, area_type=court_type, name="Court 1", sports=["padel"], hourly_rate="20.00"
    )
    return club


def test_marketplace_club_search_reads_from_the_replica(listed_club):
    with captured() as queries:
        response = APIClient().get("/v1/public/search/clubs?lat=40.4168&lng=-3.7038")
    assert response.status_code == 200, response.content
    assert [c["name"] for c in response.json()["data"]] == ["Replica Padel"]
    assert touching(queries["replica"], "clubs_club")
    assert not touching(queries["default"], "clubs_club")


def test_the_offer_search_post_reads_from_the_replica(listed_club):
    day = dt.date.today() + dt.timedelta(days=7)
    body = {"lat": 40.4168, "lng": -3.7038, "date": day.isoformat(), "sports": ["padel"]}
    with captured() as queries:
        response = APIClient().post("/v1/public/network/search/offers", body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["data"], "the court has free times that day"
    assert touching(queries["replica"], "clubs_area")
    assert touching(queries["replica"], "bookings_booking")  # the raw busy-times query too
    assert queries["default"] == []


def test_writes_and_everything_in_a_write_request_use_the_primary(api, contacts):
    with captured() as queries:
        response = api.post("/v1/platform/contacts", {"firstName": "Cleo"}, format="json")
    assert response.status_code == 201, response.content
    assert queries["replica"] == []
    assert touching(queries["default"], "contacts_contact")
    # The next request starts afresh: its list reads the replica again and sees the committed row.
    with captured() as queries:
        response = api.get("/v1/platform/contacts?limit=10")
    assert {c["firstName"] for c in response.json()["data"]} == {"Ana", "Ben", "Cleo"}
    assert touching(queries["replica"], "contacts_contact")
    assert not touching(queries["default"], "contacts_contact")


def test_a_list_read_after_a_write_in_the_same_request_uses_the_primary(org, contacts):
    """A new key's first request writes its `last_used_at` while authenticating: the list that follows in the same
    request reads the primary."""
    _, token = ApiKey.issue(organization=org, name="fresh", scopes=["*"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    with captured() as queries:
        response = client.get("/v1/platform/contacts?limit=10")
    assert response.status_code == 200
    assert [sql for sql in queries["default"] if sql.startswith("UPDATE") and "organizations_apikey" in sql]
    assert touching(queries["default"], "contacts_contact")
    assert queries["replica"] == []


def test_reads_after_a_write_or_inside_a_transaction_stick_to_the_primary(org):
    db_routing.begin_request("GET")
    db_routing.read_from_replica()
    assert router.db_for_read(Contact) == "replica"
    with transaction.atomic():
        assert router.db_for_read(Contact) == "default"  # a read inside a transaction
    assert router.db_for_read(Contact) == "replica"
    Contact.objects.create(organization=org, first_name="Dan")
    assert router.db_for_read(Contact) == "default"  # after a write
    with captured() as queries:
        assert Contact.objects.filter(first_name="Dan").exists()
    assert queries["replica"] == []
    # A POST starts pinned; only a declared pure read (the offer search) unpins it, and never after a write.
    db_routing.begin_request("POST")
    db_routing.read_from_replica()
    assert router.db_for_read(Contact) == "default"
    db_routing.read_from_replica(read_only=True)
    assert router.db_for_read(Contact) == "replica"
    Contact.objects.filter(first_name="Dan").update(last_name="X")
    db_routing.read_from_replica(read_only=True)
    assert router.db_for_read(Contact) == "default"


def test_outside_requests_celery_tasks_and_the_shell_use_the_primary():
    db_routing.end_request()
    db_routing.read_from_replica()  # no request: nothing to allow
    assert router.db_for_read(Contact) == "default"
    assert router.db_for_write(Contact) == "default"


def test_the_admin_reads_from_the_primary(listed_club, django_user_model):
    admin = django_user_model.objects.create_superuser("ops", "ops@example.com", "a long password 123")
    client = APIClient()
    client.force_login(admin)
    with captured() as queries:
        response = client.get("/admin/clubs/club/")
    assert response.status_code == 200
    assert b"Replica Padel" in response.content
    assert touching(queries["default"], "clubs_club")
    assert queries["replica"] == []


def settings_with(env: dict) -> str:
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); django.setup();"
        "from django.conf import settings as s;"
        "print(sorted(s.DATABASES), getattr(s, 'DATABASE_ROUTERS', []),"
        " s.DATABASES.get('replica', {}).get('TEST', {}).get('MIRROR'), s.DATABASES.get('replica', {}).get('HOST'))"
    )
    environ = {k: v for k, v in os.environ.items() if k != "DATABASE_REPLICA_URL"} | env | {"DEBUG": "true"}
    result = subprocess.run([sys.executable, "-c", code], env=environ, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_database_replica_url_installs_the_replica_and_the_router():
    assert settings_with({}) == "['default'] [] None None"
    assert settings_with({"DATABASE_REPLICA_URL": "postgres://app@db-replica:5432/platform"}) == (
        f"['default', 'replica'] ['{ROUTER}'] default db-replica"
    )
