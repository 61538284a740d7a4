"""Which documents the book gets (the plan's ``documents``: all, open items only, none), how each
payment's A/R (A/P) line is cut into pieces, and the ledger as the book holds it afterwards.

``select`` derives and allocates once; ``payment_pieces`` and ``links`` are what
``app.gnc.write_documents`` does to the written GL, and ``as_written`` is the same change made to
the final ledger, so the verification compares the book with exactly what was meant (no amount
in any account changes: a payment's pieces sum to its line, a lot link is zero-sum).

Mode "open": a document becomes a GnuCash document when something of it is still open (the
report, else the allocation, says so), and so does every settled one that shares a payment or
credit note with it (transitively): a payment's A/R line is then either wholly in lots (its
documents' and its unapplied rest's) or a plain transaction, never half of each. (A payment's
A/R piece outside any lot would count as unapplied money in GnuCash's aging reports, whose
payment-info takes a lot-less A/R split for an overpayment.) The settled groups with no open
part stay plain transactions. ``payment_pieces`` still gives such a plain piece for a document
that is not among ``docs``, for callers that choose documents themselves. Pure: the model and
``app.documents``.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, TypeVar

from app.documents import Document, Documents, Payment, derive
from app.documents.allocate import Allocation, allocate, unapplied
from app.model import Ledger, Problem, Reconcile, Split, Transaction
from app.openings import OPENING_KIND
from app.words import plural, quoted

T = TypeVar("T")
ZERO = Decimal(0)
LINK_KIND = "Lot link"  # kind_label of the zero-sum transactions that apply a credit note


@dataclass(frozen=True, slots=True)
class Piece:
    """One part of a payment's A/R (A/P) line: ``amount`` (a magnitude, the line's sign) in
    ``document``'s lot, or the owner's own lot (``rest``: unapplied), or in no lot (neither:
    paid a document that stays a plain transaction)."""

    amount: Decimal
    document: int | None = None  # the document's transaction index
    rest: bool = False


@dataclass(frozen=True, slots=True)
class Selection:
    mode: str  # "all" or "open"
    derived: Documents  # every document and payment in the history (QuickBooks' side)
    allocation: Allocation
    docs: Documents  # what becomes GnuCash documents (a subset in mode "open")
    open_amounts: dict[int, Decimal] = field(default_factory=dict)  # document txn → still open
    _kept: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def kept(self, key: Any, make: Callable[[], T]) -> T:
        """``make()``, once per key: for what is worked out from this selection alone (the
        Preview's view of it, made once however many plans share the selection)."""
        if key not in self._kept:
            self._kept[key] = make()
        return self._kept[key]

    @property
    def problems(self) -> tuple[Problem, ...]:
        return (*self.derived.problems, *self.allocation.problems)

    def pieces(self) -> dict[int, tuple[Piece, ...]]:
        """``payment_pieces`` of this selection, worked out once (the counts, the ledger as
        written and the proof each need them; 100,000 transactions: ~0.5 s a time)."""
        return self.kept("payment pieces", lambda: payment_pieces(self.docs, self.allocation))

    def counts(self) -> dict[str, int]:
        """What the book is to hold: documents by kind, "payment" (payments written as such),
        "link" (lot links), "open" (documents with something open)."""
        out: Counter[str] = Counter(d.kind for d in self.docs.documents if not d.voided)
        out["payment"] = sum(1 for p in self.pieces().values() if p)
        out["link"] = len(links(self.docs, self.allocation))
        out["open"] = sum(
            1 for d in self.docs.documents if not d.voided and self.open_amounts.get(d.transaction)
        )
        return dict(out)

    def history_counts(self) -> dict[str, int]:
        """Every document and payment of the history, and how many documents are still open."""
        out = self.derived.count()
        out["open"] = sum(
            1 for d in self.derived.documents if not d.voided and self.open_amounts[d.transaction]
        )
        return out

    def owner_open(self) -> dict[tuple[str, str], Decimal]:
        """(kind, owner: a job its own) → Σ open documents (credit notes negative)."""
        out: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
        for d in self.derived.documents:
            amount = self.open_amounts.get(d.transaction, ZERO)
            if amount and not d.voided:
                out[d.owner_kind, d.owner] += -amount if d.credit else amount
        return dict(out)


def select(ledger: Ledger, mode: str) -> tuple[Selection | None, tuple[Problem, ...]]:
    """The documents of ``ledger`` for ``mode`` (None for "none" or when the history has none
    that can be documents), and the problems found on the way."""
    if mode == "none":
        return None, ()
    derived = _listed(derive(ledger, skip=frozenset({OPENING_KIND})), ledger)
    if not derived.documents and not derived.payments and not derived.given:
        # (an open-items report that lists nothing is still compared: with A/R or A/P not
        # zero in the trial balance, QuickBooks' own two reports disagree)
        return None, derived.problems
    allocation = allocate(derived)
    if allocation.due_dates:  # QuickBooks' own due dates, where its report prints them
        due = dict(allocation.due_dates)
        derived = replace(
            derived,
            documents=tuple(
                replace(d, due=due[d.transaction]) if d.transaction in due else d
                for d in derived.documents
            ),
        )
    open_amounts = _open_amounts(derived, allocation)
    docs = derived if mode == "all" else _open_only(derived, allocation, open_amounts)
    chosen = Selection(mode, derived, allocation, docs, open_amounts)
    return chosen, chosen.problems


def _listed(docs: Documents, ledger: Ledger) -> Documents:
    """Only the documents and payments of customers (jobs) and vendors in the lists: GnuCash's
    documents need their owner. The others stay plain transactions, said in one warning; their
    report rows are left out of the comparison too."""
    known = {("vendor", v.name) for v in ledger.vendors}
    for c in ledger.customers:
        known |= {("customer", c.name), *(("customer", f"{c.name}:{j.name}") for j in c.jobs)}
    records: list[Document | Payment] = [*docs.documents, *docs.payments]
    missing = sorted({(r.owner_kind, r.owner) for r in records} - known)
    if not missing:
        return docs
    gone = set(missing)
    names = ", ".join(f"{k} {quoted(o)}" for k, o in missing[:3]) + (
        ", ..." if len(missing) > 3 else ""
    )
    n = sum(1 for r in records if (r.owner_kind, r.owner) not in known)
    problem = Problem(
        None,
        f"{plural(len(missing), 'name')} on A/R or A/P lines "
        f"{'are' if len(missing) != 1 else 'is'} not in the customer or vendor lists ({names}): "
        + (
            "its one invoice, bill or payment stays a plain transaction, not a GnuCash document"
            if n == 1
            else f"their {n:,} invoices, bills and payments stay plain transactions, not GnuCash "
            "documents"
        )
        + " (a document needs its customer or vendor in the lists export)",
        "warning",
    )
    return replace(
        docs,
        documents=tuple(d for d in docs.documents if (d.owner_kind, d.owner) in known),
        payments=tuple(p for p in docs.payments if (p.owner_kind, p.owner) in known),
        open_items=tuple(o for o in docs.open_items if (o.owner_kind, o.owner) not in gone),
        problems=(*docs.problems, problem),
    )


def before(selection: Selection, day: dt.date) -> Selection:
    """``selection`` as it stood on the day before ``day``: its documents and payments dated
    before it, paid as the whole history's allocation paid them (QuickBooks' open-items report,
    of a later day, guided it) by the credits dated before it. What an archive closed on that
    day leaves open, item by item as QuickBooks has it (``app.archive.open_at``)."""
    derived = selection.derived
    docs = replace(
        derived,
        documents=tuple(d for d in derived.documents if d.date < day),
        payments=tuple(p for p in derived.payments if p.date < day),
    )
    dated = {d.transaction for d in docs.documents} | {p.transaction for p in docs.payments}
    allocation = replace(
        selection.allocation,
        applications=tuple(
            a
            for a in selection.allocation.applications
            if a.credit in dated and a.document in dated
        ),
    )
    return Selection(selection.mode, docs, allocation, docs, _open_amounts(docs, allocation))


def _open_amounts(docs: Documents, allocation: Allocation) -> dict[int, Decimal]:
    """Document transaction → what is still open of it (its own sense), per the allocation."""
    applied: dict[int, Decimal] = defaultdict(Decimal)
    for a in allocation.applications:
        applied[a.document] += a.amount
    rest = unapplied(docs, allocation)
    return {
        d.transaction: ZERO
        if d.voided
        else rest[d.transaction]
        if d.credit
        else d.total - applied[d.transaction]
        for d in docs.documents
    }


def _open_only(
    docs: Documents, allocation: Allocation, open_amounts: dict[int, Decimal]
) -> Documents:
    """The documents still open, and every settled one that shares a payment or credit note with
    them (transitively): applications link documents and credits, and a group is kept whole when
    anything in it is open (a document, or a payment's unapplied rest)."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a in allocation.applications:
        parent[find(a.credit)] = find(a.document)
    rest = unapplied(docs, allocation)
    roots = {find(t) for t, v in open_amounts.items() if v}
    roots |= {find(p.transaction) for p in docs.payments if not p.voided and rest[p.transaction]}
    return replace(
        docs,
        documents=tuple(d for d in docs.documents if find(d.transaction) in roots),
        payments=tuple(  # a charge of a settled group stays plain, like its documents
            p for p in docs.payments if p.amount >= 0 or find(p.transaction) in roots
        ),
    )


def payment_pieces(docs: Documents, allocation: Allocation) -> dict[int, tuple[Piece, ...]]:
    """Payment transaction → the pieces its A/R (A/P) line becomes; () leaves it plain (voided,
    zero, or in mode "open" only paying documents that stay plain). A charge's line is one
    piece, its own lot (``rest``), which the payments of it join as they join a document's."""
    kept = {d.transaction for d in docs.documents if not d.voided}
    kept |= {p.transaction for p in docs.payments if not p.voided and p.amount < 0}
    parts: dict[int, list[Piece]] = defaultdict(list)
    loose: dict[int, Decimal] = defaultdict(Decimal)
    for a in allocation.applications:
        if a.document in kept:
            parts[a.credit].append(Piece(a.amount, a.document))
        else:
            loose[a.credit] += a.amount
    rest = unapplied(docs, allocation)
    out: dict[int, tuple[Piece, ...]] = {}
    for p in docs.payments:
        if p.voided:
            continue
        if p.amount < 0:
            out[p.transaction] = (Piece(-p.amount, rest=True),)
            continue
        left = rest[p.transaction]
        pieces = list(parts.get(p.transaction, ()))
        if not pieces and not left:
            out[p.transaction] = ()
            continue
        if loose.get(p.transaction):
            pieces.append(Piece(loose[p.transaction]))
        if left:
            pieces.append(Piece(abs(left), rest=True))
        out[p.transaction] = tuple(pieces)
    return out


def links(
    docs: Documents, allocation: Allocation
) -> list[tuple[Document, Document | Payment, Decimal]]:
    """(credit note, document or charge, amount) for each credit note applied to a document or
    a charge: one lot-link transaction each."""
    by_txn = {d.transaction: d for d in docs.documents if not d.voided}
    owed: dict[int, Document | Payment] = {
        **by_txn,
        **{p.transaction: p for p in docs.payments if not p.voided and p.amount < 0},
    }
    return [
        (by_txn[a.credit], owed[a.document], a.amount)
        for a in allocation.applications
        if a.credit in by_txn and a.document in owed
    ]


def as_written(ledger: Ledger, selection: Selection | None) -> Ledger:
    """``ledger`` as the book holds it after the documents pass: each payment's A/R (A/P) line
    cut into its pieces (memo and reconcile state kept), one zero-sum lot-link transaction per
    credit note applied. What the verification compares the book with."""
    if selection is None:
        return ledger
    docs, alloc = selection.docs, selection.allocation
    txns = list(ledger.transactions)
    cuts = selection.pieces()
    for p in docs.payments:
        pieces = cuts.get(p.transaction, ())
        if not pieces:
            continue
        txn = txns[p.transaction]
        post = next(s for s in txn.splits if s.account == p.account)
        sign = 1 if post.value > 0 else -1
        cut = [replace(post, value=sign * piece.amount) for piece in pieces]
        splits = [s for s in txn.splits if s is not post]
        txns[p.transaction] = replace(txn, splits=(*splits, *cut))
    for cn, doc, amount in links(docs, alloc):
        side = 1 if cn.owner_kind == "customer" else -1
        txns.append(
            Transaction(
                cn.date,
                (
                    Split(doc.account, -side * amount, cn.source, reconcile=Reconcile.NEW),
                    Split(cn.account, side * amount, cn.source, reconcile=Reconcile.NEW),
                ),
                cn.source,
                description=cn.owner,
                kind_label=LINK_KIND,
            )
        )
    return replace(ledger, transactions=tuple(txns))


__all__ = ["LINK_KIND", "Piece", "Selection", "as_written", "links", "payment_pieces", "select"]
