"""A form's public page on the default website, as a visitor gets it without JavaScript: live at once (no
publish), each question type with its input, server-side validation with the values kept, CSRF, the honeypot,
the per-address rate limit, the confirmation, locales, and answers never leaving the admin."""

import re
from types import SimpleNamespace

import django_ratelimit.core
import orjson
import pytest
from django.test import Client

from apps.api import public_limits
from apps.domain_events.models import DomainEvent
from apps.forms import csrf
from apps.forms.models import Form, FormSubmission
from apps.organizations.models import Organization
from apps.website.models import Website

HOST = "padel-palace.sites.localhost"
URL = "/v1/platform/forms"
QUESTIONS = [
    {"type": "text", "label": "Full name", "required": True},
    {"type": "email", "label": "E-mail", "required": True},
    {"type": "phone", "label": "Phone"},
    {"type": "select", "label": "Activity", "required": True, "options": ["Padel", "Yoga"]},
    {"type": "multiselect", "label": "Days", "options": ["Weekdays", "Saturday", "Sunday"]},
    {"type": "date", "label": "Start"},
    {"type": "number", "label": "People"},
    {"type": "textarea", "label": "Notes"},
    {"type": "checkbox", "label": "I agree", "required": True},
]
GOOD = {
    "q1": "Lucía Martín",
    "q2": "lucia@example.com",
    "q3": "+34 600 000 000",
    "q4": "Yoga",
    "q5": ["Sunday", "Weekdays"],
    "q6": "2030-01-15",
    "q7": "2",
    "q8": "Knee injury",
    "q9": "yes",
}


