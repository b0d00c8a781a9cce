"""Theme tokens (`styles`) and SEO settings of a website's draft: defaults, validation and merging.

Styles: `colors {primary, secondary, accent, background, text}` (hex `#rgb` or `#rrggbb`), `typography
{headingFont, bodyFont, baseSize}` (font family names; a CSS length), `radius` (a CSS length) and `buttonStyle`.
A PATCH merges the tokens it names; unknown token names are ignored, a malformed value is a 400 on its path.
"""

import re

from apps.api.exceptions import ValidationFailed

from .choices import ButtonStyle

COLOR_RE = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
LENGTH_RE = re.compile(r"^(?:0|\d{1,3}(?:\.\d{1,3})?(?:px|rem|em))$")
FONT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 \-]{0,99}$")  # a family name: nothing that could end a CSS value

DEFAULT_STYLES = {
    "colors": {
        "primary": "#1d4ed8",
        "secondary": "#0f172a",
        "accent": "#f59e0b",
        "background": "#ffffff",
        "text": "#111827",
    },
    "typography": {"headingFont": "Inter", "bodyFont": "Inter", "baseSize": "16px"},
    "radius": "8px",
    "buttonStyle": ButtonStyle.ROUNDED.value,
}

COLOR_TOKENS = tuple(DEFAULT_STYLES["colors"])
FONT_TOKENS = ("headingFont", "bodyFont")


def styles_of(stored: dict | None) -> dict:
    """The full token set: the stored values over the defaults."""
    stored = stored or {}
    return {
        "colors": {**DEFAULT_STYLES["colors"], **(stored.get("colors") or {})},
        "typography": {**DEFAULT_STYLES["typography"], **(stored.get("typography") or {})},
        "radius": stored.get("radius", DEFAULT_STYLES["radius"]),
        "buttonStyle": stored.get("buttonStyle", DEFAULT_STYLES["buttonStyle"]),
    }


def merge_styles(stored: dict | None, changes) -> dict:
    """`stored` with the known tokens of `changes` applied (validated); unknown names are ignored."""
    if not isinstance(changes, dict):
        raise ValidationFailed({"non_field_errors": ["The body must be a JSON object of theme tokens."]})
    result = styles_of(stored)
    errors = {}
    for group, tokens, pattern, hint in (
        ("colors", COLOR_TOKENS, COLOR_RE, "a hex colour such as #1d4ed8"),
        ("typography", FONT_TOKENS, FONT_RE, "a font family name (letters, digits, spaces and hyphens)"),
        ("typography", ("baseSize",), LENGTH_RE, "a CSS length such as 16px or 1rem"),
    ):
        if group not in changes:
            continue
        values = changes[group]
        if not isinstance(values, dict):
            errors[group] = ["Must be an object."]
            continue
        for name in tokens:
            if name in values:
                value = values[name]
                if isinstance(value, str) and pattern.match(value):
                    result[group][name] = value
                else:
                    errors[f"{group}.{name}"] = [f"Must be {hint}."]
    if "radius" in changes:
        if isinstance(changes["radius"], str) and LENGTH_RE.match(changes["radius"]):
            result["radius"] = changes["radius"]
        else:
            errors["radius"] = ["Must be a CSS length such as 8px or 0.5rem."]
    if "buttonStyle" in changes:
        if changes["buttonStyle"] in ButtonStyle.values:
            result["buttonStyle"] = changes["buttonStyle"]
        else:
            errors["buttonStyle"] = [f"Must be one of: {', '.join(ButtonStyle.values)}."]
    if errors:
        raise ValidationFailed(errors)
    return result


def seo_settings_of(stored: dict | None, website_name: str) -> dict:
    stored = stored or {}
    return {
        "siteTitle": stored.get("siteTitle") or website_name,
        "siteDescription": stored.get("siteDescription"),
        "defaultOgImage": stored.get("defaultOgImage"),
        "titleTemplate": stored.get("titleTemplate") or "%s",
        "favicon": stored.get("favicon"),
    }
