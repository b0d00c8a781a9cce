"""Demo content: published posts and a how-to guide, FAQs, a document, a draft post, and media items."""

import datetime as dt

from django.utils import timezone

from apps.organizations.models import StaffMembership

from .choices import ContentItemStatus, ContentItemType, MediaType
from .models import ContentItem, MediaItem

MEDIA = [
    ("https://images.example.com/demo/centre-court.jpg", "Centre court", "Padel court under evening lights", None),
    ("https://images.example.com/demo/team.png", "Coaching team", "Three coaches at the club entrance", None),
    ("https://videos.example.com/demo/bandeja.mp4", "Bandeja technique", None, "Slow-motion bandeja, 40 seconds"),
]

POST_BLOCKS = {
    "blocks": [
        {"type": "header", "data": {"text": "Book from your phone", "level": 2}},
        {"type": "paragraph", "data": {"text": "Courts open for booking <b>14 days</b> ahead."}},
        {"type": "list", "data": {"style": "unordered", "items": ["Pick a court", "Invite players", "Pay online"]}},
    ]
}

# (type, slug, title, status, fields)
ITEMS = [
    (
        ContentItemType.POST,
        "new-courts-open",
        "Two new panoramic courts are open",
        ContentItemStatus.PUBLISHED,
        {
            "excerpt": "Courts 5 and 6 open this week with glass walls on every side.",
            "html": '<p>Courts 5 and 6 open this week. <a href="https://example.com/book">Book now</a>.</p>',
            "tags": ["news", "courts"],
            "images": [MEDIA[0][0]],
            "featured": True,
            "meta_title": "New panoramic padel courts",
            "language": "en",
        },
    ),
    (
        ContentItemType.POST,
        "booking-from-your-phone",
        "Booking from your phone",
        ContentItemStatus.PUBLISHED,
        {"excerpt": "Everything about the app.", "blocks": POST_BLOCKS, "tags": ["app"], "language": "en"},
    ),
    (
        ContentItemType.POST,
        "summer-league-2027",
        "Summer league 2027",
        ContentItemStatus.DRAFT,
        {"excerpt": "Registration details to follow.", "tags": ["league"], "language": "en"},
    ),
    (
        ContentItemType.HOW_TO_GUIDE,
        "how-to-grip-a-padel-racket",
        "How to grip a padel racket",
        ContentItemStatus.PUBLISHED,
        {"html": "<ol><li>Hold it like a hammer.</li><li>Relax the fingers.</li></ol>", "tags": ["technique"]},
    ),
    (
        ContentItemType.FAQ,
        "can-i-cancel-a-booking",
        "Can I cancel a booking?",
        ContentItemStatus.PUBLISHED,
        {"html": "<p>Yes, free of charge up to 24 hours before it starts.</p>", "tags": ["bookings"]},
    ),
    (
        ContentItemType.FAQ,
        "do-you-rent-rackets",
        "Do you rent rackets?",
        ContentItemStatus.PUBLISHED,
        {"html": "<p>Yes, at the front desk, for 4 euros.</p>", "tags": ["equipment"]},
    ),
    (
        ContentItemType.FAQ,
        "puedo-cancelar-una-reserva",
        "¿Puedo cancelar una reserva?",
        ContentItemStatus.PUBLISHED,
        {"html": "<p>Sí, sin coste hasta 24 horas antes.</p>", "language": "es"},
    ),
    (
        ContentItemType.DOCUMENT,
        "liability-waiver",
        "Liability waiver",
        ContentItemStatus.PUBLISHED,
        {"html": "<p>I take part in activities at my own risk.</p>", "visibility": "Member_only"},
    ),
]


def seed(organization, ctx: dict) -> None:
    """Idempotent. Puts `ctx["content_items"]` ({slug: ContentItem}) and `ctx["media"]` ({url: MediaItem})."""
    media = {}
    for url, name, alt_text, caption in MEDIA:
        media[url], _ = MediaItem.objects.get_or_create(
            organization=organization,
            url=url,
            defaults={
                "name": name,
                "alt_text": alt_text,
                "caption": caption,
                "media_type": MediaType.VIDEO if url.endswith(".mp4") else MediaType.IMAGE,
            },
        )
    author_id = (
        StaffMembership.objects.filter(organization=organization).order_by("id").values_list("user_id", flat=True)
    ).first()
    now = timezone.now()
    items = {}
    for days_ago, (type_, slug, title, status, fields) in enumerate(ITEMS):
        published = status == ContentItemStatus.PUBLISHED
        items[slug], _ = ContentItem.objects.get_or_create(
            organization=organization,
            type=type_,
            slug=slug,
            defaults={
                "title": title,
                "status": status,
                "author_id": author_id,
                "published_at": now - dt.timedelta(days=days_ago) if published else None,
                **fields,
            },
        )
    ctx["content_items"] = items
    ctx["media"] = media
