"""ctypes access to the GnuCash engine library that ``import gnucash`` already loaded.

The bindings do not wrap a few calls the writer needs (``xaccLogDisable``,
``qof_event_suspend``/``resume``, book counters). GnuCash 4.x also inserts every split into its
account with a full ``g_list_find`` of the account's split list (quadratic; see docs/ENGINE.md);
``SplitListDetacher`` keeps those lists short during a bulk load. GnuCash 5.0-5.6 still do the
same (a GList, with the cached balance limits before it). 5.10 keeps split lists in a vector
with a hash set (linear already); the detacher refuses every version outside 4.x-5.6 (5.7-5.9
were not examined and get the plain path).

Nothing here assumes a version: every symbol is looked up (``Engine.missing``), the detacher
runs only on an engine whose version range has a mirrored account layout (``_LAYOUTS``) that
passes a run-time check, and every caller has a plain public-API path for when something is
refused.

This module never imports ``gnucash``: it finds ``libgnc-engine.so`` in ``/proc/self/maps``,
so it only works once ``app.gnc.bindings`` has imported the bindings (``bindings.engine()``
makes the process's one ``Engine``).
"""

from __future__ import annotations

import ctypes
import re
from collections.abc import Callable
from pathlib import Path

_P = ctypes.c_void_p
_INT = ctypes.c_int


def _loaded(name: str) -> str:
    """Path of a shared library already mapped into this process."""
    maps = Path("/proc/self/maps").read_text(encoding="utf-8", errors="replace")
    m = re.search(rf"(/\S*/{re.escape(name)}[^\s/]*)$", maps, re.MULTILINE)
    if not m:
        raise OSError(f"{name} is not loaded (import gnucash first)")
    return m.group(1)


def engine_version() -> tuple[int, int]:
    """(major, minor) of the loaded GnuCash libraries, e.g. (4, 13); (0, 0) when unknown."""
    try:
        fn = ctypes.CDLL(_loaded("libgnc-core-utils.so")).gnc_version
    except (OSError, AttributeError):
        return (0, 0)
    fn.restype = ctypes.c_char_p
    fn.argtypes = []
    m = re.match(rb"(\d+)\.(\d+)", fn() or b"")
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


class _GList(ctypes.Structure):
    pass


_GList._fields_ = (("data", _P), ("next", ctypes.POINTER(_GList)), ("prev", _P))
_LIST = ctypes.POINTER(_GList)


class _Numeric(ctypes.Structure):
    _fields_ = (("num", ctypes.c_int64), ("denom", ctypes.c_int64))


_PERCENTAGE_FUNC = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_double)
_EVENT_HANDLER = ctypes.CFUNCTYPE(None, _P, _INT, _P, _P)
_ITEM_ADDED = 1 << 8  # GNC_EVENT_ITEM_ADDED = QOF_MAKE_EVENT(QOF_EVENT_BASE + 0)

