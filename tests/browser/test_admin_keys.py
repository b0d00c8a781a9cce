"""The key-management admin in a real browser (Debian's chromium through Playwright; never a downloaded browser).

An organization admin signs in, creates a key (Read on classes, Write on bookings, an expiry date), copies the
token shown once, uses it against the API, checks the key's page never shows it again, and revokes it.
"""

import datetime as dt
import json
import os
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from apps.organizations.models import ApiKey, StaffMembership

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", "/tmp"))
EMAIL, PASSWORD = "owner@padel-palace.example.com", "correct-horse-battery-staple"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason=f"chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    ),
]


def call_me(base_url: str, token: str) -> tuple[int, dict]:
    request = urllib.request.Request(f"{base_url}/v1/platform/me", headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - the live test server
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture
def browser_page(monkeypatch):
    sync_api = pytest.importorskip("playwright.sync_api")
    # Playwright's sync API keeps an event loop running on this thread; the test's own ORM calls are still
    # plain synchronous code (the live server answers from its own thread).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(15_000)
        try:
            yield context.new_page()
        finally:
            context.close()
            browser.close()


@pytest.fixture
def org_admin_user(transactional_db, organization):
    user = get_user_model().objects.create_user(username=EMAIL, email=EMAIL, password=PASSWORD, is_staff=True)
    StaffMembership.objects.create(user=user, organization=organization, role="admin")
    return user


def test_org_admin_creates_uses_and_revokes_a_key(
    transactional_db, live_server, organization, org_admin_user, browser_page
):
    page = browser_page
    base = live_server.url

    # sign in
    page.goto(f"{base}/admin/login/?next=/admin/")
    page.fill("#id_username", EMAIL)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(f"{base}/admin/")

    # the admin's own CSS is served: the page is styled, not raw HTML
    assert page.eval_on_selector("#header", "el => getComputedStyle(el).backgroundColor") not in (
        "",
        "rgba(0, 0, 0, 0)",
    )

    # open API keys and the add form
    page.screenshot(path=str(SCREENSHOTS / "admin-keys-index.png"), full_page=True)
    page.locator("#content-main").get_by_role("link", name="API keys", exact=True).click()
    page.wait_for_url(f"{base}/admin/organizations/apikey/")
    page.get_by_role("link", name="Add API key").click()
    page.wait_for_url(f"{base}/admin/organizations/apikey/add/")

    page.select_option("#id_organization", label=organization.name)
    page.fill("#id_name", "Front desk tablet")
    page.fill("#id_description", "Reads the timetable, books people in")
    page.check("#id_scopes_classes_read")
    page.check("#id_scopes_bookings_write")
    expiry = dt.date.today() + dt.timedelta(days=30)
    page.fill("#id_expires_on", expiry.isoformat())
    page.screenshot(path=str(SCREENSHOTS / "admin-keys-add.png"), full_page=True)
    page.click("input[name=_save]")

    # the token is shown once; copy it from the page
    token_input = page.locator("#api-key-token")
    token_input.wait_for()
    token = token_input.input_value()
    assert token.startswith("gpk_")
    assert page.get_by_text("It is shown only this once").is_visible()
    page.screenshot(path=str(SCREENSHOTS / "admin-keys-token.png"), full_page=True)

    key = ApiKey.objects.get(name="Front desk tablet")
    assert sorted(key.scopes) == ["bookings:write", "classes:read"]
    assert key.expires_at is not None and key.expires_at.date() >= expiry - dt.timedelta(days=1)

    status, body = call_me(base, token)
    assert status == 200, body
    assert sorted(body["scopes"]) == ["bookings:write", "classes:read"]
    assert sorted(body["effectiveScopes"]) == ["bookings:write", "classes:read"]
    assert body["organization"]["id"] == organization.id
    assert body["fullAccess"] is False

    # the key's change page never shows the token again
    page.get_by_role("link", name="View key").click()
    page.wait_for_url(f"{base}/admin/organizations/apikey/{key.pk}/change/")
    assert token not in page.content()
    assert token.split("_", 2)[2] not in page.content()  # the secret (it may itself contain "_")
    assert page.get_by_text(key.prefix).first.is_visible()

    # revoke through the changelist action
    page.goto(f"{base}/admin/organizations/apikey/")
    page.check(f"input[name=_selected_action][value='{key.pk}']")
    page.select_option("select[name=action]", "revoke_selected")
    page.click("button[name=index]")
    page.get_by_text("Revoked 1 API key.").wait_for()
    page.screenshot(path=str(SCREENSHOTS / "admin-keys-revoked.png"), full_page=True)

    key.refresh_from_db()
    assert key.revoked_at is not None
    status, body = call_me(base, token)
    assert status == 401
    assert body["code"] == "UNAUTHENTICATED"
