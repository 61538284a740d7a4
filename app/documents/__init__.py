"""Invoices, bills, credit notes and payments, in GnuCash's words, derived from the ledger.

QuickBooks' exports hold every document as a transaction: an A/R posting with a customer (or
``Customer:Job``) name is a customer invoice (a credit memo: a credit note), an A/P posting with
a vendor name a vendor bill (a bill credit: a credit note), the other A/R and A/P postings with
a name are payments (received, or made to a vendor) or, with the other sign, charges (a journal
entry's debit to A/R). The owner is the name on the A/R (A/P) line itself (``Split.owner``),
else the transaction's: a journal entry may name a customer on its income line and a vendor on
its A/P line. Nothing here is written twice: a document
*adopts* its GL transaction (``transaction`` = its index in ``ledger.transactions``), which
``app.gnc.documents`` turns into the invoice's posting. Pure: stdlib and the model only.

Signs: a document's ``total`` and its lines are positive in the document's own sense; a
payment's ``amount`` is positive for money received from a customer or paid to a vendor.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections import Counter
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Literal

from app.business import REPORT_SIDES, BillTerm, OpenItem
from app.model import AccountType, Ledger, Problem, Transaction
from app.quickbooks import (
    BILL_WORDS,
    CUSTOMER_CREDIT_WORDS,
    INVOICE_WORDS,
    VENDOR_CREDIT_WORDS,
    is_document_word,
)
from app.source import Source
from app.words import quoted

__all__ = [
    "Document",
    "Documents",
    "Line",
    "OpenItem",
    "Payment",
    "derive",
    "end_owner",
    "is_document_word",
]

DocKind = Literal["invoice", "bill", "credit_note_customer", "credit_note_vendor"]
OwnerKind = Literal["customer", "vendor"]
ZERO = Decimal(0)
ONE = Decimal(1)

_PAYMENTS = frozenset(
    {"PAYMENT", "BILL PMT -CHECK", "BILL PMT -CCARD", "BILL PMT -CHEQUE", "BILLPMT"}
)


@dataclass(frozen=True, slots=True)
class Line:
    """One entry of a document: ``amount`` = ``quantity`` × ``price`` (positive, document sense)."""

    description: str
    account: str
    quantity: Decimal
    price: Decimal
    amount: Decimal
    source: Source


@dataclass(frozen=True, slots=True)
class Document:
    kind: DocKind
    id: str  # QuickBooks Num, or a made-up one (said in notes) when missing or repeated
    owner: str  # customer, Customer:Job or vendor full name
    date: dt.date
    due: dt.date
    terms: str  # BillTerm name, "" when none
    lines: tuple[Line, ...]
    total: Decimal  # positive; the sum of the lines
    transaction: int  # index in ledger.transactions: the GL transaction it adopts
    account: str  # the A/R or A/P account holding its posting
    source: Source
    num: str = ""  # QuickBooks Num as in the file
    ref: str = ""  # QuickBooks Trans #
    notes: str = ""
    voided: bool = False

    @property
    def owner_kind(self) -> OwnerKind:
        return "vendor" if self.kind in ("bill", "credit_note_vendor") else "customer"

    @property
    def credit(self) -> bool:
        """A credit note: it lowers what the owner owes (or what we owe the vendor)."""
        return self.kind.startswith("credit_note")


@dataclass(frozen=True, slots=True)
class Payment:
    """A payment (or another named A/R / A/P posting: journal, refund cheque) of one owner.
    ``amount`` < 0 is a charge that is no document (a refund, a journal debit)."""

    owner_kind: OwnerKind
    owner: str
    date: dt.date
    amount: Decimal
    transaction: int
    account: str
    source: Source
    kind_label: str = ""
    num: str = ""
    ref: str = ""
    memo: str = ""  # the A/R (A/P) line's memo, where a document number may be named
    voided: bool = False


@dataclass(frozen=True, slots=True)
class Documents:
    documents: tuple[Document, ...] = ()
    payments: tuple[Payment, ...] = ()
    open_items: tuple[OpenItem, ...] = ()
    problems: tuple[Problem, ...] = ()
    # the sides ("customer", "vendor") whose open-items report was given, listing nothing too
    # (every document of the side paid): None, the sides its rows name
    given: frozenset[str] | None = None

    @property
    def reported(self) -> frozenset[str]:
        """The sides QuickBooks' open amounts come from a report for (else from the history)."""
        named = frozenset(o.owner_kind for o in self.open_items)
        return named if self.given is None else self.given | named

    def count(self) -> dict[str, int]:
        """Counts by kind (documents) plus "payment", voided ones not counted."""
        out: Counter[str] = Counter(d.kind for d in self.documents if not d.voided)
        out["payment"] = sum(1 for p in self.payments if not p.voided)
        return dict(out)


def end_owner(owner_kind: str, owner: str) -> str:
    """The customer a job belongs to (GnuCash's end owner); a vendor is its own."""
    return owner.split(":", 1)[0] if owner_kind == "customer" else owner


