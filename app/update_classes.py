"""The classes QuickBooks renamed since the last run (docs/UPDATE.md, "A class renamed in
QuickBooks").

QuickBooks renames a class in its whole history: every earlier line of it comes under the new
name in the later exports, so each of the book's transactions on it would be held as edited in
QuickBooks, and the book would hold both names. A class the book has (the run record's
``classes``) that the exports no longer have, and one the exports have that the book does not,
are the same class renamed when the exports, given the book's name for it, hold transactions
that are the book's to the digest (``keys.content``): that is the proof, never the names alone.

Held like an edited transaction, with the key ``class:NAME`` (the book's name). Undecided or
kept, the book keeps its name: the exports' lines of the new name take the book's, so nothing is
held for it and the new transactions are in the book's class. Taken (``taken``), the exports are
compared with the book under the book's name, then written under QuickBooks': the book's lines
of the class renamed where they are (``app.gnc.class_names``), the transactions keyed anew.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from app import keys as k
from app import pipeline
from app.classes import renamed as class_renamed
from app.fixes import Audience
from app.model import Ledger, Split
from app.openings import OPENING_KIND
from app.plan import Plan
from app.source import Source
from app.update import BookEntry, BookState, UpdateRefused, Work, aligned
from app.update_decision import in_book as renaming_in_book
from app.update_words import DECIDED, Chosen, held_head
from app.words import plural, quoted

PAIRS = 6  # the most (old, new) pairs tried: each prepares the exports once more


@dataclass(frozen=True, slots=True)
class ClassRename(Chosen):
    """The book's class ``book`` is QuickBooks' ``quickbooks`` now; ``keys``: the book's
    transactions on it that are QuickBooks' to the digest once so named; ``source``: where the
    exports first name ``quickbooks``; ``choice``: the plan's ("quickbooks", "book"; "":
    undecided, held: the book keeps its name)."""

    book: str
    quickbooks: str
    keys: frozenset[str]
    source: Source
    choice: str = ""

    @property
    def key(self) -> str:
        return f"class:{self.book}"

    def said(self, audience: Audience = "cli") -> str:
        if self.taken:
            return (
                f"Taken from QuickBooks {DECIDED[audience]}: the book's class {quoted(self.book)} "
                f"renamed {quoted(self.quickbooks)} (its lines' memos and classes, its "
                "sub-accounts)"
            )
        return (
            f"{held_head(self.key, self.kept, audience)}{self.source}: QuickBooks now calls "
            f"class {quoted(self.book)} {quoted(self.quickbooks)}: renamed in QuickBooks "
            f"({plural(len(self.keys), 'transaction')} of the book on it are QuickBooks' but "
            "for the name); the book keeps its name, and the exports' lines of that class are "
            "in it"
        )


@dataclass(frozen=True)
class Found:
    """The exports as the update compares them: ``parsed`` and ``prepared`` with the classes
    QuickBooks renamed named as the book names them (the given ones where none is); ``final``:
    the exports as the book is written, where a rename is taken (its class as QuickBooks names
    it, the kept ones as the book does)."""

    parsed: Ledger
    prepared: pipeline.Prepared
    renames: tuple[ClassRename, ...] = ()
    final: Ledger | None = None
    ready: pipeline.Prepared | None = None  # ``final`` prepared, where it is the given exports

    @property
    def taken(self) -> dict[str, str]:
        """The book's name → QuickBooks', of each rename the plan takes."""
        return {r.book: r.quickbooks for r in self.renames if r.taken}


def found(state: BookState, parsed: Ledger, prepared: pipeline.Prepared, plan: Plan) -> Found:
    """The classes QuickBooks renamed since the last run (see the module docstring)."""
    had = set(state.record.classes) if state.record is not None else set()
    now = {c.name for c in parsed.classes}
    gone, new = _tops(had - now), _tops(now - had)
    if plan.classes == "none" or not gone or not new or len(gone) * len(new) > PAIRS:
        return Found(parsed, prepared)
    stamps = {e.stamp.key: e.stamp.content for e in state.entries if e.stamp is not None}
    proven: list[ClassRename] = []
    tried: dict[str, pipeline.Prepared] = {}  # (a single rename's: not prepared again below)
    for old in gone:
        for name in new:
            ruled = _ruled(parsed, plan, {name: old}, prepared)
            if ruled is not None and (same := _same(ruled.ledger, old, stamps)):
                choice = plan.held.get(f"class:{old}", "")
                proven.append(ClassRename(old, name, same, _first(parsed, name), choice))
                tried[name] = ruled
    olds = [r.book for r in proven]
    news = [r.quickbooks for r in proven]  # (one class for two is no rename: left as it is)
    proven = [r for r in proven if olds.count(r.book) == 1 and news.count(r.quickbooks) == 1]
    if not proven:
        return Found(parsed, prepared)
    for r in proven:  # (a sub-account would move under another: not done)
        moved = r.book.rpartition(":")[0] != r.quickbooks.rpartition(":")[0]
        if r.taken and moved and plan.classes == "accounts":
            raise UpdateRefused(
                f"class {quoted(r.book)} is {quoted(r.quickbooks)} in QuickBooks now, under "
                "another parent "
                "class: in a book with a sub-account per class, taking that is not done yet; "
                "keep the book's name for it, or convert into a new book"
            )
    names = {r.quickbooks: r.book for r in proven}
    one = tried[proven[0].quickbooks] if len(proven) == 1 else None
    ruled = one or _ruled(parsed, plan, names, prepared)
    if ruled is None:
        return Found(parsed, prepared)
    kept = {r.quickbooks: r.book for r in proven if not r.taken}
    if len(kept) == len(proven):
        return Found(renamed(parsed, names), ruled, tuple(proven))
    final, ready = (renamed(parsed, kept), None) if kept else (parsed, prepared)
    return Found(renamed(parsed, names), ruled, tuple(proven), final, ready)


def _tops(names: set[str]) -> list[str]:
    """``names`` but those under another of them (a sub-class follows its parent's rename)."""
    return sorted(n for n in names if not any(n.startswith(f"{p}:") for p in names))


def _ruled(
    parsed: Ledger, plan: Plan, names: Mapping[str, str], given: pipeline.Prepared
) -> pipeline.Prepared | None:
    """The exports prepared with ``names`` (QuickBooks' → the book's), or None where that
    changes more than the classes (an error, another order of the transactions)."""
    out = pipeline.prepare(renamed(parsed, names), plan)
    return out if not out.errors and aligned(out.ledger, given.ledger) else None


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
    """``ledger`` with each class of ``names`` (its sub-classes with it) named anew: its list,
    every line and every budget row. Pure."""

    def name(klass: str) -> str:
        return class_renamed(klass, names)

    def split(s: Split) -> Split:
        return replace(s, klass=name(s.klass)) if s.klass else s

    txns = tuple(
        replace(t, splits=tuple(split(s) for s in t.splits))
        if any(s.klass for s in t.splits)
        else t
        for t in ledger.transactions
    )
    classes = tuple(replace(c, name=name(c.name)) for c in ledger.classes)
    budgets = tuple(replace(b, klass=name(b.klass)) for b in ledger.budget_lines)
    return replace(ledger, transactions=txns, classes=classes, budget_lines=budgets)


@dataclass(frozen=True)
class Taking:
    """What taking QuickBooks' name of classes changes in an update's ``work``: the work with
    the transactions keyed as the exports under QuickBooks' names key them; ``accounts``: each
    class sub-account renamed (the keys' name before → after); ``entries``: the book's
    transactions of QuickBooks to key anew, their lines as the keys name them after."""

    work: Work
    accounts: dict[str, str]
    entries: tuple[BookEntry, ...]


def taking(state: BookState, found: Found, compared: Ledger, final: Ledger, work: Work) -> Taking:
    """``work`` (made on ``compared``: the exports under the book's class names) for ``final``
    (the same exports under QuickBooks' names of the taken classes); UpdateRefused where the two
    differ in more than those names."""
    a, b = compared.transactions, final.transactions
    if not aligned(compared, final) or any(
        len(x.splits) != len(y.splits) for x, y in zip(a, b, strict=True)
    ):
        raise UpdateRefused(
            "taking QuickBooks' name of class "
            + ", ".join(quoted(o) for o in found.taken)
            + " changes more than its name in the exports: keep the book's name (--keep-book)"
        )
    olds = tuple(found.taken)
    accounts: dict[str, str] = {}
    touched: set[int] = set()
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        for s, t in zip(x.splits, y.splits, strict=True):
            if any(_under(s.klass, o) for o in olds):
                touched.add(i)
            if s.account != t.account:
                accounts[s.account] = t.account
    after = {k.by_prefix(n, accounts) for n in state.accounts}
    work = replace(
        work,
        keys=tuple(k.keys(b, OPENING_KIND)),
        new_accounts=tuple(sorted({x.full_name for x in final.accounts} - after)),
    )
    index = {e.handle: i for i, e in work.present.items()}
    entries = tuple(
        replace(e, lines=tuple((accounts.get(n, n), v) for n, v in e.lines))
        for e in state.entries
        if e.stamp is not None
        and (index.get(e.handle) in touched or any(n in accounts for n, _ in e.lines))
    )
    return Taking(renaming_in_book(work, accounts), accounts, entries)


def restamp(
    given: tuple[BookEntry, ...], took: Taking | None, to_book: Mapping[str, str]
) -> tuple[BookEntry, ...]:
    """The book's transactions to key anew (``given``: in an account whose QuickBooks name is
    taken, or QuickBooks' change made in GnuCash too) and those of a class whose QuickBooks name
    is taken, their lines as the book names them after; each once."""
    if took is None:
        return given
    named = tuple(
        replace(e, lines=tuple((k.by_prefix(a, to_book), v) for a, v in e.lines))
        for e in took.entries
    )
    return tuple({e.handle: e for e in (*given, *named)}.values())


def in_book(
    took: Taking | None, to_book: Mapping[str, str], after: Mapping[str, str]
) -> tuple[tuple[str, str, str], ...]:
    """Each class sub-account to rename in the book (those under another one follow it): its
    name in the book, its new leaf, its new name as the keys have it after the run (``after``:
    an account's QuickBooks name taken in the same run, hunt 9)."""
    if took is None:
        return ()
    moved = took.accounts
    return tuple(
        (k.by_prefix(old, to_book), new.rpartition(":")[2], k.by_prefix(new, after))
        for old, new in sorted(moved.items())
        if old.rpartition(":")[0] not in moved
    )
