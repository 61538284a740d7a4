"""A seeded generator of a realistic small QuickBooks company, and its exports.

``make_company(...)`` builds the chart, the name lists and the transactions (always balanced,
2-5 splits, some zero-amount and voided ones, some that touch a zero running balance mid-way);
the ``Company`` knows the balances QuickBooks would report and writes every export layout the
project reads (Lists IIF, the four CSV report layouts, an IIF TRNS/SPL file), see
``tests/support/companygen_write.py``. Amounts are Decimal cents; the random source is only
``random.Random(seed)`` so a seed always gives the same files.

CLI: ``python -m tests.support.companygen --transactions N --seed S --out DIR`` (``--documents``:
invoices and bills, with the Open Invoices and Unpaid Bills reports).
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from tests.support import companygen_classes as _c
from tests.support import companygen_docs as _d
from tests.support import companygen_extra as _x
from tests.support import companygen_tax as _t
from tests.support import companygen_write as _w
from tests.support import companygen_years as _y
from tests.support.companygen_data import (  # re-exported: tests import them from here
    BALANCE_SHEET,
    CHART,
    CLASSES,
    COMPANY_NAME,
    CUSTOMERS,
    EMPLOYEES,
    EXPENSES,
    HIDDEN,
    INCOME,
    INCOME2,
    KINDS,
    OTHER_NAMES,
    TERMS,
    TYPE_WORDS,
    VENDORS,
)

ZERO = Decimal(0)
__all__ = [
    "BALANCE_SHEET",
    "CHART",
    "CLASSES",
    "COMPANY_NAME",
    "CUSTOMERS",
    "EMPLOYEES",
    "EXPENSES",
    "HIDDEN",
    "INCOME",
    "INCOME2",
    "KINDS",
    "OTHER_NAMES",
    "TERMS",
    "TYPE_WORDS",
    "VENDORS",
    "Company",
    "Txn",
    "main",
    "make_company",
]


@dataclass(slots=True)
class Txn:
    """One QuickBooks transaction: splits are (account full name, amount debit+, memo, clr)."""

    trans_no: int
    type: str
    date: dt.date
    num: str
    name: str
    memo: str
    splits: list[tuple[str, Decimal, str, str]]
    names: tuple[str, ...] = ()  # each split's own Name cell, when not all ``name``
    items: tuple = ()  # each split's item columns (``companygen_tax.Line`` or None), items=True
    classes: tuple[str, ...] = ()  # each split's class ("" none), classes=True
    # the history exports lost every Name cell of it (``companygen_docs.lose_names``); the
    # open-items reports still name its owner, as QuickBooks has it
    unnamed: bool = False

    def name_of(self, i: int) -> str:
        """The Name cell of split ``i``'s row."""
        if self.unnamed:
            return ""
        return self.names[i] if self.names else self.name

    def class_of(self, i: int) -> str:
        """The Class cell of split ``i``'s row."""
        return self.classes[i] if self.classes else ""


