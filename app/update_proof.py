"""The proof of an update (docs/UPDATE.md, "The proof"): the book read back less what GnuCash
alone added (``less``), the ledger as the book holds what it already had (``as_booked``), the
book as it would be with the held changes applied (``as_taken``: its proof matching says the
book differs from QuickBooks by exactly them); the delta table is ``app.update_deltas``. Pure.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal

from app import keys as k
from app.book import BookSalesTax, BookSnapshot
from app.documents.selection import LINK_KIND, Selection
from app.documents.tax_proof import lines_changed
from app.documents.tax_proof import prove as prove_sales_tax
from app.documents.taxes import SalesTax
from app.model import Ledger, Reconcile, Split, Transaction
from app.source import Source
from app.update import BookEntry, Work
from app.verify_report import Report

ZERO = Decimal(0)


def held_effect(work: Work, ledger: Ledger) -> dict[str, Decimal]:
    """Per account, what the held changes keep the book from holding: QuickBooks' version
    less the book's (a gone transaction: less the book's lines). The proof's differences are
    exactly these when nothing else differs."""
    out: defaultdict[str, Decimal] = defaultdict(Decimal)
    for h in work.held:
        for a, v in h.entry.lines:
            out[a] -= v
        if h.index is not None:
            t = ledger.transactions[h.index]
            for s in t.splits:
                out[s.account] += ZERO if t.voided else s.value
    for i in work.deleted_here:  # (QuickBooks' transactions deleted in GnuCash: kept out)
        t = ledger.transactions[i]
        for s in t.splits:
            out[s.account] += ZERO if t.voided else s.value
    return {a: v for a, v in out.items() if v}


Lines = tuple[tuple[str, Decimal], ...]


def less(
    snapshot: BookSnapshot,
    entries: Sequence[BookEntry],
    plus: Sequence[tuple[dt.date, Lines, str]] = (),
) -> BookSnapshot:
    """``snapshot`` without ``entries`` (what GnuCash alone added: the proof compares
    QuickBooks' figures, counts and dates with the rest of the book), and with the transactions
    ``plus`` (day, lines, marks): the book as it would be with QuickBooks' versions of the held
    changes. The first and last dates are those of the days still holding a transaction; each
    reconciled balance without (with) their lines marked reconciled."""
    if not entries and not plus:
        return snapshot
    moved: defaultdict[str, list[tuple[dt.date, Decimal, int]]] = defaultdict(list)
    days: Counter[dt.date] = Counter(dict(snapshot.days))
    for e in entries:
        days[e.date] -= 1
        for a, v in e.lines:
            moved[a].append((e.date, -v, -1))
    states: Counter[str] = Counter(dict(snapshot.reconcile))
    for e in entries:
        states.subtract(e.marks)
    for day, lines, marks in plus:
        days[day] += 1
        states.update(marks)
        for a, v in lines:
            moved[a].append((day, v, 1))
    cleared = _cleared(entries, plus)
    busy = [d for d, n in days.items() if n > 0]
    first, last = (min(busy), max(busy)) if busy else (None, None)
    if not snapshot.days:  # (a book read without them: its dates as read, GnuCash's included)
        first, last = snapshot.first_date, snapshot.last_date
    accounts = []
    for b in snapshot.accounts:
        change = moved.get(b.full_name)
        if not change:
            accounts.append(b)
            continue
        had = dict(b.daily)
        daily: defaultdict[dt.date, Decimal] = defaultdict(Decimal, had)
        for day, v, _ in change:
            daily[day] += v
        accounts.append(
            replace(
                b,
                balance=b.balance + sum((v for _, v, _ in change), ZERO),
                splits=b.splits + sum(n for _, _, n in change),
                daily=tuple(sorted((d, v) for d, v in daily.items() if v or d in had)),
            )
        )
    return replace(
        snapshot,
        accounts=tuple(accounts),
        transactions=snapshot.transactions - len(entries) + len(plus),
        splits=snapshot.splits - sum(len(e.lines) for e in entries) + sum(len(x[1]) for x in plus),
        reconcile=tuple((k, n) for k, n in sorted(states.items()) if n),
        reconciled=tuple(
            replace(r, balance=r.balance + cleared[r.account]) if cleared.get(r.account) else r
            for r in snapshot.reconciled
        ),
        first_date=first,
        last_date=last,
        days=tuple(sorted((d, n) for d, n in days.items() if n > 0)),
    )


def _cleared(
    entries: Sequence[BookEntry], plus: Sequence[tuple[dt.date, Lines, str]]
) -> defaultdict[str, Decimal]:
    """Each account's reconciled balance's change: ``entries``' lines marked reconciled out,
    ``plus``'s in."""
    out: defaultdict[str, Decimal] = defaultdict(Decimal)
    for e in entries:
        for (a, v), m in zip(e.lines, e.marks, strict=False):
            out[a] -= v if m == "y" else ZERO
    for _day, lines, marks in plus:
        for (a, v), m in zip(lines, marks, strict=False):
            out[a] += v if m == "y" else ZERO
    return out


def as_taken(
    work: Work, ledger: Ledger
) -> tuple[list[BookEntry], list[tuple[dt.date, Lines, str]]]:
    """What ``less`` takes out and puts in to show the book as it would be had the held
    changes been applied and the edits made in GnuCash to QuickBooks' transactions not: the
    book's versions out, QuickBooks' in (those deleted in GnuCash too)."""
    out = [h.entry for h in work.held]
    versions = [h.index for h in work.held]
    index_of = {id(e): i for i, e in work.present.items()}
    for e in work.edited_here:
        if id(e) in index_of and e not in out:
            out.append(e)
            versions.append(index_of[id(e)])
    plus: list[tuple[dt.date, Lines, str]] = []
    for i in (*versions, *work.deleted_here):
        if i is not None:
            t = ledger.transactions[i]
            lines = tuple((s.account, ZERO if t.voided else s.value) for s in t.splits)
            marks = "".join("v" if t.voided else s.reconcile.value for s in t.splits)
            plus.append((t.date, lines, marks))
    return out, plus


def unchanged(work: Work, ledger: Ledger) -> list[tuple[int, BookEntry]]:
    """The transactions the book already had and did not change (its sums are QuickBooks'),
    by their index in ``ledger``."""
    held = {h.index for h in work.held}
    return [
        (i, e)
        for i, e in work.present.items()
        if i not in held and e.stamp is not None and e.sums == k.ledger_sums(ledger.transactions[i])
    ]


def _as_held(t: Transaction, e: BookEntry) -> tuple[tuple[Split, ...], int]:
    """``t``'s lines as the book holds them, and how many the book marks otherwise than
    QuickBooks: the pieces its earlier run cut a payment's line into, each line's reconcile
    mark (matched by account and amount; one the book has not as such keeps QuickBooks')."""
    marks = e.marks or "n" * len(e.lines)
    if len(e.lines) != len(t.splits):
        first = {s.account: s for s in t.splits}
        pieces = [((a, v), m) for (a, v), m in zip(e.lines, marks, strict=False) if a in first]
        splits = tuple(
            replace(first[a], value=v, reconcile=Reconcile(m) if m in "ncy" else Reconcile.NEW)
            for (a, v), m in pieces
        )
        moved = sum(1 for (a, _), m in pieces if m in "ncy" and m != first[a].reconcile.value)
        return splits, moved
    if t.voided:  # (voided on both sides: its lines count as voided, whatever their marks)
        return t.splits, 0
    free: defaultdict[tuple[str, Decimal], list[str]] = defaultdict(list)
    for line, m in zip(e.lines, marks, strict=False):
        free[line].append(m)
    out, moved = [], 0
    for s in t.splits:
        found = free.get((s.account, s.value))
        m = found.pop(0) if found else s.reconcile.value
        changed = m in "ncy" and m != s.reconcile.value
        out.append(replace(s, reconcile=Reconcile(m)) if changed else s)
        moved += changed
    return tuple(out), moved


def marked_otherwise(work: Work, ledger: Ledger) -> int:
    """How many lines of QuickBooks' transactions the book marks otherwise (cleared,
    reconciled, neither) than ``ledger`` (the exports as a first write would hold them):
    marked in GnuCash, or in QuickBooks, since. The proof takes the book's marks
    (``as_booked``) and says this count (``app.made_here``)."""
    return sum(_as_held(ledger.transactions[i], e)[1] for i, e in unchanged(work, ledger))


def as_booked(
    written: Ledger,
    work: Work,
    ledger: Ledger,
    paid: Mapping[int, tuple[str, tuple]] | None = None,
    linked: Sequence[tuple] = (),
) -> Ledger:
    """``written`` (the exports' ledger as a first write would hold it) with each transaction
    the book already had, and did not change, as the book holds it: the pieces its earlier run
    cut a payment into (the allocation of an earlier payment may come out otherwise on the
    longer history; no amount differs, as ``sums`` is equal), the reconcile marks it has on
    them (cleared or reconciled in GnuCash since: an update keeps them; ``marked_otherwise``).
    ``paid``: each new payment's A/R (A/P) line as this run cut it (``gnc.Updated.paid``),
    from the exports' ``ledger``; the lot links: the book's earlier ones (``Work.links``) and
    this run's (``linked``), in place of those the allocation on the whole history would
    make."""
    txns = list(written.transactions)
    for i, e in unchanged(work, written):
        txns[i] = replace(txns[i], splits=_as_held(txns[i], e)[0])
    for i, (account, pieces) in (paid or {}).items():
        t = ledger.transactions[i]
        post = next(s for s in t.splits if s.account == account)
        sign = 1 if post.value > 0 else -1
        cut = [replace(post, value=sign * x.amount) for x in pieces] or [post]
        txns[i] = replace(t, splits=(*(s for s in t.splits if s is not post), *cut))
    txns = [t for t in txns if t.kind_label != LINK_KIND]
    for e in work.links:
        src = Source("the book", 0)
        splits = tuple(Split(a, v, src) for a, v in e.lines)
        txns.append(Transaction(e.date, splits, src, kind_label=LINK_KIND))
    for cn, doc, amount in linked:
        side = 1 if cn.owner_kind == "customer" else -1
        splits = (
            Split(doc.account, -side * amount, cn.source),
            Split(cn.account, side * amount, cn.source),
        )
        txns.append(Transaction(cn.date, splits, cn.source, kind_label=LINK_KIND))
    return replace(written, transactions=tuple(txns))


def new_documents_tax(  # noqa: PLR0917
    report: Report,
    snapshot: BookSnapshot,
    written: Ledger,
    work: Work,
    st: SalesTax | None,
    refused: tuple[str, ...],
) -> Report:
    """The proof with the subtotal, tax and total of each document this run added, read back,
    against QuickBooks' (``refused``: those GnuCash's table taxed otherwise, kept as lines).
    The tax owed per agency is a first conversion's check: the book's sales tax accounts hold
    the user's own work since."""
    if st is None or snapshot.sales_tax is None:
        return report
    added = set(work.add)
    new = replace(st, docs={i: d for i, d in st.docs.items() if i in added})
    old = replace(st, docs={i: d for i, d in st.docs.items() if i not in added})
    changed = lines_changed(old, snapshot.sales_tax)  # (QuickBooks' lines edited since)
    if not new.docs and not changed:
        return report
    found = prove_sales_tax(new, snapshot.sales_tax, written, refused)
    found = replace(found, documents=(*found.documents, *changed), agencies=())
    return replace(report, sales_tax=found)


def held_causes(
    report: Report,
    taken: Report,
    undecided: bool = True,
    owners: frozenset[tuple[str, str]] = frozenset(),
) -> Report:
    """The rows and checks that differ only because of the held changes (or edits made in
    GnuCash to QuickBooks' transactions) say so; what to do only while one is ``undecided``;
    so does each customer's and vendor's open items that a held change is of (``owners``:
    ``held_owners``): it said the report and the files disagree, export the report again."""
    fine = {r.account for r in taken.rows if r.ok}
    why = "a change since the last run: held from QuickBooks, or made in GnuCash (listed above)"
    rows = tuple(
        replace(r, cause=why, fix="") if not r.ok and r.account in fine else r for r in report.rows
    )
    passed = {c.name for c in taken.checks if c.ok}
    todo = (
        "decide each held change (take QuickBooks' version or keep the book's), update again"
        if undecided
        else "nothing: the book keeps its version of each, as decided"
    )
    checks = tuple(
        replace(c, cause=why, todo=todo, again=False) if not c.ok and c.name in passed else c
        for c in report.checks
    )
    extras = report.extras
    if extras is not None and taken.extras is not None:  # (a reconciliation: a held line)
        still = {(m.what, m.name) for m in taken.extras.mismatches}
        mismatches = tuple(
            m if (m.what, m.name) in still else replace(m, cause=why) for m in extras.mismatches
        )
        extras = replace(extras, mismatches=mismatches)
    docs = report.documents
    if docs is not None and owners:
        causes = tuple(
            replace(c, cause=why, action=todo, step="") if (c.owner_kind, c.owner) in owners else c
            for c in docs.causes
        )
        docs = replace(docs, causes=causes)
    return replace(report, rows=rows, checks=checks, extras=extras, documents=docs)


def held_owners(work: Work, docs: Selection | None) -> frozenset[tuple[str, str]]:
    """(kind, owner) of each document and payment of a held change or of a transaction
    deleted in GnuCash since the last run."""
    if docs is None:
        return frozenset()
    held = {h.index for h in work.held} | set(work.deleted_here)
    out = {(d.owner_kind, d.owner) for d in docs.derived.documents if d.transaction in held}
    out |= {(p.owner_kind, p.owner) for p in docs.derived.payments if p.transaction in held}
    return frozenset(out)


def rates_changed(st: SalesTax | None, book: BookSalesTax | None) -> list[str]:
    """A note per tax table of the book whose rate is not QuickBooks' for its sales tax item or
    group any more (a rate changed in QuickBooks since the book was written): the new invoices
    taxed at it keep QuickBooks' tax as plain lines, which was said only as "GnuCash computed
    another tax than planned", invoice by invoice (hunt 10)."""
    if st is None or book is None:
        return []
    held = {t.name: sum((rate for _, rate in t.entries), ZERO) for t in book.tables}
    return [
        f"QuickBooks' rate of {t.name} is {t.rate}% now, the book's tax table {t.name} "
        f"{held[t.name]}%: invoices taxed at it since keep QuickBooks' tax as plain lines; "
        "to go on with the table, change its rate in GnuCash (Business › Sales Tax Table)"
        for t in st.tables
        if t.name in held and held[t.name] != t.rate
    ]
