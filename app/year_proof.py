"""One QuickBooks Trial Balance report against the book on its date (``app.extras_proof`` makes
them: every year end), and the probable cause of what differs, from what the files' own
transactions make of each figure on that date."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from app.csvsafe import line as csv_line
from app.model import Ledger, Transaction, plain
from app.openings import OPENING_KIND


@dataclass(frozen=True, slots=True)
class YearRow:
    account: str
    quickbooks: Decimal
    gnucash: Decimal
    files: Decimal | None = None  # what the files' transactions make of it on that date

    @property
    def difference(self) -> Decimal:
        return self.gnucash - self.quickbooks


@dataclass(frozen=True, slots=True)
class YearProof:
    date: dt.date
    year_start: dt.date
    rows: tuple[YearRow, ...]
    filename: str = ""
    compared: bool = True  # False: before the book's first transaction
    moved: str = ""  # a transaction dated across this date whose lines are its differences

    @property
    def differences(self) -> tuple[YearRow, ...]:
        return tuple(r for r in self.rows if r.difference)

    @property
    def year_end(self) -> bool:
        """The date closes a fiscal year (else a trial balance of another day, the export's)."""
        after = self.date + dt.timedelta(days=1)
        return (after.month, after.day) == (self.year_start.month, self.year_start.day)

    @property
    def ok(self) -> bool:
        return self.compared and not self.differences

    def difference_of(self, account: str) -> Decimal:
        return next((r.difference for r in self.rows if r.account == account), Decimal(0))

    def cause(
        self,
        update: bool = False,
        carried: Mapping[str, Decimal] | None = None,
        plug: Plug | None = None,
    ) -> str:
        """The probable cause of this date's differences, from what the files make of each:
        QuickBooks' figure (the book lost it; ``update``: an update's book, changed in GnuCash
        since the last run), the book's (QuickBooks counts on that date what the files do not
        hold), or some of each; ``carried``: a working book's accounts whose opening balance
        carries the archive's difference from QuickBooks, by that much (``split_write``);
        ``plug``: the opening balances posted here of what the history does not explain, and
        the later dates proved (``Plug``)."""
        rows = self.differences
        carried = carried or {}
        came = [r.account for r in rows if carried.get(r.account) == r.difference]
        if self.moved and not came:  # (one transaction of the files makes them all: first)
            return self.moved
        if plug and not came and (late := plug.late(self)):
            return late
        gone = plug.gone(self, [r for r in rows if r.account not in came]) if plug else None
        told = {*came, *(gone[1] if gone else ())}
        book = [r.account for r in rows if r.files == r.quickbooks and r.account not in told]
        files = [r.account for r in rows if r.files == r.gnucash and r.account not in told]
        said = [f"{_of(came, rows)}{CARRIED}"] if came else []
        if plug and gone:
            said.append(f"{_of(gone[1], rows)}{plugged(self.date, gone[0], plug.day)}")
        if book:
            said.append(f"{_of(book, rows)}{book_differs(update)}")
        if files:
            said.append(
                f"{_of(files, rows)}the files' transactions make the book's figure, not "
                f"QuickBooks': QuickBooks counts on {self.date} what the files do not hold (a "
                "transaction of that fiscal year missing from them, or changed in QuickBooks "
                "after this report was exported; or the report run on a cash basis). Export "
                "this Trial Balance again (Accrual, as of that date) with the other files, and "
                "check that the transaction report covers that year whole"
            )
        return "; ".join(said)


@dataclass(frozen=True, slots=True)
class Plug:
    """The opening balances posted here of what the history does not explain
    (``--opening-balances``): their day, the balance-sheet accounts they post to (Retained
    Earnings aside: ``retained``), and the dates proved (``YearProof``)."""

    day: dt.date
    accounts: frozenset[str]
    retained: str | None
    years: tuple[YearProof, ...]
    sheet: frozenset[str] = frozenset()  # every balance-sheet account (Retained Earnings aside)

    def late(self, first: YearProof) -> str:
        """The cause where the history starts inside or after ``first``'s fiscal year, and
        only its income and expense and Retained Earnings differ: QuickBooks counts the year
        from its start, the book from the history's, the rest in the opening balances (asked
        for): nothing is missing. "" when not so."""
        start = self.day + dt.timedelta(days=1)
        rows = first.differences
        if start <= first.year_start or any(r.account in self.sheet for r in rows):
            return ""
        later = next((y for y in self.years if y.compared and y.date > first.date), None)
        if later is not None and any(later.difference_of(r.account) for r in rows):
            return ""
        where = "inside" if start <= first.date else "after"
        then = f" ({later.date} matches on them)" if later is not None else ""
        return (
            f"the history starts on {start}, {where} the fiscal year from {first.year_start} to "
            f"{first.date}: QuickBooks counts that year's income and expense from "
            f"{first.year_start}, the book from {start}, with what came before in the opening "
            f"balances of {self.day} (--opening-balances){then}. A transaction of that year "
            f"missing from the files would show the same: to prove the year, give the "
            f"transactions from {first.year_start} on"
        )

    def gone(self, first: YearProof, rows: list[YearRow]) -> tuple[dt.date, list[str]] | None:
        """Where ``first``'s differences on balance-sheet accounts the opening balances posted
        to are gone at a later date proved: that date, and those accounts (with Retained
        Earnings when its difference goes too, a year later: the missing days' income and
        expense). The opening balances then took in transactions of the days between that
        the files lack: the balance sheet holds them from the start until the days they
        belong to. None: not so (a history that starts late differs only in the first
        year's income and expense and Retained Earnings: the opening balances rightly hold
        what came before it)."""
        later = [y for y in self.years if y.compared and y.date > first.date]
        ends = []
        for r in rows:
            if r.account in self.accounts:
                end = next((y.date for y in later if not y.difference_of(r.account)), None)
                if end is None:
                    return None
                ends.append(end)
        if not ends:
            return None
        told = [r.account for r in rows if r.account in self.accounts]
        if self.retained in {r.account for r in rows} and any(
            not y.difference_of(self.retained) for y in later
        ):
            told.append(self.retained)
        return max(ends), told


def plugged(first: dt.date, until: dt.date, day: dt.date) -> str:
    """The cause of differences the opening balances made (``Plug.gone``)."""
    return (
        f"the opening balances posted on {day} (--opening-balances) took in transactions the "
        f"files lack: these accounts differ on {first} and match again on {until}, so the "
        f"transactions missing are dated {first + dt.timedelta(days=1)} to {until}, and the "
        "opening balance stands in for them since before the history starts. Add the file "
        "that holds that period (export it again from QuickBooks) and convert again: the "
        "opening balances then hold only what came before the history"
    )


CARRIED = (
    "carried from the archive: its closing balance differs from QuickBooks' trial balance (the "
    "archive's proof says where that difference starts)"
)


def book_differs(update: bool = False) -> str:
    """The cause where the files make QuickBooks' figure and the book does not: a fault of
    qb2gnucash in a first conversion; in an update's book (``update``), what was done in
    GnuCash since the last run, which the update lists."""
    why = "a change since the last run, listed above" if update else "please report this"
    return f"the book's transactions differ from the files' ({why})"


def _of(accounts: list[str], rows: tuple[YearRow, ...]) -> str:
    return "" if len(accounts) == len(rows) else f"on {', '.join(accounts[:5])}: "


def across(
    year: YearProof,
    after: YearProof | None,
    txns: Sequence[Transaction],
    sheet: Collection[str],
) -> str:
    """The probable cause where one transaction of the files makes every difference on
    ``year``'s date to the cent, dated on the other side of it from QuickBooks: after the date
    in the files where QuickBooks counts it on or before (the differences are its lines
    negated), or in the fiscal year to it where QuickBooks counts it later (its lines). Only
    when ``after``, the next date proved, confirms it: there the balance-sheet accounts it
    posts to (``sheet``: Retained Earnings aside) match again, which a transaction missing or
    in the files twice, of the same lines by chance, would not. "" when not so, or when the
    files' figures are not the book's (each difference then has another cause)."""
    rows, day = year.differences, year.date
    off = {r.account: r.difference for r in rows}
    if not off or after is None or any(r.files != r.gnucash for r in rows):
        return ""
    posted = [a for a in off if a in sheet]
    if not posted or any(after.difference_of(a) for a in posted):
        return ""
    later = day + dt.timedelta(days=366)
    for t in txns:
        if t.voided or t.kind_label == OPENING_KIND or not year.year_start <= t.date <= later:
            continue
        lines: dict[str, Decimal] = {}
        for s in t.splits:
            lines[s.account] = lines.get(s.account, Decimal(0)) + s.value
        moved = t.date > day
        if {a: -v if moved else v for a, v in lines.items() if v} != off:
            continue
        what = f"{t.kind_label or 'transaction'}{f' {t.num}' if t.num else ''} of {t.date}"
        files, there = ("after", "on or before") if moved else ("on or before", "after")
        return (
            f"{what} ({t.source}) is dated {files} {day} in the files, but QuickBooks counts it "
            f"{there} that date: its lines are these differences to the cent, and on {after.date} "
            "the balance sheet matches again. Its date was changed, or it was entered, in "
            "QuickBooks after the Trial Balance report was run, or its date was changed in the "
            "file; check it in QuickBooks and export the files again"
        )
    return ""


def book_day(ledger: Ledger, day: dt.date, first: dt.date | None) -> dt.date | None:
    """The day the book is read on to compare QuickBooks' Trial Balance of ``day`` with it
    (None: not compared): that day; or, for a report of a day before the book's first
    (``first``), the day of the opening transaction there (--opening-balances) when the
    history's reports say in their titles that they cover every day from the next one: the
    book holds nothing between, so its opening stands for that day's figures (hunt 13: a check
    missing from the history went into the opening, and this report was set aside unseen)."""
    if first is None or day >= first:
        return day if first is not None else None
    history = [f for f in ledger.files if f.has_history and f.first_date]
    starts = [f.titled[0] for f in history if f.titled]
    if not starts or min(starts) > day + dt.timedelta(days=1):
        return None
    if min(f.first_date for f in history if f.first_date) <= first:
        return None  # (no opening before the history: the book begins with it)
    opened = any(t.kind_label == OPENING_KIND and t.date == first for t in ledger.transactions)
    return first if opened else None


def years_csv(years: Sequence[YearProof]) -> str:
    """The table account × year end: QuickBooks, GnuCash and difference per date."""
    head = ["account"]
    for y in years:
        head += [f"{y.date} quickbooks", f"{y.date} gnucash", f"{y.date} difference"]
    rows = [csv_line(head)]
    accounts = list(dict.fromkeys(r.account for y in years for r in y.rows))
    by_year = [{r.account: r for r in y.rows} for y in years]
    for account in accounts:
        cells = [account]
        for per in by_year:
            r = per.get(account)
            trio = (r.quickbooks, r.gnucash, r.difference) if r else None
            cells += [plain(v) for v in trio] if trio else ["", "", ""]
        rows.append(csv_line(cells))
    return "\n".join(rows) + "\n"
