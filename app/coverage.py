"""Which days the transaction files cover, and the stretches none covers.

Each history file covers its first to its last transaction's day. A stretch between two files
(or after the last one) is named when
- the file before it is cut at QuickBooks' export cap (accepted as cut, ``FileInfo.cut``): what
  follows its last day is missing, that day included (the cut may fall inside it), up to the
  next file's first day or open-ended;
- or it is longer than every run of days without a transaction inside the files themselves
  (``FileInfo.quiet``) and than two weeks: a quarter exported by nobody, not a quiet week (nor
  the days between two one-transaction files of different types, as Reckon exports them);
- or the two files are reports whose titles give their periods ("January 1, 2021 through August
  31, 2021"; ``FileInfo.titled``) with days between them: the user chose those periods, so the
  days between are in neither, however quiet (hunt 13: a September missing between two such
  reports went into the opening balance).
  The stretch from the last file's last day to the day QuickBooks' figures are from (the
  lists' or trial balance's export date, ``FileInfo.exported_on``) counts too when it is longer
  than those runs and than a month (books are often exported some weeks after the period they
  close): a history that stops long before the export (a report cut short between two
  transactions) is named, and no opening balance takes in what happened after it.
The reader merge warns of each; the proof repeats them in its notes. The days between two files
that are no such gap (``seams``: short, quiet, no title dating them) are said where an opening
balance is posted across them (a warning, the proof's notes): a transaction of theirs missing
from both files would be in it, and nothing can tell. With such a gap no
opening-balance transaction is made, though asked for (``app.cutover``): ``no_opening`` says why,
on the Import step, the Download step and the command line alike.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.model import FileInfo

DAY = dt.timedelta(days=1)
MIN_GAP = 14  # days: a shorter stretch without transactions is no gap worth a warning
EXPORT_GAP = 31  # days: the same before the export date (a month closed, exported weeks later)


@dataclass(frozen=True, slots=True)
class Gap:
    start: dt.date
    end: dt.date | None  # None: open-ended (after the last file)
    before: FileInfo  # the file whose history ends before the gap
    after: FileInfo | None  # the file whose history starts after it
    until: FileInfo | None = None  # the file whose export date ends it (no file after it)

    @property
    def cut(self) -> bool:
        return self.before.cut

    def period(self) -> str:
        """ "from 2021-10-25 on", "2023-04-01 to 2023-06-30", "2023-04-01"."""
        if self.end is None:
            return f"from {self.start.isoformat()} on"
        if self.end == self.start:
            return self.start.isoformat()
        return f"{self.start.isoformat()} to {self.end.isoformat()}"

    def short(self) -> str:
        """ "no history from 2021-10-25 on (journal.csv is cut)": for one line among others."""
        if self.cut:
            period = self.period() if self.end is None else f"for {self.period()}"
            how = "cut short" if self.before.stops_early else "cut at the export cap"
            return f"no history {period} ({self.before.filename} is {how})"
        return f"no file covers {self.period()}"

    def describe(self) -> str:
        """ "no file covers 2023-04-01 to 2023-06-30 (a.csv ends 2023-03-31, b.csv starts
        2023-07-01)"; a cut file's: what is missing after it."""
        last = self.before.last_date.isoformat() if self.before.last_date else ""
        after = self.after
        then = f"; {after.filename} starts {after.first_date}" if after else ""
        if self.cut:
            period = self.period() if self.end is None else f"for {self.period()}"
            how = "cut short" if self.before.stops_early else "cut at QuickBooks' export cap"
            return (
                f"{self.before.filename} is {how}: its history stops on {last}, so the book has "
                f"no history {period} (that day perhaps incomplete{then})"
            )
        if self.until is not None and self.end is not None:
            where = self.until.exported_at or self.until.filename
            what = "export date" if self.until.kind.startswith("IIF") else "report's date"
            then = f"; QuickBooks' figures are as of {self.end}, the {what} in {where}"
        return f"no file covers {self.period()} ({self.before.filename} ends {last}{then})"


def no_opening(holes: Sequence[Gap], first: dt.date) -> str:
    """Why the opening-balance transaction asked for is not made when the files leave a gap
    (``holes``; ``first``: the history's first day): after the history ends, an opening balance
    (dated the day before that first day) cannot stand for it; inside the history, what is
    missing cannot be told from what came before it."""
    gap = holes[0]
    if gap.after is None:
        why = (
            f"{gap.short()}, after the history ends, and an opening balance stands only for what "
            f"happened before the history starts (it is dated {first - DAY}, the day before its "
            "first transaction)"
        )
    else:
        why = (
            f"{gap.short()}, inside the history, and what is missing there cannot be told from "
            "what came before it"
        )
    return f"No opening-balance transaction was made, though it was asked for: {why}"


