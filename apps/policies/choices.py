"""Enums of booking policies and document rules (see docs/decisions/enums.md)."""

from django.db import models


class PolicyAppliesTo(models.TextChoices):
    """What a booking policy governs; each value has exactly one default policy once it has any. The labels differ
    from `apps.billing.choices.ValidForScope` (same values) so that the OpenAPI document names each enum apart."""

    AREAS = "areas", "Area bookings"
    CLASSES = "classes", "Class bookings"
    INSTRUCTORS = "instructors", "Instructor bookings"


class DocumentType(models.TextChoices):
    WAIVER = "waiver", "Waiver"
    TERMS = "terms", "Terms"
    CONTRACT = "contract", "Contract"
    POLICY = "policy", "Policy"


class DocumentRequirement(models.TextChoices):
    SIGN = "sign", "Sign"
    ACCEPT = "accept", "Accept"


class DocumentAppliesTo(models.TextChoices):
    """Who a document rule concerns."""

    ALL_CONTACTS = "all_contacts", "All contacts"
    MEMBERS = "members", "Members"
    PLANS = "plans", "Plans"
    CLASS_TYPES = "class_types", "Class types"
    EVENTS = "events", "Events"
