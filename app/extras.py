"""What QuickBooks keeps beside the ledger's balances, in GnuCash's words: budgets, the trial
balances of earlier dates (year ends), the last reconciliation of each bank and card account, and
the memorized transactions (frozen dataclasses, each with its file and line; ``Ledger`` holds
them), with the pure functions that group and rename them. Issue 26.

- ``BudgetLine``: one IIF ``BUD`` row: an account's twelve monthly amounts of one QuickBooks
  budget, in IIF's sign (debit positive, credit negative, as every IIF amount [inferred for BUD:
  the kit does not say]). ``budgets`` groups them into ``Budget``s, one per QuickBooks budget
  and fiscal year: (start date, class, customer).
- ``YearEnd``: QuickBooks' trial balance on one date (a Trial Balance report other than the one
  whose figures the book is checked against on the export date), per chart account.
- ``Statement``: QuickBooks' last reconciliation of an account (its Reconciliation Summary): the
  statement date and the ending (cleared) balance, in the book's sign (debit positive).
- ``Memorized``: a memorized transaction of QuickBooks' list, and (``template``) the lines of
  the GnuCash scheduled transaction made from it once they are known.

Accounts are chart full names once the files are merged (``app.readers``) and final GnuCash
names once the plan is applied (``renamed``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal

from app.source import Source

ZERO = Decimal(0)
MONTHS = 12


@dataclass(frozen=True, slots=True)
class BudgetLine:
    account: str
    start: dt.date  # the first day of the budget's first month (its fiscal year's start)
    amounts: tuple[Decimal, ...]  # one per month from ``start``
    source: Source
    klass: str = ""  # QuickBooks class (CLASS), "" for none
    customer: str = ""  # customer or Customer:Job (CUSTOMER), "" for none

    @property
    def key(self) -> tuple[dt.date, str, str]:
        return (self.start, self.klass, self.customer)


@dataclass(frozen=True, slots=True)
class Budget:
    """One GnuCash budget: monthly periods from ``start``, amounts per account and period."""

    name: str
    start: dt.date
    periods: int
    lines: tuple[tuple[str, tuple[Decimal, ...]], ...]  # (account, amount per period)
    source: Source  # its first row
    klass: str = ""
    customer: str = ""

    @property
    def description(self) -> str:
        return f"QuickBooks budget for the fiscal year from {self.start} (imported by qb2gnucash)"


@dataclass(frozen=True, slots=True)
class YearEnd:
    date: dt.date
    figures: tuple[tuple[str, Decimal], ...]  # account → QuickBooks' figure (debit positive)
    source: Source  # where the report says its date
    filename: str = ""

    def figure(self, account: str) -> Decimal:
        return next((v for a, v in self.figures if a == account), ZERO)


@dataclass(frozen=True, slots=True)
class Statement:
    account: str
    date: dt.date
    balance: Decimal  # the statement's ending balance = QuickBooks' cleared balance, book sign
    source: Source
    uncleared: int | None = None  # transactions up to ``date`` left uncleared (None: not said)
    label: str = ""  # the account as the report names it
    # decided by ``app.statements.decided``: "marks" (the files' cleared marks prove it), "all"
    # (every line up to ``date`` was cleared: marked so), "" (not set: ``why``)
    how: str = ""
    why: str = ""
    reconciled: Decimal = ZERO  # the book's reconciled balance as the ledger will hold it


@dataclass(frozen=True, slots=True)
class Memorized:
    name: str
    source: Source
    kind: str = ""  # QuickBooks' transaction type ("Check", "Bill", "Deposit"...)
    account: str = ""  # the source account (chart full name once merged), "" when unknown
    amount: Decimal | None = None  # as the list shows it (unsigned)
    frequency: str = ""  # QuickBooks' words ("Monthly", "Every two weeks", "Never")
    next_date: dt.date | None = None
    remaining: int | None = None  # occurrences left (None: no limit, or not said)
    payee: str = ""
    # once known (``app.schedules``): the scheduled transaction's lines (account, value: debit
    # positive), or why it cannot be one
    template: tuple[tuple[str, Decimal], ...] = ()
    why: str = ""


def budget_name(start: dt.date, klass: str = "", customer: str = "") -> str:
    """ "Budget FY2023", "Budget FY2023-24" (a year not starting in January), then the class or
    customer it is for: "Budget FY2023 (class East Store)"."""
    end = _add_months(start, MONTHS) - dt.timedelta(days=1)
    year = f"FY{start.year}" if end.year == start.year else f"FY{start.year}-{end.year % 100:02d}"
    for_whom = [f"class {klass}"] * bool(klass) + [f"customer {customer}"] * bool(customer)
    return f"Budget {year}" + (f" ({', '.join(for_whom)})" if for_whom else "")


def _add_months(day: dt.date, months: int) -> dt.date:
    month = day.month - 1 + months
    return dt.date(day.year + month // 12, month % 12 + 1, 1)


def period_start(start: dt.date, period: int) -> dt.date:
    """The first day of the budget's ``period`` (0-based) month."""
    return _add_months(start, period)


def budgets(lines: Iterable[BudgetLine]) -> tuple[Budget, ...]:
    """The lines grouped into budgets (in the order first seen), amounts of one account added
    (several QuickBooks accounts merged into one)."""
    grouped: dict[tuple[dt.date, str, str], dict[str, list[Decimal]]] = {}
    first: dict[tuple[dt.date, str, str], Source] = {}
    for line in lines:
        per = grouped.setdefault(line.key, {})
        first.setdefault(line.key, line.source)
        sums = per.setdefault(line.account, [ZERO] * MONTHS)
        for i, v in enumerate(line.amounts[:MONTHS]):
            sums[i] += v
    return tuple(
        Budget(
            budget_name(*key),
            key[0],
            MONTHS,
            tuple((a, tuple(v)) for a, v in per.items()),
            first[key],
            key[1],
            key[2],
        )
        for key, per in grouped.items()
    )


def _name(names: Mapping[str, str], account: str) -> str:
    return names.get(account, account)


def renamed_budget_lines(
    lines: tuple[BudgetLine, ...], names: Mapping[str, str]
) -> tuple[BudgetLine, ...]:
    return tuple(replace(b, account=_name(names, b.account)) for b in lines)


def renamed_year_ends(ends: tuple[YearEnd, ...], names: Mapping[str, str]) -> tuple[YearEnd, ...]:
    """Each year end's figures under the final names, merged accounts' figures added."""
    out = []
    for y in ends:
        sums: dict[str, Decimal] = {}
        for account, value in y.figures:
            final = _name(names, account)
            sums[final] = sums.get(final, ZERO) + value
        out.append(replace(y, figures=tuple(sums.items())))
    return tuple(out)


def renamed_statements(
    statements: tuple[Statement, ...], names: Mapping[str, str]
) -> tuple[Statement, ...]:
    return tuple(replace(s, account=_name(names, s.account)) for s in statements)


def renamed_memorized(
    memorized: tuple[Memorized, ...], names: Mapping[str, str]
) -> tuple[Memorized, ...]:
    return tuple(
        replace(
            m,
            account=_name(names, m.account) if m.account else "",
            template=tuple((_name(names, a), v) for a, v in m.template),
        )
        for m in memorized
    )
