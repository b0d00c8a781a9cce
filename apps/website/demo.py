"""The demo organization's website, published: a homepage (hero, plans, class schedule, FAQ, contact) and an
"About us" page, in English and Spanish, with a header, a footer and a theme. Idempotent: pages are found by slug,
and a new release is published only when the draft differs from the served one."""

from . import services
from .choices import PublisherType
from .links import site_url
from .models import Page

# A section's `htmlId` is its type unless another is given (the services derive it).
HOME_SECTIONS = [
    {
        "type": "hero",
        "config": {
            "title": "Play, train and belong",
            "subtitle": "Padel courts and group classes in the heart of the city.",
            "ctaLabel": "See the schedule",
            "ctaUrl": "#classes",
        },
        "translations": {
            "es": {
                "title": "Juega, entrena y forma parte",
                "subtitle": "Pistas de pádel y clases en grupo en el centro de la ciudad.",
                "ctaLabel": "Ver el horario",
            }
        },
    },
    {
        "type": "plans",
        "config": {"heading": "Memberships and passes", "showFeatures": True},
        "translations": {"es": {"heading": "Cuotas y bonos"}},
    },
    {
        "type": "class-schedule",
        "htmlId": "classes",
        "config": {"heading": "This week's classes", "days": 7},
        "translations": {"es": {"heading": "Clases de esta semana"}},
    },
    {
        "type": "events",
        "config": {"heading": "Events"},
        "translations": {"es": {"heading": "Eventos"}},
    },
    {
        "type": "faq",
        "config": {"heading": "Questions"},
        "translations": {"es": {"heading": "Preguntas"}},
    },
]
ABOUT_SECTIONS = [
    {
        "type": "text",
        "htmlId": "story",
        "config": {
            "heading": "Our story",
            "body": "<p>We opened our first courts in 2012 and have been teaching padel and yoga ever since.</p>",
        },
        "translations": {
            "es": {
                "heading": "Nuestra historia",
                "body": "<p>Abrimos nuestras primeras pistas en 2012 y desde entonces enseñamos pádel y yoga.</p>",
            }
        },
    },
    {
        "type": "contact",
        "config": {"heading": "Visit us", "showAddress": True},
        "translations": {"es": {"heading": "Visítanos"}},
    },
]
PAGES = [
    {
        "slug": "home",
        "title": "Home",
        "is_homepage": True,
        "sections": HOME_SECTIONS,
        "meta_description": "Padel courts and group classes.",
        "translations": {"es": {"metaTitle": "Inicio", "metaDescription": "Pistas de pádel y clases en grupo."}},
    },
    {
        "slug": "about",
        "title": "About us",
        "sections": ABOUT_SECTIONS,
        "translations": {"es": {"metaTitle": "Quiénes somos"}},
    },
]
LAYOUT = {
    "header": {
        "type": "header",
        "config": {
            "links": [{"label": "Classes", "url": "/#classes"}, {"label": "About us", "url": "/about"}],
            "ctaLabel": "Join",
            "ctaUrl": "/#plans",
        },
        "translations": {"es": {"ctaLabel": "Únete"}},
    },
    "footer": {
        "type": "footer",
        "config": {"text": "Demo Sports Club. Open every day.", "showSocial": True},
        "translations": {"es": {"text": "Demo Sports Club. Abierto todos los días."}},
    },
}
STYLES = {"colors": {"primary": "#1d4ed8", "accent": "#f59e0b"}, "buttonStyle": "pill"}
SEO = {"siteDescription": "Padel courts and group classes.", "titleTemplate": "%s | Demo Sports Club"}


def seed(organization, ctx):
    website = services.ensure_default_website(organization)
    clubs = ctx.get("clubs") or []
    if clubs and website.club_id is None:
        website = services.update_website(website, {"club": clubs[0]})
    trial_form = (ctx.get("forms") or {}).get("free-trial-request")
    for spec in PAGES:
        data = {key: value for key, value in spec.items() if key != "slug"}
        if trial_form is not None:
            data["sections"] = [_with_form(section, trial_form.pk) for section in data["sections"]]
        page = Page.objects.filter(website=website, slug=spec["slug"]).first()
        if page is None:
            services.create_page(website, {"slug": spec["slug"], **data})
        else:
            services.update_page(page, data)
    services.update_layout(website, LAYOUT)
    services.update_styles(website, STYLES)
    services.update_seo_settings(website, SEO)
    website.refresh_from_db()
    served = website.active_release
    if served is None or served.content_hash != website.draft_hash:
        services.publish(website, note="Published by seed_demo", published_by=(PublisherType.USER, "seed_demo"))
    ctx.setdefault("notes", []).append(f"Demo website: {site_url(website.slug, website.served_domain)}/")


def _with_form(section: dict, form_id: int) -> dict:
    """The contact section linking to the demo's trial request form."""
    if section["type"] != "contact":
        return section
    return {**section, "config": {**section["config"], "formId": form_id}}
