"""Typed ctypes handles on the engine calls the bindings do not wrap and issue 26 needs: budgets
(``gnc-budget.h``), recurrences (``Recurrence.h``), scheduled transactions (``SchedXaction.h``,
``SX-book.h``), the template root, the split's ``sx-*`` properties (``Split.c``), book features
(``gnc-features.h``); GObject and GLib for GDate, GList and properties. All public C API in 4.13
and 5.x (the signatures checked against both: docs/ENGINE.md, "Budgets, scheduled
transactions").

Nothing is assumed: ``Calls.refusal(part)`` says why a part may not run here (a function the
engine does not export, or an enum or property that is not what the headers say: the values
are checked against the engine's own names, ``recurrencePeriodTypeToString``), before anything
is written; the caller then writes the book without that part and lists what it left out.
Like ``app.gnc.engine``, this module never imports ``gnucash``.
"""

from __future__ import annotations

import ctypes
import datetime as dt
import functools
from dataclasses import dataclass

from app.gnc.engine import Engine, Numeric, bind

_P = ctypes.c_void_p
_S = ctypes.c_char_p
_INT = ctypes.c_int
_UINT = ctypes.c_uint

# PeriodType (Recurrence.h): the values this code passes, and the engine's name for each
PERIODS = {"day": 1, "week": 2, "month": 3, "year": 7}
NATURAL_SIGNS = b"Use natural signs in budget amounts"  # GNC_FEATURE_BUDGET_UNREVERSED
SX_PROPERTIES = (b"sx-account", b"sx-credit-formula", b"sx-debit-formula")
FOREACH = ctypes.CFUNCTYPE(None, _P, _P)  # QofInstanceForeachCB

