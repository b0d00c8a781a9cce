"""Demo data: templates and a draft message, seeded idempotently and served by the API; nothing is sent."""

from django.core import mail

from apps.contacts import demo as contacts_demo
from apps.messaging import demo
from apps.messaging.models import Message, MessageTemplate


def test_demo_seeds_templates_and_a_draft_idempotently(organization, api):
    ctx = {}
    contacts_demo.seed(organization, ctx)
    demo.seed(organization, ctx)
    demo.seed(organization, ctx)
    assert MessageTemplate.objects.filter(organization=organization).count() == 3
    assert Message.objects.filter(organization=organization).count() == 1

    templates = {row["name"]: row for row in api.get("/v1/platform/templates").json()["data"]}
    assert sorted(templates) == ["Class reminder SMS", "Summer promotion", "Welcome e-mail"]
    assert templates["Welcome e-mail"]["variables"] == ["organizationName", "firstName"]
    assert templates["Class reminder SMS"]["channel"] == "sms"
    assert templates["Summer promotion"]["isActive"] is False

    (draft,) = api.get("/v1/platform/messages").json()["data"]
    consenting = sorted(c.pk for c in ctx["contacts"] if c.marketing_consent)
    assert draft["status"] == "draft"
    assert draft["templateId"] == templates["Welcome e-mail"]["id"]
    assert draft["contactIds"] == consenting and consenting
    assert draft["delivery"]["recipients"] == len(consenting)
    assert mail.outbox == []
