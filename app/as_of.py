"""The day QuickBooks' figures are taken as of, and the fiscal year around it (pure functions).

QuickBooks' chart export carries its trial balance on the export date (``Account.balance``):
balance-sheet accounts all time, income and expense the current fiscal year to date, Retained
Earnings its own postings plus the net income of all earlier fiscal years. ``figures`` computes
the same figures from dated sums (the ledger's lines in ``app.cutover``, the written book in
``app.verify``).

Decisions:
- The as-of day (``AsOf``, stored in ``Ledger.as_of``): the cutover date in balances-only mode;
  else the export date the user gives, else the one the files carrying the figures say (an IIF
  ``HDR`` row, a report title), else the last transaction's date, a guess the user is asked to
  confirm. Transactions after it are outside the figures (counted, said). An export the files
  date after today (QuickBooks' sample companies do; so does a clock set ahead) is still taken
  as of that day, with a warning: the only place the clock is read, and only to warn.
- The fiscal year is the one containing that day. Its start is given, or read from the figures:
  the one month start (of twelve) for which the history explains every income and expense figure;
  when several or none fit, January 1st, said. A given start the figures contradict is warned.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from decimal import Decimal
from functools import partial

from app.as_of_said import not_the_cutover, not_the_files_day, other_days, swapped
from app.model import Account, AccountType, AsOf, AsOfBasis, FiscalBasis, Ledger, Problem, Role
from app.plan import Cutover, month_day, parse_day
from app.source import Source
from app.words import plural, quoted

ZERO = Decimal(0)
DAY = dt.timedelta(days=1)
JANUARY = "01-01"
MONTH_STARTS = tuple(f"{m:02d}-01" for m in range(1, 13))
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")  # fmt: skip

Daily = Iterable[tuple[dt.date, Decimal]]
DailyByAccount = dict[str, dict[dt.date, Decimal]]  # per account, its lines summed per date


def fiscal_year_start(as_of: dt.date, mmdd: str) -> dt.date:
    """The first day of the fiscal year containing ``as_of``; ``mmdd`` is "MM-DD".
    February 29 means the last day of February in other years."""
    try:
        month, day = (int(p) for p in month_day(mmdd).split("-"))
    except ValueError:
        raise ValueError(f"fiscal year start must be MM-DD (got {quoted(mmdd)})") from None

    def start(year: int) -> dt.date:
        short = month == 2 and day == 29 and not _leap(year)
        return dt.date(year, month, 28 if short else day)

    this = start(as_of.year)
    return this if this <= as_of else start(as_of.year - 1)


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def month_day_words(mmdd: str) -> str:
    """ "07-01" → "1 July"."""
    month, day = (int(p) for p in mmdd.split("-"))
    return f"{day} {MONTHS[month - 1]}"


def fits_words(fits: Sequence[str]) -> str:
    """("06-01", "07-01", "08-01") → "1 June, 1 July or 1 August"."""
    words = [month_day_words(f) for f in fits]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words)


def as_of(
    ledger: Ledger, cutover: Cutover, daily: DailyByAccount | None = None
) -> tuple[AsOf | None, list[Problem]]:
    """The day QuickBooks' figures are taken as of and the fiscal year they count from, with
    what the user should know about them (see the module docstring). None: no date at all.
    ``daily``: ``ledger_daily(ledger)`` when the caller has it (one pass over the history)."""
    problems: list[Problem] = []
    given_fy = cutover.fiscal_year_start.strip()
    if cutover.mode == "balances_only":
        try:
            day = parse_day(cutover.date)
        except ValueError:
            return None, problems
        said = _export_day(ledger, replace(cutover, export_date=""), [])
        if said is not None and said[1] != "last transaction" and said[0] != day:
            problems.append(not_the_cutover(day, said[0], said[2]))
        if daily if daily is not None else ledger.transactions:  # the fiscal year from figures
            used, fiscal, fits = _fiscal_year(ledger, day, daily, given_fy, problems)
        else:
            used, fiscal, fits = given_fy or JANUARY, "given" if given_fy else "default", []
        start = fiscal_year_start(day, used)
        return AsOf(day, "cutover date", start, fiscal, fits=tuple(fits)), problems + other_days(
            ledger, day
        )
    found = _export_day(ledger, cutover, problems)
    if found is None:
        return None, problems
    day, basis, where = found
    today = dt.date.today()
    if basis != "given" and day > today:
        problems.append(
            Problem(
                where,
                f"QuickBooks dated this export {day}, after today ({today}): QuickBooks' sample "
                "companies, and a computer whose clock was set ahead, do that; QuickBooks' "
                f"balances are taken as of {day}, the day the file's figures are of (nothing "
                "to change here: a file's figures are of the day it says)",
                "warning",
            )
        )
    after = sum(1 for t in ledger.transactions if t.date > day)
    if after:
        problems.append(
            Problem(
                None,
                f"{plural(after, 'transaction')} {'is' if after == 1 else 'are'} dated after "
                f"{day}, the day QuickBooks' figures are taken as of: the book holds "
                f"{'them' if after != 1 else 'it'}, and balances are compared as of {day}",
                "warning",
                "export_date",
            )
        )
    used, fiscal, fits = _fiscal_year(ledger, day, daily, given_fy, problems)
    asof = AsOf(day, basis, fiscal_year_start(day, used), fiscal, where, after, tuple(fits))
    return asof, problems + other_days(ledger, day)


FISCAL_WORDS = {
    "given": "as given",
    "read from figures": "read from QuickBooks' figures",
    "not told": "could not be told from QuickBooks' figures; January 1st assumed",
    "default": "January 1st, nothing to read it from",
}


def as_of_words(asof: AsOf | None) -> list[str]:
    """When QuickBooks' figures are from, the fiscal year they count, what lies after them."""
    if asof is None:
        return []
    start = month_day_words(asof.year_start.strftime("%m-%d"))
    out = [
        f"QuickBooks' figures as of {asof.describe()}; income and expense from "
        f"{asof.year_start}, the fiscal year starting {start} ({FISCAL_WORDS[asof.fiscal_basis]})"
    ]
    if asof.after:
        out.append(
            f"{plural(asof.after, 'transaction')} dated after {asof.date}: in "
            "the book, outside QuickBooks' figures (compared as of that day)"
        )
    return out


