"""One history out of several files: a transaction found in two files is kept once, whatever
the files' layouts (a company's Find export and its Transaction Detail report hold the same
history, grouped and labelled differently).

Files that carry a Trans # are taken first (their grouping is QuickBooks' own); a later file's
transaction is the same as an earlier file's when
- both carry a Trans #: the numbers are equal; then date and lines must be equal too, or the two
  files disagree about that transaction: an error naming both places;
- else: same date, same lines (account and amount; accounts compared by the chart name a label
  resolves to, without a chart by their names without numbers, leaf only, since a Find export
  prints ``Utilities:Gas`` where a report prints ``6910 · Gas``), and num, name and type equal
  where both files give them (types only between two CSV reports or two IIF files: their words
  differ). One found in no earlier file may still be the same as several: the Find export
  groups by the running balance, so two transactions of one day, type, num and name that each
  return it to 0.00 are read as one (it warns so); when a later file's transaction is exactly
  several of them, one after another (in any order: a Find export need not list a day's
  transactions by Trans #), it is imported once, as those. Two transactions with one date,
  type, num and name but other lines, one in each of two files that otherwise overlap, are the
  same document in two versions: an error naming both places.
Inside one file a Trans # (an IIF TRNSID) given twice is caught the same way: a second copy with
the same date and lines is imported once (the same TRNS blocks appended twice to a file), one
with other lines is an error naming both places (QuickBooks numbers each transaction once);
two halves that do not balance alone are left to the validation, which names them.
Every duplicate is said once per pair of files (a note naming its lines: each is in the book
once, nothing to do; hunt 23 M13: seven exports of one history were 14 warnings to "read
first"), never one per transaction: an overlap of thousands must not hide the warnings. A copy
inside one file (``_twice_warning``) stays a warning: a file put together by hand may hold an
export twice.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Literal

from app.model import Ledger, Problem, Split, Transaction, money
from app.readers import one_sided
from app.source import line_list
from app.words import plural

Name = Callable[[str], str]
IIF_LAYOUTS = frozenset({"iif", "iif transactions"})
_SHOWN_LINES = 6


def key(t: Transaction, name: Name) -> tuple:
    """(date, the lines as a sorted multiset of (account, value)): what two copies share."""
    return (t.date, _lines_key(t.splits, name))


def _lines_key(splits: Sequence[Split], name: Name) -> tuple:
    values: dict[tuple[str, Decimal], int] = defaultdict(int)
    for s in splits:
        values[(name(s.account), s.value)] += 1
    return tuple(sorted(values.items()))


def _word(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


@dataclass(slots=True)
class _Kept:
    t: Transaction
    key: tuple
    file: str
    iif: bool
    index: int  # position among its own file's transactions


@dataclass(slots=True)
class _Pair:
    """What one later file shares with one earlier file."""

    dropped: list[Transaction] = field(default_factory=list)
    kept: list[Transaction] = field(default_factory=list)  # the earlier file's, in that order


class _History:
    def __init__(self, name: Name, problems: list[Problem]) -> None:
        self.name = name
        self.problems = problems
        self.kept: list[_Kept] = []
        self.by_key: dict[tuple, list[_Kept]] = defaultdict(list)
        self.by_ref: dict[str, list[_Kept]] = defaultdict(list)
        self.by_doc: dict[tuple, list[_Kept]] = defaultdict(list)
        self.superseded: set[str] = set()  # files every transaction of which another file has
        self.spans: dict[str, tuple[dt.date, dt.date]] = {}  # the days each file covers

    def doc(self, t: Transaction) -> tuple:
        return (t.date, t.num.strip())

    def same_fields(self, a: Transaction, a_iif: bool, b: Transaction, b_iif: bool) -> bool:
        """Num, name and type equal where both give them (types only in one vocabulary)."""
        pairs = [(a.num, b.num), (a.description, b.description)]
        if a_iif == b_iif:
            pairs.append((a.kind_label, b.kind_label))
        return all(_word(x) == _word(y) for x, y in pairs if x.strip() and y.strip())

    def add(self, part: Ledger) -> None:
        filename = part.files[0].filename if part.files else part.transactions[0].source.filename
        iif = bool(part.files) and part.files[0].layout in IIF_LAYOUTS
        used: set[int] = set()
        pairs: dict[str, _Pair] = defaultdict(_Pair)
        rest: list[tuple[int, Transaction, tuple]] = []
        for i, t in enumerate(part.transactions):
            k = key(t, self.name)
            twin = self._twin(t, k, iif, used)
            if twin is None:
                rest.append((i, t, k))
            elif twin is not False:
                used.add(id(twin))
                pair = pairs[twin.file]
                pair.dropped.append(t)
                pair.kept.append(twin.t)
        mine: list[_Kept] = []
        for i, t, k in rest:
            if t.ref or not self._run(t, iif, used):
                mine.append(_Kept(t, k, filename, iif, i))
        self._disagreeing(mine, pairs, used)
        days = one_sided.span(part.files[0] if part.files else None, part.transactions)
        if days is not None:  # (the days an earlier file sharing some with it covers too)
            unused = [k for k in self.kept if id(k) not in used]
            self.problems += one_sided.warnings(self.spans, (filename, days), pairs, unused, mine)
            self.spans[filename] = days
        if part.transactions and not mine:
            self.superseded.add(filename)
        for kept in mine:
            self.kept.append(kept)
            self.by_key[kept.key].append(kept)
            if kept.t.ref:
                self.by_ref[kept.t.ref].append(kept)
            self.by_doc[self.doc(kept.t)].append(kept)
        for other, pair in pairs.items():
            self.problems.append(_imported_once(pair, other))

    def _twin(
        self, t: Transaction, k: tuple, iif: bool, used: set[int]
    ) -> _Kept | Literal[False] | None:
        """The earlier transaction ``t`` repeats; None when none; False when ``t`` names a
        Trans # an earlier file has with other contents (an error is added)."""
        if t.ref:
            same_ref = [o for o in self.by_ref.get(t.ref, ()) if id(o) not in used]
            for o in same_ref:
                if o.key == k:
                    return o
            if same_ref:
                self.problems.append(self._disagree(same_ref[0], t, f"Trans # {t.ref}"))
                return False
        for o in self.by_key.get(k, ()):
            if id(o) in used:
                continue
            if o.t.ref and t.ref:
                continue  # two Trans # that differ: two transactions
            if self.same_fields(o.t, o.iif, t, iif):
                return o
        return None

    def _run(self, t: Transaction, iif: bool, used: set[int]) -> bool:
        """Whether ``t`` (no Trans #) is exactly several of an earlier file's transactions of
        its day, num, name and type, read as one; if so it is said and not kept. They follow
        one another in ``t`` (each one's lines together), whatever order the other file
        gives them: a Find export need not list a day's transactions by Trans #."""
        by_file: dict[str, list[_Kept]] = defaultdict(list)
        for o in self.by_doc.get(self.doc(t), ()):
            if id(o) not in used and self.same_fields(o.t, o.iif, t, iif):
                by_file[o.file].append(o)
        for other, found in by_file.items():
            run = self._pieces(t.splits, sorted(found, key=lambda o: o.index))
            if run is not None and len(run) > 1:
                run.sort(key=lambda o: o.index)
                used.update(id(o) for o in run)
                self.problems.append(_run_warning(t, run, other))
                return True
        return False

    def _pieces(self, lines: tuple[Split, ...], found: list[_Kept]) -> list[_Kept] | None:
        """Transactions of ``found`` whose lines, one transaction after another, are ``lines``
        (compared as ``key`` does, each transaction's in any order), or None. Alike ones are
        tried once at each place, so the search stays small."""
        name = self.name
        shapes = [_lines_key(o.t.splits, name) for o in found]

        def walk(at: int, taken: list[int]) -> list[int] | None:
            if at == len(lines):
                return taken
            tried: set[tuple] = set()
            for i, o in enumerate(found):
                n = len(o.t.splits)
                if i in taken or shapes[i] in tried or at + n > len(lines):
                    continue
                tried.add(shapes[i])
                if _lines_key(lines[at : at + n], name) == shapes[i]:
                    done = walk(at + n, [*taken, i])
                    if done is not None:
                        return done
            return None

        chosen = walk(0, [])
        return None if chosen is None else [found[i] for i in chosen]

    def _disagreeing(self, mine: list[_Kept], pairs: dict[str, _Pair], used: set[int]) -> None:
        """Same date, num, name and type, other lines, one left in each of two files that share
        other transactions: two versions of one document. Each such pair is an error."""
        left: dict[tuple, int] = defaultdict(int)
        for kept in mine:
            left[self.doc(kept.t)] += 1
        for kept in mine:
            t = kept.t
            if not t.num.strip() or left[self.doc(t)] != 1:
                continue
            twins = [
                o
                for o in self.by_doc.get(self.doc(t), ())
                if o.file in pairs
                and id(o) not in used
                and not (o.t.ref and t.ref)
                and self.same_fields(o.t, o.iif, t, kept.iif)
            ]
            if len(twins) == 1:
                what = f"{t.kind_label or 'transaction'} {t.num.strip()}".strip()
                self.problems.append(self._disagree(twins[0], t, what))

    def _disagree(self, o: _Kept, t: Transaction, what: str) -> Problem:
        if o.t.date != t.date:
            how = f"dated {o.t.date.isoformat()} there, {t.date.isoformat()} here"
        else:
            how = f"there: {_lines(o.t, self.name)}; here: {_lines(t, self.name)}"
        return Problem(
            t.source,
            f"{what} of {t.date.isoformat()} is also in {o.t.source}, but the two files "
            f"disagree about it ({how}); export both files again from the same company file, "
            "or give only one of them",
        )

    def transactions(self) -> tuple[Transaction, ...]:
        out = [k.t for k in self.kept]
        out.sort(key=lambda t: t.date)
        return tuple(out)


