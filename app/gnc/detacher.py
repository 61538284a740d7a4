"""The split-list detacher and the loaders built on it (GnuCash 4.x-5.6 only).

GnuCash 4.x inserts every split into its account with a full ``g_list_find`` of the account's
split list (quadratic; see docs/ENGINE.md); ``SplitListDetacher`` keeps those lists short during
a bulk load. GnuCash 5.0-5.6 still do the same (a GList, with the cached balance limits before
it). From 5.7 on (PR #1917, "account-splits-vector") an account keeps its splits in a vector with
a hash set, linear already; the detacher refuses every version outside 4.0-4.14 and 5.0-5.6, and
those get the plain path.

The detacher runs only on an engine whose version range has a mirrored account layout
(``_LAYOUTS``) that passes a run-time check (``refusal``, ``SplitListDetacher.check``); every
caller has a plain public-API path for when it is refused (``LayoutError``). Like
``app.gnc.engine``, this module never imports ``gnucash``.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from dataclasses import dataclass

from app.gnc.engine import EVENT_HANDLER, PERCENTAGE_FUNC, Engine, LayoutError, Numeric

_P = ctypes.c_void_p
_INT = ctypes.c_int
_ITEM_ADDED = 1 << 8  # GNC_EVENT_ITEM_ADDED = QOF_MAKE_EVENT(QOF_EVENT_BASE + 0)

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
# XML read-back: detach every 250 transactions (100k book: ~1.5 s faster than every 1,000;
# each detach costs one pass over the accounts, the lists it spares are walked per insert)
_LOAD_DETACH_EVERY = 250


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
    from 5.7), ``sort_dirty`` 256. Verified at run time like the 4.x mirror."""

    _fields_ = (
        *_AccountPrivate4._fields_[:10],  # accountName … the 8 cached/starting numerics
        ("higher_balance_limit", Numeric),
        ("higher_limit_set", _INT),
        ("lower_balance_limit", Numeric),
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
    ((4, 0), (4, 14), _AccountPrivate4),  # 4.900-4.904 (5.0 betas) have 5.x's limits: no mirror
    ((5, 0), (5, 6), _AccountPrivate5),
)


def account_layout(version: tuple[int, int]) -> _Layout | None:
    """The mirrored ``AccountPrivate`` for an engine version, or None (no detacher there)."""
    for first, last, layout in _LAYOUTS:
        if first <= version <= last:
            return layout
    return None


def refusal(engine: Engine) -> str:
    """Why the split-list detacher must not run on this engine ("" when it may)."""
    if account_layout(engine.version) is None:
        return f"GnuCash {engine.name}: the split-list detacher is for GnuCash 4.x-5.6 only"
    if not engine.has(*_DETACH_SYMBOLS):
        gone = ", ".join(n for n in _DETACH_SYMBOLS if n in engine.missing)
        return f"the engine does not export {gone}"
    return ""


class SplitListDetacher:
    """Keeps each account's split list short during a bulk load (GnuCash 4.x-5.6 only).

    Every account must be in ``BeginEdit`` for the whole load (inserts are then prepends and
    the sort is deferred). ``detach()`` moves each list aside and leaves an empty one;
    ``reattach()`` joins the chunks back (linear), marks the list unsorted and must run before
    anything reads, commits or saves the accounts. The constructor raises LayoutError unless
    ``refusal(engine)`` is empty; ``check()`` raises it unless the pointer at the
    mirrored ``splits`` offset equals ``xaccAccountGetSplitList`` for every non-empty account
    and the mirrored ``sort_dirty`` follows the public sort calls; ``detach()`` calls it before
    it first writes anything.
    """

    def __init__(self, engine: Engine, accounts: list[int]) -> None:
        if why := refusal(engine):
            raise LayoutError(why)
        self.eng = engine
        layout = account_layout(engine.version)
        assert layout is not None  # refusal() said yes
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


@dataclass(slots=True)
class _LoadState:
    """What a loader's C callback keeps between calls (it cannot raise into C: ``why``)."""

    det: SplitListDetacher | None = None
    why: str = ""  # set once: the detacher is not used any more, and why
    inserts: int = 0  # SQL: split inserts seen
    last: int = 0  # XML: transactions loaded at the last detach
    joined: bool = False  # XML: re-joined once the file's transactions were in
    shown: int = 0  # XML: the last progress count reported


def load_sql_detached(engine: Engine, session: int) -> str:
    """``qof_session_load`` of a SQL book that stays linear on 4.x: an event handler counts
    split inserts (the SQL loader holds every account in edit mode while it loads
    transactions) and detaches every ~1,000 transactions; after the load the lists are
    re-joined, sorted and re-balanced. Returns "" when the detacher was used, else why not
    (on an engine the detacher refuses, this is the plain load)."""
    lib = engine.lib
    if refused := refusal(engine):
        lib.qof_session_load(session, PERCENTAGE_FUNC())
        return refused
    state = _LoadState()

    def handler(_ent: int | None, event: int, _data: int | None, _evdata: int | None) -> None:
        if event != _ITEM_ADDED or state.why:
            return
        try:
            state.inserts += 1
            if state.inserts % (3 * 1000) == 0:
                if state.det is None:
                    book = lib.qof_session_get_book(session)
                    state.det = SplitListDetacher(engine, _edited_accounts(engine, book))
                state.det.detach()
        except Exception as exc:  # a callback cannot raise into C: stop detaching, say why
            state.why = f"{type(exc).__name__}: {exc}"

    callback = EVENT_HANDLER(handler)
    hid = lib.qof_event_register_handler(callback, None)
    try:
        lib.qof_session_load(session, PERCENTAGE_FUNC())  # NULL: no progress
    finally:
        lib.qof_event_unregister_handler(hid)
        if state.det is not None:
            _rejoin(engine, state.det)
    if state.det is None or not state.det.detaches:
        return state.why or "no detach happened (small book or no load events)"
    return state.why


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
    state = _LoadState(why=refusal(engine))
    trans: list[int] = []  # the book's transaction collection, looked up once

    def progress(_message: bytes | None, _percent: float) -> None:
        if not trans:
            book = lib.qof_session_get_book(session)
            trans.append(lib.qof_book_get_collection(book, b"Trans"))
        n = lib.qof_collection_count(trans[0])
        if on_progress is not None and n % 500 == 0 and n != state.shown and n < transactions:
            state.shown = n
            on_progress("loading", n, transactions)
        if state.why or state.joined:
            return
        try:
            if n >= transactions and state.det is not None:
                state.det.reattach()
                state.joined = True
            elif n - state.last >= _LOAD_DETACH_EVERY and n < transactions:
                if state.det is None:
                    book = lib.qof_session_get_book(session)
                    state.det = SplitListDetacher(engine, _edited_accounts(engine, book))
                state.det.detach()
                state.last = n
        except Exception as exc:  # a callback cannot raise into C: stop detaching, say why
            state.why = f"{type(exc).__name__}: {exc}"
            if state.det is not None:
                state.det.reattach()

    callback = PERCENTAGE_FUNC(progress)
    lib.qof_session_load(session, callback)
    if on_progress is not None:
        on_progress("loading", transactions, transactions)
    if state.det is not None and not state.joined:
        _rejoin(engine, state.det)
    if state.det is None and not state.why:
        return "fewer transactions than one detach interval"
    return state.why
