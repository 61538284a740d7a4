"""What each migration parses to, cached: parsing is the slow part, so the last few results are
kept, keyed on the uploads' names, sizes and mtimes plus the plan; a page never re-parses
unchanged files and an edited plan re-runs only the cheap stages. Each stage has its own
limit: Map edits make a new view each, and they never push out the parse of another migration
the bookkeeper comes back to. Held in ``app.extensions["views"]``."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from app import pipeline, resolve
from app.gc_pause import made_and_kept
from app.history import History
from app.model import Ledger
from app.pages.preview import SearchIndex
from app.plan import Plan
from app.read_progress import ReadProgress
from app.resolve import Unresolved
from app.store import Migration

T = TypeVar("T")
# Results kept per stage (a parse of 100,000 transactions holds ~200 MB; a view shares it and
# adds the transactions its plan changed): the files of the last migrations opened, the
# report-account matches of each, and the last few plans' views.
CACHE_SIZE = MappingProxyType({"parsed": 3, "resolved": 3, "view": 4})


@dataclass(frozen=True)
class View:
    """One migration's uploads read with its plan: what every step shows."""

    parsed: Ledger  # as read, QuickBooks names
    resolved: Ledger  # report labels matched to chart accounts (the preview's transactions)
    unresolved: tuple[Unresolved, ...]  # the report labels the Map step asks about
    prepared: pipeline.Prepared  # final ledger and every problem
    search: SearchIndex
    _pages: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def page(self, step: str, make: Callable[[], T]) -> T:
        """A step's view model of this view, made on the step's first visit and kept with the
        view (a page shown again, or a Map change undone, costs nothing)."""
        if step not in self._pages:
            self._pages[step] = made_and_kept(make)
        return self._pages[step]


class ViewCache:
    """The last ``CACHE_SIZE`` results of each stage; concurrent requests for one key parse
    once."""

    def __init__(self) -> None:
        self._cache: OrderedDict[tuple, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._pending: dict[tuple, threading.Lock] = {}

    def forget(self, m: Migration) -> None:
        """Drop a (deleted) migration's results."""
        with self._lock:
            for key in [k for k in self._cache if k[0] == m.id]:
                del self._cache[key]

    def _cached(self, key: tuple, make: Callable[[], Any]) -> Any:
        """The cached value, else ``make()`` once: concurrent requests for the same key wait
        for the first one instead of parsing the same files again."""
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
            pending = self._pending.setdefault(key, threading.Lock())
        with pending:  # other keys (other migrations) are not held up
            with self._lock:
                if key in self._cache:
                    return self._cache[key]
            try:
                value = made_and_kept(make)  # kept: out of the collector's reach
                with self._lock:
                    self._cache[key] = value
                    same = [k for k in self._cache if k[1] == key[1]]  # oldest first
                    for old in same[: max(0, len(same) - CACHE_SIZE[key[1]])]:
                        del self._cache[old]
            finally:
                with self._lock:
                    self._pending.pop(key, None)
        return value

    def parsed(
        self, m: Migration, plan: Plan | None = None, seen: ReadProgress | None = None
    ) -> Ledger:
        """``seen``: told how far the reading is, if this call reads (the upload's bar)."""
        plan = plan or m.plan()
        key = (m.id, "parsed", m.signature(), _read_options(plan))

        def read() -> Ledger:
            try:
                return pipeline.read(m.files(), plan, m.unread(), seen)
            finally:
                if seen is not None:
                    seen.finish()

        return self._cached(key, read)

    def view(
        self, m: Migration, plan: Plan | None = None, seen: ReadProgress | None = None
    ) -> View:
        plan = plan or m.plan()
        parsed = self.parsed(m, plan, seen)
        sig = m.signature()
        mapped = json.dumps(plan.account_map, sort_keys=True)

        def make_resolved() -> tuple[Ledger, tuple[Unresolved, ...], SearchIndex, History]:
            resolved = pipeline.resolve_accounts(parsed, plan)
            open_ = tuple(resolve.unresolved(parsed, plan.account_map))
            history = History.of(resolved.transactions)
            return resolved, open_, SearchIndex(resolved.transactions), history

        # the preview's part depends only on the files and the report-account choices
        key = (m.id, "resolved", sig, _read_options(plan), mapped)
        resolved, open_, search, history = self._cached(key, make_resolved)
        view_key = (m.id, "view", sig, plan.to_json())
        return self._cached(
            view_key,
            lambda: View(
                parsed, resolved, open_, pipeline.prepare(parsed, plan, resolved, history), search
            ),
        )


def _read_options(plan: Plan) -> str:
    """The part of a plan that changes how files are read."""
    return json.dumps({k: [v.date_order, v.columns] for k, v in plan.files.items()}, sort_keys=True)