@pytest.fixture
def form(api):
    response = api.post(URL, {"name": "Free trial", "questions": QUESTIONS}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def visitor():
    return Client(HTTP_HOST=HOST)


def page_path(form):
    return form["url"].split(HOST, 1)[1]


def open_form(visitor, path):
    """GET the page; returns (response, the hidden CSRF token)."""
    response = visitor.get(path)
    assert response.status_code == 200, response.content
    token = re.search(r'name="csrf_token" value="([^"]+)"', response.content.decode())
    return response, token[1]


def submit(visitor, path, data, **extra):
    _, token = open_form(visitor, path)
    return visitor.post(path, {"csrf_token": token, **data}, **extra)


@pytest.mark.django_db
def test_the_page_is_live_as_soon_as_the_form_is_created_without_a_website_publish(api, form, visitor):
    assert form["url"] == f"https://{HOST}/forms/free-trial"
    assert Website.objects.get(is_default=True).active_release is None  # never published
    response, _ = open_form(visitor, page_path(form))
    html = response.content.decode()
    assert response["Content-Type"].startswith("text/html")
    assert response["Cache-Control"] == "private, no-store"
    assert '<html lang="en">' in html and "<h1>Free trial</h1>" in html
    # a change is live at once too
    api.patch(f"{URL}/{form['id']}", {"name": "Try us for free"}, format="json")
    assert "<h1>Try us for free</h1>" in visitor.get(page_path(form)).content.decode()


@pytest.mark.django_db
def test_each_type_gets_its_input_with_labels_tied_and_required_marked(form, visitor):
    html = visitor.get(page_path(form)).content.decode()
    assert '<label for="q1">Full name <span class="required">(required)</span></label>' in html
    assert re.search(r'<input id="q1" name="q1" value="" type="text" maxlength="1000" required', html)
    assert re.search(r'<input id="q2" name="q2" value="" type="email"', html)
    assert re.search(r'<input id="q3" name="q3" value="" type="tel"', html)
    assert '<select id="q4" name="q4" required aria-required="true">' in html
    assert '<option value="Padel">Padel</option>' in html
    assert "<legend>Days</legend>" in html
    assert re.search(
        r'<label class="choice" for="q5-1"><input type="checkbox" id="q5-1" name="q5" value="Saturday">', html
    )
    assert re.search(r'<input id="q6" name="q6" value="" type="date">', html)
    assert re.search(r'<input id="q7" name="q7" value="" type="number"', html)
    assert '<textarea id="q8" name="q8"' in html
    assert re.search(r'<input type="checkbox" id="q9" name="q9" value="yes" required', html)
    # the honeypot is hidden from people and assistive technology
    assert re.search(r'<div class="hp" aria-hidden="true">.*name="website_url".*tabindex="-1"', html)


@pytest.mark.django_db
def test_a_good_submission_is_stored_counted_and_confirmed(api, form, visitor):
    path = page_path(form)
    response = submit(visitor, path, GOOD)
    assert response.status_code == 303
    assert response["Location"] == f"{path}?submitted=1"
    submission = FormSubmission.objects.get()
    assert submission.form_id == form["id"] and submission.locale == "en"
    assert {a["questionId"]: a["value"] for a in submission.answers} == {
        1: "Lucía Martín",
        2: "lucia@example.com",
        3: "+34 600 000 000",
        4: "Yoga",
        5: ["Weekdays", "Sunday"],
        6: "2030-01-15",
        7: "2",
        8: "Knee injury",
        9: True,
    }
    assert submission.answers[0]["label"] == "Full name"
    confirmation = visitor.get(response["Location"])
    assert confirmation.status_code == 200
    assert 'role="status"' in confirmation.content.decode() and "Thank you" in confirmation.content.decode()
    assert api.get(f"{URL}/{form['id']}").json()["completionCount"] == 1


@pytest.mark.django_db
def test_optional_questions_may_be_left_empty(form, visitor):
    data = {key: GOOD[key] for key in ("q1", "q2", "q4", "q9")}
    assert submit(visitor, page_path(form), data).status_code == 303
    answers = {a["questionId"]: a["value"] for a in FormSubmission.objects.get().answers}
    assert answers[3] is None and answers[5] is None and answers[9] is True


@pytest.mark.parametrize(
    ("changes", "question", "message"),
    [
        ({"q1": "  "}, 1, "This question needs an answer."),
        ({"q9": ""}, 9, "This question needs an answer."),
        ({"q4": ""}, 4, "This question needs an answer."),
        ({"q1": "x" * 1001}, 1, "Please keep this under 1000 characters."),
        ({"q8": "x" * 5001}, 8, "Please keep this under 5000 characters."),
        ({"q2": "not-an-email"}, 2, "Please enter a valid e-mail address."),
        ({"q3": "call me"}, 3, "Please enter a valid phone number."),
        ({"q3": "+1 2"}, 3, "Please enter a valid phone number."),
        ({"q4": "Tennis"}, 4, "Please choose among the listed options."),
        ({"q5": ["Sunday", "Monday"]}, 5, "Please choose among the listed options."),
        ({"q6": "2030-02-30"}, 6, "Please enter a date (YYYY-MM-DD)."),
        ({"q6": "15/01/2030"}, 6, "Please enter a date (YYYY-MM-DD)."),
        ({"q7": "two"}, 7, "Please enter a number."),
        ({"q7": "1e400"}, 7, "Please enter a number."),
        ({"q7": "NaN"}, 7, "Please enter a number."),
    ],
)
@pytest.mark.django_db
def test_bad_answers_are_shown_again_with_errors_and_values_kept(form, visitor, changes, question, message):
    response = submit(visitor, page_path(form), {**GOOD, **changes})
    assert response.status_code == 400
    html = response.content.decode()
    assert f'<p class="error" id="q{question}-error">{message}</p>' in html
    assert 'role="alert"' in html and "<title>Error: " in html
    assert 'aria-invalid="true"' in html and f'aria-describedby="q{question}-error"' in html
    if question != 2:
        assert 'value="lucia@example.com"' in html  # the other answers are kept
    assert "Knee injury" in html or question == 8
    assert not FormSubmission.objects.exists()


@pytest.mark.django_db
def test_a_number_with_a_decimal_comma_is_read(form, visitor):
    assert submit(visitor, page_path(form), {**GOOD, "q7": "2,5"}).status_code == 303
    assert {a["questionId"]: a["value"] for a in FormSubmission.objects.get().answers}[7] == "2.5"


@pytest.mark.django_db
def test_a_post_without_a_valid_token_or_from_another_origin_is_refused(form, visitor):
    path = page_path(form)
    _, token = open_form(visitor, path)
    assert visitor.post(path, GOOD).status_code == 403  # no token
    assert visitor.post(path, {**GOOD, "csrf_token": token + "x"}).status_code == 403
    assert visitor.post(path, {**GOOD, "csrf_token": token}, HTTP_ORIGIN="https://evil.example").status_code == 403
    assert visitor.post(path, {**GOOD, "csrf_token": token}, HTTP_ORIGIN="null").status_code == 403
    stranger = Client(HTTP_HOST=HOST)  # the token is bound to the visitor's cookie
    refused = stranger.post(path, {**GOOD, "csrf_token": token})
    assert refused.status_code == 403
    assert 'role="alert"' in refused.content.decode() and 'value="lucia@example.com"' in refused.content.decode()
    assert not FormSubmission.objects.exists()
    ok = visitor.post(path, {**GOOD, "csrf_token": token}, HTTP_ORIGIN=f"https://{HOST}")
    assert ok.status_code == 303 and FormSubmission.objects.count() == 1


@pytest.mark.django_db
def test_a_token_for_one_form_does_not_submit_another(api, form, visitor):
    other = api.post(URL, {"name": "Waiver", "questions": QUESTIONS}, format="json").json()
    _, token = open_form(visitor, page_path(form))
    assert visitor.post(page_path(other), {**GOOD, "csrf_token": token}).status_code == 403
    assert not FormSubmission.objects.exists()


@pytest.mark.django_db
def test_the_csrf_cookie_is_http_only_same_site_and_secure_on_https(form, visitor):
    cookie = visitor.get(page_path(form)).cookies[csrf.COOKIE_NAME]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["secure"]
    # a returning visitor keeps the cookie (no new one is set)
    assert csrf.COOKIE_NAME not in visitor.get(page_path(form)).cookies


@pytest.mark.django_db
def test_a_filled_honeypot_is_confirmed_but_nothing_is_stored(form, visitor):
    response = submit(visitor, page_path(form), {**GOOD, "website_url": "http://spam.example"})
    assert response.status_code == 303
    assert visitor.get(response["Location"]).status_code == 200
    assert not FormSubmission.objects.exists()


@pytest.mark.django_db
def test_submissions_are_rate_limited_per_client_address(form, visitor, monkeypatch):
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: 1_000_000_020))  # one window
    limit = public_limits.limit_of(public_limits.FORM_SUBMISSIONS)
    path = page_path(form)
    _, token = open_form(visitor, path)
    for _ in range(limit):
        assert visitor.post(path, {**GOOD, "csrf_token": token}).status_code == 303
    refused = visitor.post(path, {**GOOD, "csrf_token": token})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many submissions" in refused.content.decode()
    assert FormSubmission.objects.count() == limit
    elsewhere = Client(HTTP_HOST=HOST, REMOTE_ADDR="203.0.113.9")
    assert submit(elsewhere, path, GOOD).status_code == 303


