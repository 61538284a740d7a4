"""Bringing a book up to date (the parallel run): what a book written by an earlier run holds,
matched with later exports of the same company by each transaction's key (``app.keys``).

Pure: ``decide`` takes the book as the engine read it (``BookState``, read by ``app.gnc``) and
the new exports' final ledger, and says what to add, what is already there, and what changed
in QuickBooks since (listed, never applied: the book keeps its version) or in GnuCash (kept).
Refusals (a book we did not write, another company, older exports, a closed period) raise
``UpdateRefused`` before anything is written. docs/UPDATE.md explains each rule.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from app import keys as k
from app.book import BookBudget
from app.coverage import history_span
from app.errors import BookWriteError
from app.lists import owner_keys
from app.model import Ledger, Transaction
from app.openings import OPENING_KIND
from app.update_record import Record, record_of
from app.update_refused import mostly_changed, refusal
from app.words import plural

ZERO = Decimal(0)


class UpdateRefused(BookWriteError):
    """The book cannot be brought up to date with these exports (the message says why)."""


@dataclass(frozen=True, slots=True)
class BookEntry:
    """One transaction of the book as the update reads it."""

    handle: int  # the engine's pointer in the session that read it (opaque here)
    date: dt.date
    num: str
    description: str
    stamp: k.Stamp | None  # None: not written by qb2gnucash
    sums: str  # ``keys.sums`` of what the book holds now
    lines: tuple[tuple[str, Decimal], ...]  # (account, value) of each split
    link: bool = False  # a lot link between two documents (the documents pass made it)
    marks: str = ""  # each split's reconcile state ("n", "c", "y", "v"), as ``lines``
    made: str = ""  # made in GnuCash (no stamp): its GUID's first 8 hex digits (copies apart)

    @property
    def ours(self) -> bool:
        return self.stamp is not None

    def said(self) -> str:
        what = " ".join(p for p in (self.num, self.description) if p)
        return f"{self.date.isoformat()} {what}".strip()


@dataclass(frozen=True, slots=True)
class BookState:
    record: Record | None
    entries: tuple[BookEntry, ...]
    accounts: frozenset[str]  # full names as the keys have them (``here``: as the book has them)
    owners: frozenset[tuple[str, str]]  # ("customer", "Name" or "Name:Job"), ("vendor", ...)
    terms: frozenset[str]
    read_only_before: dt.date | None = None  # GnuCash's read-only threshold, when set
    codes: Mapping[str, str] = field(default_factory=dict)  # account → its code (number)
    here: Mapping[str, str] = field(default_factory=dict)  # renamed in GnuCash: keys' → now
    keyed: frozenset[str] = frozenset()  # accounts whose keys' name is in their slot
    reconciled: Mapping[str, dt.date] = field(default_factory=dict)  # keys' name → last date
    budgets: tuple[BookBudget, ...] = ()  # accounts as the keys name them


@dataclass(frozen=True, slots=True)
class Held:
    """A change in QuickBooks since the last run, not applied: ``index`` the new version in
    the ledger (None: the transaction is gone from QuickBooks), ``entry`` the book's."""

    entry: BookEntry
    index: int | None
    why: str
    kept: bool = False  # the plan says: keep the book's version
    alias: str = ""  # the key of a copy made in GnuCash of QuickBooks' (``app.update_twice``)

    @property
    def key(self) -> str:
        return self.alias or (self.entry.stamp.key if self.entry.stamp else "")


@dataclass(frozen=True, slots=True)
class Carried:
    """QuickBooks' later reconciliation of an account, carried into the book: its statement
    date as the last reconcile date (``was``: the book's before), and the lines the book held
    unreconciled that QuickBooks has reconciled since ((transaction handle, split's place))."""

    account: str
    date: dt.date
    was: dt.date | None
    lines: tuple[tuple[int, int], ...] = ()

    def said(self) -> str:
        more = f"; {plural(len(self.lines), 'line')} reconciled since" if self.lines else ""
        return (
            f"QuickBooks' reconciliation of {self.account} on {self.date} carried into the book "
            f"(its last reconcile date{more})"
        )


@dataclass(frozen=True, slots=True)
class ReconciledHere:
    """An account reconciled in GnuCash since the last run: its reconciliation is the book's."""

    account: str
    book: dt.date
    quickbooks: dt.date

    def said(self) -> str:
        return (
            f"{self.account}: reconciled in GnuCash to {self.book} (QuickBooks' last statement: "
            f"{self.quickbooks})"
        )


def reconciled_here_line(said: Sequence[str]) -> str:
    """The one sentence for reconciliations made in GnuCash since the last run (``said``:
    ``ReconciledHere.said`` of each): the update's summary and its proof's notes."""
    return (
        "Reconciliations made in GnuCash since the last run, kept and not compared with "
        f"QuickBooks' statements: {'; '.join(said)}"
    )


