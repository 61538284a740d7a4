"""The Preview step's invoices and bills: what the history's documents become (counts, each
customer's and vendor's open balance as QuickBooks has it, the rule that applied payments, the
first problems). A view model like the rest of ``app.pages.preview``; no Flask here."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from app.documents.proof import quickbooks_open
from app.documents.selection import Selection
from app.words import plural

DOCUMENT_KINDS = (
    ("invoice", "Invoices"),
    ("bill", "Bills"),
    ("credit_note_customer", "Customer credit notes"),
    ("credit_note_vendor", "Vendor credit notes"),
    ("payment", "Payments"),
)
SHOWN_DOCUMENT_PROBLEMS = 10


@dataclass(frozen=True, slots=True)
class OwnerOpen:
    kind: str  # "customer" / "vendor"
    owner: str  # a customer, a job (``Customer:Job``) or a vendor
    open: Decimal  # what QuickBooks says is open: owed to us (customer) or by us (vendor)


@dataclass(frozen=True, slots=True)
class DocumentsView:
    """The "Invoices and bills" part of the Preview (and the CLI's summary line)."""

    mode: str  # the plan's documents setting
    counts: tuple[tuple[str, int], ...]  # (label, how many in the history)
    documents: int  # invoices, bills and credit notes in the history
    open: int  # of which something is still open
    written: int  # that become GnuCash documents
    payments: int  # payments that become GnuCash payments (applied to documents)
    history_payments: int  # payments in the history
    owners: tuple[OwnerOpen, ...]  # owners with an open balance, customers first, largest first
    basis: str  # where QuickBooks' open balances come from, in words
    notes: tuple[str, ...]  # how payments were applied, where it is a guess
    problems: tuple[str, ...]  # the first few problems found on the way
    more_problems: int

    @property
    def customers(self) -> tuple[OwnerOpen, ...]:
        return tuple(o for o in self.owners if o.kind == "customer")

    @property
    def vendors(self) -> tuple[OwnerOpen, ...]:
        return tuple(o for o in self.owners if o.kind == "vendor")

    @property
    def customer_total(self) -> Decimal:
        return sum((o.open for o in self.customers), Decimal(0))

    @property
    def vendor_total(self) -> Decimal:
        return sum((o.open for o in self.vendors), Decimal(0))

    def summary(self) -> str:
        """ "Invoices and bills: 212 (40 open), payments 180"; in mode "open" what of it
        becomes documents."""
        head = f"Invoices and bills: {self.documents:,} ({self.open:,} open), payments "
        if self.mode != "open":
            return f"{head}{self.payments:,}"
        return (
            f"{head}{self.history_payments:,}; open items only: {self.written:,} become GnuCash "
            f"documents with {self.payments:,} payments (the open ones and the paid ones that "
            "share a payment with them), the others stay plain transactions"
        )


def documents_view(selection: Selection | None) -> DocumentsView | None:
    """What the history's invoices, bills and payments become; None when there are none (or
    the plan says none)."""
    if selection is None:
        return None
    return selection.kept("documents_view", lambda: _view(selection))


def _view(selection: Selection) -> DocumentsView:
    history = selection.history_counts()
    meant = selection.counts()
    qb = quickbooks_open(selection.derived)
    owners = sorted(
        (OwnerOpen(kind, owner, amount) for (kind, owner), (amount, _b) in qb.items() if amount),
        key=lambda o: (o.kind != "customer", -abs(o.open), o.owner),
    )
    bases = {b for _a, b in qb.values()}
    basis = (
        "the Open Invoices / Unpaid Bills report"
        if bases == {"report"}
        else "the history's A/R and A/P lines (no open-items report)"
        if bases == {"history"}
        else "the open-items report where given, else the history"
    )
    guessed = [r for r in selection.allocation.rules if r.rule == "oldest first"]
    notes: tuple[str, ...] = ()
    if guessed:
        n = len(guessed)
        notes = (
            f"Payments of {plural(n, 'customer or vendor', 'customers or vendors')} are applied "
            "oldest first (QuickBooks' exports do not say which invoice a payment paid; the "
            "Open Invoices / Unpaid Bills report would): each one's open balance is exact, "
            "which of its documents are open is a best guess.",
        )
    problems = [str(p) for p in selection.problems]
    return DocumentsView(
        mode=selection.mode,
        counts=tuple((label, history.get(k, 0)) for k, label in DOCUMENT_KINDS if history.get(k)),
        documents=sum(v for k, v in history.items() if k not in ("payment", "open")),
        open=history.get("open", 0),
        written=sum(v for k, v in meant.items() if k not in ("payment", "link", "open")),
        payments=meant.get("payment", 0),
        history_payments=history.get("payment", 0),
        owners=tuple(owners),
        basis=basis,
        notes=notes,
        problems=tuple(problems[:SHOWN_DOCUMENT_PROBLEMS]),
        more_problems=max(0, len(problems) - SHOWN_DOCUMENT_PROBLEMS),
    )
