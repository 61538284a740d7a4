"""A book's keys and state, read through the engine for an update (``app.update.BookState``),
and the stamps a write leaves: each transaction's key slot and the book's run record
(docs/UPDATE.md, "Where the keys live in the book", "Reading the book").

Everything here works on an open book in a session the caller holds: the update reads the book
and writes into it in one session (``app.gnc.update``).
"""

from __future__ import annotations

import ctypes
import datetime as dt
import functools
import logging
from collections.abc import Mapping, Sequence

from app import keys
from app.errors import BookWriteError
from app.gnc import budgets, owner_names
from app.gnc.bindings import C, GncBillTerm, GncEmployee, Query
from app.gnc.calls import calls, walk
from app.gnc.engine import Engine, bill_terms, bind
from app.gnc.numeric import from_parts
from app.gnc.slots import Slots, slots
from app.update import BookEntry, BookState, UpdateRefused
from app.update_record import RECORD_SLOT, Record
from app.words import quoted

log = logging.getLogger(__name__)
_P = ctypes.c_void_p


def _slots(engine: Engine) -> Slots:
    s = slots(engine)
    if s.missing:
        raise BookWriteError(
            f"GnuCash {engine.name} does not export {', '.join(s.missing)}: the keys an update "
            "needs cannot be kept in the book"
        )
    return s


def stamp(  # noqa: PLR0917
    engine: Engine,
    book,
    txns: Sequence[object],
    texts: Sequence[str],
    record: str,
    named: Mapping[str, str] | None = None,
    ours: set[str] | None = None,
) -> None:
    """Each written transaction's key slot (``keys.stamp``), each account's name as the keys
    have it where it has none yet (its full name, renamed by ``named``: the book's name → the
    keys', where the account was renamed in GnuCash; only the exports' accounts, ``ours``, where
    given: not those made in GnuCash alone) and the book's run record; set outside an edit, for
    the one save that writes the whole book (app/gnc/slots.py). An engine without the slot calls
    writes the book without them (said in the log): an update of it is then refused as of a
    book not ours."""
    s = slots(engine)
    if s.missing:
        log.warning("GnuCash %s: no %s; the book keeps no keys", engine.name, ", ".join(s.missing))
        return
    for t, text in zip(txns, texts, strict=True):
        s.set_text(int(t), keys.SLOT, text)  # type: ignore[call-overload]
    for a in book.get_root_account().get_descendants():
        mine = ours is None or a.get_full_name() in ours
        if mine and not s.text(int(a.get_instance()), keys.ACCOUNT_SLOT):
            full = keys.by_prefix(a.get_full_name(), named or {})
            s.set_text(int(a.get_instance()), keys.ACCOUNT_SLOT, full)
    if ours is None:  # a first write: every customer, vendor and job is QuickBooks'
        owner_names.stamp(engine, book)
    s.put_long(int(book.get_instance()), RECORD_SLOT, record)


def rename_account(engine: Engine, account, name: str, keyed: str) -> None:
    """``account`` renamed ``name`` (its leaf), the keys' name of it ``keyed`` (QuickBooks'
    full name), its sub-accounts' with it: QuickBooks' name taken (docs/UPDATE.md)."""
    s = _slots(engine)
    was = s.text(int(account.get_instance()), keys.ACCOUNT_SLOT) or account.get_full_name()
    account.BeginEdit()
    account.SetName(name)
    account.CommitEdit()
    for a in (account, *account.get_descendants()):
        old = s.text(int(a.get_instance()), keys.ACCOUNT_SLOT) or a.get_full_name()
        s.set_text(int(a.get_instance()), keys.ACCOUNT_SLOT, keys.by_prefix(old, {was: keyed}))


def record(engine: Engine, book) -> Record | None:
    return Record.from_text(_slots(engine).get_long(int(book.get_instance()), RECORD_SLOT))


# the raw getters the reading walks every transaction with (public API of 4.13 and 5.x:
# Transaction.h, Split.h); typed on the engine library as ``Engine`` types its own
_SIGNATURES: tuple[tuple[str, str, object, list | None], ...] = (
    ("lib", "xaccTransGetSplitList", _P, [_P]),
    ("lib", "xaccSplitGetAccount", _P, [_P]),
    ("lib", "xaccTransGetNum", ctypes.c_char_p, [_P]),
    ("lib", "xaccTransGetDescription", ctypes.c_char_p, [_P]),
    ("lib", "xaccTransGetTxnType", ctypes.c_char, [_P]),
    ("lib", "xaccTransGetVoidStatus", ctypes.c_int, [_P]),
)


class _Raw:
    def __init__(self, engine: Engine) -> None:
        self.lib = engine.lib
        missing = bind(self, _SIGNATURES)
        if missing or not engine.has("xaccSplitGetParent", "xaccSplitGetValue", "xaccTransGetDate"):
            raise BookWriteError(
                f"GnuCash {engine.name} does not export {', '.join(missing) or 'the split getters'}"
                ": the book cannot be read for an update"
            )