@dataclass(frozen=True)
class Work:
    keys: tuple[str, ...]  # of every ledger transaction
    add: tuple[int, ...]  # ledger indices to write
    present: dict[int, BookEntry]  # ledger index → the book's transaction (held ones too)
    held: tuple[Held, ...]
    edited_here: tuple[BookEntry, ...]  # ours, changed in GnuCash since: kept
    added_here: tuple[BookEntry, ...]  # made in GnuCash alone: kept, left out of the proof
    new_accounts: tuple[str, ...]
    new_owners: tuple[tuple[str, str], ...]
    new_terms: tuple[str, ...]
    last: Record | None = None  # the book's record of the last run
    links: tuple[BookEntry, ...] = ()  # the book's lot links between documents (no key)
    # held changes the plan takes QuickBooks' version of: the book's transaction removed (and
    # QuickBooks' version, if any, among ``add``)
    taken: tuple[Held, ...] = ()
    # the book's accounts QuickBooks never had: no account slot, not in the exports nor in the
    # last run's figures (made in GnuCash alone, by the user or by GnuCash: Imbalance-USD)
    accounts_here: tuple[str, ...] = ()
    # QuickBooks' later reconciliations carried, and those the book made since (left as they
    # are): ``app.update_statements``
    reconciled: tuple[Carried, ...] = ()
    reconciled_here: tuple[ReconciledHere, ...] = ()
    # the keys of copies made in GnuCash of QuickBooks' transactions that the plan keeps as
    # two transactions (``app.update_twice``): made in GnuCash alone, among ``added_here``
    both: tuple[str, ...] = ()
    # QuickBooks' transactions deleted in GnuCash since the last run, by ledger index: kept
    # out of the book (``app.update_deleted``); and the keys of those the plan puts back
    deleted_here: tuple[int, ...] = ()
    put_back: tuple[str, ...] = ()
    unsure: tuple[tuple[str, int], ...] = ()  # (month, how many) gone but not told apart
    # QuickBooks' transactions the user deleted and entered again in GnuCash (an invoice
    # unposted and posted again): (ledger index, the book's new one), keyed by this run
    rekeyed: tuple[tuple[int, BookEntry], ...] = ()
    # QuickBooks' changes since the last run that the user made in GnuCash too: the book holds
    # QuickBooks' version (its date and sums), so nothing is held; their key slots restamped
    by_hand: tuple[BookEntry, ...] = ()

    @property
    def nothing_new(self) -> bool:
        return not (
            self.add
            or self.taken
            or self.new_accounts
            or self.new_owners
            or self.new_terms
            or self.reconciled
            or bool(self.put_back)
        )


def decide(
    state: BookState,
    ledger: Ledger,
    opening_kind: str,
    book: str = "the book",
    choices: Mapping[str, str] | None = None,
) -> Work:
    """What an update adds, finds and holds (see the module docstring); ``UpdateRefused``.
    ``choices``: the plan's decision on a held change by its key (``Plan.held``)."""
    if why := refusal(state.record, ledger, book, choices):
        raise UpdateRefused(why)
    txns = ledger.transactions
    all_keys = k.keys(txns, opening_kind)
    by_key = {e.stamp.key: e for e in state.entries if e.stamp is not None}
    add: list[int] = []
    present: dict[int, BookEntry] = {}
    held: list[Held] = []
    by_hand: list[BookEntry] = []
    for i, key in enumerate(all_keys):
        e = by_key.get(key)
        if e is None:
            add.append(i)
            continue
        present[i] = e
        assert e.stamp is not None
        if e.stamp.content != k.content(txns[i]):
            _changed(e, i, txns[i], held, by_hand)
    gone = _gone(state, set(all_keys), ledger)
    add, gone, edited = _pair_fingerprints(add, gone, txns, all_keys)
    for i, e in edited:  # (keyed by fingerprint: the same rules as by Trans # above)
        present[i] = e
        _changed(e, i, txns[i], held, by_hand)
    # (a change of memo or class alone keeps the sums, number and name: the same company's)
    edits = sum(h.index is not None and not _looks_alike(h.entry, txns[h.index]) for h in held)
    if why := mostly_changed(len(present), edits, book):
        raise UpdateRefused(why)
    held += [Held(e, None, "deleted in QuickBooks, or outside the exports") for e in gone]
    said = choices or {}
    taken = [h for h in held if said.get(h.key) == "quickbooks"]
    held = [replace(h, kept=said.get(h.key) == "book") for h in held if h not in taken]
    for h in taken:
        if h.index is not None:
            del present[h.index]
            add.append(h.index)
    add.sort()
    if state.read_only_before is not None:
        early = [i for i in add if txns[i].date < state.read_only_before]
        if early:
            t = txns[early[0]]
            raise UpdateRefused(
                f"{t.source}: {plural(len(early), 'new transaction')} would go into the book's "
                f"closed period (read-only before {state.read_only_before}): open the period "
                "in GnuCash (File › Properties › Accounts) or leave those transactions out"
            )
    ours = [e for e in state.entries if e.stamp is not None]
    # made by hand (QuickBooks' version), or the book's version taken out: no edit of the book
    apart = {id(e) for e in (*by_hand, *(h.entry for h in taken))}
    names = {a.full_name for a in ledger.accounts}
    rec = state.record
    assert rec is not None  # (refused without one)
    owners = owner_keys(ledger)
    return Work(
        keys=tuple(all_keys),
        add=tuple(add),
        present=present,
        held=tuple(sorted(held, key=lambda h: h.entry.date)),
        edited_here=tuple(
            e for e in ours if e.stamp and e.stamp.sums != e.sums and id(e) not in apart
        ),
        by_hand=tuple(by_hand),
        added_here=tuple(e for e in state.entries if e.stamp is None and not e.link),
        new_accounts=tuple(sorted(names - state.accounts)),
        new_owners=tuple(o for o in owners if o not in state.owners),
        new_terms=tuple(t.name for t in ledger.terms if t.name not in state.terms),
        last=state.record,
        links=tuple(e for e in state.entries if e.stamp is None and e.link),
        taken=tuple(taken),
        accounts_here=tuple(sorted(state.accounts - state.keyed - names - set(rec.figures))),
    )


