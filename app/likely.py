"""The likely cause of a difference between an account's QuickBooks figure and what the history
explains, as the setting that fixes it (``app.fixes``): one rule for the cutover's warnings
(``app.cutover``) and the proof's causes (``app.verify``). Pure."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from decimal import Decimal

from app import repeated
from app.account_labels import parse_label
from app.as_of import DailyByAccount, fits_words, other_year, role_account
from app.model import Account, AsOf, Fix, Ledger, Problem, Role, money
from app.readers import one_sided
from app.readers.qbcsv.sections import short_total
from app.verify_report import Row
from app.words import plural, quoted


def date_suspect(
    asof: AsOf | None, differing: Iterable[Account], retained: str | None, first: dt.date | None
) -> bool:
    """A typed export date with transactions after it, while an income, expense or Retained
    Earnings figure differs over a fiscal year the history covers whole: a history that starts
    late cannot explain that, another day can (a walk typed 2020-06-30 for 2020-12-28 and was
    advised to add an opening balance, which plugged the difference)."""
    if asof is None or asof.basis != "given" or not asof.after or first is None:
        return False
    return first <= asof.year_start and any(
        a.full_name == retained or not (a.counted and a.counted.balance_sheet) for a in differing
    )


def opened_there(
    ledger: Ledger, daily: DailyByAccount, first: dt.date | None, account: str
) -> bool:
    """Whether ``account`` and QuickBooks' Opening Balance Equity both have lines on the
    history's first day (``daily``: its lines per account and day, by the accounts' final
    names), that account not merged by the plan: the history then seems to start with the
    company's opening balances, so a late start is not the likely cause of the account's
    difference, nor an opening balance its fix (it would plug a transaction of the files that
    QuickBooks counts otherwise: a hunt's edited invoice)."""
    role = role_account(ledger, Role.OPENING_BALANCE)
    if first is None or role is None or len(role.origin) > 1:  # (another account merged in)
        return False
    return first in daily.get(role.full_name, {}) and first in daily.get(account, {})


def unexplained(first: dt.date, started: bool, overlap: str = "") -> str:
    """Why the history does not explain an account's figure, where no opening balance is posted
    (``started``: the files begin with QuickBooks' own opening balances, ``opened_there``;
    ``overlap``: what only one of two overlapping files holds, ``one_sided.shared``)."""
    if overlap:
        return f"{overlap}: {one_sided.CAUSE}"
    if started:
        return (
            "one of its transactions is missing from the files, or QuickBooks counts one "
            "otherwise (the history seems to start with the company: its first day holds "
            "QuickBooks' opening balances)"
        )
    return (
        f"the history starts on {first}, after this account's first activity, or one of its "
        "transactions is missing from the files (an opening balance would hide that: check the "
        "files first)"
    )


def likely_fix(
    account: Account,
    retained: str | None,
    asof: AsOf,
    first: dt.date | None,
    *,
    opening: bool,
    suspect: bool = False,
    paired: bool = False,
) -> Fix:
    """The setting that most probably explains an account's difference from its QuickBooks
    figure (``first``: the history's first day; ``opening``: opening balances asked for;
    ``suspect``: the export date typed is the likely cause, ``date_suspect``)."""
    if other_year(asof):
        return "fiscal_year_start"  # the figures contradict the fiscal year: every row moves
    if suspect:
        return "export_date"
    if first is None:
        return "balances_only"  # no history at all: only the balances can reach the figures
    # income, expense and Retained Earnings move with the fiscal year and the export date
    year_bound = account.full_name == retained or not (
        account.counted and account.counted.balance_sheet
    )
    covers_year = first <= asof.year_start
    if asof.guessed and year_bound and covers_year:
        return "export_date"
    if not opening and not (year_bound and covers_year) and not paired:  # (``one_missing``)
        return "opening_balances"
    return "export_date" if asof.guessed else "files"


def merged_across(  # noqa: PLR0917
    ledger: Ledger,
    account: Account,
    retained: str | None,
    asof: AsOf | None,
    first: dt.date | None,
    differ: Collection[str],
) -> str:
    """Why ``account`` differs where the plan merged an account into it from the other side of
    the balance-sheet line (``Account.crossed``; for Retained Earnings, such a merge whose
    account differs too: ``differ``), the history covering an earlier fiscal year; else ""
    (hunt 15: the proof blamed a transaction missing from the files)."""
    if asof is None or first is None or first >= asof.year_start:
        return ""
    merged = [(a.full_name, c) for a in ledger.accounts for c in a.crossed if a.full_name in differ]
    if account.full_name != retained:
        merged = [(into, c) for into, c in merged if into == account.full_name]
    if not merged:
        return ""
    shown = "; ".join(f"{quoted(c)} merged into {quoted(into)}" for into, c in merged[:2])
    return (
        f"the plan merges across the balance-sheet line ({shown}): QuickBooks counts a "
        "balance-sheet account from all time, an income or expense account from the fiscal "
        f"year's start ({asof.year_start}), so the merged account and Retained Earnings differ "
        "by what the earlier fiscal years moved"
    )


def never_posted(  # noqa: PLR0917
    ledger: Ledger,
    account: Account,
    said: tuple[str, Decimal],
    twice: tuple[str, Fix] | None,
    retained: str | None,
    first: dt.date,
    differ: Collection[str],
) -> Problem | None:
    """The cutover's warning for a difference no opening balance may take (``said``: what
    QuickBooks and the history say, the difference): where it would plug what a merge across
    the balance-sheet line moved, hide rows missing inside the history (the General Ledger's own
    Total rows say so), or take history back (``twice``: ``repeated.cause``); else None."""
    what, diff = said
    # (in the proof's order, ``verify._cause``: the plan's merge, the report's own rows, the
    # files given twice)
    if across := merged_across(ledger, account, retained, ledger.as_of, first, differ):
        return merged_warning(account, what, diff, across)
    if short := short_totals(ledger, account):
        return short_warning(account, what, diff, short)
    if twice:
        return repeated.not_posted(account, what, diff, twice)
    return None


def merged_warning(account: Account, what: str, diff: Decimal, across: str) -> Problem:
    """The cutover's warning for an account a merge across the balance-sheet line makes differ
    (``merged_across``): never posted as an opening balance, which would plug it."""
    said = f"{account.full_name}: {what}; difference {money(diff)}, not posted: {across}"
    return Problem(account.source, said, "warning", "merge_crossed", topic="difference")


def fiscal_shift(fix: Fix, asof: AsOf) -> str:
    """Which fiscal year QuickBooks' figures fit, where that is the likely fix; else ""."""
    if fix != "fiscal_year_start":
        return ""
    return f"QuickBooks' figures fit a fiscal year starting {fits_words(asof.fits)}"


def suspect_warning(account: Account, what: str, diff: Decimal, asof: AsOf) -> Problem:
    """The cutover's warning for a difference not posted as an opening balance because the
    export date typed, not a late start, is its likely cause (``date_suspect``)."""
    return Problem(
        account.source,
        f"{account.full_name}: {what} on {asof.date}; difference {money(diff)}, not posted as an "
        f"opening balance: {plural(asof.after, 'transaction')} are dated after the export date "
        f"given, {asof.date}, which is probably not its day",
        "warning",
        "export_date",
        topic="difference",
    )


def short_totals(ledger: Ledger, account: Account) -> str:
    """Where the General Ledger itself says ``account``'s history is short: its Total row is
    not the sum of the rows read under it (``sections.short_total``), as "FILE:LINE: what it
    found" ("": it does not). Rows are missing inside the history there: an opening balance
    would hide them, so none is posted, and this is the cause of its difference (of the
    opening-balance account's too, for every such row: it balances the openings not posted)."""
    names = {account.full_name, *account.origin}
    every = account.role == Role.OPENING_BALANCE  # (it balanced the openings not posted)
    said = []
    for p in ledger.problems:
        path, found = short_total(p)
        name, code, _ = parse_label(path)  # (as the report labels it: "1200 · A/R")
        if path and (every or path in names or name in names or (code and code == account.code)):
            said.append(f"{p.source}: {found}")
    return "; ".join(said)


def short_warning(account: Account, what: str, diff: Decimal, short: str) -> Problem:
    """The cutover's warning for a difference the General Ledger's Total rows explain."""
    return Problem(
        account.source,
        f"{account.full_name}: {what}; difference {money(diff)}, not posted as an opening "
        f"balance: the General Ledger is short there ({short}); export it again from "
        "QuickBooks and give it unedited",
        "warning",
        "same_day",
        topic="difference",
    )


PAIRED = ("files", "opening_balances")  # the likeliest settings one missing transaction beats


def one_missing(differences: Mapping[str, Decimal], ledger: Ledger) -> dict[str, str]:
    """Each account's cause where two accounts alone differ, by opposite amounts: one
    transaction between them is missing from the files, or QuickBooks counts it otherwise
    (hunt 28: a bill payment of 412.04 missing read "check the files" on Checking and "tick an
    opening-balance transaction" on A/P, which would hide it); {} otherwise, and where one of
    them is Opening Balance Equity or Retained Earnings (an opening balance not in the files
    has its counterpart there: a late start, not a transaction missing)."""
    roles = (Role.OPENING_BALANCE, Role.RETAINED_EARNINGS)
    aside = {getattr(role_account(ledger, r), "full_name", None) for r in roles}
    if len(differences) != 2 or aside & set(differences):
        return {}
    (a, x), (b, y) = differences.items()
    if not x or x != -y:
        return {}
    return {
        name: f"its difference is the opposite of {other}'s, {money(abs(x))}: one transaction "
        "between the two is probably missing from the files, or QuickBooks counts it otherwise "
        "(an opening balance would hide it)"
        for name, other in ((a, b), (b, a))
    }


def paired(rows: Sequence[Row], ledger: Ledger) -> tuple[Row, ...]:
    """``rows`` with the cause of two that differ by opposite amounts, each for want of a
    likelier one (``PAIRED``), said as one missing transaction (``one_missing``)."""
    said = one_missing({r.account: r.difference for r in rows if not r.ok}, ledger)
    if not said or any(r.fix not in PAIRED for r in rows if r.account in said):
        return tuple(rows)
    return tuple(
        replace(r, cause=said[r.account], fix="files") if r.account in said else r for r in rows
    )
