"""Domain operations on content items and media items: the REST views, the admin and the demo data go through these.

Content items record `content_item.created` / `.updated` / `.deleted` in the operation's transaction (the payload is
the body `GET /content-items/{id}` returns). Media items have no events (the webhook catalogue lists none).

Slugs are unique per (organization, type). A slug the caller gives that is taken is 409 DUPLICATE_VALUE; a slug
derived from the title takes the first free `-2`, `-3`, ... suffix, and a concurrent write that took it first (the
unique constraint) makes the derivation run again.
"""

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.api.exceptions import DuplicateValue
from apps.api.resources import PresentContext
from apps.domain_events.services import emit
from apps.organizations.models import ApiKey, StaffMembership

from .choices import ContentItemStatus
from .models import ContentItem, MediaItem
from .resources import CONTENT_ITEM
from .text import slugify, with_suffix

DERIVE_ATTEMPTS = 10
SLUG_TAKEN = "Another content item of this type has this slug."


def present_content_item(item_id: int, organization) -> dict:
    """The item's body as `GET /content-items/{id}` returns it, for event payloads and change detection."""
    return CONTENT_ITEM.get(ContentItem.objects.all(), item_id, PresentContext(organization=organization))


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


def _slug_holder(item: ContentItem, slug: str):
    taken = ContentItem.objects.filter(organization_id=item.organization_id, type=item.type, slug=slug)
    if item.pk is not None:
        taken = taken.exclude(pk=item.pk)
    return taken.values_list("id", flat=True).first()


def _free_slug(item: ContentItem, base: str) -> str:
    """`base`, or `base-n` with the smallest n >= 2 that no other item of the same type holds."""
    base = base or item.type
    stem = with_suffix(base, 10**9)[: -len("-1000000000")]  # what every suffixed candidate starts with
    taken = set(
        ContentItem.objects.filter(organization_id=item.organization_id, type=item.type, slug__startswith=stem)
        .exclude(pk=item.pk)
        .values_list("slug", flat=True)
    )
    if base not in taken:
        return base
    n = 2
    while with_suffix(base, n) in taken:
        n += 1
    return with_suffix(base, n)


def _save(item: ContentItem, *, slug_given: bool, creating: bool) -> None:
    """Save in a savepoint. A given slug that is taken is 409 DUPLICATE_VALUE; a derived one is derived again."""
    for _ in range(DERIVE_ATTEMPTS):
        if slug_given:
            holder = _slug_holder(item, item.slug)
            if holder is not None:
                raise DuplicateValue("slug", holder, SLUG_TAKEN)
        else:
            item.slug = _free_slug(item, slugify(item.title))
        try:
            with transaction.atomic():
                item.save(force_insert=creating)
            return
        except IntegrityError:
            holder = _slug_holder(item, item.slug)
            if holder is None:
                raise
            if slug_given:
                raise DuplicateValue("slug", holder, SLUG_TAKEN) from None
    raise DuplicateValue("slug", _slug_holder(item, item.slug), SLUG_TAKEN)


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
    emit(organization, "content_item.created", lambda: present_content_item(item.pk, organization))
    return item


@transaction.atomic
def update_content_item(item: ContentItem, data: dict) -> ContentItem:
    """Partial update under the item's row lock. A new title keeps the slug (links stay valid); a new type keeps it
    too, checked against the new type's items. Emits `content_item.updated` with the changed fields when something
    changed."""
    organization = item.organization
    locked = ContentItem.objects.select_for_update().get(pk=item.pk)
    before = present_content_item(locked.pk, organization)
    for name, value in data.items():
        setattr(locked, name, value)
    _publish_date(locked)
    _save(locked, slug_given=True, creating=False)
    after = present_content_item(locked.pk, organization)
    changed = [key for key in after if key != "updatedAt" and after[key] != before[key]]
    if changed:
        emit(organization, "content_item.updated", after, changed)
    return locked


@transaction.atomic
def delete_content_item(item: ContentItem) -> None:
    organization = item.organization
    locked = ContentItem.objects.select_for_update().filter(pk=item.pk).first()
    if locked is None:
        return
    data = present_content_item(locked.pk, organization)
    locked.delete()
    emit(organization, "content_item.deleted", data)


# -- media --------------------------------------------------------------------------------------------------------


@transaction.atomic
def register_media(organization, data: dict) -> MediaItem:
    """`data` holds model field names; `name` and `media_type` already resolved from the URL when not given."""
    return MediaItem.objects.create(organization=organization, **data)


@transaction.atomic
def update_media(media: MediaItem, data: dict) -> MediaItem:
    locked = MediaItem.objects.select_for_update().get(pk=media.pk)
    for name, value in data.items():
        setattr(locked, name, value)
    locked.save()
    return locked


@transaction.atomic
def delete_media(media: MediaItem) -> None:
    MediaItem.objects.filter(pk=media.pk).delete()
