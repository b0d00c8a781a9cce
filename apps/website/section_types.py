"""The section types a page, the header or the footer can hold: one JSON Schema per type for its `config`, the
string fields a locale may override (`translatableFields`) and where the type is allowed (`allowedIn`).

`validate_section` checks a section against its type with the `jsonschema` library; every failure is reported on
its field path (`config.title`, `config.links.0.url`, `translations.es.title`).
"""

import functools
import re
from dataclasses import dataclass

import nh3

from apps.api.exceptions import ValidationFailed

from .choices import SectionPlacement

HTML_ID_RE = re.compile(r"^[a-z][a-z0-9-]*$")
HTML_ID_MAX = 64
LOCALE_RE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")

TEXT = {"type": "string", "maxLength": 200}
LONG_TEXT = {"type": "string", "maxLength": 2000}
URL = {"type": "string", "maxLength": 2048, "pattern": r"^(https?://|/|#|mailto:|tel:)\S*$"}
ID_OR_NULL = {"type": ["integer", "null"], "minimum": 1}
IDS = {"type": "array", "items": {"type": "integer", "minimum": 1}, "maxItems": 100, "uniqueItems": True}
LINKS = {
    "type": "array",
    "maxItems": 20,
    "items": {
        "type": "object",
        "properties": {"label": TEXT, "url": URL},
        "required": ["label", "url"],
        "additionalProperties": False,
    },
}


def _object(properties: dict, required=()) -> dict:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class SectionType:
    type: str
    name: str
    description: str
    config_schema: dict
    translatable_fields: tuple[str, ...]
    allowed_in: tuple[str, ...] = (SectionPlacement.PAGE,)
    html_fields: tuple[str, ...] = ()  # rich text, sanitized with nh3 on write


SECTION_TYPES = {
    section.type: section
    for section in (
        SectionType(
            "hero",
            "Hero",
            "A large heading with an optional image and call to action.",
            _object(
                {"title": TEXT, "subtitle": LONG_TEXT, "imageUrl": URL, "ctaLabel": TEXT, "ctaUrl": URL},
                required=["title"],
            ),
            ("title", "subtitle", "ctaLabel"),
        ),
        SectionType(
            "text",
            "Text",
            "A heading and rich text (sanitized HTML).",
            _object({"heading": TEXT, "body": {"type": "string", "maxLength": 50000}}, required=["body"]),
            ("heading", "body"),
            html_fields=("body",),
        ),
        SectionType(
            "plans",
            "Plans",
            "The organization's public, active plans with their tax-inclusive prices (live data). `planIds` picks "
            "and orders some of them; empty shows all.",
            _object({"heading": TEXT, "planIds": IDS, "showFeatures": {"type": "boolean"}}),
            ("heading",),
        ),
        SectionType(
            "class-schedule",
            "Class schedule",
            "The public classes of the next `days` days on the club's clock (live data).",
            _object(
                {
                    "heading": TEXT,
                    "clubId": ID_OR_NULL,
                    "days": {"type": "integer", "minimum": 1, "maximum": 14},
                    "classTypeIds": IDS,
                }
            ),
            ("heading",),
        ),
        SectionType(
            "events",
            "Events",
            "The organization's published, public upcoming events with their ticket prices (live data), soonest "
            "first; `clubId` keeps one club's.",
            _object({"heading": TEXT, "clubId": ID_OR_NULL, "limit": {"type": "integer", "minimum": 1, "maximum": 50}}),
            ("heading",),
        ),
        SectionType(
            "faq",
            "FAQ",
            "Questions and answers from the organization's published FAQ content items; `contentItemIds` picks and "
            "orders some of them, empty shows all.",
            _object({"heading": TEXT, "contentItemIds": IDS}),
            ("heading",),
        ),
        SectionType(
            "gallery",
            "Gallery",
            "Images from the media library, in the order of `mediaIds`.",
            _object({"heading": TEXT, "mediaIds": IDS}, required=["mediaIds"]),
            ("heading",),
        ),
        SectionType(
            "contact",
            "Contact",
            "The club's address and phone, and optionally one of the organization's forms.",
            _object({"heading": TEXT, "clubId": ID_OR_NULL, "formId": ID_OR_NULL, "showAddress": {"type": "boolean"}}),
            ("heading",),
        ),
        SectionType(
            "header",
            "Header",
            "The site header: logo (the website's club's logo when `clubId` is set), navigation links and a call "
            "to action.",
            _object({"logoUrl": URL, "links": LINKS, "ctaLabel": TEXT, "ctaUrl": URL}),
            ("ctaLabel",),
            allowed_in=(SectionPlacement.HEADER,),
        ),
        SectionType(
            "footer",
            "Footer",
            "The site footer: a short text, links and the club's social profiles.",
            _object({"text": LONG_TEXT, "links": LINKS, "showSocial": {"type": "boolean"}}),
            ("text",),
            allowed_in=(SectionPlacement.FOOTER,),
        ),
    )
}


