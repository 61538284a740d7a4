"""Aging and the A/R and A/P reconciliation: the open-items part of the proof, side by side.

Aging: every open item of a customer, job or vendor falls in one of five buckets by how many
days past due it is on the day QuickBooks' figures are from (``as_of``): current (not yet due),
1-30, 31-60, 61-90, over 90. QuickBooks' side is its Open Invoices / Unpaid Bills Detail
report: its Aging column where printed, else the days from the row's Due Date (a payment, a
credit or a journal entry has none: from its own date) to ``as_of``; a report with neither
column for a side says nothing of its documents' ages, so only each owner's total is compared
(``AgingRow.totals_only``). GnuCash's side is the
book's open lots read back through the engine (``app.book.BookLot``): a document's lot from its
due date, an owner's own lot (a payment, a credit, a journal charge) from its date, the rule
GnuCash's aging reports follow by default. Amounts are owed sense: what a customer owes us, what
we owe a vendor, positive.

Reconciliation: each side's control accounts (all A/R, all A/P) against what the open items
make of them: QuickBooks' trial balance = the report's total + what the report does not list;
GnuCash's balance = open documents + the owners' own lots + lines in no lot (a line that names
no one). "A/P 12,392.33 = open bills 11,979.74 + journal lines on A/P 412.59".

Pure: the core's open items and the book's read-back dataclasses; no gnucash import. What it
relies on: docs/DOCUMENTS.md, "Aging and the A/R and A/P reconciliation".
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from app.book import BookControl, BookLot
from app.business import OpenItem
from app.documents import is_document_word
from app.model import money
from app.quickbooks import BILL_WORDS, INVOICE_WORDS
from app.words import CONTROLS

ZERO = Decimal(0)
BUCKETS = ("Current", "1-30", "31-60", "61-90", "Over 90")
Buckets = tuple[Decimal, Decimal, Decimal, Decimal, Decimal]
EMPTY: Buckets = (ZERO, ZERO, ZERO, ZERO, ZERO)
SIDE_WORDS = {  # owner kind → (control account, its documents, the report, the owner)
    "customer": (
        CONTROLS["RECEIVABLE"],
        "open invoices and credit memos",
        "Open Invoices report",
        "customer",
    ),
    "vendor": (CONTROLS["PAYABLE"], "open bills and bill credits", "Unpaid Bills report", "vendor"),
}


def bucket(days: int) -> int:
    """Which of the five buckets ``days`` past due falls in (0 or less: current)."""
    if days <= 0:
        return 0
    return 1 if days <= 30 else 2 if days <= 60 else 3 if days <= 90 else 4


def _add(into: dict[tuple[str, str], list[Decimal]], key: tuple[str, str], days: int, v: Decimal):
    row = into.setdefault(key, [ZERO] * len(BUCKETS))
    row[bucket(days)] += v


_DUE_WORDS = INVOICE_WORDS | BILL_WORDS  # the rows that fall due (not credits, payments)


def quickbooks_aging(
    items: Iterable[OpenItem], as_of: dt.date, from_date: set[str] | frozenset[str] = frozenset()
) -> dict[tuple[str, str], Buckets]:
    """(kind, owner) → its report rows' open amounts by bucket (a row with no Aging figure from
    its due date, or from its own date on the sides ``from_date`` ages so: ``aged_from_date``;
    an invoice or bill with neither, in a report with an Aging column, is current: QuickBooks
    leaves the figure blank until the due date has passed)."""
    items = list(items)
    columned = {i.owner_kind for i in items if i.aging is not None}
    out: dict[tuple[str, str], list[Decimal]] = {}
    for item in items:
        day = item.date if item.owner_kind in from_date else (item.due or item.date)
        days = item.aging if item.aging is not None else (as_of - day).days
        if item.aging is None and item.due is None and item.owner_kind in columned:
            days = 0 if " ".join(item.kind_label.split()).upper() in _DUE_WORDS else days
        _add(out, (item.owner_kind, item.owner), days, item.open)
    return {k: tuple(v) for k, v in out.items()}  # type: ignore[misc]


def aged_from_date(items: Iterable[OpenItem], as_of: dt.date) -> set[str]:
    """The sides ("customer", "vendor") whose report ages every row from its own date, not its
    due date (QuickBooks' company preference "Age from transaction date", Reports & Graphs):
    each row with an Aging figure and a due date of another day is as many days past its date,
    none is past its due date by it."""
    out = set()
    for side in ("customer", "vendor"):
        told = [
            i
            for i in items
            if i.owner_kind == side and i.aging is not None and i.due and i.due != i.date
        ]
        by_date = all(i.aging == (as_of - i.date).days for i in told)
        if told and by_date and any(i.aging != (as_of - i.due).days for i in told if i.due):
            out.add(side)
    return out


def gnucash_aging(
    lots: Iterable[BookLot], as_of: dt.date, from_date: set[str] | frozenset[str] = frozenset()
) -> dict[tuple[str, str], Buckets]:
    """(kind, owner) → its open lots by bucket, from each lot's due date (``from_date``: the
    sides aged from each lot's own date, as their QuickBooks report is)."""
    out: dict[tuple[str, str], list[Decimal]] = {}
    for lot in lots:
        day = lot.date if lot.owner_kind in from_date else (lot.due or lot.date)
        _add(out, (lot.owner_kind, lot.owner), (as_of - day).days, lot.open)
    return {k: tuple(v) for k, v in out.items()}  # type: ignore[misc]


REPORT_COLUMNS = ("Pre-Payment", "Current", "0-30 days", "31-60 days", "61-90 days", "91+ days")
ReportRow = tuple[Decimal, Decimal, Decimal, Decimal, Decimal, Decimal]


def report_aging(lots: Iterable[BookLot], as_of: dt.date) -> dict[tuple[str, str], ReportRow]:
    """(kind, customer or vendor) → what GnuCash's own Receivable (Payable) Aging report shows
    for it with To set to ``as_of`` (its ``REPORT_COLUMNS``, its Total their sum): a job's
    lots under its customer; a document's open amount by its due date as GnuCash keeps it,
    a credit note's too (current while due after ``as_of``, then 0-29 days past due in
    "0-30 days", 30-59 in "31-60", 60-89 in "61-90", 90 and more in "91+": the report
    counts from the end of ``as_of``); a payment's unapplied amount under Pre-Payment; any
    other own lot of the owner (a journal line naming it) not at all. What it relies on:
    docs/DOCUMENTS.md, "GnuCash's own aging reports"."""
    out: dict[tuple[str, str], list[Decimal]] = {}
    for lot in lots:
        if lot.document and lot.report_due is not None:
            days = (as_of - lot.report_due).days
            column = 1 if days < 0 else 2 + min(days // 30, 3)
        elif lot.payment:
            column = 0
        else:
            continue
        key = (lot.owner_kind, lot.owner.split(":", 1)[0])  # (QuickBooks' names hold no ':')
        out.setdefault(key, [ZERO] * len(REPORT_COLUMNS))[column] += lot.open
    return {k: tuple(v) for k, v in out.items()}  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class AgingRow:
    owner_kind: str  # "customer" (a job too) / "vendor"
    owner: str
    quickbooks: Buckets | None  # None: no open-items report for this side
    gnucash: Buckets
    # the report prints no Due Date or Aging for this side's documents: QuickBooks' ages are
    # not known, only its totals are compared
    totals_only: bool = False
    from_date: bool = False  # the report ages from each item's date: GnuCash's side too

    @property
    def ok(self) -> bool:
        if self.quickbooks is None:
            return True
        if self.totals_only:
            return sum(self.quickbooks) == sum(self.gnucash)
        return self.quickbooks == self.gnucash

    @property
    def total_differs(self) -> bool:
        return self.quickbooks is not None and sum(self.quickbooks) != sum(self.gnucash)


def aging_rows(
    items: Iterable[OpenItem], lots: Iterable[BookLot], as_of: dt.date, reported: Iterable[str]
) -> tuple[AgingRow, ...]:
    """One row per owner with something open on either side, customers first, by name;
    ``reported``: the sides ("customer", "vendor") an open-items report was given for."""
    items = list(items)
    from_date = aged_from_date(items, as_of)
    qb, gnc = quickbooks_aging(items, as_of, from_date), gnucash_aging(lots, as_of, from_date)
    sides = set(reported)
    dated = {i.owner_kind for i in items if i.due is not None or i.aging is not None}
    keys = sorted(
        (k for k in set(qb) | set(gnc) if any(qb.get(k, EMPTY)) or any(gnc.get(k, EMPTY))),
        key=lambda k: (k[0] != "customer", k[1].casefold()),
    )
    return tuple(
        AgingRow(
            k[0],
            k[1],
            qb.get(k, EMPTY) if k[0] in sides else None,
            gnc.get(k, EMPTY),
            totals_only=k[0] not in dated,
            from_date=k[0] in from_date,
        )
        for k in keys
    )


def totals(rows: Iterable[AgingRow], owner_kind: str) -> tuple[Buckets | None, Buckets]:
    """A side's totals by bucket: QuickBooks' (None without its report) and GnuCash's."""
    mine = [r for r in rows if r.owner_kind == owner_kind]
    qb = None if any(r.quickbooks is None for r in mine) else _sum(r.quickbooks for r in mine)
    return qb, _sum(r.gnucash for r in mine)


def _sum(rows: Iterable[Buckets | None]) -> Buckets:
    out = [ZERO] * len(BUCKETS)
    for row in rows:
        for i, v in enumerate(row or EMPTY):
            out[i] += v
    return tuple(out)  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Reconciliation:
    """One side's control accounts, owed sense, QuickBooks and GnuCash taken apart."""

    owner_kind: str
    accounts: tuple[str, ...]
    quickbooks_balance: Decimal  # the trial balance's figure of those accounts
    report_documents: Decimal | None  # the report's invoice (bill) and credit rows; None: none
    report_other: Decimal  # its payment and journal rows
    gnucash_balance: Decimal
    gnucash_documents: Decimal  # open documents' lots
    gnucash_owners: Decimal  # the owners' own lots: payments, credits, journal charges
    gnucash_no_lot: Decimal  # lines in no lot: naming no one
    # what the Map step put on the control ("'Undeposited Funds' merged into A/R"): its figure
    # is in ``quickbooks_balance`` and in no report (the book's doing, not QuickBooks')
    onto: tuple[str, ...] = ()

    @property
    def mapped(self) -> bool:
        """The Map step put other accounts on the control: what the report does not list may
        be theirs, or the report's own doing (hunt 25: a merge adding 0.00 took the whole
        blame for a report edited): both are said."""
        return bool(self.onto)

    @property
    def quickbooks_not_listed(self) -> Decimal:
        """What the trial balance holds that the report does not list."""
        listed = (self.report_documents or ZERO) + self.report_other
        return self.quickbooks_balance - listed if self.report_documents is not None else ZERO

    def quickbooks_line(self) -> str:
        """ "A/P 12,392.33 = Unpaid Bills report 12,392.33 (bills and bill credits 11,979.74,
        payments and journal entries 412.59)"."""
        control, _docs, report, _owner = SIDE_WORDS[self.owner_kind]
        head = f"QuickBooks: {control} {money(self.quickbooks_balance)}"
        if self.onto:
            head += f" (as the Map step made it: {', '.join(self.onto)})"
        if self.report_documents is None:
            return f"{head} (no {report} given: its open items cannot be compared)"
        listed = self.report_documents + self.report_other
        line = (
            f"{head} = {report} {money(listed)} ({documents_words(self.owner_kind)} "
            f"{money(self.report_documents)}, payments, credits and journal entries "
            f"{money(self.report_other)})"
        )
        if (rest := self.quickbooks_not_listed) > 0:
            line += f" + not listed in the report {money(rest)}"
        elif rest:  # (the report lists more than the trial balance holds: a row twice, edited)
            line += f" - listed in the report beyond the trial balance {money(-rest)}"
        return line

    def gnucash_line(self) -> str:
        """ "A/P 12,392.33 = open bills and bill credits 11,979.74 + vendors' payments, credits
        and journal entries 0.00 + journal lines on A/P naming no vendor 412.59"."""
        control, docs, _report, owner = SIDE_WORDS[self.owner_kind]
        line = (
            f"GnuCash: {control} {money(self.gnucash_balance)} = {docs} "
            f"{money(self.gnucash_documents)} + {owner}s' payments, credits and journal entries "
            f"{money(self.gnucash_owners)}"
        )
        if self.gnucash_no_lot:
            line += f" + lines on {control} naming no {owner} {money(self.gnucash_no_lot)}"
        return line


def documents_words(owner_kind: str) -> str:
    return "invoices and credit memos" if owner_kind == "customer" else "bills and bill credits"


def reconcile(
    controls: Iterable[BookControl],
    quickbooks_balances: Mapping[str, Decimal],
    items: Iterable[OpenItem],
    reported: Iterable[str] = (),
    onto: tuple[str, ...] = (),
) -> tuple[Reconciliation, ...]:
    """Each side the book has control accounts for; ``quickbooks_balances``: account → its
    trial-balance figure (debit positive); ``reported``: the sides whose report was given
    (one that lists nothing too); ``onto``: what the Map step put on A/R or A/P
    (``mapping_owed.put_onto``)."""
    listed: dict[str, list[Decimal]] = {side: [ZERO, ZERO] for side in reported}
    for item in items:
        pair = listed.setdefault(item.owner_kind, [ZERO, ZERO])
        pair[0 if is_document_word(item.kind_label) else 1] += item.open
    out = []
    for c in controls:
        sign = 1 if c.owner_kind == "customer" else -1
        qb = sign * sum((quickbooks_balances.get(a, ZERO) for a in c.accounts), ZERO)
        docs, other = listed.get(c.owner_kind, (None, ZERO))
        out.append(
            Reconciliation(
                c.owner_kind,
                c.accounts,
                qb,
                docs,
                other,
                c.balance,
                c.documents,
                c.owners,
                c.no_lot,
                tuple(o for o in onto if o.endswith(f" {SIDE_WORDS[c.owner_kind][0]}")),
            )
        )
    return tuple(out)
