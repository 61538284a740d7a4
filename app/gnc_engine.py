"""ctypes access to the GnuCash engine library that ``import gnucash`` already loaded.

GnuCash 4.13's bindings do not wrap a few calls the writer needs (``xaccLogDisable``,
``qof_event_suspend``/``resume``, book counters), and 4.13 inserts every split into its
account with a full ``g_list_find`` of the account's split list (quadratic; see
docs/ENGINE.md). ``SplitListDetacher`` keeps those lists short during a bulk load.

This module never imports ``gnucash``: it finds ``libgnc-engine.so`` in ``/proc/self/maps``,
so it only works once the caller (app.gnc_writer) has imported the bindings.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import re
from collections.abc import Callable
from pathlib import Path

_P = ctypes.c_void_p


def _loaded(name: str) -> str:
    """Path of a shared library already mapped into this process."""
    maps = Path("/proc/self/maps").read_text(encoding="utf-8", errors="replace")
    m = re.search(rf"(/\S*/{re.escape(name)}[^\s/]*)$", maps, re.MULTILINE)
    if not m:
        raise OSError(f"{name} is not loaded (import gnucash first)")
    return m.group(1)


class Engine:
    """Typed handles on libgnc-engine and libgobject. Create it after ``import gnucash``."""

    def __init__(self) -> None:
        self.lib = lib = ctypes.CDLL(_loaded("libgnc-engine.so"))
        self.gobject = gob = ctypes.CDLL(_loaded("libgobject-2.0.so"))
        self.glib = glib = ctypes.CDLL(_loaded("libglib-2.0.so"))
        for fn in ("xaccLogDisable", "qof_event_suspend", "qof_event_resume"):
            getattr(lib, fn).restype = None
            getattr(lib, fn).argtypes = []
        lib.xaccAccountGetSplitList.restype = _P
        lib.xaccAccountGetSplitList.argtypes = [_P]
        lib.gnc_account_get_type.restype = ctypes.c_size_t
        lib.gnc_account_get_type.argtypes = []
        lib.qof_book_increment_and_format_counter.restype = _P
        lib.qof_book_increment_and_format_counter.argtypes = [_P, ctypes.c_char_p]
        gob.g_type_class_ref.restype = _P
        gob.g_type_class_ref.argtypes = [ctypes.c_size_t]
        gob.g_type_class_get_instance_private_offset.restype = ctypes.c_int
        gob.g_type_class_get_instance_private_offset.argtypes = [_P]
        glib.g_list_concat.restype = _P
        glib.g_list_concat.argtypes = [_P, _P]
        glib.g_free.restype = None
        glib.g_free.argtypes = [_P]

    def log_disable(self) -> None:
        """No ``.log`` transaction journal beside the book (process-global)."""
        self.lib.xaccLogDisable()

    def suspend_events(self) -> None:
        self.lib.qof_event_suspend()

    def resume_events(self) -> None:
        self.lib.qof_event_resume()

    def next_id(self, book: int, counter: str) -> str:
        """The book's next formatted id for ``counter`` ("gncEmployee", "gncJob"...), as
        GnuCash's own dialogs would assign it, so later ids made in GnuCash do not collide."""
        ptr = self.lib.qof_book_increment_and_format_counter(book, counter.encode())
        if not ptr:
            raise RuntimeError(f"no counter {counter}")
        try:
            return ctypes.string_at(ptr).decode()
        finally:
            self.glib.g_free(ptr)


class _AccountPrivate413(ctypes.Structure):
    """Mirror of ``AccountPrivate`` (libgnucash/engine/AccountP.h) in GnuCash 4.13, up to
    ``sort_dirty``. Only ``splits`` and ``sort_dirty`` are used; the layout is verified at run
    time against ``xaccAccountGetSplitList`` before anything is written."""

    _fields_ = (
        ("accountName", _P),
        ("accountCode", _P),
        ("description", _P),
        ("type", ctypes.c_int),
        ("commodity", _P),
        ("commodity_scu", ctypes.c_int),
        ("non_standard_scu", ctypes.c_int),
        ("parent", _P),
        ("children", _P),
        ("numerics", ctypes.c_int64 * 16),  # 8 gnc_numeric: starting_* and cached balances
        ("balance_dirty", ctypes.c_int),
        ("splits", _P),
        ("sort_dirty", ctypes.c_int),
    )


