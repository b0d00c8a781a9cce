"""`bio` is bounded in size and depth, a new contact's e-mail in length; a taken e-mail names the contact holding
it only to a credential that holds `contacts:read`."""

import pytest

from apps.contacts.models import Contact
from apps.instructors.models import Instructor

URL = "/v1/platform/instructors"


def nested(depth: int) -> dict:
    value = 1
    for _ in range(depth):
        value = {"k": value}
    return value


def editor_document():
    """A block-editor bio with a nested list: eight levels deep."""
    item = {"content": "Padel", "items": [{"content": "Beginners", "items": []}]}
    return {"blocks": [{"type": "list", "data": {"style": "unordered", "items": [item]}}]}


def test_a_block_editor_bio_with_nested_lists_is_stored(api, contact):
    response = api.post(URL, {"contactId": contact.id, "bio": editor_document()}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["bio"] == editor_document()


@pytest.mark.parametrize(
    "bio, message",
    [
        (
            {"blocks": [{"type": "paragraph", "data": {"text": "x" * (64 * 1024)}}]},
            "Must be at most 65536 bytes as JSON.",
        ),
        (nested(11), "Must nest at most 10 levels deep."),
    ],
)
def test_larger_or_deeper_bios_are_400_on_bio(api, contact, bio, message):
    response = api.post(URL, {"contactId": contact.id, "bio": bio}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["details"] == {"fields": {"bio": [message]}}
    assert not Instructor.objects.exists()


def test_a_patch_of_bio_is_bounded_the_same_way(api, organization, contact):
    instructor = Instructor.objects.create(organization=organization, contact=contact)
    response = api.patch(f"{URL}/{instructor.id}", {"bio": nested(11)}, format="json")
    assert response.status_code == 400
    assert list(response.json()["details"]["fields"]) == ["bio"]


def test_a_new_contact_email_longer_than_254_characters_is_400(api):
    body = {"contact": {"firstName": "Long", "email": "a" * 250 + "@example.com"}}
    response = api.post(URL, body, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()["details"]["fields"]) == ["contact.email"]
    assert not Contact.objects.exists()


def test_the_openapi_document_states_the_bio_limits(client):
    components = client.get("/v1/openapi.json").json()["components"]["schemas"]
    bio = components["InstructorCreateRequest"]["properties"]["bio"]
    assert bio["description"] == "Block-editor document. At most 65536 bytes as JSON, nested at most 10 levels deep."
    assert components["InstructorNewContactRequest"]["properties"]["email"]["oneOf"][0]["maxLength"] == 254


def test_without_contacts_read_a_taken_email_does_not_name_the_contact(client_for, contact):
    body = {"contact": {"firstName": "Guess", "email": contact.email}}
    response = client_for(["instructors:write"]).post(URL, body, format="json")
    assert response.status_code == 409
    assert response.json() == {
        "error": "Conflict",
        "message": "A contact with this e-mail already exists; send its `contactId` instead.",
        "code": "DUPLICATE_VALUE",
        "details": {"field": "contact.email"},
    }


def test_with_contacts_read_a_taken_email_names_the_contact(client_for, contact):
    body = {"contact": {"firstName": "Guess", "email": contact.email}}
    response = client_for(["instructors:write", "contacts:read"]).post(URL, body, format="json")
    assert response.status_code == 409
    assert response.json()["details"] == {"field": "contact.email", "existingId": contact.id}
