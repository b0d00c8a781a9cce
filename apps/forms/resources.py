"""The Form shape. A page of forms is one query for the rows (the completion count a subquery) and one for the
organization's default website (every form's `url` is on it). Answers are never part of it."""

import datetime as dt
from typing import Annotated, TypedDict

from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from apps.api.resources import Describe, PresentContext, Resource
from apps.website.models import Website

from . import models
from .choices import QuestionType


class FormQuestion(TypedDict):
    id: Annotated[int, Describe("Stable: send it back to keep the question (and its answers) when editing.")]
    type: QuestionType
    label: str
    required: bool
    options: Annotated[list[str], Describe("The choices of a `select` or `multiselect` question; empty otherwise.")]


class Form(TypedDict):
    id: int
    name: str
    slug: str
    description: str | None
    url: Annotated[
        str | None,
        Describe("The public page: `{default website}/forms/<slug>`, live as soon as the form is created or changed."),
    ]
    isActive: Annotated[bool, Describe("An inactive form's page answers 404 and takes no answers.")]
    questions: list[FormQuestion]
    completionCount: Annotated[int, Describe("How many visitors submitted the form (answers are never exposed).")]
    translations: Annotated[
        dict, Describe("{locale: {name, description, questions: {<id>: {label, options}}}}; read-only.")
    ]
    createdAt: dt.datetime
    updatedAt: dt.datetime


def completion_count():
    submissions = (
        models.FormSubmission.objects.filter(form=OuterRef("pk"))
        .order_by()
        .values("form")
        .annotate(count=Count("*"))
        .values("count")
    )
    return Coalesce(Subquery(submissions, output_field=IntegerField()), Value(0))


def default_site_url(organization) -> str | None:
    website = (
        Website.objects.filter(organization=organization, is_default=True)
        .only("slug", "domain", "domain_verified_at")
        .first()
    )
    return website.site_url if website is not None else None


def form_path(slug: str, locale: str | None = None, default_language: str | None = None) -> str:
    """`/forms/<slug>`, prefixed `/<locale>` for a language other than the default."""
    prefix = f"/{locale}" if locale and locale != default_language else ""
    return f"{prefix}/forms/{slug}"


class FormResource(Resource):
    shape = Form
    model = models.Form
    translated = ("name", "description")
    columns = ("completion_count",)

    def annotate(self, queryset):
        return queryset.annotate(completion_count=completion_count())

    def load(self, rows, ctx: PresentContext) -> None:
        if rows:
            ctx.once("forms.site_url", lambda: default_site_url(ctx.organization))

    def present(self, row: dict, ctx: PresentContext) -> Form:
        translations = row["translations"] or {}
        base = ctx.once("forms.site_url", lambda: default_site_url(ctx.organization))
        return self.body(
            row,
            ctx,
            url=f"{base}{form_path(row['slug'])}" if base else None,
            questions=[
                {
                    "id": question["id"],
                    "type": question["type"],
                    "label": question_label(translations, ctx.locale, question),
                    "required": question["required"],
                    "options": list(question["options"]),
                }
                for question in row["questions"] or []
            ],
        )


def question_translation(translations: dict | None, locale: str | None, question_id: int) -> dict:
    by_locale = (translations or {}).get(locale) if locale else None
    if not isinstance(by_locale, dict) or not isinstance(by_locale.get("questions"), dict):
        return {}
    found = by_locale["questions"].get(str(question_id))
    return found if isinstance(found, dict) else {}


def question_label(translations: dict | None, locale: str | None, question: dict) -> str:
    label = question_translation(translations, locale, question["id"]).get("label")
    return label if isinstance(label, str) and label else question["label"]


FORM = FormResource()
