"""The published website in a real browser (Debian's chromium through Playwright): a visitor opens the homepage
and a second page, sees the hero, the plans with their tax-inclusive prices, the class schedule on the club's
clock and the theme colour, switches language, and axe-core finds no serious or critical accessibility problem."""

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from apps.billing.models import Plan
from tests.factories import make_class

from .test_admin_keys import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM, reason="no chromium")]

BASE = "/v1/platform/website"
SERIOUS = {"serious", "critical"}


@pytest.fixture
def site_page(monkeypatch, live_server, settings):
    sync_api = pytest.importorskip("playwright.sync_api")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    port = live_server.url.rsplit(":", 1)[1]
    settings.SITE_SCHEME = "http"
    settings.SITE_HOST = f"sites.localhost:{port}"
    args = [*CHROMIUM_ARGS, "--host-resolver-rules=MAP *.sites.localhost 127.0.0.1"]
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(15_000)
        # Records what the page's Content-Security-Policy blocks (an init script is not subject to it).
        context.add_init_script(
            "window.__cspViolations = [];"
            "document.addEventListener('securitypolicyviolation', e => window.__cspViolations.push("
            "e.violatedDirective + ' ' + e.blockedURI));"
        )
        try:
            yield context.new_page()
        finally:
            context.close()
            browser.close()


def serious_violations(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe  # noqa: PLC0415 - optional browser-test dependency

    violations = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['help']}" for v in violations if v.get("impact") in SERIOUS]


def test_a_visitor_reads_the_published_site(transactional_db, live_server, organization, club, api, site_page):
    Plan.objects.create(organization=organization, name="Unlimited", price=Decimal("49.90"))
    start = (timezone.now() + dt.timedelta(days=1)).astimezone(dt.UTC).replace(hour=17, minute=0, second=0)
    make_class(organization, club, name="Sunset yoga", start=start)
    sections = [
        {
            "type": "hero",
            "config": {"title": "Play padel in Madrid"},
            "translations": {"es": {"title": "Juega al pádel"}},
        },
        {"type": "plans", "config": {"heading": "Memberships"}, "translations": {"es": {"heading": "Cuotas"}}},
        {"type": "class-schedule", "config": {"heading": "This week"}},
    ]
    home = {"slug": "home", "title": "Home", "sections": sections}
    assert api.post(f"{BASE}/pages", home, format="json").status_code == 201
    about = [{"type": "text", "config": {"heading": "Our story", "body": "<p>Courts since 1999.</p>"}}]
    about_page = {"slug": "about", "title": "About us", "sections": about}
    assert api.post(f"{BASE}/pages", about_page, format="json").status_code == 201
    header = {"type": "header", "config": {"links": [{"label": "About us", "url": "/about"}]}}
    assert api.patch(f"{BASE}/layout", {"header": header}, format="json").status_code < 300
    assert api.patch(f"{BASE}/styles", {"colors": {"primary": "#b91c1c"}}, format="json").status_code < 300
    assert api.post(f"{BASE}/publish", {}, format="json").status_code == 201
    url = api.get(BASE).json()["url"]

    page = site_page
    response = page.goto(f"{url}/")
    assert "script-src 'none'" in response.headers["content-security-policy"]
    assert response.headers["x-frame-options"] == "DENY"
    assert page.locator("h1").inner_text() == "Play padel in Madrid"
    plan = page.locator(".plan").first
    assert "Unlimited" in plan.inner_text() and "€49.90" in plan.inner_text()
    local = start.astimezone(ZoneInfo("Europe/Madrid")).strftime("%H:%M")
    schedule = page.locator(".class-schedule").inner_text()
    assert "Sunset yoga" in schedule and f"{local}–" in schedule
    primary = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--color-primary').trim()")
    assert primary == "#b91c1c"
    link_colour = page.evaluate("getComputedStyle(document.querySelector('main a, header a')).color")
    assert link_colour == "rgb(185, 28, 28)"
    assert serious_violations(page) == []
    page.screenshot(path=str(SCREENSHOTS / "website-home.png"), full_page=True)

    page.get_by_role("link", name="ES").click()
    page.wait_for_url(f"{url}/es/")
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.locator("h1").inner_text() == "Juega al pádel"
    assert "Cuotas" in page.locator(".plans h2").inner_text()

    page.get_by_role("link", name="About us").click()
    page.wait_for_url(f"{url}/about")
    assert page.locator("h1").inner_text() == "About us"
    assert "Courts since 1999." in page.locator(".text").inner_text()
    assert page.evaluate("window.__cspViolations") == []  # the theme's inline style and everything else loads
    assert serious_violations(page) == []


def test_a_visitor_reads_a_published_post(transactional_db, live_server, organization, api, site_page):
    post = {
        "type": "post",
        "title": "Night padel is back",
        "excerpt": "Courts open until midnight.",
        "status": "published",
        "content": {"html": "<p>From Friday, <strong>all courts</strong> stay open until midnight.</p>"},
    }
    created = api.post("/v1/platform/content-items", post, format="json")
    assert created.status_code == 201, created.content
    hero = [{"type": "hero", "config": {"title": "Welcome"}}]
    assert (
        api.post(f"{BASE}/pages", {"slug": "home", "title": "Home", "sections": hero}, format="json").status_code == 201
    )
    assert api.post(f"{BASE}/publish", {}, format="json").status_code == 201
    url = api.get(BASE).json()["url"]

    page = site_page
    page.goto(f"{url}/blog")
    page.get_by_role("link", name="Night padel is back").click()
    page.wait_for_url(f"{url}/blog/{created.json()['slug']}")
    assert page.locator("h1").inner_text() == "Night padel is back"
    assert "all courts" in page.locator(".post-body strong").inner_text()
    assert serious_violations(page) == []
