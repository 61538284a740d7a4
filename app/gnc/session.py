"""Writes a final ledger into a GnuCash book and reads a book back (the bindings come from
``app.gnc.bindings``).

Engine facts behind this code are in docs/ENGINE.md. In short: the account separator is set to
":" and the transaction journal and backup files are switched off once per process
(``bindings.engine``); a book is built under a temporary name beside its target, checked against
the input (split count and balance of every account) and renamed into place only after a
successful save. The transaction loop uses raw ``gnucash_core_c`` calls with every receiving
account in ``BeginEdit`` and, on GnuCash 4.x-5.6, the split-list detacher that keeps it linear.
Sessions are ended, never destroyed (destroy is quadratic in 4.13).
"""

from __future__ import annotations

import datetime as dt
import functools
import gzip
import logging
import os
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path

from app.book import (
    BookAccount,
    BookOwner,
    BookSnapshot,
    BookSplit,
    BookTerm,
    BookTransaction,
    WriteStats,
)
from app.errors import BookWriteError
from app.gnc import bindings
from app.gnc.bindings import (
    C,
    GncAccount,
    GncAddress,
    GncBillTerm,
    GncCustomer,
    GncEmployee,
    GncJob,
    GncNumeric,
    GncVendor,
    GnuCashBackendException,
    Query,
    Session,
    SessionOpenMode,
)
from app.gnc.engine import (
    Engine,
    LayoutError,
    SplitListDetacher,
    bill_terms,
    can_load,
    load_sql_detached,
    load_xml_detached,
    sum_splits,
)
from app.gnc.numeric import at_unit, exact, from_parts, places_of, to_decimal
from app.model import Address, Ledger, Role, Transaction

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Written:
    """What ``write_book`` made, for a pass that builds on it before the save (``after``):
    the engine objects by the ledger's names. ``transactions[i]`` is the engine transaction
    written for ``ledger.transactions[i]``; ``owners`` is keyed ("customer", full name incl.
    ``Customer:Job``) / ("vendor", name)."""

    book: object
    engine: Engine
    currency: object
    places: int
    accounts: dict
    transactions: list
    owners: dict
    terms: dict


Progress = Callable[[str, int, int], None]
VOID_REASON = "Voided in QuickBooks"
DETACH_EVERY = 1000  # keeps every account's live split list under ~1,000 nodes
PROGRESS_EVERY = 500


# ---------------------------------------------------------------- writing


def write_book(
    ledger: Ledger,
    path: Path,
    *,
    currency: str = "USD",
    fmt: str = "xml",
    on_progress: Progress | None = None,
    overwrite: bool = False,
    detach: bool = True,
    after: Callable[[Written], object] | None = None,
) -> WriteStats:
    """Write the final ``ledger`` to ``path`` (raises BookWriteError; then no file is left).

    ``detach=False`` forces the plain path (quadratic on 4.13; for comparison tests).
    ``after``: called with the ``Written`` book once the GL is written and self-checked,
    before the save (the business documents pass); its time is the "documents" phase.
    """
    path = Path(path).absolute()  # GnuCash reads a relative URI as under its own data folder
    if fmt not in ("xml", "sqlite"):
        raise BookWriteError(f"unknown book format {fmt!r} (expected xml or sqlite)")
    if path.exists() and not overwrite:
        raise BookWriteError(f"{path} already exists; not overwritten")
    if not path.parent.is_dir():
        raise BookWriteError(f"folder {path.parent} does not exist")
    engine = bindings.engine()
    tmp = path.with_name(f".{path.name}.partial-{os.getpid()}")
    _remove_partials(tmp)
    engine.log_disable()  # again: every backend's load re-enables the journal
    session = None
    try:
        if fmt == "xml":
            session = Session("xml://" + str(tmp), SessionOpenMode.SESSION_NEW_STORE)
        else:  # the save-as recipe: 4.13's constructor path loses SQLite data
            session = Session()
            session.begin("sqlite3://" + str(tmp), SessionOpenMode.SESSION_NEW_STORE)
        builder = _Builder(session.book, engine, currency, on_progress)
        stats = builder.build(ledger, detach)
        if after is not None:
            t0 = time.perf_counter()
            after(builder.written())
            stats = replace(stats, seconds=(*stats.seconds, ("documents", _since(t0))))
        _progress(on_progress, "saving", 0, 1)
        t0 = time.perf_counter()
        session.save()
        session.end()
        session = None
        if not tmp.is_file():  # an engine that skips saving an untouched book
            raise BookWriteError(f"GnuCash saved nothing for {path.name} (empty book?)")
        try:
            os.replace(tmp, path)
        except OSError as exc:
            raise BookWriteError(f"cannot move the book into place at {path}: {exc}") from exc
        _progress(on_progress, "saving", 1, 1)
        return replace(stats, seconds=(*stats.seconds, ("save", _since(t0))))
    except GnuCashBackendException as exc:
        raise BookWriteError(f"GnuCash could not write {path.name}: {exc}") from exc
    finally:
        if session is not None:
            session.end()  # without save(): discards the book and releases the lock
        _remove_partials(tmp)