@pytest.mark.django_db
def test_inactive_forms_unknown_slugs_inactive_sites_and_organizations_are_404(api, organization, form, visitor):
    path = page_path(form)
    assert visitor.get("/forms/nope").status_code == 404
    api.patch(f"{URL}/{form['id']}", {"isActive": False}, format="json")
    assert visitor.get(path).status_code == 404
    assert visitor.post(path, GOOD).status_code == 404
    api.patch(f"{URL}/{form['id']}", {"isActive": True}, format="json")
    assert visitor.get(path).status_code == 200
    Website.objects.filter(organization=organization).update(is_active=False)
    assert visitor.get(path).status_code == 404
    Website.objects.filter(organization=organization).update(is_active=True)
    Organization.objects.filter(pk=organization.pk).update(status="suspended")
    assert visitor.get(path).status_code == 404


@pytest.mark.django_db
def test_another_organizations_form_is_not_on_this_site(other_organization, visitor):
    Form.objects.create(organization=other_organization, name="Theirs", slug="theirs", questions=[])
    assert visitor.get("/forms/theirs").status_code == 404


@pytest.mark.django_db
def test_other_methods_are_405(form, visitor):
    response = visitor.put(page_path(form))
    assert response.status_code == 405 and response["Allow"] == "GET, HEAD, POST"


@pytest.mark.django_db
def test_localized_labels_by_prefix_or_query(organization, form, visitor):
    Form.objects.filter(pk=form["id"]).update(
        translations={
            "es": {
                "name": "Prueba gratis",
                "questions": {"1": {"label": "Nombre"}, "4": {"label": "Actividad", "options": ["Pádel", "Yoga"]}},
            }
        }
    )
    for path in ("/es/forms/free-trial", "/forms/free-trial?locale=es"):
        html = visitor.get(path).content.decode()
        assert '<html lang="es">' in html and "<h1>Prueba gratis</h1>" in html
        assert '<label for="q1">Nombre <span class="required">(obligatorio)</span></label>' in html
        assert '<option value="Padel">Pádel</option>' in html  # shown translated, answered with the stored value
        assert '<label for="q2">E-mail' in html  # untranslated labels fall back
    assert visitor.get("/fr/forms/free-trial").status_code == 404  # not an offered language
    assert visitor.get("/en/forms/free-trial").status_code == 404  # the default language has no prefix
    response = submit(visitor, "/es/forms/free-trial", {**GOOD, "q4": "Padel"})
    assert response.status_code == 303 and response["Location"] == "/es/forms/free-trial?submitted=1"
    assert FormSubmission.objects.get().locale == "es"
    spanish_error = submit(visitor, "/forms/free-trial?locale=es", {**GOOD, "q1": ""})
    assert "Esta pregunta necesita una respuesta." in spanish_error.content.decode()


