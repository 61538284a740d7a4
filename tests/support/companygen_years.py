"""Issue 26 for ``tests.support.companygen``: budgets (an IIF ``BUD`` section), QuickBooks' Trial
Balance at any date (year ends, with QuickBooks' year-end close), the Reconciliation Summary of a
bank or card account, and memorized transactions (recurring ones added to the history, and the
Memorized Transaction List export), each with its truth. All opt-in and from their own random
sources: a company made without them is exactly what it was.

Layouts written as QuickBooks writes them (FORMATS.md, the real sample's ``!BUD`` rows): BUD
amounts signed like every IIF amount (income negative), empty months as empty cells, ISO start
dates; the Reconciliation Summary with its labels in leading columns and amounts in the last
(a card's balances owed positive); the Memorized Transaction List with its window's columns.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.support.companygen import Company, Txn

ZERO = Decimal(0)
MONTHS = 12


@dataclass(frozen=True, slots=True)
class BudgetTruth:
    start: dt.date
    klass: str
    customer: str
    account: str
    amounts: tuple[Decimal, ...]  # 12, IIF sign (income negative)


@dataclass(frozen=True, slots=True)
class MemorizedTruth:
    """A row of the Memorized Transaction List, and the scheduled transaction it must become
    (``lines``: account → value debit positive; None: listed as not imported)."""

    name: str
    kind: str
    account: str
    amount: Decimal | None
    frequency: str
    auto: bool
    next_date: dt.date | None
    remaining: int | None
    lines: dict[str, Decimal] | None
    periods: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class StatementTruth:
    account: str
    date: dt.date
    balance: Decimal  # the book's sign (debit positive)
    uncleared: int
    cleared_this_period: list[Decimal]
    uncleared_amounts: list[Decimal]
    register: Decimal
    new: list[Decimal]


def _money(rng: random.Random, low: int, high: int) -> Decimal:
    return Decimal(rng.randint(low * 100, high * 100)).scaleb(-2)


def make_budgets(company: Company, seed: int) -> list[BudgetTruth]:
    """Budgets for the fiscal years the history covers (the first and the last two), one of
    them also by class and one by customer, as QuickBooks keeps them."""
    rng = random.Random(seed * 104729 + 26)
    month, day = company.fiscal_year_start
    first, last = company.transactions[0].date, company.transactions[-1].date
    starts = [
        s
        for s in (dt.date(y, month, day) for y in range(first.year - 1, last.year + 1))
        if s <= last and dt.date(s.year + 1, month, day) > first
    ]
    income = ["Design Income", "Landscaping Services:Labor", "Retail Sales"]
    expense = ["Rent", "Advertising", "Utilities:Gas", "Office Supplies", "Insurance:Work Comp"]
    out: list[BudgetTruth] = []
    for i, start in enumerate(starts[:1] + starts[-2:] if len(starts) > 2 else starts):
        for account in income + expense:
            sign = -1 if account in income else 1
            amounts = tuple(
                sign * _money(rng, 50, 9000) if rng.random() < 0.85 else ZERO for _ in range(12)
            )
            out.append(BudgetTruth(start, "", "", account, amounts))
        if i == 0:
            for account in ("Design Income", "Advertising"):
                sign = -1 if account in income else 1
                amounts = tuple(sign * _money(rng, 10, 900) for _ in range(12))
                out.append(BudgetTruth(start, "Design", "", account, amounts))
            amounts = tuple(-_money(rng, 100, 2000) if m % 3 == 0 else ZERO for m in range(12))
            job = "Cook, Brian:Kitchen"
            out.append(BudgetTruth(start, "", job, "Landscaping Services", amounts))
    return out


def bud_section(company: Company) -> list[list[str]]:
    """The IIF rows of the company's budgets."""
    rows = [["!BUD", "ACCNT", "PERIOD", *["AMOUNT"] * 12, "STARTDATE", "CLASS", "CUSTOMER"]]
    for b in company.budgets:
        cells = [f"{v:,.2f}" if v else "" for v in b.amounts]
        rows.append(["BUD", b.account, "MONTH", *cells, b.start.isoformat(), b.klass, b.customer])
    return rows


def year_ends(company: Company) -> list[dt.date]:
    """Every fiscal year end between the first transaction and the export date (excluded)."""
    month, day = company.fiscal_year_start
    first, export = company.transactions[0].date, company.export_date
    out = []
    for year in range(first.year, export.year + 2):
        end = dt.date(year, month, day) - dt.timedelta(days=1)
        if first <= end < export:
            out.append(end)
    return out