def quiet_days(dates: Iterable[dt.date]) -> int:
    """The longest run of days without a transaction between a file's first and last day."""
    days = sorted(set(dates))
    return max(((b - a).days - 1 for a, b in itertools.pairwise(days)), default=0)


def gaps(files: Sequence[FileInfo]) -> list[Gap]:
    """The stretches no history file covers that are worth naming (see the module docstring),
    in date order."""
    history = sorted(
        (f for f in files if f.has_history and f.first_date and f.last_date),
        key=lambda f: (f.first_date, f.last_date),
    )
    if not history:
        return []
    quiet = max(MIN_GAP, *(f.quiet for f in history))
    out: list[Gap] = []
    end = history[0]  # the file reaching furthest so far
    for f in history[1:]:
        assert f.first_date and f.last_date and end.last_date
        if f.first_date > end.last_date:
            start = end.last_date if end.cut else end.last_date + DAY
            missing = (f.first_date - start).days
            apart = f.titled and end.titled and f.titled[0] > end.titled[1] + DAY  # (titles)
            if end.cut or missing > quiet or apart:
                out.append(Gap(start, f.first_date - DAY, end, f))
        if f.last_date > end.last_date or (f.last_date == end.last_date and not f.cut):
            end = f
    if end.cut:
        assert end.last_date
        out.append(Gap(end.last_date, None, end, None))
    elif (until := _export(files)) is not None and until.exported_on and end.last_date:
        missing = (until.exported_on - end.last_date).days
        if missing > max(quiet, EXPORT_GAP):
            out.append(Gap(end.last_date + DAY, until.exported_on, end, None, until))
    return out


def seams(files: Sequence[FileInfo]) -> list[Gap]:
    """The days between two history files that neither covers but are no gap (``gaps``: short
    and quiet, between files whose periods no title gives): a transaction there missing from
    both cannot be told from a quiet day, so an opening balance would take it in (hunt 19)."""
    history = sorted(
        (f for f in files if f.has_history and f.first_date and f.last_date),
        key=lambda f: (f.first_date, f.last_date),
    )
    named = {g.start for g in gaps(files)}
    out: list[Gap] = []
    for k, after in enumerate(history[1:], 1):
        before = max(history[:k], key=_reach)
        if (start := _reach(before) + DAY) < _begins(after) and start not in named:
            out.append(Gap(start, _begins(after) - DAY, before, after))
    return out


def _reach(f: FileInfo) -> dt.date:
    """The last day ``f`` covers: its title's, else its last transaction's."""
    assert f.last_date
    return max(f.last_date, f.titled[1]) if f.titled else f.last_date


def _begins(f: FileInfo) -> dt.date:
    assert f.first_date
    return min(f.first_date, f.titled[0]) if f.titled else f.first_date


def history_span(files: Sequence[FileInfo]) -> tuple[dt.date | None, dt.date | None]:
    """The first and last day the files' history covers, each file from its title's first day
    to its last where a report's title names its period (a transaction deleted in QuickBooks
    at either end is then still inside it), else its transactions'; (None, None) without one."""
    dated = [f for f in files if f.has_history and f.first_date and f.last_date]
    if not dated:
        return None, None
    return min(map(_begins, dated)), max(map(_reach, dated))


def seam_warning(found: Sequence[Gap]) -> str:
    """What an opening balance posted across ``seams`` may hide, and what to check."""
    first, more = found[0], len(found) - 1
    assert first.after is not None
    return (
        f"the opening balance takes in what the history does not explain, and no file covers "
        f"{first.period()} ({first.before.filename} ends {_reach(first.before)}, "
        f"{first.after.filename} starts {_begins(first.after)})"
        + (f", nor {more:,} other such stretch{'es' if more > 1 else ''}" if more else "")
        + ": a transaction there missing from both files would be in the opening balance, not "
        "on its day, and the proof cannot tell; check that the exports' date ranges meet (export "
        "those days if not)"
    )


def _export(files: Sequence[FileInfo]) -> FileInfo | None:
    """The file saying on which day QuickBooks' figures are taken (as ``app.as_of`` decides
    it from the files: a trial balance's date, else the latest export date)."""
    dated = [f for f in files if f.exported_on]
    reports = [f for f in dated if f.layout == "trial balance"]
    if reports:
        return reports[0]
    return max(dated, key=lambda f: f.exported_on or dt.date.min) if dated else None
