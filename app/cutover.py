"""Cutover: what the GnuCash book starts from, applied to a mapped ledger (a pure function).

QuickBooks' chart export carries its trial balance on the export date (``Account.balance``):
balance-sheet accounts all time, income and expense the current fiscal year to date, Retained
Earnings its own postings plus the net income of all earlier fiscal years. ``figures`` computes
the same figures from dated sums (the ledger's lines here, the written book in ``verify``).

Decisions (the as-of day and the fiscal year are decided in ``app.as_of``):
- Voided transactions count zero, as in QuickBooks and in GnuCash once voided.
- Full history: each account's QuickBooks figure minus what the history explains is its
  difference. Balance-sheet accounts, equity included (owner's equity, Retained Earnings counted
  QuickBooks' way, the opening-balance account's own figure), get theirs in the opening
  transaction. Income and expense differences are this year's result before the history starts:
  posted too when the opening date lies inside the current fiscal year, else only reported
  (history that covers the whole year cannot be short of it). The opening-balance account takes
  what balances the transaction; anything beyond its own figure is reported, never hidden.
  When the files leave a gap (``app.coverage``: a file cut at the export cap, a stretch no file
  covers) nothing is posted: what is missing inside the history cannot be told from what came
  before it, nor what is missing after it from an opening balance dated before it; each
  difference is reported, and once that the opening balance asked for is not made. Nor when the
  history explains more than QuickBooks' balance on every account that differs
  (``as_of.over_explained``; ``app.repeated`` says why: in the files twice, or counted
  otherwise by QuickBooks): an opening balance would take history back, so every difference is
  reported.
- Balances only: every account's figure on its own account (``ytd_to_retained``: income and
  expense summed into Retained Earnings instead). A trial balance that does not sum to zero is an
  error naming the difference; nothing is plugged.
- Accounts created here (opening-balance or retained-earnings equity) go under a top-level
  ``Equity`` account when the tree has one (reparented), else at the top level.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal
from typing import Any

from app import likely, repeated
from app.as_of import (
    DailyByAccount,
    as_of,
    figures,
    fiscal_year_start,
    ledger_daily,
    over_explained,
    role_account,
)
from app.coverage import gaps, no_opening, seam_warning, seams
from app.model import Account, AccountType, Ledger, Problem, Role, Split, money
from app.openings import opening, trial_balance_opening, unbacked
from app.plan import Cutover, parse_day
from app.readers import one_sided
from app.source import Source
from app.words import plural

ZERO = Decimal(0)
DAY = dt.timedelta(days=1)


WAITS = (
    "QuickBooks' balances are compared with what the history explains once every transaction "
    "balances (see the errors)"
)


def apply(ledger: Ledger, cutover: Cutover, daily: DailyByAccount | None = None) -> Ledger:
    """The ledger with the cutover applied and its ``as_of`` decided; findings are added to
    ``ledger.problems``. ``daily``: ``ledger_daily(ledger)`` when the caller has it."""
    out, keep = applied(ledger, cutover, daily)
    return replace(out, transactions=(*out.transactions, *ledger.transactions)) if keep else out


def applied(
    ledger: Ledger, cutover: Cutover, daily: DailyByAccount | None = None
) -> tuple[Ledger, bool]:
    """``apply`` in two parts: the ledger holding only the transactions made here, and whether
    ``ledger``'s own follow them (not in balances-only mode). Of those it reads only their
    number and dates, and their amounts from ``daily``: a caller may pass the transactions as
    they were before a renaming of accounts and ``daily`` after it (``pipeline.prepare``)."""
    try:
        if cutover.fiscal_year_start.strip():
            fiscal_year_start(dt.date(2000, 1, 1), cutover.fiscal_year_start)
    except ValueError as exc:
        return _with(ledger, [Problem(None, str(exc))], transactions=()), True
    if cutover.mode == "balances_only":  # the history read only for the fiscal year
        day, problems = as_of(ledger, cutover, daily)
        return _balances_only(replace(ledger, as_of=day), cutover, problems)
    if daily is None:  # one pass over the history, for the as-of day and the openings
        daily = ledger_daily(ledger)
    day, problems = as_of(ledger, cutover, daily)
    return _full(replace(ledger, as_of=day), cutover, problems, daily), True


def _unbalanced_day(daily: DailyByAccount) -> bool:
    """Whether some day's lines do not sum to zero (two of a day may offset: ``_unbalanced``)."""
    by_day: dict[dt.date, Decimal] = {}
    for days in daily.values():
        for day, value in days.items():
            by_day[day] = by_day.get(day, ZERO) + value
    return any(by_day.values())


