"""Decimal ↔ gnc_numeric at the currency's unit.

A book's amounts are numerators over the currency's smallest unit (1/100 for USD, 1 for JPY):
``at_unit`` refuses an amount finer than that unit instead of rounding it, and ``to_decimal``
keeps the unit's places on the way back (-900.00, not -900), so a read-back compares equal to
what was written.
"""

from __future__ import annotations

from decimal import Decimal

from app.errors import BookWriteError
from app.gnc.bindings import C, GncNumeric


def places_of(currency, code: str) -> int:
    """Decimal places of a GnuCash currency's unit (2 for 1/100); BookWriteError for a unit
    that is not a power of ten."""
    fraction = currency.get_fraction()
    places = len(str(fraction)) - 1
    if 10**places != fraction:
        raise BookWriteError(f"currency {code} has a non-decimal unit 1/{fraction}")
    return places


def at_unit(value: Decimal, places: int, where: object) -> tuple[int, int]:
    """``value`` as (numerator, 10**places); BookWriteError when it is finer than the unit."""
    scaled = value.scaleb(places)
    if scaled != scaled.to_integral_value():
        raise BookWriteError(
            f"{where}: amount {value} is finer than the currency's smallest unit (1/{10**places})"
        )
    return int(scaled), 10**places


def exact(value: Decimal) -> tuple[int, int]:
    """A Decimal as an exact (numerator, power-of-ten denominator)."""
    exp = -value.as_tuple().exponent if value.as_tuple().exponent < 0 else 0  # type: ignore[operator]
    return int(value.scaleb(exp)), 10**exp


def to_decimal(n) -> Decimal:
    """A GncNumeric or raw gnc_numeric as Decimal (exact for power-of-ten denominators)."""
    if isinstance(n, GncNumeric):
        num, den = n.num(), n.denom()
    else:
        num, den = C.gnc_numeric_num(n), C.gnc_numeric_denom(n)
    return from_parts(num, den)


def from_parts(num: int, den: int) -> Decimal:
    """num/den as Decimal: exact (keeping the cents) for power-of-ten denominators."""
    places = len(str(den)) - 1
    if den > 0 and 10**places == den:
        return Decimal(num).scaleb(-places)  # keeps the cents: -900.00, not -900
    return Decimal(num) / Decimal(den)
