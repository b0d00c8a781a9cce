"""Money: amounts are `Decimal`s in a currency with its own precision (ISO 4217 minor units from Babel's CLDR
data: JPY 0 decimals, KWD 3, EUR 2), rounded half-up at that precision, and shown as text by Babel.

Stored prices are before tax; the price a customer pays is `tax_inclusive(price_before_tax, rate, currency)`:
the net amount rounded at the currency's precision plus the tax on it, rounded the same way (the quote's rule,
docs/decisions/pricing.md). `tax_included(gross, ...)` is the other direction: the tax inside an amount that
already includes it.
"""

import functools
from decimal import ROUND_HALF_UP, Decimal

from babel import Locale, UnknownLocaleError
from babel.numbers import format_currency, get_currency_precision

ZERO = Decimal(0)
HUNDRED = Decimal(100)
DEFAULT_LOCALE = "en"
CODE_PATTERN = "#,##0.00 ¤¤"  # the decimals follow the currency (currency_digits)


@functools.cache
def currency_exponent(currency: str) -> int:
    """Digits after the decimal point of `currency` (JPY 0, KWD 3, EUR 2; an unknown code 2)."""
    return get_currency_precision((currency or "").upper())


def round_money(value, exponent: int) -> Decimal:
    """`value` rounded half-up to `exponent` digits after the point."""
    return Decimal(value).quantize(Decimal(1).scaleb(-exponent), rounding=ROUND_HALF_UP)


def round_in(value, currency: str) -> Decimal:
    """`value` rounded half-up at `currency`'s precision."""
    return round_money(value, currency_exponent(currency))


def round_rate(rate) -> Decimal:
    """A tax rate (percent) at the two decimals it is stored with."""
    return round_money(rate, 2)


def tax_on(net, rate, exponent: int) -> Decimal:
    """The tax on a net amount at `rate` percent, rounded half-up to `exponent` digits."""
    return round_money(Decimal(net) * Decimal(rate or 0) / HUNDRED, exponent)


def tax_inclusive(net, rate, currency: str) -> Decimal | None:
    """What a customer pays for a stored before-tax amount: the net at the currency's precision plus the tax on
    it at `rate` percent (None stays None)."""
    if net is None:
        return None
    exponent = currency_exponent(currency)
    net = round_money(net, exponent)
    return net + tax_on(net, rate, exponent)


def tax_included(gross, rate, exponent: int) -> Decimal:
    """The tax inside `gross`, an amount that includes tax at `rate` percent (0 for a free or negative amount)."""
    gross, rate = Decimal(gross), Decimal(rate or 0)
    if gross <= 0 or rate <= 0:
        return ZERO
    return gross - round_money(gross * HUNDRED / (HUNDRED + rate), exponent)


@functools.cache
def _locale(name: str | None) -> Locale:
    try:
        return Locale.parse((name or DEFAULT_LOCALE).replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return Locale.parse(DEFAULT_LOCALE)


def format_money(amount, currency: str, locale: str | None = DEFAULT_LOCALE, *, code: bool = False) -> str:
    """`amount` as text in `locale` (`en`: `€24.20`, `¥1,235`, `KWD1.235`; `es`: `24,20 €`), rounded half-up at
    the currency's precision; an empty string for None. `locale` may be `es`, `es-ES` or `es_ES`; an unknown one
    is English. `code=True` writes the ISO code after the number instead of a symbol (`1,234.50 EUR`)."""
    if amount is None:
        return ""
    currency = (currency or "").upper()
    value = round_in(Decimal(str(amount)) if isinstance(amount, float) else amount, currency)
    pattern = CODE_PATTERN if code else None
    return format_currency(value, currency, pattern, locale=_locale(locale), currency_digits=True)