def _unbalanced(ledger: Ledger) -> bool:
    """Whether a transaction does not balance: a pass over every line, once a finding is made."""
    return any(sum(s.value for s in t.splits) for t in ledger.transactions if not t.voided)


def _with(ledger: Ledger, problems: list[Problem], **changes: Any) -> Ledger:
    return replace(ledger, problems=(*ledger.problems, *problems), **changes)


def _figured(ledger: Ledger) -> list[Account]:
    return [a for a in ledger.accounts if a.balance is not None]


def equity_account(
    ledger: Ledger, role: Role, leaf: str, source: Source
) -> tuple[Account, tuple[Account, ...]]:
    """The account with ``role``, else an equity account made for it: (account, accounts)."""
    found = role_account(ledger, role)
    if found is not None:
        return found, ledger.accounts
    top = ledger.account("Equity")
    name = f"Equity:{leaf}" if top is not None and top.type == AccountType.EQUITY else leaf
    same = ledger.account(name)
    if same is not None and same.type == AccountType.EQUITY:
        made = replace(same, role=role)
        return made, tuple(made if a is same else a for a in ledger.accounts)
    made = Account(full_name=name, type=AccountType.EQUITY, source=source, role=role)
    return made, (*ledger.accounts, made)


def _full(
    ledger: Ledger, cutover: Cutover, problems: list[Problem], daily: DailyByAccount
) -> Ledger:
    _option_warnings(ledger, cutover, problems)
    if not ledger.transactions:
        _without_history(ledger, cutover, problems)
        return _with(ledger, problems, transactions=())
    if ledger.as_of is None:  # a bad export date: its problem is already there
        return _with(ledger, problems, transactions=())
    if _unbalanced_day(daily):  # a transaction unbalanced: its warnings would blame the history
        problems.append(Problem(None, WAITS, "note"))
        return _with(ledger, problems, transactions=())
    first = min(t.date for t in ledger.transactions)
    said = len(problems)
    lines = _differences(ledger, cutover, first, problems, daily)
    if (lines or len(problems) > said) and _unbalanced(ledger):  # (offsetting on one day)
        return _with(ledger, [*problems[:said], Problem(None, WAITS, "note")], transactions=())
    if not lines:
        return _with(ledger, problems, transactions=())
    if between := seams(ledger.files):  # (days no file covers, too short to be a gap)
        problems.append(Problem(None, seam_warning(between), "warning", "files", topic="opening"))
    return _balanced_opening(ledger, lines, first, problems)


def _option_warnings(ledger: Ledger, cutover: Cutover, problems: list[Problem]) -> None:
    """Options that do nothing with full history, said so."""
    if cutover.ytd_to_retained:
        problems.append(
            Problem(
                None,
                "folding this year's income and expenses into Retained Earnings applies only to "
                "“Only the balances, on a cutover date” (--balances-only on the command line): "
                "ignored with the whole history (this year's transactions are in the book)",
                "warning",
            )
        )
    if cutover.opening_balances and not _figured(ledger):
        problems.append(
            Problem(
                None,
                "opening balances: no QuickBooks balances to take them from (they come with "
                "the chart of accounts in the IIF lists export)",
                "warning",
            )
        )


def _without_history(ledger: Ledger, cutover: Cutover, problems: list[Problem]) -> None:
    """No transactions: the QuickBooks balances cannot be dated, only reported."""
    figured = [a for a in _figured(ledger) if a.balance]
    if figured and cutover.opening_balances:
        problems.append(
            Problem(
                None,
                "no transactions to date the opening balances by: no transaction file was given",
                fix="balances_only",
            )
        )
    elif figured:
        problems.append(
            Problem(
                None,
                f"no transactions imported: the QuickBooks balances of {len(figured)} "
                "accounts are not in the book, and the proof will say they differ",
                "warning",
                "balances_only",
            )
        )


