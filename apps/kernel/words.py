"""The words of the HTML pages (club site, forms, marketplace, OAuth consent): tables keyed by language, English
the fallback."""

DEFAULT_LOCALE = "en"


def in_language(table: dict, locale: str | None) -> dict:
    """`table`'s words in the language of `locale` (`es-ES` is `es`), else in English."""
    return table.get((locale or DEFAULT_LOCALE).split("-")[0], table[DEFAULT_LOCALE])


class Labels:
    """The words of one language of `table` (a subclass names it), falling back to English word by word:
    `labels.get("rating", average=4.5)`, or `labels.words.rating` in a template for a label without placeholders."""

    table: dict = {}

    def __init__(self, locale: str):
        self.locale = locale if locale in self.table else DEFAULT_LOCALE
        self.words = self.table[self.locale]

    def get(self, key: str, **values) -> str:
        text = self.words.get(key) or self.table[DEFAULT_LOCALE][key]
        return text.format(**values) if values else text
