"""A transaction entered twice during the parallel run: made in GnuCash alone, and in QuickBooks
too (pure). The update would keep GnuCash's copy as "made in GnuCash, left out of the proof"
and add QuickBooks' beside it, so the book would hold it twice while the proof, leaving the
GnuCash copy out, called the book matching (a walk entered a 574.83 deposit in both).

A transaction made in GnuCash alone whose lines (accounts and amounts) are those of a
transaction of the exports, dated within ``NEAR`` days of it, is held instead (``Held`` with
``alias`` "twice:", the exports' key, the copy's day and its GUID's first digits, so that a
second copy, even of the same day, is asked about on its own): the proof then counts it, so
the book differs from QuickBooks by exactly that change until it is decided. Taking
QuickBooks' version removes GnuCash's copy; keeping the book's says they are two transactions
(it is then made in GnuCash alone again, and not asked about again). Each transaction of the
exports pairs with one copy at most, the nearest in date (a copy decided in an earlier run
keeps its own).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from app.model import Ledger, Transaction
from app.openings import OPENING_KIND
from app.update import BookEntry, Held, Work
from app.update_words import said_of

NEAR = 7  # days between the two copies' dates, at most
PREFIX = "twice:"

Lines = tuple[tuple[str, Decimal], ...]


def held_twice(work: Work, ledger: Ledger, choices: Mapping[str, str]) -> Work:
    """``work`` with each copy made in GnuCash of a transaction of the exports held (or taken
    out, or kept, as ``choices``, the plan's decisions by key, say); see the module docstring."""
    if not work.added_here:
        return work
    work = _entered_again(work, ledger)
    gone = set(work.deleted_here)
    wanted = {_lines(e.lines) for e in work.added_here}
    by_lines: defaultdict[Lines, list[int]] = defaultdict(list)
    for i, t in enumerate(ledger.transactions):
        if t.voided or t.kind_label == OPENING_KIND or i in gone:
            continue
        lines = _lines((s.account, s.value) for s in t.splits)
        if lines in wanted:
            by_lines[lines].append(i)
    used: set[int] = set()
    held, taken, alone, both = list(work.held), list(work.taken), [], []

    def key(e: BookEntry, i: int) -> str:  # (each copy its own, by its GUID)
        return f"{PREFIX}{work.keys[i]}@{e.date.isoformat()}~{e.made}"

    def near(e: BookEntry) -> list[int]:
        days = {
            i: abs((ledger.transactions[i].date - e.date).days) for i in by_lines[_lines(e.lines)]
        }
        return sorted(
            (i for i, d in days.items() if d <= NEAR and i not in used), key=days.__getitem__
        )

    same_day = Counter((e.date, _lines(e.lines)) for e in work.added_here)

    def choice(e: BookEntry, i: int) -> tuple[str, str | None]:
        """(the key a decision on this pair is under, the decision): the copy's own key, else
        the key without the GUID the last session's runs gave (when one copy of that day)."""
        own = key(e, i)
        older = own.rsplit("~", 1)[0]
        if own not in choices and older in choices and same_day[e.date, _lines(e.lines)] == 1:
            return older, choices[older]
        return own, choices.get(own)

    def decided(e: BookEntry) -> bool:
        return any(choice(e, i)[1] for i in by_lines.get(_lines(e.lines), ()))

    # the copies decided in an earlier run first, so that another copy does not take their
    # QuickBooks transaction; then the others by date, each with the nearest one left
    for e in sorted(work.added_here, key=lambda e: (not decided(e), e.date)):
        found = near(e) if _lines(e.lines) in by_lines else []
        if not found:
            alone.append(e)
            continue
        i = next((i for i in found if choice(e, i)[1]), found[0])
        named, said = choice(e, i)
        if said == "book":  # two transactions: made in GnuCash alone
            alone.append(e)
            both.append(named)
            continue
        used.add(i)
        h = Held(e, None, _why(ledger.transactions[i]), alias=named)
        (taken if said == "quickbooks" else held).append(h)
    kept = {id(e) for e in alone}  # (by identity: a list's ``in`` compares whole entries)
    return replace(
        work,
        held=tuple(sorted(held, key=lambda h: h.entry.date)),
        taken=tuple(taken),
        added_here=tuple(e for e in work.added_here if id(e) in kept),
        both=tuple(both),
    )


def _entered_again(work: Work, ledger: Ledger) -> Work:
    """A QuickBooks transaction the book lost since the last run (``deleted_here``) and a
    transaction made in GnuCash alone with its lines, within ``NEAR`` days: the user deleted it
    and entered it again (GnuCash changes a posted invoice only by unposting and posting it
    again, which makes a new transaction). It is the book's QuickBooks transaction again,
    keyed by this run (``Work.rekeyed``): neither deleted nor a copy."""
    if not work.deleted_here:
        return work
    free = list(work.added_here)
    pairs: list[tuple[int, BookEntry]] = []
    for i in work.deleted_here:
        t = ledger.transactions[i]
        lines = _lines((s.account, s.value) for s in t.splits)
        near = [e for e in free if _lines(e.lines) == lines and abs((e.date - t.date).days) <= NEAR]
        if near:
            e = min(near, key=lambda e: abs((e.date - t.date).days))
            free.remove(e)
            pairs.append((i, e))
    if not pairs:
        return work
    again = {i for i, _ in pairs}
    return replace(
        work,
        deleted_here=tuple(i for i in work.deleted_here if i not in again),
        added_here=tuple(free),
        present={**work.present, **dict(pairs)},
        rekeyed=(*work.rekeyed, *pairs),
    )


def _lines(lines) -> Lines:
    return tuple(sorted((a, v) for a, v in lines if v))


def _why(t: Transaction) -> str:
    return (
        f"QuickBooks has it too ({t.source}: {said_of(t)}): entered in both? The book holds "
        "both copies"
    )