def _differences(
    ledger: Ledger,
    cutover: Cutover,
    first: dt.date,
    problems: list[Problem],
    daily: DailyByAccount,
) -> list[Split]:
    """Per account with QuickBooks figures: what the history does not explain as of the as-of
    date (an opening line when ``opening_balances``), else a warning naming the likely fix."""
    assert ledger.as_of is not None
    as_of_day, year_start = ledger.as_of.date, ledger.as_of.year_start
    retained = role_account(ledger, Role.RETAINED_EARNINGS)
    re_name = retained.full_name if retained else None
    explained = figures(
        ((a.full_name, a.counted, daily.get(a.full_name, {}).items()) for a in ledger.accounts),
        retained.full_name if retained else None,
        as_of_day,
        year_start,
    )
    lines: list[Split] = []
    holes = gaps(ledger.files)
    figured = _figured(ledger)
    more = over_explained((a.balance or ZERO, explained.get(a.full_name, ZERO)) for a in figured)
    twice = repeated.cause(ledger) if more else None  # (in the files twice, or counted otherwise)
    if twice:
        problems.append(repeated.explains_more(figured, explained, twice))
    elif (
        holes
        and cutover.opening_balances
        and any(a.balance != explained.get(a.full_name, ZERO) for a in figured)
    ):
        text = no_opening(holes, first)
        problems.append(Problem(None, text, "warning", "history_gap", topic="opening"))
    differing = [a for a in figured if a.balance != explained.get(a.full_name, ZERO)]
    names = {a.full_name for a in differing}
    suspect = likely.date_suspect(ledger.as_of, differing, re_name, first)
    paired = likely.one_missing({a.full_name: a.balance - explained.get(a.full_name, ZERO)
                                 for a in differing if a.balance is not None}, ledger)  # fmt: skip
    for a in figured:
        assert a.balance is not None
        has = explained.get(a.full_name, ZERO)
        diff = a.balance - has
        if not diff:
            continue
        what = f"QuickBooks balance {money(a.balance)}, imported history explains {money(has)}"
        if kept := likely.never_posted(ledger, a, (what, diff), twice, re_name, first, names):
            problems.append(kept)
            continue
        started = likely.opened_there(ledger, daily, first, a.full_name)  # (with the company)
        fix = likely.likely_fix(
            a, re_name, ledger.as_of, first, opening=cutover.opening_balances or started,
            suspect=suspect, paired=a.full_name in paired,
        )  # fmt: skip
        shifted = likely.fiscal_shift(fix, ledger.as_of)
        if holes:  # what is missing inside the history cannot be told from what came before it
            why = shifted or f"the history is incomplete, {holes[0].short()}"
            problems.append(
                Problem(
                    a.source,
                    f"{a.full_name}: {what}; difference {money(diff)}, not posted as an opening "
                    f"balance: {why}",
                    "warning",
                    fix if shifted else "history_gap",
                    topic="difference",
                )
            )
            continue
        pnl = a.counted is not None and not a.counted.balance_sheet
        if pnl and first <= year_start:  # (the opening's day is before the year)
            why = shifted or "the history covers the whole year, so it is not posted"
            problems.append(
                Problem(
                    a.source,
                    f"{a.full_name}: {what} for the fiscal year from {year_start}; difference "
                    f"{money(diff)} — {why}",
                    "warning",
                    fix,
                    topic="difference",
                )
            )
            continue
        if suspect:  # never plugged: the day typed, not a late start, is the likely cause
            problems.append(likely.suspect_warning(a, what, diff, ledger.as_of))
            continue
        if not cutover.opening_balances:
            why = (
                shifted
                or (paired.get(a.full_name) if fix == "files" else None)  # (as ``likely.paired``)
                or likely.unexplained(first, started, one_sided.shared(ledger.problems))
            )
            said = f"{a.full_name}: {what}; difference {money(diff)}: {why}"
            problems.append(Problem(a.source, said, "warning", fix, topic="difference"))
            continue
        lines.append(Split(a.full_name, diff, a.source, memo=what))
    return lines


