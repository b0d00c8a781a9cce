"""Form operations: create and edit (public at once, no publish step) and storing a visitor's answers.

Writes lock the form row and record `form.created` / `form.updated` in the same transaction; the payload is the
Form body (no answers). Storing answers records no event: a submission changes no field of the form besides
`completionCount`.
"""

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from apps.api.exceptions import DuplicateValue
from apps.api.resources import PresentContext
from apps.domain_events.services import emit

from .models import Form, FormSubmission
from .questions import merge_questions
from .resources import FORM

SLUG_MAX = 100


def present_form(form_id: int, organization) -> dict:
    """The form's body as `GET /forms/{id}` returns it (no locale), for event payloads and change detection."""
    return FORM.get(Form.objects.all(), form_id, PresentContext(organization=organization))


def _slug_owner(organization, slug: str, exclude_id=None) -> int | None:
    taken = Form.objects.filter(organization=organization, slug=slug)
    if exclude_id is not None:
        taken = taken.exclude(pk=exclude_id)
    return taken.values_list("id", flat=True).first()


def _free_slug(organization, name: str) -> str:
    """The name as a slug (`Free trial request` -> `free-trial-request`), suffixed `-2`, `-3`, ... when taken."""
    base = (slugify(name) or "form")[: SLUG_MAX - 5].strip("-") or "form"
    slug, n = base, 1
    while _slug_owner(organization, slug) is not None:
        n += 1
        slug = f"{base}-{n}"
    return slug


def _check_slug_free(organization, slug: str, exclude_id=None) -> None:
    existing = _slug_owner(organization, slug, exclude_id)
    if existing is not None:
        raise DuplicateValue("slug", existing, "Another form of the organization has this slug.")


def _save(form: Form, *, slug_given: bool) -> None:
    """Save in a savepoint; a slug taken meanwhile is 409 when it was sent, or the next free one when derived."""
    for _ in range(5):
        try:
            with transaction.atomic():
                form.save()
            return
        except IntegrityError:
            if slug_given or _slug_owner(form.organization, form.slug, form.pk) is None:
                _check_slug_free(form.organization, form.slug, form.pk)
                raise
            form.slug = _free_slug(form.organization, form.name)
    raise RuntimeError("Could not find a free slug for the form.")


@transaction.atomic
def create_form(organization, data: dict) -> Form:
    """`data`: validated `name`, `questions`, and optionally `slug`, `description`, `is_active`."""
    slug = data.get("slug")
    if slug:
        _check_slug_free(organization, slug)
    else:
        slug = _free_slug(organization, data["name"])
    questions, next_id = merge_questions([], data["questions"], 1)
    form = Form(
        organization=organization,
        name=data["name"],
        slug=slug,
        description=data.get("description"),
        is_active=data.get("is_active", True),
        questions=questions,
        next_question_id=next_id,
    )
    _save(form, slug_given=bool(data.get("slug")))
    emit(organization, "form.created", lambda: present_form(form.pk, organization))
    return form


@transaction.atomic
def update_form(form: Form, data: dict) -> Form:
    """Partial update under the form's row lock. `questions` replaces the list (matched by id); answers already
    stored are kept whatever happens to their question. Emits `form.updated` with the changed fields."""
    organization = form.organization
    locked = Form.objects.select_for_update().get(pk=form.pk)
    before = present_form(locked.pk, organization)
    if "slug" in data and data["slug"] != locked.slug:
        _check_slug_free(organization, data["slug"], locked.pk)
        locked.slug = data["slug"]
    for name in ("name", "description", "is_active"):
        if name in data:
            setattr(locked, name, data[name])
    if "questions" in data:
        locked.questions, locked.next_question_id = merge_questions(
            locked.questions, data["questions"], locked.next_question_id
        )
    _save(locked, slug_given=True)
    after = present_form(locked.pk, organization)
    changed = [key for key in after if key != "updatedAt" and after[key] != before[key]]
    if changed:
        emit(organization, "form.updated", after, changed)
    return locked


def store_submission(form: Form, answers: list[dict], locale: str) -> FormSubmission:
    """A visitor's checked answers (see `questions.read_answers`); counts toward `completionCount`."""
    return FormSubmission.objects.create(
        organization_id=form.organization_id, form=form, answers=answers, locale=locale[:16]
    )
