"""The profile's prices are tax-inclusive at the organization's currency precision: JPY has no decimals, KWD three.
(Court rates and class prices used to follow two different rules, the class price rounding to cents always.)"""

import datetime as dt

import pytest
from django.utils import timezone

from apps.classes.models import ClassOccurrence

from .conftest import PROFILE


@pytest.mark.parametrize(
    ("currency", "hourly_rate", "class_price"),
    [
        ("EUR", 24.19, 12.16),  # 19.99 + 4.1979 -> 4.20; 10.05 + 2.1105 -> 2.11
        ("JPY", 24, 12),  # 20 + 4.2 -> 4; 10 + 2.1 -> 2
        ("KWD", 24.188, 12.161),  # 19.990 + 4.1979 -> 4.198; 10.050 + 2.1105 -> 2.111
    ],
)
def test_profile_prices_round_at_the_currency_precision(
    public, organization, make_listed_club, currency, hourly_rate, class_price
):
    organization.currency = currency
    organization.default_tax_rate = "21.00"
    organization.save()
    club = make_listed_club("Yen Padel")
    club.areas.update(hourly_rate="19.99")
    start = (timezone.now() + dt.timedelta(days=2)).replace(microsecond=0)
    ClassOccurrence.objects.create(
        organization=organization,
        club=club,
        name="Clinic",
        start_time=start,
        end_time=start + dt.timedelta(hours=1),
        price_before_tax="10.05",
    )

    body = public.get(PROFILE.format(slug=club.slug)).json()

    assert body["currency"] == currency
    assert {court["hourlyRate"] for court in body["courts"]} == {hourly_rate}
    assert [c["price"] for c in body["upcomingClasses"]] == [class_price]