def _remove_partials(tmp: Path) -> None:
    """The temporary book and whatever the engine put beside it (lock, journal)."""
    for p in tmp.parent.iterdir():
        if p.name.startswith(tmp.name):
            p.unlink(missing_ok=True)


def _progress(cb: Progress | None, phase: str, done: int, total: int) -> None:
    if cb is not None:
        cb(phase, done, total)


def _since(t0: float) -> float:
    return round(time.perf_counter() - t0, 3)


def _address(addr: GncAddress, a: Address, name: str | None = None) -> None:
    lines = list(a.lines[:3])
    if len(a.lines) > 3:  # GnuCash has four lines: keep the rest on the last one
        lines.append(", ".join(a.lines[3:]))
    addr.SetName(a.name if name is None else name)
    for setter, text in zip(
        (addr.SetAddr1, addr.SetAddr2, addr.SetAddr3, addr.SetAddr4), lines, strict=False
    ):
        setter(text)
    addr.SetPhone(a.phone)
    addr.SetFax(a.fax)
    addr.SetEmail(a.email)


def _join(*parts: str) -> str:
    return "\n".join(p for p in parts if p)


class _Builder:
    """One book being built; every method raises BookWriteError on input it cannot write."""

    def __init__(self, book, engine: Engine, currency: str, on_progress: Progress | None):
        self.book, self.engine, self.on_progress = book, engine, on_progress
        self.currency = book.get_table().lookup("CURRENCY", currency)
        if self.currency is None:
            raise BookWriteError(f"unknown currency {currency!r} (not in GnuCash's table)")
        self.places = places_of(self.currency, currency)
        self.accounts: dict[str, GncAccount] = {}
        self.times: list[tuple[str, float]] = []
        self.not_written: list[str] = []
        self.own_ids: Counter[str] = Counter()
        self.txn_ptrs: list = []
        self.owners: dict[tuple[str, str], object] = {}
        self.terms: dict[str, GncBillTerm] = {}

    def written(self) -> Written:
        return Written(
            self.book,
            self.engine,
            self.currency,
            self.places,
            self.accounts,
            self.txn_ptrs,
            self.owners,
            self.terms,
        )

    def next_id(self, book_i: int, counter: str) -> str:
        """The book counter's next id; numbered here ("000001"...) on an engine without the
        counter function (GnuCash's own next id may then repeat one)."""
        got = self.engine.next_id(book_i, counter)
        if got is None:
            self.own_ids[counter] += 1
            got = f"{self.own_ids[counter]:06d}"
        return got

    def build(self, ledger: Ledger, detach: bool) -> WriteStats:
        t0 = time.perf_counter()
        self.write_accounts(ledger)
        terms = self.write_terms(ledger)
        owners = self.write_owners(ledger, terms)
        self.terms = terms
        self.times.append(("accounts", _since(t0)))
        t0 = time.perf_counter()
        detached, fallback, splits = self.write_transactions(ledger.transactions, detach)
        self.times.append(("transactions", _since(t0)))
        t0 = time.perf_counter()
        self.self_check(ledger)
        self.times.append(("check", _since(t0)))
        return WriteStats(
            accounts=len(self.accounts),
            transactions=len(ledger.transactions),
            splits=splits,
            terms=len(terms),
            detached=detached,
            fallback=fallback,
            not_written=tuple(self.not_written),
            seconds=tuple(self.times),
            **owners,
        )

    def write_accounts(self, ledger: Ledger) -> None:
        root = self.book.get_root_account()
        total = len(ledger.accounts)
        ordered = sorted(ledger.accounts, key=lambda a: a.full_name.count(":"))
        for done, acc in enumerate(ordered, 1):
            if acc.type is None:
                raise BookWriteError(f"{acc.source}: account {acc.full_name!r} has no type")
            if acc.full_name in self.accounts:
                raise BookWriteError(f"{acc.source}: account {acc.full_name!r} appears twice")
            parent = self.accounts.get(acc.parent_name) if acc.parent_name else root
            if parent is None:
                raise BookWriteError(
                    f"{acc.source}: parent {acc.parent_name!r} of {acc.full_name!r} is missing"
                )
            a = GncAccount(self.book)
            a.BeginEdit()
            a.SetName(acc.name)
            a.SetType(getattr(C, "ACCT_TYPE_" + acc.type.value))
            a.SetCommodity(self.currency)
            a.SetCode(acc.code)
            a.SetDescription(acc.description)
            a.SetNotes(acc.notes)
            a.SetHidden(acc.hidden)
            a.SetPlaceholder(acc.placeholder)
            if acc.role is Role.OPENING_BALANCE:
                a.SetIsOpeningBalance(True)
            parent.append_child(a)
            a.CommitEdit()
            self.accounts[acc.full_name] = a
            if done % PROGRESS_EVERY == 0 or done == total:
                _progress(self.on_progress, "accounts", done, total)

    def write_terms(self, ledger: Ledger) -> dict[str, GncBillTerm]:
        terms: dict[str, GncBillTerm] = {}
        for term in ledger.terms:
            if term.kind not in ("days", "proximo"):
                raise BookWriteError(f"{term.source}: term {term.name!r} kind {term.kind!r}")
            bt = GncBillTerm(self.book)
            bt.BeginEdit()
            bt.SetName(term.name)
            bt.SetDescription(term.description or term.name)
            proximo = term.kind == "proximo"
            bt.SetType(C.GNC_TERM_TYPE_PROXIMO if proximo else C.GNC_TERM_TYPE_DAYS)
            bt.SetDueDays(term.due_days)
            bt.SetDiscountDays(term.discount_days)
            bt.SetDiscount(GncNumeric(*exact(term.discount)))
            if proximo:
                bt.SetCutoff(term.cutoff)
            bt.CommitEdit()
            if term.hidden:
                self.not_written.append(f"term {term.name}: hidden flag (no such field)")
            terms[term.name] = bt
        return terms

    def write_owners(self, ledger: Ledger, terms: dict[str, GncBillTerm]) -> dict[str, int]:
        book, book_i = self.book, self.book.get_instance()

        def term(name: str, where: object) -> GncBillTerm | None:
            if name and name not in terms:
                raise BookWriteError(f"{where}: terms {name!r} are not in the terms list")
            return terms.get(name)

        jobs = 0
        for cust in ledger.customers:
            c = GncCustomer(book, C.gncCustomerNextID(book_i), self.currency, cust.name)
            c.BeginEdit()
            _address(c.GetAddr(), cust.billing)
            _address(c.GetShipAddr(), cust.shipping)
            taxable = {None: "", True: "Taxable: yes", False: "Taxable: no"}[cust.taxable]
            c.SetNotes(_join(cust.notes, taxable))
            c.SetActive(cust.active)
            if bt := term(cust.terms, cust.source):
                c.SetTerms(bt)
            if cust.credit_limit is not None:
                c.SetCredit(GncNumeric(*at_unit(cust.credit_limit, self.places, cust.source)))
            c.CommitEdit()
            self.owners["customer", cust.name] = c
            for job in cust.jobs:
                j = GncJob(book, self.next_id(int(book_i), "gncJob"), c, job.name)
                j.BeginEdit()
                j.SetReference(job.description)
                j.SetActive(job.active)
                j.CommitEdit()
                self.owners["customer", f"{cust.name}:{job.name}"] = j
                if job.notes:
                    self.not_written.append(f"job {cust.name}:{job.name}: notes (no such field)")
                jobs += 1
        for vend in ledger.vendors:
            v = GncVendor(book, C.gncVendorNextID(book_i), self.currency, vend.name)
            v.BeginEdit()
            _address(v.GetAddr(), vend.address)
            v.SetNotes(
                _join(
                    vend.notes,
                    f"Tax ID: {vend.tax_id}" if vend.tax_id else "",
                    "Eligible for 1099: yes" if vend.eligible_1099 else "",
                )
            )
            v.SetActive(vend.active)
            if bt := term(vend.terms, vend.source):
                v.SetTerms(bt)
            v.CommitEdit()
            self.owners["vendor", vend.name] = v
        for emp in ledger.employees:
            e_id = self.next_id(int(book_i), "gncEmployee")
            e = GncEmployee(book, e_id, self.currency, emp.name)
            e.BeginEdit()
            _address(e.GetAddr(), emp.address, name=emp.name)  # the address name IS the name
            e.SetActive(emp.active)
            e.CommitEdit()
            if emp.notes:
                self.not_written.append(f"employee {emp.name}: notes (no such field)")
        return {
            "customers": len(ledger.customers),
            "jobs": jobs,
            "vendors": len(ledger.vendors),
            "employees": len(ledger.employees),
        }

    def write_transactions(
        self, txns: tuple[Transaction, ...], detach: bool
    ) -> tuple[bool, str, int]:
        """The hot loop (GNUCASH-SCALING §3). Returns (detached, why not, split count)."""
        used = {s.account for t in txns for s in t.splits}
        for t in txns:
            for s in t.splits:
                if s.account not in self.accounts:
                    raise BookWriteError(f"{s.source}: account {s.account!r} is not in the chart")
        receiving = [self.accounts[name] for name in sorted(used)]
        book_i, cur_i = self.book.get_instance(), self.currency.get_instance()
        inst = {name: a.get_instance() for name, a in self.accounts.items()}
        defer = getattr(C, "gnc_account_set_defer_bal_computation", None)
        for a in receiving:
            a.BeginEdit()
            if defer is not None:
                defer(a.get_instance(), True)
        self.engine.suspend_events()
        detacher = None
        fallback = "" if detach else "plain path requested"
        if detach:
            try:
                detacher = SplitListDetacher(
                    self.engine, [int(a.get_instance()) for a in receiving]
                )
            except LayoutError as exc:  # another engine: the plain path (docs/ENGINE.md)
                fallback = str(exc)
        total, splits = len(txns), 0
        places = self.places
        keep = self.txn_ptrs.append
        try:
            for done, txn in enumerate(txns, 1):
                if not txn.splits:
                    raise BookWriteError(f"{txn.source}: transaction without splits")
                values = [at_unit(s.value, places, s.source)[0] for s in txn.splits]
                if sum(values):
                    raise BookWriteError(f"{txn.source}: transaction does not balance")
                t = C.xaccMallocTransaction(book_i)
                keep(t)
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
                    n = C.gnc_numeric_create(v, 10**self.places)
                    C.xaccSplitSetValue(s, n)
                    C.xaccSplitSetAmount(s, n)
                    if sp.memo:
                        C.xaccSplitSetMemo(s, sp.memo)
                    if sp.reconcile.value != "n":
                        C.xaccSplitSetReconcile(s, sp.reconcile.value)
                splits += len(values)
                C.xaccTransCommitEdit(t)
                if txn.voided:
                    C.xaccTransVoid(t, VOID_REASON)
                if detacher is not None and done % DETACH_EVERY == 0:
                    try:
                        detacher.detach()
                    except LayoutError as exc:  # raised before anything was moved
                        fallback = str(exc)
                        log.info("split-list detacher not used: %s", exc)
                        detacher = None
                if done % PROGRESS_EVERY == 0 or done == total:
                    _progress(self.on_progress, "transactions", done, total)
        finally:
            if detacher is not None:
                detacher.reattach()  # always, before anything reads or saves the accounts
            for a in receiving:
                if defer is not None:
                    defer(a.get_instance(), False)
                a.CommitEdit()
            self.engine.resume_events()
        used_detacher = detacher is not None and detacher.detaches > 0
        if detacher is not None and not used_detacher:
            fallback = "fewer transactions than one detach interval"
        return used_detacher, fallback, splits

    def self_check(self, ledger: Ledger) -> None:
        """Every account's split count and balance as the engine holds them must equal the
        input before anything is saved; no engine-made account (Imbalance, Orphan) may exist."""
        count: Counter[str] = Counter()
        balance: dict[str, Decimal] = defaultdict(Decimal)
        for t in ledger.transactions:
            for s in t.splits:
                count[s.account] += 1
                if not t.voided:
                    balance[s.account] += s.value
        n_book = len(self.book.get_root_account().get_descendants())
        if n_book != len(self.accounts):
            raise BookWriteError(
                f"GnuCash created {n_book - len(self.accounts)} account(s) of its own "
                "(Imbalance/Orphan): the input does not balance"
            )
        for name, a in self.accounts.items():
            got_n = self.engine.split_count(int(a.get_instance()))
            if got_n is None:  # 4.x: the account's own list, nothing copied
                got_n = len(C.xaccAccountGetSplitList(a.get_instance()))
            got_b = to_decimal(a.GetBalance())
            if got_n != count[name] or got_b != balance[name]:
                raise BookWriteError(
                    f"self-check failed for {name}: {got_n} splits, balance {got_b}; "
                    f"expected {count[name]} splits, balance {balance[name]}"
                )


