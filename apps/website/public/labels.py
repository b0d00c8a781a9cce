"""The few words the rendered site writes itself (everything else is the organization's content), per language;
languages without a table fall back to English."""

LABELS = {
    "en": {
        "language": "Language",
        "plans": "Plans",
        "classes": "Class schedule",
        "no_classes": "No classes scheduled.",
        "faq": "Frequently asked questions",
        "contact": "Contact",
        "signup_fee": "sign-up fee",
        "phone": "Phone",
        "email": "E-mail",
        "address": "Address",
        "skip": "Skip to content",
        "blog": "Blog",
        "no_posts": "Nothing published yet.",
        "events": "Events",
        "no_events": "No upcoming events.",
        "from": "from",
        "free": "Free",
        "frequency": {
            "monthly": "per month",
            "quarterly": "per quarter",
            "annually": "per year",
            "weekly": "per week",
            "one_time": "one-time",
            "custom": "per period",
        },
    },
    "es": {
        "language": "Idioma",
        "plans": "Planes",
        "classes": "Horario de clases",
        "no_classes": "No hay clases programadas.",
        "faq": "Preguntas frecuentes",
        "contact": "Contacto",
        "signup_fee": "cuota de inscripción",
        "phone": "Teléfono",
        "email": "Correo",
        "address": "Dirección",
        "skip": "Saltar al contenido",
        "blog": "Blog",
        "no_posts": "Todavía no hay publicaciones.",
        "events": "Eventos",
        "no_events": "No hay eventos próximos.",
        "from": "desde",
        "free": "Gratis",
        "frequency": {
            "monthly": "al mes",
            "quarterly": "al trimestre",
            "annually": "al año",
            "weekly": "a la semana",
            "one_time": "pago único",
            "custom": "por periodo",
        },
    },
}


def labels_for(locale: str) -> dict:
    return LABELS.get((locale or "en").split("-")[0], LABELS["en"])
