"""NUL characters on the public surfaces (issue 17, item 7): PostgreSQL refuses them in text, so each of these was a
500. One middleware answers 404 for a NUL in the path or query of any address outside the APIs (and in a path of
the public marketplace API, whose query parameters get a 400 naming them); a form answer holding one is a 400 naming
the question."""

import re

import pytest
from django.test import Client

from apps.clubs.models import Club
from apps.forms.models import FormSubmission

pytestmark = pytest.mark.django_db

HOST = "padel-palace.sites.localhost"
BASE = "/v1/platform/website"


@pytest.fixture
def published(api):
    api.post(f"{BASE}/pages", {"slug": "home", "title": "Home", "sections": []}, format="json")
    assert api.post(f"{BASE}/publish", {}, format="json").status_code == 201


@pytest.mark.parametrize("path", ["/blog/%00", "/%00", "/es/blog/x%00y", "/forms/%00", "/blog?x=%00"])
def test_a_nul_on_a_site_host_is_a_plain_404(published, path):
    response = Client().get(path, HTTP_HOST=HOST)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html") and b"Not found" in response.content


@pytest.mark.parametrize(
    "path", ["/marketplace/clubs/%00", "/marketplace/clubs/%00/classes.ics", "/feeds/instructors/%00.ics"]
)
def test_a_nul_on_the_marketplace_pages_and_feeds_is_a_404(club, path):
    Club.objects.filter(pk=club.pk).update(marketplace_listed=True)
    response = Client().get(path)
    assert response.status_code == 404


def test_a_nul_in_a_public_marketplace_api_path_is_its_json_404(club):
    Club.objects.filter(pk=club.pk).update(marketplace_listed=True)
    response = Client().get("/v1/public/network/clubs/%00")
    assert response.status_code == 404
    assert response.json() == {"error": "Not found", "code": "NOT_FOUND"}
    assert Client().get("/v1/public/network/clubs/centre-court").status_code == 200


def test_the_platform_api_keeps_its_own_answers_to_nul(api):
    response = api.get("/v1/platform/clubs?q=%00")
    assert response.status_code == 400 and response.json()["code"] == "VALIDATION_ERROR"


def test_a_form_answer_with_a_nul_is_a_400_naming_the_question(api):
    questions = [{"type": "text", "label": "Full name", "required": True}, {"type": "textarea", "label": "Notes"}]
    form = api.post("/v1/platform/forms", {"name": "Trial", "questions": questions}, format="json").json()
    path = form["url"].split(HOST, 1)[1]
    visitor = Client(HTTP_HOST=HOST)
    page = visitor.get(path)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.content.decode())[1]
    response = visitor.post(path, {"csrf_token": token, "q1": "Lucía", "q2": "knee\x00injury"})
    assert response.status_code == 400
    assert (
        '<p class="error" id="q2-error">Please remove the invisible control character (NUL)'
        in response.content.decode()
    )
    assert not FormSubmission.objects.exists()
    assert visitor.post(path, {"csrf_token": token, "q1": "Lucía", "q2": "knee injury"}).status_code == 303
