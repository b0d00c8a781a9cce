"""The public page of a form on the organization's default website: `{site}/forms/<slug>` (and
`{site}/<locale>/forms/<slug>` for an offered language), GET to read it and POST to answer it.

Served by the website renderer (`apps.website.public.render.serve_site` dispatches the path here), but live: a
form is public as soon as it is created or changed, with no website publish. An inactive website or organization,
another website of the organization, an unknown slug or an inactive form answer 404.

A submission goes through, in order: the per-address rate limit (429 page), the body size (413), the CSRF check
(`csrf.py`; 403 page showing the form again), the honeypot (a filled one is dropped silently: the visitor sees the
confirmation, nothing is stored), the answers' validation (400 page with the errors and the values kept), then the
answers are stored and the visitor is redirected (303) to `?submitted=1`, the confirmation.
"""

import re
from urllib.parse import urlencode

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpResponse, HttpResponseRedirect
from django.template.loader import render_to_string

from apps.api import public_limits
from apps.api.bodylimit import declared_length
from apps.api.presenters import resolve_translation
from apps.kernel.words import in_language
from apps.organizations.choices import OrganizationStatus
from apps.website.models import Website

from . import csrf, services
from .choices import QuestionType
from .labels import LABELS
from .models import Form
from .questions import field_name, read_answers
from .resources import form_path, question_label, question_translation

FORM_PATH_RE = re.compile(r"^/(?:(?P<locale>[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)/)?forms/(?P<slug>[A-Za-z0-9_-]{1,100})$")
HONEYPOT_FIELD = "website_url"
MAX_BODY_BYTES = 256 * 1024
METHODS = ("GET", "HEAD", "POST")


def form_route(path: str) -> tuple[str | None, str] | None:
    """(locale prefix or None, slug) when `path` is a form page's, else None."""
    match = FORM_PATH_RE.match(path)
    return (match["locale"], match["slug"]) if match else None


def _respond(body: str, status=200) -> HttpResponse:
    response = HttpResponse(body.encode(), content_type="text/html; charset=utf-8", status=status)
    response["Cache-Control"] = "private, no-store"  # the token is per visitor
    return response  # the security headers are the site chain's (apps/api/page_security.py)


def _message_page(locale: str, title: str, message: str, status: int) -> HttpResponse:
    body = render_to_string("forms/message.html", {"lang": locale, "title": title, "message": message})
    return _respond(body, status)


def not_found(locale: str = "en") -> HttpResponse:
    return _message_page(locale, "Not found", in_language(LABELS, locale)["not_found"], 404)


