"""Questions of a form and the answers a visitor gives to them.

`merge_questions` turns the validated `questions` of a write into the stored list, matching sent ids with the
form's questions and giving new ones the next id. `read_answers` checks a submitted HTML form against the
questions (required, each type's format, option membership) and returns the answers to store or the errors to show.
"""

import datetime as dt
import re
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from apps.api.exceptions import DuplicateValue, ValidationFailed

from .choices import CHOICE_TYPES, QuestionType

MAX_QUESTIONS = 50
LABEL_MAX = 500
MAX_OPTIONS = 50
OPTION_MAX = 200
TEXT_MAX = 1000
TEXTAREA_MAX = 5000
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
NUMBER_RE = re.compile(r"^[+-]?\d{1,15}([.,]\d{1,10})?$")
PHONE_RE = re.compile(r"^\+?[0-9 ().\-]{5,30}$")
MIN_PHONE_DIGITS = 5


def field_name(question_id: int) -> str:
    """The HTML input name (and id) of a question."""
    return f"q{question_id}"


def merge_questions(current: list[dict], incoming: list[dict], next_id: int) -> tuple[list[dict], int]:
    """The stored question list for `incoming` (validated `{id?, type, label, required, options}`), replacing
    `current`: a sent `id` names one of the current questions (400 otherwise, 409 when sent twice), a question without
    one gets `next_id`, `next_id + 1`, ... Returns the list and the next free id."""
    known = {question["id"] for question in current}
    seen: set[int] = set()
    merged = []
    for index, question in enumerate(incoming):
        question_id = question.get("id")
        if question_id is not None:
            if question_id not in known:
                raise ValidationFailed(
                    {f"questions.{index}.id": ["No question of this form has this id; leave `id` out for a new one."]}
                )
            if question_id in seen:
                raise DuplicateValue(f"questions.{index}.id", message="Each question id may appear once.")
        else:
            question_id = next_id
            next_id += 1
        seen.add(question_id)
        merged.append(
            {
                "id": question_id,
                "type": question["type"],
                "label": question["label"],
                "required": bool(question.get("required", False)),
                "options": list(question.get("options") or []) if question["type"] in CHOICE_TYPES else [],
            }
        )
    return merged, next_id


# --- answers --------------------------------------------------------------------------------------------------------


class AnswerError(Exception):
    """A submitted value that does not fit its question; `kind` picks the visitor's message."""

    def __init__(self, kind: str, limit: int | None = None):
        super().__init__(kind)
        self.kind = kind
        self.limit = limit


def _text(raw: str, limit: int) -> str:
    if len(raw) > limit:
        raise AnswerError("too_long", limit)
    return raw


def _date(raw: str) -> str:
    if not DATE_RE.match(raw):
        raise AnswerError("date")
    try:
        return dt.date.fromisoformat(raw).isoformat()
    except ValueError:
        raise AnswerError("date") from None


def _number(raw: str) -> str:
    """A decimal number (a comma accepted as the decimal mark), stored as its plain text: `12`, `-3.5`."""
    if not NUMBER_RE.match(raw):
        raise AnswerError("number")
    return str(Decimal(raw.replace(",", ".")))


def _email(raw: str) -> str:
    if len(raw) > 254:
        raise AnswerError("email")
    try:
        validate_email(raw)
    except ValidationError:
        raise AnswerError("email") from None
    return raw


def _phone(raw: str) -> str:
    if not PHONE_RE.match(raw) or sum(char.isdigit() for char in raw) < MIN_PHONE_DIGITS:
        raise AnswerError("phone")
    return raw


def _one_answer(question: dict, values: list[str]):
    """The stored value of one question from its submitted values (None when left empty)."""
    kind = question["type"]
    if any("\x00" in value for value in values):  # PostgreSQL cannot store it: the visitor is told, not a 500
        raise AnswerError("nul")
    if kind == QuestionType.MULTISELECT:
        chosen = [value for value in values if value != ""]
        if any(value not in question["options"] for value in chosen):
            raise AnswerError("choice")
        ordered = [option for option in question["options"] if option in chosen]
        return ordered or None
    if kind == QuestionType.CHECKBOX:
        return True if any(value for value in values) else None
    raw = (values[-1] if values else "").strip()
    if raw == "":
        return None
    if kind == QuestionType.SELECT:
        if raw not in question["options"]:
            raise AnswerError("choice")
        return raw
    parse = {
        QuestionType.TEXT: lambda: _text(raw, TEXT_MAX),
        QuestionType.TEXTAREA: lambda: _text(raw, TEXTAREA_MAX),
        QuestionType.DATE: lambda: _date(raw),
        QuestionType.NUMBER: lambda: _number(raw),
        QuestionType.EMAIL: lambda: _email(raw),
        QuestionType.PHONE: lambda: _phone(raw),
    }[kind]
    return parse()


def read_answers(questions: list[dict], data) -> tuple[list[dict], dict[int, AnswerError]]:
    """(answers, errors) for the submitted `data` (a QueryDict): answers as stored
    (`[{questionId, label, type, value}]`, a checkbox left unticked is `false`), errors by question id."""
    answers, errors = [], {}
    for question in questions:
        values = data.getlist(field_name(question["id"]))
        try:
            value = _one_answer(question, values)
        except AnswerError as error:
            errors[question["id"]] = error
            continue
        if value is None and question["required"]:
            errors[question["id"]] = AnswerError("required")
            continue
        if value is None and question["type"] == QuestionType.CHECKBOX:
            value = False
        answers.append(
            {"questionId": question["id"], "label": question["label"], "type": question["type"], "value": value}
        )
    return answers, errors