# ---------------------------------------------------------------- reading


def read_book(
    path: Path,
    *,
    transactions: bool = False,
    on_progress: Progress | None = None,
    detach: bool = True,
) -> BookSnapshot:
    """What the book at ``path`` holds, read in a read-only session (ended, never destroyed).

    ``transactions=True`` also lists every transaction (BookTransaction). XML books are loaded
    with the split-list detacher (linear on 4.x-5.6; ``detach=False`` for the plain load).
    Raises BookWriteError when the file cannot be opened.
    """
    path = Path(path).absolute()  # (a relative one would be under GnuCash's data folder)
    if not path.is_file():
        raise BookWriteError(f"no book at {path}")
    engine = bindings.engine()
    with path.open("rb") as f:
        sqlite = f.read(16) == b"SQLite format 3\0"
    uri = ("sqlite3://" if sqlite else "xml://") + str(path)
    try:
        # begin + load rather than the constructor: a loader re-enables the journal, and the
        # constructor's SQLite path then writes a .log beside the book.
        session = Session()
        engine.log_disable()
        session.begin(uri, SessionOpenMode.SESSION_READ_ONLY)
        ctypes_load = detach and can_load(engine)
        total = 0 if sqlite or not ctypes_load else _xml_transaction_count(path)
        why = "" if ctypes_load else "plain load requested" if not detach else "no ctypes load"
        if sqlite and ctypes_load:
            why = load_sql_detached(engine, int(session.get_instance()))
        elif total > DETACH_EVERY:
            why = load_xml_detached(engine, int(session.get_instance()), total, on_progress)
        else:
            session.load()
            why = why or "fewer transactions than one detach interval"
        session.raise_backend_errors("load")
        detached = not why
        if why and why != engine.detacher_refusal():  # that one is logged once, in bindings.engine
            log.info("read-back without the split-list detacher: %s", why)
        engine.log_disable()
    except GnuCashBackendException as exc:
        session.end()
        raise BookWriteError(f"GnuCash could not open {path.name}: {exc}") from exc
    try:
        book = session.book
        snap = _read_accounts(engine, book, transactions, on_progress)
        return replace(
            snap,
            customers=_read_owners(book, "gncCustomer", GncCustomer),
            vendors=_read_owners(book, "gncVendor", GncVendor),
            employees=_read_owners(book, "gncEmployee", GncEmployee),
            terms=_read_terms(engine, book),
            detached_load=detached,
        )
    finally:
        session.end()


