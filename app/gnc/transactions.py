"""The transactions: the raw ``gnucash_core_c`` loop that writes them (docs/ENGINE.md, "Bulk
writing (the call order)"), the
self-check before the save, and ``BookTransaction`` read-back.

The loop holds every receiving account in ``BeginEdit`` with deferred balances and events
suspended (``bulk_edit``), so an insert is a prepend and the sort and balance wait for the
commit; on GnuCash 4.x-5.6 the split-list detacher keeps each account's live list short, as
the insert still walks it (docs/ENGINE.md).
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal

from app.book import BookSplit, BookTransaction
from app.classes import SLOT
from app.errors import BookWriteError
from app.gnc.bindings import C
from app.gnc.context import PROGRESS_EVERY, Writer
from app.gnc.detacher import SplitListDetacher
from app.gnc.engine import Engine, LayoutError
from app.gnc.numeric import at_unit, to_decimal
from app.gnc.slots import Slots, slots
from app.model import Ledger, Transaction
from app.words import plural, quoted

log = logging.getLogger(__name__)

VOID_REASON = "Voided in QuickBooks"
DETACH_EVERY = 1000  # keeps every account's live split list under ~1,000 nodes


@contextmanager
def bulk_edit(engine: Engine, accounts: list) -> Iterator[None]:
    """``accounts`` in ``BeginEdit`` with deferred balances and engine events suspended for the
    block; committed (re-sorted, re-balanced) and events resumed at its end, also on error. A
    split-list detacher used inside must re-attach before the block ends."""
    defer = getattr(C, "gnc_account_set_defer_bal_computation", None)
    for a in accounts:
        a.BeginEdit()
        if defer is not None:
            defer(a.get_instance(), True)
    engine.suspend_events()
    try:
        yield
    finally:
        for a in accounts:
            if defer is not None:
                defer(a.get_instance(), False)
            a.CommitEdit()
        engine.resume_events()


def write(
    w: Writer, txns: tuple[Transaction, ...], detach: bool, *, early: bool = False
) -> tuple[bool, str, int]:
    """The hot loop (docs/ENGINE.md, "Bulk writing (the call order)"). Returns (detached, why
    not, split count). ``early``: the accounts hold splits already (an update,
    docs/UPDATE.md): their lists are detached before the first insert, not after 1,000."""
    used = {s.account for t in txns for s in t.splits}
    for t in txns:
        for s in t.splits:
            if s.account not in w.accounts:
                raise BookWriteError(f"{s.source}: account {quoted(s.account)} is not in the chart")
    receiving = [w.accounts[name] for name in sorted(used)]
    book_i, cur_i = w.book.get_instance(), w.currency.get_instance()
    inst = {name: a.get_instance() for name, a in w.accounts.items()}
    fallback = "" if detach else "plain path requested"
    total, splits = len(txns), 0
    klass = _class_slots(w, txns)
    with bulk_edit(w.engine, receiving):
        detacher, why = _detacher(w, receiving, early) if detach else (None, "")
        fallback = fallback or why
        try:
            for done, txn in enumerate(txns, 1):
                splits += _post(w, txn, inst, book_i, cur_i, klass)
                if detacher is not None and done % DETACH_EVERY == 0:
                    try:
                        detacher.detach()
                    except LayoutError as exc:  # raised before anything was moved
                        fallback = str(exc)
                        log.info("split-list detacher not used: %s", exc)
                        detacher = None
                if done % PROGRESS_EVERY == 0 or done == total:
                    w.progress("transactions", done, total)
        finally:
            if detacher is not None:
                detacher.reattach()  # always, before anything reads or saves the accounts
    used_detacher = detacher is not None and detacher.detaches > 0
    if detacher is not None and not used_detacher:
        fallback = "fewer transactions than one detach interval"
    return used_detacher, fallback, splits


def _detacher(w: Writer, receiving: list, early: bool) -> tuple[SplitListDetacher | None, str]:
    """The receiving accounts' detacher, or None and why not (another engine: the plain path,
    docs/ENGINE.md). ``early``: their lists detached at once (a book holding splits already)."""
    try:
        detacher = SplitListDetacher(w.engine, [int(a.get_instance()) for a in receiving])
        if early:
            detacher.detach()
    except LayoutError as exc:
        return None, str(exc)
    return detacher, ""


def _class_slots(w: Writer, txns: tuple[Transaction, ...]) -> Slots | None:
    """Where the splits' classes go (None: no split has one, or the engine lacks the calls:
    the class is then in the memo only, said in the log)."""
    if not any(s.klass for t in txns for s in t.splits):
        return None
    found = slots(w.engine)
    if found.missing:
        log.warning("classes kept in the memos only: no %s", ", ".join(found.missing))
        return None
    return found


def _post(  # noqa: PLR0917 - the hot loop's one call
    w: Writer, txn: Transaction, inst: dict[str, object], book_i, cur_i, klass: Slots | None
) -> int:
    """One transaction and its splits, committed (and voided if it was); its split count.
    ``inst``, ``book_i``, ``cur_i``: the accounts', book's and currency's engine pointers;
    ``klass``: where a split's class goes into its slot (docs/CLASSES.md)."""
    if not txn.splits:
        raise BookWriteError(f"{txn.source}: transaction without splits")
    places = w.places
    values = [at_unit(s.value, places, s.source)[0] for s in txn.splits]
    if sum(values):
        raise BookWriteError(f"{txn.source}: transaction does not balance")
    t = C.xaccMallocTransaction(book_i)
    w.transactions.append(t)
    C.xaccTransBeginEdit(t)
    C.xaccTransSetCurrency(t, cur_i)
    C.xaccTransSetDate(t, txn.date.day, txn.date.month, txn.date.year)
    if txn.num:
        C.xaccTransSetNum(t, txn.num)
    if txn.description:
        C.xaccTransSetDescription(t, txn.description)
    if txn.notes:
        C.xaccTransSetNotes(t, txn.notes)
    for sp, v in zip(txn.splits, values, strict=True):
        s = C.xaccMallocSplit(book_i)
        C.xaccSplitSetParent(s, t)
        C.xaccSplitSetAccount(s, inst[sp.account])
        n = C.gnc_numeric_create(v, 10**places)
        C.xaccSplitSetValue(s, n)
        C.xaccSplitSetAmount(s, n)
        if sp.memo:
            C.xaccSplitSetMemo(s, sp.memo)
        if sp.item is not None and sp.item.item:  # QuickBooks' item (docs/SALES-TAX.md)
            C.xaccSplitSetAction(s, sp.item.item)
        if sp.reconcile.value != "n":
            C.xaccSplitSetReconcile(s, sp.reconcile.value)
        if sp.klass and klass is not None:
            klass.set_text(int(s), SLOT, sp.klass)
    C.xaccTransCommitEdit(t)
    if txn.voided:
        C.xaccTransVoid(t, VOID_REASON)
    return len(values)