class LayoutError(Exception):
    """The engine's account layout is not the one the detacher knows (e.g. GnuCash ≥ 5.x)."""


class SplitListDetacher:
    """Keeps each account's split list short during a bulk load (GnuCash 4.13 only).

    Every account must be in ``BeginEdit`` for the whole load (inserts are then prepends and
    the sort is deferred). ``detach()`` moves each list aside and leaves an empty one;
    ``reattach()`` joins the chunks back (linear), marks the list unsorted and must run before
    anything reads, commits or saves the accounts. ``check()`` raises LayoutError unless the
    pointer at the mirrored offset equals ``xaccAccountGetSplitList`` for every non-empty
    account; ``detach()`` calls it before it first writes anything.
    """

    def __init__(self, engine: Engine, accounts: list[int]) -> None:
        self.eng = engine
        cls = engine.gobject.g_type_class_ref(engine.lib.gnc_account_get_type())
        base = engine.gobject.g_type_class_get_instance_private_offset(cls)
        self._splits_at = [a + base + _AccountPrivate413.splits.offset for a in accounts]
        self._dirty_at = [a + base + _AccountPrivate413.sort_dirty.offset for a in accounts]
        self._accounts = accounts
        self._chunks: list[list[int]] = [[] for _ in accounts]
        self.checked = False
        self.detaches = 0

    def check(self) -> bool:
        """True when verified on at least one non-empty account; False when all are empty
        (nothing to verify yet). Raises LayoutError on any mismatch."""
        seen = False
        for acc, at in zip(self._accounts, self._splits_at, strict=True):
            head = self.eng.lib.xaccAccountGetSplitList(acc)
            if head:
                seen = True
                if _P.from_address(at).value != head:
                    raise LayoutError(
                        "account split list is not where GnuCash 4.13 keeps it "
                        "(newer engine layout)"
                    )
        return seen

    def detach(self) -> None:
        if not self.checked:
            self.checked = self.check()
            if not self.checked:
                return
        for i, at in enumerate(self._splits_at):
            cell = _P.from_address(at)
            if cell.value:
                self._chunks[i].append(cell.value)
                cell.value = None
        self.detaches += 1

    def reattach(self) -> None:
        concat = self.eng.glib.g_list_concat
        for i, at in enumerate(self._splits_at):
            chunks = self._chunks[i]
            if not chunks:
                continue
            cell = _P.from_address(at)
            joined = chunks[0]
            for chunk in chunks[1:]:
                joined = concat(chunk, joined)  # walks only the (short) first argument
            if cell.value:
                joined = concat(cell.value, joined)
            cell.value = joined
            ctypes.c_int.from_address(self._dirty_at[i]).value = 1
            self._chunks[i] = []


class _GList(ctypes.Structure):
    pass


_GList._fields_ = (("data", _P), ("next", ctypes.POINTER(_GList)), ("prev", _P))


class _Numeric(ctypes.Structure):
    _fields_ = (("num", ctypes.c_int64), ("denom", ctypes.c_int64))