def read_state(engine: Engine, book) -> BookState:
    """Every transaction of ``book`` with its key (if we wrote it), its sums and lines; the
    accounts, customers, jobs, vendors and terms by name; the run record. Raw ctypes calls on
    the pointers (the book's transaction collection, each one's splits): no wrapper object
    per split, no Decimal but for the amounts (``objects`` finds the bindings' objects of the
    few transactions the writer needs)."""
    s = _slots(engine)
    lib = _Raw(engine).lib
    day_of = functools.cache(lambda t: dt.datetime.fromtimestamp(t).date())  # as read_book
    amount = functools.cache(from_parts)
    names: dict[int, str] = {}  # account → its name as the keys have it (its slot, else now)
    codes: dict[str, str] = {}
    here: dict[str, str] = {}  # that name → the account's own, where renamed in GnuCash
    keyed = set()
    reconciled: dict[str, dt.date] = {}  # that name → the account's last reconcile date
    asked = calls(engine)
    for a in book.get_root_account().get_descendants():
        full = a.get_full_name()
        slot = s.text(int(a.get_instance()), keys.ACCOUNT_SLOT)
        named = slot or full
        if named in codes:  # renamed in GnuCash, and another account made with its old name
            raise UpdateRefused(
                f"two accounts of the book go by {quoted(named)} (one renamed in GnuCash, another "
                "made with its old name since?): rename the one QuickBooks does not know, then "
                "update again"
            )
        names[int(a.get_instance())] = named
        codes[named] = a.GetCode() or ""
        if slot:
            keyed.add(named)
        if named != full:
            here[named] = full
        last = asked.last_reconciled(int(a.get_instance()))
        if last is not None:
            reconciled[named] = last
    entries = []
    link = getattr(C, "TXN_TYPE_LINK", "L").encode()
    for t in asked.collection(int(book.get_instance()), b"Trans"):
        splits = walk(lib.xaccTransGetSplitList(t))
        where = [names.get(lib.xaccSplitGetAccount(x)) for x in splits]
        if None in where:  # a scheduled transaction's template (its own accounts)
            continue
        values = [lib.xaccSplitGetValue(x) for x in splits]
        lines = tuple((str(n), amount(v.num, v.denom)) for n, v in zip(where, values, strict=True))
        day = day_of(lib.xaccTransGetDate(t))
        voided = bool(lib.xaccTransGetVoidStatus(t))
        stamp = keys.parse(s.text(t, keys.SLOT))
        entries.append(
            BookEntry(
                handle=t,
                date=day,
                num=(lib.xaccTransGetNum(t) or b"").decode(),
                description=(lib.xaccTransGetDescription(t) or b"").decode(),
                stamp=stamp,
                sums=keys.sums(day, voided, lines),
                lines=lines,
                link=lib.xaccTransGetTxnType(t) == link,
                marks=b"".join(lib.xaccSplitGetReconcile(x) for x in splits).decode(),
                made="" if stamp is not None else asked.guid_text(t)[:8],
            )
        )
    state = BookState(
        record=record(engine, book),
        entries=tuple(entries),
        accounts=frozenset(names.values()),
        owners=frozenset(owner_names.owners(book)) | _employees(book),
        terms=frozenset(terms(engine, book)),
        read_only_before=_read_only_before(engine, book),
        codes=codes,
        here=here,
        keyed=frozenset(keyed),
        reconciled=reconciled,
        budgets=()
        if asked.refusal("budget")
        else budgets.read(asked, int(book.get_instance()), names),
    )
    return state


def objects(book, handles: set[int], accounts: set[str]) -> dict[int, object]:
    """The bindings' transaction object of each of ``handles`` (transaction pointers) that has
    a split in one of ``accounts`` (full names), found through those accounts' split lists."""
    out: dict[int, object] = {}
    for a in book.get_root_account().get_descendants():
        if a.get_full_name() not in accounts:
            continue
        for sp in C.xaccAccountGetSplitList(a.get_instance()):
            t = C.xaccSplitGetParent(sp)
            if int(t) in handles:
                out[int(t)] = t
    return out


def _employees(book) -> frozenset[tuple[str, str]]:
    """The book's employees, keyed as ``lists.owner_keys`` keys the exports'."""
    query = Query()
    query.search_for("gncEmployee")
    query.set_book(book)
    found = frozenset(("employee", GncEmployee(instance=e).GetName() or "") for e in query.run())
    query.destroy()
    return found


def terms(engine: Engine, book) -> dict[str, object]:
    """The book's bill terms by name (the bindings' objects), as ``Writer.terms`` holds them
    (the book's own list: a document's frozen copy is not in it)."""
    out: dict[str, object] = {}
    for row in bill_terms(engine, int(book.get_instance())):
        found = C.gncBillTermLookupByName(book.get_instance(), row[0])
        if found is not None:
            out[row[0]] = GncBillTerm(instance=found)
    return out


def _read_only_before(engine: Engine, book) -> dt.date | None:
    """The first day GnuCash lets one edit, when the book sets a read-only threshold
    (File › Properties › Accounts, "Day Threshold for Read-Only Transactions (red line)")."""
    lib = engine.lib
    fn = getattr(lib, "qof_book_get_num_days_autoreadonly", None)
    if fn is None:
        return None
    fn.restype, fn.argtypes = ctypes.c_int, [ctypes.c_void_p]
    days = fn(int(book.get_instance()))
    return dt.date.today() - dt.timedelta(days=days) if days > 0 else None