def check(w: Writer, ledger: Ledger) -> None:
    """Every account's split count and balance as the engine holds them must equal the
    input before anything is saved; no engine-made account (Imbalance, Orphan) may exist."""
    count: Counter[str] = Counter()
    balance: dict[str, Decimal] = defaultdict(Decimal)
    for t in ledger.transactions:
        for s in t.splits:
            count[s.account] += 1
            if not t.voided:
                balance[s.account] += s.value
    n_book = len(w.book.get_root_account().get_descendants())
    if n_book != len(w.accounts):
        raise BookWriteError(
            f"GnuCash created {plural(n_book - len(w.accounts), 'account')} of its own "
            "(Imbalance/Orphan): the input does not balance"
        )
    for name, a in w.accounts.items():
        got_n = w.engine.split_count(int(a.get_instance()))
        if got_n is None:  # 4.x: the account's own list, nothing copied
            got_n = len(C.xaccAccountGetSplitList(a.get_instance()))
        got_b = to_decimal(a.GetBalance())
        if got_n != count[name] or got_b != balance[name]:
            raise BookWriteError(
                f"self-check failed for {name}: {got_n} splits, balance {got_b}; "
                f"expected {count[name]} splits, balance {balance[name]}"
            )


def book_transaction(t, names: dict[int, str], klass: Slots | None = None) -> BookTransaction:
    """A transaction pointer as ``BookTransaction``; ``names``: account pointer → full name;
    ``klass``: each split's class read from its slot."""
    return BookTransaction(
        date=C.xaccTransGetDate(t).date(),
        num=C.xaccTransGetNum(t) or "",
        description=C.xaccTransGetDescription(t) or "",
        notes=C.xaccTransGetNotes(t) or "",
        splits=tuple(
            BookSplit(
                account=names[int(C.xaccSplitGetAccount(s))],
                value=to_decimal(C.xaccSplitGetValue(s)),
                memo=C.xaccSplitGetMemo(s) or "",
                reconcile=C.xaccSplitGetReconcile(s),
                klass=klass.text(int(s), SLOT) if klass is not None else "",
            )
            for s in C.xaccTransGetSplitList(t)
        ),
        voided=bool(C.xaccTransGetVoidStatus(t)),
    )
