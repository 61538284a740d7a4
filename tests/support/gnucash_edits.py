"""A written book changed as a user changes it in GnuCash, through the engine (the bindings
GnuCash's own windows call), and saved: a customer, vendor, employee, job, billing term or
account made, a transaction entered (balanced or not: GnuCash balances it itself into
Imbalance-USD), lines reconciled. For the proof's checks that then differ
(app/check_causes.py) or that an update leaves out (app/made_here.py); and an import run with
its book so changed as it is read back."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from app import gnc, jobs

# the raw bindings, as app.gnc takes them (importing gnucash before app.gnc.bindings sets its
# environment crashed the interpreter on GnuCash 5.10)
from app.gnc import owner_names
from app.gnc.bindings import (
    C,
    GncAccount,
    GncBillTerm,
    GncCustomer,
    GncEmployee,
    GncJob,
    GncNumeric,
    GncVendor,
    Session,
    SessionOpenMode,
)
from app.jobs import worker
from app.store import Migration


@contextmanager
def editing(path: Path) -> Iterator[object]:
    """The book at ``path`` (XML or SQLite) open for changes; saved at the end of the block."""
    with path.open("rb") as f:
        sqlite = f.read(16) == b"SQLite format 3\0"
    uri = ("sqlite3://" if sqlite else "xml://") + str(path.absolute())
    session = Session(uri, SessionOpenMode.SESSION_NORMAL_OPEN)
    try:
        yield session.book
        session.save()
    finally:
        session.end()


def add_customer(book, name: str, ident: str = "GC0001") -> None:
    """A customer made in GnuCash (Business › Customer › New Customer)."""
    GncCustomer(book, ident, _currency(book), name)


def add_vendor(book, name: str, ident: str = "GV0001") -> None:
    """A vendor made in GnuCash (Business › Vendor › New Vendor)."""
    GncVendor(book, ident, _currency(book), name)


def add_employee(book, name: str, ident: str = "GE0001") -> None:
    """An employee made in GnuCash (Business › Employee › New Employee): its name is its
    address's, as GnuCash's dialog keeps it."""
    e = GncEmployee(book, ident, _currency(book), name)
    e.BeginEdit()
    e.GetAddr().SetName(name)
    e.CommitEdit()


def add_job(book, customer: str, name: str, ident: str = "GJ0001") -> None:
    """A job of one of the book's customers made in GnuCash (Business › Customer › New Job)."""
    owner = owner_names.owners(book)["customer", customer]
    GncJob(book, ident, owner, name)


def add_term(book, name: str, days: int = 10) -> None:
    """A billing term made in GnuCash (Business › Billing Terms Editor)."""
    t = GncBillTerm(book)
    t.BeginEdit()
    t.SetName(name)
    t.SetDescription(name)
    t.SetType(C.GNC_TERM_TYPE_DAYS)
    t.SetDueDays(days)
    t.CommitEdit()


def _currency(book):
    return book.get_root_account().get_children()[0].GetCommodity()


def add_account(book, name: str, kind: str = "BANK") -> None:
    """A top-level account made in GnuCash (Edit › New Account)."""
    root = book.get_root_account()
    a = GncAccount(book)
    a.BeginEdit()
    a.SetName(name)
    a.SetType(getattr(C, "ACCT_TYPE_" + kind))
    a.SetCommodity(root.get_children()[0].GetCommodity())
    root.append_child(a)
    a.CommitEdit()


def enter(book, day: dt.date, lines: Sequence[tuple[str, int]], what: str = "By hand") -> None:
    """A transaction entered in a register: (account full name, cents) lines, balanced or not
    (GnuCash puts what balances it into Imbalance-USD as it commits)."""
    root = book.get_root_account()
    accounts = [(root.lookup_by_full_name(name), cents) for name, cents in lines]
    t = C.xaccMallocTransaction(book.get_instance())
    C.xaccTransBeginEdit(t)
    C.xaccTransSetCurrency(t, accounts[0][0].GetCommodity().get_instance())
    C.xaccTransSetDate(t, day.day, day.month, day.year)
    C.xaccTransSetDescription(t, what)
    for account, cents in accounts:
        s = C.xaccMallocSplit(book.get_instance())
        C.xaccSplitSetParent(s, t)
        C.xaccSplitSetAccount(s, account.get_instance())
        n = GncNumeric(cents, 100)
        C.xaccSplitSetValue(s, n.instance)
        C.xaccSplitSetAmount(s, n.instance)
    C.xaccTransCommitEdit(t)


def redate(book, account: str, day: dt.date) -> None:
    """The transaction of ``account``'s first line given another date in its register."""
    txn = book.get_root_account().lookup_by_full_name(account).GetSplitList()[0].GetParent()
    txn.BeginEdit()
    txn.SetDate(day.day, day.month, day.year)
    txn.CommitEdit()


def delete(book, account: str, num: str) -> int:
    """The transactions numbered ``num`` in ``account``'s register deleted, as Delete
    Transaction does; how many."""
    acc = book.get_root_account().lookup_by_full_name(account)
    found = {s.GetParent().GetGUID().to_string(): s.GetParent() for s in acc.GetSplitList()}
    gone = {guid: t for guid, t in found.items() if t.GetNum() == num}
    for t in gone.values():
        t.Destroy()  # (its own edit: xaccTransDestroy begins and commits it; a voided one,
        # read-only, it leaves as it is)
    left = {s.GetParent().GetGUID().to_string() for s in acc.GetSplitList()}
    return sum(1 for guid in gone if guid not in left)


