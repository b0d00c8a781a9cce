"""Writes of a row with no rule beyond its validated fields: a category, an instructor type, a media item. The
resource views use these when a resource declares no service of its own, and services use `set_fields` to apply
validated data and `copy_name` to name a duplicate."""

from django.db import IntegrityError, transaction
from django.db.models import Model, ProtectedError

COPY_SUFFIX = " (copy)"


def copy_name(name: str, max_length: int) -> str:
    """The name of a duplicate: `name` suffixed " (copy)", shortened first when the result would not fit."""
    return name[: max_length - len(COPY_SUFFIX)] + COPY_SUFFIX


def set_fields(row: Model, data: dict) -> None:
    """Set each validated field of `data` (model field names) on `row`, unsaved."""
    for name, value in data.items():
        setattr(row, name, value)


def lock_row(model: type[Model], pk) -> None:
    """Take the row lock of `model`'s row `pk` (writes that must run one after the other lock a row they share)."""
    model.objects.select_for_update().filter(pk=pk).values_list("pk", flat=True).first()


@transaction.atomic
def create(model: type[Model], organization, data: dict) -> Model:
    return model.objects.create(organization=organization, **data)


@transaction.atomic
def update(row: Model, data: dict) -> Model:
    set_fields(row, data)
    row.save()
    return row


@transaction.atomic
def delete(row: Model) -> None:
    row.delete()


def delete_unless_in_use(row: Model, refuse_if_in_use) -> None:
    """Delete `row` once `refuse_if_in_use(row)` passed (it raises 409 RESOURCE_IN_USE); a reference written
    concurrently fails the delete on the database's protection, and is answered by the same check."""
    refuse_if_in_use(row)
    try:
        with transaction.atomic():
            row.delete()
    except (ProtectedError, IntegrityError):
        refuse_if_in_use(row)
        raise
