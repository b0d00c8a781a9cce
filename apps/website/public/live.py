"""Live data the published sections show: the organization's public plans and upcoming public classes, and clubs.

Loaded once per rendered page whatever the number of sections (one query per kind), then picked per section.
"""

import datetime as dt

from django.db.models import Q
from django.utils import timezone

from apps.billing.models import Plan
from apps.classes.choices import ClassStatus, Visibility
from apps.classes.models import ClassOccurrence
from apps.clubs.models import Club
from apps.content.choices import ContentItemStatus, ContentItemType
from apps.content.models import ContentItem, MediaItem
from apps.events.choices import EventStatus
from apps.events.models import Event
from apps.forms.public import form_links
from apps.kernel import clock

MAX_SCHEDULE_DAYS = 14
MAX_SCHEDULE_ROWS = 200
MAX_FAQS = 100
MAX_EVENTS = 50


def public_content(organization):
    """The organization's content the public may read: published and `Public`."""
    return ContentItem.objects.filter(
        organization=organization, status=ContentItemStatus.PUBLISHED, visibility=Visibility.PUBLIC
    )


def in_locale(items, locale: str, default_language: str) -> list:
    """Items written in `locale` or in no particular language (the default language's items count as neither
    on another locale's page)."""
    return [item for item in items if not item.language or item.language.split("-")[0] == locale.split("-")[0]]


class LiveData:
    def __init__(self, website, sections: list[dict]):
        self.website = website
        self.organization = website.organization
        types = {section["type"] for section in sections}
        self.plans = self._plans() if "plans" in types else []
        self.faqs = self._faqs() if "faq" in types else []
        self.events = self._events() if "events" in types else []
        media_ids = {pk for s in sections if s["type"] == "gallery" for pk in s["config"].get("mediaIds") or []}
        self.media = self._media(media_ids) if media_ids else {}
        days = [section["config"].get("days") or 7 for section in sections if section["type"] == "class-schedule"]
        self.classes = self._classes(max(days)) if days else []
        self.clubs = self._clubs() if types & {"contact", "class-schedule"} or website.club_id else {}
        # The forms the contact sections link to: loaded (one query) the first time a section asks.
        self.form_ids = {s["config"].get("formId") for s in sections if s["type"] == "contact"} - {None}
        self._form_links = None

    def _plans(self) -> list[Plan]:
        return list(
            Plan.objects.filter(organization=self.organization, is_active=True, visibility=Visibility.PUBLIC)
            .only("id", "name", "description", "price", "signup_fee", "billing_frequency", "features", "translations")
            .order_by("price", "id")
        )

    def _faqs(self) -> list[ContentItem]:
        return list(
            public_content(self.organization)
            .filter(type=ContentItemType.FAQ)
            .only("id", "title", "html", "excerpt", "language")
            .order_by("-published_at", "id")[:MAX_FAQS]
        )

    def _events(self) -> list[Event]:
        return list(
            Event.objects.filter(
                organization=self.organization,
                status=EventStatus.PUBLISHED,
                visibility=Visibility.PUBLIC,
                end_time__gt=timezone.now(),
            )
            .select_related("club")
            .prefetch_related("tickets")
            .only("id", "name", "description", "start_time", "end_time", "club_id", "club__name", "club__timezone",
                  "translations")
            .order_by("start_time", "id")[:MAX_EVENTS]
        )  # fmt: skip

    def events_for(self, config: dict) -> list[dict]:
        club_id = config.get("clubId")
        rows = []
        for event in self.events:
            if club_id and event.club_id != club_id:
                continue
            zone = clock.zone_of(event.club)
            prices = [ticket.price_before_tax for ticket in event.tickets.all()]
            rows.append(
                {
                    "event": event,
                    "start": event.start_time.astimezone(zone),
                    "end": event.end_time.astimezone(zone),
                    "from_price": min(prices) if prices else None,
                }
            )
        return rows[: config.get("limit") or 10]

    def _media(self, ids) -> dict[int, MediaItem]:
        items = MediaItem.objects.filter(organization=self.organization, pk__in=ids)
        return {item.pk: item for item in items}

    def faqs_for(self, config: dict, locale: str) -> list[ContentItem]:
        ids = config.get("contentItemIds") or []
        if ids:
            by_id = {item.pk: item for item in self.faqs}
            return [by_id[pk] for pk in ids if pk in by_id]
        return in_locale(self.faqs, locale, self.organization.default_language)

    def media_for(self, config: dict) -> list[MediaItem]:
        return [self.media[pk] for pk in config.get("mediaIds") or [] if pk in self.media]

    def _classes(self, days: int) -> list[ClassOccurrence]:
        now = timezone.now()
        until = now + dt.timedelta(days=min(days, MAX_SCHEDULE_DAYS))
        return list(
            ClassOccurrence.objects.filter(
                organization=self.organization,
                visibility=Visibility.PUBLIC,
                start_time__gte=now,
                start_time__lt=until,
            )
            .filter(~Q(status=ClassStatus.CANCELLED))
            .select_related("club")
            .only("id", "name", "start_time", "end_time", "club_id", "class_type_id", "club__name", "club__timezone")
            .order_by("start_time", "id")[:MAX_SCHEDULE_ROWS]
        )

    def _clubs(self) -> dict[int, Club]:
        return {club.pk: club for club in Club.objects.filter(organization=self.organization).order_by("id")}

    def plans_for(self, config: dict) -> list[Plan]:
        ids = config.get("planIds") or []
        if not ids:
            return self.plans
        by_id = {plan.pk: plan for plan in self.plans}
        return [by_id[pk] for pk in ids if pk in by_id]

    def classes_for(self, config: dict) -> list[dict]:
        now = timezone.now()
        until = now + dt.timedelta(days=min(config.get("days") or 7, MAX_SCHEDULE_DAYS))
        club_id, type_ids = config.get("clubId"), set(config.get("classTypeIds") or [])
        rows = []
        for occurrence in self.classes:
            if occurrence.start_time >= until or (club_id and occurrence.club_id != club_id):
                continue
            if type_ids and occurrence.class_type_id not in type_ids:
                continue
            zone = clock.zone_of(occurrence.club)
            rows.append(
                {
                    "occurrence": occurrence,
                    "start": occurrence.start_time.astimezone(zone),
                    "end": occurrence.end_time.astimezone(zone),
                }
            )
        return rows

    def club_for(self, config: dict) -> Club | None:
        club_id = config.get("clubId") or self.website.club_id
        if club_id in self.clubs:
            return self.clubs[club_id]
        return next(iter(self.clubs.values()), None)

    def form_for(self, config: dict, locale: str) -> dict | None:
        """`{name, url}` of the active form `config["formId"]` names (its page on the default website), else None."""
        form_id = config.get("formId")
        if not form_id:
            return None
        if self._form_links is None:
            self._form_links = form_links(self.website, self.form_ids, locale)
        return self._form_links.get(form_id)