def reconcile(book, account: str, lines: int, day: dt.date | None = None) -> int:
    """The first ``lines`` lines of ``account`` neither reconciled nor voided marked reconciled;
    with ``day``, as GnuCash's Reconcile window (Actions › Reconcile) finishes a statement of
    that day: the lines reconciled on it and the account's last reconcile date set. How many
    were."""
    done = 0
    acc = book.get_root_account().lookup_by_full_name(account)
    when = dt.datetime.combine(day, dt.time(23, 59, 59)) if day else None
    for split in acc.GetSplitList():
        if done == lines:
            break
        if split.GetReconcile() in ("n", "c"):  # (a voided line is not reconciled)
            split.SetReconcile("y")
            if when is not None:
                C.xaccSplitSetDateReconciledSecs(split.get_instance(), when)
            done += 1
    if when is not None:
        C.xaccAccountSetReconcileLastDate(acc.get_instance(), when)
    return done


def import_changed_in_gnucash(folder: Path, monkeypatch, change) -> None:
    """The migration at ``folder`` imported by the worker's own code in this process, its book
    changed through the engine (``change(book)``, an open book) just before it is read back:
    the one way a first conversion's counts and dates can differ (app/check_causes.py)."""
    m = Migration(folder)
    job = jobs.ImportJob("changed", created=jobs.now(), phase="starting", settings=m.settings_sha())
    jobs.save(m.job_path, job)
    read = gnc.read_book
    changed: list[Path] = []

    def changed_then_read(path, **kwargs):
        if not changed:
            with editing(path) as book:
                change(book)
            changed.append(path)
        return read(path, **kwargs)

    monkeypatch.setattr(gnc, "read_book", changed_then_read)
    assert worker.run(m, job.id) == 0
    assert changed


def move_cents(txn, first, second, cents: int) -> None:
    """``cents`` moved from ``second`` to ``first`` of the transaction ``txn`` (bindings
    objects), value and amount, in one edit: it stays balanced."""
    txn.BeginEdit()
    for s, delta in ((first, cents), (second, -cents)):
        v = s.GetValue()
        new = GncNumeric(v.num() * 100 // v.denom() + delta, 100)
        s.SetValue(new)
        s.SetAmount(new)
    txn.CommitEdit()


def damage(path: Path, account: str, cents: int, *, pnl: bool = False, before=None) -> str:
    """Move ``cents`` within one two-split transaction of ``account`` (dated before ``before``
    when given) whose other account is an income/expense one (``pnl``) or not, through the
    bindings, and save; returns that other account's full name."""
    session = Session("xml://" + str(path), SessionOpenMode.SESSION_NORMAL_OPEN)
    try:
        root = session.book.get_root_account()
        acc = root.lookup_by_full_name(account)
        for split in acc.GetSplitList():
            txn = split.GetParent()
            pair = txn.GetSplitList()
            other = next(s for s in pair if s.GetAccount().get_full_name() != account)
            kind = other.GetAccount().GetType() in (C.ACCT_TYPE_INCOME, C.ACCT_TYPE_EXPENSE)
            if (
                len(pair) == 2
                and kind == pnl
                and not split.GetValue().zero_p()
                and (before is None or txn.GetDate().date() < before)
            ):
                break
        else:
            raise AssertionError(f"no transaction of {account} to damage")
        move_cents(txn, split, other, cents)
        session.save()
        return other.GetAccount().get_full_name()
    finally:
        session.end()


def set_budget(book, name: str, account: str, period: int, cents: int) -> None:
    """One amount of the budget ``name`` changed, as GnuCash's budget page changes it (the
    bindings do not wrap budgets: the engine's own calls, as ``app.gnc.budgets`` makes them)."""
    from app.gnc.bindings import engine
    from app.gnc.calls import calls
    from app.gnc.engine import Numeric

    c = calls(engine())
    named = {
        (c.lib.gnc_budget_get_name(g) or b"").decode(): g
        for g in c.collection(int(book.get_instance()), b"Budget")
    }
    bgt = named[name]
    acc = int(book.get_root_account().lookup_by_full_name(account).get_instance())
    c.lib.gnc_budget_begin_edit(bgt)
    c.lib.gnc_budget_set_account_period_value(bgt, acc, period, Numeric(cents, 100))
    c.lib.gnc_budget_commit_edit(bgt)


def rename_budget(book, name: str, new: str) -> None:
    """The budget ``name`` renamed ``new``, as GnuCash's budget options rename it."""
    from app.gnc.bindings import engine
    from app.gnc.calls import calls

    c = calls(engine())
    for g in c.collection(int(book.get_instance()), b"Budget"):
        if (c.lib.gnc_budget_get_name(g) or b"").decode() == name:
            c.lib.gnc_budget_begin_edit(g)
            c.lib.gnc_budget_set_name(g, new.encode())
            c.lib.gnc_budget_commit_edit(g)


def retype(book, account: str, kind: str) -> None:
    """An account's type changed in GnuCash (Edit Account › Type: within its group)."""
    a = book.get_root_account().lookup_by_full_name(account)
    a.BeginEdit()
    a.SetType(getattr(C, "ACCT_TYPE_" + kind))
    a.CommitEdit()