@pytest.mark.django_db
def test_markup_in_labels_and_answers_is_escaped(api, organization, visitor):
    questions = [{"type": "text", "label": "<script>alert(1)</script>"}]
    api.post(URL, {"name": "<b>Bold</b>", "slug": "x", "questions": questions}, format="json")
    html = visitor.get("/forms/x").content.decode()
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html and "<b>Bold</b>" not in html
    response = submit(visitor, "/forms/x", {"q1": '"><script>x</script>', "q2": "ignored"})
    assert response.status_code == 303


@pytest.mark.django_db
def test_answers_never_appear_in_any_api_response_or_event(api, organization, form, visitor):
    secret = "ZebraSecret-7319"
    assert submit(visitor, page_path(form), {**GOOD, "q8": secret, "q1": f"{secret} name"}).status_code == 303
    assert secret in orjson.dumps(FormSubmission.objects.get().answers).decode()  # stored, for the admin
    item = f"{URL}/{form['id']}"
    responses = [
        api.get(URL),
        api.get(URL, {"locale": "es"}),
        api.get(item),
        api.get(item, {"locale": "es"}),
        api.patch(
            item, {"name": "Changed", "questions": [{"id": 8, "type": "textarea", "label": "Notes"}]}, format="json"
        ),
        api.post(URL, {"name": "Another", "questions": [{"type": "text", "label": "Q"}]}, format="json"),
        api.get(URL, {"q": secret}),
    ]
    for response in responses:
        assert response.status_code < 300, response.content
        assert secret not in response.content.decode()
    assert api.get(item).json()["completionCount"] == 1
    events = DomainEvent.objects.filter(organization=organization)
    assert {"form.created", "form.updated"} <= set(events.values_list("type", flat=True))
    for event in events:
        assert secret not in orjson.dumps(event.data).decode()


@pytest.mark.django_db
def test_the_contact_section_links_to_an_active_form(api, organization, form, visitor):
    contact = {"type": "contact", "config": {"heading": "Visit us", "formId": form["id"]}}
    page = {"slug": "home", "title": "Home", "sections": [contact]}
    assert api.post("/v1/platform/website/pages", page, format="json").status_code == 201
    assert api.post("/v1/platform/website/publish", {}, format="json").status_code == 201
    html = visitor.get("/").content.decode()
    assert f'<a class="button" href="https://{HOST}/forms/free-trial">Free trial</a>' in html
    Form.objects.filter(pk=form["id"]).update(translations={"es": {"name": "Prueba"}})
    spanish = visitor.get("/es/").content.decode()
    assert f'<a class="button" href="https://{HOST}/es/forms/free-trial">Prueba</a>' in spanish


@pytest.mark.django_db
def test_the_contact_section_shows_no_link_to_an_inactive_or_foreign_form(
    api, organization, other_organization, form, visitor, settings
):
    settings.WEBSITE_PAGE_CACHE_SECONDS = 0
    theirs = Form.objects.create(organization=other_organization, name="Theirs", slug="theirs", questions=[])
    sections = [
        {"type": "contact", "config": {"formId": form["id"]}},
        {"type": "contact", "htmlId": "contact-2", "config": {"formId": theirs.id}},
    ]
    api.post("/v1/platform/website/pages", {"slug": "home", "title": "Home", "sections": sections}, format="json")
    api.post("/v1/platform/website/publish", {}, format="json")
    html = visitor.get("/").content.decode()
    assert "/forms/free-trial" in html and "/forms/theirs" not in html
    api.patch(f"{URL}/{form['id']}", {"isActive": False}, format="json")
    assert "/forms/free-trial" not in visitor.get("/").content.decode()


@pytest.mark.django_db
def test_only_the_default_website_serves_form_pages(organization, form):
    Website.objects.create(organization=organization, name="Second site", slug="second-site")
    assert Client(HTTP_HOST="second-site.sites.localhost").get("/forms/free-trial").status_code == 404
    assert Client(HTTP_HOST=HOST).get("/forms/free-trial").status_code == 200
