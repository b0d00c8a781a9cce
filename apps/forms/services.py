"""Form operations: create and edit (public at once, no publish step) and storing a visitor's answers.

Writes lock the form row and record `form.created` / `form.updated` in the same transaction; the payload is the
Form body (no answers). Storing answers records no event: a submission changes no field of the form besides
`completionCount`.
"""

from django.db import transaction

from apps.api.exceptions import DuplicateValue
from apps.domain_events.services import emit, emit_if_changed
from apps.kernel import slugs

from .models import Form, FormSubmission
from .questions import merge_questions
from .resources import FORM

SLUG_MAX = 100


def _slug_taken(holder) -> None:
    raise DuplicateValue("slug", holder, "Another form of the organization has this slug.")


def _save(form: Form, *, derive: bool, check: bool = True) -> None:
    """Save in a savepoint; a slug taken (already or meanwhile) is 409 when it was sent, or the next free one when
    derived from the name (`Free trial request` -> `free-trial-request`, `-2`, ...)."""
    slugs.save_with_unique_slug(
        form,
        lambda: Form.objects.filter(organization_id=form.organization_id),
        taken=_slug_taken,
        derive_from=form.name if derive else None,
        fallback="form",
        max_length=SLUG_MAX,
        check=check,
    )


@transaction.atomic
def create_form(organization, data: dict) -> Form:
    """`data`: validated `name`, `questions`, and optionally `slug`, `description`, `is_active`."""
    questions, next_id = merge_questions([], data["questions"], 1)
    form = Form(
        organization=organization,
        name=data["name"],
        slug=data.get("slug") or "",
        description=data.get("description"),
        is_active=data.get("is_active", True),
        questions=questions,
        next_question_id=next_id,
    )
    _save(form, derive=not data.get("slug"))
    emit(organization, "form.created", lambda: FORM.event_body(organization, form.pk))
    return form


@transaction.atomic
def update_form(form: Form, data: dict) -> Form:
    """Partial update under the form's row lock. `questions` replaces the list (matched by id); answers already
    stored are kept whatever happens to their question. Emits `form.updated` with the changed fields."""
    organization = form.organization
    locked = Form.objects.select_for_update().get(pk=form.pk)
    before = FORM.event_body(organization, locked.pk)
    slug_changed = "slug" in data and data["slug"] != locked.slug
    if slug_changed:
        locked.slug = data["slug"]
    for name in ("name", "description", "is_active"):
        if name in data:
            setattr(locked, name, data[name])
    if "questions" in data:
        locked.questions, locked.next_question_id = merge_questions(
            locked.questions, data["questions"], locked.next_question_id
        )
    _save(locked, derive=False, check=slug_changed)
    after = FORM.event_body(organization, locked.pk)
    emit_if_changed(organization, "form.updated", before, after)
    return locked


def store_submission(form: Form, answers: list[dict], locale: str) -> FormSubmission:
    """A visitor's checked answers (see `questions.read_answers`); counts toward `completionCount`."""
    return FormSubmission.objects.create(
        organization_id=form.organization_id, form=form, answers=answers, locale=locale[:16]
    )