def _lines(t: Transaction, name: Name) -> str:
    shown = [f"{name(s.account)} {money(s.value)}" for s in t.splits[:_SHOWN_LINES]]
    more = len(t.splits) - _SHOWN_LINES
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _span(txns: Sequence[Transaction]) -> str:
    days = [t.date for t in txns]
    first, last = min(days), max(days)
    return first.isoformat() if first == last else f"{first.isoformat()} to {last.isoformat()}"


def _imported_once(pair: _Pair, other: str) -> Problem:
    dropped = pair.dropped
    first = dropped[0]
    if len(dropped) == 1:
        text = (
            f"transaction of {first.date.isoformat()}"
            + (f" (Trans # {first.ref})" if first.ref else "")
            + f" is also in {pair.kept[0].source}; imported once"
        )
    else:
        text = (
            f"{len(dropped):,} transactions of this file ({_span(dropped)}) are also in {other}; "
            f"each is imported once, from {other} (this file's "
            f"{line_list(t.source for t in dropped)})"
        )
    return Problem(first.source, text, "note", topic="overlap")


def _run_warning(t: Transaction, run: Sequence[_Kept], other: str) -> Problem:
    refs = [o.t.ref for o in run if o.t.ref]
    named = f" (Trans # {', '.join(refs)})" if len(refs) == len(run) else ""
    return Problem(
        t.source,
        f"this {t.kind_label or 'transaction'} of {t.date.isoformat()} "
        f"({line_list(s.source for s in t.splits)}) is the {len(run)} transactions of {other} at "
        f"{line_list(o.t.source for o in run)}{named} read as one; imported once, as those "
        f"{len(run)}",
        "note",
        topic="overlap",
    )


