"""`customFields` is bounded in size and depth; a taken e-mail names the contact holding it only to a credential
that holds `contacts:read`."""

import json

import pytest

from apps.contacts.choices import ContactStatus
from apps.contacts.models import Contact

URL = "/v1/platform/contacts"
WRITE_ONLY = ["contacts:write", "contacts:delete"]


def nested(depth: int) -> dict:
    """An object nesting `depth` containers: nested(1) == {"k": 1}."""
    value = 1
    for _ in range(depth):
        value = {"k": value}
    return value


def test_custom_fields_up_to_16_kib_and_5_levels_are_stored(api):
    fields = {"notes": "", "deep": nested(4)}
    fields["notes"] = "x" * (16 * 1024 - len(json.dumps(fields, separators=(",", ":"))))  # exactly 16 KiB
    response = api.post(URL, {"firstName": "Ana", "customFields": fields}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["customFields"] == fields


@pytest.mark.parametrize(
    "custom_fields, message",
    [
        ({"notes": "x" * (16 * 1024)}, "Must be at most 16384 bytes as JSON."),
        (nested(6), "Must nest at most 5 levels deep."),
        ({"list": [[[[["too deep"]]]]]}, "Must nest at most 5 levels deep."),
        (nested(90), "Must nest at most 5 levels deep."),
    ],
)
def test_larger_or_deeper_custom_fields_are_400_on_the_field(api, custom_fields, message):
    response = api.post(URL, {"firstName": "Ana", "customFields": custom_fields}, format="json")
    assert response.status_code == 400, response.content
    assert response.json() == {
        "error": "Bad Request",
        "message": "The request is invalid.",
        "code": "VALIDATION_ERROR",
        "details": {"fields": {"customFields": [message]}},
    }
    assert not Contact.objects.exists()


def test_a_patch_is_bounded_the_same_way(api, contact):
    response = api.patch(f"{URL}/{contact.id}", {"customFields": nested(6)}, format="json")
    assert response.status_code == 400
    assert list(response.json()["details"]["fields"]) == ["customFields"]


def test_the_openapi_document_states_the_custom_fields_limits(client):
    components = client.get("/v1/openapi.json").json()["components"]["schemas"]
    description = components["ContactWriteRequest"]["properties"]["customFields"]["description"]
    assert description == "At most 16384 bytes as JSON, nested at most 5 levels deep."


# --- existingId only with contacts:read ---------------------------------------------------------------------------


def test_without_contacts_read_a_taken_email_does_not_name_the_contact(client_for, contact):
    response = client_for(WRITE_ONLY).post(URL, {"firstName": "Guess", "email": "ANA@example.com"}, format="json")
    assert response.status_code == 409
    assert response.json() == {
        "error": "Conflict",
        "message": "Another active contact already uses this e-mail.",
        "code": "DUPLICATE_VALUE",
        "details": {"field": "email"},
    }


def test_with_contacts_read_a_taken_email_names_the_contact(client_for, contact):
    client = client_for(WRITE_ONLY + ["contacts:read"])
    response = client.post(URL, {"firstName": "Guess", "email": contact.email}, format="json")
    assert response.status_code == 409
    assert response.json()["details"] == {"field": "email", "existingId": contact.id}


def test_without_contacts_read_a_patch_or_restore_onto_a_taken_email_does_not_name_the_contact(
    client_for, organization, contact
):
    client = client_for(WRITE_ONLY)
    other = Contact.objects.create(organization=organization, first_name="Bo", email="bo@example.com")
    response = client.patch(f"{URL}/{other.id}", {"email": contact.email}, format="json")
    assert response.status_code == 409 and response.json()["details"] == {"field": "email"}

    archived = Contact.objects.create(
        organization=organization, first_name="Cy", email=contact.email, status=ContactStatus.ARCHIVED
    )
    response = client.post(f"{URL}/{archived.id}/restore")
    assert response.status_code == 409 and response.json()["details"] == {"field": "email"}
