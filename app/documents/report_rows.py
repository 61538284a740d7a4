"""An Open Invoices / Unpaid Bills Detail report's rows joined to the history's documents and
payments (``open_amounts``): what each one still has open, QuickBooks' due date of each
document it lists, and the rows found in no transaction of the files. Pure: the core's
documents and open items (``app.documents.allocate`` uses it)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Collection
from decimal import Decimal

from app.business import OpenItem
from app.documents import Document, Documents, Payment, is_document_word
from app.model import Problem, money

ZERO = Decimal(0)


def open_amounts(
    docs: Documents, reported: Collection[str]
) -> tuple[dict[int, Decimal], list[Problem], list[OpenItem], dict[int, dt.date]]:
    """Report rows joined to documents and payments (by Trans #, else owner + date + num, a
    document's row to a document first: an invoice and a payment of one customer may share a
    day and a number): transaction index → open amount, positive in the document's (credit's)
    own sense."""
    by_ref: dict[tuple[str, str], int] = {}
    by_key: dict[tuple[str, str, object, str], list[int]] = defaultdict(list)
    documents = {d.transaction for d in docs.documents}
    sense: dict[int, int] = {}
    records: list[Document | Payment] = [*docs.documents, *docs.payments]
    for r in records:
        if r.voided or r.owner_kind not in reported:
            continue
        if r.ref:
            by_ref[r.owner_kind, r.ref] = r.transaction
        by_key[r.owner_kind, r.owner, r.date, r.num].append(r.transaction)
        credit = r.credit if isinstance(r, Document) else r.amount > 0  # else: a charge
        sense[r.transaction] = -1 if credit else 1
    out: dict[int, Decimal] = {}
    problems: list[Problem] = []
    unmatched: list[OpenItem] = []
    due: dict[int, dt.date] = {}
    for item in docs.open_items:
        key = by_ref.get((item.owner_kind, item.ref)) if item.ref else None
        if key is None:
            hits = by_key.get((item.owner_kind, item.owner, item.date, item.num), [])
            free = [h for h in hits if h not in out]
            row_is_document = is_document_word(item.kind_label)
            key = next((h for h in free if (h in documents) == row_is_document), None)
            key = free[0] if key is None and free else key
        if key is None:
            problems.append(
                Problem(
                    item.source,
                    f"open {item.kind_label} of {item.owner} ({money(item.open)}) is not in the "
                    "transaction history: its owner's payments are applied oldest first",
                    "warning",
                )
            )
            unmatched.append(item)
            continue
        out[key] = out.get(key, ZERO) + sense[key] * item.open
        if item.due is not None and key in documents:
            due[key] = item.due
    return out, problems, unmatched, due
