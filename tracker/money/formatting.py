"""Currencies and locales through Babel (its CLDR and ISO 4217 data): which codes exist, how
many minor units a currency has, and an amount written the way a locale writes money.

>>> amount_format(123450, currency="EUR", locale="de_DE")
'1.234,50\\xa0€'
>>> amount_format(2000, currency="JPY", locale="ja_JP")
'￥2,000'
>>> minor_digits("USD"), minor_digits("JPY")
(2, 0)
"""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.numbers import format_currency, get_currency_precision, list_currencies

from tracker.engine.errors import Code, DomainError


@lru_cache(maxsize=1)
def _currencies() -> frozenset[str]:
    return frozenset(list_currencies())


def minor_digits(currency: str) -> int:
    """How many digits of minor units ``currency`` has (2 for USD, 0 for JPY)."""
    return get_currency_precision(currency)


def currency_check(code: object, *, field: str = "currency") -> str:
    """An ISO 4217 code Babel knows, upper-cased; else a DomainError naming ``field``."""
    text = str(code or "").strip().upper()
    if text not in _currencies():
        raise DomainError(
            f"{code!r} is not an ISO 4217 currency code (e.g. USD, EUR, GBP)",
            code=Code.INVALID_CURRENCY,
            field=field,
        )
    return text


def locale_check(name: object, *, field: str = "locale") -> str:
    """A locale identifier Babel knows (``en_US``, ``de-DE``), in Babel's spelling."""
    try:
        return str(Locale.parse(str(name or "").strip().replace("-", "_")))
    except (UnknownLocaleError, ValueError, TypeError):
        raise DomainError(
            f"{name!r} is not a known locale (e.g. en_US, en_GB, de_DE, fr_FR)",
            code=Code.INVALID_LOCALE,
            field=field,
        ) from None


def amount_format(amount: int, *, currency: str, locale: str) -> str:
    """``amount`` minor units of ``currency`` as ``locale`` writes it."""
    major = Decimal(amount).scaleb(-minor_digits(currency))
    return format_currency(major, currency, locale=locale)