def _fiscal_year(
    ledger: Ledger,
    day: dt.date,
    daily: DailyByAccount | None,
    given_fy: str,
    problems: list[Problem],
) -> tuple[str, FiscalBasis, list[str]]:
    """The fiscal year start used (MM-DD), where it came from, and the starts that explain
    QuickBooks' income and expense figures (see the module docstring)."""
    fits = _fiscal_fits(ledger, day, daily)
    fiscal: FiscalBasis
    if given_fy:
        used, fiscal = given_fy, "given"
        if fits and month_day(given_fy) not in fits:
            problems.append(
                Problem(
                    None,
                    f"the fiscal year start given ({month_day_words(given_fy)}) does not explain "
                    "QuickBooks' income and expense figures; a fiscal year starting "
                    f"{fits_words(fits)} does",
                    "warning",
                    "fiscal_year_start",
                )
            )
    elif len(fits) == 1:
        used, fiscal = fits[0], "read from figures"
    else:
        used, fiscal = JANUARY, "not told" if _pnl_figures(ledger) else "default"
        if fits and JANUARY not in fits:  # the differences are the year QuickBooks counts
            problems.append(
                Problem(
                    None,
                    "QuickBooks' income and expense figures do not fit a fiscal year starting "
                    f"{month_day_words(JANUARY)}, the one assumed; they fit one starting "
                    f"{fits_words(fits)} (the history has no income or expense between those "
                    "days to tell which): the company's fiscal year start is in QuickBooks' "
                    "Company Information",
                    "warning",
                    "fiscal_year_start",
                )
            )
    return used, fiscal, fits


def _export_day(
    ledger: Ledger, cutover: Cutover, problems: list[Problem]
) -> tuple[dt.date, AsOfBasis, Source | None] | None:
    if cutover.export_date.strip():
        try:
            given = parse_day(cutover.export_date)
        except ValueError as exc:  # (its own words: a date out of QuickBooks' years, hunt 25)
            problems.append(Problem(None, f"export date: {exc}"))
        else:
            said = _export_day(ledger, replace(cutover, export_date=""), [])
            if said is not None and said[1] != "last transaction" and said[0] != given:
                held = ledger.files
                guessed = any(f.date_order_ambiguous and f.exported_at == said[2] for f in held)
                if not (guessed and swapped(said[0], given)):  # (5/11/2021, no TIME to tell)
                    problems.append(not_the_files_day(given, said[0], said[2]))
            return given, "given", None
    figured = {a.source.filename for a in ledger.accounts if a.balance is not None}
    dated = [f for f in ledger.files if f.exported_on and f.filename in figured]
    reports = [f for f in ledger.files if f.exported_on and f.layout == "trial balance"]
    if reports:  # its figures replace the chart's (app.readers.merge)
        dated = reports[:1]
    if dated:
        latest = max(dated, key=lambda f: f.exported_on or dt.date.min)
        for older in (f for f in dated if f.exported_on != latest.exported_on):
            problems.append(  # (each older file said at its own line, with its way out)
                Problem(
                    older.exported_at,
                    f"this file's balances are QuickBooks' of {older.exported_on}, and "
                    f"{latest.filename}'s of {latest.exported_on}: the latest are used; two "
                    "companies, or two exports of one company, were given",
                    "warning",
                    "remove",
                )
            )
        assert latest.exported_on is not None
        basis: AsOfBasis = "export header" if latest.kind.startswith("IIF") else "report title"
        return latest.exported_on, basis, latest.exported_at
    last = max((t.date for t in ledger.transactions), default=None)
    if last is None:
        return None
    if figured:
        problems.append(
            Problem(
                None,
                "the files do not say on which day the lists were exported (QuickBooks takes "
                f"its balances on that day); the last transaction's date, {last}, is used",
                "warning",
                "export_date",
            )
        )
    return last, "last transaction", None


