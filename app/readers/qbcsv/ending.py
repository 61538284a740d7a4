"""Whether a CSV report stops before its end (used by the qbcsv reader): a whole Journal,
Transaction Detail or General Ledger report ends with a ``TOTAL`` row (``ends_with_total``
reads the file's end alone); one that does not, or whose last transaction does not balance,
may be cut short (``stops_early``). ``app.readers.read_one`` decides what the finding means, as
for a file cut at QuickBooks' export cap.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
from collections.abc import Sequence
from pathlib import Path

from app.coverage import MIN_GAP, quiet_days
from app.model import Problem, Transaction
from app.source import Source

TOTALLED = {"journal": "Journal", "detail": "Transaction Detail", "ledger": "General Ledger"}


def ends_with_total(path: Path, delimiter: str, encoding: str) -> bool:
    """Whether the file's last row with text is a ``TOTAL`` row (read from its end alone)."""
    with path.open("rb") as f:
        big = f.read(2) == codecs.BOM_UTF16_BE or encoding == "utf-16-be"
        size = f.seek(0, io.SEEK_END)
        f.seek(max(0, size - 16384) & ~1)  # even: a UTF-16 file stays aligned
        tail = f.read()
    codec = ("utf-16-be" if big else "utf-16-le") if encoding.startswith("utf-16") else "utf-8"
    text = tail.decode(codec, errors="replace")
    for line in reversed(text.splitlines()[1:] or text.splitlines()):  # the first may be cut
        cells = [c.strip() for c in next(csv.reader([line], delimiter=delimiter), [])]
        first = next((c for c in cells if c), "")
        if first:
            return first.casefold() == "total"
    return False


def stops_early(
    filename: str,
    txns: Sequence[Transaction],
    layout: str,
    *,
    whole: bool,
    grouped_by_account: bool,
    period_end: dt.date | None,
    last_line: int,
    still_open: tuple[int, str] | None = None,
) -> Problem | None:
    """The finding that the file stops before its end, or None: its last transaction does not
    balance, in a file without the TOTAL row a whole Journal, Transaction Detail or General
    Ledger report ends with (cut in the middle; ``grouped_by_account``: a General Ledger,
    whose last rows are no transaction's); or such a report without its TOTAL row whose title
    says its period runs on well past its last transaction. A missing TOTAL row alone is no
    proof (files put together by hand have none). A General Ledger's signs: transactions whose
    lines do not balance (their other lines lie in the sections past the cut) and its last
    account section ``still_open`` (its heading line and account), closed by no Total row."""
    if not txns:
        return None
    totalled = TOTALLED.get(layout, "")
    if totalled and whole:
        return None
    reasons = []
    end = max(txns, key=lambda t: t.source.line)
    if not grouped_by_account and end.total:
        reasons.append(
            f"its last transaction ({end.kind_label or 'transaction'} of "
            f"{end.date.isoformat()}, line {end.source.line}) stops in the middle, its lines "
            "not balancing"
        )
    if grouped_by_account:
        if unbalanced := sum(1 for t in txns if t.total):
            reasons.append(
                f"{unbalanced:,} of its transactions do not balance (their other lines would "
                "come in the account sections after where it stops)"
            )
        if still_open is not None and unbalanced:
            reasons.append(
                f"its last account section ({still_open[1]}, from line {still_open[0]}) has no "
                "Total row"
            )
    last = max(t.date for t in txns)
    quiet = max(MIN_GAP, quiet_days(t.date for t in txns))
    if period_end is not None and (period_end - last).days > quiet:
        reasons.append(f"its title says it runs through {period_end.isoformat()}")
    if not reasons:
        return None
    if totalled:
        reasons.insert(0, f"it does not end with the TOTAL row a whole {totalled} report ends with")
    return Problem(
        Source(filename, last_line),
        f"{filename} stops early: {', and '.join(reasons)}",
        "warning",
        topic="truncated",
    )
