"""Content item and media item shapes. A page of either is one query: a content item's author is joined columns."""

import datetime as dt
from typing import Annotated, TypedDict

from apps.api.resources import Describe, PresentContext, Resource
from apps.classes.choices import Visibility

from . import models
from .choices import ContentItemStatus, ContentItemType, MediaType
from .text import BLOCKS_HELP


class ContentBody(TypedDict):
    html: Annotated[str | None, Describe("Rich text, sanitized on write (scripts, handlers and unsafe URLs removed).")]
    blocks: Annotated[dict | None, Describe(BLOCKS_HELP)]
    summary: Annotated[str | None, Describe("The same value as the item's top-level `summary`.")]
    keywords: Annotated[list[str], Describe("The same value as the item's top-level `keywords`.")]


class ContentAuthor(TypedDict):
    id: Annotated[int, Describe("The staff member's user id (the `authorId` of the item).")]
    name: str
    email: str | None
    profileImage: Annotated[str | None, Describe("Staff users have no profile image: always null.")]


class ContentItem(TypedDict):
    id: int
    organizationId: int
    title: str
    slug: Annotated[str, Describe("Unique per `type` in the organization.")]
    type: ContentItemType
    status: Annotated[
        ContentItemStatus, Describe("Only `published` items are visible to a credential without content:write.")
    ]
    visibility: Visibility
    content: ContentBody
    excerpt: str | None
    metaTitle: str | None
    metaDescription: str | None
    metaKeywords: str | None
    canonicalUrl: str | None
    template: str | None
    layout: str | None
    customFields: dict | None
    tags: list[str]
    summary: str | None
    keywords: list[str]
    images: list[str]
    featured: bool | None
    authorId: int | None
    author: ContentAuthor | None
    publishedAt: Annotated[dt.datetime | None, Describe("Set on the first publish and kept afterwards.")]
    language: str | None
    createdAt: dt.datetime
    updatedAt: dt.datetime


class MediaItem(TypedDict):
    id: int
    url: Annotated[str, Describe("Public https URL of the file; immutable (register a new item to replace a file).")]
    name: str
    altText: str | None
    caption: str | None
    mediaType: MediaType
    createdAt: dt.datetime
    updatedAt: dt.datetime


def author_name(first_name: str, last_name: str, username: str) -> str:
    return f"{first_name or ''} {last_name or ''}".strip() or username


class ContentItemResource(Resource):
    shape = ContentItem
    model = models.ContentItem
    columns = ("html", "blocks", "author__first_name", "author__last_name", "author__username", "author__email")

    def present(self, row: dict, ctx: PresentContext) -> ContentItem:
        author = None
        if row["author_id"] is not None:
            author = {
                "id": row["author_id"],
                "name": author_name(row["author__first_name"], row["author__last_name"], row["author__username"]),
                "email": row["author__email"] or None,
                "profileImage": None,
            }
        keywords = list(row["keywords"] or [])
        return self.body(
            row,
            ctx,
            content={"html": row["html"], "blocks": row["blocks"], "summary": row["summary"], "keywords": keywords},
            author=author,
        )


CONTENT_ITEM = ContentItemResource()
MEDIA_ITEM = Resource(MediaItem, models.MediaItem)
