"""Input validation for the website API. Section `config` and `translations` are checked against their type's JSON
Schema by the services (`section_types.clean_section`), which name the failing field."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from apps.api.fields import (
    BoundedJSONObjectField,
    InputSerializer,
    OrganizationObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictRegexField,
    StrictURLField,
)
from apps.clubs.models import Club

from ..choices import ButtonStyle
from ..section_types import HTML_ID_MAX, LOCALE_RE

SLUG_PATTERN = r"^[a-z0-9-]+$"
SECTION_CONFIG_LIMITS = {"max_bytes": 100_000, "max_depth": 6}


@extend_schema_serializer(component_name="WebsiteUpdate")
class WebsiteUpdateSerializer(InputSerializer):
    """The live fields only: they take effect without a publish."""

    name = StrictCharField(max_length=200, required=False)
    clubId = OrganizationObjectField(model=Club, required=False, allow_null=True)


@extend_schema_serializer(component_name="SectionInput")
class SectionInputSerializer(serializers.Serializer):
    type = StrictCharField(max_length=40, help_text="A type of `GET /v1/platform/website/section-types`.")
    htmlId = StrictCharField(
        max_length=HTML_ID_MAX,
        required=False,
        help_text="^[a-z][a-z0-9-]*$, unique within the page. Omitted: derived from the type (`hero`, `hero-2`). "
        "Send back the read value to keep it.",
    )
    config = BoundedJSONObjectField(required=False, **SECTION_CONFIG_LIMITS)
    translations = BoundedJSONObjectField(required=False, help_text="{locale: {field: text}}.", **SECTION_CONFIG_LIMITS)


@extend_schema_serializer(component_name="SectionCreate")
class SectionCreateSerializer(SectionInputSerializer):
    position = StrictIntegerField(min_value=0, required=False, help_text="0-based; appends when omitted.")


@extend_schema_serializer(component_name="SectionUpdate")
class SectionUpdateSerializer(serializers.Serializer):
    htmlId = StrictCharField(max_length=HTML_ID_MAX, required=False)
    config = BoundedJSONObjectField(required=False, help_text="Replaced whole.", **SECTION_CONFIG_LIMITS)
    translations = BoundedJSONObjectField(required=False, help_text="Replaced whole.", **SECTION_CONFIG_LIMITS)
    position = StrictIntegerField(min_value=0, required=False)


PAGE_TRANSLATION_LIMITS = {"metaTitle": 200, "metaDescription": 500}


class PageTranslationsField(BoundedJSONObjectField):
    """`{locale: {metaTitle?, metaDescription?}}`: strings (or null) within the page fields' own limits."""

    def __init__(self, **kwargs):
        super().__init__(max_bytes=50_000, max_depth=2, **kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        errors = {}
        for locale, fields in value.items():
            if not LOCALE_RE.match(str(locale)):
                errors[str(locale)] = ["Not a language code."]
            elif not isinstance(fields, dict):
                errors[locale] = ["Must be an object with metaTitle and/or metaDescription."]
            else:
                for name, text in fields.items():
                    limit = PAGE_TRANSLATION_LIMITS.get(name)
                    if limit is None:
                        errors[f"{locale}.{name}"] = ["Only metaTitle and metaDescription are translated here."]
                    elif text is not None and (not isinstance(text, str) or len(text) > limit):
                        errors[f"{locale}.{name}"] = [f"Must be a string of at most {limit} characters, or null."]
        if errors:
            raise serializers.ValidationError(errors)
        return {locale: dict(fields) for locale, fields in value.items()}


@extend_schema_serializer(component_name="WebsitePageCreate")
class PageCreateSerializer(InputSerializer):
    slug = StrictRegexField(SLUG_PATTERN, max_length=100, help_text="^[a-z0-9-]+$, unique within the website.")
    title = StrictCharField(max_length=200)
    isHomepage = StrictBooleanField(required=False)
    sections = serializers.ListField(child=SectionInputSerializer(), required=False, max_length=100)
    metaTitle = StrictCharField(max_length=200, required=False, allow_null=True)
    metaDescription = StrictCharField(max_length=500, required=False, allow_null=True)
    ogImage = StrictURLField(max_length=2048, required=False, allow_null=True)
    noindex = StrictBooleanField(required=False)
    translations = PageTranslationsField(required=False, help_text="{locale: {metaTitle, metaDescription}}.")


@extend_schema_serializer(component_name="WebsitePageUpdate")
class PageUpdateSerializer(PageCreateSerializer):
    slug = StrictRegexField(SLUG_PATTERN, max_length=100, required=False)
    title = StrictCharField(max_length=200, required=False)
    sections = serializers.ListField(
        child=SectionInputSerializer(), required=False, max_length=100, help_text="Replaces the ordered list."
    )


@extend_schema_serializer(component_name="WebsiteLayoutUpdate")
class LayoutUpdateSerializer(InputSerializer):
    header = SectionInputSerializer(required=False, allow_null=True, help_text="A `header` section; null removes it.")
    footer = SectionInputSerializer(required=False, allow_null=True, help_text="A `footer` section; null removes it.")


class ColorsSerializer(InputSerializer):
    primary = serializers.CharField(max_length=7, required=False, help_text="#rgb or #rrggbb")
    secondary = serializers.CharField(max_length=7, required=False)
    accent = serializers.CharField(max_length=7, required=False)
    background = serializers.CharField(max_length=7, required=False)
    text = serializers.CharField(max_length=7, required=False)


class TypographySerializer(serializers.Serializer):
    headingFont = serializers.CharField(max_length=100, required=False)
    bodyFont = serializers.CharField(max_length=100, required=False)
    baseSize = serializers.CharField(max_length=10, required=False, help_text="A CSS length: 16px, 1rem.")


@extend_schema_serializer(component_name="WebsiteStylesUpdate")
class StylesUpdateSerializer(serializers.Serializer):
    """Documentation of the PATCH body: the tokens are validated by `theme.merge_styles` (unknown ones ignored)."""

    colors = ColorsSerializer(required=False)
    typography = TypographySerializer(required=False)
    radius = serializers.CharField(max_length=10, required=False)
    buttonStyle = serializers.ChoiceField(choices=ButtonStyle.choices, required=False)


@extend_schema_serializer(component_name="SeoSettingsUpdate")
class SeoSettingsUpdateSerializer(serializers.Serializer):
    siteTitle = StrictCharField(max_length=200, required=False, allow_null=True)
    siteDescription = StrictCharField(max_length=500, required=False, allow_null=True)
    defaultOgImage = StrictURLField(max_length=2048, required=False, allow_null=True)
    titleTemplate = StrictRegexField(
        r"%s", max_length=200, required=False, allow_null=True, help_text="Must contain `%s` (the page title)."
    )
    favicon = StrictURLField(max_length=2048, required=False, allow_null=True)


@extend_schema_serializer(component_name="WebsitePublish")
class PublishSerializer(InputSerializer):
    note = StrictCharField(max_length=500, required=False, allow_null=True, allow_blank=True)