def bill_terms(engine: Engine, book: int) -> list[tuple[str, int, int, int, int, int, int]]:
    """Every bill term of ``book`` as (name, type, due_days, discount_days, discount numerator,
    discount denominator, cutoff). The 4.13 bindings return this list with the wrong SWIG
    type, so it is walked here."""
    lib = engine.lib
    lib.gncBillTermGetTerms.restype = ctypes.POINTER(_GList)
    lib.gncBillTermGetTerms.argtypes = [_P]
    lib.gncBillTermGetName.restype = ctypes.c_char_p
    lib.gncBillTermGetDiscount.restype = _Numeric
    for fn in ("gncBillTermGetName", "gncBillTermGetDiscount"):
        getattr(lib, fn).argtypes = [_P]
    for fn in ("gncBillTermGetType", "gncBillTermGetDueDays", "gncBillTermGetDiscountDays"):
        getattr(lib, fn).restype = ctypes.c_int
        getattr(lib, fn).argtypes = [_P]
    lib.gncBillTermGetCutoff.restype = ctypes.c_int
    lib.gncBillTermGetCutoff.argtypes = [_P]
    out = []
    node = lib.gncBillTermGetTerms(book)
    while node:
        t = node.contents.data
        disc = lib.gncBillTermGetDiscount(t)
        out.append(
            (
                (lib.gncBillTermGetName(t) or b"").decode(),
                lib.gncBillTermGetType(t),
                lib.gncBillTermGetDueDays(t),
                lib.gncBillTermGetDiscountDays(t),
                disc.num,
                disc.denom,
                lib.gncBillTermGetCutoff(t),
            )
        )
        node = node.contents.next
    return out


def engine_version() -> tuple[int, int]:
    """(major, minor) of the loaded GnuCash libraries, e.g. (4, 13)."""
    lib = ctypes.CDLL(_loaded("libgnc-core-utils.so"))
    lib.gnc_version.restype = ctypes.c_char_p
    lib.gnc_version.argtypes = []
    major, _, minor = lib.gnc_version().decode().partition(".")
    return int(major), int(minor.split(".")[0] or 0)


_PERCENTAGE_FUNC = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_double)
_EVENT_HANDLER = ctypes.CFUNCTYPE(None, _P, ctypes.c_int, _P, _P)
_ITEM_ADDED = 1 << 8  # GNC_EVENT_ITEM_ADDED = QOF_MAKE_EVENT(QOF_EVENT_BASE + 0)


def _bind_load(lib: ctypes.CDLL) -> None:
    lib.qof_session_load.restype = None
    lib.qof_session_load.argtypes = [_P, _PERCENTAGE_FUNC]
    lib.qof_session_get_book.restype = _P
    lib.qof_session_get_book.argtypes = [_P]
    lib.qof_book_get_collection.restype = _P
    lib.qof_book_get_collection.argtypes = [_P, ctypes.c_char_p]
    lib.qof_collection_count.restype = ctypes.c_uint
    lib.qof_collection_count.argtypes = [_P]
    lib.gnc_book_get_root_account.restype = _P
    lib.gnc_book_get_root_account.argtypes = [_P]
    lib.gnc_account_get_descendants.restype = ctypes.POINTER(_GList)
    lib.gnc_account_get_descendants.argtypes = [_P]
    lib.qof_instance_get_editlevel.restype = ctypes.c_int
    lib.qof_instance_get_editlevel.argtypes = [_P]
    lib.xaccAccountSortSplits.argtypes = [_P, ctypes.c_int]
    lib.xaccAccountRecomputeBalance.argtypes = [_P]
    lib.qof_event_register_handler.restype = ctypes.c_int
    lib.qof_event_register_handler.argtypes = [_EVENT_HANDLER, _P]
    lib.qof_event_unregister_handler.argtypes = [ctypes.c_int]


def _edited_accounts(engine: Engine, book: int) -> list[int]:
    """Every account of ``book``; LayoutError unless all are in edit mode (loader's doing)."""
    lib = engine.lib
    head = lib.gnc_account_get_descendants(lib.gnc_book_get_root_account(book))
    out, node = [], head
    while node:
        out.append(node.contents.data)
        node = node.contents.next
    engine.glib.g_list_free.argtypes = [ctypes.POINTER(_GList)]
    engine.glib.g_list_free(head)
    if any(lib.qof_instance_get_editlevel(a) <= 0 for a in out):
        raise LayoutError("the loader does not hold every account in edit mode")
    return out


def _rejoin(engine: Engine, det: SplitListDetacher) -> None:
    """Re-join after the loader committed the accounts: sort and balance them again."""
    det.reattach()
    for acc in det._accounts:
        engine.lib.xaccAccountSortSplits(acc, 1)
        engine.lib.xaccAccountRecomputeBalance(acc)


