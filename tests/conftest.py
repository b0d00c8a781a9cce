"""Shared fixtures: organizations, credentials and API clients. Tests run on PostgreSQL and Redis (`make test`)."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from apps.api import ratelimit
from apps.clubs.models import Area, AreaType, Club
from apps.contacts.models import Contact
from apps.marketplace import gazetteer
from apps.marketplace.models import Place, PlaceName
from apps.organizations.models import ApiKey, Organization


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The gazetteer's rows come with a migration; a transactional test's flush empties its tables, and a reused
    test database (`--reuse-db`) would then stay without them."""
    with django_db_blocker.unblock():
        if not Place.objects.exists():
            gazetteer.load_places(Place, PlaceName)


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