_SIGNATURES: tuple[tuple[str, str, object, list | None], ...] = (
    ("lib", "gnc_budget_new", _P, [_P]),
    ("lib", "gnc_budget_begin_edit", None, [_P]),
    ("lib", "gnc_budget_commit_edit", None, [_P]),
    ("lib", "gnc_budget_set_name", None, [_P, _S]),
    ("lib", "gnc_budget_get_name", _S, [_P]),
    ("lib", "gnc_budget_set_description", None, [_P, _S]),
    ("lib", "gnc_budget_set_num_periods", None, [_P, _UINT]),
    ("lib", "gnc_budget_get_num_periods", _UINT, [_P]),
    ("lib", "gnc_budget_set_recurrence", None, [_P, _P]),
    ("lib", "gnc_budget_get_recurrence", _P, [_P]),
    ("lib", "gnc_budget_get_period_start_date", ctypes.c_int64, [_P, _UINT]),
    ("lib", "gnc_budget_set_account_period_value", None, [_P, _P, _UINT, Numeric]),
    ("lib", "gnc_budget_get_account_period_value", Numeric, [_P, _P, _UINT]),
    ("lib", "gnc_budget_is_account_period_value_set", _INT, [_P, _P, _UINT]),
    ("lib", "gnc_budget_unset_account_period_value", None, [_P, _P, _UINT]),
    ("lib", "gnc_features_set_used", None, [_P, _S]),
    ("lib", "gnc_features_check_used", _INT, [_P, _S]),
    ("lib", "recurrenceSet", None, [_P, ctypes.c_uint16, _INT, _P, _INT]),
    ("lib", "recurrenceGetPeriodType", _INT, [_P]),
    ("lib", "recurrenceGetMultiplier", _UINT, [_P]),
    ("lib", "recurrencePeriodTypeToString", _S, [_INT]),
    ("lib", "qof_book_get_collection", _P, [_P, _S]),
    ("lib", "qof_collection_foreach", None, [_P, FOREACH, _P]),
    ("lib", "xaccSchedXactionMalloc", _P, [_P]),
    ("lib", "gnc_sx_begin_edit", None, [_P]),
    ("lib", "gnc_sx_commit_edit", None, [_P]),
    ("lib", "xaccSchedXactionSetName", None, [_P, _S]),
    ("lib", "xaccSchedXactionGetName", _S, [_P]),
    ("lib", "xaccSchedXactionSetStartDate", None, [_P, _P]),
    ("lib", "xaccSchedXactionGetStartDate", _P, [_P]),
    ("lib", "xaccSchedXactionSetEnabled", None, [_P, _INT]),
    ("lib", "xaccSchedXactionGetEnabled", _INT, [_P]),
    ("lib", "xaccSchedXactionSetAutoCreate", None, [_P, _INT, _INT]),
    ("lib", "xaccSchedXactionGetAutoCreate", None, [_P, _P, _P]),
    ("lib", "xaccSchedXactionSetNumOccur", None, [_P, _INT]),
    ("lib", "xaccSchedXactionGetNumOccur", _INT, [_P]),
    ("lib", "xaccSchedXactionSetRemOccur", None, [_P, _INT]),
    ("lib", "xaccSchedXactionGetSplits", _P, [_P]),
    ("lib", "gnc_sx_set_schedule", None, [_P, _P]),
    ("lib", "gnc_sx_get_schedule", _P, [_P]),
    ("lib", "gnc_book_get_schedxactions", _P, [_P]),
    ("lib", "gnc_sxes_add_sx", None, [_P, _P]),
    ("lib", "gnc_book_get_template_root", _P, [_P]),
    ("lib", "gnc_account_lookup_by_name", _P, [_P, _S]),
    ("lib", "qof_instance_get_guid", _P, [_P]),
    ("lib", "guid_to_string_buff", _S, [_P, _S]),
    ("lib", "xaccAccountLookup", _P, [_P, _P]),
    ("lib", "xaccAccountGetReconcileLastDate", _INT, [_P, ctypes.POINTER(ctypes.c_int64)]),
    ("lib", "xaccMallocTransaction", _P, [_P]),
    ("lib", "xaccTransBeginEdit", None, [_P]),
    ("lib", "xaccTransCommitEdit", None, [_P]),
    ("lib", "xaccTransSetCurrency", None, [_P, _P]),
    ("lib", "xaccTransSetDescription", None, [_P, _S]),
    ("lib", "xaccTransSetDatePostedSecsNormalized", None, [_P, ctypes.c_int64]),
    ("lib", "xaccMallocSplit", _P, [_P]),
    ("lib", "xaccSplitSetParent", None, [_P, _P]),
    ("lib", "xaccSplitSetAccount", None, [_P, _P]),
    ("lib", "xaccSplitSetMemo", None, [_P, _S]),
    ("lib", "qof_instance_set", None, None),  # variadic: name, value, ..., NULL
    ("lib", "qof_instance_get", None, None),
    ("lib", "gnc_split_get_type", ctypes.c_size_t, []),
    ("lib", "qof_book_get_type", ctypes.c_size_t, []),
    ("lib", "qof_book_begin_edit", None, [_P]),
    ("lib", "qof_book_commit_edit", None, [_P]),
    ("gobject", "g_type_class_ref", _P, [ctypes.c_size_t]),
    ("gobject", "g_object_class_find_property", _P, [_P, _S]),
    ("glib", "g_date_new_dmy", _P, [ctypes.c_ubyte, _INT, ctypes.c_uint16]),
    ("glib", "g_date_free", None, [_P]),
    ("glib", "g_date_valid", _INT, [_P]),
    ("glib", "g_date_get_year", ctypes.c_uint16, [_P]),
    ("glib", "g_date_get_month", _INT, [_P]),
    ("glib", "g_date_get_day", ctypes.c_ubyte, [_P]),
    ("glib", "g_malloc0", _P, [ctypes.c_size_t]),
    ("glib", "g_free", None, [_P]),
    ("glib", "g_list_append", _P, [_P, _P]),
)
BUDGET = tuple(n for _, n, _, _ in _SIGNATURES if n.startswith(("gnc_budget", "recurrence")))
BUDGET += ("gnc_features_set_used", "qof_book_get_collection", "qof_collection_foreach")
BUDGET += ("g_date_new_dmy", "g_date_free", "qof_instance_set", "qof_instance_get_guid")
BUDGET += ("qof_book_get_type", "qof_book_begin_edit", "qof_book_commit_edit")
SCHEDULE = tuple(
    n for _, n, _, _ in _SIGNATURES if not n.startswith(("gnc_budget", "gnc_features"))
)
RECURRENCE_SIZE = 64  # bytes given to a Recurrence (GDate 8 + PeriodType + guint16 + enum: 20)


class _GList(ctypes.Structure):
    pass


_GList._fields_ = (("data", _P), ("next", ctypes.POINTER(_GList)), ("prev", _P))