def _balanced_opening(
    ledger: Ledger, lines: list[Split], first: dt.date, problems: list[Problem]
) -> Ledger:
    """The opening transaction: the differences balanced against Opening Balance Equity."""
    assert ledger.as_of is not None
    opening_day = first - DAY
    found = role_account(ledger, Role.OPENING_BALANCE)
    own = sum((s.value for s in lines if found and s.account == found.full_name), ZERO)
    lines = [s for s in lines if not found or s.account != found.full_name]
    plug = -sum((s.value for s in lines), ZERO)
    accounts, name = ledger.accounts, found.full_name if found else "Opening Balances"
    if plug:
        equity, accounts = equity_account(
            ledger, Role.OPENING_BALANCE, "Opening Balances", lines[0].source
        )
        name = equity.full_name
        lines.append(Split(name, plug, equity.source, memo="Opening balances"))
    if plug != own:
        problems.append(
            Problem(
                found.source if found else None,
                f"{name}: the opening balances leave {money(plug - own)} beyond its "
                f"own QuickBooks difference of {money(own)}; the QuickBooks figures and the "
                "history do not agree (see the other warnings)",
                "warning",
            )
        )
    if not lines:
        return _with(ledger, problems, transactions=())
    txn = opening(
        opening_day,
        lines,
        lines[0].source,
        f"What the imported history (from {first}) does not explain of QuickBooks' trial "
        f"balance as of {ledger.as_of.describe()}",
    )
    return _with(ledger, problems, accounts=accounts, transactions=(txn,))


def _balances_only(
    ledger: Ledger, cutover: Cutover, problems: list[Problem]
) -> tuple[Ledger, bool]:
    """The trial balance as one opening transaction, and False: the history is left out."""
    try:
        day = parse_day(cutover.date)
    except ValueError as exc:
        problem = Problem(None, f"only the balances, on a cutover date, needs that date: {exc}")
        return _with(ledger, [problem], transactions=()), True
    if ledger.transactions:
        n = len(ledger.transactions)
        problems.append(
            Problem(
                None,
                f"only the balances, on a cutover date: {plural(n, 'transaction')} of the "
                f"history left out; the book starts from QuickBooks' trial balance on {day}",
                "warning",
            )
        )
    figured = _figured(ledger)
    if not figured:
        problems.append(
            Problem(
                None,
                "only the balances, on a cutover date, needs QuickBooks' chart of accounts with "
                "balances (File › Utilities › Export › Lists to IIF Files)",
            )
        )
        return _with(ledger, problems, transactions=()), False
    problems += unbacked(ledger, figured, day)
    lines: list[Split] = []
    ytd = ZERO
    for a in figured:
        assert a.balance is not None
        if cutover.ytd_to_retained and a.counted is not None and not a.counted.balance_sheet:
            ytd += a.balance
        elif a.balance:
            lines.append(Split(a.full_name, a.balance, a.source, memo="QuickBooks balance"))
    accounts = ledger.accounts
    if ytd:
        retained, accounts = equity_account(
            ledger, Role.RETAINED_EARNINGS, "Retained Earnings", figured[0].source
        )
        memo = f"incl. this year's income and expense to date ({money(ytd)})"
        at = next((i for i, s in enumerate(lines) if s.account == retained.full_name), None)
        if at is None:
            lines.append(Split(retained.full_name, ytd, retained.source, memo=memo))
        else:
            lines[at] = replace(lines[at], value=lines[at].value + ytd, memo=memo)
    notes = f"QuickBooks' trial balance as of {day}"
    made, off = trial_balance_opening(lines, day, figured[0].source, notes)
    if off:
        problems.append(
            Problem(
                figured[0].source,
                f"QuickBooks' trial balance does not sum to zero (off by {money(off)}); no "
                "opening transaction is made — check the lists export",
            )
        )
        return _with(ledger, problems, transactions=()), False
    return _with(ledger, problems, accounts=accounts, transactions=made), False
