"""ctypes access to the GnuCash engine library that ``import gnucash`` already loaded.

The bindings do not wrap a few calls the writer and reader need (``xaccLogDisable``,
``qof_event_suspend``/``resume``, book counters, the raw split and bill-term getters): ``Engine``
holds typed handles on them, ``sum_splits`` and ``bill_terms`` walk what the bindings cannot.
The split-list detacher and the detached loaders built on these handles are in
``app.gnc.detacher``.

Nothing here assumes a version: every symbol is looked up (``Engine.missing``) and every caller
has a plain public-API path for when something is missing (``LayoutError``).

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


class Numeric(ctypes.Structure):
    """``gnc_numeric`` by value (num, denom), as the raw getters return it."""

    _fields_ = (("num", ctypes.c_int64), ("denom", ctypes.c_int64))


PERCENTAGE_FUNC = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_double)
EVENT_HANDLER = ctypes.CFUNCTYPE(None, _P, _INT, _P, _P)

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
    ("lib", "qof_session_load", None, [_P, PERCENTAGE_FUNC]),
    ("lib", "qof_session_get_book", _P, [_P]),
    ("lib", "qof_book_get_collection", _P, [_P, ctypes.c_char_p]),
    ("lib", "qof_collection_count", ctypes.c_uint, [_P]),
    ("lib", "gnc_book_get_root_account", _P, [_P]),
    ("lib", "gnc_account_get_descendants", _LIST, [_P]),
    ("lib", "qof_instance_get_editlevel", _INT, [_P]),
    ("lib", "qof_event_register_handler", _INT, [EVENT_HANDLER, _P]),
    ("lib", "qof_event_unregister_handler", None, [_INT]),
    ("lib", "xaccSplitGetParent", _P, [_P]),
    ("lib", "xaccSplitGetValue", Numeric, [_P]),
    ("lib", "xaccSplitGetReconcile", ctypes.c_char, [_P]),
    ("lib", "xaccTransGetDate", ctypes.c_int64, [_P]),
    ("lib", "gncBillTermGetTerms", _LIST, [_P]),
    ("lib", "gncBillTermGetName", ctypes.c_char_p, [_P]),
    ("lib", "gncBillTermGetDiscount", Numeric, [_P]),
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
_SPLIT_SYMBOLS = (
    "xaccSplitGetParent",
    "xaccSplitGetValue",
    "xaccSplitGetReconcile",
    "xaccTransGetDate",
)
_TERM_SYMBOLS = tuple(s[1] for s in _SIGNATURES if s[1].startswith("gncBillTerm"))


class Engine:
    """Typed handles on libgnc-engine, libgobject and libglib. Create it after
    ``import gnucash``. ``missing`` names the functions this engine does not export."""

    def __init__(self) -> None:
        self.lib = ctypes.CDLL(_loaded("libgnc-engine.so"))
        self.gobject = ctypes.CDLL(_loaded("libgobject-2.0.so"))
        self.glib = ctypes.CDLL(_loaded("libglib-2.0.so"))
        self.version = engine_version()
        self.missing = bind(self, _SIGNATURES)

    @property
    def name(self) -> str:
        """ "5.10", or "of unknown version"."""
        major, minor = self.version
        return f"{major}.{minor}" if self.version != (0, 0) else "of unknown version"

    def has(self, *names: str) -> bool:
        return not set(names) & set(self.missing)

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


def bind(owner: object, signatures: tuple[tuple[str, str, object, list | None], ...]) -> tuple:
    """Type each function of ``signatures`` (library attribute of ``owner``, name, restype,
    argtypes; None: variadic, left untyped) on its library; the names it lacks."""
    missing = []
    for where, name, restype, argtypes in signatures:
        try:
            fn = getattr(getattr(owner, where), name)
        except AttributeError:
            missing.append(name)
            continue
        fn.restype = restype
        if argtypes is not None:
            fn.argtypes = argtypes
    return tuple(missing)


class LayoutError(Exception):
    """A ctypes path may not run here: another engine version, a missing symbol or an account
    layout other than the one the detacher mirrors (``app.gnc.detacher``). Raised before
    anything was written; the caller then takes the plain public-API path."""


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
