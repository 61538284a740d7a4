"""The proof of issue 26's parts (pure; ``app.verify`` adds it to the ``Report``): every year end,
every budget amount, reconciliation and scheduled transaction, read back, against QuickBooks'.

Year ends: each QuickBooks Trial Balance report (``Ledger.year_ends``) against the book at its
date with QuickBooks' year-end close (``as_of.figures``): balance-sheet accounts all time,
income and expense for the fiscal year holding that date, Retained Earnings with every earlier
year's result; the accounts it does not list at 0. A report dated before the book's first
transaction (a cutover, a history that starts later) cannot be compared: said, never counted as
matching. The first year end that differs pins where a difference starts: the years before it
match, so it lies in that fiscal year.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal

from app import extras, schedules
from app.as_of import (
    as_counted,
    figures,
    fiscal_year_start,
    fits_words,
    ledger_daily,
    other_year,
    role_account,
)
from app.book import BookAccount, BookSnapshot
from app.model import AccountType, AsOf, Ledger, Role, money
from app.words import plural, some
from app.year_proof import Plug, YearProof, YearRow, across, book_day, years_csv

ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One thing of a budget, reconciliation or scheduled transaction that differs."""

    what: str  # "budget", "reconciliation", "scheduled transaction"
    name: str
    detail: str
    cause: str = ""  # its probable cause, where one is known (an update's held changes)