# (library, name, restype, argtypes): every C function used here, all public API (headers of
# 4.13 and 5.x: TransLog.h, qofevent.h, qofbook.h, qofsession.h, qofid.h, qofinstance.h,
# Account.h, gncBillTerm.h; GObject/GLib). A name the library does not export is recorded in
# Engine.missing and its feature falls back.
_SIGNATURES: tuple[tuple[str, str, object, list], ...] = (
    ("lib", "xaccLogDisable", None, []),
    ("lib", "qof_event_suspend", None, []),
    ("lib", "qof_event_resume", None, []),
    ("lib", "qof_book_increment_and_format_counter", _P, [_P, ctypes.c_char_p]),
    ("lib", "xaccAccountGetSplitList", _P, [_P]),
    ("lib", "xaccAccountGetSplitsSize", ctypes.c_size_t, [_P]),  # 5.x only
    ("lib", "gnc_account_get_type", ctypes.c_size_t, []),
    ("lib", "gnc_account_set_sort_dirty", None, [_P]),
    ("lib", "xaccAccountSortSplits", None, [_P, _INT]),
    ("lib", "xaccAccountRecomputeBalance", None, [_P]),
    ("lib", "qof_session_load", None, [_P, _PERCENTAGE_FUNC]),
    ("lib", "qof_session_get_book", _P, [_P]),
    ("lib", "qof_book_get_collection", _P, [_P, ctypes.c_char_p]),
    ("lib", "qof_collection_count", ctypes.c_uint, [_P]),
    ("lib", "gnc_book_get_root_account", _P, [_P]),
    ("lib", "gnc_account_get_descendants", _LIST, [_P]),
    ("lib", "qof_instance_get_editlevel", _INT, [_P]),
    ("lib", "qof_event_register_handler", _INT, [_EVENT_HANDLER, _P]),
    ("lib", "qof_event_unregister_handler", None, [_INT]),
    ("lib", "xaccSplitGetParent", _P, [_P]),
    ("lib", "xaccSplitGetValue", _Numeric, [_P]),
    ("lib", "xaccSplitGetReconcile", ctypes.c_char, [_P]),
    ("lib", "xaccTransGetDate", ctypes.c_int64, [_P]),
    ("lib", "gncBillTermGetTerms", _LIST, [_P]),
    ("lib", "gncBillTermGetName", ctypes.c_char_p, [_P]),
    ("lib", "gncBillTermGetDiscount", _Numeric, [_P]),
    ("lib", "gncBillTermGetType", _INT, [_P]),
    ("lib", "gncBillTermGetDueDays", _INT, [_P]),
    ("lib", "gncBillTermGetDiscountDays", _INT, [_P]),
    ("lib", "gncBillTermGetCutoff", _INT, [_P]),
    ("gobject", "g_type_class_ref", _P, [ctypes.c_size_t]),
    ("gobject", "g_type_class_get_instance_private_offset", _INT, [_P]),
    ("glib", "g_list_concat", _P, [_P, _P]),
    ("glib", "g_list_free", None, [_P]),
    ("glib", "g_free", None, [_P]),
)
_DETACH_SYMBOLS = (
    "xaccAccountGetSplitList",
    "gnc_account_get_type",
    "gnc_account_set_sort_dirty",
    "xaccAccountSortSplits",
    "xaccAccountRecomputeBalance",
    "g_type_class_ref",
    "g_type_class_get_instance_private_offset",
    "g_list_concat",
)
_LOAD_SYMBOLS = (
    "qof_session_load",
    "qof_session_get_book",
    "qof_book_get_collection",
    "qof_collection_count",
    "gnc_book_get_root_account",
    "gnc_account_get_descendants",
    "qof_instance_get_editlevel",
    "qof_event_register_handler",
    "qof_event_unregister_handler",
)
_SPLIT_SYMBOLS = (
    "xaccSplitGetParent",
    "xaccSplitGetValue",
    "xaccSplitGetReconcile",
    "xaccTransGetDate",
)
_TERM_SYMBOLS = tuple(s[1] for s in _SIGNATURES if s[1].startswith("gncBillTerm"))
# XML read-back: detach every 250 transactions (100k book: ~1.5 s faster than every 1,000;
# each detach costs one pass over the accounts, the lists it spares are walked per insert)
_LOAD_DETACH_EVERY = 250


