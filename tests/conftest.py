"""Shared fixtures: organizations, credentials and API clients. Tests run on PostgreSQL and Redis (`make test`)."""

import pytest
from django.conf import global_settings, settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.db import connection
from django.db.backends.postgresql.operations import DatabaseOperations as PostgresOperations
from django.test import override_settings
from rest_framework.test import APIClient
from whitenoise.middleware import WhiteNoiseMiddleware

from apps.api import ratelimit
from apps.clubs.models import Area, AreaType, Club
from apps.contacts.models import Contact
from apps.marketplace import gazetteer
from apps.marketplace.models import Place, PlaceName
from apps.organizations.models import ApiKey, Organization

# Reference rows no test writes, kept by the flush after a transactional test: the gazetteer's 325k places (loaded
# by a migration) and the content types and permissions (which `post_migrate`, run after every flush, would
# otherwise insert again: 0.3 s a flush).
REFERENCE_TABLES = frozenset(
    {Place._meta.db_table, PlaceName._meta.db_table, ContentType._meta.db_table, Permission._meta.db_table}
)


def flush_by_deleting(self, style, tables, *, reset_sequences=False, allow_cascade=False):
    """The flush after each transactional test as DELETEs of every table but the reference tables, instead of
    Django's one TRUNCATE of all of them: a TRUNCATE gives each table and index a new file, 2-3 s a flush on a
    loaded 2-core machine (85 transactional tests); deleting the few rows a test left takes tens of milliseconds.
    The foreign keys are deferred (as Django creates them), so the order does not matter; the second round empties
    what a trigger (the revenue sums') wrote into a table the first round had already emptied."""
    if reset_sequences or allow_cascade:
        return TRUNCATING_FLUSH(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
    deletes = [f"DELETE FROM {self.quote_name(table)};" for table in tables if table not in REFERENCE_TABLES]
    return deletes * 2


TRUNCATING_FLUSH = PostgresOperations.sql_flush


def vacuum_test_tables():
    """Reclaim the dead rows earlier runs left in a reused test database (`--reuse-db`): the rolled-back tests'
    inserts and the flushes' deletes. A TRUNCATE used to give the tables new files; without it, and where
    autovacuum is off (as on this machine), every later scan reads them (the bad-input fingerprints most)."""
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM " + ", ".join(connection.ops.quote_name(t) for t in tables if t not in REFERENCE_TABLES))


_FINDER_FILES: dict = {}


def add_files_from_finders_once(self):
    """WhiteNoise's index of the installed apps' static files (`WHITENOISE_USE_FINDERS`), built once per process and
    configuration as in a server, where one middleware instance serves every request, instead of once per test
    client (each builds its own middleware: 10-20 ms, and a run makes thousands of clients)."""
    key = (
        self.static_prefix,
        self.max_age,  # DEBUG decides it unless WHITENOISE_MAX_AGE does
        tuple(settings.INSTALLED_APPS),
        tuple(map(str, settings.STATICFILES_DIRS)),
        tuple(settings.STATICFILES_FINDERS),
        tuple((name, repr(getattr(settings, name))) for name in dir(settings) if name.startswith("WHITENOISE_")),
    )
    found = _FINDER_FILES.get(key)
    if found is None:
        before = dict(self.files)
        ADD_FILES_FROM_FINDERS(self)
        found = _FINDER_FILES[key] = {url: file for url, file in self.files.items() if before.get(url) is not file}
    self.files.update(found)


ADD_FILES_FROM_FINDERS = WhiteNoiseMiddleware.add_files_from_finders


@pytest.fixture(scope="session", autouse=True)
def _static_files_indexed_once():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(WhiteNoiseMiddleware, "add_files_from_finders", add_files_from_finders_once)
        yield


class FastPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """Django's PBKDF2 with 1,000 iterations for the passwords and OAuth client secrets tests hash (1,000,000 take
    0.5-0.75 s each on this machine, and many tests make a user or a client). The hash names its iterations, so a
    server the tests start (gunicorn, with Django's own hashers) verifies it as any other."""

    iterations = 1000


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing():
    hashers = [f"{__name__}.{FastPBKDF2PasswordHasher.__name__}", *global_settings.PASSWORD_HASHERS]
    with override_settings(PASSWORD_HASHERS=hashers):
        yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The gazetteer's rows come with a migration; a test database flushed by Django's own flush (before
    `flush_by_deleting`, or `manage.py flush`) and reused (`--reuse-db`) gets them again."""
    with django_db_blocker.unblock():
        if not Place.objects.exists():
            gazetteer.load_places(Place, PlaceName)
        vacuum_test_tables()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PostgresOperations, "sql_flush", flush_by_deleting)
        yield


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    ratelimit.forget_addresses()
    yield


@pytest.fixture
def organization(db):
    return Organization.objects.create(
        name="Padel Palace",
        slug="padel-palace",
        currency="EUR",
        default_tax_rate="21.00",
        default_language="en",
        offered_languages=["en", "es"],
        timezone="Europe/Madrid",
        plan="pro",
    )


@pytest.fixture
def other_organization(db):
    return Organization.objects.create(name="Rival Gym", slug="rival-gym", currency="USD", plan="pro")


@pytest.fixture
def make_token(organization):
    """make_token(scopes="*", organization=None, **fields) -> plaintext token."""

    def make(scopes="*", organization_=None, **fields):
        scopes = scopes.split() if isinstance(scopes, str) else list(scopes)
        _, token = ApiKey.issue(
            organization=organization_ or organization, name=fields.pop("name", "test key"), scopes=scopes, **fields
        )
        return token

    return make


@pytest.fixture
def client_for(make_token):
    """client_for(scopes="*", organization=None) -> an APIClient sending that credential."""

    def make(scopes="*", organization=None):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {make_token(scopes, organization)}")
        return client

    return make


@pytest.fixture
def make_oauth_token(organization, django_user_model):
    """make_oauth_token(scopes="*", organization=None, resource=None) -> an OAuth access token, as the token
    endpoint issues it after consent (a grant of a test client, by a user of that organization)."""
    from apps.oauth.services import issue_tokens

    def make(scopes="*", organization_=None, resource=None, client_name="Test client"):
        user = django_user_model.objects.create_user(
            username=f"oauth-user-{django_user_model.objects.count()}", password="correct-horse-battery"
        )
        _, access, _ = issue_tokens(
            organization=organization_ or organization,
            user=user,
            scopes=scopes,
            resource=resource,
            client_name=client_name,
        )
        return access

    return make


@pytest.fixture
def api(client_for):
    """A full-access client of `organization`."""
    return client_for("*")


@pytest.fixture
def club(organization):
    return Club.objects.create(
        organization=organization,
        name="Centre Court",
        slug="centre-court",
        timezone="Europe/Madrid",
        city="Madrid",
        country="ES",
        sports=["padel", "tennis"],
        opening_hours={
            d: [["08:00", "22:00"]]
            for d in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
        },
    )


@pytest.fixture
def area_type(organization):
    return AreaType.objects.create(organization=organization, name="Padel court", slug="padel-court", max_players=4)


@pytest.fixture
def area(organization, club, area_type):
    return Area.objects.create(
        organization=organization, club=club, area_type=area_type, name="Court 1", sports=["padel"], hourly_rate="20.00"
    )


@pytest.fixture
def contact(organization):
    return Contact.objects.create(
        organization=organization, first_name="Ana", last_name="Lopez", email="ana@example.com"
    )
