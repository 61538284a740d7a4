"""A resolved history and what every plan's stages need from it, worked out once.

A plan renames, moves and merges accounts; it never changes a transaction's date, amounts or
balance. So the per-day sums (``as_of.ledger_daily``), the accounts the splits name and the
checks of the transactions themselves (``validate``) are the same for every plan: the wizard
keeps one ``History`` with the resolved ledger and each Map edit follows the plan's renames on
those (a few hundred accounts) instead of a pass over 100,000 transactions. The transactions
are renamed once, when the final ledger is asked for (``pipeline.Prepared.ledger``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from app.as_of import DailyByAccount, ledger_daily
from app.model import Ledger, Transaction

T = TypeVar("T")
KEPT_PER_KIND = 3


@dataclass(frozen=True)
class History:
    """``transactions`` as resolved (their splits name chart accounts, before the plan)."""

    transactions: tuple[Transaction, ...]
    daily: DailyByAccount  # per account, its lines summed per date (voided ones left out)
    accounts: frozenset[str]  # every account a split names
    _kept: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def of(cls, transactions: tuple[Transaction, ...]) -> History:
        accounts = frozenset(s.account for t in transactions for s in t.splits)
        return cls(transactions, ledger_daily(Ledger(transactions=transactions)), accounts)

    def kept(self, key: tuple, make: Callable[[], T]) -> T:
        """``make()``, once per key: for results that no plan changes (two threads may both
        work one out: it is pure). Keys are tuples led by a kind ("unbalanced", "documents"...);
        each kind keeps its last ``KEPT_PER_KIND`` results (a documents part of 100,000
        transactions holds ~50 MB, one per documents setting and choice of A/R accounts)."""
        if key not in self._kept:
            value = make()
            same = [k for k in self._kept if k[0] == key[0]]  # oldest first
            for old in same[: max(0, len(same) + 1 - KEPT_PER_KIND)]:
                self._kept.pop(old, None)
            self._kept[key] = value
        return self._kept[key]
