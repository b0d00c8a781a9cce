"""Demo pricing rules (runs after clubs and billing): evening peak, a cheaper weekend at Valencia, an early-bird
rate at Sevilla and a members' discount, so offers and the marketplace page show prices that move with the clock."""

from apps.clubs.models import Club

from .choices import AdjustmentType, Audience
from .models import PricingRule

WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday"]

# name -> (club slug or None for every club, fields)
RULES = {
    "Evening peak": (
        None,
        {
            "days_of_week": WEEKDAYS,
            "start_minute": 18 * 60,
            "end_minute": 22 * 60,
            "adjustment_type": AdjustmentType.PERCENT,
            "value": "25.00",
            "priority": 10,
        },
    ),
    "Valencia weekend rate": (
        "valencia-playa",
        {
            "days_of_week": ["saturday", "sunday"],
            "adjustment_type": AdjustmentType.SET_HOURLY_RATE,
            "value": "18.00",
            "priority": 0,
        },
    ),
    "Sevilla early bird": (
        "sevilla-triana",
        {
            "start_minute": 8 * 60,
            "end_minute": 10 * 60,
            "adjustment_type": AdjustmentType.AMOUNT,
            "value": "-4.00",
            "priority": 5,
        },
    ),
    "Members save 20%": (
        None,
        {"audience": Audience.MEMBERS, "adjustment_type": AdjustmentType.PERCENT, "value": "-20.00", "priority": 20},
    ),
}


def seed(organization, ctx: dict) -> None:
    """Idempotent (rules are found by name). Puts `ctx["pricing_rules"]` ({name: PricingRule})."""
    clubs = {club.slug: club for club in Club.objects.filter(organization=organization)}
    rules = {}
    for name, (club_slug, fields) in RULES.items():
        if club_slug is not None and club_slug not in clubs:
            continue
        rule, _ = PricingRule.objects.get_or_create(
            organization=organization,
            name=name,
            defaults={**fields, "club": clubs.get(club_slug) if club_slug else None},
        )
        rules[name] = rule
    ctx["pricing_rules"] = rules
