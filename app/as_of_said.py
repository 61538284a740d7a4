"""What ``app.as_of`` says of a day typed against the day the files give their figures (pure):
an export date that is not the files' day, a cutover date that is not the figures' day; and when
a typed day is the files' own read the other way round (an export header's "5/11/2021")."""

from __future__ import annotations

import datetime as dt

from app.model import Ledger, Problem
from app.source import Source


def swapped(day: dt.date, other: dt.date) -> bool:  # (5/11 read M/D/Y, 11/5 meant: hunt 19)
    return (day.year, day.month, day.day) == (other.year, other.day, other.month)


def not_the_files_day(given: dt.date, day: dt.date, at: Source | None) -> Problem:
    """A typed export date that is not the day the files themselves give their figures: they
    are that day's, whatever is typed (a typo, or another export's day)."""
    where = at.filename if at else "the files"
    return Problem(
        at,
        f"the export date given, {given}, is not the day {where} gives QuickBooks' figures as "
        f"of, {day}: they are that day's balances, so the book could not match them; clear the "
        f"export date (the files' own day is then used) or give {day}",
        fix="export_date",
    )


def not_the_cutover(day: dt.date, figures: dt.date, at: Source | None) -> Problem:
    """Only the balances posts QuickBooks' figures on the cutover date: on another day than
    theirs, the book would start with one day's balances dated another."""
    where = at.filename if at else "the files"
    return Problem(
        at,
        f"the cutover date {day} is not the day of QuickBooks' figures in {where}, {figures}: "
        f"the book would start on {day} with the balances of {figures}; set the cutover date "
        f"to {figures} (to start on another day: with the whole history uploaded, keep it in an "
        "archive book and start a working book on that day; else export QuickBooks' lists or "
        "its Trial Balance report on that day and use those files)",
        fix="cutover_date",
    )


def other_days(ledger: Ledger, day: dt.date) -> list[Problem]:
    """An open-items report whose title says it is as of another day than QuickBooks' figures
    (its "As of": ``FileInfo.titled``): its open items are that day's, and the book's are
    compared as of the figures' day (hunt 19: one retitled "As of December 15" was taken
    unsaid)."""
    out = []
    for f in ledger.files:
        if f.layout in ("open invoices", "unpaid bills") and f.titled and f.titled[1] != day:
            out.append(
                Problem(
                    Source(f.filename, 1),
                    f"this report lists the items open on {f.titled[1]}, and QuickBooks' "
                    f"figures are of {day}: its open items are another day's; export it again "
                    f"from QuickBooks as of {day}",
                    "warning",
                    "same_day",
                )
            )
    return out
