"""Message drafts through the HTTP API: drafts only (any other status is a 400, edits and deletes of a non-draft
409), the template and recipients of the organization, the channel's text rules, filters, and nothing ever sent."""

import pytest
from django.core import mail

from apps.contacts.models import Contact
from apps.messaging.models import Message, MessageTemplate
from apps.notifications.channels import LoggingSmsBackend
from tests.messaging.cases import message_rows

URL = "/v1/platform/messages"


def item(pk):
    return f"{URL}/{pk}"


@pytest.fixture(autouse=True)
def _no_sms_left_over():
    LoggingSmsBackend.sent.clear()
    yield
    LoggingSmsBackend.sent.clear()


@pytest.fixture
def contacts(organization):
    return [
        Contact.objects.create(organization=organization, first_name=name, email=f"{name.lower()}@example.com")
        for name in ("Ana", "Bruno")
    ]


@pytest.fixture
def template(organization):
    return MessageTemplate.objects.create(
        organization=organization, name="Welcome", channel="email", subject="Hi", body="Welcome {{ firstName }}"
    )


def create(api, **body):
    body = {"channel": "email", "subject": "Hello {{ firstName }}", "body": "<p>News</p>", **body}
    response = api.post(URL, body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def assert_invalid(response, field):
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    fields = body["details"]["fields"]
    assert any(key == field or key.startswith(f"{field}.") for key in fields), body
    return fields.get(field)


def sent_message(organization, **fields):
    return Message.objects.create(
        organization=organization,
        channel="email",
        subject="Done",
        body="B",
        status=fields.pop("status", "sent"),
        recipients_count=2,
        sent_count=2,
        **fields,
    )


def test_create_a_draft_returns_every_field(api, contacts, template):
    response = api.post(
        URL,
        {
            "channel": "email",
            "subject": "Hello {{ firstName }}",
            "body": "<p>Welcome {{ firstName }}</p>",
            "templateId": template.id,
            "contactIds": [contacts[1].id, contacts[0].id, contacts[1].id],
            "status": "draft",
            "delivery": {"sent": 5},
            "sentAt": "2030-01-01T00:00:00Z",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert response["Location"] == item(body["id"])
    assert {k: v for k, v in body.items() if k not in ("id", "createdAt", "updatedAt")} == {
        "channel": "email",
        "subject": "Hello {{ firstName }}",
        "body": "<p>Welcome {{ firstName }}</p>",
        "templateId": template.id,
        "contactIds": sorted(c.id for c in contacts),
        "status": "draft",
        "delivery": {"recipients": 2, "sent": 0, "delivered": 0, "failed": 0, "opened": 0},
        "sentAt": None,
    }
    message = Message.objects.get(pk=body["id"])
    assert message.status == "draft"
    assert sorted(message.contacts.values_list("id", flat=True)) == sorted(c.id for c in contacts)
    assert api.get(item(body["id"])).json() == body


def test_status_defaults_to_draft_and_nothing_is_sent(api, contacts):
    email = create(api, contactIds=[c.id for c in contacts])
    sms = create(api, channel="sms", subject=None, body="Hi {{ firstName }}", contactIds=[contacts[0].id])
    api.patch(item(email["id"]), {"body": "<p>Changed</p>"}, format="json")
    assert email["status"] == sms["status"] == "draft"
    assert mail.outbox == []
    assert LoggingSmsBackend.sent == []


@pytest.mark.parametrize("status", ["sent", "sending", "scheduled", "failed", "queued", None, 1])
def test_any_status_but_draft_is_a_400(api, status):
    response = api.post(URL, {"channel": "sms", "body": "Hi", "status": status}, format="json")
    assert_invalid(response, "status")
    assert Message.objects.count() == 0


def test_channel_and_body_are_required_and_email_needs_a_subject(api):
    response = api.post(URL, {}, format="json")
    assert {"channel", "body"} <= set(response.json()["details"]["fields"])
    assert_invalid(api.post(URL, {"channel": "email", "body": "Hi"}, format="json"), "subject")
    assert_invalid(api.post(URL, {"channel": "sms", "subject": "S", "body": "Hi"}, format="json"), "subject")
    assert_invalid(api.post(URL, {"channel": "sms", "body": "x" * 1601}, format="json"), "body")
    assert_invalid(api.post(URL, {"channel": "sms", "body": "{% load static %}"}, format="json"), "body")
    assert_invalid(
        api.post(URL, {"channel": "email", "subject": "{% include 'x' %}", "body": "Hi"}, format="json"), "subject"
    )
    assert Message.objects.count() == 0
    assert create(api, channel="sms", subject=None, body="x" * 1600)["subject"] is None


def test_template_must_be_the_organizations_own_active_and_on_the_same_channel(
    api, organization, other_organization, template
):
    theirs = MessageTemplate.objects.create(
        organization=other_organization, name="Theirs", channel="email", subject="S", body="B"
    )
    sms = MessageTemplate.objects.create(organization=organization, name="SMS", channel="sms", body="B")
    inactive = MessageTemplate.objects.create(
        organization=organization, name="Old", channel="email", subject="S", body="B", is_active=False
    )
    base = {"channel": "email", "subject": "S", "body": "B"}
    for template_id in (theirs.id, sms.id, inactive.id, 10**9, "1", True):
        assert_invalid(api.post(URL, {**base, "templateId": template_id}, format="json"), "templateId")
    assert Message.objects.count() == 0
    assert create(api, templateId=template.id)["templateId"] == template.id
    assert create(api, templateId=None)["templateId"] is None


def test_contacts_must_be_the_organizations_own(api, other_organization, contacts):
    stranger = Contact.objects.create(organization=other_organization, first_name="Zed")
    (message,) = assert_invalid(
        api.post(URL, {"channel": "sms", "body": "Hi", "contactIds": [contacts[0].id, stranger.id]}, format="json"),
        "contactIds",
    )
    assert str(stranger.id) in message
    for bad in (["1"], [0], "1", [True], [None]):
        assert_invalid(api.post(URL, {"channel": "sms", "body": "Hi", "contactIds": bad}, format="json"), "contactIds")
    assert Message.objects.count() == 0
    assert create(api, channel="sms", subject=None, body="Hi", contactIds=[])["delivery"]["recipients"] == 0


def test_patch_a_draft(api, contacts, template):
    draft = create(api, contactIds=[contacts[0].id])
    response = api.patch(
        item(draft["id"]),
        {"contactIds": [contacts[1].id], "body": "<p>New</p>", "templateId": template.id, "status": "draft"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["contactIds"] == [contacts[1].id]
    assert body["delivery"]["recipients"] == 1
    assert body["body"] == "<p>New</p>"
    assert body["subject"] == draft["subject"]
    assert body["templateId"] == template.id
    # changing the channel away from the template's is refused
    assert_invalid(api.patch(item(draft["id"]), {"channel": "sms"}, format="json"), "templateId")
    to_sms = api.patch(item(draft["id"]), {"channel": "sms", "templateId": None}, format="json")
    assert to_sms.status_code == 200, to_sms.json()
    assert to_sms.json()["subject"] is None
    assert_invalid(api.patch(item(draft["id"]), {"status": "sent"}, format="json"), "status")
    assert Message.objects.get(pk=draft["id"]).status == "draft"


@pytest.mark.parametrize("status", ["sending", "sent", "failed", "scheduled"])
def test_a_non_draft_cannot_be_edited_or_deleted(api, organization, status):
    message = sent_message(organization, status=status)
    for response in (
        api.patch(item(message.id), {"body": "Changed"}, format="json"),
        api.patch(item(message.id), {}, format="json"),
        api.delete(item(message.id)),
    ):
        assert response.status_code == 409, response.json()
        body = response.json()
        assert body["code"] == "INVALID_STATE_TRANSITION"
        assert body["details"] == {"currentStatus": status}
    message.refresh_from_db()
    assert message.body == "B"
    # a bad body is still a 400 first
    assert_invalid(api.patch(item(message.id), {"status": "sent"}, format="json"), "status")


def test_delete_a_draft(api, contacts):
    draft = create(api, contactIds=[c.id for c in contacts])
    response = api.delete(item(draft["id"]))
    assert response.status_code == 204
    assert response.content == b""
    assert not Message.objects.filter(pk=draft["id"]).exists()
    assert Contact.objects.filter(pk__in=[c.id for c in contacts]).count() == 2


def test_a_sent_message_shows_its_delivery_counts(api, organization, contacts):
    message = sent_message(organization, failed_count=1, delivered_count=0)
    message.recipients_count = 3
    message.save()
    message.contacts.set(contacts)  # the stored count, not the current list, is shown once sent
    body = api.get(item(message.id)).json()
    assert body["status"] == "sent"
    assert body["delivery"] == {"recipients": 3, "sent": 2, "delivered": 0, "failed": 1, "opened": 0}


def test_filters(api, organization):
    email = create(api)
    sms = create(api, channel="sms", subject=None, body="Hi")
    sent = sent_message(organization)

    def ids(query):
        response = api.get(f"{URL}?{query}")
        assert response.status_code == 200, response.json()
        return [row["id"] for row in response.json()["data"]]

    assert ids("status=draft") == [sms["id"], email["id"]]
    assert ids("status=sent") == [sent.id]
    assert ids("status=draft,sent&channel=email") == [sent.id, email["id"]]
    assert ids("channel=sms") == [sms["id"]]
    assert ids("ordering=createdAt") == [email["id"], sms["id"], sent.id]
    for bad in ("status=queued", "channel=fax", "ordering=body"):
        response = api.get(f"{URL}?{bad}")
        assert response.status_code == 400, bad
        assert bad.split("=")[0] in response.json()["details"]["fields"]


def test_read_and_write_scopes_are_separate(client_for):
    writer = client_for("messages:write")
    created = writer.post(URL, {"channel": "sms", "body": "Hi"}, format="json")
    assert created.status_code == 201
    assert writer.get(URL).json() == {"error": "Insufficient access scope", "requiredScope": "messages:read"}
    reader = client_for("messages:read")
    assert reader.get(item(created.json()["id"])).status_code == 200
    assert reader.patch(item(created.json()["id"]), {}, format="json").status_code == 403


def test_list_costs_the_same_queries_for_1_or_200_rows(api, organization, django_assert_max_num_queries):
    message_rows(organization, 1)
    api.get(URL)
    with django_assert_max_num_queries(100) as one:
        assert api.get(f"{URL}?limit=200").json()["total"] == 1
    message_rows(organization, 199)
    with django_assert_max_num_queries(len(one.captured_queries)):
        page = api.get(f"{URL}?limit=200").json()["data"]
    assert len(page) == 200
    assert all(len(row["contactIds"]) == 1 for row in page)
