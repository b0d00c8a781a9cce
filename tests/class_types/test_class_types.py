"""Class types and progression tracks through the HTTP API."""

import datetime as dt

import pytest

from apps.classes.choices import ClassStatus
from apps.classes.models import ClassOccurrence, ClassType, ProgressionLevel, ProgressionTrack
from tests.factories import make_class

URL = "/v1/platform/class-types"
TRACKS = "/v1/platform/progression-tracks"


@pytest.fixture
def yoga(organization):
    return ClassType.objects.create(
        organization=organization,
        name="Yoga",
        slug="yoga",
        description="Stretch",
        max_party_size=2,
        color="#00AA88",
        sport="yoga",
        translations={"es": {"name": "Yoga ES", "description": "Estirar"}, "en": {"name": "Yoga EN"}},
    )


def morning_yoga(organization, club, class_type):
    return make_class(
        organization,
        club,
        class_type=class_type,
        name="Morning yoga",
        start=dt.datetime(2030, 1, 7, 9, tzinfo=dt.UTC),
        bare=True,
    )


def test_create_minimal(api, organization):
    response = api.post(URL, {"name": "HIIT"}, format="json")
    assert response.status_code == 201, response.content
    class_type = ClassType.objects.get(organization=organization)
    body = response.json()
    assert body == {
        "id": class_type.id,
        "name": "HIIT",
        "slug": None,
        "description": None,
        "maxPartySize": None,
        "color": None,
        "sport": None,
        "isActive": True,
        "translations": {},
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    assert body["createdAt"].endswith("Z")
    assert response["Location"] == f"{URL}/{class_type.id}"


def test_create_full_ignores_translations_and_read_only_fields(api, organization):
    response = api.post(
        URL,
        {
            "name": "Padel clinic",
            "slug": "padel-clinic",
            "description": "Drills",
            "maxPartySize": 2,
            "color": "#FF0000",
            "sport": "padel",
            "isActive": False,
            "translations": {"es": {"name": "Clínica"}},
            "id": 999,
            "unknown": True,
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["id"] != 999
    assert (body["slug"], body["maxPartySize"], body["color"], body["sport"], body["isActive"]) == (
        "padel-clinic",
        2,
        "#FF0000",
        "padel",
        False,
    )
    assert body["translations"] == {}
    assert ClassType.objects.get(pk=body["id"]).translations == {}


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"name": "A", "maxPartySize": 0}, "maxPartySize"),
        ({"name": "A", "maxPartySize": "two"}, "maxPartySize"),
        ({"name": "A", "color": "red"}, "color"),
        ({"name": "A", "slug": "Not a slug"}, "slug"),
        ({"name": "A", "isActive": None}, "isActive"),
    ],
)
def test_create_validation(api, body, field):
    response = api.post(URL, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert field in response.json()["details"]["fields"]


def test_duplicate_slug_is_409(api, yoga, organization, other_organization):
    response = api.post(URL, {"name": "Other yoga", "slug": "yoga"}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "DUPLICATE_VALUE"
    assert response.json()["details"] == {"field": "slug", "existingId": yoga.id}
    # Null slugs never collide; another organization's slug is no conflict.
    assert api.post(URL, {"name": "A"}, format="json").status_code == 201
    assert api.post(URL, {"name": "B", "slug": None}, format="json").status_code == 201
    ClassType.objects.create(organization=other_organization, name="Theirs", slug="theirs")
    assert api.post(URL, {"name": "Mine", "slug": "theirs"}, format="json").status_code == 201


def test_patch(api, yoga, organization):
    other = ClassType.objects.create(organization=organization, name="Pilates", slug="pilates")
    assert api.patch(f"{URL}/{other.id}", {"slug": "yoga"}, format="json").status_code == 409
    response = api.patch(f"{URL}/{yoga.id}", {"slug": "yoga", "maxPartySize": None, "color": None}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["slug"], body["maxPartySize"], body["color"], body["description"]) == ("yoga", None, None, "Stretch")
    yoga.refresh_from_db()
    assert yoga.max_party_size is None and yoga.color is None
    assert api.patch(f"{URL}/{yoga.id}", {"name": None}, format="json").status_code == 400


def test_get_and_locale(api, yoga, organization):
    body = api.get(f"{URL}/{yoga.id}").json()
    # No locale: the organization's default language (en).
    assert (body["name"], body["description"]) == ("Yoga EN", "Stretch")
    assert body["translations"] == {"es": {"name": "Yoga ES", "description": "Estirar"}, "en": {"name": "Yoga EN"}}
    es = api.get(f"{URL}/{yoga.id}?locale=es").json()
    assert (es["name"], es["description"]) == ("Yoga ES", "Estirar")
    unknown = api.get(f"{URL}/{yoga.id}?locale=xx").json()
    assert unknown["name"] == "Yoga EN"
    listed = api.get(f"{URL}?locale=es").json()["data"][0]
    assert listed["name"] == "Yoga ES"


def test_list(api, yoga, organization, other_organization):
    hidden = ClassType.objects.create(organization=organization, name="Old", is_active=False)
    ClassType.objects.create(organization=other_organization, name="Theirs")
    body = api.get(URL).json()
    assert body["total"] == 2 and body["limit"] == 50 and body["offset"] == 0
    assert [row["id"] for row in body["data"]] == [hidden.id, yoga.id]  # newest first
    assert [r["id"] for r in api.get(f"{URL}?isActive=false").json()["data"]] == [hidden.id]
    assert [r["id"] for r in api.get(f"{URL}?ordering=name").json()["data"]] == [hidden.id, yoga.id]
    assert [r["id"] for r in api.get(f"{URL}?q=yo").json()["data"]] == [yoga.id]
    page = api.get(f"{URL}?limit=1&offset=1").json()
    assert (page["total"], page["limit"], page["offset"], [r["id"] for r in page["data"]]) == (2, 1, 1, [yoga.id])
    assert api.get(f"{URL}?ordering=color").status_code == 400
    assert api.get(f"{URL}?isActive=1").status_code == 400


def test_delete(api, yoga):
    response = api.delete(f"{URL}/{yoga.id}")
    assert response.status_code == 204
    assert response.content == b""
    assert not ClassType.objects.filter(pk=yoga.pk).exists()
    assert api.get(f"{URL}/{yoga.id}").status_code == 404


def test_delete_in_use_is_409(api, yoga, organization, club):
    morning_yoga(organization, club, yoga)
    cancelled = morning_yoga(organization, club, yoga)
    cancelled.status = ClassStatus.CANCELLED
    cancelled.save()
    response = api.delete(f"{URL}/{yoga.id}")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "RESOURCE_IN_USE"
    assert body["details"] == {"references": {"classes": 2}}
    assert ClassType.objects.filter(pk=yoga.pk).exists()


def test_put_is_not_offered(api, yoga):
    response = api.put(f"{URL}/{yoga.id}", {"name": "X"}, format="json")
    assert response.status_code == 405
    assert "PUT" not in response["Allow"]


def test_read_scope_cannot_write(client_for, yoga):
    client = client_for(["classes:read"])
    assert client.get(f"{URL}/{yoga.id}").status_code == 200
    response = client.delete(f"{URL}/{yoga.id}")
    assert response.status_code == 403
    assert response.json() == {"error": "Insufficient access scope", "requiredScope": "classes:write"}


# --- progression tracks ---------------------------------------------------------------------------------------


@pytest.fixture
def track(organization, yoga):
    track = ProgressionTrack.objects.create(
        organization=organization,
        name="Yoga path",
        slug="yoga-path",
        description="From zero",
        translations={"es": {"name": "Camino", "description": "Desde cero"}},
    )
    track.class_types.add(yoga)
    ProgressionLevel.objects.create(track=track, name="Advanced", position=2)
    ProgressionLevel.objects.create(track=track, name="Beginner", position=1)
    return track


def test_track_list_and_get(api, track, yoga, organization):
    levels = list(track.levels.order_by("position"))
    expected = {
        "id": track.id,
        "name": "Yoga path",
        "slug": "yoga-path",
        "description": "From zero",
        "classTypeIds": [yoga.id],
        "levels": [{"id": lvl.id, "name": lvl.name, "position": lvl.position} for lvl in levels],
        "translations": {"es": {"name": "Camino", "description": "Desde cero"}},
    }
    body = api.get(TRACKS).json()
    assert body["total"] == 1
    row = body["data"][0]
    assert {k: v for k, v in row.items() if k not in ("createdAt", "updatedAt")} == expected
    assert [lvl["name"] for lvl in row["levels"]] == ["Beginner", "Advanced"]
    one = api.get(f"{TRACKS}/{track.id}?locale=es").json()
    assert (one["name"], one["description"]) == ("Camino", "Desde cero")


def test_track_filter_by_class_type(api, track, yoga, organization):
    other_type = ClassType.objects.create(organization=organization, name="HIIT")
    other = ProgressionTrack.objects.create(organization=organization, name="HIIT path", slug="hiit")
    other.class_types.add(other_type, yoga)
    assert {r["id"] for r in api.get(f"{TRACKS}?classTypeId={yoga.id}").json()["data"]} == {track.id, other.id}
    assert [r["id"] for r in api.get(f"{TRACKS}?classTypeId={other_type.id}").json()["data"]] == [other.id]
    assert api.get(f"{TRACKS}?classTypeId=abc").status_code == 400


def test_tracks_are_read_only(api, track):
    assert api.post(TRACKS, {"name": "X", "slug": "x"}, format="json").status_code == 405
    assert api.patch(f"{TRACKS}/{track.id}", {"name": "X"}, format="json").status_code == 405
    assert api.delete(f"{TRACKS}/{track.id}").status_code == 405


def test_track_list_query_count_is_constant(api, organization, django_assert_max_num_queries):
    for i in range(6):
        track = ProgressionTrack.objects.create(organization=organization, name=f"T{i}", slug=f"t{i}")
        track.class_types.add(ClassType.objects.create(organization=organization, name=f"C{i}"))
        ProgressionLevel.objects.create(track=track, name="L1", position=1)
    with django_assert_max_num_queries(6):
        assert api.get(TRACKS).json()["total"] == 6


def test_slug_taken_by_a_concurrent_write_is_409_not_500(api, organization, monkeypatch):
    """The unique constraint, not only the pre-check, answers DUPLICATE_VALUE (a racing create got there first)."""
    from apps.kernel import slugs

    existing = ClassType.objects.create(organization=organization, name="Yoga", slug="yoga")
    real = slugs.holder_of
    calls = []

    def first_check_misses(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs) if len(calls) > 1 else None

    monkeypatch.setattr(slugs, "holder_of", first_check_misses)
    response = api.post("/v1/platform/class-types", {"name": "Yoga 2", "slug": "yoga"}, format="json")
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "DUPLICATE_VALUE"
    assert response.json()["details"] == {"field": "slug", "existingId": existing.id}
    assert ClassType.objects.count() == 1


def test_delete_racing_a_new_class_is_409_not_500(api, organization, club, monkeypatch):
    from apps.classes import type_services

    class_type = ClassType.objects.create(organization=organization, name="Yoga")
    ClassOccurrence.objects.create(
        organization=organization,
        club=club,
        class_type=class_type,
        name="Yoga",
        start_time=dt.datetime(2031, 1, 1, 10, tzinfo=dt.UTC),
        end_time=dt.datetime(2031, 1, 1, 11, tzinfo=dt.UTC),
    )
    real = type_services._refuse_if_in_use
    calls = []

    def first_check_misses(ct):
        calls.append(ct)
        if len(calls) > 1:
            return real(ct)

    monkeypatch.setattr(type_services, "_refuse_if_in_use", first_check_misses)
    response = api.delete(f"/v1/platform/class-types/{class_type.id}")
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "RESOURCE_IN_USE"
    assert ClassType.objects.filter(pk=class_type.pk).exists()
