"""Slugs: lower-case ASCII words joined by hyphens, derived from a name with its unicode transliterated
(`Qué tal, Zürich` -> `que-tal-zurich`, `Привет` -> `privet`), and made unique among a set of rows by a `-2`,
`-3`, ... suffix. A derived slug that a concurrent insert took first is derived again (the unique constraint is
the judge: the row is saved in a savepoint and an `IntegrityError` on a slug now taken retries).
"""

import re
from collections.abc import Callable

from anyascii import anyascii
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
ATTEMPTS = 10


class NoFreeSlug(Exception):
    """Every attempt found its derived slug taken by a concurrent write; `holder` is the last holder's pk."""

    def __init__(self, holder):
        super().__init__("Could not find a free slug.")
        self.holder = holder


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


def holder_of(rows, slug: str | None, field: str = "slug"):
    """The pk of the row of `rows` that holds `slug`, or None (always for an empty slug)."""
    if not slug:
        return None
    return rows.filter(**{field: slug}).values_list("pk", flat=True).first()


def save_with_unique_slug(
    instance,
    rows: Callable[[], QuerySet],
    *,
    taken: Callable[[object], None] | None = None,
    derive_from: str | None = None,
    fallback: str = "item",
    max_length: int = 200,
    field: str = "slug",
    save: Callable[[], object] | None = None,
    check: bool = True,
):
    """Save `instance` (`save()`, default `instance.save()`) in a savepoint with its `field` unique among `rows()`
    (the rows sharing its slug space; `instance` itself is left out).

    With `derive_from`, the slug is `free_slug()` of that text, derived again when a concurrent write takes it
    first (`NoFreeSlug` after ATTEMPTS tries). Otherwise the instance's own slug is kept, and when another row holds
    it, already or by a concurrent write, `taken(holder_pk)` is called: it raises the caller's error (a 409);
    `check=False` skips the look before the save (the slug did not change).
    An integrity error that is not about the slug is raised as it is."""

    def others():
        return rows().exclude(pk=instance.pk) if instance.pk is not None else rows()

    for _attempt in range(ATTEMPTS):
        if derive_from is not None:
            setattr(
                instance, field, free_slug(others(), derive_from, fallback=fallback, max_length=max_length, field=field)
            )
        elif check:
            holder = holder_of(others(), getattr(instance, field), field)
            if holder is not None and taken is not None:
                taken(holder)
        try:
            with transaction.atomic():
                return (save or instance.save)()
        except IntegrityError:
            holder = holder_of(others(), getattr(instance, field), field)
            if holder is None:
                raise
            if derive_from is None:
                if taken is not None:
                    taken(holder)
                raise
    raise NoFreeSlug(holder)