@dataclass(frozen=True, slots=True)
class ExtrasProof:
    years: tuple[YearProof, ...] = ()
    export_date: dt.date | None = None  # the day of the book's main proof
    budgets: int = 0  # budgets compared
    budget_amounts: int = 0  # amounts compared
    reconciliations: int = 0
    schedules: int = 0
    mismatches: tuple[Mismatch, ...] = ()
    # the statements found in the book as QuickBooks gives them: account, date, ending balance
    statements: tuple[tuple[str, dt.date, Decimal], ...] = ()
    update: bool = False  # an update's proof: the book was in the user's hands since
    fiscal: str = ""  # QuickBooks' figures fit another fiscal year start: which ("1 July")
    # a working book's accounts off by the archive's difference, and by how much
    carried: Mapping[str, Decimal] = field(default_factory=dict)
    plug: Plug | None = None  # the opening balances posted of what the history does not explain
    retained: str | None = None  # the Retained Earnings account: earlier years' result

    @property
    def compared_years(self) -> tuple[YearProof, ...]:
        return tuple(y for y in self.years if y.compared)

    @property
    def ok(self) -> bool:
        return not self.mismatches and all(y.ok for y in self.compared_years)

    def headline(self, said: dt.date | None = None) -> str:
        """What differs, in one line ("" when nothing does); ``said``: the day whose differences
        the accounts' proof says (the export's, when its accounts differ): a report of that day
        is the same difference, not said twice (hunt 23 M9)."""
        parts = []
        first = next((y for y in self.compared_years if not (y.ok or y.date == said)), None)
        if first is not None:
            what = "year end" if first.year_end else "report date"  # (the export's, say)
            parts.append(f"the {what} {first.date} differs from QuickBooks' trial balance")
        kinds = sorted({m.what for m in self.mismatches})
        parts += [f"a {k} differs" for k in kinds]
        return "; ".join(parts)

    def lines(self, said: dt.date | None = None) -> list[str]:
        """The proof of every year, then budgets, reconciliations, scheduled transactions
        (``said``: ``headline``)."""
        return [*self.year_lines(said), *self.other_lines()]

    def year_lines(self, said: dt.date | None = None) -> list[str]:
        compared = self.compared_years
        out = [
            f"The trial balance as of {y.date} ({y.filename}) is dated before the book's first "
            "transaction: not compared"
            for y in self.years
            if not y.compared
        ]
        if not compared:
            day = (
                f", {self.export_date}, the day of QuickBooks' figures" if self.export_date else ""
            )
            out.insert(
                0,
                f"Proved on one date only{day}: add QuickBooks' Trial Balance report as of each "
                "fiscal year end to prove every year and pin where a difference starts.",
            )
            return out
        first = next((y for y in compared if not y.ok), None)
        if first is None:
            what = "year end" if all(y.year_end for y in compared) else "report date"
            span = (
                f"every {what} from {compared[0].date.year} to {compared[-1].date.year}"
                if len(compared) > 1
                else f"the {what} {compared[0].date}"
            )
            dates = ", ".join(str(y.date) for y in compared)
            out.insert(
                0,
                f"{span[0].upper()}{span[1:]} matches QuickBooks' trial balance to the cent "
                f"({plural(len(compared), 'report')}: {dates}).",
            )
            return out
        before = [y for y in compared if y.date < first.date]
        names = some((r.account for r in first.differences), 5)
        n = len(first.differences)
        what = "year end" if first.year_end else "report date"  # (the export's, say)
        earlier = (  # (Retained Earnings holds every earlier year's result)
            f"; Retained Earnings differs too: part of the difference lies before "
            f"{first.year_start}, in a year no report here proves"
            if not before and self.retained in {r.account for r in first.differences}
            else ""
        )
        if compared == (first,) and first.date == said:  # (hunt 23 M9: said twice, 2 fixes)
            line = (
                f"Proved on one date only, {first.date}, the day of QuickBooks' figures: the "
                f"accounts above differ there ({plural(n, 'account')}: {names}){earlier}. Add "
                "QuickBooks' Trial Balance report as of each fiscal year end to pin the year "
                "where a difference starts."
            )
        else:
            line = (
                f"The {what} {first.date} is the first that differs from QuickBooks' trial "
                f"balance ({plural(n, 'account')}: {names}){earlier}"
            )
            if before:
                line += (
                    f"; {', '.join(str(y.date) for y in before)} match: the difference starts "
                    f"in the fiscal year from {first.year_start} to {first.date}"
                )
            cause = (  # (every year is cut at the wrong start then: the proof's own cause)
                f"the fiscal year start: QuickBooks' figures fit a fiscal year starting "
                f"{self.fiscal}"
                if self.fiscal
                else first.cause(self.update, self.carried, self.plug)
            )
            line += f". Probable cause: {cause}." if cause else "."
        out.insert(0, line)
        for y in compared:
            if y.date > first.date:
                state = (
                    "matches" if y.ok else f"differs too ({plural(len(y.differences), 'account')})"
                )
                out.append(f"The {'year end' if y.year_end else 'report date'} {y.date} {state}.")
        return out

    def other_lines(self) -> list[str]:
        out = []
        if self.budgets:
            differ = any(m.what == "budget" for m in self.mismatches)
            state = "differ from QuickBooks'" if differ else "match QuickBooks' to the cent"
            out.append(
                f"Budgets: {plural(self.budgets, 'budget')}, "
                f"{self.budget_amounts:,} amounts read back from the book: they {state}."
            )
        if self.reconciliations:
            n = self.reconciliations
            found = "; ".join(f"{a}, {day}, {money(v)}" for a, day, v in self.statements[:10])
            more = len(self.statements) - 10
            found += f"; and {more} more" if more > 0 else ""
            out.append(
                f"Reconciliations: the last reconcile date of {plural(n, 'account')} and "
                "GnuCash's reconciled balance on it, read back from the book, are QuickBooks' "
                f"statement dates and ending balances ({found})."
                if not any(m.what == "reconciliation" for m in self.mismatches)
                else f"Reconciliations: {n} compared with QuickBooks' statements."
            )
        if self.schedules:
            n = self.schedules
            out.append(
                f"Scheduled transactions: {n} read back from the book (not enabled: GnuCash "
                "posts nothing by itself; enable each in Actions › Scheduled Transactions "
                "› Scheduled Transaction Editor)."
            )
        out += [
            f"{m.name if m.what == 'budget' else f'{m.what.capitalize()} {m.name}'}: {m.detail}"
            " — DIFFERS" + (f". Probable cause: {m.cause}" if m.cause else "")
            for m in self.mismatches
        ]
        return out

    def years_csv(self) -> str:
        """The table account × year end: QuickBooks, GnuCash and difference per date."""
        return years_csv(self.years)


def _type(b: BookAccount) -> AccountType | None:
    try:
        return AccountType(b.type)
    except ValueError:
        return None


