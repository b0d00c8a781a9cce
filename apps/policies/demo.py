"""Demo booking policies (a default per `appliesTo`) and document rules. Runs after clubs, classes and billing;
idempotent (rows found by name)."""

from .choices import DocumentAppliesTo, DocumentRequirement, DocumentType, PolicyAppliesTo
from .models import BookingPolicy, DocumentRule

POLICIES = [
    {
        "name": "Courts: standard",
        "applies_to": PolicyAppliesTo.AREAS,
        "advance_booking_days": 14,
        "min_advance_minutes": 30,
        "max_duration_minutes": 120,
        "cancellation_window_hours": 24,
        "late_cancellation_fee": "5.00",
        "max_active_bookings_per_contact": 4,
    },
    {
        "name": "Classes: standard",
        "applies_to": PolicyAppliesTo.CLASSES,
        "advance_booking_days": 7,
        "min_advance_minutes": 0,
        "cancellation_window_hours": 12,
        "late_cancellation_fee": "3.00",
        "max_active_bookings_per_contact": 10,
    },
    {
        "name": "Private lessons: standard",
        "applies_to": PolicyAppliesTo.INSTRUCTORS,
        "advance_booking_days": 30,
        "min_advance_minutes": 720,
        "max_duration_minutes": 90,
        "cancellation_window_hours": 48,
        "late_cancellation_fee": "15.00",
    },
]

RULES = [
    {
        "name": "Liability waiver",
        "document_type": DocumentType.WAIVER,
        "requirement": DocumentRequirement.SIGN,
        "applies_to": DocumentAppliesTo.ALL_CONTACTS,
        "document_url": "https://demo.example.com/documents/waiver.pdf",
        "renew_every_days": 365,
    },
    {
        "name": "Membership terms",
        "document_type": DocumentType.TERMS,
        "requirement": DocumentRequirement.ACCEPT,
        "applies_to": DocumentAppliesTo.MEMBERS,
        "document_url": "https://demo.example.com/documents/membership-terms",
    },
]


def seed(organization, ctx: dict) -> None:
    """Puts `ctx["booking_policies"]` ({appliesTo: the default policy}) and `ctx["document_rules"]`."""
    policies = {}
    for spec in POLICIES:
        fields = dict(spec)
        name, applies_to = fields.pop("name"), fields["applies_to"]
        has_default = BookingPolicy.objects.filter(
            organization=organization, applies_to=applies_to, is_default=True
        ).exclude(name=name)
        policy, _ = BookingPolicy.objects.get_or_create(
            organization=organization, name=name, defaults={**fields, "is_default": not has_default.exists()}
        )
        policies[applies_to] = policy
    rules = []
    for spec in RULES:
        fields = dict(spec)
        rule, _ = DocumentRule.objects.get_or_create(
            organization=organization, name=fields.pop("name"), defaults=fields
        )
        rules.append(rule)
    ctx["booking_policies"] = policies
    ctx["document_rules"] = rules
