"""Live data the published sections show: the organization's public plans and upcoming public classes, and clubs.

Loaded once per rendered page whatever the number of sections (one query per kind), then picked per section.
"""

import datetime as dt
from zoneinfo import ZoneInfo

from django.db.models import Q
from django.utils import timezone

from apps.billing.models import Plan
from apps.classes.choices import ClassStatus, Visibility
from apps.classes.models import ClassOccurrence
from apps.clubs.models import Club

MAX_SCHEDULE_DAYS = 14
MAX_SCHEDULE_ROWS = 200


class LiveData:
    def __init__(self, website, sections: list[dict]):
        self.website = website
        self.organization = website.organization
        types = {section["type"] for section in sections}
        self.plans = self._plans() if "plans" in types else []
        days = [section["config"].get("days") or 7 for section in sections if section["type"] == "class-schedule"]
        self.classes = self._classes(max(days)) if days else []
        self.clubs = self._clubs() if types & {"contact", "class-schedule"} or website.club_id else {}

    def _plans(self) -> list[Plan]:
        return list(
            Plan.objects.filter(organization=self.organization, is_active=True, visibility=Visibility.PUBLIC)
            .only("id", "name", "description", "price", "signup_fee", "billing_frequency", "features", "translations")
            .order_by("price", "id")
        )

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
            zone = ZoneInfo(occurrence.club.timezone or "UTC")
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
