"""The gym's marketplace page (HTML), its public class feed and the instructors' private feeds (iCalendar).

No credential anywhere (an `Authorization` header is ignored), GET and HEAD only, and nothing is written.
"""

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from apps.api.page_security import public_page
from apps.instructors.calendar_feed import instructor_for_token

from .feeds import club_feed, instructor_feed
from .labels import Labels, page_locale
from .page import build_page, listed_club

CALENDAR_TYPE = "text/calendar; charset=utf-8"


def _not_found(request, locale: str):
    labels = Labels(locale)
    return render(request, "marketplace/not_found.html", {"labels": labels.words, "locale": labels.locale}, status=404)


@public_page
@require_safe
def club_page(request, slug: str):
    club = listed_club(slug)
    requested = request.GET.get("locale")
    if club is None:
        return _not_found(request, page_locale(requested, None))
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
def club_classes_ics(request, slug: str):
    club = listed_club(slug)
    if club is None:
        return _not_found(request, page_locale(request.GET.get("locale"), None))
    response = HttpResponse(club_feed(club, timezone.now()), content_type=CALENDAR_TYPE)
    response["Content-Disposition"] = f'inline; filename="{club.slug}-classes.ics"'
    return response


@public_page
@require_safe
def instructor_calendar(request, token: str):
    instructor = instructor_for_token(token)
    if instructor is None:
        return _not_found(request, "en")
    response = HttpResponse(instructor_feed(instructor, timezone.now()), content_type=CALENDAR_TYPE)
    response["Content-Disposition"] = 'inline; filename="classes.ics"'
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex"
    return response