@functools.cache
def _validator(type_name: str):
    # jsonschema (with its metaschemas) costs a web worker ~5 MB: loaded by the first section written.
    from jsonschema import Draft202012Validator

    return Draft202012Validator(SECTION_TYPES[type_name].config_schema)


def _path(prefix: str, error) -> str:
    parts = [prefix, *(str(part) for part in error.absolute_path)]
    if error.validator == "required":
        missing = re.search(r"'([^']+)' is a required property", error.message)
        if missing:
            parts.append(missing.group(1))
    if error.validator == "additionalProperties":
        extra = re.findall(r"'([^']+)'", error.message)
        if extra:
            parts.append(extra[0])
    return ".".join(parts)


def _message(error) -> str:
    if error.validator == "additionalProperties":
        return "Unknown field for this section type."
    if error.validator == "required":
        return "This field is required."
    return error.message


def section_type(type_name, field="type") -> SectionType:
    section = SECTION_TYPES.get(type_name) if isinstance(type_name, str) else None
    if section is None:
        known = ", ".join(sorted(SECTION_TYPES))
        raise ValidationFailed({field: [f"Unknown section type `{type_name}`. Known types: {known}."]})
    return section


def clean_section(section: dict, placement: str, prefix: str = "") -> dict:
    """`{type, htmlId?, config, translations}` checked against its type and placement, rich text sanitized.
    Raises ValidationFailed naming each failing field (prefixed with `prefix`, e.g. `sections.2.`)."""
    kind = section_type(section.get("type"), f"{prefix}type")
    if placement not in kind.allowed_in:
        raise ValidationFailed(
            {f"{prefix}type": [f"A `{kind.type}` section is allowed in: {', '.join(kind.allowed_in)}."]}
        )
    config = section.get("config") or {}
    errors = {}
    for error in sorted(_validator(kind.type).iter_errors(config), key=lambda e: list(e.absolute_path)):
        errors.setdefault(_path(f"{prefix}config", error), []).append(_message(error))
    translations = section.get("translations") or {}
    if not isinstance(translations, dict):
        errors[f"{prefix}translations"] = ["Must be an object keyed by locale."]
        translations = {}
    for locale, fields in translations.items():
        where = f"{prefix}translations.{locale}"
        if not LOCALE_RE.match(str(locale)):
            errors[where] = [f"`{locale}` is not a language code."]
        elif not isinstance(fields, dict):
            errors[where] = ["Must be an object of translated fields."]
        else:
            for name, value in fields.items():
                if name not in kind.translatable_fields:
                    allowed = ", ".join(kind.translatable_fields)
                    errors[f"{where}.{name}"] = [f"Not translatable on `{kind.type}` (translatable: {allowed})."]
                elif not isinstance(value, str) or len(value) > 50000:
                    errors[f"{where}.{name}"] = ["Must be a string of at most 50000 characters."]
    if errors:
        raise ValidationFailed(errors)
    config = dict(config)
    translations = {locale: dict(fields) for locale, fields in translations.items()}
    for name in kind.html_fields:
        if isinstance(config.get(name), str):
            config[name] = nh3.clean(config[name])
        for fields in translations.values():
            if isinstance(fields.get(name), str):
                fields[name] = nh3.clean(fields[name])
    return {"type": kind.type, "htmlId": section.get("htmlId"), "config": config, "translations": translations}


def present_section_type(kind: SectionType) -> dict:
    return {
        "type": kind.type,
        "name": kind.name,
        "description": kind.description,
        "configSchema": kind.config_schema,
        "translatableFields": list(kind.translatable_fields),
        "allowedIn": list(kind.allowed_in),
    }
