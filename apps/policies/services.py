"""Writes of booking policies and document rules. No domain events: the webhook event table lists none for them.

Exactly one default booking policy per `appliesTo` once it has any policy: every write that can move a default
locks the organization row first (so two concurrent switches run one after the other) and a partial unique
constraint backs the rule in the database.
"""

from django.db import transaction

from apps.api.exceptions import Conflict, ValidationFailed
from apps.api.resources import camel_case
from apps.kernel.records import copy_name, lock_row, set_fields
from apps.organizations.models import Organization

from .choices import DocumentAppliesTo, PolicyAppliesTo
from .models import BookingPolicy, DocumentRule

# Which id list each `appliesTo` may carry; the others must be empty.
POLICY_ID_LISTS = {"area_type_ids": PolicyAppliesTo.AREAS, "class_type_ids": PolicyAppliesTo.CLASSES}
RULE_ID_LISTS = {
    "plan_ids": DocumentAppliesTo.PLANS,
    "class_type_ids": DocumentAppliesTo.CLASS_TYPES,
    "event_ids": DocumentAppliesTo.EVENTS,
}


def _check_id_lists(applies_to, ids: dict, allowed: dict):
    """Each id list belongs to one `appliesTo`: under any other it must be empty (400 naming the field)."""
    errors = {
        camel_case(field): [f"Only allowed with `appliesTo: {allowed[field]}`."]
        for field, values in ids.items()
        if values and applies_to != allowed[field]
    }
    if errors:
        raise ValidationFailed(errors)


def _split_ids(data: dict, id_lists: dict) -> tuple[dict, dict]:
    """(`data` without its id lists, the id lists it holds)."""
    data = dict(data)
    return data, {field: data.pop(field) for field in id_lists if field in data}


def _ids_of(row, fields) -> dict:
    """The stored id list of each of `fields` (`area_type_ids` is the `area_types` relation)."""
    return {
        field: list(getattr(row, field.removesuffix("_ids") + "s").values_list("id", flat=True)) for field in fields
    }


def _set_ids(row, ids: dict) -> None:
    for field, values in ids.items():
        getattr(row, field.removesuffix("_ids") + "s").set(values)


def _others(policy, applies_to):
    return BookingPolicy.objects.filter(organization_id=policy.organization_id, applies_to=applies_to).exclude(
        pk=policy.pk
    )


def _make_default(policy):
    """`policy` becomes the default of its `appliesTo`; the previous default stops being one (same transaction)."""
    _others(policy, policy.applies_to).filter(is_default=True).update(is_default=False)
    policy.is_default = True


@transaction.atomic
def create_booking_policy(organization, data: dict) -> BookingPolicy:
    data, ids = _split_ids(data, POLICY_ID_LISTS)
    _check_id_lists(data["applies_to"], ids, POLICY_ID_LISTS)
    wants_default = data.pop("is_default", False)
    lock_row(Organization, organization.pk)
    policy = BookingPolicy(organization=organization, **data)
    if wants_default or not _others(policy, policy.applies_to).exists():
        _make_default(policy)
    policy.save()
    _set_ids(policy, ids)
    return policy


@transaction.atomic
def update_booking_policy(policy: BookingPolicy, data: dict) -> BookingPolicy:
    """Partial update. The default stays exactly one per `appliesTo`: `isDefault: false` on the default, or moving
    the default to another `appliesTo` while others remain, is 409 CONFLICT (make another policy the default)."""
    lock_row(Organization, policy.organization_id)
    policy = BookingPolicy.objects.select_for_update().get(pk=policy.pk)
    data, ids = _split_ids(data, POLICY_ID_LISTS)
    wants_default = data.pop("is_default", None)
    previous_applies_to = policy.applies_to
    set_fields(policy, data)
    _check_id_lists(policy.applies_to, {**_ids_of(policy, POLICY_ID_LISTS), **ids}, POLICY_ID_LISTS)

    moved = policy.applies_to != previous_applies_to
    if policy.is_default and wants_default is False and not moved:
        raise Conflict(
            "A booking policy cannot stop being the default by itself; make another policy the default instead."
        )
    if moved and policy.is_default and _others(policy, previous_applies_to).exists():
        raise Conflict(
            f"This policy is the default for `{previous_applies_to}`; make another policy the default there first."
        )
    if moved:
        policy.is_default = False
        if wants_default or not _others(policy, policy.applies_to).exists():
            _make_default(policy)
    elif wants_default:
        _make_default(policy)
    policy.save()
    _set_ids(policy, ids)
    return policy


@transaction.atomic
def delete_booking_policy(policy: BookingPolicy) -> None:
    """The default can be deleted only as the last policy of its `appliesTo` (409 CONFLICT otherwise)."""
    lock_row(Organization, policy.organization_id)
    policy = BookingPolicy.objects.select_for_update().filter(pk=policy.pk).first()
    if policy is None:
        return
    if policy.is_default and _others(policy, policy.applies_to).exists():
        raise Conflict("The default booking policy cannot be deleted; make another policy the default first.")
    policy.delete()


@transaction.atomic
def duplicate_booking_policy(policy: BookingPolicy) -> BookingPolicy:
    """A copy with every field and id list, named "<name> (copy)", never the default."""
    ids = _ids_of(policy, POLICY_ID_LISTS)
    copy = BookingPolicy.objects.get(pk=policy.pk)
    copy.pk = None
    copy.id = None
    copy.name = copy_name(policy.name, BookingPolicy._meta.get_field("name").max_length)
    copy.is_default = False
    copy.save()
    _set_ids(copy, ids)
    return copy


@transaction.atomic
def create_document_rule(organization, data: dict) -> DocumentRule:
    data, ids = _split_ids(data, RULE_ID_LISTS)
    _check_id_lists(data["applies_to"], ids, RULE_ID_LISTS)
    rule = DocumentRule.objects.create(organization=organization, **data)
    _set_ids(rule, ids)
    return rule


@transaction.atomic
def update_document_rule(rule: DocumentRule, data: dict) -> DocumentRule:
    rule = DocumentRule.objects.select_for_update().get(pk=rule.pk)
    data, ids = _split_ids(data, RULE_ID_LISTS)
    set_fields(rule, data)
    _check_id_lists(rule.applies_to, {**_ids_of(rule, RULE_ID_LISTS), **ids}, RULE_ID_LISTS)
    rule.save()
    _set_ids(rule, ids)
    return rule
