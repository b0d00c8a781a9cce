from django.db import models


class QuestionType(models.TextChoices):
    """The input a question of a public form asks for."""

    TEXT = "text", "Short text"
    TEXTAREA = "textarea", "Long text"
    SELECT = "select", "One of the options"
    MULTISELECT = "multiselect", "Any of the options"
    CHECKBOX = "checkbox", "Tick box"
    DATE = "date", "Calendar date"
    NUMBER = "number", "Number"
    EMAIL = "email", "E-mail address"
    PHONE = "phone", "Phone number"


# The types whose answer is one or several of the question's `options`.
CHOICE_TYPES = frozenset({QuestionType.SELECT, QuestionType.MULTISELECT})