class FormPage:
    """One request to a form's page."""

    def __init__(self, request, website, form: Form, locale: str, locale_from_query: bool):
        self.request = request
        self.website = website
        self.form = form
        self.organization = website.organization
        self.locale = locale
        self.labels = in_language(LABELS, locale)
        path = form_path(form.slug, locale if not locale_from_query else None, self.organization.default_language)
        self.action = path + (f"?{urlencode({'locale': locale})}" if locale_from_query else "")
        self.confirmation = (
            path + "?" + urlencode({**({"locale": locale} if locale_from_query else {}), "submitted": 1})
        )

    def translated(self, field: str, fallback):
        """`field` in the page's language, else the form's own (no fallback to another language)."""
        return resolve_translation(self.form.translations, self.locale, None, field, fallback)

    def question_context(self, question: dict, values: list[str], error) -> dict:
        translation = question_translation(self.form.translations, self.locale, question["id"])
        shown = translation.get("options")
        if not (isinstance(shown, list) and len(shown) == len(question["options"])):
            shown = question["options"]
        name = field_name(question["id"])
        message = None
        if error is not None:
            message = self.labels["errors"][error.kind].format(limit=error.limit)
        return {
            "id": question["id"],
            "name": name,
            "type": question["type"],
            "label": question_label(self.form.translations, self.locale, question),
            "required": question["required"],
            "options": [
                {"value": value, "text": text, "id": f"{name}-{index}", "chosen": value in values}
                for index, (value, text) in enumerate(zip(question["options"], shown, strict=True))
            ],
            "value": values[-1] if values else "",
            "checked": any(values),
            "error": message,
            "error_id": f"{name}-error",
        }

    def render(self, *, data=None, errors=None, notice=None, status=200) -> HttpResponse:
        cookie, new_cookie = csrf.visitor_cookie(self.request)
        errors = errors or {}
        questions = [
            self.question_context(
                question,
                data.getlist(field_name(question["id"])) if data is not None else [],
                errors.get(question["id"]),
            )
            for question in self.form.questions
        ]
        name = self.translated("name", self.form.name)
        submitted = data is None and self.request.GET.get("submitted") == "1"
        context = {
            "lang": self.locale,
            "site_name": self.website.name,
            "home_url": self.website.site_url + "/",
            "name": name,
            "description": self.translated("description", self.form.description),
            "labels": self.labels,
            "action": self.action,
            "questions": questions,
            "error_list": [question for question in questions if question["error"]],
            "notice": notice,
            "submitted": submitted,
            "again_url": self.action,
            "csrf_field": csrf.TOKEN_FIELD,
            "csrf_token": csrf.token_for(self.form.pk, cookie),
            "honeypot": HONEYPOT_FIELD,
            "types": QuestionType,
        }
        response = _respond(render_to_string("forms/page.html", context), status)
        if new_cookie:
            csrf.set_cookie(response, cookie)
        return response

    def submit(self, raw_host: str) -> HttpResponse:
        state, refused = public_limits.consume(self.request, (public_limits.FORM_SUBMISSIONS,))
        if refused:
            return public_limits.refusal_headers(_message_page(self.locale, "429", self.labels["too_many"], 429), state)
        if declared_length(self.request.META) > MAX_BODY_BYTES:
            return _message_page(self.locale, "413", self.labels["bad_request"], 413)
        try:
            data = self.request.POST
        except (RequestDataTooBig, TooManyFieldsSent):
            return _message_page(self.locale, "400", self.labels["bad_request"], 400)
        if not csrf.origin_allowed(self.request, raw_host) or not csrf.token_valid(self.request, self.form.pk):
            return self.render(data=data, notice=self.labels["expired"], status=403)
        if data.get(HONEYPOT_FIELD, ""):
            return HttpResponseRedirect(self.confirmation, status=303)
        answers, errors = read_answers(self.form.questions, data)
        if errors:
            return self.render(data=data, errors=errors, status=400)
        services.store_submission(self.form, answers, self.locale)
        return HttpResponseRedirect(self.confirmation, status=303)


def serve_form_page(request, website, locale_prefix: str | None, slug: str) -> HttpResponse:
    """The response of `{site}/[<locale>/]forms/<slug>` on `website` (the host's website)."""
    organization = website.organization
    default = organization.default_language
    if organization.status != OrganizationStatus.ACTIVE or not website.is_active or not website.is_default:
        return not_found(default)
    if locale_prefix is not None and (locale_prefix not in organization.languages or locale_prefix == default):
        return not_found(default)
    query_locale = (request.GET.get("locale") or "").strip()
    from_query = locale_prefix is None and query_locale in organization.languages and query_locale != default
    locale = locale_prefix or (query_locale if from_query else default)
    if request.method not in METHODS:
        response = HttpResponse(status=405)
        response["Allow"] = ", ".join(METHODS)
        return response
    form = Form.objects.filter(organization=organization, slug=slug, is_active=True).first()
    if form is None:
        return not_found(locale)
    page = FormPage(request, website, form, locale, from_query)
    if request.method == "POST":
        return page.submit(request.META.get("HTTP_HOST") or request.META.get("SERVER_NAME", ""))
    return page.render()


def form_links(website, form_ids, locale: str) -> dict[int, dict]:
    """`{id: {name, url}}` of the active forms among `form_ids` of the website's organization, for a page of the
    website that links to them (the contact section's `formId`). One query for the forms, and one for the default
    website when `website` is not it."""
    ids = {pk for pk in form_ids if isinstance(pk, int)}
    if not ids:
        return {}
    organization = website.organization
    forms = Form.objects.filter(organization=organization, is_active=True, pk__in=ids).only(
        "id", "name", "slug", "translations"
    )
    forms = list(forms)
    if not forms:
        return {}
    if website.is_default:
        base = website.site_url
    else:
        base = Website.objects.filter(organization=organization, is_default=True).first()
        base = base.site_url if base is not None else None
    if base is None:
        return {}
    default = organization.default_language
    links = {}
    for form in forms:
        links[form.pk] = {
            "name": resolve_translation(form.translations, locale, None, "name", form.name),
            "url": base + form_path(form.slug, locale, default),
        }
    return links
