"""The classes QuickBooks renamed since the last run (docs/UPDATE.md, "A class renamed in
QuickBooks").

QuickBooks renames a class in its whole history: every earlier line of it comes under the new
name in the later exports, so each of the book's transactions on it would be held as edited in
QuickBooks, and the book would hold both names. A class the book has (the run record's
``classes``) that the exports no longer have, and one the exports have that the book does not,
are the same class renamed when the exports, given the book's name for it, hold transactions
that are the book's to the digest (``keys.content``): that is the proof, never the names alone.

The book keeps its name: the exports' lines of the new name take the book's, so nothing is held
for it and the new transactions are in the book's class. Taking QuickBooks' name into the book
(every memo and slot of the class, its sub-accounts) is not done yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from app import keys as k
from app import pipeline
from app.fixes import Audience
from app.model import Ledger, Split
from app.openings import OPENING_KIND
from app.plan import Plan
from app.source import Source
from app.update import BookState
from app.words import plural

PAIRS = 6  # the most (old, new) pairs tried: each prepares the exports once more


@dataclass(frozen=True, slots=True)
class ClassRename:
    """The book's class ``book`` is QuickBooks' ``quickbooks`` now; ``keys``: the book's
    transactions on it that are QuickBooks' to the digest once so named; ``source``: where the
    exports first name ``quickbooks``."""

    book: str
    quickbooks: str
    keys: frozenset[str]
    source: Source

    def said(self, audience: Audience = "cli") -> str:
        again = "a new conversion" + (" (the Upload step)" if audience == "wizard" else "")
        return (
            f"{self.source}: QuickBooks now calls class {self.book!r} {self.quickbooks!r}: "
            f"renamed in QuickBooks ({plural(len(self.keys), 'transaction')} of the book on it "
            f"are QuickBooks' but for the name); the book keeps the name {self.book!r}, and the "
            f"exports' lines of {self.quickbooks!r} are in it under that name ({again} would "
            "name it as QuickBooks does)"
        )


@dataclass(frozen=True)
class Found:
    """The exports as the update compares them: ``parsed`` and ``prepared`` with the classes
    QuickBooks renamed named as the book names them (the given ones where none is)."""

    parsed: Ledger
    prepared: pipeline.Prepared
    renames: tuple[ClassRename, ...] = ()


def found(state: BookState, parsed: Ledger, prepared: pipeline.Prepared, plan: Plan) -> Found:
    """The classes QuickBooks renamed since the last run (see the module docstring)."""
    had = set(state.record.classes) if state.record is not None else set()
    now = {c.name for c in parsed.classes}
    gone, new = _tops(had - now), _tops(now - had)
    if plan.classes == "none" or not gone or not new or len(gone) * len(new) > PAIRS:
        return Found(parsed, prepared)
    stamps = {e.stamp.key: e.stamp.content for e in state.entries if e.stamp is not None}
    proven: list[ClassRename] = []
    for old in gone:
        for name in new:
            ruled = _ruled(parsed, plan, {name: old}, prepared)
            if ruled is not None and (same := _same(ruled.ledger, old, stamps)):
                proven.append(ClassRename(old, name, same, _first(parsed, name)))
    olds = [r.book for r in proven]
    news = [r.quickbooks for r in proven]  # (one class for two is no rename: left as it is)
    proven = [r for r in proven if olds.count(r.book) == 1 and news.count(r.quickbooks) == 1]
    if not proven:
        return Found(parsed, prepared)
    names = {r.quickbooks: r.book for r in proven}
    ruled = _ruled(parsed, plan, names, prepared)
    if ruled is None:
        return Found(parsed, prepared)
    return Found(renamed(parsed, names), ruled, tuple(proven))


def _tops(names: set[str]) -> list[str]:
    """``names`` but those under another of them (a sub-class follows its parent's rename)."""
    return sorted(n for n in names if not any(n.startswith(f"{p}:") for p in names))


def _ruled(
    parsed: Ledger, plan: Plan, names: Mapping[str, str], given: pipeline.Prepared
) -> pipeline.Prepared | None:
    """The exports prepared with ``names`` (QuickBooks' → the book's), or None where that
    changes more than the classes (an error, another order of the transactions)."""
    out = pipeline.prepare(renamed(parsed, names), plan)
    a, b = out.ledger.transactions, given.ledger.transactions
    aligned = len(a) == len(b) and all(
        x.date == y.date and x.ref == y.ref for x, y in zip(a, b, strict=True)
    )
    return out if not out.errors and aligned else None


def _same(ledger: Ledger, old: str, stamps: Mapping[str, str]) -> frozenset[str]:
    """The keys of the book's transactions on ``old`` (or under it) that ``ledger`` holds as
    the book does, to the digest."""
    found = k.keys(ledger.transactions, OPENING_KIND)
    return frozenset(
        key
        for key, t in zip(found, ledger.transactions, strict=True)
        if any(_under(s.klass, old) for s in t.splits) and stamps.get(key) == k.content(t)
    )


def _under(klass: str, name: str) -> bool:
    return klass == name or klass.startswith(f"{name}:")


def _first(parsed: Ledger, name: str) -> Source:
    """Where the exports first name the class ``name``: its line in the list, else its first
    line."""
    for c in parsed.classes:
        if c.name == name:
            return c.source
    return next(s.source for t in parsed.transactions for s in t.splits if _under(s.klass, name))


def renamed(ledger: Ledger, names: Mapping[str, str]) -> Ledger:
    """``ledger`` with each class of ``names`` (its sub-classes with it) named anew: its list
    and every line. Pure."""

    def name(klass: str) -> str:
        return k.by_prefix(klass, names) if klass else klass

    def split(s: Split) -> Split:
        return replace(s, klass=name(s.klass)) if s.klass else s

    txns = tuple(
        replace(t, splits=tuple(split(s) for s in t.splits))
        if any(s.klass for s in t.splits)
        else t
        for t in ledger.transactions
    )
    classes = tuple(replace(c, name=name(c.name)) for c in ledger.classes)
    return replace(ledger, transactions=txns, classes=classes)
