"""GET and PATCH /v1/platform/organization."""

import datetime as dt

import pytest

from apps.organizations.models import Organization

URL = "/v1/platform/organization"
DEFAULT_NAMES = {"area": "Area", "class": "Class", "instructor": "Instructor", "event": "Event"}


@pytest.fixture
def writer(client_for):
    return client_for("organization:write")


def test_get_needs_no_scope_and_has_the_exact_shape(client_for, organization):
    response = client_for([]).get(URL)
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"id", "name", "defaultLanguage", "offeredLanguages", "bookingCardNames", "updatedAt"}
    assert body["id"] == organization.id
    assert body["name"] == "Padel Palace"
    assert body["defaultLanguage"] == "en"
    assert body["offeredLanguages"] == ["en", "es"]
    assert body["bookingCardNames"] == DEFAULT_NAMES
    assert body["updatedAt"].endswith("Z")
    assert "currency" not in body


def test_patch_replaces_languages_and_names_and_takes_effect_immediately(writer, client_for, organization):
    body = {"offeredLanguages": ["en", "ca", "pt-BR"], "bookingCardNames": {"area": "Court", "class": "Session"}}
    response = writer.patch(URL, body, format="json")
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["offeredLanguages"] == ["en", "ca", "pt-BR"]
    assert data["bookingCardNames"] == {**DEFAULT_NAMES, "area": "Court", "class": "Session"}
    organization.refresh_from_db()
    assert organization.offered_languages == ["en", "ca", "pt-BR"]
    assert organization.booking_card_names == {"area": "Court", "class": "Session"}
    assert client_for([]).get(URL).json() == data

    # an object replaces the stored one (no deep merge)
    data = writer.patch(URL, {"bookingCardNames": {"event": "Tournament"}}, format="json").json()
    assert data["bookingCardNames"] == {**DEFAULT_NAMES, "event": "Tournament"}
    assert data["offeredLanguages"] == ["en", "ca", "pt-BR"]  # omitted field unchanged


def test_patch_ignores_read_only_and_unknown_fields(writer, organization):
    response = writer.patch(
        URL, {"name": "Hacked", "defaultLanguage": "fr", "currency": "USD", "id": 9, "whatever": 1}, format="json"
    )
    assert response.status_code == 200
    organization.refresh_from_db()
    assert (organization.name, organization.default_language, organization.currency) == ("Padel Palace", "en", "EUR")


def test_patch_with_empty_body_changes_nothing(writer, organization):
    before = Organization.objects.get(pk=organization.pk).updated_at
    response = writer.patch(URL)
    assert response.status_code == 200
    assert response.json()["offeredLanguages"] == ["en", "es"]
    assert Organization.objects.get(pk=organization.pk).updated_at == before


def test_duplicate_languages_are_stored_once(writer, organization):
    response = writer.patch(URL, {"offeredLanguages": ["en", "es", "en"]}, format="json")
    assert response.json()["offeredLanguages"] == ["en", "es"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"offeredLanguages": ["es", "fr"]}, "offeredLanguages"),  # without the default language
        ({"offeredLanguages": []}, "offeredLanguages"),
        ({"offeredLanguages": None}, "offeredLanguages"),
        ({"offeredLanguages": "en"}, "offeredLanguages"),
        ({"offeredLanguages": ["en", "English"]}, "offeredLanguages.1"),
        ({"offeredLanguages": ["en", 7]}, "offeredLanguages.1"),
        ({"offeredLanguages": ["en", "x" * 200]}, "offeredLanguages.1"),
        ({"bookingCardNames": {"court": "Court"}}, "bookingCardNames"),
        ({"bookingCardNames": {"area": "x" * 61}}, "bookingCardNames.area"),
        ({"bookingCardNames": {"area": ""}}, "bookingCardNames.area"),
        ({"bookingCardNames": {"area": None}}, "bookingCardNames.area"),
        ({"bookingCardNames": {"area": {"en": "Court"}}}, "bookingCardNames.area"),
        ({"bookingCardNames": ["area"]}, "bookingCardNames"),
        ({"bookingCardNames": None}, "bookingCardNames"),
    ],
)
def test_invalid_values_are_400_on_the_field_and_nothing_is_stored(writer, organization, body, field):
    response = writer.patch(URL, body, format="json")
    assert response.status_code == 400, response.content
    error = response.json()
    assert error["code"] == "VALIDATION_ERROR"
    assert error["error"] == "Bad Request"
    assert field in error["details"]["fields"], error
    organization.refresh_from_db()
    assert organization.offered_languages == ["en", "es"]
    assert organization.booking_card_names == {}


def test_a_sixty_character_name_is_accepted(writer):
    response = writer.patch(URL, {"bookingCardNames": {"instructor": "y" * 60}}, format="json")
    assert response.status_code == 200
    assert response.json()["bookingCardNames"]["instructor"] == "y" * 60


def test_a_json_array_body_is_400(writer):
    response = writer.patch(URL, [1, 2], format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"


def test_patch_refused_without_scope_and_put_is_not_offered(client_for, organization):
    response = client_for("classes:write").patch(URL, {"offeredLanguages": ["en"]}, format="json")
    assert response.status_code == 403
    assert response.json() == {"error": "Insufficient access scope", "requiredScope": "organization:write"}
    for method in ("put", "post", "delete"):
        response = getattr(client_for("*"), method)(URL, {}, format="json")
        assert response.status_code == 405
        assert response.json()["code"] == "METHOD_NOT_ALLOWED"
        assert response["Allow"] == "GET, PATCH, HEAD"


def test_other_organization_sees_its_own_settings(client_for, other_organization):
    body = client_for("*", other_organization).get(URL).json()
    assert body["id"] == other_organization.id
    assert body["offeredLanguages"] == ["en"]


def test_updated_at_moves_on_a_change(writer, organization):
    Organization.objects.filter(pk=organization.pk).update(updated_at=dt.datetime(2020, 1, 1, tzinfo=dt.UTC))
    data = writer.patch(URL, {"offeredLanguages": ["en"]}, format="json").json()
    assert not data["updatedAt"].startswith("2020")


def test_settings_operations_are_in_the_openapi_document(api):
    document = api.get("/v1/openapi.json").json()
    path = document["paths"]["/v1/platform/organization"]
    assert path["get"]["operationId"] == "organization_get"
    assert path["patch"]["operationId"] == "organization_update"
    assert path["patch"]["x-required-scope"] == "organization:write"
    assert "put" not in path
