"""QuickBooks' budgets brought up to date in a book (docs/UPDATE.md, "Budgets").

Each budget of the exports (``extras.budgets``) is compared with the book's of its name, both as
a digest of their start, periods and every account's amount per period (``digest``). The run
record keeps the digest of each budget as the run left it in the book, which tells a budget
QuickBooks changed since from one changed in GnuCash:

- not in the book: **added** (one the record has, gone from the book: renamed or deleted in
  GnuCash, held);
- the same: left alone;
- the book's as the last run left it, QuickBooks' other: **brought up to date** (its amounts
  replaced in place: its name, and the book's default budget, kept);
- the book's changed since (or a record without its digest: a book written before they were
  kept) and QuickBooks' other: **held** like a changed transaction (``budget:NAME``): the book
  keeps its own unless the plan takes QuickBooks'. Pure.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from app import keys as k
from app.book import BookBudget
from app.budget_digests import of_book, of_export
from app.classes import renamed
from app.extras import Budget, budget_name
from app.fixes import Audience
from app.plan import Plan, plan_from_json
from app.update import BookState
from app.update_words import DECIDED, Chosen, held_head
from app.words import plural

CHANGED = "changed in GnuCash since the last run"
UNKNOWN = (
    "the book was written before its record kept budgets: it cannot tell whether GnuCash changed it"
)
GONE = "renamed or deleted in GnuCash since the last run"


@dataclass(frozen=True, slots=True)
class Held(Chosen):
    """QuickBooks' ``budget`` other than the book's, whose own the update cannot tell is as the
    last run left it (``why``); ``gone``: the book has no budget of its name any more."""

    budget: Budget
    why: str
    gone: bool = False
    choice: str = ""

    @property
    def key(self) -> str:
        return f"budget:{self.budget.name}"

    def said(self, audience: Audience = "cli") -> str:
        b = self.budget
        if self.taken:
            return f"Taken from QuickBooks {DECIDED[audience]}: {b.name}"
        head = f"{held_head(self.key, self.kept, audience)}{b.source}: QuickBooks' {b.name}"
        if self.gone:
            return f"{head} is not in the book ({self.why}): not added again"
        return f"{head} differs from the book's ({self.why}): the book keeps its own"


@dataclass(frozen=True)
class Budgets:
    """What an update does with the exports' budgets: ``added`` and ``replaced`` (written),
    ``held`` (the book's own stays unless taken), the book's budgets of QuickBooks the exports
    no longer have (``left``), the book's budgets to rename first (``names``: a class whose
    QuickBooks name is taken), the digests the run record keeps (``digests``, ``refresh``: they
    are not the record's); ``every``: all the exports' budgets."""

    added: tuple[Budget, ...] = ()
    replaced: tuple[Budget, ...] = ()
    held: tuple[Held, ...] = ()
    left: tuple[str, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict)
    digests: Mapping[str, str] = field(default_factory=dict)
    refresh: bool = False
    every: tuple[Budget, ...] = ()

    @property
    def writes(self) -> bool:
        return bool(self.added or self.replaced or self.names or self.refresh)

    @property
    def differ(self) -> tuple[Held, ...]:
        """The budgets the book keeps other than QuickBooks'."""
        return tuple(h for h in self.held if not h.taken)

    def lines(self, audience: Audience = "cli") -> list[str]:
        out = []
        if self.added or self.replaced:
            done = [f"{plural(len(self.added), 'budget')} added"] if self.added else []
            if self.replaced:
                done.append(f"{plural(len(self.replaced), 'budget')} brought up to date")
            names = ", ".join(b.name for b in (*self.added, *self.replaced))
            out.append(f"QuickBooks' budgets: {' and '.join(done)} ({names})")
        out += [h.said(audience) for h in self.held if audience == "cli" or h.kept or h.taken]
        if self.left:
            out.append(
                f"The book's {', '.join(self.left)}: not in these exports (deleted in "
                "QuickBooks, or its lists exported without budgets): kept in the book"
            )
        return out

    def in_book(self, to_book: Mapping[str, str]) -> Budgets:
        """These budgets with their accounts as the book names them (renamed in GnuCash, or a
        QuickBooks name taken)."""
        if not to_book:
            return self

        def named(b: Budget) -> Budget:
            return replace(b, lines=tuple((k.by_prefix(a, to_book), v) for a, v in b.lines))

        return replace(
            self,
            added=tuple(map(named, self.added)),
            replaced=tuple(map(named, self.replaced)),
            held=tuple(replace(h, budget=named(h.budget)) for h in self.held),
            every=tuple(map(named, self.every)),
        )

    def classes_taken(self, classes: Mapping[str, str], book: Iterable[str]) -> Budgets:
        """These budgets once the classes ``classes`` (the book's name → QuickBooks') take
        QuickBooks' names: each budget for such a class named so, the book's (named ``book``)
        renamed first, whether the exports hold it or not (hunt 9)."""
        if not classes:
            return self

        def named(b: Budget) -> Budget:
            klass = renamed(b.klass, classes)
            return replace(b, klass=klass, name=budget_name(b.start, klass, b.customer))

        every = tuple(map(named, self.every))
        names = {n: with_class(n, classes) for n in book}
        names.update({a.name: b.name for a, b in zip(self.every, every, strict=True)})
        names = {a: b for a, b in names.items() if a != b}
        return replace(
            self,
            added=tuple(map(named, self.added)),
            replaced=tuple(map(named, self.replaced)),
            held=tuple(replace(h, budget=named(h.budget)) for h in self.held),
            names=names,
            digests={names.get(n, n): d for n, d in self.digests.items()},
            every=every,
        )


def with_class(name: str, classes: Mapping[str, str]) -> str:
    """A budget's name as ``budget_name`` makes it, its class renamed by ``classes``."""
    head, sep, rest = name.partition(" (class ")
    if not sep:
        return name
    klass, comma, tail = rest.partition(", customer ")
    if not comma:
        klass, tail = rest.removesuffix(")"), ""
    new = renamed(klass, classes)
    return f"{head}{sep}{new}{comma}{tail}" + (")" if not comma else "")


def decide(
    exports: Sequence[Budget],
    book: Sequence[BookBudget],
    written: Mapping[str, str],
    choices: Mapping[str, str],
    after: Mapping[str, str],
    *,
    fresh: Collection[str] = (),
) -> Budgets:
    """The exports' budgets against the book's, accounts named alike (as the keys name them);
    ``written``: the record's digests; ``choices``: the plan's decision on a held budget by its
    key (``fresh``: those given in this run); ``after``: the keys' names of accounts after the
    run (a QuickBooks name taken). A decision stored to take QuickBooks' budget is not applied
    again where QuickBooks' is the one the last run wrote: only GnuCash changed it since
    (hunt 9: it undid that change silently)."""
    have = {b.name: b for b in book}
    added: list[Budget] = []
    replaced: list[Budget] = []
    held: list[Held] = []
    digests = dict(written)
    for b in exports:
        got = have.get(b.name)
        same = got is not None and of_book(got) == of_export(b)
        mine = got is not None and written.get(b.name) == of_book(got)
        if got is None and b.name not in written:
            added.append(b)
        elif not same and not mine:
            h = Held(b, GONE if got is None else CHANGED if b.name in written else UNKNOWN)
            choice = choices.get(h.key, "")
            if choice == "quickbooks" and h.key not in fresh and not _changed(b, written):
                choice = ""
            h = replace(h, gone=got is None, choice=choice)
            held.append(h)
            if not h.taken:
                continue  # (the record keeps what it had of it)
            (added if h.gone else replaced).append(b)
        elif not same:
            replaced.append(b)
        digests[b.name] = of_export(b, after)
    names = {b.name for b in exports}
    left = tuple(n for n in sorted(written) if n not in names and n in have) if exports else ()
    refresh = digests != dict(written)
    return Budgets(
        tuple(added), tuple(replaced), tuple(held), left, {}, digests, refresh, tuple(exports)
    )


def _changed(b: Budget, written: Mapping[str, str]) -> bool:
    """QuickBooks changed ``b`` since the last run (its digest is not the record's)."""
    return written.get(b.name) != of_export(b)


def of_update(
    state: BookState, exports: Sequence[Budget], plan: Plan, after: Mapping[str, str]
) -> Budgets:
    """``decide`` for an update: the book's budgets and record (``state``), the plan's
    decisions (those differing from the stored plan's given in this run)."""
    assert state.record is not None
    stored = plan_from_json(state.record.plan).held
    fresh = {k for k, v in plan.held.items() if stored.get(k) != v}
    return decide(exports, state.budgets, state.record.budgets, plan.held, after, fresh=fresh)


def with_classes(
    budgets: Budgets, plan: Plan, classes: Mapping[str, str], state: BookState
) -> tuple[Budgets, Plan]:
    """``budgets`` once the classes ``classes`` take QuickBooks' names (``classes_taken``), and
    ``plan`` with its decisions on those budgets renamed with them (hunt 9: a kept budget was
    held again once its class was renamed)."""
    budgets = budgets.classes_taken(classes, (b.name for b in state.budgets))
    names = budgets.names
    held = {
        f"budget:{names.get(k[7:], k[7:])}" if k.startswith("budget:") else k: v
        for k, v in plan.held.items()
    }
    return budgets, replace(plan, held=held)
