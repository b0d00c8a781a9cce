"""Slugs: lower-case ASCII words joined by hyphens, derived from a name with its unicode transliterated
(`Qué tal, Zürich` -> `que-tal-zurich`, `Привет` -> `privet`), and made unique among a set of rows by a `-2`,
`-3`, ... suffix. A derived slug that a concurrent insert took first is derived again (the unique constraint is
the judge: the row is saved in a savepoint and an `IntegrityError` on a slug now taken retries).
"""

import re
from collections.abc import Callable

from anyascii import anyascii
from django.db import IntegrityError, transaction

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
ATTEMPTS = 5


class NoFreeSlug(Exception):
    """Every attempt found its derived slug taken by a concurrent insert."""


def slugify(text: str, max_length: int = 200) -> str:
    """`text` as a slug of at most `max_length` characters, never ending in a hyphen; may be empty (a text of
    symbols only)."""
    slug = _NOT_SLUG.sub("-", anyascii(str(text or "")).lower()).strip("-")
    return slug[:max_length].rstrip("-")


def is_slug(value: str) -> bool:
    return bool(re.match(SLUG_PATTERN, value or ""))


def with_suffix(base: str, n: int, max_length: int = 200) -> str:
    """`base-n`, `base` shortened so the result still fits `max_length`."""
    suffix = f"-{n}"
    return base[: max_length - len(suffix)].rstrip("-") + suffix


def free_slug(rows, text: str, *, fallback: str, max_length: int = 200, field: str = "slug") -> str:
    """The slug of `text` (`fallback` when it has none), or the first `-n` (n >= 2) variant that none of `rows`
    (a queryset: the rows it must differ from) holds in `field`."""
    base = slugify(text, max_length) or fallback
    stem = with_suffix(base, 10**9, max_length)[: -len("-1000000000")]  # what every suffixed candidate starts with
    taken = set(rows.filter(**{f"{field}__startswith": stem}).values_list(field, flat=True))
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = with_suffix(base, n, max_length)
    return candidate


def save_with_free_slug(
    instance,
    rows: Callable[[], object],
    text: str,
    *,
    fallback: str,
    max_length: int = 200,
    field: str = "slug",
    save: Callable[[], None] | None = None,
):
    """Set `instance.<field>` to `free_slug(rows(), text, ...)` and save it in a savepoint; when the insert fails
    because another row took that slug meanwhile, derive it again (up to ATTEMPTS times, then `NoFreeSlug`). Any
    other integrity error is raised. `rows()` returns the rows the slug must differ from (without `instance`);
    `save` defaults to `instance.save()`."""
    creating = instance.pk is None
    for _attempt in range(ATTEMPTS):
        slug = free_slug(rows(), text, fallback=fallback, max_length=max_length, field=field)
        setattr(instance, field, slug)
        try:
            with transaction.atomic():
                (save or instance.save)()
            return instance
        except IntegrityError:
            if not rows().filter(**{field: slug}).exists():
                raise
            if creating:
                instance.pk = None
    raise NoFreeSlug(f"Could not find a free {field} for {text!r}.")
