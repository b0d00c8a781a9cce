from django.utils import timezone

from apps.contacts.models import Contact
from apps.messaging.models import Message, MessageTemplate
from apps.organizations.models import ApiKey
from tests.harness import EndpointCase


def _settle_key_usage(organization):
    """The first request of a fresh API key also writes `last_used_at`; mark the keys used so the contract's
    one-row vs many-rows query comparison counts only the list's own queries."""
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


def template_ids(organization):
    template = MessageTemplate.objects.create(
        organization=organization, name="T", channel="sms", body="Hi {{ firstName }}", variables=["firstName"]
    )
    return {"id": template.id}


def template_rows(organization, n):
    _settle_key_usage(organization)
    MessageTemplate.objects.bulk_create(
        [
            MessageTemplate(organization=organization, name=f"T{i}", channel="email", subject="S", body="B")
            for i in range(n)
        ]
    )


def message_ids(organization):
    return {"id": Message.objects.create(organization=organization, channel="sms", body="Hi").id}


def message_rows(organization, n):
    _settle_key_usage(organization)
    messages = Message.objects.bulk_create(
        [Message(organization=organization, channel="email", subject="S", body="B") for i in range(n)]
    )
    contact = Contact.objects.create(organization=organization, first_name=f"Reader {len(messages)}")
    through = Message.contacts.through
    through.objects.bulk_create([through(message=m, contact=contact) for m in messages])


CASES = [
    EndpointCase("GET", "/v1/platform/templates", "templates:read", list_rows=template_rows),
    EndpointCase("GET", "/v1/platform/templates/{id}", "templates:read", setup=template_ids),
    EndpointCase(
        "POST", "/v1/platform/templates", "templates:write", body={"name": "T", "channel": "sms", "body": "Hi"}
    ),
    EndpointCase("PATCH", "/v1/platform/templates/{id}", "templates:write", setup=template_ids, body={}),
    EndpointCase("DELETE", "/v1/platform/templates/{id}", "templates:write", setup=template_ids),
    EndpointCase("GET", "/v1/platform/messages", "messages:read", list_rows=message_rows),
    EndpointCase("GET", "/v1/platform/messages/{id}", "messages:read", setup=message_ids),
    EndpointCase("POST", "/v1/platform/messages", "messages:write", body={"channel": "sms", "body": "Hi"}),
    EndpointCase("PATCH", "/v1/platform/messages/{id}", "messages:write", setup=message_ids, body={}),
    EndpointCase("DELETE", "/v1/platform/messages/{id}", "messages:write", setup=message_ids),
]
