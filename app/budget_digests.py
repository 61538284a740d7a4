"""A budget as a digest: its start, periods and every account's amount per period, the same for
QuickBooks' (``extras.Budget``) and the book's read back (``BookBudget``): the run record keeps
one per budget it leaves in the book (``app.update_budgets``). Pure."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal

from app import keys as k
from app.book import BookBudget
from app.extras import Budget


def digest(
    start: dt.date | None, periods: int, rows: Iterable[tuple[str, Sequence[Decimal]]]
) -> str:
    """A budget's start, periods and each account's amounts (rows all zero left out)."""
    pad = (Decimal(0),) * periods
    lines = sorted(
        f"{account}\x1e" + ",".join(k.canon(v) for v in (*amounts, *pad)[:periods])
        for account, amounts in rows
        if any(amounts)
    )
    return k.hashed((start.isoformat() if start else "", str(periods), *lines))


def of_export(b: Budget, after: Mapping[str, str] | None = None) -> str:
    """``b``'s digest, its accounts named by ``after`` (the keys' names after the run)."""
    lines = [(k.by_prefix(a, after or {}), v) for a, v in b.lines]
    return digest(b.start, b.periods, lines)


def of_book(b: BookBudget) -> str:
    return digest(b.start, b.periods, b.values)
