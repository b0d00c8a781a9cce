"""Forms through the HTTP API: every field, question rules and bounds, slugs, id-matched question edits, events,
locale, tenancy, no deletion."""

import pytest
from django.utils import timezone

from apps.domain_events.models import DomainEvent
from apps.forms.models import Form, FormSubmission
from apps.website.models import Website

from .cases import make_form

URL = "/v1/platform/forms"
NAME = {"type": "text", "label": "Full name", "required": True}
SPORT = {"type": "select", "label": "Sport", "options": ["Padel", "Yoga"]}


def _create(api, **body):
    return api.post(URL, {"name": "Free trial", "questions": [NAME, SPORT], **body}, format="json")


def _fields(response):
    return response.json()["details"]["fields"]


@pytest.mark.django_db
def test_create_presents_every_field_and_records_the_event(api, organization):
    response = _create(api, description="Try a class for free.")
    assert response.status_code == 201, response.content
    form = Form.objects.get(organization=organization)
    body = response.json()
    site = Website.objects.get(organization=organization, is_default=True)
    assert body == {
        "id": form.id,
        "name": "Free trial",
        "slug": "free-trial",
        "description": "Try a class for free.",
        "url": f"https://{site.slug}.sites.localhost/forms/free-trial",
        "isActive": True,
        "questions": [
            {"id": 1, "type": "text", "label": "Full name", "required": True, "options": []},
            {"id": 2, "type": "select", "label": "Sport", "required": False, "options": ["Padel", "Yoga"]},
        ],
        "completionCount": 0,
        "translations": {},
        "createdAt": body["createdAt"],
        "updatedAt": body["updatedAt"],
    }
    assert response["Location"] == f"{URL}/{form.id}"
    assert api.get(f"{URL}/{form.id}").json() == body
    event = DomainEvent.objects.get(organization=organization, type="form.created")
    assert event.data["id"] == form.id and event.data["questions"] == body["questions"]