def prove(
    ledger: Ledger,
    snapshot: BookSnapshot,
    asof: AsOf | None,
    fold: bool = False,
    plug: tuple[dt.date | None, Mapping[str, Decimal]] | None = None,
) -> ExtrasProof:
    """The proof of ``ledger``'s issue-26 parts in the book read back (without year-end reports
    its lines say once that the book was proved on one date; ``fold``: ``_years``; ``plug``:
    the opening transaction posted of what the history does not explain, its day and lines)."""
    years = _years(ledger, snapshot, asof, fold)
    day, lines = plug or (None, {})
    re_name = getattr(role_account(ledger, Role.RETAINED_EARNINGS), "full_name", None)
    sheet = {a.full_name for a in ledger.accounts if a.counted and a.counted.balance_sheet}
    aside = {re_name, getattr(role_account(ledger, Role.OPENING_BALANCE), "full_name", None)}
    posted = frozenset(a for a, v in lines.items() if v and a in sheet and a not in aside)
    plugs = Plug(day, posted, re_name, years, frozenset(sheet - {re_name})) if day else None
    mismatches: list[Mismatch] = []
    refused = {(n.what, n.name) for n in ledger.not_imported}
    budgets = [b for b in extras.budgets(ledger.budget_lines) if ("Budgets", b.name) not in refused]
    amounts = _budgets(budgets, snapshot, mismatches)
    reconciled, statements = _statements(ledger, snapshot, mismatches)
    scheds = [
        s for s in schedules.schedules(ledger.memorized) if (schedules.WHAT, s.name) not in refused
    ]
    _schedules(scheds, snapshot, mismatches)
    fiscal = fits_words(asof.fits) if asof is not None and other_year(asof) else ""
    return ExtrasProof(
        years,
        asof.date if asof and asof.basis != "archive end" else None,  # (no figures of it)
        len(budgets),
        amounts,
        reconciled,
        len(scheds),
        tuple(mismatches),
        statements,
        fiscal=fiscal,
        plug=plugs,
        retained=re_name,
    )


def _years(
    ledger: Ledger, snapshot: BookSnapshot, asof: AsOf | None, fold: bool = False
) -> tuple[YearProof, ...]:
    """Each Trial Balance report against the book on its date (``fold``: balances only, this
    year's income and expense folded into Retained Earnings, as the book holds them: QuickBooks'
    figures are compared so folded, as the accounts' proof does)."""
    if not ledger.year_ends:
        return ()
    pnl = {a.full_name for a in ledger.accounts if a.counted and not a.counted.balance_sheet}
    retained = role_account(ledger, Role.RETAINED_EARNINGS)
    re_name = retained.full_name if retained else None
    mmdd = asof.year_start.strftime("%m-%d") if asof else "01-01"
    first = snapshot.first_date
    known = [a.full_name for a in ledger.accounts]
    extra = [b.full_name for b in snapshot.accounts if b.full_name not in set(known)]
    daily = ledger_daily(ledger)
    files = [(a.full_name, a.counted, daily.get(a.full_name, {}).items()) for a in ledger.accounts]
    out = []
    for y in ledger.year_ends:
        start, at = fiscal_year_start(y.date, mmdd), book_day(ledger, y.date, first)
        book_types = ((b.full_name, _type(b), b.daily) for b in snapshot.accounts)
        book = figures(as_counted(ledger, book_types), re_name, at or y.date, start)
        made = figures(files, re_name, at or y.date, start)  # (the files': a difference's cause)
        qb = {name: y.figure(name) for name in (*known, *extra)}
        if (fold or (at or y.date) != y.date) and re_name is not None:  # (an opening: folded)
            qb[re_name] += sum((qb[a] for a in pnl if a in qb), ZERO)
            qb.update(dict.fromkeys(pnl & qb.keys(), ZERO))
        rows = tuple(
            YearRow(name, qb[name], book.get(name, ZERO), made.get(name, ZERO)) for name in qb
        )
        out.append(YearProof(y.date, start, rows, y.filename, at is not None))
    shown = [p for p in out if p.compared]
    for p, after in zip(shown, [*shown[1:], None][: len(shown)], strict=True):  # (next confirms)
        if p.differences and (moved := across(p, after, ledger.transactions, {*known} - pnl)):
            out[out.index(p)] = replace(p, moved=moved)
    return tuple(out)


