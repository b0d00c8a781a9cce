"""Content items (CRUD; `content:read` alone sees published items only) and the media library (CRUD; deletion
needs `media:delete`)."""

from apps.api.schema import crud_schema_view
from apps.api.scopes import crud_scopes
from apps.api.views import CreateResourceMixin, DestroyResourceMixin, ResourceViewSet, UpdateResourceMixin, Writes

from .. import services
from ..choices import ContentItemStatus
from ..filters import WRITE_SCOPE, ContentItemFilterSet, MediaItemFilterSet
from ..models import ContentItem, MediaItem
from ..resources import CONTENT_ITEM, MEDIA_ITEM
from .serializers import (
    ContentItemCreateSerializer,
    ContentItemUpdateSerializer,
    MediaItemCreateSerializer,
    MediaItemUpdateSerializer,
)


@crud_schema_view(
    "content_items",
    tags=["content"],
    descriptions={
        "list": "With content:read alone, published items only (a `status` other than `published` is a 400); a "
        "credential that also holds content:write sees every status and may filter on it.",
        "retrieve": "An unpublished item is 404 to a credential without content:write.",
        "create": "Posts, FAQs, documents, reusable blocks and how-to guides. `title` and `type` are required; "
        "`status` defaults to `draft`; `slug` is derived from the title when omitted.",
        "partial_update": "Partial update. `status: published` also sets `publishedAt` when it is empty; the slug "
        "stays when the title changes.",
    },
)
class ContentItemViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """Posts, FAQs, documents, reusable blocks and how-to guides."""

    queryset = ContentItem.objects.all()
    resource = CONTENT_ITEM
    filterset_class = ContentItemFilterSet
    required_scopes = crud_scopes("content", write=("create", "partial_update", "destroy"))

    write_serializer = ContentItemCreateSerializer
    update_serializer = ContentItemUpdateSerializer
    writes = Writes(update=services.update_content_item, delete=services.delete_content_item)
    present_under_update_lock = True

    def base_queryset(self):
        """Without content:write, unpublished items do not exist for the caller (404, absent from lists)."""
        queryset = super().base_queryset()
        if not self.credential.has_scope(WRITE_SCOPE):
            queryset = queryset.filter(status=ContentItemStatus.PUBLISHED)
        return queryset

    def create_object(self, data):
        author_id = services.default_author_id(self.organization, self.credential)
        return services.create_content_item(self.organization, data, author_id=author_id)


@crud_schema_view(
    "media",
    tags=["media"],
    summaries={
        "create": "Register a media item by URL",
        "partial_update": "Update a media item's name, alt text or caption",
        "destroy": "Permanently delete a media item",
    },
    descriptions={
        "list": "`name` searches the name together with the alt text.",
        "create": "Registers a file hosted elsewhere by its https URL (at most 2048 characters); nothing is "
        "downloaded. `name` defaults to the URL's file name and `mediaType` is inferred from its extension (400 "
        "when it cannot be).",
        "partial_update": "`name`, `altText`, `caption`. `url` is immutable (400 `FIELD_NOT_WRITABLE`): register a "
        "new item to replace a file.",
        "destroy": "Needs media:delete. Removes the library entry; the file itself is hosted elsewhere.",
    },
)
class MediaItemViewSet(CreateResourceMixin, UpdateResourceMixin, DestroyResourceMixin, ResourceViewSet):
    """The media library: images and videos hosted elsewhere, registered by URL."""

    queryset = MediaItem.objects.all()
    resource = MEDIA_ITEM
    filterset_class = MediaItemFilterSet
    required_scopes = crud_scopes("media", destroy="media:delete")

    write_serializer = MediaItemCreateSerializer
    update_serializer = MediaItemUpdateSerializer