def _changed(
    e: BookEntry, i: int, t: Transaction, held: list[Held], by_hand: list[BookEntry]
) -> None:
    """QuickBooks' change of the book's ``e`` (its version now ``t``, at ``i``): made in GnuCash
    too (``by_hand``), else held, saying when the book changed it as well."""
    assert e.stamp is not None
    if _by_hand(e, t):
        by_hand.append(e)
        return
    voided = t.voided and e.stamp.sums != k.ledger_sums(t)  # (not when written void already)
    why = "voided in QuickBooks" if voided else "edited in QuickBooks"
    if e.sums != e.stamp.sums:  # (the amounts the line shows may be GnuCash's edit)
        why += ", and edited in GnuCash since the last run"
    held.append(Held(e, i, why))


def _looks_alike(e: BookEntry, t: Transaction) -> bool:
    """QuickBooks' version ``t`` of the book's ``e`` has its number, name, date and sums: what
    changed is what the sums leave out (a memo, a class)."""
    assert e.stamp is not None
    return (t.num, t.description) == (e.num, e.description) and e.stamp.sums == k.ledger_sums(t)


def _by_hand(e: BookEntry, t: Transaction) -> bool:
    """QuickBooks' change made in GnuCash too: the book changed since the last run and now holds
    QuickBooks' version's date, void and sums (a memo is not compared: the book's stays)."""
    assert e.stamp is not None
    return e.sums != e.stamp.sums and e.sums == k.ledger_sums(t)


def _gone(state: BookState, keys: set[str], ledger: Ledger) -> list[BookEntry]:
    """The book's transactions from QuickBooks that the new exports no longer have, within
    the days the exports' history covers (older ones are simply not in them)."""
    first, last = history_span(ledger.files)  # (a report's title: its whole period)
    return [
        e
        for e in state.entries
        if e.stamp is not None
        and e.stamp.key != k.OPENING
        and e.stamp.key not in keys
        and first is not None
        and last is not None
        and first <= e.date <= last
    ]


def _pair_fingerprints(
    add: list[int], gone: list[BookEntry], txns: Sequence[Transaction], all_keys: Sequence[str]
) -> tuple[list[int], list[BookEntry], list[tuple[int, BookEntry]]]:
    """A transaction keyed by its fingerprint that QuickBooks edited looks new, and the book's
    version gone: the two are paired back by date, number and name (``keys.look_alike``)."""
    waiting: defaultdict[tuple, list[BookEntry]] = defaultdict(list)
    for e in gone:
        if e.stamp is not None and e.stamp.key.startswith("fp:"):
            waiting[(e.date.isoformat(), e.num, e.description)].append(e)
    kept_add, paired = [], []
    for i in add:
        t = txns[i]
        spot = waiting.get((t.date.isoformat(), t.num, t.description))
        if all_keys[i].startswith("fp:") and spot:
            paired.append((i, spot.pop(0)))
        else:
            kept_add.append(i)
    matched = {id(e) for _, e in paired}
    return kept_add, [e for e in gone if id(e) not in matched], paired


def marks(ledger: Ledger, plan_json: str) -> tuple[list[str], str]:
    """What a first write stamps: each transaction's slot text and the book's run record."""
    found = k.keys(ledger.transactions, OPENING_KIND)
    texts = [k.stamp(key, t) for key, t in zip(found, ledger.transactions, strict=True)]
    written = zip((t.date for t in ledger.transactions), found, strict=True)
    return texts, record_of(ledger, plan_json, written=written).to_text()


def aligned(a: Ledger, b: Ledger) -> bool:
    """The same transactions in the same order (prepared under other account names)."""
    pairs = zip(a.transactions, b.transactions, strict=False)
    return len(a.transactions) == len(b.transactions) and all(
        x.date == y.date and x.ref == y.ref and x.num == y.num for x, y in pairs
    )
