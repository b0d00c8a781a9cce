"""A public form in a real browser (Debian's chromium through Playwright): a visitor opens the form from the
website's contact section, fills every kind of question, first forgets a required one and is told so, then sends
it and sees the confirmation; the form's `completionCount` rises by one through the API, and axe-core finds no
serious or critical accessibility problem on the form page (with and without errors)."""

import pytest

from apps.forms.models import FormSubmission

from .test_admin_keys import CHROMIUM, SCREENSHOTS
from .test_website import serious_violations, site_page  # noqa: F401 - the fixture is used by name

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM, reason="no chromium")]

QUESTIONS = [
    {"type": "text", "label": "Full name", "required": True},
    {"type": "email", "label": "E-mail", "required": True},
    {"type": "phone", "label": "Phone"},
    {"type": "select", "label": "Which activity?", "required": True, "options": ["Padel", "Yoga"]},
    {"type": "multiselect", "label": "Best days", "options": ["Weekdays", "Saturday", "Sunday"]},
    {"type": "date", "label": "Preferred start date"},
    {"type": "number", "label": "How many people?"},
    {"type": "textarea", "label": "Anything we should know?"},
    {"type": "checkbox", "label": "I agree to be contacted", "required": True},
]


def test_a_visitor_fills_and_submits_a_form(transactional_db, live_server, organization, api, site_page):  # noqa: F811
    form = api.post("/v1/platform/forms", {"name": "Free trial request", "questions": QUESTIONS}, format="json")
    assert form.status_code == 201, form.content
    form = form.json()
    contact = {"type": "contact", "config": {"heading": "Visit us", "formId": form["id"]}}
    home = {"slug": "home", "title": "Home", "sections": [contact]}
    assert api.post("/v1/platform/website/pages", home, format="json").status_code == 201
    assert api.post("/v1/platform/website/publish", {}, format="json").status_code == 201
    site = api.get("/v1/platform/website").json()["url"]
    form = api.get(f"/v1/platform/forms/{form['id']}").json()  # `url` on the live server's site host
    before = form["completionCount"]

    page = site_page
    page.goto(f"{site}/")
    page.get_by_role("link", name="Free trial request").click()
    page.wait_for_url(form["url"])
    assert page.locator("h1").inner_text() == "Free trial request"
    assert serious_violations(page) == []

    page.get_by_label("Full name").fill("Lucía Martín")
    page.get_by_label("E-mail").fill("not-an-email@")
    page.get_by_label("Which activity?").select_option("Yoga")
    page.get_by_label("Sunday").check()
    page.get_by_label("Preferred start date").fill("2030-01-15")
    page.get_by_label("How many people?").fill("2")
    page.get_by_label("Anything we should know?").fill("First time playing.")
    page.get_by_label("I agree to be contacted").check()
    page.evaluate("document.querySelector('form').noValidate = true")  # let the server judge the e-mail
    page.get_by_role("button", name="Send").click()
    alert = page.get_by_role("alert")
    assert "Please enter a valid e-mail address." in alert.inner_text()
    assert page.get_by_label("Full name").input_value() == "Lucía Martín"  # kept
    assert page.get_by_label("Sunday").is_checked()
    assert serious_violations(page) == []
    assert not FormSubmission.objects.exists()

    page.get_by_label("E-mail").fill("lucia@example.com")
    page.get_by_role("button", name="Send").click()
    page.wait_for_url(f"{form['url']}?submitted=1")
    assert "Your answers were sent." in page.get_by_role("status").inner_text()
    page.screenshot(path=str(SCREENSHOTS / "form-confirmation.png"), full_page=True)

    after = api.get(f"/v1/platform/forms/{form['id']}").json()["completionCount"]
    assert after == before + 1
    answers = {answer["label"]: answer["value"] for answer in FormSubmission.objects.get().answers}
    assert answers["Best days"] == ["Sunday"] and answers["I agree to be contacted"] is True