@pytest.mark.django_db
def test_every_question_type_is_accepted(api):
    types = ["text", "textarea", "checkbox", "date", "number", "email", "phone"]
    questions = [{"type": kind, "label": kind} for kind in types]
    questions += [{"type": "multiselect", "label": "Days", "options": ["Mon", "Tue"]}, SPORT]
    response = _create(api, questions=questions)
    assert response.status_code == 201, response.content
    assert [q["type"] for q in response.json()["questions"]] == [*types, "multiselect", "select"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"questions": [NAME]}, "name"),
        ({"name": "F"}, "questions"),
        ({"name": "F", "questions": []}, "questions"),
        ({"name": "F", "questions": [NAME] * 51}, "questions"),
        ({"name": "x" * 201, "questions": [NAME]}, "name"),
        ({"name": "F", "questions": [NAME], "description": "d" * 5001}, "description"),
        ({"name": "F", "questions": [NAME], "slug": "Not A Slug"}, "slug"),
        ({"name": "F", "questions": [NAME], "slug": "s" * 101}, "slug"),
        ({"name": "F", "questions": [NAME], "isActive": "yes"}, "isActive"),
        ({"name": "F", "questions": [{"type": "radio", "label": "X"}]}, "questions"),
        ({"name": "F", "questions": [{"type": "text"}]}, "questions"),
        ({"name": "F", "questions": [{"type": "text", "label": ""}]}, "questions"),
        ({"name": "F", "questions": [{"type": "text", "label": "x" * 501}]}, "questions"),
        ({"name": "F", "questions": [{"type": "text", "label": "X", "required": "true"}]}, "questions"),
        ({"name": "F", "questions": [{"type": "select", "label": "X"}]}, "questions"),
        ({"name": "F", "questions": [{"type": "select", "label": "X", "options": []}]}, "questions"),
        ({"name": "F", "questions": [{"type": "multiselect", "label": "X", "options": ["a", "a"]}]}, "questions"),
        ({"name": "F", "questions": [{"type": "select", "label": "X", "options": [""]}]}, "questions"),
        ({"name": "F", "questions": [{"type": "select", "label": "X", "options": ["o" * 201]}]}, "questions"),
        (
            {"name": "F", "questions": [{"type": "select", "label": "X", "options": [str(i) for i in range(51)]}]},
            "questions",
        ),
        ({"name": "F", "questions": [{"type": "text", "label": "X", "options": ["a"]}]}, "questions"),
        ({"name": "F", "questions": [{"type": "select", "label": "X", "options": [1]}]}, "questions"),
        ({"name": "F", "questions": [{"id": 1, "type": "text", "label": "X"}]}, "questions"),
        ({"name": "F", "questions": ["text"]}, "questions"),
        ({"name": "F", "questions": {"type": "text"}}, "questions"),
    ],
)
@pytest.mark.django_db
def test_create_rejects_bad_values(api, body, field):
    response = api.post(URL, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert {name.split(".")[0] for name in _fields(response)} == {field}
    assert not Form.objects.exists()
    assert not DomainEvent.objects.filter(type__startswith="form.").exists()


@pytest.mark.django_db
def test_bounds_accept_their_edges(api):
    options = [f"Option {i}" for i in range(50)]
    questions = [{"type": "select", "label": "l" * 500, "options": options}] + [NAME] * 49
    response = _create(api, name="n" * 200, description="d" * 5000, slug="s" * 100, questions=questions)
    assert response.status_code == 201, response.content
    assert len(response.json()["questions"]) == 50
    assert [q["id"] for q in response.json()["questions"]] == list(range(1, 51))


@pytest.mark.django_db
def test_slugs_are_derived_unique_per_organization_and_409_when_given_and_taken(api, other_organization):
    make_form(other_organization, slug="free-trial")
    first = _create(api).json()
    assert first["slug"] == "free-trial"
    assert _create(api).json()["slug"] == "free-trial-2"
    assert _create(api, name="Pádel: ¡prueba!").json()["slug"] == "padel-prueba"
    assert _create(api, name="体验").json()["slug"] == "tiyan"  # transliterated (apps.kernel.slugs)
    assert _create(api, name="★ ★").json()["slug"] == "form"
    response = _create(api, slug="free-trial")
    assert response.status_code == 409
    assert response.json()["code"] == "DUPLICATE_VALUE"
    assert response.json()["details"] == {"field": "slug", "existingId": first["id"]}
    other = _create(api, slug="waiver").json()
    clash = api.patch(f"{URL}/{other['id']}", {"slug": "free-trial"}, format="json")
    assert clash.status_code == 409 and clash.json()["details"]["existingId"] == first["id"]
    renamed = api.patch(f"{URL}/{other['id']}", {"slug": "waiver-2026"}, format="json").json()
    assert renamed["slug"] == "waiver-2026" and renamed["url"].endswith("/forms/waiver-2026")


@pytest.mark.django_db
def test_patch_matches_questions_by_id_gives_new_ones_fresh_ids_and_keeps_answers(api, organization):
    form = _create(api).json()
    url = f"{URL}/{form['id']}"
    stored = Form.objects.get(pk=form["id"])
    FormSubmission.objects.create(
        organization=organization,
        form=stored,
        answers=[{"questionId": 2, "label": "Sport", "type": "select", "value": "Yoga"}],
        locale="en",
    )
    # question 1 removed, question 2 relabelled and its options changed, two new ones
    body = {
        "questions": [
            {"type": "email", "label": "E-mail", "required": True},
            {"id": 2, "type": "multiselect", "label": "Sports", "options": ["Padel", "Tennis"]},
            {"type": "date", "label": "Start"},
        ]
    }
    response = api.patch(url, body, format="json")
    assert response.status_code == 200, response.content
    questions = response.json()["questions"]
    assert [(q["id"], q["type"], q["label"]) for q in questions] == [
        (3, "email", "E-mail"),
        (2, "multiselect", "Sports"),
        (4, "date", "Start"),
    ]
    assert response.json()["completionCount"] == 1
    assert FormSubmission.objects.get(form_id=form["id"]).answers[0]["value"] == "Yoga"
    # a removed question's id is gone for good: sending it back is refused, and new ids never reuse it
    refused = api.patch(url, {"questions": [{"id": 1, "type": "text", "label": "Name"}]}, format="json")
    assert refused.status_code == 400 and "questions.0.id" in _fields(refused)
    twice = api.patch(
        url,
        {"questions": [{"id": 2, "type": "text", "label": "A"}, {"id": 2, "type": "text", "label": "B"}]},
        format="json",
    )
    assert twice.status_code == 409 and twice.json()["code"] == "DUPLICATE_VALUE"
    again = api.patch(url, {"questions": [{"type": "text", "label": "New"}]}, format="json").json()
    assert [q["id"] for q in again["questions"]] == [5]
    # a PATCH without `questions` leaves them alone
    assert api.patch(url, {"name": "Renamed"}, format="json").json()["questions"] == again["questions"]


@pytest.mark.django_db
def test_updates_record_form_updated_with_the_changed_fields_only_when_something_changed(api, organization):
    form = _create(api).json()
    url = f"{URL}/{form['id']}"
    assert api.patch(url, {"name": "Free trial"}, format="json").status_code == 200
    assert not DomainEvent.objects.filter(type="form.updated").exists()
    assert api.patch(url, {"isActive": False, "description": "Closed"}, format="json").status_code == 200
    event = DomainEvent.objects.get(type="form.updated")
    assert sorted(event.changed_fields) == ["description", "isActive"]
    assert event.data["isActive"] is False and event.data["id"] == form["id"]


@pytest.mark.django_db
def test_patch_rejects_bad_values_and_changes_nothing(api):
    form = _create(api).json()
    url = f"{URL}/{form['id']}"
    for body, field in (
        ({"name": None}, "name"),
        ({"questions": None}, "questions"),
        ({"questions": []}, "questions"),
        ({"isActive": None}, "isActive"),
        ({"questions": [{"id": "1", "type": "text", "label": "X"}]}, "questions"),
    ):
        response = api.patch(url, body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert {name.split(".")[0] for name in _fields(response)} == {field}
    assert api.get(url).json() == form


@pytest.mark.django_db
def test_no_delete(api):
    form = _create(api).json()
    response = api.delete(f"{URL}/{form['id']}")
    assert response.status_code == 405
    assert "DELETE" not in response["Allow"] and "PATCH" in response["Allow"]
    assert Form.objects.filter(pk=form["id"]).exists()


@pytest.mark.django_db
def test_another_organizations_form_is_404(api, other_organization):
    form = make_form(other_organization, slug="theirs")
    assert api.get(f"{URL}/{form.id}").status_code == 404
    assert api.patch(f"{URL}/{form.id}", {"name": "Mine"}, format="json").status_code == 404
    form.refresh_from_db()
    assert form.name == "Trial"


@pytest.mark.django_db
def test_list_filters_ordering_and_completion_counts(api, organization):
    waiver = make_form(organization, slug="waiver", name="Waiver")
    trial = make_form(organization, slug="trial", name="Trial")
    old = make_form(organization, slug="old", name="Old survey", is_active=False)
    for _ in range(3):
        FormSubmission.objects.create(organization=organization, form=trial, answers=[], locale="en")

    def ids(params=None):
        response = api.get(URL, params or {})
        assert response.status_code == 200, response.content
        return [row["id"] for row in response.json()["data"]]

    assert ids() == [old.id, trial.id, waiver.id]
    assert ids({"isActive": "true"}) == [trial.id, waiver.id]
    assert ids({"q": "SURV"}) == [old.id]
    assert ids({"ordering": "name"}) == [old.id, trial.id, waiver.id]
    counts = {row["id"]: row["completionCount"] for row in api.get(URL).json()["data"]}
    assert counts == {old.id: 0, trial.id: 3, waiver.id: 0}
    for name, value in (("isActive", "1"), ("ordering", "slug")):
        response = api.get(URL, {name: value})
        assert response.status_code == 400 and name in _fields(response)


@pytest.mark.django_db
def test_locale_resolves_name_description_and_labels_but_options_stay_the_stored_values(api, organization):
    translations = {
        "es": {
            "name": "Prueba",
            "description": "Gratis",
            "questions": {"2": {"label": "Deporte", "options": ["Pádel", "Yoga"]}},
        }
    }
    form = make_form(organization, description="Free", translations=translations)
    body = api.get(f"{URL}/{form.id}", {"locale": "es"}).json()
    assert (body["name"], body["description"]) == ("Prueba", "Gratis")
    assert [q["label"] for q in body["questions"]] == ["Name", "Deporte"]
    assert body["questions"][1]["options"] == ["Padel", "Yoga"]
    assert body["translations"] == translations
    assert api.get(URL, {"locale": "xx"}).json()["data"][0]["name"] == "Trial"


@pytest.mark.django_db
def test_translations_are_read_only(api):
    assert _create(api, translations={"es": {"name": "Prueba"}}).json()["translations"] == {}


@pytest.mark.django_db
def test_the_url_follows_the_default_websites_custom_domain(api, organization):
    form = _create(api).json()
    Website.objects.filter(organization=organization, is_default=True).update(
        domain="www.padel.example", domain_verified_at=timezone.now()
    )
    assert api.get(f"{URL}/{form['id']}").json()["url"] == "https://www.padel.example/forms/free-trial"
