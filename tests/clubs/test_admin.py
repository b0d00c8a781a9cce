import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from apps.clubs.models import Area, Club
from apps.organizations.models import StaffMembership
from tests.factories import make_area, make_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(client):
    user = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(user)
    return client


@pytest.fixture
def staff_client(client, organization):
    user = get_user_model().objects.create_user("staff", "staff@example.com", "pw", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="clubs"))
    StaffMembership.objects.create(user=user, organization=organization, role="admin")
    client.force_login(user)
    return client


def test_superuser_sees_every_changelist(superuser_client, organization, other_organization, area):
    make_area(other_organization)
    for model in (
        "clubs/club",
        "clubs/area",
        "clubs/areatype",
        "occupancy/areablock",
        "clubs/amenity",
        "clubs/clubreview",
    ):
        response = superuser_client.get(f"/admin/{model}/")
        assert response.status_code == 200, model
    assert superuser_client.get(f"/admin/clubs/club/{area.club_id}/change/").status_code == 200


def test_staff_sees_only_their_organizations(staff_client, organization, other_organization, club):
    foreign = make_club(other_organization, name="Rival Arena")
    response = staff_client.get("/admin/clubs/club/")
    assert response.status_code == 200
    assert "Centre Court" in response.content.decode() and "Rival Arena" not in response.content.decode()
    assert staff_client.get(f"/admin/clubs/club/{foreign.id}/change/").status_code == 302  # redirected: not found


def test_edit_opening_hours_closed_dates_and_closing_date(superuser_client, club):
    data = {
        "organization": club.organization_id,
        "name": "Centre Court",
        "slug": "centre-court",
        "description": "",
        "is_active": "on",
        "timezone": "Europe/Madrid",
        "images": "[]",
        "amenities": "[]",
        "sports": '["padel"]',
        "social_profiles": "{}",
        "opening_hours": '{"monday": [["09:00", "21:00"]]}',
        "closed_dates": '["2026-12-25"]',
        "closing_date": "2030-01-31",
        "areas-TOTAL_FORMS": "0",
        "areas-INITIAL_FORMS": "0",
        "areas-MIN_NUM_FORMS": "0",
        "areas-MAX_NUM_FORMS": "1000",
    }
    response = superuser_client.post(f"/admin/clubs/club/{club.id}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    club.refresh_from_db()
    assert club.opening_hours == {"monday": [["09:00", "21:00"]]}
    assert club.closed_dates == ["2026-12-25"]
    assert str(club.closing_date) == "2030-01-31"

    bad = {**data, "opening_hours": '{"monday": [["22:00", "08:00"]]}'}
    response = superuser_client.post(f"/admin/clubs/club/{club.id}/change/", bad)
    assert response.status_code == 200 and "opens &lt; closes" in response.content.decode()
    assert Club.objects.get().opening_hours == {"monday": [["09:00", "21:00"]]}


def test_add_area_takes_the_club_organization(superuser_client, club):
    response = superuser_client.post(
        "/admin/clubs/area/add/",
        {"club": club.id, "name": "Court 9", "sports": "[]", "images": "[]", "position": "0", "is_active": "on"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Area.objects.get().organization_id == club.organization_id
