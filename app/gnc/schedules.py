"""GnuCash scheduled transactions, through ctypes (the bindings do not wrap ``SchedXaction.h``).

Written as GnuCash itself builds one (``xaccSchedXactionSetTemplateTrans`` in 4.x; in 5.x that
function takes a C++ vector, so the same steps are done here on every version): a SchedXaction
with its name, start date, schedule (a list of Recurrences) and, when QuickBooks says so, its
number of occurrences; **not enabled** and never auto-created, so GnuCash posts nothing by
itself; and a template transaction in the SchedXaction's own template account (named by its
GUID under the book's template root), one split per line, each split holding its real account
and amount in the ``sx-account``, ``sx-debit-formula``/``sx-credit-formula`` and
``sx-*-numeric`` properties (kvp ``sched-xaction/...``), as GnuCash's template register does.

Read back: every SchedXaction of the book with its schedule and template lines, for the proof.
"""

from __future__ import annotations

import ctypes
import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from app.book import BookSchedule
from app.gnc.calls import Calls, Target, walk
from app.gnc.engine import Numeric
from app.gnc.numeric import at_unit
from app.schedules import Schedule

_P = ctypes.c_void_p
_S = ctypes.c_char_p


def write(to: Target, schedules: Sequence[Schedule]) -> int:
    """Every schedule into the book; how many."""
    calls, book = to.calls, to.book
    lib = calls.lib
    template_root = lib.gnc_book_get_template_root(book)
    for s in schedules:
        sx = lib.xaccSchedXactionMalloc(book)
        lib.gnc_sx_begin_edit(sx)
        lib.xaccSchedXactionSetName(sx, s.name.encode())
        start = calls.gdate(s.start)
        try:
            lib.xaccSchedXactionSetStartDate(sx, start)
        finally:
            calls.glib.g_date_free(start)
        schedule = None
        for period, mult in s.periods:
            schedule = calls.glib.g_list_append(schedule, calls.recurrence(s.start, period, mult))
        lib.gnc_sx_set_schedule(sx, schedule)  # takes the list and its Recurrences over
        if s.occurrences:
            lib.xaccSchedXactionSetNumOccur(sx, s.occurrences)
            lib.xaccSchedXactionSetRemOccur(sx, s.occurrences)
        lib.xaccSchedXactionSetEnabled(sx, 0)
        lib.xaccSchedXactionSetAutoCreate(sx, 0, 0)
        template = lib.gnc_account_lookup_by_name(template_root, calls.guid_text(sx).encode())
        if not template:
            raise LookupError("the scheduled transaction has no template account")
        _template(to, template, s)
        lib.gnc_sxes_add_sx(lib.gnc_book_get_schedxactions(book), sx)
        lib.gnc_sx_commit_edit(sx)
    return len(schedules)


def _template(to: Target, template: int, s: Schedule) -> None:
    """The schedule's template transaction, in its template account ``template``."""
    lib, book, places = to.calls.lib, to.book, to.places
    t = lib.xaccMallocTransaction(book)
    lib.xaccTransBeginEdit(t)
    lib.xaccTransSetCurrency(t, to.currency)
    lib.xaccTransSetDescription(t, s.description.encode())
    posted = dt.datetime.combine(s.start, dt.time(10, 59)).timestamp()
    lib.xaccTransSetDatePostedSecsNormalized(t, int(posted))
    for account, value in s.lines:
        split = lib.xaccMallocSplit(book)
        lib.xaccSplitSetParent(split, t)
        lib.xaccSplitSetAccount(split, template)
        if s.memo:
            lib.xaccSplitSetMemo(split, s.memo.encode())
        units, denom = at_unit(abs(value), places, s.source)
        text = f"{abs(value):.{places}f}".encode()
        amount, zero = Numeric(units, denom), Numeric(0, 1)
        debit = value > 0
        guid = lib.qof_instance_get_guid(to.accounts[account])
        lib.qof_instance_set(
            _P(split),
            _S(b"sx-account"),
            _P(guid),
            _S(b"sx-debit-formula"),
            _S(text if debit else b""),
            _S(b"sx-debit-numeric"),
            ctypes.byref(amount if debit else zero),
            _S(b"sx-credit-formula"),
            _S(b"" if debit else text),
            _S(b"sx-credit-numeric"),
            ctypes.byref(zero if debit else amount),
            _P(None),
        )
    lib.xaccTransCommitEdit(t)


def read(calls: Calls, book: int, names: dict[int, str]) -> tuple[BookSchedule, ...]:
    """Every scheduled transaction of ``book``; ``names``: Account pointer → full name."""
    lib = calls.lib
    out = []
    for sx in calls.collection(book, b"SchedXaction"):
        auto, notify = ctypes.c_int(0), ctypes.c_int(0)
        lib.xaccSchedXactionGetAutoCreate(sx, ctypes.byref(auto), ctypes.byref(notify))
        splits = walk(lib.xaccSchedXactionGetSplits(sx))
        lines = [_line(calls, book, split, names) for split in splits]
        out.append(
            BookSchedule(
                (lib.xaccSchedXactionGetName(sx) or b"").decode(),
                bool(lib.xaccSchedXactionGetEnabled(sx)),
                bool(auto.value),
                calls.date_of(lib.xaccSchedXactionGetStartDate(sx)),
                tuple(calls.period_of(r) for r in walk(lib.gnc_sx_get_schedule(sx))),
                tuple(sorted(lines)),
                int(lib.xaccSchedXactionGetNumOccur(sx)),
            )
        )
    out.sort(key=lambda s: s.name)
    return tuple(out)


def _line(calls: Calls, book: int, split: int, names: dict[int, str]) -> tuple[str, Decimal]:
    """A template split's (account, value): its ``sx-*`` properties read back."""
    guid, debit, credit = _P(), _S(), _S()
    calls.lib.qof_instance_get(
        _P(split),
        _S(b"sx-account"),
        ctypes.byref(guid),
        _S(b"sx-debit-formula"),
        ctypes.byref(debit),
        _S(b"sx-credit-formula"),
        ctypes.byref(credit),
        _P(None),
    )
    account = calls.lib.xaccAccountLookup(guid, book) if guid.value else None
    value = Decimal(debit.value.decode() or 0) if debit.value else Decimal(0)
    value -= Decimal(credit.value.decode() or 0) if credit.value else Decimal(0)
    return names.get(int(account or 0), ""), value
