"""The demo organization's form "Free trial request" (every question type, in English and Spanish) with a few
answers. Idempotent: the form is found by slug, and answers are added only while it has none."""

from django.utils.datastructures import MultiValueDict

from . import services
from .models import Form, FormSubmission
from .questions import read_answers

SLUG = "free-trial-request"
QUESTIONS = [
    {"type": "text", "label": "Full name", "required": True},
    {"type": "email", "label": "E-mail", "required": True},
    {"type": "phone", "label": "Phone"},
    {"type": "select", "label": "Which activity?", "required": True, "options": ["Padel", "Yoga", "Fitness"]},
    {"type": "multiselect", "label": "Best days", "options": ["Weekdays", "Saturday", "Sunday"]},
    {"type": "date", "label": "Preferred start date"},
    {"type": "number", "label": "How many people?"},
    {"type": "textarea", "label": "Anything we should know?"},
    {"type": "checkbox", "label": "I agree to be contacted about my trial", "required": True},
]
TRANSLATIONS = {
    "es": {
        "name": "Solicitud de prueba gratuita",
        "description": "Cuéntanos qué quieres probar y te llamamos.",
        "questions": {
            "1": {"label": "Nombre completo"},
            "2": {"label": "Correo electrónico"},
            "3": {"label": "Teléfono"},
            "4": {"label": "¿Qué actividad?", "options": ["Pádel", "Yoga", "Fitness"]},
            "5": {"label": "Mejores días", "options": ["Entre semana", "Sábado", "Domingo"]},
            "6": {"label": "Fecha de inicio preferida"},
            "7": {"label": "¿Cuántas personas?"},
            "8": {"label": "¿Algo que debamos saber?"},
            "9": {"label": "Acepto que me contacten sobre mi prueba"},
        },
    }
}
ANSWERS = [
    {"q1": "Lucía Martín", "q2": "lucia@example.com", "q4": "Padel", "q5": ["Saturday"], "q7": "2", "q9": "yes"},
    {"q1": "Tom Baker", "q2": "tom@example.com", "q3": "+44 20 7946 0000", "q4": "Yoga", "q9": "yes"},
    {
        "q1": "Aiko Tanaka",
        "q2": "aiko@example.com",
        "q4": "Fitness",
        "q5": ["Weekdays", "Sunday"],
        "q6": "2030-01-15",
        "q8": "Recovering from a knee injury.",
        "q9": "yes",
    },
]


def seed(organization, ctx):
    form = Form.objects.filter(organization=organization, slug=SLUG).first()
    if form is None:
        form = services.create_form(
            organization,
            {
                "name": "Free trial request",
                "slug": SLUG,
                "description": "Tell us what you would like to try and we will call you.",
                "questions": QUESTIONS,
            },
        )
    if form.translations != TRANSLATIONS:
        Form.objects.filter(pk=form.pk).update(translations=TRANSLATIONS)
        form.refresh_from_db()
    if not FormSubmission.objects.filter(form=form).exists():
        for data in ANSWERS:
            submitted = MultiValueDict({key: v if isinstance(v, list) else [v] for key, v in data.items()})
            answers, errors = read_answers(form.questions, submitted)
            if errors:
                raise ValueError(f"The demo answers do not fit the form: {errors}")
            services.store_submission(form, answers, organization.default_language)
    ctx["forms"] = {SLUG: form}