def history(
    parts: Sequence[Ledger], name: Name, problems: list[Problem], superseded: set[str] | None = None
) -> tuple:
    """All files' transactions in date order (stable), each transaction once; see the module
    docstring. ``name`` maps each file's account label to what two files' labels compare by;
    ``superseded`` gets the files none of whose transactions is taken from them (every one is
    in another file, and taken from there)."""
    with_history = [_once(p, name, problems) for p in parts if p.transactions]
    if len(with_history) == 1:  # nothing to compare with: no key computed
        return tuple(sorted(with_history[0].transactions, key=lambda t: t.date))
    order = sorted(with_history, key=lambda p: not any(t.ref for t in p.transactions))
    found = _History(name, problems)
    for part in order:
        found.add(part)
    if superseded is not None:
        superseded.update(found.superseded)
    return found.transactions()


def quieted(problems: Sequence[Problem], superseded: set[str], moot: str) -> list[Problem]:
    """``problems`` with the warnings of the ``superseded`` files that start with ``moot``
    (how their own lines group into transactions) said once per file: none of those
    transactions is taken from that file, so none of them can be wrong in the book."""
    out: list[Problem] = []
    folded: dict[str, list[Problem]] = defaultdict(list)
    for p in problems:
        if p.source and p.source.filename in superseded and p.message.startswith(moot):
            folded[p.source.filename].append(p)
        else:
            out.append(p)
    for moot_ones in folded.values():
        first = moot_ones[0]
        out.append(
            Problem(
                first.source,
                f"{plural(len(moot_ones), 'warning')} about how this file's lines group into "
                f"transactions ({moot}, first at {first.source}) do not matter: every "
                "transaction of this file is also in another transaction file, and taken from "
                "there",
                "note",
                topic="overlap",
            )
        )
    return out


