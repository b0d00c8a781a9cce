"""The gym's marketplace page in a real browser (Debian's chromium through Playwright; never a downloaded browser).

A visitor follows an offer's link (`?date=&time=&areaId=`) and sees that time preselected, picks another day with
the plain date form (JavaScript off: the page needs none), and axe-core finds no serious accessibility violation.
"""

import datetime as dt
import os
from pathlib import Path
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings

from apps.bookings.models import Booking
from apps.clubs.models import Area, AreaType, Club

from .test_admin_keys import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS

MADRID = ZoneInfo("Europe/Madrid")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason=f"chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    ),
]


@pytest.fixture
def browser(monkeypatch):
    sync_api = pytest.importorskip("playwright.sync_api")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def marketplace_club(transactional_db, organization, contact):
    club = Club.objects.create(
        organization=organization,
        name="Centre Court",
        slug="centre-court",
        timezone="Europe/Madrid",
        city="Madrid",
        country="ES",
        phone="+34 910 000 001",
        website="https://centre-court.example.com",
        sports=["padel"],
        marketplace_listed=True,
        opening_hours={
            d: [["08:00", "22:00"]]
            for d in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
        },
    )
    court_type = AreaType.objects.create(organization=organization, name="Padel court", slug="padel-court")
    court = Area.objects.create(
        organization=organization, club=club, area_type=court_type, name="Court 1", sports=["padel"], hourly_rate=20
    )
    day = dt.datetime.now(MADRID).date() + dt.timedelta(days=3)
    Booking.objects.create(
        organization=organization,
        club=club,
        area=court,
        contact=contact,
        type="area",
        start_time=dt.datetime.combine(day, dt.time(10), tzinfo=MADRID),
        end_time=dt.datetime.combine(day, dt.time(11), tzinfo=MADRID),
    )
    return club, court, day


def offer_url(live_server, club, court, day, time) -> str:
    """The offer's `url` as the offers search writes it, on the live server's host."""
    url = f"{settings.MARKETPLACE_URL}/clubs/{club.slug}?date={day.isoformat()}&time={time}&areaId={court.id}"
    parts = urlsplit(url)
    return f"{live_server.url}{parts.path}?{parts.query}"


def test_offer_link_preselects_its_time_without_javascript(browser, live_server, marketplace_club):
    club, court, day = marketplace_club
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto(offer_url(live_server, club, court, day, "11:00"))
        assert page.locator("html").get_attribute("lang") == "en"
        selected = page.locator('a[aria-current="true"]')
        assert selected.count() == 1
        assert selected.is_visible()
        assert selected.get_attribute("data-time") == "11:00" and selected.get_attribute("data-area") == str(court.id)
        assert "Selected" in selected.inner_text()
        summary = page.get_by_test_id("selected-summary")
        assert summary.is_visible() and "Court 1" in summary.inner_text() and "11:00–12:00" in summary.inner_text()
        # the selected slot looks different from the others
        other = page.locator(f'a[data-area="{court.id}"][data-time="12:00"]')
        assert selected.evaluate("el => getComputedStyle(el).backgroundColor") != other.evaluate(
            "el => getComputedStyle(el).backgroundColor"
        )
        # the booked hour is not offered
        assert page.locator(f'a[data-area="{court.id}"][data-time="10:00"]').count() == 0
        cta = page.get_by_role("link", name="Book on the club's website")
        assert cta.get_attribute("href") == "https://centre-court.example.com"
        page.screenshot(path=str(SCREENSHOTS / "marketplace-page-offer.png"), full_page=True)

        # another day through the plain GET form, in Spanish
        page.goto(f"{live_server.url}/marketplace/clubs/{club.slug}?locale=es")
        next_day = day + dt.timedelta(days=1)
        page.fill("#date", next_day.isoformat())
        page.select_option("#duration", "90")
        page.get_by_role("button", name="Ver horas libres").click()
        page.wait_for_url(f"**date={next_day.isoformat()}**")
        assert page.locator("html").get_attribute("lang") == "es"
        assert "duration=90" in page.url and "locale=es" in page.url
        last = page.locator(f'a[data-area="{court.id}"]').last
        assert last.get_attribute("data-time") == "20:30"
        last.click()  # choosing a time preselects it the same way
        assert page.locator('a[aria-current="true"]').get_attribute("data-time") == "20:30"
        assert "Seleccionada" in page.locator('a[aria-current="true"]').inner_text()
    finally:
        context.close()


def test_page_has_no_serious_accessibility_violations(browser, live_server, marketplace_club):
    axe = pytest.importorskip("axe_playwright_python")
    script = Path(axe.__file__).parent / "axe.min.js"
    club, court, day = marketplace_club
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        for locale in ("en", "es"):
            page.goto(offer_url(live_server, club, court, day, "11:00") + f"&locale={locale}")
            # Evaluated, not added as a <script>: the page's Content-Security-Policy forbids every script.
            page.evaluate(script.read_text())
            results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
            serious = [
                (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
                for v in results["violations"]
                if v["impact"] in ("serious", "critical")
            ]
            assert serious == [], serious
            assert results["passes"], "axe ran no check"
    finally:
        context.close()