def trial_balance(
    company: Company, as_of: dt.date, year_of: dt.date | None = None
) -> dict[str, Decimal]:
    """QuickBooks' Trial Balance as of ``as_of``: balance-sheet accounts all time, income and
    expense for the fiscal year holding ``as_of`` (``year_of``), every earlier year's result in
    Retained Earnings. Sums to 0."""
    from tests.support.companygen import BALANCE_SHEET

    types = {a[0]: a[1] for a in company.accounts}
    month, day = company.fiscal_year_start
    held = year_of or as_of
    begin = dt.date(held.year, month, day)
    if begin > held:
        begin = dt.date(held.year - 1, month, day)
    out = dict.fromkeys(types, ZERO)
    earlier = ZERO
    retained = next(a[0] for a in company.accounts if a[3] == "RETEARNINGS")
    for t in company.transactions:
        if t.date > as_of:
            continue
        for account, amount, _memo, _clr in t.splits:
            if types[account] in BALANCE_SHEET or t.date >= begin:
                out[account] += amount
            else:
                earlier += amount
    out[retained] += earlier
    return out


def closed(company: Company, day: dt.date) -> dict[str, Decimal]:
    """The books closed before ``day``: each account's figure on the day before, as a working
    book starting on ``day`` opens with it (``app.archive``): the year holding ``day`` counts
    income and expense, every earlier year's result is in Retained Earnings. Sums to 0."""
    return trial_balance(company, day - dt.timedelta(days=1), year_of=day)


def _lines(company: Company, account: str) -> list[tuple[Txn, Decimal, str]]:
    return [
        (t, amount, clr)
        for t in company.history
        for acc, amount, _memo, clr in t.splits
        if acc == account
    ]


def statement(company: Company, account: str, *, all_cleared: bool = False) -> StatementTruth:
    """The account's last reconciliation as QuickBooks would report it: the latest day with a
    reconciled (✓) line, every ✓ line in its cleared balance (``all_cleared``: the latest day
    up to which every line is ✓, for a history without marks)."""
    lines = sorted(_lines(company, account), key=lambda x: x[0].date)
    if all_cleared:
        first_open = next((t.date for t, _v, clr in lines if clr != "✓"), None)
        day = max(t.date for t, _v, _c in lines if first_open is None or t.date < first_open)
    else:
        day = max(t.date for t, _v, clr in lines if clr == "✓")
    cleared = [v for t, v, clr in lines if clr == "✓" and (not all_cleared or t.date <= day)]
    recent = day - dt.timedelta(days=30)
    this = [v for t, v, clr in lines if clr == "✓" and recent < t.date <= day]
    if all_cleared:
        this = [v for t, v, _c in lines if recent < t.date <= day]
    open_ = [v for t, v, clr in lines if t.date <= day and clr != "✓"]
    return StatementTruth(
        account,
        day,
        sum(cleared, ZERO),
        len(open_),
        this,
        open_,
        sum((v for t, v, _c in lines if t.date <= day), ZERO),
        [v for t, v, _c in lines if t.date > day],
    )


def write_reconciliation_csv(company: Company, path: Path, truths: list[StatementTruth]) -> Path:
    """Reports > Banking > Previous Reconciliation (Summary) exported to CSV, one report per
    account in one file."""
    from tests.support.companygen_write import _write_csv

    labels = company.labels()
    owed = {a[0] for a in company.accounts if a[1] in ("CCARD", "OCLIAB", "LTLIAB", "AP")}
    rows: list[list[str]] = []
    for s in truths:
        sign = -1 if s.account in owed else 1
        minus, plus = (
            ("Payments and Credits", "Charges and Cash Advances")
            if s.account in owed
            else ("Checks and Payments", "Deposits and Credits")
        )

        def amt(v: Decimal, sign: int = sign) -> str:
            return f"{sign * v:,.2f}"

        def items(
            values: list[Decimal], sign: int = sign, minus: str = minus, plus: str = plus
        ) -> list[tuple[str, Decimal]]:
            out_ = [sign * v for v in values if v]
            neg, pos = [v for v in out_ if v < 0], [v for v in out_ if v > 0]
            found = []
            if neg:
                found.append((f"{minus} - {len(neg)} item{'s' * (len(neg) != 1)}", sum(neg)))
            if pos:
                found.append((f"{plus} - {len(pos)} item{'s' * (len(pos) != 1)}", sum(pos)))
            return found

        title = f"{labels[s.account]}, Period Ending {s.date:%m/%d/%Y}"
        rows += [
            ["", "", "", company.name, ""],
            ["", "", "", "Reconciliation Summary", ""],
            ["", "", "", title, ""],
            ["", "", "", "", f"{s.date:%b} {s.date.day}, {s.date:%y}"],
        ]
        begin = s.balance - sum(s.cleared_this_period, ZERO)
        rows.append(["Beginning Balance", "", "", "", amt(begin)])
        rows.append(["", "Cleared Transactions", "", "", ""])
        for label, v in items(s.cleared_this_period):
            rows.append(["", "", label, "", f"{v:,.2f}"])
        cleared = amt(sum(s.cleared_this_period, ZERO))
        rows.append(["", "Total Cleared Transactions", "", "", cleared])
        rows.append(["Cleared Balance", "", "", "", amt(s.balance)])
        if s.uncleared_amounts:
            rows.append(["", "Uncleared Transactions", "", "", ""])
            for label, v in items(s.uncleared_amounts):
                rows.append(["", "", label, "", f"{v:,.2f}"])
            # zero-amount lines (a voided check) count among the items QuickBooks lists
            zeros = sum(1 for v in s.uncleared_amounts if not v)
            if zeros:
                rows.append(["", "", f"{minus} - {zeros} item{'s' * (zeros != 1)}", "", "0.00"])
            total = sum(s.uncleared_amounts, ZERO)
            rows.append(["", "Total Uncleared Transactions", "", "", amt(total)])
        rows.append([f"Register Balance as of {s.date:%m/%d/%Y}", "", "", "", amt(s.register)])
        if s.new:
            rows.append(["", "New Transactions", "", "", ""])
            for label, v in items(s.new):
                rows.append(["", "", label, "", f"{v:,.2f}"])
            rows.append(["", "Total New Transactions", "", "", amt(sum(s.new, ZERO))])
        rows.append(["Ending Balance", "", "", "", amt(s.register + sum(s.new, ZERO))])
        rows.append(["", "", "", "", ""])
    return _write_csv(path, rows, "utf-8")