class Engine:
    """Typed handles on libgnc-engine, libgobject and libglib. Create it after
    ``import gnucash``. ``missing`` names the functions this engine does not export."""

    def __init__(self) -> None:
        self.lib = ctypes.CDLL(_loaded("libgnc-engine.so"))
        self.gobject = ctypes.CDLL(_loaded("libgobject-2.0.so"))
        self.glib = ctypes.CDLL(_loaded("libglib-2.0.so"))
        self.version = engine_version()
        missing = []
        for where, name, restype, argtypes in _SIGNATURES:
            try:
                fn = getattr(getattr(self, where), name)
            except AttributeError:
                missing.append(name)
                continue
            fn.restype = restype
            fn.argtypes = argtypes
        self.missing = tuple(missing)

    @property
    def name(self) -> str:
        """ "5.10", or "of unknown version"."""
        major, minor = self.version
        return f"{major}.{minor}" if self.version != (0, 0) else "of unknown version"

    def has(self, *names: str) -> bool:
        return not set(names) & set(self.missing)

    def detacher_refusal(self) -> str:
        """Why the split-list detacher must not run on this engine ("" when it may)."""
        if account_layout(self.version) is None:
            return f"GnuCash {self.name}: the split-list detacher is for GnuCash 4.x-5.6 only"
        if not self.has(*_DETACH_SYMBOLS):
            gone = ", ".join(n for n in _DETACH_SYMBOLS if n in self.missing)
            return f"the engine does not export {gone}"
        return ""

    def log_disable(self) -> bool:
        """No ``.log`` transaction journal beside the book (process-global). False when the
        engine does not export ``xaccLogDisable``."""
        if not self.has("xaccLogDisable"):
            return False
        self.lib.xaccLogDisable()
        return True

    def suspend_events(self) -> None:
        if self.has("qof_event_suspend", "qof_event_resume"):
            self.lib.qof_event_suspend()

    def resume_events(self) -> None:
        if self.has("qof_event_suspend", "qof_event_resume"):
            self.lib.qof_event_resume()

    def next_id(self, book: int, counter: str) -> str | None:
        """The book's next formatted id for ``counter`` ("gncEmployee", "gncJob"...), as
        GnuCash's own dialogs would assign it, so later ids made in GnuCash do not collide.
        None when the engine does not export the counter function."""
        if not self.has("qof_book_increment_and_format_counter"):
            return None
        ptr = self.lib.qof_book_increment_and_format_counter(book, counter.encode())
        if not ptr:
            raise RuntimeError(f"no counter {counter}")
        try:
            return ctypes.string_at(ptr).decode()
        finally:
            self.glib.g_free(ptr)

    def split_count(self, account: int) -> int | None:
        """Splits in ``account`` via ``xaccAccountGetSplitsSize`` (5.x, no list copy), or None
        where the engine lacks it (4.x, whose split list is the account's own, not a copy)."""
        if not self.has("xaccAccountGetSplitsSize"):
            return None
        return int(self.lib.xaccAccountGetSplitsSize(account))


class _AccountPrivate4(ctypes.Structure):
    """Mirror of ``AccountPrivate`` (libgnucash/engine/AccountP.h) in GnuCash 4.x (read from
    4.13), up to ``sort_dirty``. Only ``splits`` and ``sort_dirty`` are used; both offsets are
    verified at run time (``SplitListDetacher.check``) before anything is written. In 5.x
    ``children`` and ``splits`` are std::vectors and a hash set follows ``splits``."""

    _fields_ = (
        ("accountName", _P),
        ("accountCode", _P),
        ("description", _P),
        ("type", _INT),
        ("commodity", _P),
        ("commodity_scu", _INT),
        ("non_standard_scu", _INT),
        ("parent", _P),
        ("children", _P),
        ("numerics", ctypes.c_int64 * 16),  # 8 gnc_numeric: starting_* and cached balances
        ("balance_dirty", _INT),
        ("splits", _P),
        ("sort_dirty", _INT),
    )


class _AccountPrivate5(ctypes.Structure):
    """Mirror of ``AccountPrivate`` in GnuCash 5.0-5.6, up to ``sort_dirty``: the 4.x layout
    plus the cached balance limits (value, set flag) and the include-sub-accounts flag between
    the cached balances and ``balance_dirty``. Offsets as the 5.6 engine's own accessors use
    them (Debian 12 backports, docs/ENGINE.md): limits at 192/216, their flags at 208/232, the
    sub-account flag at 236, ``balance_dirty`` 240, ``splits`` 248 (still a GList; a std::vector
    in 5.10), ``sort_dirty`` 256. Verified at run time like the 4.x mirror."""

    _fields_ = (
        *_AccountPrivate4._fields_[:10],  # accountName … the 8 cached/starting numerics
        ("higher_balance_limit", _Numeric),
        ("higher_limit_set", _INT),
        ("lower_balance_limit", _Numeric),
        ("lower_limit_set", _INT),
        ("include_sub_account_balances", _INT),
        ("balance_dirty", _INT),
        ("splits", _P),
        ("sort_dirty", _INT),
    )


_Layout = type[_AccountPrivate4] | type[_AccountPrivate5]
# (first version, last version, mirror): the engines whose split lists are GLists of a known
# layout. A version outside every range gets the plain path.
_LAYOUTS: tuple[tuple[tuple[int, int], tuple[int, int], _Layout], ...] = (
    ((4, 0), (4, 999), _AccountPrivate4),
    ((5, 0), (5, 6), _AccountPrivate5),
)