def _xml_transaction_count(path: Path) -> int:
    """The transaction count the XML writer puts near the top of the file (0 if absent)."""
    with path.open("rb") as raw:
        gz = raw.read(2) == b"\x1f\x8b"
    with (gzip.open if gz else open)(path, "rb") as f:
        head = f.read(1 << 16)
    m = re.search(rb'<gnc:count-data cd:type="transaction">(\d+)<', head)
    return int(m.group(1)) if m else 0


def _read_accounts(
    engine: Engine, book, with_txns: bool, on_progress: Progress | None
) -> BookSnapshot:
    accounts: list[BookAccount] = []
    txn_day: dict[int, object] = {}  # transaction pointer → posted date, each once
    txns: list[object] = []  # transaction objects in first-seen order (with_txns only)
    flags: dict[bytes, int] = {}
    # the bindings' own time64 → datetime conversion (local time), once per distinct time
    day_of = functools.cache(lambda t: dt.datetime.fromtimestamp(t).date())
    descendants = book.get_root_account().get_descendants()
    names = {int(a.get_instance()): a.get_full_name() for a in descendants}
    for done, a in enumerate(descendants, 1):
        splits = C.xaccAccountGetSplitList(a.get_instance())
        try:  # sums: (date, denominator) → numerator sum
            sums, new = sum_splits(engine, [int(s) for s in splits], txn_day, day_of, flags)
        except LayoutError as exc:
            raise BookWriteError(f"cannot read the book's splits: {exc}") from exc
        if with_txns:
            txns.extend(C.xaccSplitGetParent(splits[i]) for i in new)
        daily: dict[dt.date, Decimal] = defaultdict(Decimal)
        for (day, den), num in sums.items():
            daily[day] += from_parts(num, den)  # type: ignore[index]
        commodity = a.GetCommodity()
        accounts.append(
            BookAccount(
                full_name=names[int(a.get_instance())],
                type=C.xaccAccountTypeEnumAsString(a.GetType()),
                code=a.GetCode() or "",
                description=a.GetDescription() or "",
                notes=a.GetNotes() or "",
                hidden=bool(a.GetHidden()),
                placeholder=bool(a.GetPlaceholder()),
                opening_balance=bool(a.GetIsOpeningBalance()),
                commodity=commodity.get_mnemonic() if commodity else "",
                balance=sum(daily.values(), Decimal(0)),
                splits=len(splits),
                daily=tuple(sorted(daily.items())),
            )
        )
        _progress(on_progress, "reading", done, len(descendants))
    reconcile = Counter({f.decode("latin-1"): n for f, n in flags.items()})
    days = [d for a in accounts for d, _ in a.daily[:1] + a.daily[-1:]]
    listed = [_transaction(t, names) for t in txns]
    listed.sort(key=lambda t: (t.date, t.num, t.description))
    return BookSnapshot(
        currency=Counter(a.commodity for a in accounts).most_common(1)[0][0] if accounts else "",
        accounts=tuple(accounts),
        transactions=len(txn_day),
        splits=sum(a.splits for a in accounts),
        reconcile=tuple(sorted(reconcile.items())),
        first_date=min(days, default=None),
        last_date=max(days, default=None),
        transaction_list=tuple(listed),
    )