def _budgets(budgets: list, snapshot: BookSnapshot, mismatches: list[Mismatch]) -> int:
    if budgets and snapshot.extras_unread:
        mismatches.append(Mismatch("budget", "(all)", f"not read back: {snapshot.extras_unread}"))
        return 0
    found = {b.name: b for b in snapshot.budgets}
    compared = 0
    for b in budgets:
        got = found.get(b.name)
        if got is None:
            mismatches.append(Mismatch("budget", b.name, "missing from the book"))
            continue
        if (got.start, got.periods, got.period, got.natural_signs) != (
            b.start,
            b.periods,
            ("month", 1),
            True,
        ):
            mismatches.append(
                Mismatch(
                    "budget",
                    b.name,
                    f"the book's budget has {got.periods} periods of {got.period} from "
                    f"{got.start}; QuickBooks' {b.periods} months from {b.start}",
                )
            )
        book = dict(got.values)
        meant = {a: v for a, v in b.lines if any(v)}
        for account in sorted(set(book) | set(meant)):
            want = meant.get(account, (ZERO,) * b.periods)
            have = book.get(account, (ZERO,) * b.periods)
            for period, (w, h) in enumerate(zip(want, have, strict=False)):
                compared += 1
                if w != h:
                    day = extras.period_start(b.start, period)
                    mismatches.append(
                        Mismatch(
                            "budget",
                            b.name,
                            f"{account}, {day:%B %Y}: QuickBooks {money(w)}, GnuCash {money(h)}",
                        )
                    )
    return compared


def _statements(
    ledger: Ledger, snapshot: BookSnapshot, mismatches: list[Mismatch]
) -> tuple[int, tuple[tuple[str, dt.date, Decimal], ...]]:
    """The statements compared, and those the book holds as QuickBooks gives them."""
    found = {r.account: r for r in snapshot.reconciled}
    compared = 0
    same: list[tuple[str, dt.date, Decimal]] = []
    for s in ledger.statements:
        if not s.how and not s.why.startswith("the lines the files mark"):
            continue  # listed as not imported, with why
        compared += 1
        got = found.get(s.account)
        name = f"of {s.account} (statement of {s.date})"
        if not s.how:
            mismatches.append(Mismatch("reconciliation", name, s.why))
        elif got is None or got.last_date != s.date or got.balance != s.balance:
            book = (
                f"last reconciled {got.last_date}, reconciled balance {money(got.balance)}"
                if got
                else "no reconcile date"
            )
            mismatches.append(
                Mismatch(
                    "reconciliation",
                    name,
                    f"the statement's ending balance {money(s.balance)}; the book: {book}",
                )
            )
        else:
            same.append((s.account, s.date, s.balance))
    return compared, tuple(same)


def _schedules(scheds: list, snapshot: BookSnapshot, mismatches: list[Mismatch]) -> None:
    if scheds and snapshot.extras_unread:
        mismatches.append(
            Mismatch("scheduled transaction", "(all)", f"not read back: {snapshot.extras_unread}")
        )
        return
    found = {s.name: s for s in snapshot.schedules}
    for s in scheds:
        got = found.get(s.name)
        meant: dict[str, Decimal] = {}
        for account, value in s.lines:
            meant[account] = meant.get(account, ZERO) + value
        if got is None:
            mismatches.append(Mismatch("scheduled transaction", s.name, "missing from the book"))
            continue
        have: dict[str, Decimal] = {}
        for account, value in got.lines:
            have[account] = have.get(account, ZERO) + value
        wrong = []
        if got.enabled or got.auto_create:
            wrong.append("it is enabled")
        if got.start != s.start or tuple(got.period) != tuple(s.periods):
            wrong.append(f"it runs {got.period} from {got.start}, not {s.periods} from {s.start}")
        if have != meant:
            wrong.append(f"its lines are {sorted(have.items())}, not {sorted(meant.items())}")
        if got.occurrences != s.occurrences:
            wrong.append(f"{got.occurrences} occurrences, not {s.occurrences}")
        if wrong:
            mismatches.append(Mismatch("scheduled transaction", s.name, "; ".join(wrong)))