def account_layout(version: tuple[int, int]) -> _Layout | None:
    """The mirrored ``AccountPrivate`` for an engine version, or None (no detacher there)."""
    for first, last, layout in _LAYOUTS:
        if first <= version <= last:
            return layout
    return None


class LayoutError(Exception):
    """The detacher may not run here: another engine version, a missing symbol or an account
    layout other than the one it mirrors. Raised before anything was written."""


class SplitListDetacher:
    """Keeps each account's split list short during a bulk load (GnuCash 4.x-5.6 only).

    Every account must be in ``BeginEdit`` for the whole load (inserts are then prepends and
    the sort is deferred). ``detach()`` moves each list aside and leaves an empty one;
    ``reattach()`` joins the chunks back (linear), marks the list unsorted and must run before
    anything reads, commits or saves the accounts. The constructor raises LayoutError unless
    ``Engine.detacher_refusal()`` is empty; ``check()`` raises it unless the pointer at the
    mirrored ``splits`` offset equals ``xaccAccountGetSplitList`` for every non-empty account
    and the mirrored ``sort_dirty`` follows the public sort calls; ``detach()`` calls it before
    it first writes anything.
    """

    def __init__(self, engine: Engine, accounts: list[int]) -> None:
        if why := engine.detacher_refusal():
            raise LayoutError(why)
        self.eng = engine
        layout = account_layout(engine.version)
        assert layout is not None  # detacher_refusal() said yes
        self.where = f"GnuCash {engine.name}"
        cls = engine.gobject.g_type_class_ref(engine.lib.gnc_account_get_type())
        base = engine.gobject.g_type_class_get_instance_private_offset(cls)
        self._splits_at = [a + base + layout.splits.offset for a in accounts]
        self._dirty_at = [a + base + layout.sort_dirty.offset for a in accounts]
        self._accounts = accounts
        self._chunks: list[list[int]] = [[] for _ in accounts]
        self.checked = False
        self.detaches = 0

    def check(self) -> bool:
        """True when verified on at least one non-empty account; False when all are empty
        (nothing to verify yet). Raises LayoutError on any mismatch; reads only, except for
        the public sort calls on one account (a forced sort, then marked unsorted again)."""
        lib, first = self.eng.lib, None
        for i, (acc, at) in enumerate(zip(self._accounts, self._splits_at, strict=True)):
            head = lib.xaccAccountGetSplitList(acc)
            if head:
                first = i if first is None else first
                if _P.from_address(at).value != head:
                    raise LayoutError(
                        f"account split list is not where {self.where} keeps it (other layout)"
                    )
        if first is None:
            return False
        acc, dirty = self._accounts[first], _INT.from_address(self._dirty_at[first])
        lib.xaccAccountSortSplits(acc, 1)  # forced: sort_dirty becomes FALSE
        was = dirty.value
        lib.gnc_account_set_sort_dirty(acc)  # TRUE again: the commit sorts as it would have
        if (was, dirty.value) != (0, 1):
            raise LayoutError(f"account sort flag is not where {self.where} keeps it")
        return True

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
            _INT.from_address(self._dirty_at[i]).value = 1
            self._chunks[i] = []


def sum_splits(
    engine: Engine,
    splits: list[int],
    txn_day: dict[int, object],
    day_of: Callable[[int], object],
    flags: dict[bytes, int],
) -> tuple[dict[tuple[object, int], int], list[int]]:
    """Sums the value numerators of ``splits`` (Split pointers) per (day, denominator) and
    counts their reconcile flags in ``flags``. A transaction's day is ``day_of(posted time64)``,
    looked up once per transaction and kept in ``txn_day`` (transaction pointer → day). Returns
    the sums and the positions in ``splits`` whose transaction was new. Raw calls: no wrapper
    object or Decimal per split."""
    if not engine.has(*_SPLIT_SYMBOLS):
        raise LayoutError("the engine does not export the split getters")
    lib = engine.lib
    parent, value = lib.xaccSplitGetParent, lib.xaccSplitGetValue
    flag, posted = lib.xaccSplitGetReconcile, lib.xaccTransGetDate
    sums: dict[tuple[object, int], int] = {}
    new = []
    for i, s in enumerate(splits):
        t = parent(s)
        day = txn_day.get(t)
        if day is None:
            day = txn_day[t] = day_of(posted(t))
            new.append(i)
        v = value(s)
        key = (day, v.denom)
        sums[key] = sums.get(key, 0) + v.num
        f = flag(s)
        flags[f] = flags.get(f, 0) + 1
    return sums, new


