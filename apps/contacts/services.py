"""Contact operations: create, update, archive (with its cancellations) and restore.

Views, the channel integration and other apps call these; every change records its domain event in its own transaction.
"""

from django.db import connection, transaction
from django.utils import timezone

from apps.api.exceptions import DuplicateValue, InvalidStateTransition
from apps.api.resources import camel_case
from apps.domain_events.services import emit

from .choices import ContactStatus
from .models import Contact
from .resources import CONTACT
from .signals import contact_archived

RELATIONS = ("pipeline_stage", "source")  # written as objects, compared and named (`sourceId`) by their ids


def _lock_email(organization, email):
    """Serialise writers of the same (organization, e-mail) so two requests cannot both pass the duplicate check."""
    if email and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtext(%s))", [f"contact-email:{organization.pk}:{email.lower()}"]
            )


def find_active_by_email(organization, email, exclude_id=None):
    """The active contact of `organization` holding `email` (case-insensitive), if any."""
    if not email:
        return None
    qs = Contact.objects.filter(organization=organization, status=ContactStatus.ACTIVE, email__iexact=email)
    if exclude_id:
        qs = qs.exclude(pk=exclude_id)
    return qs.order_by("id").first()


def _check_email_free(organization, email, exclude_id=None, reveal_existing_id=True):
    """409 DUPLICATE_VALUE when another active contact holds `email`; its id in `existingId` only when
    `reveal_existing_id` (the caller holds `contacts:read`). Takes the e-mail's lock first (`_lock_email`), so the
    answer holds until the caller's transaction ends."""
    _lock_email(organization, email)
    existing = find_active_by_email(organization, email, exclude_id)
    if existing:
        existing_id = existing.id if reveal_existing_id else None
        raise DuplicateValue("email", existing_id, "Another active contact already uses this e-mail.")


def create_contact(organization, *, reveal_existing_id=True, **fields) -> Contact:
    """Create a contact; an e-mail used by another active contact is a 409 DUPLICATE_VALUE."""
    with transaction.atomic():
        _check_email_free(organization, fields.get("email"), reveal_existing_id=reveal_existing_id)
        contact = Contact.objects.create(organization=organization, status=ContactStatus.ACTIVE, **fields)
        emit(organization, "contact.created", lambda: CONTACT.event_body(organization, contact.id))
    return contact


def find_or_create_contact(
    organization, *, first_name, last_name=None, email=None, phone=None, match_email=True
) -> Contact:
    """The active contact with that e-mail, else a new one (the channel integration's matching rule).

    Without `match_email` the contact is always new, even when another active contact holds the e-mail: for a caller
    that may not learn whether an e-mail is known (no `contacts:read`). The organization merges such duplicates.
    """
    with transaction.atomic():
        if match_email:
            _lock_email(organization, email)
            existing = find_active_by_email(organization, email)
            if existing:
                return existing
        contact = Contact.objects.create(
            organization=organization,
            first_name=first_name,
            last_name=last_name,
            email=email,
            phone=phone,
        )
        emit(organization, "contact.created", lambda: CONTACT.event_body(organization, contact.id))
    return contact


def update_contact(contact, *, reveal_existing_id=True, **fields) -> Contact:
    """Partial update; `status` is never written here (archive/restore own it)."""
    fields.pop("status", None)
    with transaction.atomic():
        contact = Contact.objects.select_for_update().get(pk=contact.pk)
        if "email" in fields and fields["email"] and contact.status == ContactStatus.ACTIVE:
            if (fields["email"] or "").lower() != (contact.email or "").lower():
                _check_email_free(
                    contact.organization, fields["email"], exclude_id=contact.pk, reveal_existing_id=reveal_existing_id
                )
        changed = []
        for name, value in fields.items():
            current = getattr(contact, f"{name}_id") if name in RELATIONS else getattr(contact, name)
            new = getattr(value, "pk", value) if name in RELATIONS else value
            if current != new:
                setattr(contact, name, value)
                changed.append(name)
        if changed:
            contact.save()
            emit(
                contact.organization,
                "contact.updated",
                lambda: CONTACT.event_body(contact.organization, contact.id),
                changed_fields=[camel_case(n) + ("Id" if n in RELATIONS else "") for n in changed],
            )
    return contact


def archive_contact(contact, *, reason=None) -> Contact:
    """active -> archived, cancelling the contact's active memberships and every future booking, and removing its
    waitlist entries of future classes, atomically.

    Memberships are cancelled by the `contact_archived` receiver of the memberships app, bookings and waitlist
    entries by the bookings app's, in this transaction. The cancellations are not undone by `restore_contact`.
    """
    with transaction.atomic():
        contact = Contact.objects.select_for_update().get(pk=contact.pk)
        if contact.status != ContactStatus.ACTIVE:
            raise InvalidStateTransition(contact.status)
        now = timezone.now()
        contact.status = ContactStatus.ARCHIVED
        contact.archived_at = now
        contact.save(update_fields=["status", "archived_at", "updated_at"])

        contact_archived.send(sender=Contact, contact=contact, reason=reason, now=now)
        emit(contact.organization, "contact.archived", lambda: CONTACT.event_body(contact.organization, contact.id))
    return contact


def restore_contact(contact, *, reveal_existing_id=True) -> Contact:
    """archived -> active. Cancellations made at archive time stay cancelled."""
    with transaction.atomic():
        contact = Contact.objects.select_for_update().get(pk=contact.pk)
        if contact.status != ContactStatus.ARCHIVED:
            raise InvalidStateTransition(contact.status)
        _check_email_free(
            contact.organization, contact.email, exclude_id=contact.pk, reveal_existing_id=reveal_existing_id
        )
        contact.status = ContactStatus.ACTIVE
        contact.archived_at = None
        contact.save(update_fields=["status", "archived_at", "updated_at"])
        emit(contact.organization, "contact.restored", lambda: CONTACT.event_body(contact.organization, contact.id))
    return contact
