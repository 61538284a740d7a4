"""The open items part of the documents proof, beside each owner's open balance
(``app.documents.proof``): the aging of every owner's open items and the reconciliation of A/R
and A/P, QuickBooks against GnuCash (``app.documents.aging``), each document's open amount
against the Open Invoices / Unpaid Bills report's row for it, and the probable cause of each
owner's difference.

Each document is compared on its own: two invoices of one customer in one aging bucket, one
open by 100.00 more and the other by 100.00 less than the report says, leave the owner's
balance and buckets equal, and the book was called matching QuickBooks (hunt 10: a report the
history cannot reproduce, and an update that linked a credit to a bill already paid). Pure: the
core's documents and a read-back summary (``app.book.BookDocuments``).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Collection, Mapping
from dataclasses import replace
from decimal import Decimal

from app.book import BookDocuments
from app.documents import aging, end_owner, selection
from app.documents.owner_causes import DocumentOpen, owner_cause
from app.documents.proof import DocumentsProof
from app.documents.report_rows import open_amounts

ZERO = Decimal(0)


def with_open_items(
    proof: DocumentsProof,
    as_of: dt.date | None,
    balances: Mapping[str, Decimal],
    docs: selection.Selection,
    book: BookDocuments,
    *,
    onto: tuple[str, ...] = (),
) -> DocumentsProof:
    """``proof`` with the aging, the reconciliation, the documents whose open amounts differ
    and each owner's probable cause (``balances``: QuickBooks' figure of each account;
    ``onto``: the accounts the plan put on A/R or A/P, ``mapping_owed.put_onto``)."""
    items = docs.derived.open_items
    reported = docs.derived.reported
    rows = aging.aging_rows(items, book.open_lots, as_of, reported) if as_of else ()
    recs = aging.reconcile(book.controls, balances, items, reported, onto)
    differ = documents_differ(docs, book, reported)
    proof = replace(proof, aging=rows, reconciliation=recs, documents_differ=differ)
    no_lot = {r.owner_kind: r.gnucash_no_lot for r in recs}
    # the report could not be reproduced from the history: payments went oldest first
    guessed: dict[tuple[str, str], str] = {  # → why the report could not be used ("": none)
        (r.owner_kind, r.owner): r.why
        for r in docs.allocation.rules
        if r.rule == "oldest first" or (r.owner_kind in reported and r.rule != "open items report")
    }
    differs = {(r.kind, r.owner) for r in proof.differences}
    causes = []
    for kind, owner in proof.allocated:
        unmatched = [
            i for i in docs.allocation.unmatched if (i.owner_kind, i.owner) == (kind, owner)
        ]
        causes.append(
            owner_cause(
                kind,
                owner,
                total_differs=(kind, owner) in differs,
                unmatched=unmatched,
                no_lot=no_lot.get(kind, ZERO),
                guessed=(kind, end_owner(kind, owner)) in guessed,
                why=guessed.get((kind, end_owner(kind, owner)), ""),
                no_control=kind not in {c.owner_kind for c in book.controls if c.accounts},
                onto=onto,
                documents=[d for d in differ if (d.owner_kind, d.owner) == (kind, owner)],
            )
        )
    return replace(proof, causes=tuple(causes))


def documents_differ(
    docs: selection.Selection, book: BookDocuments, reported: Collection[str]
) -> tuple[DocumentOpen, ...]:
    """Each document the book holds, of a side whose open-items report was given, whose open
    amount is not the report's (a document the report does not list is paid: 0.00)."""
    if not reported:
        return ()
    qb_open = open_amounts(docs.derived, reported)[0]
    meant: dict[tuple[str, str, str], Decimal] = defaultdict(Decimal)
    sides: dict[tuple[str, str, str], str] = {}
    for d in docs.docs.documents:
        if not d.voided and d.owner_kind in reported:
            meant[d.kind, d.owner, d.id] += qb_open.get(d.transaction, ZERO)
            sides[d.kind, d.owner, d.id] = d.owner_kind
    held: dict[tuple[str, str, str], Decimal] = defaultdict(Decimal)
    for b in book.documents:
        if (b.kind, b.owner, b.id) in meant:
            held[b.kind, b.owner, b.id] += b.open
    out = [
        DocumentOpen(sides[key], key[1], key[0], key[2], amount, held[key])
        for key, amount in meant.items()
        if key in held and held[key] != amount
    ]
    return tuple(sorted(out, key=lambda d: (d.owner_kind, d.owner.casefold(), d.kind, d.id)))
