"""The Map step's archive option (``app.archive``): keep the history before a day in an archive
book and start a working book on it. Suggested, with the day prefilled (the last fiscal year's
start), when the history is large and the GnuCash installed here opens large books slowly."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from app import archive, pipeline
from app.plan import Plan
from app.words import plural


@dataclass(frozen=True, slots=True)
class ArchiveView:
    shown: bool  # the history is brought over (not balances only) and holds transactions
    chosen: str  # the plan's split day, "" when off
    day: str  # the day the date field shows: the plan's, else the suggested one
    note: str  # the suggestion, when the history is large on a slow GnuCash


def archive_view(
    prepared: pipeline.Prepared, plan: Plan, version: tuple[int, ...] | None
) -> ArchiveView:
    """``version``: the installed GnuCash's (major, minor), None when not asked (a small
    history: asking starts GnuCash in a process of its own)."""
    shown = plan.cutover.mode == "full" and prepared.history is not None
    history = prepared.history.transactions if prepared.history is not None else ()
    suggested = archive.suggested_day(prepared.outline.as_of, history) if shown else None
    day = plan.cutover.split_at or (suggested.isoformat() if suggested else "")
    note = ""
    n = prepared.transaction_count
    if shown and not plan.cutover.split_at and version and archive.slow_loader(version):
        when = f" on {_words(suggested)}" if suggested else ""
        note = (
            f"Suggested: this history holds {plural(n, 'transaction')}. "
            + archive.slow_words(version)
            + f". An archive book with the history and a working book starting{when} open "
            "quickly and prove the same figures."
        )
    return ArchiveView(shown, plan.cutover.split_at, day, note)


def wants_version(prepared: pipeline.Prepared, plan: Plan) -> bool:
    """Whether the suggestion depends on the installed GnuCash's version."""
    return may_want_version(prepared.transaction_count, plan)


def may_want_version(transactions: int, plan: Plan) -> bool:
    """Whether it would for a history of ``transactions``: what the files read hold tells
    before they are prepared (the prepared count may differ a little)."""
    return (
        not plan.cutover.split_at
        and plan.cutover.mode == "full"
        and transactions >= archive.SUGGEST_FROM
    )


def _words(day: dt.date | None) -> str:
    return day.strftime("%B %-d, %Y") if day else ""
