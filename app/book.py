"""What a written GnuCash book holds, read back through the bindings (``app.gnc.read_book``).

Plain dataclasses, so verification and the web layer can use them without importing gnucash.
Balances are the engine's own figures in the book's currency: credit-natured balances negative.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from app.model import AccountType

ENGINE_MADE = ("Imbalance-", "Orphan-")  # the accounts GnuCash makes itself


def engine_made(account: str) -> bool:
    """An account GnuCash makes itself for what it cannot place (Imbalance-USD, Orphan-USD,
    or one under them): in the book only, never the user's nor QuickBooks'."""
    return account.split(":", maxsplit=1)[0].startswith(ENGINE_MADE)


@dataclass(frozen=True, slots=True)
class BookAccount:
    full_name: str
    type: str  # GnuCash type name: "BANK", "EXPENSE"... (the root account is not listed)
    code: str = ""
    description: str = ""
    notes: str = ""
    hidden: bool = False
    placeholder: bool = False
    opening_balance: bool = False
    commodity: str = ""
    balance: Decimal = Decimal(0)  # this account's own splits, all time (children not included)
    splits: int = 0
    daily: tuple[tuple[dt.date, Decimal], ...] = ()  # own split values summed per posted date

    def balance_between(self, start: dt.date | None, end: dt.date | None) -> Decimal:
        """Sum of own splits posted in [start, end] (None = open-ended)."""
        return sum(
            (
                v
                for d, v in self.daily
                if (start is None or d >= start) and (end is None or d <= end)
            ),
            Decimal(0),
        )


@dataclass(frozen=True, slots=True)
class BookSplit:
    account: str
    value: Decimal
    memo: str = ""
    reconcile: str = "n"
    klass: str = ""  # the split's class, from its qb-class slot (docs/CLASSES.md)


@dataclass(frozen=True, slots=True)
class BookTransaction:
    date: dt.date
    num: str
    description: str
    notes: str
    splits: tuple[BookSplit, ...]
    voided: bool = False


@dataclass(frozen=True, slots=True)
class BookOwner:
    """A customer, vendor or employee as stored: id, name, address lines, notes, terms, jobs."""

    id: str
    name: str
    active: bool = True
    notes: str = ""
    terms: str = ""
    address: tuple[str, ...] = ()  # name, addr1..4, phone, fax, email
    ship_address: tuple[str, ...] = ()
    credit_limit: Decimal | None = None
    jobs: tuple[str, ...] = ()
    here: str = ""  # its name in GnuCash, where renamed there (``name``: QuickBooks')
    jobs_here: tuple[tuple[str, str], ...] = ()  # (QuickBooks' name, GnuCash's) of jobs renamed


@dataclass(frozen=True, slots=True)
class BookTerm:
    name: str
    kind: str  # "days" or "proximo"
    due_days: int = 0
    discount_days: int = 0
    discount: Decimal = Decimal(0)
    cutoff: int = 0


@dataclass(frozen=True, slots=True)
class BookDocument:
    kind: str  # invoice / bill / credit_note_customer / credit_note_vendor
    id: str
    owner: str  # full name (Customer:Job for a job)
    total: Decimal
    open: Decimal  # the lot's balance, positive in the document's own sense
    paid: bool
    due: dt.date | None
    entries: int
    posted: bool


@dataclass(frozen=True, slots=True)
class BookLot:
    """An open lot of A/R or A/P with its owner: what ages (``app.documents.aging``)."""

    owner_kind: str  # "customer" / "vendor"
    owner: str  # full name (Customer:Job for a job)
    date: dt.date  # its first split's posted date
    due: dt.date | None  # a document's due date (None: a payment's or credit's lot)
    open: Decimal  # owed sense: what the customer owes us / we owe the vendor is positive
    document: bool  # a document's lot (invoice, bill, credit note); else the owner's own
    # what GnuCash's own aging reports go by: the document's due date as GnuCash keeps it (a
    # credit note's too, which ``due`` leaves out), and whether the owner's own lot was opened
    # by a payment (the reports' Pre-Payment; they leave out an own lot of anything else)
    report_due: dt.date | None = None
    payment: bool = False


@dataclass(frozen=True, slots=True)
class BookControl:
    """One side's A/R (``owner_kind`` "customer") or A/P ("vendor") accounts as the book holds
    them, owed sense: their balance, and how much of it sits in documents' lots, in the owners'
    own lots (payments, credits, charges) and in no lot at all (lines that name no one)."""

    owner_kind: str
    accounts: tuple[str, ...]
    balance: Decimal
    documents: Decimal
    owners: Decimal

    @property
    def no_lot(self) -> Decimal:
        return self.balance - self.documents - self.owners


@dataclass(frozen=True, slots=True)
class BookDocuments:
    documents: tuple[BookDocument, ...]
    owner_open: dict[tuple[str, str], Decimal]  # (kind, owner: a job its own) → Σ its lots, owed +
    lots: int
    unowned_lots: int  # lots in A/R or A/P with neither a document nor an owner
    payments: int = 0  # payment transactions (type "P") with a split in one of those lots
    open_lots: tuple[BookLot, ...] = ()  # every owned lot with something open
    controls: tuple[BookControl, ...] = ()  # A/R, then A/P (a side without accounts: none)


@dataclass(frozen=True, slots=True)
class BookTaxTable:
    name: str
    entries: tuple[tuple[str, Decimal], ...]  # (account full name, percent)


@dataclass(frozen=True, slots=True)
class BookEntry:
    """One entry of a document as the engine computes it (document sense)."""

    action: str
    description: str
    account: str
    quantity: Decimal
    price: Decimal
    value: Decimal  # rounded, before tax
    tax: Decimal  # the entry's tax from its table, rounded on its own (display only)
    taxable: bool = False
    table: str = ""  # the tax table's name (a posted entry's frozen copy: its parent's)
    included: bool = False


@dataclass(frozen=True, slots=True)
class BookInvoiceTax:
    """A document's entries and GnuCash's own subtotal, tax and total of it."""

    kind: str  # customer / vendor / credit_note_customer / credit_note_vendor
    id: str
    owner: str
    subtotal: Decimal
    tax: Decimal
    total: Decimal
    entries: tuple[BookEntry, ...]


@dataclass(frozen=True, slots=True)
class BookSalesTax:
    tables: tuple[BookTaxTable, ...]
    invoices: tuple[BookInvoiceTax, ...]
    customers: dict[str, str]  # customer → its default tax table
    # agency ("" none named) → tax owed as the book says it, per posted day
    agencies: dict[str, tuple[tuple[dt.date, Decimal], ...]]
    agency_items: dict[str, tuple[str, ...]]  # agency → its sales tax items (vendor notes)


@dataclass(frozen=True, slots=True)
class BookBudget:
    """A budget as stored: its periods (GnuCash's period name and multiplier, first start) and
    every account's value per period (0 where none is set), natural signs (debit positive)."""

    name: str
    start: dt.date | None
    periods: int
    period: tuple[str, int]  # ("month", 1)
    values: tuple[tuple[str, tuple[Decimal, ...]], ...]  # (account full name, per period)
    natural_signs: bool = True  # the book says its budgets hold natural signs


@dataclass(frozen=True, slots=True)
class BookSchedule:
    """A scheduled transaction as stored: its template lines (account, value debit positive)."""

    name: str
    enabled: bool
    auto_create: bool
    start: dt.date | None
    period: tuple[tuple[str, int], ...]  # each recurrence: (period name, multiplier)
    lines: tuple[tuple[str, Decimal], ...]
    occurrences: int = 0  # total (0: no limit)


@dataclass(frozen=True, slots=True)
class BookReconciled:
    """An account's last reconcile date and GnuCash's reconciled balance as of that day."""

    account: str
    last_date: dt.date | None
    balance: Decimal  # xaccAccountGetReconciledBalanceAsOfDate at the end of that day


@dataclass(frozen=True, slots=True)
class BookSnapshot:
    currency: str
    accounts: tuple[BookAccount, ...]
    transactions: int
    splits: int
    reconcile: tuple[tuple[str, int], ...]  # (("n", 12), ("c", 3), ("y", 40))
    first_date: dt.date | None
    last_date: dt.date | None
    customers: tuple[BookOwner, ...] = ()
    vendors: tuple[BookOwner, ...] = ()
    employees: tuple[BookOwner, ...] = ()
    terms: tuple[BookTerm, ...] = ()
    transaction_list: tuple[
        BookTransaction, ...
    ] = ()  # only with read_book(..., transactions=True)
    detached_load: bool = False  # loaded with the 4.13 split-list detacher (docs/ENGINE.md)
    documents: BookDocuments | None = None  # only with read_book(..., documents=True)
    sales_tax: BookSalesTax | None = None  # only with read_book(..., sales_tax=accounts)
    # issue 26, read through ctypes (app/gnc/extras.py); ``extras_unread``: why not, if so
    budgets: tuple[BookBudget, ...] = ()
    schedules: tuple[BookSchedule, ...] = ()
    reconciled: tuple[BookReconciled, ...] = ()  # the accounts with a last reconcile date
    extras_unread: str = ""
    # how many transactions each posted day holds (an update's proof takes those made in
    # GnuCash alone out of the first and last dates: app.update_proof.less)
    days: tuple[tuple[dt.date, int], ...] = ()

    def account(self, full_name: str) -> BookAccount | None:
        for a in self.accounts:
            if a.full_name == full_name:
                return a
        return None


@dataclass(frozen=True, slots=True)
class WriteStats:
    """What ``app.gnc.write_book`` wrote and how long each phase took.

    ``detached`` tells whether the 4.13 split-list detacher was used (see docs/ENGINE.md);
    ``fallback`` why not, when it was wanted. ``not_written`` names ledger data that GnuCash has
    no field for (e.g. employee notes), so the caller can show it instead of losing it silently.
    """

    accounts: int = 0
    transactions: int = 0
    splits: int = 0
    customers: int = 0
    jobs: int = 0
    vendors: int = 0
    employees: int = 0
    terms: int = 0
    detached: bool = False
    fallback: str = ""
    not_written: tuple[str, ...] = ()
    budgets: int = 0  # issue 26: budgets and scheduled transactions written, reconcile dates set
    schedules: int = 0
    reconciled: int = 0
    seconds: tuple[tuple[str, float], ...] = ()  # (("accounts", 0.01), ("transactions", ...))
    apart: bool = False  # written in a child process (app.gnc.apart)


# the heading GnuCash's reports file the types qb2gnucash never writes under (one a user may
# choose in GnuCash's Edit Account within an account's group: Bank → Stock)
_OTHER_FAMILY = {"STOCK": "asset", "MUTUAL": "asset", "CURRENCY": "asset"}


def family_of(gnucash_type: str) -> str | None:
    """The family of a GnuCash type name as the engine gives it ("BANK", "STOCK"...); None for
    one reported apart (TRADING) or unknown."""
    try:
        return AccountType(gnucash_type).family
    except ValueError:
        return _OTHER_FAMILY.get(gnucash_type)