class Calls:
    """The handles on ``engine``'s libraries, typed; ``missing`` names what it lacks."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.lib, self.gobject, self.glib = engine.lib, engine.gobject, engine.glib
        self.missing = bind(self, _SIGNATURES)

    def refusal(self, part: str) -> str:
        """Why ``part`` ("budget" or "schedule") may not be written on this engine ("" when it
        may): a missing function, or a period or property other than the headers say."""
        names = BUDGET if part == "budget" else SCHEDULE
        gone = [n for n in names if n in self.missing]
        if gone:
            return f"GnuCash {self.engine.name} does not export {', '.join(gone)}"
        named = {n: self.lib.recurrencePeriodTypeToString(v) for n, v in PERIODS.items()}
        wrong = [f"{v}={(named[n] or b'').decode(errors='replace')}" for n, v in PERIODS.items()
                 if named[n] != n.encode()]  # fmt: skip
        if wrong:
            return (
                f"GnuCash {self.engine.name}: unexpected recurrence period types "
                f"({', '.join(wrong)})"
            )
        if part == "schedule":
            split = self.lib.gnc_split_get_type()
            absent = [p.decode() for p in SX_PROPERTIES if not self.has_property(split, p)]
            if absent:
                return f"GnuCash {self.engine.name}: splits have no {', '.join(absent)} property"
        return ""

    def has_property(self, gtype: int, name: bytes) -> bool:
        """Whether instances of ``gtype`` have the GObject property ``name``."""
        return bool(
            self.gobject.g_object_class_find_property(self.gobject.g_type_class_ref(gtype), name)
        )

    def last_reconciled(self, account: int) -> dt.date | None:
        """An account's last reconcile date, or None. (Through ctypes: the bindings' wrapper of
        ``xaccAccountGetReconcileLastDate`` returns None without a reference of its own when
        no date is set, which crashes the interpreter after enough calls: docs/ENGINE.md.)"""
        when = ctypes.c_int64(0)
        if not self.lib.xaccAccountGetReconcileLastDate(account, ctypes.byref(when)):
            return None
        return dt.datetime.fromtimestamp(when.value).date()

    def gdate(self, day: dt.date) -> int:
        """A new GDate (free it with ``g_date_free``)."""
        return self.glib.g_date_new_dmy(day.day, day.month, day.year)

    def date_of(self, gdate: int | None) -> dt.date | None:
        if not gdate or not self.glib.g_date_valid(gdate):
            return None
        g = self.glib
        return dt.date(g.g_date_get_year(gdate), g.g_date_get_month(gdate), g.g_date_get_day(gdate))

    def recurrence(self, day: dt.date, period: str, mult: int, into: int | None = None) -> int:
        """A Recurrence every ``mult`` ``period`` from ``day``, set in ``into`` (memory the
        caller keeps alive: a budget copies it), else in new GLib memory (a schedule takes it
        over). Returns its address."""
        r = into if into is not None else self.glib.g_malloc0(RECURRENCE_SIZE)
        d = self.gdate(day)
        try:
            self.lib.recurrenceSet(r, mult, PERIODS[period], d, 0)  # WEEKEND_ADJ_NONE
        finally:
            self.glib.g_date_free(d)
        return r

    def period_of(self, recurrence: int) -> tuple[str, int]:
        """(period name, multiplier) of a Recurrence, as the engine names them."""
        kind = self.lib.recurrenceGetPeriodType(recurrence)
        name = (self.lib.recurrencePeriodTypeToString(kind) or b"").decode()
        return name, int(self.lib.recurrenceGetMultiplier(recurrence))

    def collection(self, book: int, kind: bytes) -> list[int]:
        """Every instance of ``kind`` ("Budget", "SchedXaction") in ``book``."""
        found: list[int] = []
        callback = FOREACH(lambda inst, _data: found.append(int(inst)))
        collection = self.lib.qof_book_get_collection(book, kind)
        self.lib.qof_collection_foreach(collection, callback, None)
        return found

    def guid_text(self, instance: int) -> str:
        buf = ctypes.create_string_buffer(40)
        self.lib.guid_to_string_buff(self.lib.qof_instance_get_guid(instance), buf)
        return buf.value.decode()


@dataclass(frozen=True, slots=True)
class Target:
    """The book being written, as ctypes sees it: pointers to the book, its currency and every
    account by full name, and the currency's decimal places."""

    calls: Calls
    book: int
    currency: int
    accounts: dict[str, int]
    places: int


def walk(head: int | None) -> list[int]:
    """The data pointers of a GList."""
    out = []
    node = ctypes.cast(head, ctypes.POINTER(_GList)) if head else None
    while node:
        out.append(int(node.contents.data or 0))
        node = node.contents.next
    return out


@functools.cache
def calls(engine: Engine) -> Calls:
    """The process's one ``Calls`` (per engine)."""
    return Calls(engine)
