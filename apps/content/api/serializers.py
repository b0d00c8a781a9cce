"""Input validation for content items and media items. Read-only fields (`id`, `publishedAt`, `author`, ...) are
ignored like any unknown field; `url` in a media PATCH is the one refused field (400 FIELD_NOT_WRITABLE)."""

from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import URLValidator
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.exceptions import FieldNotWritable
from apps.api.fields import (
    BoundedJSONObjectField,
    InputSerializer,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictRegexField,
    StrictURLField,
)
from apps.classes.choices import Visibility
from apps.kernel.slugs import SLUG_PATTERN

from .. import services
from ..choices import ContentItemStatus, ContentItemType, MediaType
from ..text import BLOCKS_HELP, SLUG_MAX_LENGTH, block_document_errors, sanitize_blocks, sanitize_html

HTML_MAX_LENGTH = 500_000
CUSTOM_FIELDS_MAX_BYTES = 16 * 1024
CUSTOM_FIELDS_MAX_DEPTH = 5
LANGUAGE_PATTERN = r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$"
# Nullable strings where an empty string means "none".
BLANK_IS_NULL = (
    "excerpt",
    "meta_title",
    "meta_description",
    "meta_keywords",
    "canonical_url",
    "template",
    "layout",
    "language",
)


class BlockDocumentField(serializers.DictField):
    """A block-editor document, validated against its JSON Schema and size limit; inline markup sanitized."""

    def to_internal_value(self, data):
        document = super().to_internal_value(data)
        errors = block_document_errors(document)
        if errors:
            raise serializers.ValidationError(errors)
        return sanitize_blocks(document)


def _keywords(**kwargs):
    return serializers.ListField(child=StrictCharField(max_length=100), max_length=50, **kwargs)


@extend_schema_serializer(component_name="ContentBodyInput")
class ContentBodySerializer(InputSerializer):
    """`content` replaces the stored value as a whole: an omitted key is stored empty (null, or `[]`)."""

    html = StrictCharField(
        max_length=HTML_MAX_LENGTH,
        required=False,
        allow_null=True,
        allow_blank=True,
        trim_whitespace=False,
        help_text="Sanitized on write with nh3: scripts, event handlers, styles and unsafe URLs are removed.",
    )
    blocks = BlockDocumentField(required=False, allow_null=True, help_text=BLOCKS_HELP)
    summary = StrictCharField(max_length=5000, required=False, allow_null=True, allow_blank=True)
    keywords = _keywords(required=False)


@extend_schema_serializer(component_name="ContentItemCreate")
class ContentItemCreateSerializer(InputSerializer):
    """POST body: `title` and `type` are required."""

    blank_is_null = BLANK_IS_NULL
    title = StrictCharField(max_length=200)
    type = serializers.ChoiceField(choices=ContentItemType.choices)
    slug = StrictRegexField(
        SLUG_PATTERN,
        max_length=SLUG_MAX_LENGTH,
        required=False,
        help_text="Lower-case letters, digits and single hyphens; unique per `type` (409 `DUPLICATE_VALUE`). "
        "Omitted: derived from the title (transliterated to ASCII; `-2`, `-3`, ... when taken).",
        error_messages={"invalid": "Must be lower-case letters and digits, words separated by single hyphens."},
    )
    status = serializers.ChoiceField(
        choices=ContentItemStatus.choices,
        required=False,
        help_text="Default `draft`. `published` sets `publishedAt` when it is empty.",
    )
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    content = ContentBodySerializer(required=False)
    excerpt = StrictCharField(max_length=2000, required=False, allow_null=True, allow_blank=True)
    metaTitle = StrictCharField(max_length=200, required=False, allow_null=True, allow_blank=True)
    metaDescription = StrictCharField(max_length=500, required=False, allow_null=True, allow_blank=True)
    metaKeywords = StrictCharField(max_length=500, required=False, allow_null=True, allow_blank=True)
    canonicalUrl = StrictURLField(max_length=2048, required=False, allow_null=True, allow_blank=True)
    template = StrictCharField(max_length=100, required=False, allow_null=True, allow_blank=True)
    layout = StrictCharField(max_length=100, required=False, allow_null=True, allow_blank=True)
    customFields = BoundedJSONObjectField(
        required=False,
        allow_null=True,
        max_bytes=CUSTOM_FIELDS_MAX_BYTES,
        max_depth=CUSTOM_FIELDS_MAX_DEPTH,
    )
    tags = serializers.ListField(child=StrictCharField(max_length=50), max_length=50, required=False)
    summary = StrictCharField(
        max_length=5000,
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text="The same stored value as `content.summary` (send either; both only when equal).",
    )
    keywords = _keywords(
        required=False, help_text="The same stored value as `content.keywords` (send either; both only when equal)."
    )
    images = serializers.ListField(child=StrictURLField(max_length=2048), max_length=20, required=False)
    featured = StrictBooleanField(required=False, allow_null=True)
    authorId = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        help_text="The user id of a staff member of the organization. Omitted on create: the staff member who "
        "created the API key, when there is one.",
    )
    language = StrictRegexField(
        LANGUAGE_PATTERN,
        max_length=35,
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text="A language code such as `en` or `pt-BR`.",
        error_messages={"invalid": "Must be a language code such as `en` or `pt-BR`."},
    )

    def validate_authorId(self, author_id):
        if author_id is not None and not services.is_staff_member(self.context["request"].organization, author_id):
            raise serializers.ValidationError("No staff member of this organization has this id.")
        return author_id

    def validate_tags(self, tags):
        return list(dict.fromkeys(tags))

    def validate(self, attrs):
        content = attrs.pop("content", None)
        if content is not None:
            errors = {}
            for name, empty in (("summary", None), ("keywords", [])):
                if name in attrs and name in content and attrs[name] != content[name]:
                    errors[name] = [f"Differs from `content.{name}`; they are one value: send either, or both equal."]
                attrs.setdefault(name, content.get(name, empty))
            if errors:
                raise serializers.ValidationError(errors)
            html = content.get("html")
            attrs["html"] = sanitize_html(html) if html else None
            attrs["blocks"] = content.get("blocks")
        if attrs.get("summary") == "":
            attrs["summary"] = None
        if "keywords" in attrs:
            attrs["keywords"] = list(dict.fromkeys(attrs["keywords"]))
        return attrs


