import datetime as dt

import pytest
from django.utils import timezone

from apps.contacts.choices import ContactStatus
from apps.contacts.models import Contact, ContactSource, PipelineStage
from apps.domain_events.models import DomainEvent

URL = "/v1/platform/contacts"


@pytest.fixture
def stage(organization):
    return PipelineStage.objects.create(organization=organization, name="Lead", position=1, color="#ff0000")


@pytest.fixture
def source(organization):
    return ContactSource.objects.create(organization=organization, name="Website")


def test_create_returns_contact_shape_and_location(
    api, organization, stage, source, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            URL,
            {
                "firstName": "Marta",
                "lastName": "Ruiz",
                "email": "marta@example.com",
                "phone": "+34 600 000 000",
                "dateOfBirth": "1990-04-01",
                "pipelineStageId": stage.id,
                "sourceId": source.id,
                "tags": ["vip"],
                "marketingConsent": True,
                "customFields": {"shirt": "M"},
                "status": "archived",  # not writable: ignored
                "id": 999,  # read-only: ignored
            },
            format="json",
        )
    assert response.status_code == 201, response.content
    body = response.json()
    contact = Contact.objects.get(pk=body["id"])
    assert response["Location"] == f"/v1/platform/contacts/{contact.id}"
    assert body == {
        "id": contact.id,
        "firstName": "Marta",
        "lastName": "Ruiz",
        "name": "Marta Ruiz",
        "email": "marta@example.com",
        "phone": "+34 600 000 000",
        "dateOfBirth": "1990-04-01",
        "language": None,
        "profileImage": None,
        "status": "active",
        "pipelineStageId": stage.id,
        "pipelineStage": {"id": stage.id, "name": "Lead"},
        "sourceId": source.id,
        "source": {"id": source.id, "name": "Website"},
        "tags": ["vip"],
        "notes": None,
        "marketingConsent": True,
        "customFields": {"shirt": "M"},
        "archivedAt": None,
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    assert body["createdAt"].endswith("Z")
    event = DomainEvent.objects.get(type="contact.created")
    assert event.data["id"] == contact.id and event.organization_id == organization.id


def test_create_requires_first_name(api):
    response = api.post(URL, {"lastName": "X"}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert "firstName" in response.json()["details"]["fields"]


def test_foreign_pipeline_stage_is_a_400(api, other_organization):
    foreign = PipelineStage.objects.create(organization=other_organization, name="X")
    response = api.post(URL, {"firstName": "A", "pipelineStageId": foreign.id}, format="json")
    assert response.status_code == 400
    assert "pipelineStageId" in response.json()["details"]["fields"]


def test_duplicate_email_of_active_contact_is_409_case_insensitive(api, contact):
    response = api.post(URL, {"firstName": "Other", "email": "ANA@example.com"}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "DUPLICATE_VALUE"
    assert body["details"] == {"field": "email", "existingId": contact.id}


def test_email_of_archived_contact_is_reusable(api, contact):
    contact.status = ContactStatus.ARCHIVED
    contact.save()
    response = api.post(URL, {"firstName": "Ana", "email": "ana@example.com"}, format="json")
    assert response.status_code == 201


def test_patch_updates_fields_ignores_status_and_emits_changed_fields(api, contact, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.patch(
            f"{URL}/{contact.id}", {"lastName": None, "notes": "likes mornings", "status": "archived"}, format="json"
        )
    assert response.status_code == 200
    body = response.json()
    assert body["lastName"] is None and body["name"] == "Ana" and body["notes"] == "likes mornings"
    assert body["status"] == "active"
    event = DomainEvent.objects.get(type="contact.updated")
    assert sorted(event.changed_fields) == ["lastName", "notes"]


def test_patch_email_to_another_active_contacts_email_is_409(api, organization, contact):
    other = Contact.objects.create(organization=organization, first_name="Bo", email="bo@example.com")
    response = api.patch(f"{URL}/{other.id}", {"email": "Ana@Example.com"}, format="json")
    assert response.status_code == 409
    assert response.json()["details"]["existingId"] == contact.id
    # changing case of one's own e-mail is fine
    assert api.patch(f"{URL}/{contact.id}", {"email": "ANA@example.com"}, format="json").status_code == 200


def test_put_is_not_offered(api, contact):
    response = api.put(f"{URL}/{contact.id}", {"firstName": "X"}, format="json")
    assert response.status_code == 405


def test_delete_is_not_offered(api, contact):
    assert api.delete(f"{URL}/{contact.id}").status_code == 405


def test_list_defaults_to_active_and_filters(api, organization, stage, source):
    now = timezone.now()
    a = Contact.objects.create(
        organization=organization, first_name="Alba", last_name="Zeta", email="alba@x.com", tags=["vip", "kids"]
    )
    b = Contact.objects.create(
        organization=organization,
        first_name="Bruno",
        last_name="Young",
        phone="555-123",
        pipeline_stage=stage,
        source=source,
    )
    c = Contact.objects.create(organization=organization, first_name="Carla", status=ContactStatus.ARCHIVED)

    def ids(query=""):
        response = api.get(f"{URL}{query}")
        assert response.status_code == 200, response.content
        return [row["id"] for row in response.json()["data"]]

    assert ids() == [b.id, a.id]  # -createdAt
    assert ids("?status=archived") == [c.id]
    assert set(ids("?status=active,archived")) == {a.id, b.id, c.id}
    assert ids("?q=alba zeta") == [a.id]
    assert ids("?q=ALBA@") == [a.id]
    assert ids("?q=555") == [b.id]
    assert ids("?email=ALBA@X.COM") == [a.id]
    assert ids(f"?pipelineStageId={stage.id}") == [b.id]
    assert ids(f"?sourceId={source.id}") == [b.id]
    assert ids("?tag=kids") == [a.id]
    assert ids("?ordering=firstName") == [a.id, b.id]
    assert ids("?ordering=lastName") == [b.id, a.id]
    assert ids("?ordering=-lastName") == [a.id, b.id]
    today = now.date().isoformat()
    assert set(ids(f"?startDate={today}&endDate={today}")) == {a.id, b.id}
    tomorrow = (now + dt.timedelta(days=1)).date().isoformat()
    assert ids(f"?startDate={tomorrow}") == []
    body = api.get(f"{URL}?limit=1").json()
    assert body["total"] == 2 and body["limit"] == 1 and body["offset"] == 0 and len(body["data"]) == 1


@pytest.mark.parametrize(
    "query", ["?status=gone", "?pipelineStageId=x", "?ordering=email", "?startDate=2025-02-02&endDate=2025-02-01"]
)
def test_list_bad_params_are_400(api, query):
    response = api.get(f"{URL}{query}")
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"


def test_archived_contact_is_readable(api, organization):
    c = Contact.objects.create(organization=organization, first_name="Old", status=ContactStatus.ARCHIVED)
    response = api.get(f"{URL}/{c.id}")
    assert response.status_code == 200 and response.json()["status"] == "archived"


def test_archive_and_restore_transitions(api, contact, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"{URL}/{contact.id}/archive", {"reason": "moved away"}, format="json")
    assert response.status_code == 200
    assert response.json()["status"] == "archived" and response.json()["archivedAt"]
    again = api.post(f"{URL}/{contact.id}/archive", format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "INVALID_STATE_TRANSITION"
    assert again.json()["details"] == {"currentStatus": "archived"}
    with django_capture_on_commit_callbacks(execute=True):
        restored = api.post(f"{URL}/{contact.id}/restore")
    assert restored.status_code == 200
    assert restored.json()["status"] == "active" and restored.json()["archivedAt"] is None
    assert api.post(f"{URL}/{contact.id}/restore").status_code == 409
    assert list(DomainEvent.objects.values_list("type", flat=True)) == ["contact.archived", "contact.restored"]


def test_restore_refused_when_email_taken_by_active_contact(api, organization, contact):
    api.post(f"{URL}/{contact.id}/archive")
    newer = Contact.objects.create(organization=organization, first_name="Ana2", email="ana@example.com")
    response = api.post(f"{URL}/{contact.id}/restore")
    assert response.status_code == 409
    assert response.json()["details"] == {"field": "email", "existingId": newer.id}


def test_pipeline_stages_ordered_by_position_and_sources(api, organization):
    late = PipelineStage.objects.create(organization=organization, name="Member", position=3, is_default=False)
    early = PipelineStage.objects.create(organization=organization, name="Lead", position=1, is_default=True)
    body = api.get("/v1/platform/pipeline-stages").json()
    assert body["data"] == [
        {"id": early.id, "name": "Lead", "position": 1, "color": None, "isDefault": True},
        {"id": late.id, "name": "Member", "position": 3, "color": None, "isDefault": False},
    ]
    src = ContactSource.objects.create(organization=organization, name="Walk-in", is_active=False)
    body = api.get("/v1/platform/contact-sources").json()
    assert body == {
        "data": [{"id": src.id, "name": "Walk-in", "isActive": False}],
        "total": 1,
        "limit": 50,
        "offset": 0,
    }
    assert api.post("/v1/platform/pipeline-stages", {"name": "x"}, format="json").status_code == 405