def _transaction(t, names: dict[int, str]) -> BookTransaction:
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
            )
            for s in C.xaccTransGetSplitList(t)
        ),
        voided=bool(C.xaccTransGetVoidStatus(t)),
    )


def _address_tuple(addr: GncAddress) -> tuple[str, ...]:
    """(name, addr1..4, phone, fax, email), or () when all are empty."""
    fields = tuple(
        (getter() or "")
        for getter in (
            addr.GetName,
            addr.GetAddr1,
            addr.GetAddr2,
            addr.GetAddr3,
            addr.GetAddr4,
            addr.GetPhone,
            addr.GetFax,
            addr.GetEmail,
        )
    )
    return fields if any(fields) else ()


def _read_owners(book, kind: str, cls) -> tuple[BookOwner, ...]:
    query = Query()
    query.search_for(kind)
    query.set_book(book)
    owners = []
    for inst in query.run():
        o = cls(instance=inst)
        terms = o.GetTerms() if kind != "gncEmployee" else None
        jobs = (
            tuple(sorted(C.gncJobGetName(j) for j in C.gncCustomerGetJoblist(inst, True)))
            if kind == "gncCustomer"
            else ()
        )
        credit = o.GetCredit() if kind == "gncCustomer" else None
        owners.append(
            BookOwner(
                id=o.GetID(),
                name=o.GetName() or "",
                active=bool(o.GetActive()),
                notes=(o.GetNotes() or "") if kind != "gncEmployee" else "",
                terms=(terms.GetName() or "") if terms else "",
                address=_address_tuple(o.GetAddr()),
                ship_address=_address_tuple(o.GetShipAddr()) if kind == "gncCustomer" else (),
                credit_limit=to_decimal(credit) if credit is not None else None,
                jobs=jobs,
            )
        )
    query.destroy()
    return tuple(sorted(owners, key=lambda o: o.id))


