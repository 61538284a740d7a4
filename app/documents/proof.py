"""The documents part of the proof: per customer and per vendor, the open balance GnuCash holds
in the documents' (and owners') lots, read back through the engine, against QuickBooks' — the
Open Invoices / Unpaid Bills report when given, else the history's named A/R and A/P postings.

Pure: the core's documents and a read-back summary (``app.gnc.BookDocuments`` or any
object with ``owner_open``); no gnucash import.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from app import csvsafe
from app.documents import Documents, end_owner

ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class OwnerRow:
    owner: str  # end owner (a customer with its jobs, or a vendor)
    kind: str  # "customer" / "vendor"
    quickbooks_open: Decimal
    gnucash_open: Decimal
    basis: str  # "report" or "history": where QuickBooks' figure comes from

    @property
    def difference(self) -> Decimal:
        return self.gnucash_open - self.quickbooks_open


def quickbooks_open(docs: Documents) -> dict[tuple[str, str], tuple[Decimal, str]]:
    """(kind, end owner) → (open balance, basis): what the owner owes (we owe the vendor)."""
    out: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    reported = {o.owner_kind for o in docs.open_items}
    for o in docs.open_items:
        out[o.owner_kind, end_owner(o.owner_kind, o.owner)] += o.open
    for d in docs.documents:
        if d.owner_kind not in reported and not d.voided:
            out[d.owner_kind, end_owner(d.owner_kind, d.owner)] += -d.total if d.credit else d.total
    for p in docs.payments:
        if p.owner_kind not in reported and not p.voided:
            out[p.owner_kind, end_owner(p.owner_kind, p.owner)] -= p.amount
    return {k: (v, "report" if k[0] in reported else "history") for k, v in out.items()}


def compare(
    docs: Documents, gnucash_open: Mapping[tuple[str, str], Decimal]
) -> tuple[OwnerRow, ...]:
    """One row per owner present on either side, sorted by kind and owner."""
    qb = quickbooks_open(docs)
    rows = []
    for key in sorted(set(qb) | set(gnucash_open)):
        amount, basis = qb.get(
            key,
            (ZERO, "report" if any(o.owner_kind == key[0] for o in docs.open_items) else "history"),
        )
        rows.append(OwnerRow(key[1], key[0], amount, gnucash_open.get(key, ZERO), basis))
    return tuple(rows)


def documents_report(rows: tuple[OwnerRow, ...]) -> str:
    """The second proof file: ``owner,kind,quickbooks_open,gnucash_open,difference``."""
    header = ("owner", "kind", "quickbooks_open", "gnucash_open", "difference")
    body = (
        (r.owner, r.kind, *(f"{v:.2f}" for v in (r.quickbooks_open, r.gnucash_open, r.difference)))
        for r in rows
    )
    return csvsafe.text((header, *body))


def ok(rows: tuple[OwnerRow, ...]) -> bool:
    return all(r.difference == 0 for r in rows)