@dataclass
class Company:
    name: str
    accounts: list[tuple[str, str, str, str]]
    customers: list[str]
    vendors: list[str]
    employees: list[tuple[str, str]]
    terms: list[tuple[str, str, int, int]]
    classes: list[str]
    other_names: list[str]
    transactions: list[Txn]
    fiscal_year_start: tuple[int, int] = (1, 1)
    history_from: dt.date | None = None
    hidden: frozenset[str] = field(default_factory=frozenset)
    exported: dt.date | None = None  # the lists export's day (default: the last transaction's)
    hdr: bool = True  # the lists export has its HDR row (with the export DATE)
    # documents=True: trans_no → what is still open of each document (unapplied of each credit)
    open_amounts: dict[int, Decimal] = field(default_factory=dict)
    # a multicurrency company's lists: its home currency as the export writes it ("US Dollar";
    # "" = no currency columns), and (kind, name) → another currency of an account ("account",
    # full name), a customer or a vendor; its amounts in the files stay home-currency values
    home_currency: str = ""
    currencies: dict[tuple[str, str], str] = field(default_factory=dict)
    # items=True: the item list, sales tax and its truth (``companygen_tax``)
    tax: _t.TaxTruth | None = None

    @property
    def items(self) -> bool:
        return self.tax is not None

    # issue 26 (companygen_years): budgets in the lists export, memorized transactions
    budgets: list[_y.BudgetTruth] = field(default_factory=list)
    memorized: list[_y.MemorizedTruth] = field(default_factory=list)
    # classes=True (companygen_classes): every line may have a class, and the reports a Class
    # column
    classed: bool = False

    @property
    def export_date(self) -> dt.date:
        """The day of the lists export: QuickBooks' OBAMOUNT figures are taken on it."""
        return self.exported or self.transactions[-1].date

    @property
    def after_export(self) -> list[Txn]:
        """Transactions dated after the export (in the history, not in the figures)."""
        return [t for t in self.history if t.date > self.export_date]

    @property
    def history(self) -> list[Txn]:
        """The transactions the history exports hold (from ``history_from`` on)."""
        if self.history_from is None:
            return self.transactions
        return [t for t in self.transactions if t.date >= self.history_from]

    def account_type(self, full_name: str) -> str:
        """The QuickBooks type code (BANK, AR, EXP...) of an account."""
        return self._types()[full_name]

    def _types(self) -> dict[str, str]:
        return {a[0]: a[1] for a in self.accounts}

    def labels(self) -> dict[str, str]:
        """Full name → report label with account numbers on (``NNNN · Leaf``), as the Journal,
        Transaction Detail and General Ledger reports print it (the GL nests them: the parser
        joins the section headers, ``6900 · Utilities:6910 · Gas``)."""
        out = {}
        for name, _type, number, _extra in self.accounts:
            leaf = name.rsplit(":", 1)[-1]
            out[name] = f"{number} · {leaf}" if number else leaf
        return out

    def label(self, full_name: str) -> str:
        return self.labels()[full_name]

    @staticmethod
    def _sum(txns: list[Txn], names: list[str]) -> dict[str, Decimal]:
        out = dict.fromkeys(names, ZERO)
        for t in txns:
            for account, amount, _memo, _clr in t.splits:
                out[account] += amount
        return out

    def expected_balances(self) -> dict[str, Decimal]:
        """All-time balance per account (debit positive) over all transactions."""
        return self._sum(self.transactions, [a[0] for a in self.accounts])

    def history_balances(self) -> dict[str, Decimal]:
        """Per-account sums over the exported history only."""
        return self._sum(self.history, [a[0] for a in self.accounts])

    def fiscal_year_begin(self) -> dt.date:
        """First day of the fiscal year holding the export date."""
        month, day = self.fiscal_year_start
        end = self.export_date
        begin = dt.date(end.year, month, day)
        return begin if begin <= end else dt.date(end.year - 1, month, day)

    def trial_balance(self, as_of: dt.date | None = None) -> dict[str, Decimal]:
        """QuickBooks' OBAMOUNT on the export date: balance-sheet all time, income and expense
        this fiscal year, earlier years' net income folded into Retained Earnings; transactions
        after the export date left out. Sums to 0. ``as_of``: its Trial Balance report of that
        date instead (QuickBooks' year-end close: ``companygen_years.trial_balance``)."""
        if as_of is not None:
            return _y.trial_balance(self, as_of)
        types = self._types()
        begin = self.fiscal_year_begin()
        out = dict.fromkeys(types, ZERO)
        earlier = ZERO
        retained = next(a[0] for a in self.accounts if a[3] == "RETEARNINGS")
        for t in self.transactions:
            if t.date > self.export_date:
                continue
            this_year = t.date >= begin
            for account, amount, _memo, _clr in t.splits:
                if types[account] in BALANCE_SHEET or this_year:
                    out[account] += amount
                else:
                    earlier += amount
        out[retained] += earlier
        return out

    # Writers live in companygen_write to keep both modules small.
    def write_lists_iif(self, path: Path) -> Path:
        return _w.write_lists_iif(self, path)

    def write_trial_balance_csv(
        self, path: Path, *, encoding: str = "utf-8", as_of: dt.date | None = None
    ) -> Path:
        return _w.write_trial_balance_csv(self, path, encoding=encoding, as_of=as_of)

    def year_ends(self) -> list[dt.date]:
        """Every fiscal year end from the first transaction to the export date (excluded)."""
        return _y.year_ends(self)

    def statement(self, account: str, *, all_cleared: bool = False) -> _y.StatementTruth:
        """The account's last reconciliation (see ``companygen_years.statement``)."""
        return _y.statement(self, account, all_cleared=all_cleared)

    def write_summary_csv(self, path: Path, report: str, *, titles: bool = True) -> Path:
        """A Profit & Loss ("pnl") or Balance Sheet ("balance") report: totals only
        (``companygen_summary``; ``titles``: with its title rows)."""
        from tests.support.companygen_summary import write_summary_csv

        return write_summary_csv(self, path, report, titles=titles)

    def write_reconciliation_csv(self, path: Path, truths: list[_y.StatementTruth]) -> Path:
        return _y.write_reconciliation_csv(self, path, truths)

    def write_memorized_csv(self, path: Path) -> Path:
        return _y.write_memorized_csv(self, path)

    def write_find_csv(
        self,
        path: Path,
        *,
        date_order: str = "mdy",
        encoding: str = "utf-8",
        split: bool = False,
        by_type: bool = False,
    ) -> Path:
        return _w.write_find_csv(
            self, path, date_order=date_order, encoding=encoding, split=split, by_type=by_type
        )

    def write_journal_csv(self, path: Path, *, date_order: str = "mdy", encoding: str = "utf-8"):
        return _w.write_journal_csv(self, path, date_order=date_order, encoding=encoding)

    def write_transaction_detail_csv(
        self,
        path: Path,
        *,
        date_order: str = "mdy",
        encoding: str = "utf-8",
        bare_numbers: bool = False,
    ) -> Path:
        return _w.write_transaction_detail_csv(
            self, path, date_order=date_order, encoding=encoding, bare_numbers=bare_numbers
        )

    def write_general_ledger_csv(
        self, path: Path, *, date_order: str = "mdy", encoding: str = "utf-8"
    ) -> Path:
        return _w.write_general_ledger_csv(self, path, date_order=date_order, encoding=encoding)

    def write_transactions_iif(
        self, path: Path, *, date_order: str = "mdy", encoding: str = "utf-8"
    ) -> Path:
        return _w.write_transactions_iif(self, path, date_order=date_order, encoding=encoding)

    def write_open_invoices_csv(
        self, path: Path, *, names: bool = True, nested: bool = True
    ) -> Path:
        return _d.write_open_report(self, path, "customer", names=names, nested=nested)

    def write_unpaid_bills_csv(self, path: Path, *, names: bool = True) -> Path:
        return _d.write_open_report(self, path, "vendor", names=names)

    def write_sales_tax_liability_csv(self, path: Path) -> Path:
        return _t.write_liability_report(self, path)

    def write_all(self, directory: Path, **kw: str) -> dict[str, Path]:
        """Every export into ``directory``: name → path."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        return {
            "lists": self.write_lists_iif(directory / "lists.iif"),
            "find": self.write_find_csv(directory / "find.csv", **kw),
            "journal": self.write_journal_csv(directory / "journal.csv", **kw),
            "transaction_detail": self.write_transaction_detail_csv(
                directory / "transaction_detail.csv", **kw
            ),
            "general_ledger": self.write_general_ledger_csv(directory / "general_ledger.csv", **kw),
            "transactions_iif": self.write_transactions_iif(directory / "transactions.iif", **kw),
            "trial_balance": self.write_trial_balance_csv(
                directory / "trial_balance.csv", encoding=kw.get("encoding", "utf-8")
            ),
        }


def _money(rng: random.Random, low: int, high: int) -> Decimal:
    """A random amount between ``low`` and ``high`` dollars, in cents."""
    return Decimal(rng.randint(low * 100, high * 100)).scaleb(-2)


def _opening(start: dt.date) -> list[tuple[str, str, str, list[tuple[str, Decimal, str, str]]]]:
    d = Decimal
    return [
        (
            "General Journal",
            "Opening balances",
            "",
            [
                ("Checking", d("25000.00"), "Opening balance", "✓"),
                ("Savings", d("8500.00"), "Opening balance", "✓"),
                ("Truck:Original Purchase", d("13750.00"), "Opening balance", ""),
                ("Bank Loan", d("-12000.00"), "Opening balance", ""),
                ("Opening Balance Equity", d("-35250.00"), "Opening balance", ""),
            ],
        ),
        (
            "General Journal",
            "Owner investment",
            "Owner, Pat",
            [
                ("Checking", d("5000.00"), "Owner investment", "✓"),
                ("Owner's Equity", d("-5000.00"), "Owner investment", ""),
            ],
        ),
    ]


@_w.no_gc
def make_company(  # noqa: PLR0917 - the documented positional API
    transactions: int = 200,
    seed: int = 1,
    start: dt.date = dt.date(2019, 1, 1),
    years: int = 3,
    fiscal_year_start: tuple[int, int] = (1, 1),
    history_from: dt.date | None = None,
    exported: dt.date | None = None,
    hdr: bool = True,
    *,
    documents: bool = False,
    twins: float = 0.0,
    payers: bool = False,
    journals: bool = False,
    items: bool = False,
    item_lines: int = 0,
    budgets: bool = False,
    memorized: bool = False,
    classes: bool = False,
) -> Company:
    """A company with ``transactions`` transactions spread over ``years`` years from ``start``;
    its lists exported on ``exported`` (default: the last transaction's day), with or without
    the IIF ``HDR`` row (``hdr``). ``documents``: payments pay known documents, with credit
    memos and bill credits (``tests.support.companygen_docs``; ``open_amounts`` then holds
    each one's truth). ``twins``: about that share of the transactions come in neighbouring
    pairs with one type, date, num and name; ``payers``: deposits name their payers on the
    deposit lines only (both: ``tests.support.companygen_extra``); ``journals`` (with
    ``documents``): some journal entries are charges and credits on A/R or A/P whose other lines
    name someone else (``tests.support.companygen_docs``); ``budgets``: a BUD section in
    the lists export; ``memorized``: monthly checks made from memorized transactions, and the
    Memorized Transaction List (both: ``tests.support.companygen_years``); ``classes``: a class
    on most income and expense lines and a few balance-sheet ones, and a Class column in the
    reports (``tests.support.companygen_classes``)."""
    rng = random.Random(seed)
    span = max(1, round(365.25 * years) - 1)
    n = max(transactions, 2)
    offsets = sorted(rng.randrange(1, span) for _ in range(n - 2))
    dates = [start, start] + [start + dt.timedelta(days=o) for o in offsets]
    end = dates[-1]
    recent = end - dt.timedelta(days=45)
    kinds = [k for k, _ in KINDS]
    weights = [w for _, w in KINDS]
    chosen = rng.choices(kinds, weights, k=n)
    customers = list(CUSTOMERS)
    vendors = list(VENDORS)
    employees = [e[0] for e in EMPLOYEES]
    out: list[Txn] = []
    invoice_no = 1000
    check_no = 2000
    opening = _opening(start)
    for i, day in enumerate(dates):
        no = i + 1
        if i < len(opening):
            kind, memo, name, splits = opening[i]
            out.append(Txn(no, kind, day, "", name, memo, splits))
            continue
        kind = chosen[i]
        bank_clr = "✓" if day < recent else rng.choice(("", "*", "✓"))
        num = ""
        name = ""
        memo = ""
        splits: list[tuple[str, Decimal, str, str]]
        if kind == "Invoice":
            invoice_no += 1
            num = str(invoice_no)
            name = rng.choice(customers)
            lines = rng.randint(1, 3)
            amounts = [_money(rng, 40, 6000) for _ in range(lines)]
            accounts = rng.sample(INCOME + INCOME2, lines)
            splits = [
                (a, -v, f"Line {j + 1}", "")
                for j, (a, v) in enumerate(zip(accounts, amounts, strict=True))
            ]
            total = sum(amounts, ZERO)
            if rng.random() < 0.3:
                tax = (total * Decimal("0.0775")).quantize(Decimal("0.01"))
                splits.append(("Sales Tax Payable", -tax, "Sales tax", ""))
                total += tax
            if len(splits) < 4 and rng.random() < 0.08:
                splits.append(("Landscaping Services:Labor", ZERO, "No charge: warranty", ""))
            splits.insert(0, ("Accounts Receivable", total, "", ""))
        elif kind == "Payment":
            name = rng.choice(customers)
            num = str(rng.randint(100, 9999))
            v = _money(rng, 50, 9000)
            splits = [("Undeposited Funds", v, "", ""), ("Accounts Receivable", -v, "", "")]
        elif kind == "Deposit":
            parts = [_money(rng, 50, 4000) for _ in range(rng.randint(1, 3))]
            total = sum(parts, ZERO)
            memo = "Deposit"
            splits = [("Checking", total, "Deposit", bank_clr)]
            splits += [("Undeposited Funds", -p, "", "") for p in parts]
        elif kind in ("Bill", "Check", "Credit Card Charge"):
            name = rng.choice(vendors)
            lines = rng.randint(1, 3 if kind == "Credit Card Charge" else 4)
            accounts = rng.sample(EXPENSES, lines)
            if kind == "Credit Card Charge":
                accounts[0] = "Automobile:Fuel"
            amounts = [_money(rng, 10, 2500) for _ in range(lines)]
            total = sum(amounts, ZERO)
            if kind == "Bill":
                num = f"INV-{rng.randint(1000, 99999)}"
                head = ("Accounts Payable", -total, "", "")
            elif kind == "Check":
                check_no += 1
                num = str(check_no)
                head = ("Checking", -total, "", bank_clr)
            else:
                head = ("CalOil Card", -total, "", bank_clr)
            splits = [head] + [(a, v, "", "") for a, v in zip(accounts, amounts, strict=True)]
        elif kind == "Bill Pmt -Check":
            check_no += 1
            num = str(check_no)
            name = rng.choice(vendors)
            v = _money(rng, 20, 7000)
            splits = [("Checking", -v, "", bank_clr), ("Accounts Payable", v, "", "")]
        elif kind == "Paycheck":
            check_no += 1
            num = str(check_no)
            name = rng.choice(employees)
            gross = _money(rng, 900, 3200)
            fed = (gross * Decimal("0.12")).quantize(Decimal("0.01"))
            state = (gross * Decimal("0.04")).quantize(Decimal("0.01"))
            splits = [
                ("Checking", -(gross - fed - state), "", bank_clr),
                ("Payroll Expenses", gross, "Gross pay", ""),
                ("Payroll Liabilities:Federal Withholding", -fed, "", ""),
                ("Payroll Liabilities:State Withholding", -state, "", ""),
            ]
        elif kind == "General Journal":
            num = str(rng.randint(1, 999))
            a = _money(rng, 100, 1500)
            b = _money(rng, 10, 300)
            memo = "Depreciation and reclass"
            # two self-balancing pairs: the running balance touches 0.00 half-way
            splits = [
                ("Depreciation Expense", a, memo, ""),
                ("Truck:Accumulated Depreciation", -a, memo, ""),
                ("Office Supplies", b, "Reclass", ""),
                ("Repairs", -b, "Reclass", ""),
            ]
        elif kind == "Transfer":
            v = _money(rng, 500, 5000)
            memo = "Funds transfer"
            splits = [("Savings", v, memo, bank_clr), ("Checking", -v, memo, bank_clr)]
        else:  # a voided check: QuickBooks keeps it with zero amounts
            kind = "Check"
            check_no += 1
            num = str(check_no)
            name = rng.choice(vendors)
            memo = "VOID: wrong amount"
            splits = [("Checking", ZERO, memo, bank_clr), (rng.choice(EXPENSES), ZERO, "", "")]
        if not memo:
            memo = splits[0][2]
        out.append(Txn(no, kind, day, num, name, memo, splits))
    if twins:
        _x.add_twins(out, seed, twins, vendors)
    if payers:
        _x.add_payers(out, seed, customers)
    tax = _t.add_items(out, seed, lines=item_lines) if items else None
    open_amounts = _d.add_documents(out, seed, customers, vendors, journals) if documents else {}
    remembered = _y.add_recurring(out, seed) if memorized else []
    company = Company(
        name=COMPANY_NAME,
        accounts=list(CHART) + (list(_t.EXTRA_ACCOUNTS) if items else []),
        customers=customers,
        vendors=vendors + (list(_t.AGENCIES) if items else []),
        employees=list(EMPLOYEES),
        terms=list(TERMS),
        classes=list(CLASSES),
        other_names=list(OTHER_NAMES),
        transactions=out,
        fiscal_year_start=fiscal_year_start,
        history_from=history_from,
        hidden=HIDDEN,
        exported=exported,
        hdr=hdr,
        open_amounts=open_amounts,
        tax=tax,
        memorized=remembered,
    )
    if budgets:
        company.budgets = _y.make_budgets(company, seed)
    if classes:
        _c.add_classes(company, seed)
    return company


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transactions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--years", type=int, default=3)
    parser.add_argument("--history-from", type=dt.date.fromisoformat, default=None)
    parser.add_argument("--date-order", choices=("mdy", "dmy"), default="mdy")
    parser.add_argument("--encoding", choices=("utf-8", "cp1252"), default="utf-8")
    parser.add_argument(
        "--documents",
        action="store_true",
        help="invoices, bills and payments, with the Open Invoices and Unpaid Bills reports "
        "(what the wizard's aging compares)",
    )
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    company = make_company(
        args.transactions,
        args.seed,
        years=args.years,
        history_from=args.history_from,
        documents=args.documents,
    )
    paths = company.write_all(args.out, date_order=args.date_order, encoding=args.encoding)
    if args.documents:  # (hunt 23: without them no aging could be compared)
        paths["open_invoices"] = company.write_open_invoices_csv(args.out / "open_invoices.csv")
        paths["unpaid_bills"] = company.write_unpaid_bills_csv(args.out / "unpaid_bills.csv")
    for name, path in paths.items():
        print(f"{name}: {path}")


if __name__ == "__main__":
    main()
