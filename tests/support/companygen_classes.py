"""QuickBooks classes for ``tests.support.companygen`` (issue 26, docs/CLASSES.md): each line of
the history given a class (most income and expense lines, a few balance-sheet lines: a
nonprofit's fund), written where QuickBooks writes it (IIF ``SPL CLASS``; the Class column a
user adds to the Transaction Detail, General Ledger, Journal and Find exports), with its truth:
the P&L by class per fiscal year. Opt-in (``make_company(..., classes=True)``) and from its own
random source: a company made without it is exactly what it was.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict
from decimal import Decimal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.support.companygen import Company

ZERO = Decimal(0)
PNL_SHARE = 0.75  # income and expense lines with a class
FUND_SHARE = 0.1  # balance-sheet lines with a class


def add_classes(company: Company, seed: int) -> None:
    """A class (or "") for every line of every transaction: ``Txn.classes``."""
    from tests.support.companygen import BALANCE_SHEET

    rng = random.Random(seed * 9173 + 26)
    types = {a[0]: a[1] for a in company.accounts}
    names = company.classes
    for t in company.transactions:
        chosen = []
        for account, _amount, _memo, _clr in t.splits:
            share = FUND_SHARE if types[account] in BALANCE_SHEET else PNL_SHARE
            chosen.append(rng.choice(names) if rng.random() < share else "")
        t.classes = tuple(chosen)
    company.classed = True


def fiscal_year(company: Company, day: dt.date) -> dt.date:
    month, mday = company.fiscal_year_start
    start = dt.date(day.year, month, mday)
    return start if start <= day else dt.date(day.year - 1, month, mday)


def pnl_by_class(company: Company) -> dict[dt.date, dict[str, dict[str, Decimal]]]:
    """The truth: fiscal year start → income or expense account → class ("" unclassed) → its
    lines' sum (debit positive), over the exported history, voided lines (0) included."""
    from tests.support.companygen import BALANCE_SHEET

    types = {a[0]: a[1] for a in company.accounts}
    out: dict[dt.date, dict[str, dict[str, Decimal]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(Decimal))
    )
    for t in company.history:
        for i, (account, amount, _memo, _clr) in enumerate(t.splits):
            if types[account] not in BALANCE_SHEET:
                out[fiscal_year(company, t.date)][account][t.class_of(i)] += amount
    return out


def class_totals(company: Company, account: str, klass: str) -> Decimal:
    """All-time sum of ``account``'s lines of class ``klass`` exactly (its own sub-account's
    balance in ``accounts`` mode)."""
    return sum(
        (
            amount
            for t in company.history
            for i, (acc, amount, _m, _c) in enumerate(t.splits)
            if acc == account and t.class_of(i) == klass
        ),
        ZERO,
    )
