"""Typed input (decisions/foundation-api.md #21): contact writes refuse a value of the wrong JSON type with a 400
naming the field, and write nothing."""

import pytest

from apps.contacts.choices import ContactStatus
from apps.contacts.models import Contact
from tests.typed_input import BOOL, STRING, assert_rejected

URL = "/v1/platform/contacts"


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ({"firstName": 5}, "firstName", STRING),
        ({"lastName": True}, "lastName", STRING),
        ({"phone": 600100200}, "phone", STRING),
        ({"email": 5}, "email", STRING),
        ({"profileImage": 5}, "profileImage", STRING),
        ({"language": 1}, "language", STRING),
        ({"notes": 3.5}, "notes", STRING),
        ({"tags": ["vip", 5]}, "tags.1", STRING),
        ({"marketingConsent": "yes"}, "marketingConsent", BOOL),
        ({"marketingConsent": 1}, "marketingConsent", BOOL),
        ({"pipelineStageId": "1"}, "pipelineStageId", "Must be an integer id."),
    ],
)
def test_create_refuses_wrong_json_types(api, organization, extra, field, message):
    response = api.post(URL, {"firstName": "Ana", **extra}, format="json")
    assert_rejected(response, field, message)
    assert not Contact.objects.filter(organization=organization).exists()


@pytest.mark.parametrize(
    ("patch", "field", "message"),
    [({"marketingConsent": "false"}, "marketingConsent", BOOL), ({"notes": 10}, "notes", STRING)],
)
def test_update_refuses_wrong_json_types(api, contact, patch, field, message):
    before = Contact.objects.values().get(pk=contact.pk)
    response = api.patch(f"{URL}/{contact.pk}", patch, format="json")
    assert_rejected(response, field, message)
    assert Contact.objects.values().get(pk=contact.pk) == before


def test_archive_refuses_a_number_for_a_reason(api, contact):
    response = api.post(f"{URL}/{contact.pk}/archive", {"reason": 5}, format="json")
    assert_rejected(response, "reason", STRING)
    contact.refresh_from_db()
    assert contact.status == ContactStatus.ACTIVE


def test_json_types_still_accepted(api):
    response = api.post(URL, {"firstName": "Eva", "marketingConsent": True, "tags": ["vip"]}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["marketingConsent"] is True
