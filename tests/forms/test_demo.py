"""The demo data seeds the "Free trial request" form with answers, idempotently, and the demo website's contact
section links to it."""

from apps.forms import demo
from apps.forms.models import Form, FormSubmission


def test_seed_is_idempotent(organization, api):
    ctx = {}
    demo.seed(organization, ctx)
    demo.seed(organization, dict(ctx))
    form = Form.objects.get(organization=organization)
    assert ctx["forms"]["free-trial-request"] == form
    assert FormSubmission.objects.filter(form=form).count() == len(demo.ANSWERS)
    body = api.get(f"/v1/platform/forms/{form.id}", {"locale": "es"}).json()
    assert body["name"] == "Solicitud de prueba gratuita" and body["completionCount"] == 3
    assert {q["type"] for q in body["questions"]} == {
        "text",
        "textarea",
        "select",
        "multiselect",
        "checkbox",
        "date",
        "number",
        "email",
        "phone",
    }