def leaf(name: Name) -> Name:
    """Labels compared by their leaf alone (no chart to say where a report's ``6910 · Gas``
    sits): ``name`` then everything before the last ``:`` dropped."""
    return lambda label: name(label).rsplit(":", 1)[-1]


TWICE_TODO = "if the file was put together from several exports, check that none was added twice"


def _once(part: Ledger, name: Name, problems: list[Problem]) -> Ledger:
    """``part`` with each transaction whose Trans # the file gave before kept once: dropped
    (said once for the file) when its date and lines are the same; an error when both copies
    balance but differ; left for the validation when they do not balance (one transaction
    read in two pieces)."""
    first: dict[str, Transaction] = {}
    again: list[tuple[Transaction, Transaction]] = []
    dropped: set[int] = set()
    for t in part.transactions:
        if not t.ref:
            continue
        seen = first.setdefault(t.ref, t)
        if seen is t:
            continue
        if key(seen, name) == key(t, name):
            again.append((t, seen))
            dropped.add(id(t))
        elif seen.total == 0 and t.total == 0:
            problems.append(_numbered_twice(seen, t, name))
            dropped.add(id(t))
    if again:
        problems.append(_twice_warning(again))
    if not dropped:
        return part
    return replace(part, transactions=tuple(t for t in part.transactions if id(t) not in dropped))


def _twice_warning(again: Sequence[tuple[Transaction, Transaction]]) -> Problem:
    t, seen = again[0]
    if len(again) == 1:
        text = (
            f"this transaction of {t.date.isoformat()} (Trans # {t.ref}) is in the file twice, "
            f"with the same lines (first at line {seen.source.line}): imported once; {TWICE_TODO}"
        )
    else:
        copies = [t for t, _ in again]
        text = (
            f"{len(again):,} transactions of this file ({_span(copies)}) are in it twice, with "
            f"the same Trans # and lines ({line_list(c.source for c in copies)} repeat "
            f"{line_list(s.source for _, s in again)}): each is imported once; {TWICE_TODO}"
        )
    return Problem(t.source, text, "warning", topic="overlap")


def _numbered_twice(seen: Transaction, t: Transaction, name: Name) -> Problem:
    return Problem(
        t.source,
        f"Trans # {t.ref} of {t.date.isoformat()} is also at line {seen.source.line} of this "
        f"file, with other lines (there: {_lines(seen, name)}; here: {_lines(t, name)}): "
        "QuickBooks gives each transaction its own number; export the file again from "
        "QuickBooks (a file another program wrote: clear its TRNSID or Trans # column)",
    )