def derive(ledger: Ledger, *, skip: frozenset[str] = frozenset()) -> Documents:
    """Every document and payment the final ledger's transactions hold (those whose kind_label
    is in ``skip`` are none: the cutover's opening transaction)."""
    types = {a.full_name: a.type for a in ledger.accounts}
    terms = {t.name: t for t in ledger.terms}
    owner_terms = _owner_terms(ledger)
    docs: list[Document] = []
    pays: list[Payment] = []
    problems: list[Problem] = []
    for i, txn in enumerate(ledger.transactions):
        if txn.kind_label in skip:
            continue
        posts = [
            s
            for s in txn.splits
            if types.get(s.account) in (AccountType.RECEIVABLE, AccountType.PAYABLE)
        ]
        if not posts:
            continue
        name = (posts[0].owner or txn.description).strip()  # the line's own name, else the entry's
        if not name and all(not s.owner for s in posts):
            continue  # no owner: plain GL, not part of the business layer
        if len(posts) > 1:
            problems.append(
                Problem(
                    txn.source,
                    f"{len(posts)} A/R or A/P lines in one transaction: kept as a plain "
                    "transaction, not a document or payment",
                    "warning",
                )
            )
            continue
        post = posts[0]
        kind_of: OwnerKind = (
            "customer" if types[post.account] is AccountType.RECEIVABLE else "vendor"
        )
        side = 1 if kind_of == "customer" else -1
        value = side * post.value  # > 0: the owner owes more
        word = txn.kind_label.strip().upper()
        kind = _kind(word, kind_of, value)
        if kind is None:
            pays.append(
                Payment(
                    kind_of,
                    name,
                    txn.date,
                    -value,
                    i,
                    post.account,
                    txn.source,
                    txn.kind_label,
                    txn.num,
                    txn.ref,
                    post.memo,
                    txn.voided,
                )
            )
            continue
        term = txn.terms or owner_terms.get((kind_of, name), "")
        due = txn.due or _due(txn.date, terms.get(term))
        same = -side * (1 if value >= 0 else -1) == 1  # the lines' sense is the splits' own
        lines = tuple(  # 1 × amount: the split's own Decimal where it can be (memory at 100k)
            Line(s.memo, s.account, ONE, amount, amount, s.source)
            for s in txn.splits
            if s is not post
            for amount in (s.value if same else -s.value,)
        )
        docs.append(
            Document(
                kind,
                txn.num,
                name,
                txn.date,
                due,
                term if term in terms else "",
                lines,
                abs(value),
                i,
                post.account,
                txn.source,
                num=txn.num,
                ref=txn.ref,
                notes=_notes(txn),
                voided=txn.voided,
            )
        )
    given = frozenset(REPORT_SIDES[f.layout] for f in ledger.files if f.layout in REPORT_SIDES)
    return Documents(
        tuple(_unique_ids(docs)), tuple(pays), ledger.open_items, tuple(problems), given
    )


def _kind(word: str, owner_kind: str, value: Decimal) -> DocKind | None:
    """The document kind of a named A/R (A/P) posting, None for a payment or other posting.
    A document whose amount has the credit's sign is a credit note of that owner."""
    if owner_kind == "customer":
        if word in INVOICE_WORDS:
            return "invoice" if value >= 0 else "credit_note_customer"
        if word in CUSTOMER_CREDIT_WORDS:
            return "credit_note_customer" if value <= 0 else "invoice"
        return None
    if word in BILL_WORDS:
        return "bill" if value >= 0 else "credit_note_vendor"
    if word in VENDOR_CREDIT_WORDS:
        return "credit_note_vendor" if value <= 0 else "bill"
    return None


def _owner_terms(ledger: Ledger) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for c in ledger.customers:
        out["customer", c.name] = c.terms
        for j in c.jobs:  # (a job's own terms: a job of another due date than its customer's)
            out["customer", f"{c.name}:{j.name}"] = j.terms or c.terms
    for v in ledger.vendors:
        out["vendor", v.name] = v.terms
    return out


def _due(date: dt.date, term: BillTerm | None) -> dt.date:
    """Due date from the terms, as GnuCash's gncBillTermComputeDueDate does."""
    if term is None:
        return date
    if term.kind != "proximo":
        return date + dt.timedelta(days=term.due_days)
    months = 1 if date.day <= (term.cutoff or 31) else 2
    y, m = divmod(date.month - 1 + months, 12)
    last = calendar.monthrange(date.year + y, m + 1)[1]
    return dt.date(date.year + y, m + 1, min(term.due_days or last, last))


def _notes(txn: Transaction) -> str:
    return f"QuickBooks {txn.kind_label} Trans # {txn.ref}" if txn.ref else txn.notes


def _unique_ids(docs: list[Document]) -> list[Document]:
    """IDs unique per owner kind: a missing or repeated Num gets a stable made-up one (from the
    Trans #, else the file line), said in the notes."""
    seen: Counter[tuple[str, str]] = Counter((d.owner_kind, d.id) for d in docs if d.id)
    out = []
    taken: set[tuple[str, str]] = set()
    for d in docs:
        key = (d.owner_kind, d.id)
        if d.id and seen[key] == 1:
            out.append(d)
            taken.add(key)
            continue
        base = f"QB{d.ref}" if d.ref else f"QB-{d.source.line}"
        new, n = base, 1
        while (d.owner_kind, new) in seen or (d.owner_kind, new) in taken:
            n += 1
            new = f"{base}-{n}"
        taken.add((d.owner_kind, new))
        why = f"QuickBooks Num {quoted(d.id)} is used twice" if d.id else "no QuickBooks Num"
        out.append(replace(d, id=new, notes=f"{d.notes}\n{why}: ID {new} made up".strip()))
    return out
