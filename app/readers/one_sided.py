"""Two transaction files of one history whose periods overlap (``overlap``): a transaction of
the days both cover that only one of them holds. Each is imported (the later export may hold one
entered since, dated back); one QuickBooks deleted or changed between the two exports is then
in the book while QuickBooks no longer counts it, and the proof finds the history explaining
more than QuickBooks' balance (hunt 13: it said "no transaction is in the files twice" and named
none). Said once per pair of files, naming the first few; ``repeated.cause`` names it again as
the probable cause. Pure."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.model import FileInfo, Problem, Transaction
from app.words import plural

ONE_SIDED = "in only one of them"  # (``shared`` finds the warning by it)
CAUSE = (
    "one of those is probably one QuickBooks deleted or changed between the two exports (one "
    "entered since and dated back is in the later file alone, and right)"
)
ALL_IMPORTED = "; each is imported"
_SHOWN = 3


def shared(problems: Iterable[Problem]) -> str:
    """The days two overlapping files both cover and what only one of them holds there, as the
    warning says it ("A and B both cover …, but 1 transaction of those days is in only one of
    them (…)"), for a cause to name; "" when no such warning is among ``problems``."""
    said = next((p for p in problems if p.topic == "overlap" and ONE_SIDED in p.message), None)
    return said.message.partition(ALL_IMPORTED)[0] if said is not None else ""


def span(info: FileInfo | None, txns: Sequence[Transaction]) -> tuple[dt.date, dt.date] | None:
    """The days a file covers: its report title's period, else its transactions' first and last
    days."""
    if info is not None and info.titled:
        return info.titled
    days = [t.date for t in txns]
    return (min(days), max(days)) if days else None


def warnings(
    spans: Mapping[str, tuple[dt.date, dt.date]],
    this: tuple[str, tuple[dt.date, dt.date]],
    sharing: Iterable[str],
    unused: Sequence[Any],
    mine: Sequence[Any],
) -> list[Problem]:
    """For each earlier file ``sharing`` transactions with this one (``this``: its name and
    days) whose days (``spans``) meet its own, the warning for the days both cover (``unused``:
    the earlier files' transactions this one does not hold; ``mine``: this one's the earlier
    files do not; both ``overlap._Kept``)."""
    name, days = this
    out = []
    for other in sharing:
        there = spans.get(other)
        if there is None or max(days[0], there[0]) > min(days[1], there[1]):
            continue
        both = (max(days[0], there[0]), min(days[1], there[1]))
        theirs = [k.t for k in unused if k.file == other]
        said = warning((other, name), both, theirs, [k.t for k in mine])
        if said is not None:
            out.append(said)
    return out


def warning(
    files: tuple[str, str],
    days: tuple[dt.date, dt.date],
    earlier: Sequence[Transaction],
    later: Sequence[Transaction],
) -> Problem | None:
    """The warning for the transactions of ``days`` (both ``files`` cover them) that only the
    earlier file (``earlier``) or only the later one (``later``) holds; None when there are
    none."""
    start, end = days
    found = [
        (t, there)
        for txns, there in ((earlier, files[1]), (later, files[0]))
        for t in txns
        if start <= t.date <= end
    ]
    if not found:
        return None
    found.sort(key=lambda f: f[0].date)
    shown = "; ".join(
        f"{t.kind_label or 'transaction'} {t.num + ' ' if t.num else ''}of {t.date.isoformat()}"
        + (f" (Trans # {t.ref})" if t.ref else "")
        + f" at {t.source}, not in {there}"
        for t, there in found[:_SHOWN]
    )
    more = f" and {len(found) - _SHOWN:,} more" if len(found) > _SHOWN else ""
    n = len(found)
    return Problem(
        found[0][0].source,
        f"{files[0]} and {files[1]} both cover {start.isoformat()} to {end.isoformat()}, but "
        f"{plural(n, 'transaction')} of those days {'is' if n == 1 else 'are'} {ONE_SIDED} "
        f"({shown}{more}){ALL_IMPORTED}: one QuickBooks deleted or changed between the two "
        "exports would be in the book though QuickBooks no longer counts it",
        "warning",
        topic="overlap",
    )
