"""A class's tax-inclusive `price` is at the organization's currency precision (it was rounded to cents for every
currency): JPY has no decimals, KWD three."""

from decimal import Decimal

import pytest

from .conftest import make_occurrence


@pytest.mark.parametrize(("currency", "price"), [("EUR", 12.16), ("JPY", 12), ("KWD", 12.161)])
def test_class_price_rounds_at_the_currency_precision(api, organization, club, currency, price):
    organization.currency = currency
    organization.default_tax_rate = Decimal("21.00")
    organization.save()
    occurrence = make_occurrence(organization, club, price_before_tax=Decimal("10.05"))  # + 2.1105 tax

    body = api.get(f"/v1/platform/classes/{occurrence.id}").json()

    assert body["priceBeforeTax"] == 10.05
    assert body["price"] == price