def load_sql_detached(engine: Engine, session: int) -> str:
    """``qof_session_load`` of a SQL book that stays linear on 4.13: an event handler counts
    split inserts (the SQL loader holds every account in edit mode while it loads
    transactions) and detaches every ~1,000 transactions; after the load the lists are
    re-joined, sorted and re-balanced. Returns "" when the detacher was used, else why not."""
    lib = engine.lib
    _bind_load(lib)
    state: dict[str, object] = {"det": None, "n": 0, "why": ""}

    def handler(_ent: int | None, event: int, _data: int | None, _evdata: int | None) -> None:
        if event != _ITEM_ADDED or state["why"]:
            return
        try:
            state["n"] = n = int(state["n"]) + 1  # type: ignore[call-overload]
            if n % (3 * 1000) == 0:
                det = state["det"]
                if det is None:
                    book = lib.qof_session_get_book(session)
                    det = state["det"] = SplitListDetacher(engine, _edited_accounts(engine, book))
                det.detach()  # type: ignore[attr-defined]
        except Exception as exc:  # a callback cannot raise into C: stop detaching, say why
            state["why"] = f"{type(exc).__name__}: {exc}"

    callback = _EVENT_HANDLER(handler)
    hid = lib.qof_event_register_handler(callback, None)
    try:
        lib.qof_session_load(session, _PERCENTAGE_FUNC())  # NULL: no progress
    finally:
        lib.qof_event_unregister_handler(hid)
        det = state["det"]
        if det is not None:
            _rejoin(engine, det)  # type: ignore[arg-type]
    if det is None or not det.detaches:  # type: ignore[attr-defined]
        return str(state["why"]) or "no detach happened (small book or no load events)"
    return str(state["why"])


_PERCENTAGE_FUNC = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_double)


def load_xml_detached(
    engine: Engine,
    session: int,
    transactions: int,
    on_progress: Callable[[str, int, int], None] | None = None,
) -> str:
    """``qof_session_load`` of an XML book (session already begun) that stays linear on 4.13.

    The XML loader reports progress after every parsed transaction; every 1,000 of them the
    accounts' split lists are detached, and they are re-joined as soon as ``transactions`` (the
    file's own count) are in — before the loader's scrub pass and the accounts' CommitEdit.
    Returns "" when the detacher was used, else why not. Any detacher still holding chunks
    after the load is re-joined and its accounts re-sorted and re-balanced. ``on_progress``
    gets ("loading", done, transactions) every 500 transactions.
    """
    lib = engine.lib
    _bind_load(lib)
    state: dict[str, object] = {"det": None, "last": 0, "why": "", "joined": False, "shown": 0}

    def progress(_message: bytes | None, _percent: float) -> None:
        book = lib.qof_session_get_book(session)
        n = lib.qof_collection_count(lib.qof_book_get_collection(book, b"Trans"))
        if on_progress is not None and n % 500 == 0 and n != state["shown"] and n < transactions:
            state["shown"] = n
            on_progress("loading", n, transactions)
        if state["why"] or state["joined"]:
            return
        try:
            det = state["det"]
            if n >= transactions and det is not None:
                det.reattach()  # type: ignore[attr-defined]
                state["joined"] = True
            elif n - int(state["last"]) >= 1000 and n < transactions:  # type: ignore[call-overload]
                if det is None:
                    det = state["det"] = SplitListDetacher(engine, _edited_accounts(engine, book))
                det.detach()  # type: ignore[attr-defined]
                state["last"] = n
        except Exception as exc:  # a callback cannot raise into C: stop detaching, say why
            state["why"] = f"{type(exc).__name__}: {exc}"
            det = state["det"]
            if det is not None:
                det.reattach()  # type: ignore[attr-defined]

    callback = _PERCENTAGE_FUNC(progress)
    lib.qof_session_load(session, callback)
    if on_progress is not None:
        on_progress("loading", transactions, transactions)
    det = state["det"]
    if det is not None and not state["joined"]:
        _rejoin(engine, det)  # type: ignore[arg-type]
    if det is None and not state["why"]:
        return "fewer transactions than one detach interval"
    return str(state["why"])
