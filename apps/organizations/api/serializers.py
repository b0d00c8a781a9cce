"""Input validation for the organization settings PATCH (the response is `resources.OrganizationSettings`)."""

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from apps.api.fields import InputSerializer, StrictCharField
from apps.api.validators import MAX_OFFERED_LANGUAGES, is_language_code

from .. import services
from ..resources import BOOKING_CARD_NAMES_UPDATE_SCHEMA


class LanguageField(StrictCharField):
    default_error_messages = {"language": "`{value}` is not a language code (use e.g. `en`, `es` or `pt-BR`)."}

    def __init__(self, **kwargs):
        super().__init__(max_length=10, **kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not is_language_code(value):
            self.fail("language", value=value)
        return value


@extend_schema_field(BOOKING_CARD_NAMES_UPDATE_SCHEMA)
class BookingCardNamesField(serializers.DictField):
    """An object keyed by `area`, `class`, `instructor` and `event`; omitted keys fall back to the defaults."""

    default_error_messages = {
        "unknown_keys": "Unknown keys: {keys}. Allowed keys: area, class, instructor, event.",
    }

    def __init__(self, **kwargs):
        child = StrictCharField(max_length=services.BOOKING_CARD_NAME_MAX, allow_blank=False, trim_whitespace=True)
        super().__init__(child=child, **kwargs)

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = [str(k) for k in data if k not in services.BOOKING_CARD_KEYS]
            if unknown:
                self.fail("unknown_keys", keys=", ".join(sorted(unknown)))
        return super().to_internal_value(data)


@extend_schema_serializer(component_name="OrganizationSettingsUpdate")
class OrganizationSettingsUpdateSerializer(InputSerializer):
    offeredLanguages = serializers.ListField(
        child=LanguageField(),
        required=False,
        allow_empty=False,
        max_length=MAX_OFFERED_LANGUAGES,
        help_text="Must include `defaultLanguage`.",
    )
    bookingCardNames = BookingCardNamesField(
        required=False,
        help_text="Replaces the stored names (no merge); omitted keys show their defaults.",
    )
