"""Domain operations on class types: the REST views, MCP tools and demo data all go through these."""

from django.db import transaction

from apps.api.exceptions import DuplicateValue, ResourceInUse
from apps.kernel import slugs
from apps.kernel.records import delete_unless_in_use, lock_row, set_fields

from .models import ClassOccurrence, ClassType


def _slug_taken(holder) -> None:
    raise DuplicateValue("slug", holder)


def _save_unique(class_type: ClassType) -> ClassType:
    """Save in a savepoint; a slug another type holds (already or by a concurrent write) is 409 DUPLICATE_VALUE."""
    rows = ClassType.objects.filter(organization_id=class_type.organization_id)
    slugs.save_with_unique_slug(class_type, lambda: rows, taken=_slug_taken)
    return class_type


@transaction.atomic
def create_class_type(organization, data: dict) -> ClassType:
    """`data` holds model field names (validated input)."""
    return _save_unique(ClassType(organization=organization, **data))


@transaction.atomic
def update_class_type(class_type: ClassType, data: dict) -> ClassType:
    """Partial update. A class's `maxPartySize` is read from its type, so a change here applies to its classes."""
    set_fields(class_type, data)
    _save_unique(class_type)
    return class_type


@transaction.atomic
def delete_class_type(class_type: ClassType) -> None:
    """Refused with 409 RESOURCE_IN_USE while any class occurrence (whatever its status) references the type."""
    lock_row(ClassType, class_type.pk)
    delete_unless_in_use(class_type, _refuse_if_in_use)


def _refuse_if_in_use(class_type):
    in_use = ClassOccurrence.objects.filter(class_type=class_type).count()
    if in_use:
        raise ResourceInUse(
            f"The class type is used by {in_use} class(es); deactivate it with `isActive: false` instead.",
            {"classes": in_use},
        )