def bill_terms(engine: Engine, book: int) -> list[tuple[str, int, int, int, int, int, int]]:
    """Every bill term of ``book`` as (name, type, due_days, discount_days, discount numerator,
    discount denominator, cutoff). The bindings (4.13 and 5.x alike) return this list as
    untyped pointers, so it is walked here. LayoutError when the engine lacks a function."""
    if not engine.has(*_TERM_SYMBOLS):
        raise LayoutError("the engine does not export the gncBillTerm getters")
    lib = engine.lib
    out = []
    node = lib.gncBillTermGetTerms(book)  # the book's own list: not freed
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


def _edited_accounts(engine: Engine, book: int) -> list[int]:
    """Every account of ``book``; LayoutError unless all are in edit mode (loader's doing)."""
    lib = engine.lib
    head = lib.gnc_account_get_descendants(lib.gnc_book_get_root_account(book))
    out, node = [], head
    while node:
        out.append(node.contents.data)
        node = node.contents.next
    engine.glib.g_list_free(ctypes.cast(head, _P))
    if any(lib.qof_instance_get_editlevel(a) <= 0 for a in out):
        raise LayoutError("the loader does not hold every account in edit mode")
    return out


def _rejoin(engine: Engine, det: SplitListDetacher) -> None:
    """Re-join after the loader committed the accounts: sort and balance them again."""
    det.reattach()
    for acc in det._accounts:
        engine.lib.xaccAccountSortSplits(acc, 1)
        engine.lib.xaccAccountRecomputeBalance(acc)


def can_load(engine: Engine) -> bool:
    """True when the ctypes loaders below may be used (else: the bindings' plain load)."""
    return engine.has(*_LOAD_SYMBOLS)


def load_sql_detached(engine: Engine, session: int) -> str:
    """``qof_session_load`` of a SQL book that stays linear on 4.x: an event handler counts
    split inserts (the SQL loader holds every account in edit mode while it loads
    transactions) and detaches every ~1,000 transactions; after the load the lists are
    re-joined, sorted and re-balanced. Returns "" when the detacher was used, else why not
    (on an engine the detacher refuses, this is the plain load)."""
    lib = engine.lib
    if refusal := engine.detacher_refusal():
        lib.qof_session_load(session, _PERCENTAGE_FUNC())
        return refusal
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


def load_xml_detached(
    engine: Engine,
    session: int,
    transactions: int,
    on_progress: Callable[[str, int, int], None] | None = None,
) -> str:
    """``qof_session_load`` of an XML book (session already begun) that stays linear on 4.x.

    The XML loader reports progress after every parsed transaction; every 250 of them the
    accounts' split lists are detached, and they are re-joined as soon as ``transactions`` (the
    file's own count) are in — before the loader's scrub pass and the accounts' CommitEdit.
    Returns "" when the detacher was used, else why not. Any detacher still holding chunks
    after the load is re-joined and its accounts re-sorted and re-balanced. ``on_progress``
    gets ("loading", done, transactions) every 500 transactions — also on an engine the
    detacher refuses, where the load is otherwise the plain one.
    """
    lib = engine.lib
    refusal = engine.detacher_refusal()
    state: dict[str, object] = {
        "det": None,
        "last": 0,
        "why": refusal,
        "joined": False,
        "shown": 0,
    }

    trans: list[int] = []  # the book's transaction collection, looked up once

    def progress(_message: bytes | None, _percent: float) -> None:
        if not trans:
            book = lib.qof_session_get_book(session)
            trans.append(lib.qof_book_get_collection(book, b"Trans"))
        n = lib.qof_collection_count(trans[0])
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
            elif n - int(state["last"]) >= _LOAD_DETACH_EVERY and n < transactions:  # type: ignore[call-overload]
                if det is None:
                    book = lib.qof_session_get_book(session)
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
