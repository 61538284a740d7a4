"""QuickBooks' later reconciliations in an update (pure; docs/UPDATE.md, "Reconciliations").

A run sets each bank and card account's last reconcile date from QuickBooks' last statement
(``app.statements``) and keeps that date in its record (``Record.statements``). An update
compares the book's own last reconcile date of the account with it, for each statement of the
later exports that ``app.statements`` could set:

- The book's date is the one the last run set: the reconciliation is QuickBooks'. So is a date
  not later than the statement's in a book whose record keeps none for the account (written
  before the record kept them), and no date at all. A later statement is carried (``Carried``):
  its date becomes the last reconcile date, and the lines QuickBooks has reconciled since are
  reconciled in the book on that date: those the run adds (with QuickBooks' marks) and those the
  book held not reconciled (neither cleared nor reconciled, or cleared only). A line the book
  reconciled stays as it is.
- Any other date: the account was reconciled in GnuCash since the last run
  (``ReconciledHere``). The book's reconciliation stays as it is; QuickBooks' statement is not
  compared, and the proof says so.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import replace
from decimal import Decimal

from app.model import Ledger, Reconcile, Split
from app.update import BookEntry, BookState, Carried, ReconciledHere, Work
from app.update_proof import unchanged

RECONCILED = Reconcile.RECONCILED.value


def carry(work: Work, ledger: Ledger, state: BookState) -> Work:
    """``work`` with QuickBooks' later reconciliations to carry, those made in GnuCash since,
    and the book's transactions whose lines QuickBooks has reconciled since marked so (the
    proof then expects those marks); names as the keys have them (``ledger``, ``state``)."""
    recorded = state.record.statements if state.record is not None else {}
    carried: list[Carried] = []
    here: list[ReconciledHere] = []
    wanted: dict[str, tuple[dt.date, dt.date | None]] = {}
    for s in ledger.statements:
        if not s.how:
            continue
        book = state.reconciled.get(s.account)
        if book is not None and book != recorded.get(s.account, min(book, s.date)):
            here.append(ReconciledHere(s.account, book, s.date))
        elif book is None or s.date > book:
            wanted[s.account] = (s.date, book)
    present = dict(work.present)
    lines: defaultdict[str, list[tuple[int, int]]] = defaultdict(list)
    for i, e in unchanged(work, ledger):
        t = ledger.transactions[i]
        if t.voided:
            continue
        places = _reconciled_since(
            e,
            [
                (s.account, s.value)
                for s in t.splits
                if s.reconcile.value == RECONCILED and s.account in wanted
            ],
        )
        if places:
            marks = list(e.marks)
            for j in places:
                marks[j] = RECONCILED
                lines[e.lines[j][0]].append((e.handle, j))
            present[i] = replace(e, marks="".join(marks))
    for account, (day, book) in wanted.items():
        carried.append(Carried(account, day, book, tuple(lines[account])))
    return replace(work, present=present, reconciled=tuple(carried), reconciled_here=tuple(here))


def _reconciled_since(e: BookEntry, ours: list[tuple[str, Decimal]]) -> list[int]:
    """The places of ``e``'s lines that QuickBooks reconciles (``ours``: account and amount of
    each of its lines marked so) and the book does not: matched by account and amount, a line
    the book reconciled first; a payment's line the book holds cut into pieces by account alone
    (when the book has one line there)."""
    if not ours:
        return []
    marks = e.marks or "n" * len(e.lines)
    free: defaultdict[tuple[str, Decimal], list[int]] = defaultdict(list)
    for j, line in enumerate(e.lines):
        free[line].append(j)
    out = []
    for account, value in ours:
        found = free.get((account, value))
        if not found:
            pieces = [j for j, (a, _) in enumerate(e.lines) if a == account]
            found = (
                pieces if len(pieces) == 1 and sum(1 for a, _ in ours if a == account) == 1 else []
            )
        if not found:
            continue
        j = next((x for x in found if marks[x] == RECONCILED), found[0])
        found.remove(j)
        if marks[j] in "nc":
            out.append(j)
    return out


_STRENGTH = {Reconcile.NEW: 0, Reconcile.CLEARED: 1, Reconcile.RECONCILED: 2}


def kept_marks(work: Work, ledger: Ledger) -> Ledger:
    """``ledger`` with QuickBooks' version of each change taken keeping the book's cleared or
    reconciled mark on every line the change left as it was (the same account and amount),
    where QuickBooks' own mark is weaker: a Journal export has no Clr column, and a line
    reconciled in GnuCash stays so when an edit of another line is taken. A line whose amount
    changed takes QuickBooks' mark (the book's reconciliation no longer holds it)."""
    txns = list(ledger.transactions)
    for h in work.taken:
        if h.index is None or txns[h.index].voided:
            continue
        marked: defaultdict[tuple[str, Decimal], list[Reconcile]] = defaultdict(list)
        for line, m in zip(h.entry.lines, h.entry.marks, strict=False):
            if m in "cy":
                marked[line].append(Reconcile(m))
        if not marked:
            continue
        t = txns[h.index]
        txns[h.index] = replace(t, splits=tuple(_kept(sp, marked) for sp in t.splits))
    return replace(ledger, transactions=tuple(txns)) if work.taken else ledger


def _kept(sp: Split, marked: dict[tuple[str, Decimal], list[Reconcile]]) -> Split:
    found = marked.get((sp.account, sp.value))
    if found and _STRENGTH[found[0]] > _STRENGTH[sp.reconcile]:
        return replace(sp, reconcile=found.pop(0))
    return sp


def dates(work: Work) -> dict[str, dt.date]:
    """The reconcile dates ``work`` sets, by account (the run record's ``statements``)."""
    return {c.account: c.date for c in work.reconciled}
