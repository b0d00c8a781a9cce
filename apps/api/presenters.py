"""Small helpers for response presenters (plain functions building dicts: fast, no per-row queries)."""


def number(value):
    """A stored Decimal (an amount, a rate) as a JSON number (float), None stays None. Money as text is
    `apps.kernel.money.format_money`."""
    return None if value is None else float(value)


def resolve_translation(translations: dict | None, locale: str | None, default_language: str, field: str, fallback):
    """`field` resolved for `locale`, falling back to the organization's default language (when given, not None),
    then the stored value."""
    translations = translations or {}
    for lang in (locale, default_language):
        if lang and isinstance(translations.get(lang), dict) and translations[lang].get(field):
            return translations[lang][field]
    return fallback
