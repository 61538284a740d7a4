"""A book's keys and state, read through the engine for an update (``app.update.BookState``),
and the stamps a write leaves: each transaction's key slot and the book's run record
(docs/UPDATE.md, "Where the keys live in the book", "Reading the book").

Everything here works on an open book in a session the caller holds: the update reads the book
and writes into it in one session (``app.gnc.update``).
"""

from __future__ import annotations

import ctypes
import datetime as dt
import logging
from collections.abc import Sequence

from app import keys
from app.errors import BookWriteError
from app.gnc.bindings import C, GncBillTerm, GncCustomer, GncJob, GncVendor, Query
from app.gnc.engine import Engine, bill_terms
from app.gnc.numeric import to_decimal
from app.gnc.slots import Slots, slots
from app.update import RECORD_SLOT, BookEntry, BookState, Record

log = logging.getLogger(__name__)


PART = 4000  # characters per slot of a long text (PostgreSQL keeps 4,096 in a string slot)


def _slots(engine: Engine) -> Slots:
    s = slots(engine)
    if s.missing:
        raise BookWriteError(
            f"GnuCash {engine.name} does not export {', '.join(s.missing)}: the keys an update "
            "needs cannot be kept in the book"
        )
    return s


def stamp(engine: Engine, book, txns: Sequence[object], texts: Sequence[str], record: str) -> None:
    """Each written transaction's key slot (``keys.stamp``) and the book's run record; set
    outside an edit, for the one save that writes the whole book (app/gnc/slots.py)."""
    s = _slots(engine)
    for t, text in zip(txns, texts, strict=True):
        s.set_text(int(t), keys.SLOT, text)  # type: ignore[call-overload]
    _put_long(s, int(book.get_instance()), RECORD_SLOT, record)


def record(engine: Engine, book) -> Record | None:
    return Record.from_text(_get_long(_slots(engine), int(book.get_instance()), RECORD_SLOT))


def _put_long(s: Slots, instance: int, name: str, text: str) -> None:
    """A text of any length: ``name`` holds the number of parts, ``name-1``... the parts."""
    parts = [text[i : i + PART] for i in range(0, len(text), PART)] or [""]
    s.set_text(instance, name, str(len(parts)))
    for n, part in enumerate(parts, 1):
        s.set_text(instance, f"{name}-{n}", part)


def _get_long(s: Slots, instance: int, name: str) -> str | None:
    count = s.text(instance, name)
    if not count.isdigit():
        return None
    return "".join(s.text(instance, f"{name}-{n}") for n in range(1, int(count) + 1))


def read_state(engine: Engine, book) -> tuple[BookState, dict[int, object]]:
    """Every transaction of ``book`` with its key (if we wrote it), its sums and lines; the
    accounts, customers, jobs, vendors and terms by name; the run record. With it, each
    transaction's engine object by ``BookEntry.handle``."""
    s = _slots(engine)
    names: dict[int, str] = {}
    accounts = []
    for a in book.get_root_account().get_descendants():
        names[int(a.get_instance())] = a.get_full_name()
        accounts.append(a)
    seen: dict[int, object] = {}
    entries = []
    link = getattr(C, "TXN_TYPE_LINK", "L")
    for a in accounts:
        for sp in C.xaccAccountGetSplitList(a.get_instance()):
            t = C.xaccSplitGetParent(sp)
            ti = int(t)
            if ti in seen:
                continue
            seen[ti] = t
            splits = C.xaccTransGetSplitList(t)
            lines = tuple(
                (names[int(C.xaccSplitGetAccount(x))], to_decimal(C.xaccSplitGetValue(x)))
                for x in splits
            )
            day = C.xaccTransGetDate(t).date()
            voided = bool(C.xaccTransGetVoidStatus(t))
            entries.append(
                BookEntry(
                    handle=ti,
                    date=day,
                    num=C.xaccTransGetNum(t) or "",
                    description=C.xaccTransGetDescription(t) or "",
                    stamp=keys.parse(s.text(ti, keys.SLOT)),
                    sums=keys.sums(day, voided, lines),
                    lines=lines,
                    link=C.xaccTransGetTxnType(t) == link,
                    marks="".join(C.xaccSplitGetReconcile(x) for x in splits),
                )
            )
    state = BookState(
        record=record(engine, book),
        entries=tuple(entries),
        accounts=frozenset(names.values()),
        owners=frozenset(owners(book)),
        terms=frozenset(terms(engine, book)),
        read_only_before=_read_only_before(engine, book),
    )
    return state, seen


def owners(book) -> dict[tuple[str, str], object]:
    """("customer", name), ("customer", "Name:Job"), ("vendor", name) → the bindings' object,
    as ``Writer.owners`` holds them."""
    out: dict[tuple[str, str], object] = {}
    for kind, cls in (("gncCustomer", GncCustomer), ("gncVendor", GncVendor)):
        query = Query()
        query.search_for(kind)
        query.set_book(book)
        for inst in query.run():
            o = cls(instance=inst)
            name = o.GetName() or ""
            if kind == "gncVendor":
                out["vendor", name] = o
                continue
            out["customer", name] = o
            for j in C.gncCustomerGetJoblist(inst, True):
                out["customer", f"{name}:{C.gncJobGetName(j)}"] = GncJob(instance=j)
        query.destroy()
    return out


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
    (File > Properties, "Day threshold for read-only transactions")."""
    lib = engine.lib
    fn = getattr(lib, "qof_book_get_num_days_autoreadonly", None)
    if fn is None:
        return None
    fn.restype, fn.argtypes = ctypes.c_int, [ctypes.c_void_p]
    days = fn(int(book.get_instance()))
    return dt.date.today() - dt.timedelta(days=days) if days > 0 else None