RENT = ("Monthly rent", "Hopkins Construction Rentals", Decimal("1850.00"), 1)
LOAN = ("Loan payment", "Bank of Anycity", Decimal("485.00"), 15)


def add_recurring(txns: list[Txn], seed: int) -> list[MemorizedTruth]:
    """Checks made from two memorized transactions (monthly rent, a monthly loan payment)
    added to ``txns`` (sorted again by date), and the Memorized Transaction List's truth."""
    from tests.support.companygen import Txn

    rng = random.Random(seed * 7727 + 26)
    first, last = txns[0].date, txns[-1].date
    recent = last - dt.timedelta(days=45)
    no = max(t.trans_no for t in txns)
    made = []
    for name, vendor, amount, day in (RENT, LOAN):
        month = dt.date(first.year, first.month, day)
        while month <= last:
            if month > first:
                no += 1
                clr = "✓" if month < recent else rng.choice(("", "✓"))
                if name == RENT[0]:
                    splits = [("Checking", -amount, "", clr), ("Rent", amount, "", "")]
                else:
                    splits = [
                        ("Checking", -amount, "", clr),
                        ("Bank Loan", Decimal("400.00"), "Principal", ""),
                        ("Interest Expense", Decimal("85.00"), "Interest", ""),
                    ]
                made.append(Txn(no, "Check", month, "", vendor, name, splits))
            month = dt.date(month.year + month.month // 12, month.month % 12 + 1, day)
    txns.extend(made)
    txns.sort(key=lambda t: t.date)

    def after(day: int) -> dt.date:
        d = dt.date(last.year, last.month, day)
        return d if d > last else dt.date(d.year + d.month // 12, d.month % 12 + 1, day)

    monthly = (("month", 1),)
    return [
        MemorizedTruth(
            RENT[0], "Check", "Checking", RENT[2], "Monthly", True, after(1), None,
            {"Checking": -RENT[2], "Rent": RENT[2]}, monthly,
        ),
        MemorizedTruth(
            LOAN[0], "Check", "Checking", LOAN[2], "Monthly", False, after(15), 12,
            {"Checking": -LOAN[2], "Bank Loan": Decimal("400.00"),
             "Interest Expense": Decimal("85.00")}, monthly,
        ),
        MemorizedTruth(
            "Office cleaning", "Bill", "Accounts Payable", None, "Never", False, None, None, None
        ),
        MemorizedTruth(
            "Payroll taxes", "Check", "Checking", Decimal("300.00"), "Twice a Month", False,
            after(1), None, None,
        ),
        MemorizedTruth(
            "Insurance premium", "Check", "Checking", Decimal("612.00"), "Quarterly", False,
            after(20), None, None,
        ),
    ]  # fmt: skip


def write_memorized_csv(company: Company, path: Path) -> Path:
    """Lists > Memorized Transaction List, exported to CSV (its window's columns), with a group
    and its members indented below it."""
    from tests.support.companygen_write import _write_csv

    rows = [
        ["", "Transaction Name", "Type", "Source Account", "Amount", "Frequency", "Auto",
         "Next Date", "Number Remaining"],
        ["Month end", "", "", "", "", "Monthly", "", "", ""],
    ]  # fmt: skip
    for m in company.memorized:
        amount = f"{m.amount:,.2f}" if m.amount else ""
        due = f"{m.next_date:%m/%d/%Y}" if m.next_date else ""
        left = str(m.remaining) if m.remaining is not None else ""
        auto = "Y" if m.auto else ""
        rows.append(["", m.name, m.kind, m.account, amount, m.frequency, auto, due, left])
    return _write_csv(path, rows, "utf-8")
