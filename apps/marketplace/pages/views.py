"""The gym's marketplace page (HTML), its public class feed and the instructors' private feeds (iCalendar).

No credential anywhere (an `Authorization` header is ignored), GET and HEAD only, and nothing is written. Every
response counts against the `marketplace-pages` per-address limit; the gym page also against the offer search's
`marketplace-offers` (it computes the same free times). The gym page (per query) and `classes.ics` are reused from
the shared cache for `MARKETPLACE_PAGE_CACHE_SECONDS` (an instructor's feed too, per instructor, once its link is
checked), keyed on the availability version (`freshness`), so a
booking, block, class, court, club, pricing rule or organization change shows at once; whether the club is still
listed is read on every request (one query), whatever wrote it.
"""

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from apps.api import public_limits
from apps.api.page_security import public_page
from apps.instructors.calendar_feed import instructor_for_token

from .. import freshness
from ..profile import listed_club
from .feeds import club_feed, instructor_feed
from .labels import Labels, page_locale
from .page import build_page

CALENDAR_TYPE = "text/calendar; charset=utf-8"
# The query parameters a gym page reads: the cache key (anything else in the query changes nothing).
PAGE_PARAMETERS = ("locale", "date", "time", "areaId", "duration")


def _not_found(request, locale: str):
    labels = Labels(locale)
    return render(request, "marketplace/not_found.html", {"labels": labels.words, "locale": labels.locale}, status=404)


def _reused(kind: str, key: dict, build) -> HttpResponse:
    """`build()`'s response, or the one stored for the same key (only its status, type and body are kept)."""

    def snapshot():
        response = build()
        return response.status_code, response["Content-Type"], response.content, response.get("Content-Disposition")

    status, content_type, body, disposition = freshness.cached(
        kind, key, snapshot, settings.MARKETPLACE_PAGE_CACHE_SECONDS
    )
    response = HttpResponse(body, status=status, content_type=content_type)
    if disposition:
        response["Content-Disposition"] = disposition
    return response


@public_page
@require_safe
@public_limits.limit_public(public_limits.MARKETPLACE_PAGES, public_limits.MARKETPLACE_OFFERS)
def club_page(request, slug: str):
    club = listed_club(slug)
    requested = request.GET.get("locale")
    if club is None:
        return _not_found(request, page_locale(requested, None))
    key = {"club": club.pk, **{name: request.GET.get(name, "") for name in PAGE_PARAMETERS}}
    return _reused("page", key, lambda: _club_page(request, club))


def _club_page(request, club):
    requested = request.GET.get("locale")
    locale = page_locale(requested, club.organization.default_language)
    labels = Labels(locale)
    link_locale = locale if requested else None
    context = build_page(club, request.GET, locale=locale, labels=labels, link_locale=link_locale)
    context.update(labels=labels.words, locale=locale, locale_param=link_locale)
    if "errors" in context:
        context["club"] = club
        return render(request, "marketplace/bad_request.html", context, status=400)
    context["page_title"] = labels.get("page_title", club=club.name)
    context["timezone_note"] = labels.get("timezone_note", timezone=club.timezone)
    context["free_times_heading"] = labels.get("free_times_on", date=context["date_label"])
    context["courts_caption"] = labels.get("courts_caption", currency=club.organization.currency)
    if club.phone:
        context["book_phone"] = labels.get("book_phone", phone=club.phone)
    return render(request, "marketplace/club.html", context)


@public_page
@require_safe
@public_limits.limit_public(public_limits.MARKETPLACE_PAGES)
def club_classes_ics(request, slug: str):
    club = listed_club(slug)
    if club is None:
        return _not_found(request, page_locale(request.GET.get("locale"), None))
    return _reused("feed", {"club": club.pk}, lambda: _club_feed(club))


def _club_feed(club):
    response = HttpResponse(club_feed(club, timezone.now()), content_type=CALENDAR_TYPE)
    response["Content-Disposition"] = f'inline; filename="{club.slug}-classes.ics"'
    return response


@public_page
@require_safe
@public_limits.limit_public(public_limits.MARKETPLACE_PAGES)
def instructor_calendar(request, token: str):
    instructor = instructor_for_token(token)  # checked on every request: a revoked link is refused at once
    if instructor is None:
        return _not_found(request, "en")
    response = _reused(
        "instructor-feed",
        {"instructor": instructor.pk},
        lambda: HttpResponse(instructor_feed(instructor, timezone.now()), content_type=CALENDAR_TYPE),
    )
    response["Content-Disposition"] = 'inline; filename="classes.ics"'
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex"
    return response
