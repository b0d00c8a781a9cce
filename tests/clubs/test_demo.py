import pytest

from apps.clubs import demo
from apps.clubs.models import Amenity, Area, AreaType, Club, ClubReview

pytestmark = pytest.mark.django_db


def test_seed_is_idempotent_and_fills_ctx(organization, api):
    ctx = {}
    demo.seed(organization, ctx)
    demo.seed(organization, {})
    assert [c.city for c in ctx["clubs"]] == ["Madrid", "Barcelona", "Valencia", "Sevilla", "Lisboa", "Bilbao"]
    assert Club.objects.filter(organization=organization, marketplace_listed=True).count() == 5
    assert not Club.objects.get(organization=organization, slug="bilbao-ria").marketplace_listed
    assert all(c.latitude is not None and c.longitude is not None and c.opening_hours for c in ctx["clubs"])
    assert len(ctx["courts"]) == 14 and len(ctx["rooms"]) == 2
    assert all(court.hourly_rate is not None for court in ctx["courts"])
    assert Area.objects.filter(organization=organization).count() == 16
    assert AreaType.objects.get(organization=organization, slug="padel-court").max_players == 4
    assert set(Amenity.objects.values_list("code", flat=True)) >= {"parking", "showers", "cafe", "lockers"}
    assert ClubReview.objects.count() == 8
    body = api.get("/v1/platform/clubs/madrid-centro?locale=es").json()
    assert body["rating"] == {"average": 4.5, "total": 2}
    assert body["amenitiesResolved"][0] == {
        "id": "parking",
        "name": "Aparcamiento",
        "icon": "parking",
        "category": "access",
    }
    assert body["timezone"] == "Europe/Madrid"
    assert len(body["images"]) == 4  # the club's own image and its three courts' (the studio has none)
