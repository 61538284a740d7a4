"""The files' date orders side by side: a file whose dates fit either order is read M/D/Y,
and said so, where another file's dates prove D/M/Y or none tells (``values.date_order``
decides each file's order from its own dates)."""

from __future__ import annotations

from collections.abc import Sequence

from app.model import FileInfo, Problem
from app.readers.private import quoted
from app.readers.values import DateOrder, is_order
from app.source import Source


def date_orders(files: Sequence[FileInfo]) -> list[Problem]:
    """A file whose dates fit either order, read in the one other files' dates disprove (each
    file's order is decided from its own dates: a short report may have none that tell)."""
    proven = {f.date_order: f for f in files if f.date_order and not f.date_order_ambiguous}
    words = {"mdy": "M/D/Y", "dmy": "D/M/Y"}
    if not proven:  # (hunt 22: a D/M/Y journal of days 1-12 alone was read M/D/Y, unsaid)
        return [
            Problem(
                Source(f.filename, 1),
                f"its dates fit either order (no day past the 12th) and were read "
                f"{words[f.date_order]}, and no other file tells: if the company writes them "
                f"{words['dmy' if f.date_order == 'mdy' else 'mdy']} (QuickBooks outside the "
                "US, Reckon), every day and month here are swapped; check one transaction's "
                "date against QuickBooks",
                "warning",
                "date_order",
            )
            for f in files
            if f.date_order and f.date_order_ambiguous
        ]
    if len(proven) != 1:
        return []
    ((order, by),) = proven.items()
    return [
        Problem(
            Source(f.filename, 1),
            f"its dates fit either order and were read {words[f.date_order]}, but "
            f"{by.filename}'s are {words[order]}: if this file's are {words[order]} too, its "
            "dates are wrong by months",
            "warning",
            "date_order",
        )
        for f in files
        if f.date_order and f.date_order_ambiguous and f.date_order != order
    ]


def refuted(found: DateOrder[Source], given: str | None) -> Problem | None:
    """The error when the order ``given`` for a file (the Files step's, ``--date-order``) is
    proved by none of its dates and the other order is (hunt 23: "01/26/2019" read
    day/month/year, 83 dates "expected like D/M/YYYY", each told to fix the file), at the first
    date that proves the other."""
    if not is_order(given):
        return None
    theirs, mine = (found.mdy, found.dmy) if given == "dmy" else (found.dmy, found.mdy)
    if theirs is None or mine is not None:
        return None
    words = {"mdy": "month/day/year", "dmy": "day/month/year"}
    other = "mdy" if given == "dmy" else "dmy"
    return Problem(
        theirs[1],
        f"its dates are written {words[other]} ({quoted(theirs[0])}), not {words[given]} as "
        "chosen for this file: none of them reads so; choose the order its dates are written in",
        "error",
        "date_order",
    )
