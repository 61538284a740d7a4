"""The account sections of a General Ledger (used by the qbcsv reader), checked against the
report's own ``Total <account>`` rows once the file is read:

- A ``Total X`` row with no heading row for X open above it: the heading row is missing, so the
  rows under it were read as the account before (an error: the file would move money between
  accounts unseen).
- A ``Total X`` row whose figures are not the sum of the rows read under X and its subaccounts:
  a row missing, changed or read under another account (a warning naming both sums; the proof
  of the account shows the difference, this says where it comes from).
- The last section still open where a file without its ``TOTAL`` row stops: a file cut short
  (``ending.stops_early`` says it).

The hot loop only records the heading and Total rows (``Sections``); nothing here runs per row.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from app.model import Problem, Transaction
from app.readers.private import quoted
from app.readers.values import parse_amount
from app.source import Source

ZERO = Decimal(0)
AGAIN = "export the General Ledger again from QuickBooks and give it unedited"


@dataclass
class Sections:
    """What the hot loop saw of a General Ledger's account sections."""

    # each heading row: (line, the section's account path, its text, the section read before)
    opened: list[tuple[int, str, str, str]] = field(default_factory=list)
    # each Total row: (line, the section's account path, Amount, Debit, Credit cells)
    closed: list[tuple[int, str, str, str, str]] = field(default_factory=list)
    unread: set[int] = field(default_factory=set)  # rows of documents not read (estimates…)

    def still_open(self) -> tuple[int, str] | None:
        """The last section opened, when no Total row closed it: (its heading line, account)."""
        if not self.opened:
            return None
        line, path, _text, _before = self.opened[-1]
        done = any(at > line and p == path for at, p, *_ in self.closed)
        return None if done else (line, path)


def section_problems(
    filename: str, sections: Sections, txns: Sequence[Transaction], *, checked: bool
) -> list[Problem]:
    """The findings above for one file. ``checked``: compare Total rows with their sections'
    rows (not when rows of the file were already refused: their sums are known to be short;
    nor for a section holding rows of a document not read, an estimate or an order)."""
    out: list[Problem] = []
    rows: dict[str, list[Decimal]] = defaultdict(list)
    for t in txns:
        for s in t.splits:
            rows[s.account].append(s.value)
    children: dict[str, list[str]] = defaultdict(list)
    paths = {path for _line, path, _text, _before in sections.opened}
    for _line, path, _text, _before in sections.opened:
        parent, _, _ = path.rpartition(":")
        if parent:
            children[parent].append(path)
    closed = {path for _line, path, *_ in sections.closed}
    for line, path, text, before in sections.opened:
        empty = not rows[path] and not children[path]
        parent = path.rpartition(":")[0]
        # (its account's heading opened above under the same parent, not nested in it: a
        # report indenting subaccounts in one column)
        heading = f"{parent}:{text[6:]}" if parent else text[6:]
        if text.startswith("Total ") and path not in closed and empty and heading not in paths:
            shown = f"read as rows of {before}" if before else "read with no account"
            out.append(
                Problem(
                    Source(filename, line),
                    f"a {quoted(text)} row with no heading row for {quoted(text[6:])} above "
                    f"it: the heading row is missing, so the rows above were {shown}; {AGAIN}",
                    "error",
                )
            )
    if not checked:
        return out
    for line, path, am, de, cr in sections.closed:
        said = _said(am, de, cr)
        start = max((at for at, p, *_ in sections.opened if p == path and at < line), default=0)
        if said is None or any(start < n < line for n in sections.unread):
            continue
        values = [v for p, vs in rows.items() if p == path or p.startswith(f"{path}:") for v in vs]
        got = sum(values, ZERO)
        if got != said:
            out.append(
                Problem(
                    Source(filename, line),
                    f"the Total row of {path} says {said:,.2f}, but the {len(values):,} rows read "
                    f"under it sum to {got:,.2f} (difference {got - said:,.2f}): a row is missing, "
                    f"changed, or read under another account; {AGAIN}",
                    "warning",
                    topic="total",
                )
            )
    return out


def short_total(problem: Problem) -> tuple[str, str]:
    """A General Ledger Total row's warning above: (its account path, what it found, without
    what to do); ("", "") for any other problem."""
    found = _SHORT.match(problem.message) if problem.topic == "total" else None
    return (found[1], problem.message.split("; ")[0]) if found else ("", "")


_SHORT = re.compile(r"the Total row of (.+) says -?[\d,]+\.\d\d, but the ")


def _said(am: str, de: str, cr: str) -> Decimal | None:
    """A Total row's net figure: Debit less Credit, else Amount; None when it shows neither, or
    a figure that is no amount (the check is then not made: the rows were read anyway)."""
    try:
        if de or cr:
            return (parse_amount(de) or ZERO) - (parse_amount(cr) or ZERO)
        return parse_amount(am) if am else None
    except ValueError:
        return None
