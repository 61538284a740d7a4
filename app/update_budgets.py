"""QuickBooks' budgets brought up to date in a book (docs/UPDATE.md, "Budgets").

Each budget of the exports (``extras.budgets``) is compared with the book's of its name, both as
a digest of their start, periods and every account's amount per period (``digest``). The run
record keeps the digest of each budget as the run left it in the book, which tells a budget
QuickBooks changed since from one changed in GnuCash:

- not in the book: **added**;
- the same: left alone;
- the book's as the last run left it, QuickBooks' other: **brought up to date** (its amounts
  replaced in place: its name, and the book's default budget, kept);
- the book's changed since (or a record without digests: a book written before they were kept)
  and QuickBooks' other: **kept**, said; the book differs from QuickBooks there, which the proof
  says. Pure.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from app import keys as k
from app.book import BookBudget
from app.extras import Budget
from app.words import plural


def digest(
    start: dt.date | None, periods: int, rows: Iterable[tuple[str, Sequence[Decimal]]]
) -> str:
    """A budget's start, periods and each account's amounts (rows all zero left out)."""
    lines = sorted(
        f"{account}\x1e"
        + ",".join(k.canon(v) for v in (*amounts, *(Decimal(0),) * periods)[:periods])
        for account, amounts in rows
        if any(amounts)
    )
    parts = (start.isoformat() if start else "", str(periods), *lines)
    return hashlib.blake2b("\x1f".join(parts).encode(), digest_size=6).hexdigest()


def of_export(b: Budget) -> str:
    return digest(b.start, b.periods, b.lines)


def of_book(b: BookBudget) -> str:
    return digest(b.start, b.periods, b.values)


@dataclass(frozen=True)
class Budgets:
    """What an update does with the exports' budgets: ``added`` and ``replaced`` (written),
    ``kept`` (the book's own stays: changed in GnuCash since, or not known), and the digests
    the run record keeps (``digests``); ``every``: all the exports' budgets."""

    added: tuple[Budget, ...] = ()
    replaced: tuple[Budget, ...] = ()
    kept: tuple[Budget, ...] = ()
    digests: Mapping[str, str] = field(default_factory=dict)
    every: tuple[Budget, ...] = ()

    @property
    def writes(self) -> bool:
        return bool(self.added or self.replaced)

    def lines(self) -> list[str]:
        out = []
        if self.added or self.replaced:
            done = [f"{plural(len(self.added), 'budget')} added"] if self.added else []
            if self.replaced:
                done.append(f"{plural(len(self.replaced), 'budget')} brought up to date")
            names = ", ".join(b.name for b in (*self.added, *self.replaced))
            out.append(f"QuickBooks' budgets: {' and '.join(done)} ({names})")
        out += [
            f"{b.source}: QuickBooks' {b.name} differs from the book's, which was changed in "
            "GnuCash since the last run (or before this book's record kept its budgets): the "
            "book keeps its own"
            for b in self.kept
        ]
        return out

    def in_book(self, to_book: Mapping[str, str]) -> Budgets:
        """These budgets with their accounts as the book names them (renamed in GnuCash, or a
        QuickBooks name taken)."""
        if not to_book:
            return self

        def named(bs: tuple[Budget, ...]) -> tuple[Budget, ...]:
            return tuple(
                replace(b, lines=tuple((k.by_prefix(a, to_book), v) for a, v in b.lines))
                for b in bs
            )

        return replace(
            self,
            added=named(self.added),
            replaced=named(self.replaced),
            kept=named(self.kept),
            every=named(self.every),
        )


def decide(
    exports: Sequence[Budget], book: Sequence[BookBudget], written: Mapping[str, str]
) -> Budgets:
    """The exports' budgets against the book's (``written``: the record's digests); accounts
    named alike on both sides (as the keys name them)."""
    have = {b.name: b for b in book}
    added, replaced, kept = [], [], []
    digests = dict(written)
    for b in exports:
        got = have.get(b.name)
        if got is None:
            added.append(b)
        elif of_book(got) == of_export(b):
            pass
        elif written.get(b.name) == of_book(got):
            replaced.append(b)
        else:
            kept.append(b)
            continue  # (the record keeps what it said of it)
        digests[b.name] = of_export(b)
    return Budgets(tuple(added), tuple(replaced), tuple(kept), digests, tuple(exports))
