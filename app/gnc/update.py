"""An existing book brought up to date in one session (docs/UPDATE.md, "Writing into the book"):
the book loaded (locked against GnuCash meanwhile), read (``existing.read_state``), the caller's
pure ``decide`` asked what to do, then GnuCash's own Save As: the loaded book swapped into a new
store beside it (``qof_session_swap_data``), only what is new added to it, and one save. The
book itself is never written here; the caller proves the copy and puts it in place.

New documents are adopted as in a first write; a new payment of a document already in the book
joins that document's lot (found through its transaction's A/R split), so a payment in June
closes a March invoice; an old payment's rest QuickBooks applied since is linked to the new
document (``app.gnc.update_pass``). Old payments and links are left as they are otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from app import book_file, keys, postgres, resolve
from app.documents.selection import Piece
from app.errors import BookWriteError
from app.gnc import (
    accounts,
    bindings,
    business,
    class_names,
    existing,
    extras,
    owner_names,
    transactions,
)
from app.gnc.bindings import C, GnuCashBackendException, Session, SessionOpenMode
from app.gnc.context import Progress, Writer, progress
from app.gnc.session import _plain, load
from app.gnc.tax import tables_in
from app.gnc.update_pass import UpdatePass
from app.lists import owner_keys
from app.model import Ledger
from app.openings import OPENING_KIND
from app.postgres import Address
from app.update import BookEntry, BookState, UpdateRefused, Work
from app.update_decision import AccountRename, Decision
from app.words import quoted


@dataclass(frozen=True, slots=True)
class Updated:
    decision: Decision
    written: bool  # False: nothing new, the book left as it was (no copy made)
    documents: dict[str, int]
    # each new payment: (its A/R or A/P account, the pieces its line was cut into; () plain)
    paid: dict[int, tuple[str, tuple[Piece, ...]]] = field(default_factory=dict)
    linked: tuple = ()  # (credit note, document, amount) of each lot link this run made
    plain: tuple[tuple[str, str], ...] = ()  # (id, why) of new documents with tax as lines
    refused: tuple[str, ...] = ()  # of those, the ones GnuCash's table taxed otherwise
    tabled: int = 0  # new documents taxed through GnuCash's tax tables


def _uri(path: Path | Address) -> str:
    if isinstance(path, Address):
        return path.url
    with path.open("rb") as f:
        sqlite = f.read(16) == b"SQLite format 3\0"
    return ("sqlite3://" if sqlite else "xml://") + str(path)


def update_book(
    path: Path | Address,
    staged: Path | Address,
    decide: Callable[[BookState], Decision],
    on_progress: Progress | None = None,
    password: str | None = None,
) -> Updated:
    """``path``'s book with the work ``decide`` says added, saved at ``staged`` (same format;
    a PostgreSQL book: into the empty database ``staged``, ``postgres.staged``; ``password``:
    its server's, else PGPASSWORD's); the book at ``path`` is only read. ``decide`` may raise
    (UpdateRefused, ProblemsError): then nothing is saved."""
    if isinstance(path, Address):  # (GnuCash's own connections: the password in memory)
        with postgres.engine_password(password):
            return _update_book(path, staged, decide, on_progress)
    return _update_book(path, staged, decide, on_progress)


def _update_book(
    path: Path | Address,
    staged: Path | Address,
    decide: Callable[[BookState], Decision],
    on_progress: Progress | None,
) -> Updated:
    engine = bindings.engine()
    old = new = None
    name = path.database if isinstance(path, Address) else path.name
    uri = _uri(path)
    staged_uri = (
        staged.url if isinstance(staged, Address) else f"{uri.split('://', 1)[0]}://{staged}"
    )
    if isinstance(path, Path) and (why := book_file.fault(path)):  # (before GnuCash writes in it)
        raise UpdateRefused(f"{name} is {why}: give the book qb2gnucash wrote")
    progress(on_progress, "loading", 0, 1)
    try:
        engine.log_disable()
        old = Session()
        try:
            old.begin(uri, SessionOpenMode.SESSION_NORMAL_OPEN)  # the lock: GnuCash waits
            load(
                old, path if isinstance(path, Path) and uri.startswith("xml") else None, on_progress
            )
        except GnuCashBackendException as exc:  # the book given, not this computer
            raise UpdateRefused(f"GnuCash cannot open {name}: {_plain(exc)}") from exc
        state = existing.read_state(engine, old.book)
        decision = decide(state)
        if not decision.writes:
            return Updated(decision, False, {})
        new = Session()
        new.begin(staged_uri, SessionOpenMode.SESSION_NEW_STORE)
        new.swap_data(old)
        done = _add(new.book, decision, on_progress)
        progress(on_progress, "saving", 0, 1)
        new.save()
        new.raise_backend_errors("save")
        progress(on_progress, "saving", 1, 1)
        return done
    except GnuCashBackendException as exc:
        raise BookWriteError(f"GnuCash could not update {name}: {_plain(exc)}") from exc
    finally:
        if new is not None:
            new.end()
        if old is not None:
            old.end()  # never saved: the book on disk is as it was; the lock released
        if isinstance(staged, Path):  # what the engine leaves beside a store (lock, log)
            for p in staged.parent.iterdir():
                if p.name.startswith(staged.name) and p.name != staged.name:
                    p.unlink(missing_ok=True)


def _add(book, decision: Decision, on_progress: Progress | None) -> Updated:
    """What is new added to the loaded ``book`` (now in the new store), key slots and the run
    record stamped, the documents pass run."""
    engine = bindings.engine()
    work, ledger = decision.work, decision.ledger
    w = Writer.open(book, engine, decision.currency, on_progress)
    taken_names = tuple(r for r in decision.renames if r.taken)
    _rename(engine, book, taken_names)
    if decision.classes:  # the classes whose QuickBooks name is taken
        class_names.rename(engine, book, decision.classes, decision.class_accounts)
    w.accounts = {a.get_full_name(): a for a in book.get_root_account().get_descendants()}
    w.owners = owner_names.owners(book)
    w.terms = existing.terms(engine, book)
    _lists(w, ledger, work)
    owner_names.stamp(engine, book, set(owner_keys(ledger)))  # (books written before it was)
    taken = {h.entry.handle for h in work.taken}
    found = existing.objects(book, taken, {a for h in work.taken for a, _ in h.entry.lines})
    for h in work.taken:  # the book's version of a change the plan takes from QuickBooks
        _remove(found[h.entry.handle], h.entry.said(), copy=bool(h.alias))
    fresh = tuple(ledger.transactions[i] for i in work.add)
    transactions.write(w, fresh, detach=True, early=True)
    made = dict(zip(work.add, w.transactions, strict=True))
    named = decision.named  # the book's name → the keys', where renamed in GnuCash
    as_keyed = resolve.renamed(
        ledger.transactions,
        {a.full_name: keys.by_prefix(a.full_name, named) for a in ledger.accounts} if named else {},
    )
    texts = [keys.stamp(work.keys[i], as_keyed[i]) for i in work.add]
    ours = {a.full_name for a in ledger.accounts}
    existing.stamp(engine, book, list(made.values()), texts, decision.record, named, ours)
    if work.rekeyed:  # QuickBooks' transactions entered again in GnuCash: keyed as theirs
        again_texts = [keys.stamp(work.keys[i], as_keyed[i]) for i, _ in work.rekeyed]
        handles = [e.handle for _, e in work.rekeyed]
        existing.stamp(engine, book, handles, again_texts, decision.record, named, ours)
    if decision.restamp:  # the book's transactions in a renamed account: keyed with its name
        again = _restamped(work, as_keyed, decision.restamp, named, taken)
        existing.stamp(
            engine, book, list(again), list(again.values()), decision.record, named, ours
        )
    counts: dict[str, int] = {}
    paid: dict[int, tuple[str, tuple[Piece, ...]]] = {}
    linked: tuple = ()
    plain: tuple[tuple[str, str], ...] = ()
    refused: tuple[str, ...] = ()
    tabled = 0
    if decision.docs is not None:
        docs, allocation, target = decision.docs
        owed = {d.account for d in docs.documents} | {p.account for p in docs.payments}
        found = existing.objects(book, {e.handle for e in work.present.values()}, owed)
        at = {
            **{i: found[e.handle] for i, e in work.present.items() if e.handle in found},
            **made,
        }
        st = decision.sales_tax
        tables = tables_in(w.written(), st) if st is not None and st.tables else {}
        made_pass = UpdatePass(w, at, set(work.add), docs, allocation, target, st=st, tables=tables)
        counts = made_pass.run()
        paid, linked = made_pass.paid, tuple(made_pass.linked)
        plain, refused = tuple(made_pass.plain), tuple(made_pass.refused)
        tabled = made_pass.tabled
    _reconciled(book, w, decision)
    return Updated(decision, True, counts, paid, linked, plain, refused, tabled)


def _reconciled(book, w: Writer, decision: Decision) -> None:
    """QuickBooks' budgets brought up to date (``app.update_budgets``), and QuickBooks' later
    reconciliations carried (``app.update_statements``): each account's date, the lines the
    book held that QuickBooks has reconciled since, and the added ones."""
    extras.update_budgets(w.written(), decision.budgets)
    work = decision.work
    if not work.reconciled:
        return
    handles = {h for c in work.reconciled for h, _ in c.lines}
    found = existing.objects(book, handles, {c.account for c in work.reconciled})
    for c in work.reconciled:
        lines = [C.xaccTransGetSplitList(found[h])[j] for h, j in c.lines]
        extras.carry(w.accounts[c.account], c.date, lines)


def _rename(engine, book, renames: tuple[AccountRename, ...]) -> None:
    """Each account the plan takes QuickBooks' name of renamed in the book (its parent kept)."""
    for r in renames:
        found = book.get_root_account().lookup_by_full_name(r.in_book)
        if found is None:
            raise UpdateRefused(f"the book has no account {quoted(r.in_book)} to rename any more")
        existing.rename_account(engine, found, r.quickbooks.rpartition(":")[2], r.quickbooks)


