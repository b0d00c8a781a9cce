import itertools

from django.utils import timezone

from apps.forms.models import Form, FormSubmission
from apps.organizations.models import ApiKey
from tests.harness import EndpointCase

QUESTIONS = [
    {"id": 1, "type": "text", "label": "Name", "required": True, "options": []},
    {"id": 2, "type": "select", "label": "Sport", "required": False, "options": ["Padel", "Yoga"]},
]


_seq = itertools.count()


def _settle_key_usage(organization):
    ApiKey.objects.filter(organization=organization).update(last_used_at=timezone.now())


def make_form(organization, slug=None, **fields):
    slug = slug or f"trial-{next(_seq)}"
    fields = {"name": "Trial", "questions": QUESTIONS, "next_question_id": 3, **fields}
    return Form.objects.create(organization=organization, slug=slug, **fields)


def form_ids(organization):
    return {"id": make_form(organization).id}


def form_rows(organization, n):
    _settle_key_usage(organization)
    forms = Form.objects.bulk_create(
        [
            Form(
                organization=organization, name=f"F{i}", slug=f"f-{next(_seq)}", questions=QUESTIONS, next_question_id=3
            )
            for i in range(n)
        ]
    )
    FormSubmission.objects.bulk_create(
        [FormSubmission(organization=organization, form=form, answers=[], locale="en") for form in forms]
    )


CASES = [
    EndpointCase("GET", "/v1/platform/forms", "forms:read", list_rows=form_rows),
    EndpointCase("GET", "/v1/platform/forms/{id}", "forms:read", setup=form_ids),
    EndpointCase(
        "POST",
        "/v1/platform/forms",
        "forms:write",
        body={"name": "Trial", "questions": [{"type": "text", "label": "Name"}]},
    ),
    EndpointCase("PATCH", "/v1/platform/forms/{id}", "forms:write", setup=form_ids, body={}),
]