def _read_terms(engine: Engine, book) -> tuple[BookTerm, ...]:
    try:
        rows = bill_terms(engine, int(book.get_instance()))
    except LayoutError as exc:  # the bindings' own path only reaches terms in use
        log.warning("bill terms read through customers and vendors only: %s", exc)
        rows = _terms_in_use(book)
    out = []
    for name, kind, due, disc_days, num, den, cutoff in rows:
        proximo = kind == C.GNC_TERM_TYPE_PROXIMO
        out.append(
            BookTerm(
                name=name,
                kind="proximo" if proximo else "days",
                due_days=due,
                discount_days=disc_days,
                discount=Decimal(num) / Decimal(den) if den else Decimal(0),
                cutoff=cutoff,
            )
        )
    return tuple(sorted(out, key=lambda t: t.name))


def _terms_in_use(book) -> list[tuple[str, int, int, int, int, int, int]]:
    """``bill_terms`` rows for the terms that customers and vendors refer to (typed objects
    from the bindings; a term nobody uses is not reachable this way)."""
    seen: dict[str, tuple[str, int, int, int, int, int, int]] = {}
    for kind, cls in (("gncCustomer", GncCustomer), ("gncVendor", GncVendor)):
        query = Query()
        query.search_for(kind)
        query.set_book(book)
        for inst in query.run():
            t = cls(instance=inst).GetTerms()
            if t is not None and t.GetName() not in seen:
                d = t.GetDiscount()
                seen[t.GetName()] = (
                    t.GetName() or "",
                    t.GetType(),
                    t.GetDueDays(),
                    t.GetDiscountDays(),
                    d.num(),
                    d.denom(),
                    t.GetCutoff(),
                )
        query.destroy()
    return list(seen.values())