def _restamped(
    work: Work,
    as_keyed,
    entries: tuple[BookEntry, ...],
    named: Mapping[str, str],
    removed: set[int],
) -> dict[int, str]:
    """The book's transaction (pointer) → its key slot anew, for each of ``entries`` (those of
    QuickBooks in an account renamed to QuickBooks' name): the sums of what the book holds as
    the keys name it now, and QuickBooks' version where the exports hold it unchanged
    (``as_keyed``); a held one keeps QuickBooks' digest (it still differs), one edited in
    GnuCash its sums (it still is). Not those ``removed`` (taken from QuickBooks: deleted from
    the book above, their pointers gone; hunt 9: a key slot written through one corrupted the
    next transaction written)."""
    index = {e.handle: i for i, e in work.present.items()}
    held = {h.entry.handle for h in work.held}
    here = {e.handle for e in work.edited_here}
    fresh = keys.keys(as_keyed, OPENING_KIND)
    out = {}
    for e in entries:
        if e.handle in removed:
            continue
        assert e.stamp is not None
        lines = [(keys.by_prefix(a, named), v) for a, v in e.lines]
        sums = e.stamp.sums if e.handle in here else keys.sums(e.date, "v" in e.marks, lines)
        i = index.get(e.handle)
        key, content = e.stamp.key, e.stamp.content
        if i is not None and e.handle not in held:
            key, content = fresh[i], keys.content(as_keyed[i])
        out[e.handle] = f"{key} {content} {sums}"
    return out


