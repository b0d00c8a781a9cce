from decimal import Decimal

import pytest

from apps.kernel import money


@pytest.mark.parametrize(("currency", "exponent"), [("JPY", 0), ("KWD", 3), ("EUR", 2), ("eur", 2), ("XYZ", 2)])
def test_currency_exponent_is_the_iso_4217_precision(currency, exponent):
    assert money.currency_exponent(currency) == exponent


@pytest.mark.parametrize(
    ("currency", "value", "rounded"),
    [
        ("JPY", "1234.5", "1235"),
        ("JPY", "1234.49", "1234"),
        ("KWD", "1.2345", "1.235"),
        ("KWD", "1.2344", "1.234"),
        ("EUR", "2.345", "2.35"),
        ("EUR", "-2.345", "-2.35"),
    ],
)
def test_rounding_is_half_up_at_the_currency_precision(currency, value, rounded):
    result = money.round_in(Decimal(value), currency)
    assert result == Decimal(rounded)
    assert str(result) == rounded


@pytest.mark.parametrize(
    ("currency", "net", "rate", "paid"),
    [
        ("EUR", "10.05", "21", "12.16"),  # 10.05 + 2.1105 -> 2.11
        ("KWD", "10.05", "21", "12.161"),  # 10.05 + 2.1105 -> 2.111 (not 12.16: three decimals)
        ("JPY", "1000.50", "10", "1101"),  # 1001 + 100.1 -> 100 (not 1100.55: no decimals)
        ("JPY", "999", "8", "1079"),  # 999 + 79.92 -> 80
        ("EUR", "20", "0", "20.00"),
    ],
)
def test_tax_inclusive_rounds_the_net_and_the_tax_at_the_currency_precision(currency, net, rate, paid):
    result = money.tax_inclusive(Decimal(net), Decimal(rate), currency)
    assert str(result) == paid


def test_tax_inclusive_of_nothing_is_nothing():
    assert money.tax_inclusive(None, Decimal("21"), "EUR") is None


@pytest.mark.parametrize(
    ("currency", "gross", "rate", "tax"),
    [
        ("EUR", "12.10", "21", "2.10"),
        ("KWD", "12.161", "21", "2.111"),
        ("JPY", "1100", "10", "100"),
        ("EUR", "12.10", "0", "0"),
        ("EUR", "0", "21", "0"),
    ],
)
def test_tax_included_in_a_gross_amount(currency, gross, rate, tax):
    assert money.tax_included(Decimal(gross), Decimal(rate), money.currency_exponent(currency)) == Decimal(tax)


@pytest.mark.parametrize(
    ("amount", "currency", "locale", "text"),
    [
        (Decimal("24.2"), "EUR", "en", "€24.20"),
        (Decimal("1234.5"), "EUR", "es", "1.234,50\xa0€"),
        (Decimal("1234.5"), "EUR", "es-ES", "1.234,50\xa0€"),
        (Decimal("1234.5"), "JPY", "en", "¥1,235"),
        (Decimal("1.2345"), "KWD", "en", "KWD1.235"),
        (Decimal("1.2345"), "KWD", "es", "1,235\xa0KWD"),
        (12.5, "GBP", "en", "£12.50"),
        (Decimal("2.345"), "EUR", "en", "€2.35"),  # half-up, where Babel alone rounds half-even
        (Decimal("7"), "EUR", "zz-unknown", "€7.00"),
    ],
)
def test_format_money_is_babel_at_the_currency_precision(amount, currency, locale, text):
    assert money.format_money(amount, currency, locale) == text


@pytest.mark.parametrize(
    ("amount", "currency", "text"),
    [
        (Decimal("1234.5"), "EUR", "1,234.50 EUR"),
        (Decimal("1234.5"), "JPY", "1,235 JPY"),
        (Decimal("1.2345"), "KWD", "1.235 KWD"),
    ],
)
def test_format_money_with_the_iso_code(amount, currency, text):
    assert money.format_money(amount, currency, "en", code=True) == text


def test_format_money_of_nothing_is_empty():
    assert money.format_money(None, "EUR") == ""


def test_a_tax_rate_is_kept_at_two_decimals_half_up():
    assert money.round_rate(Decimal("21.005")) == Decimal("21.01")
    assert str(money.round_rate(Decimal("7"))) == "7.00"
