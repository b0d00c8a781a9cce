"""Input validation for forms. `translations` is read-only through the API (ignored like any unknown field)."""

from django.core.validators import MaxLengthValidator, MinLengthValidator
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.fields import InputSerializer, StrictBooleanField, StrictCharField, StrictIntegerField, StrictRegexField
from apps.kernel.slugs import SLUG_PATTERN

from ..choices import CHOICE_TYPES, QuestionType
from ..questions import LABEL_MAX, MAX_OPTIONS, MAX_QUESTIONS, OPTION_MAX


@extend_schema_serializer(component_name="FormQuestionInput")
class QuestionInputSerializer(InputSerializer):
    id = StrictIntegerField(
        min_value=1,
        required=False,
        help_text="A question of this form, kept (with its answers); leave it out for a new question.",
    )
    type = serializers.ChoiceField(choices=QuestionType.choices)
    label = StrictCharField(max_length=LABEL_MAX)
    required = StrictBooleanField(required=False, default=False)
    options = serializers.ListField(
        child=StrictCharField(max_length=OPTION_MAX),
        required=False,
        max_length=MAX_OPTIONS,
        help_text=f"Required (1 to {MAX_OPTIONS} distinct strings) for `select` and `multiselect`; empty or omitted "
        "for the other types.",
    )

    def validate(self, attrs):
        # A PATCH replaces the whole list, so every question is complete even though the parent body is partial.
        missing = [name for name in ("type", "label") if name not in attrs]
        if missing:
            raise serializers.ValidationError({name: ["This field is required."] for name in missing})
        options = attrs.get("options") or []
        if attrs["type"] in CHOICE_TYPES:
            if not options:
                raise serializers.ValidationError({"options": [f"A `{attrs['type']}` question needs options."]})
            if len(set(options)) != len(options):
                raise serializers.ValidationError({"options": ["Options must be distinct."]})
        elif options:
            raise serializers.ValidationError({"options": [f"A `{attrs['type']}` question has no options."]})
        attrs.setdefault("required", False)
        return attrs


def question_list(required: bool):
    """1 to MAX_QUESTIONS questions; the validators put the bounds into the OpenAPI document, the list's own
    `min_length`/`max_length` answer first."""
    return serializers.ListSerializer(
        child=QuestionInputSerializer(),
        required=required,
        min_length=1,
        max_length=MAX_QUESTIONS,
        validators=[MinLengthValidator(1), MaxLengthValidator(MAX_QUESTIONS)],
        help_text="Replaces the whole list; questions are matched by `id`.",
    )


@extend_schema_serializer(component_name="FormCreate")
class FormCreateSerializer(InputSerializer):
    """POST body: `name` and `questions` are required."""

    blank_is_null = ("description",)
    name = StrictCharField(max_length=200)
    slug = StrictRegexField(
        SLUG_PATTERN,
        max_length=100,
        required=False,
        help_text="Unique per organization (409 `DUPLICATE_VALUE`); derived from the name when omitted.",
        error_messages={"invalid": "Lowercase letters, digits and single hyphens only."},
    )
    description = StrictCharField(max_length=5000, required=False, allow_null=True, allow_blank=True)
    isActive = StrictBooleanField(required=False)
    questions = question_list(required=True)


@extend_schema_serializer(component_name="FormUpdate")
class FormUpdateSerializer(FormCreateSerializer):
    """PATCH body: every field optional; `questions` replaces the list."""

    questions = question_list(required=False)