def _remove(txn, said: str, *, copy: bool = False) -> None:
    """A transaction of ours taken out of the book (``copy``: GnuCash's copy of QuickBooks'):
    never one a document or a payment holds (its lots would lose a split), which the user
    changes in GnuCash itself."""
    document = bool(C.xaccTransGetReadOnly(txn))
    if document or any(
        C.xaccSplitGetLot(split) is not None for split in C.xaccTransGetSplitList(txn)
    ):
        raise UpdateRefused(f"the book's {said} {_held_by_lot(document, copy)}")
    C.xaccTransBeginEdit(txn)
    C.xaccTransDestroy(txn)
    C.xaccTransCommitEdit(txn)


def _held_by_lot(document: bool, copy: bool) -> str:
    """Why an update cannot take a transaction out, and what the user does in GnuCash instead:
    an invoice or a bill (posted: read-only) is unposted; a payment or a journal entry whose
    A/R or A/P line GnuCash keeps in a customer's or vendor's lot is changed in the Lot
    Viewer or entered again (hunt 22 F6: a journal entry was told to be unposted, which only
    a document can be; the writer makes both of GnuCash's payment type, so they are said
    together)."""
    if document:
        what = "an invoice or a bill in GnuCash"
        change, delete = "unpost it, change it, post it again", "unpost it first"
    else:
        what = (
            "a payment or a journal entry whose A/R or A/P line GnuCash keeps in a customer's "
            "or vendor's lot"
        )
        change = (
            "Actions › View Lots on that account moves a line to another lot; a payment can be "
            "deleted and entered again with Process Payment"
        )
        delete = "take its line out of the lot first, in Actions › View Lots"
    if copy:
        return (
            f"is {what}, which this update cannot delete: delete GnuCash's copy there "
            f"({delete}), or keep both"
        )
    return (
        f"is {what}, which this update cannot replace: make QuickBooks' change there ({change}; "
        "the next update sees it made), or keep the book's version"
    )


def _lists(w: Writer, ledger: Ledger, work: Work) -> None:
    """The accounts, terms, customers and vendors the book does not have yet, and the new jobs
    of customers it has (a new customer's jobs come with it)."""
    names = set(work.new_accounts)
    new_owners = set(work.new_owners)
    accounts.write(
        w, replace(ledger, accounts=tuple(a for a in ledger.accounts if a.full_name in names))
    )
    business.write(
        w,
        replace(
            ledger,
            terms=tuple(t for t in ledger.terms if t.name in set(work.new_terms)),
            customers=tuple(c for c in ledger.customers if ("customer", c.name) in new_owners),
            vendors=tuple(v for v in ledger.vendors if ("vendor", v.name) in new_owners),
            employees=tuple(e for e in ledger.employees if ("employee", e.name) in new_owners),
        ),
    )
    business.write_jobs(w, ledger, {n for k, n in new_owners if k == "customer" and ":" in n})


def staged_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.partial-update-{os.getpid()}")
