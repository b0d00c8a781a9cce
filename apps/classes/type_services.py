"""Domain operations on class types: the REST views, MCP tools and demo data all go through these."""

from django.db import transaction

from apps.api.exceptions import ApiError, DuplicateValue

from .models import ClassOccurrence, ClassType


def _check_slug_free(organization, slug, exclude_id=None):
    if not slug:
        return
    taken = ClassType.objects.filter(organization=organization, slug=slug)
    if exclude_id is not None:
        taken = taken.exclude(pk=exclude_id)
    existing_id = taken.values_list("id", flat=True).first()
    if existing_id is not None:
        raise DuplicateValue("slug", existing_id)


@transaction.atomic
def create_class_type(organization, data: dict) -> ClassType:
    """`data` holds model field names (validated input)."""
    _check_slug_free(organization, data.get("slug"))
    return ClassType.objects.create(organization=organization, **data)


@transaction.atomic
def update_class_type(class_type: ClassType, data: dict) -> ClassType:
    """Partial update. A class's `maxPartySize` is read from its type, so a change here applies to its classes."""
    if "slug" in data:
        _check_slug_free(class_type.organization_id, data["slug"], exclude_id=class_type.pk)
    for name, value in data.items():
        setattr(class_type, name, value)
    class_type.save()
    return class_type


@transaction.atomic
def delete_class_type(class_type: ClassType) -> None:
    """Refused with 409 RESOURCE_IN_USE while any class occurrence (whatever its status) references the type."""
    in_use = ClassOccurrence.objects.filter(class_type=class_type).count()
    if in_use:
        raise ApiError(
            f"The class type is used by {in_use} class(es); deactivate it with `isActive: false` instead.",
            code="RESOURCE_IN_USE",
            status=409,
            details={"references": {"classes": in_use}},
        )
    class_type.delete()
