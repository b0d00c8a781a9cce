from django.utils import timezone

from apps.contacts.choices import ContactStatus
from apps.contacts.models import Contact, ContactSource, PipelineStage
from apps.organizations.models import ApiKey
from tests.harness import EndpointCase


def warm_credentials(organization):
    """The first request of a fresh key also writes `last_used_at`; mark keys used so both measured requests of
    the query-count contract run the same queries (reported to the foundation owner)."""
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


def _contact(organization):
    contact = Contact.objects.create(organization=organization, first_name="Case", last_name="Contact")
    return {"id": contact.id}


def _archived_contact(organization):
    contact = Contact.objects.create(organization=organization, first_name="Gone", status=ContactStatus.ARCHIVED)
    return {"id": contact.id}


def _contacts(organization, n):
    warm_credentials(organization)
    Contact.objects.bulk_create(
        Contact(organization=organization, first_name=f"P{i}", email=f"p{i}-{n}@example.com") for i in range(n)
    )


def _stages(organization, n):
    warm_credentials(organization)
    PipelineStage.objects.bulk_create(
        PipelineStage(organization=organization, name=f"Stage {i}", position=i) for i in range(n)
    )


def _sources(organization, n):
    warm_credentials(organization)
    ContactSource.objects.bulk_create(ContactSource(organization=organization, name=f"Source {i}") for i in range(n))


CASES = [
    EndpointCase("GET", "/v1/platform/contacts", "contacts:read", list_rows=_contacts),
    EndpointCase("GET", "/v1/platform/contacts/{id}", "contacts:read", setup=_contact),
    EndpointCase("POST", "/v1/platform/contacts", "contacts:write", body={"firstName": "New"}),
    EndpointCase("PATCH", "/v1/platform/contacts/{id}", "contacts:write", setup=_contact, body={"notes": "x"}),
    EndpointCase("POST", "/v1/platform/contacts/{id}/archive", "contacts:delete", setup=_contact),
    EndpointCase("POST", "/v1/platform/contacts/{id}/restore", "contacts:delete", setup=_archived_contact),
    EndpointCase("GET", "/v1/platform/pipeline-stages", "contacts:read", list_rows=_stages),
    EndpointCase("GET", "/v1/platform/contact-sources", "contacts:read", list_rows=_sources),
]