def other_year(asof: AsOf | None) -> bool:
    """QuickBooks' income and expense figures fit another fiscal year than the one used: the
    history explains them all, counted from another start (``AsOf.fits``)."""
    return bool(asof and asof.fits and asof.year_start.strftime("%m-%d") not in asof.fits)


def explains_more(quickbooks: Decimal, explained: Decimal) -> bool:
    """The history explains all of QuickBooks' figure and more, in its direction."""
    return explained > quickbooks > 0 or explained < quickbooks < 0


def over_explained(figures: Iterable[tuple[Decimal, Decimal]]) -> bool:
    """(QuickBooks' figure, what the history explains) per account: on every account where
    they differ (two at least) the history explains more. An opening balance, which adds what
    came before the history, cannot be what is missing then: it would take history back. The
    likely cause is transactions counted twice (a file given twice, a report exported twice
    into one file). A history that starts late explains less of some account (its opening
    balance has the sign of its balance), so this is never said of it."""
    differ = [(q, e) for q, e in figures if q != e]
    return len(differ) >= 2 and all(explains_more(q, e) for q, e in differ)


def _pnl_figures(ledger: Ledger) -> list[Account]:
    return [
        a
        for a in ledger.accounts
        if a.balance is not None and a.counted is not None and not a.counted.balance_sheet
    ]


def _fiscal_fits(ledger: Ledger, day: dt.date, daily: DailyByAccount | None) -> list[str]:
    """The month starts whose fiscal year (the one containing ``day``) makes the history explain
    every income and expense figure; none without such figures or without history."""
    pnl = _pnl_figures(ledger)
    if not pnl or not (daily if daily is not None else ledger.transactions):
        return []
    if daily is None:
        daily = ledger_daily(ledger)
    fits = []
    for mmdd in MONTH_STARTS:
        start = fiscal_year_start(day, mmdd)
        if all(
            sum((v for d, v in daily.get(a.full_name, {}).items() if start <= d <= day), ZERO)
            == a.balance
            for a in pnl
        ):
            fits.append(mmdd)
    return fits


def as_counted(
    ledger: Ledger, accounts: Iterable[tuple[str, AccountType | None, Daily]]
) -> Iterator[tuple[str, AccountType | None, Daily]]:
    """A book's accounts (name, GnuCash type, per-date sums) with the type QuickBooks counts each
    one's figure by instead, where a retype crossed the balance-sheet line (``Account.counted``):
    what ``figures`` is given to compare a book with QuickBooks."""
    counted = {a.full_name: a.counted for a in ledger.accounts if a.counted_as}
    return ((name, counted.get(name) or type_, daily) for name, type_, daily in accounts)


def figures(
    accounts: Iterable[tuple[str, AccountType | None, Daily]],
    retained: str | None,
    as_of: dt.date | None,
    year_start: dt.date | None,
) -> dict[str, Decimal]:
    """QuickBooks' trial-balance figure per account from (name, type, per-date sums): all time
    up to ``as_of``; income and expense from ``year_start``; earlier income and expense added
    to ``retained``. Untyped accounts count as balance-sheet accounts."""
    out: dict[str, Decimal] = {}
    earlier = ZERO
    for name, type_, daily in accounts:
        pnl = type_ is not None and not type_.balance_sheet
        total = ZERO
        for day, value in daily:
            if as_of is not None and day > as_of:
                continue
            if pnl and year_start is not None and day < year_start:
                earlier += value
            else:
                total += value
        out[name] = total
    if retained is not None:
        out[retained] = out.get(retained, ZERO) + earlier
    return out


def ledger_daily(ledger: Ledger) -> DailyByAccount:
    """Per account, its lines summed per date (voided transactions left out)."""
    out: dict[str, dict[dt.date, Decimal]] = defaultdict(partial(defaultdict, Decimal))  # (pickled)
    for t in ledger.transactions:
        if t.voided:
            continue
        for s in t.splits:
            out[s.account][t.date] += s.value
    return out


def renamed_daily(daily: DailyByAccount, names: Mapping[str, str]) -> DailyByAccount:
    """``ledger_daily`` of a ledger whose split accounts were renamed by ``names`` (old → new;
    several old names may become one), from the original's (which is left as it is)."""
    out: DailyByAccount = {}
    copied: set[str] = set()
    for old, per in daily.items():
        new = names.get(old, old)
        if new not in out:
            out[new] = per
            continue
        if new not in copied:  # the first one's dict is the original's: added to in a copy
            out[new] = dict(out[new])
            copied.add(new)
        into = out[new]
        for day, value in per.items():
            into[day] = into.get(day, ZERO) + value
    return out


def role_account(ledger: Ledger, role: Role) -> Account | None:
    return next((a for a in ledger.accounts if a.role == role), None)