@extend_schema_serializer(component_name="ContentItemUpdate")
class ContentItemUpdateSerializer(ContentItemCreateSerializer):
    """PATCH body: every field optional. `content`, like every object or array, replaces the stored value."""


# -- media --------------------------------------------------------------------------------------------------------

IMAGE_EXTENSIONS = frozenset(
    {"jpg", "jpeg", "jpe", "png", "gif", "webp", "avif", "svg", "bmp", "tif", "tiff", "heic", "heif", "ico"}
)
VIDEO_EXTENSIONS = frozenset({"mp4", "m4v", "mov", "webm", "ogv", "avi", "mkv", "mpeg", "mpg", "3gp", "wmv"})
URL_MAX_LENGTH = 2048
_https = URLValidator(schemes=["https"])


def media_type_of(url: str) -> str | None:
    """`image` or `video` from the extension of the URL's path (query and fragment ignored); None when unknown."""
    suffix = PurePosixPath(unquote(urlsplit(url).path)).suffix.lower().lstrip(".")
    if suffix in IMAGE_EXTENSIONS:
        return MediaType.IMAGE
    if suffix in VIDEO_EXTENSIONS:
        return MediaType.VIDEO
    return None


def file_name_of(url: str) -> str:
    """The last segment of the URL's path, percent-decoded; the host when the path has none."""
    parts = urlsplit(url)
    name = unquote(parts.path.rstrip("/").rsplit("/", 1)[-1]).strip()
    return (name or parts.hostname or url)[:255]


@extend_schema_serializer(component_name="MediaItemCreate")
class MediaItemCreateSerializer(InputSerializer):
    """POST body: registers a file hosted elsewhere by its https URL; nothing is downloaded."""

    blank_is_null = ("alt_text", "caption")
    url = StrictCharField(
        max_length=URL_MAX_LENGTH, help_text="Public https URL of the file (at most 2048 characters)."
    )
    name = StrictCharField(
        max_length=255, required=False, allow_null=True, allow_blank=True, help_text="Default: the URL's file name."
    )
    altText = StrictCharField(max_length=1000, required=False, allow_null=True, allow_blank=True)
    caption = StrictCharField(max_length=2000, required=False, allow_null=True, allow_blank=True)
    mediaType = serializers.ChoiceField(
        choices=MediaType.choices,
        required=False,
        help_text="Default: inferred from the URL's file extension (400 when it cannot be).",
    )

    def validate_url(self, url):
        try:
            _https(url)
        except DjangoValidationError:
            raise serializers.ValidationError("Must be an https URL.") from None
        return url

    def validate(self, attrs):
        url = attrs["url"]
        if not attrs.get("name"):
            attrs["name"] = file_name_of(url)
        if not attrs.get("media_type"):
            inferred = media_type_of(url)
            if inferred is None:
                raise serializers.ValidationError(
                    {"mediaType": ["Cannot be inferred from the URL's file extension; send `image` or `video`."]}
                )
            attrs["media_type"] = inferred
        return attrs


@extend_schema_serializer(component_name="MediaItemUpdate")
class MediaItemUpdateSerializer(InputSerializer):
    """PATCH body: `name`, `altText`, `caption`. `url` is immutable (400 `FIELD_NOT_WRITABLE`): register a new item
    to replace a file."""

    blank_is_null = ("alt_text", "caption")
    name = StrictCharField(max_length=255, required=False)
    altText = StrictCharField(max_length=1000, required=False, allow_null=True, allow_blank=True)
    caption = StrictCharField(max_length=2000, required=False, allow_null=True, allow_blank=True)

    def to_internal_value(self, data):
        if isinstance(data, dict) and "url" in data:
            raise FieldNotWritable("url", "`url` is immutable; register a new media item to replace a file.")
        return super().to_internal_value(data)
