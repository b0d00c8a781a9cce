"""The forms admin: staff browse only their own organization's forms and answers, read-only; the admin is the one
place answers are shown."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from apps.forms.models import FormSubmission
from apps.organizations.models import StaffMembership

from .cases import make_form

pytestmark = pytest.mark.django_db


def _rows(organization, tag):
    form = make_form(organization, name=f"{tag} trial", slug=f"{tag.lower()}-trial")
    answers = [{"questionId": 1, "label": "Name", "type": "text", "value": f"{tag} visitor answer"}]
    submission = FormSubmission.objects.create(organization=organization, form=form, answers=answers, locale="en")
    return {"form": form, "formsubmission": submission}


@pytest.fixture
def staff(organization):
    user = get_user_model().objects.create_user("desk@example.com", "desk@example.com", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="forms"))
    StaffMembership.objects.create(user=user, organization=organization, role="staff")
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("model", ["form", "formsubmission"])
def test_staff_see_only_their_rows_read_only(staff, organization, other_organization, model):
    ours = _rows(organization, "Alpha")[model]
    theirs = _rows(other_organization, "Bravo")[model]
    response = staff.get(f"/admin/forms/{model}/")
    assert response.status_code == 200
    assert [row.pk for row in response.context["cl"].result_list] == [ours.pk]
    assert "Bravo" not in response.content.decode()
    assert staff.get(f"/admin/forms/{model}/{theirs.pk}/change/").status_code == 302
    page = staff.get(f"/admin/forms/{model}/{ours.pk}/change/")
    assert page.status_code == 200
    assert not page.context["has_change_permission"] and not page.context["has_delete_permission"]
    assert staff.get(f"/admin/forms/{model}/add/").status_code == 403
    assert staff.post(f"/admin/forms/{model}/{ours.pk}/delete/", {"post": "yes"}).status_code == 403
    assert type(ours).objects.filter(pk=ours.pk).exists()


def test_staff_read_the_answers_in_the_admin(staff, organization):
    submission = _rows(organization, "Alpha")["formsubmission"]
    html = staff.get(f"/admin/forms/formsubmission/{submission.pk}/change/").content.decode()
    assert "<strong>Name</strong><br>Alpha visitor answer" in html
    listing = staff.get("/admin/forms/form/").content.decode()
    assert "Alpha trial" in listing
