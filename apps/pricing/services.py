"""Pricing rules: writes (one transaction each, the rule row locked on update) and the quote of a booking.

The rules of a rule are checked on the merged state, so a PATCH that changes only `endTime` or only `audience` is
checked against the stored rest. Pricing rules record no domain events: the webhook catalogue has none for them.
"""

import datetime as dt
from decimal import Decimal

from django.db import transaction
from django.db.models import Q

from apps.api.exceptions import ValidationFailed
from apps.api.validation import ensure_ends_after_start
from apps.clubs.models import Area
from apps.kernel import clock, money
from apps.kernel.records import set_fields
from apps.memberships.choices import MembershipStatus
from apps.memberships.models import Membership

from . import quote as pricing
from .choices import AdjustmentType, Audience
from .models import PricingRule

MAX_QUOTE_DAYS = 7
MAX_STORED_PRICE = Decimal("99999999.99")  # a booking's price column: 10 digits, 2 decimals


def _check(rule: PricingRule) -> None:
    """The rules that tie fields together, on the rule as it will be stored."""
    errors = {}
    if (rule.start_minute is None) != (rule.end_minute is None):
        missing = "endTime" if rule.end_minute is None else "startTime"
        errors[missing] = ["`startTime` and `endTime` go together: give both, or neither for the whole day."]
    elif rule.start_minute is not None and rule.end_minute <= rule.start_minute:
        errors["endTime"] = ["Must be after `startTime` (a band across midnight is two rules)."]
    if rule.valid_from and rule.valid_until and rule.valid_until < rule.valid_from:
        errors["validUntil"] = ["Must not be before `validFrom`."]
    if rule.audience == Audience.NON_MEMBERS and rule.plan_ids:
        errors["planIds"] = ["Must be empty when `audience` is `non_members`."]
    if rule.club_id and rule.area_ids:
        foreign = sorted(
            set(rule.area_ids)
            - set(Area.objects.filter(id__in=rule.area_ids, club_id=rule.club_id).values_list("id", flat=True))
        )
        if foreign:
            errors["areaIds"] = [f"Area {', '.join(map(str, foreign))} is not in club {rule.club_id}."]
    value = Decimal(rule.value)
    if rule.adjustment_type == AdjustmentType.SET_HOURLY_RATE and value < 0:
        errors["value"] = ["An hourly rate must be at least 0."]
    elif rule.adjustment_type == AdjustmentType.PERCENT and not Decimal(-100) <= value <= Decimal(1000):
        errors["value"] = ["A percent must be between -100 and 1000."]
    if errors:
        raise ValidationFailed(errors)


def create_pricing_rule(organization, data: dict) -> PricingRule:
    rule = PricingRule(organization=organization, **data)
    _check(rule)
    with transaction.atomic():
        rule.save()
    return rule


def update_pricing_rule(rule: PricingRule, data: dict) -> PricingRule:
    with transaction.atomic():
        rule = PricingRule.objects.select_for_update().get(pk=rule.pk)
        set_fields(rule, data)
        _check(rule)
        rule.save()
    return rule


# --- the quote ------------------------------------------------------------------------------------------------


def member_plan_ids(organization, contact, on: dt.date) -> frozenset[int]:
    """Plans of the contact's memberships that are active on `on` (status active, the day within its dates)."""
    if contact is None:
        return frozenset()
    rows = Membership.objects.filter(
        Q(end_date__isnull=True) | Q(end_date__gte=on),
        organization=organization,
        contact=contact,
        status=MembershipStatus.ACTIVE,
        start_date__lte=on,
    ).values_list("plan_id", flat=True)
    return frozenset(rows)


def active_rules(organization, club_id: int) -> list[dict]:
    """The rule rows that can price a booking at `club_id` (two clubs never share a rule)."""
    return list(
        PricingRule.objects.filter(
            Q(club_id__isnull=True) | Q(club_id=club_id), organization=organization, is_active=True
        ).values(*pricing.RULE_COLUMNS)
    )


def default_sport(area) -> str | None:
    """The sport of a booking that names none: the area's only sport, else unknown."""
    return area.sports[0] if len(area.sports or []) == 1 else None


def check_quote_window(start_time, end_time) -> None:
    """A quote's window: `endTime` after `startTime`, at most `MAX_QUOTE_DAYS` later (400 on `endTime`)."""
    ensure_ends_after_start(start_time, end_time)
    if end_time - start_time > dt.timedelta(days=MAX_QUOTE_DAYS):
        raise ValidationFailed({"endTime": [f"A quote covers at most {MAX_QUOTE_DAYS} days."]})


def quote_booking(organization, area, start_time, end_time, *, contact=None, sport=None) -> pricing.Quote:
    """The price of booking `area` (with its club) over `[start_time, end_time)` for `contact` (None: a
    non-member); two queries, the rules and the contact's memberships."""
    timezone = area.club.timezone or "UTC"
    on = clock.local_date(start_time, timezone)
    return pricing.quote(
        active_rules(organization, area.club_id),
        area=pricing.AreaFacts(
            id=area.id, club_id=area.club_id, area_type_id=area.area_type_id, hourly_rate=area.hourly_rate
        ),
        start=start_time,
        end=end_time,
        timezone=timezone,
        sport=sport if sport is not None else default_sport(area),
        member_plan_ids=member_plan_ids(organization, contact, on),
        tax_rate=organization.default_tax_rate,
        exponent=money.currency_exponent(organization.currency),
    )


def area_booking_price(organization, area, start_time, end_time, *, contact=None, sport=None) -> Decimal:
    """`priceBeforeTax` of a new area booking that names none: the quote's, at the cents the booking column
    stores (a three-decimal currency is rounded half-up once more, to cents)."""
    quoted = quote_booking(organization, area, start_time, end_time, contact=contact, sport=sport)
    price = money.round_money(quoted.price_before_tax, 2)
    if price > MAX_STORED_PRICE:
        raise ValidationFailed(
            {"priceBeforeTax": [f"The quoted price {price} is above {MAX_STORED_PRICE}: give `priceBeforeTax`."]}
        )
    return price
