"""Domain operations on content items: the REST views, the admin and the demo data go through these. Media items
have no rule beyond their fields and no events: they are written by `apps.kernel.records`.

Content items record `content_item.created` / `.updated` / `.deleted` in the operation's transaction (the payload is
the body `GET /content-items/{id}` returns).

Slugs are unique per (organization, type). A slug the caller gives that is taken is 409 DUPLICATE_VALUE; a slug
derived from the title takes the first free `-2`, `-3`, ... suffix, and a concurrent write that took it first (the
unique constraint) makes the derivation run again.
"""

from django.db import transaction
from django.utils import timezone

from apps.api.exceptions import DuplicateValue
from apps.domain_events.services import emit, emit_if_changed
from apps.kernel import slugs
from apps.kernel.records import set_fields
from apps.organizations.models import ApiKey, StaffMembership

from .choices import ContentItemStatus
from .models import ContentItem
from .resources import CONTENT_ITEM
from .text import SLUG_MAX_LENGTH

SLUG_TAKEN = "Another content item of this type has this slug."


def is_staff_member(organization, user_id) -> bool:
    return StaffMembership.objects.filter(organization=organization, user_id=user_id).exists()


def default_author_id(organization, credential) -> int | None:
    """The author of an item created without `authorId`: the user who created the API key, while that user is a
    staff member of the organization; otherwise none (OAuth tokens and keys of departed staff)."""
    if getattr(credential, "kind", None) != "api_key":
        return None
    creator_id = ApiKey.objects.filter(pk=credential.id).values_list("created_by_id", flat=True).first()
    if creator_id is None or not is_staff_member(organization, creator_id):
        return None
    return creator_id


def _slug_taken(holder) -> None:
    raise DuplicateValue("slug", holder, SLUG_TAKEN)


def _save(item: ContentItem, *, slug_given: bool, creating: bool) -> None:
    """Save in a savepoint. A given slug that is taken is 409 DUPLICATE_VALUE; a derived one is derived again."""
    try:
        slugs.save_with_unique_slug(
            item,
            lambda: ContentItem.objects.filter(organization_id=item.organization_id, type=item.type),
            taken=_slug_taken,
            derive_from=None if slug_given else item.title,
            fallback=item.type,
            max_length=SLUG_MAX_LENGTH,
            save=lambda: item.save(force_insert=creating),
        )
    except slugs.NoFreeSlug as exhausted:
        raise DuplicateValue("slug", exhausted.holder, SLUG_TAKEN) from None


def _publish_date(item: ContentItem) -> None:
    if item.status == ContentItemStatus.PUBLISHED and item.published_at is None:
        item.published_at = timezone.now()


@transaction.atomic
def create_content_item(organization, data: dict, *, author_id: int | None = None) -> ContentItem:
    """`data` holds model field names (validated, sanitized input). `author_id` is the default author when `data`
    names none."""
    data = dict(data)
    slug = data.pop("slug", None)
    if "author_id" not in data:
        data["author_id"] = author_id
    item = ContentItem(organization=organization, **data)
    item.slug = slug or ""
    _publish_date(item)
    _save(item, slug_given=bool(slug), creating=True)
    emit(organization, "content_item.created", lambda: CONTENT_ITEM.event_body(organization, item.pk))
    return item


@transaction.atomic
def update_content_item(item: ContentItem, data: dict) -> ContentItem:
    """Partial update under the item's row lock. A new title keeps the slug (links stay valid); a new type keeps it
    too, checked against the new type's items. Emits `content_item.updated` with the changed fields when something
    changed."""
    organization = item.organization
    locked = ContentItem.objects.select_for_update().get(pk=item.pk)
    before = CONTENT_ITEM.event_body(organization, locked.pk)
    set_fields(locked, data)
    _publish_date(locked)
    _save(locked, slug_given=True, creating=False)
    after = CONTENT_ITEM.event_body(organization, locked.pk)
    emit_if_changed(organization, "content_item.updated", before, after)
    return locked


@transaction.atomic
def delete_content_item(item: ContentItem) -> None:
    organization = item.organization
    locked = ContentItem.objects.select_for_update().filter(pk=item.pk).first()
    if locked is None:
        return
    data = CONTENT_ITEM.event_body(organization, locked.pk)
    locked.delete()
    emit(organization, "content_item.deleted", data)
