"""The parsed ledger, in GnuCash's words.

Parsers turn QuickBooks files into these frozen dataclasses (with the business records of
``app.business``, every record's ``Source`` from ``app.source``); everything after them (mapping,
validation, preview, the GnuCash writer, verification) reads only these. QuickBooks vocabulary
stays inside the parsers. Money is always ``Decimal``; every record keeps the file and line it
came from.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum
from typing import Literal

from app.business import BillTerm, Customer, Employee, OpenItem, Vendor
from app.classes import SplitClass
from app.extras import BudgetLine, Memorized, Statement, YearEnd
from app.fixes import Fix
from app.items import Item, ItemLine, TaxCode, TaxLiability
from app.read_progress import ReadProgress
from app.source import Source

Severity = Literal["error", "warning", "note"]  # a note: for information, nothing to do
DateOrderCode = Literal["", "mdy", "dmy"]
CENT = Decimal("0.01")


def money(value: Decimal | str | None, sign: int = 1) -> str:
    """1234.5 → "1,234.50": the one way money is shown (messages, pages; the CSV report and the
    Download step's data use ``plain``). None and "" show as nothing. ``sign`` -1 shows a
    credit-normal account's balance the way GnuCash's account tree does (a credit positive)."""
    if value is None or value == "":
        return ""
    return f"{_every_place(sign * Decimal(value)):,f}"


def plain(value: Decimal) -> str:
    """-1403.99, 0.00: money without thousands separators (CSV, JSON), like ``money``."""
    return f"{_every_place(value):f}"


def _every_place(value: Decimal) -> Decimal:
    """At least two places and every place the value has, never rounded (a six-decimal currency
    keeps its six, so a difference of 0.000001 never shows as 0.00); no exponent, no "-0"."""
    exponent = value.as_tuple().exponent
    if isinstance(exponent, int) and exponent > -2:
        value = value.quantize(CENT)
    return abs(value) if not value else value


class AccountType(Enum):
    """GnuCash account types (``ACCT_TYPE_*``) that a QuickBooks chart can map to."""

    BANK = "BANK"
    CASH = "CASH"
    ASSET = "ASSET"
    RECEIVABLE = "RECEIVABLE"
    CREDIT = "CREDIT"
    LIABILITY = "LIABILITY"
    PAYABLE = "PAYABLE"
    EQUITY = "EQUITY"
    INCOME = "INCOME"
    EXPENSE = "EXPENSE"

    @property
    def family(self) -> str:
        """Top-level family: "asset", "liability", "equity", "income" or "expense"."""
        return _FAMILY[self]

    @property
    def balance_sheet(self) -> bool:
        return self.family in ("asset", "liability", "equity")


_FAMILY = {
    AccountType.BANK: "asset", AccountType.CASH: "asset", AccountType.ASSET: "asset",
    AccountType.RECEIVABLE: "asset", AccountType.CREDIT: "liability",
    AccountType.LIABILITY: "liability", AccountType.PAYABLE: "liability",
    AccountType.EQUITY: "equity", AccountType.INCOME: "income", AccountType.EXPENSE: "expense",
}  # fmt: skip


class Role(Enum):
    """Special accounts QuickBooks tags (EXTRA); GnuCash only knows OPENING_BALANCE as a flag."""

    NONE = ""
    OPENING_BALANCE = "opening_balance"
    RETAINED_EARNINGS = "retained_earnings"
    SALES_TAX = "sales_tax"
    UNDEPOSITED = "undeposited"


@dataclass(frozen=True, slots=True)
class Account:
    """One account. ``full_name`` uses ``:`` between levels; no level contains ``:``.

    ``type`` is None when the source type is unknown: a problem the user resolves (retype).
    ``kind_label`` is the source's own type label, shown beside the GnuCash type in the preview.
    ``balance`` is the source's trial-balance figure on the export date, when it has one
    (QuickBooks' OBAMOUNT): all time for balance-sheet accounts, fiscal year to date for income
    and expense, credit-natured balances negative."""

    full_name: str
    type: AccountType | None
    source: Source
    kind_label: str = ""
    description: str = ""
    code: str = ""
    hidden: bool = False
    placeholder: bool = False
    role: Role = Role.NONE
    balance: Decimal | None = None
    notes: str = ""
    origin: tuple[str, ...] = ()  # the source's full names behind it (several after a merge)
    currency: str = ""  # QuickBooks' own currency of the account (multicurrency), when told
    # a class sub-account (``--classes accounts``, app/classes_stage.py): the account it is made
    # under, into which the proof folds it back ("" for every other account)
    folds_into: str = ""
    # QuickBooks' type, where a retype crossed the balance-sheet line (``counted``)
    counted_as: AccountType | None = None
    # the accounts merged into it, each with the type QuickBooks counts it by (app/mapping.py)
    merged_in: tuple[tuple[str, AccountType], ...] = ()

    @property
    def counted(self) -> AccountType | None:
        """The type ``balance`` counts by: an asset made an expense keeps an all-time figure."""
        return self.counted_as or self.type

    @property
    def crossed(self) -> tuple[str, ...]:
        """The accounts merged in from the other side of the balance-sheet line: QuickBooks
        counts them from other days, so the merged account differs after the first fiscal year
        (``likely.merged_across``)."""
        mine = self.counted  # (QuickBooks' types: a retype before or after the merge is none)
        return tuple(
            n
            for n, t in self.merged_in
            if mine is not None and t.balance_sheet != mine.balance_sheet
        )

    @property
    def name(self) -> str:
        return self.full_name.rsplit(":", 1)[-1]

    @property
    def parent_name(self) -> str:
        return self.full_name.rpartition(":")[0]


class Reconcile(Enum):
    """GnuCash split reconcile states."""

    NEW = "n"
    CLEARED = "c"
    RECONCILED = "y"


@dataclass(frozen=True, slots=True)
class Split:
    """One posting. ``value`` is signed: debit positive, credit negative (GnuCash's convention).

    ``account`` is the full name of a chart account once resolved; straight out of a report
    parser it is the account label as printed in the report (see ``resolve``).
    ``mark`` is the raw cleared mark found in the file (shown in summaries), ``reconcile`` what
    it means. ``owner`` is the name on the line itself when it is not the transaction's
    (``description``): on an A/R or A/P line, the customer, job or vendor it belongs to."""

    account: str
    value: Decimal
    source: Source
    memo: str = ""
    reconcile: Reconcile = Reconcile.NEW
    mark: str = ""
    account_type_label: str = ""  # report's "Account Type" cell, when it has one
    owner: str = ""  # the line's own name, when it differs from the transaction's
    item: ItemLine | None = None  # the line's item, quantity, rate and tax, where the file has them
    klass: str = ""  # the line's class (QuickBooks' class, ``Parent:Child``), "" for none


@dataclass(frozen=True, slots=True)
class Transaction:
    """A balanced set of splits. ``ref`` is the source's own id (QuickBooks Trans #) if any;
    ``kind_label`` its transaction type (Check, Invoice...). Both also go into ``notes``."""

    date: dt.date
    splits: tuple[Split, ...]
    source: Source
    num: str = ""
    description: str = ""
    notes: str = ""
    ref: str = ""
    kind_label: str = ""
    voided: bool = False
    due: dt.date | None = None  # the document's due date, when the file has one
    terms: str = ""  # the document's terms (a BillTerm name), when the file has them

    @property
    def total(self) -> Decimal:
        return sum((s.value for s in self.splits), Decimal(0))


@dataclass(frozen=True, slots=True)
class NotImported:
    """A record GnuCash has no place for (other names, classes, items...), listed, not dropped."""

    what: str  # human list name, e.g. "Other names", "Classes", "Items"
    name: str
    reason: str
    source: Source


# What a finding is about, for front ends that show the most important first (a file cut at the
# export cap, the files' dates, one history in two files, figures that differ, "opening": the
# opening balance asked for, not made: ``app.coverage.no_opening``); "" for the rest.
Topic = Literal["", "truncated", "coverage", "opening", "overlap", "difference", "total"]


@dataclass(frozen=True, slots=True)
class Problem:
    """A finding about the input: an "error" blocks writing, a "warning" does not, a "note"."""

    source: Source | None
    message: str
    severity: Severity = "error"
    # The one setting that resolves it, named by each front end in its own words (the wizard's
    # Map step, the CLI's flag): see ``WORDS`` in app/fixes.py.
    fix: Fix = ""
    topic: Topic = ""

    def __str__(self) -> str:
        where = f"{self.source}: " if self.source else ""
        return f"{where}{self.message}"


Layout = Literal[
    "not read",
    "iif",  # lists and transactions in one IIF file
    "iif lists",
    "iif transactions",
    "find",
    "journal",
    "detail",
    "ledger",
    "hand",  # a CSV report whose columns the user mapped
    "trial balance",
    "customer list",
    "vendor list",
    "open invoices",
    "unpaid bills",
    "sales tax liability",
    "year end",  # a Trial Balance report of an earlier date: a proof, not the book's figures
    "reconciliation",
    "memorized",
]
HISTORY_LAYOUTS: frozenset[Layout] = frozenset(
    ("iif", "iif transactions", "find", "journal", "detail", "ledger", "hand")
)


@dataclass(frozen=True, slots=True)
class FileInfo:
    """What one input file held, for summaries and the upload step. ``kind`` is the label people
    read; ``layout`` the code the program decides by."""

    filename: str
    kind: str  # "IIF lists", "IIF transactions", "CSV Journal", ...
    layout: Layout = "not read"
    encoding: str = ""
    date_order: DateOrderCode = ""  # "" when the file has no dates
    date_order_ambiguous: bool = False
    counts: tuple[tuple[str, int], ...] = ()  # (("Accounts", 106), ("Customers", 45), ...)
    first_date: dt.date | None = None
    last_date: dt.date | None = None
    marks: tuple[str, ...] = ()  # distinct cleared marks found
    # The day the file's figures (balances) are taken as of, when the file says it: an IIF
    # export's HDR DATE, a report's "As of ..." title. ``exported_at``: where that was read.
    exported_on: dt.date | None = None
    exported_at: Source | None = None
    # A file cut at QuickBooks' export cap that the user accepts as cut (``FileOptions``): its
    # history ends on ``last_date`` (that day perhaps incomplete); the proof names what is missing.
    cut: bool = False
    # The file seems to stop before its end for another reason than the export cap (no TOTAL row,
    # a transaction cut in the middle): "sections" a report grouped by account, else "end".
    stops_early: Literal["", "end", "sections"] = ""
    # the longest run of days with no transaction in the file: a longer one between files is named
    quiet: int = 0
    titled: tuple[dt.date, dt.date] | None = None  # a report title's period: a gap between is sure

    @property
    def has_history(self) -> bool:
        """The file holds transactions (the history a book is built from)."""
        return self.layout in HISTORY_LAYOUTS

    @property
    def only_history(self) -> bool:
        """Transactions and nothing else (no lists, no figures)."""
        return self.has_history and self.layout != "iif"


AsOfBasis = Literal[
    "export header", "report title", "given", "cutover date", "last transaction", "archive end"
]
FiscalBasis = Literal["given", "read from figures", "not told", "default"]


@dataclass(frozen=True, slots=True)
class AsOf:
    """The day QuickBooks' figures (``Account.balance``) are taken as of, and the fiscal year
    they count income and expense from; decided by ``cutover.apply``, read by ``verify``.

    ``basis`` says where the date came from (``where``: the file and line, when read from a
    file); "last transaction" is a guess the user is asked to confirm. ``after``: transactions
    dated after it (outside QuickBooks' figures). ``fiscal_basis``: the fiscal year start given,
    read from the figures (the only month start that explains every income and expense figure),
    not told (several or none fit: January 1st kept) or the default (nothing to read it from)."""

    date: dt.date
    basis: AsOfBasis
    year_start: dt.date
    fiscal_basis: FiscalBasis = "default"
    where: Source | None = None
    after: int = 0
    fits: tuple[str, ...] = ()  # the fiscal year starts (MM-DD) that explain the figures

    @property
    def guessed(self) -> bool:
        return self.basis == "last transaction"

    def describe(self) -> str:
        """ "2022-01-02 (the export date in lists.iif:2)": the date and where it came from."""
        where = f" in {self.where}" if self.where else ""
        words = {
            "export header": f"the export date{where}",
            "report title": f"the report's date{where}",
            "given": "the export date given",
            "cutover date": "the cutover date",
            "last transaction": "the last transaction's date: a guess, no export date in the files",
            "archive end": "the archive's last day: its own history's figures",
        }
        return f"{self.date} ({words[self.basis]})"


@dataclass(frozen=True, slots=True)
class Ledger:
    """Everything read from one or more files. ``chart`` tells whether ``accounts`` came from a
    real chart of accounts (IIF lists) rather than being inferred from report rows."""

    accounts: tuple[Account, ...] = ()
    transactions: tuple[Transaction, ...] = ()
    customers: tuple[Customer, ...] = ()
    vendors: tuple[Vendor, ...] = ()
    employees: tuple[Employee, ...] = ()
    terms: tuple[BillTerm, ...] = ()
    not_imported: tuple[NotImported, ...] = ()
    problems: tuple[Problem, ...] = ()
    files: tuple[FileInfo, ...] = ()
    company: str = ""
    chart: bool = False
    open_items: tuple[OpenItem, ...] = ()
    as_of: AsOf | None = None  # set by the cutover: the day QuickBooks' figures are taken as of
    items: tuple[Item, ...] = ()  # the item list (sales tax items and groups included)
    tax_codes: tuple[TaxCode, ...] = ()
    tax_liability: tuple[TaxLiability, ...] = ()  # a Sales Tax Liability report's rows
    # issue 26 (app/extras.py): budgets, earlier trial balances, reconciliations, memorized
    budget_lines: tuple[BudgetLine, ...] = ()
    year_ends: tuple[YearEnd, ...] = ()
    statements: tuple[Statement, ...] = ()
    memorized: tuple[Memorized, ...] = ()
    classes: tuple[SplitClass, ...] = ()  # the class list (app/classes.py), in the files' order

    def account(self, full_name: str) -> Account | None:
        for a in self.accounts:
            if a.full_name == full_name:
                return a
        return None

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "error")


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How to read one file. ``date_order`` None = detect (M/D/Y unless the file proves D/M/Y);
    ``columns`` maps a role ("ref", "kind", "date", "num", "name", "memo", "account", "mark",
    "amount", "debit", "credit", "account_type") to a CSV header for a layout no reader knows."""

    date_order: DateOrderCode | None = None  # None or "": detect
    pivot: int = 80
    columns: tuple[tuple[str, str], ...] = ()
    truncated_ok: bool = False  # the user says the file is cut at the export cap on purpose
    # told how far the reader is (the upload's bar); no option, never compared
    seen: ReadProgress | None = field(default=None, compare=False, repr=False)
