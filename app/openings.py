"""The opening transaction: what the cutover makes (``app.cutover``: full history, balances
only) and what an archive's working book starts from (``app.archive``), one rule for each."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from app.model import Split, Transaction
from app.source import Source

OPENING_KIND = "Opening balances"  # Transaction.kind_label of the transaction made here
ZERO = Decimal(0)


def opening(day: dt.date, lines: list[Split], source: Source, notes: str) -> Transaction:
    return Transaction(
        date=day,
        splits=tuple(lines),
        source=source,
        description="Opening balances",
        notes=notes,
        kind_label=OPENING_KIND,
    )


def trial_balance_opening(
    lines: list[Split], day: dt.date, source: Source, notes: str
) -> tuple[tuple[Transaction, ...], Decimal]:
    """A trial balance (a line per account) as the one opening transaction on ``day`` (none
    when every line is zero), and what it is off by: nothing is made unless it sums to zero
    (balances-only mode; the working book of ``app.archive``)."""
    off = sum((s.value for s in lines), ZERO)
    if off:
        return (), off
    lines = [s for s in lines if s.value]
    return ((opening(day, lines, source, notes),) if lines else ()), ZERO
