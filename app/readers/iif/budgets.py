"""IIF ``BUD`` rows → ``BudgetLine`` (app/extras.py).

QuickBooks' export (Intuit's IIF reference, "Budgets (BUD)"): ``ACCNT PERIOD AMOUNT×12 STARTDATE
CLASS CUSTOMER``, the twelve AMOUNT columns sharing one name; PERIOD is always ``MONTH``
(QuickBooks budgets are monthly and cover one fiscal year from STARTDATE). Amounts keep IIF's
sign (debit positive, credit negative) [inferred: the reference does not say; OBAMOUNT and
TRNS/SPL amounts are signed so]. Empty cells are 0. A row that cannot be a budget line (no
account, another period, no or a bad start date, more than twelve amounts, an amount that is
not one) is an error at its line: no book is written until the file is exported again.
"""

from __future__ import annotations

from decimal import Decimal

from app.extras import MONTHS, BudgetLine
from app.quickbooks import MENU_LISTS
from app.readers.iif.rows import Reading, Row
from app.readers.private import quoted
from app.readers.values import parse_amount, parse_date

AGAIN = f"export the budgets again ({MENU_LISTS})"


def budget_line(reading: Reading, row: Row) -> BudgetLine | None:
    """The row as a budget line, or None (the error said at its line)."""
    where = row.source
    account = ":".join(p.strip() for p in row.get("ACCNT").split(":"))
    if not account:
        reading.error(where, f"a budget row (BUD) without its account (ACCNT); {AGAIN}")
        return None
    period = row.get("PERIOD").upper()
    if period not in ("", "MONTH"):
        reading.error(
            where,
            f"budget of {quoted(account)}: PERIOD {quoted(row.get('PERIOD'))}, where "
            f"QuickBooks budgets are monthly (MONTH); {AGAIN}",
        )
        return None
    cells = row.all("AMOUNT")
    if len(cells) > MONTHS:
        reading.error(
            where, f"budget of {quoted(account)}: {len(cells)} AMOUNT columns, at most 12; {AGAIN}"
        )
        return None
    amounts: list[Decimal] = []
    for i, cell in enumerate(cells, 1):
        try:
            amounts.append(parse_amount(cell) or Decimal(0))
        except ValueError as exc:
            reading.error(where, f"budget of {quoted(account)}, month {i}: {exc}; {AGAIN}")
            return None
    text = row.get("STARTDATE")
    try:
        start = parse_date(text, reading.options.date_order or "mdy", reading.options.pivot)
    except ValueError:
        start = None
    if start is None:
        what = f"start date {quoted(text)} is not a date" if text else "no start date (STARTDATE)"
        reading.error(where, f"budget of {quoted(account)}: {what}; {AGAIN}")
        return None
    amounts += [Decimal(0)] * (MONTHS - len(amounts))
    return BudgetLine(
        account,
        start,
        tuple(amounts),
        where,
        ":".join(p.strip() for p in row.get("CLASS").split(":") if p.strip()),
        ":".join(p.strip() for p in row.get("CUSTOMER").split(":") if p.strip()),
    )
