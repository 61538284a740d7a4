"""What every part of one write shares: the ``Writer`` context, ``Written`` (what the documents
pass gets) and progress reporting.

``session.write_book`` makes one ``Writer`` per book and hands it to ``accounts.write``,
``business.write`` and ``transactions.write`` in turn (fava's ``FavaModule(ledger)`` idea: each
part gets the shared state object, none holds the others).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.errors import BookWriteError
from app.gnc.bindings import GncAccount, GncBillTerm
from app.gnc.engine import Engine
from app.gnc.numeric import places_of
from app.words import quoted

Progress = Callable[[str, int, int], None]
PROGRESS_EVERY = 500


def progress(cb: Progress | None, phase: str, done: int, total: int) -> None:
    if cb is not None:
        cb(phase, done, total)


def since(t0: float) -> float:
    return round(time.perf_counter() - t0, 3)


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


@dataclass(slots=True)
class Writer:
    """One book being built: the book, its currency (a GnuCash commodity, ``places`` decimals)
    and the engine objects made so far by the ledger's names. The parts fill it in order
    (accounts, terms and owners, transactions) and raise BookWriteError on input they cannot
    write."""

    book: Any  # the bindings' Book and GncCommodity (untyped SWIG wrappers)
    engine: Engine
    currency: Any
    places: int
    on_progress: Progress | None = None
    accounts: dict[str, GncAccount] = field(default_factory=dict)
    terms: dict[str, GncBillTerm] = field(default_factory=dict)
    owners: dict[tuple[str, str], object] = field(default_factory=dict)
    transactions: list = field(default_factory=list)  # engine pointers, in ledger order
    not_written: list[str] = field(default_factory=list)  # what GnuCash has no field for
    own_ids: Counter[str] = field(default_factory=Counter)  # ids numbered here (no counter)

    @classmethod
    def open(cls, book, engine: Engine, currency: str, on_progress: Progress | None) -> Writer:
        """A Writer on an empty ``book``; BookWriteError for a currency GnuCash does not know
        or whose unit is not a power of ten."""
        commodity = book.get_table().lookup("CURRENCY", currency)
        if commodity is None:
            raise BookWriteError(f"unknown currency {quoted(currency)} (not in GnuCash's table)")
        return cls(book, engine, commodity, places_of(commodity, currency), on_progress)

    def progress(self, phase: str, done: int, total: int) -> None:
        progress(self.on_progress, phase, done, total)

    def written(self) -> Written:
        return Written(
            self.book,
            self.engine,
            self.currency,
            self.places,
            self.accounts,
            self.transactions,
            self.owners,
            self.terms,
        )
