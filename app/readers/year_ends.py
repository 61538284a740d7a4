"""Several Trial Balance reports (issue 26): which one gives the book's figures, and the others
as proofs of earlier dates (``YearEnd``, typically each fiscal year end); plus the budget lines,
reconciliations and memorized transactions placed in the chart. Used by ``app.readers.merge``.

Which report gives QuickBooks' figures (``Account.balance``, the export-date proof):
- one without an "As of" date: that one (the first such; another undated one is not used, said);
- else the latest-dated one, unless the chart of accounts was exported later than it (its
  OBAMOUNT figures then stay the book's figures, on its own export date), or, its export date
  not given (no HDR row), its figures are not the report's and the history goes on after the
  report's date (the chart's figures hold those transactions: they stay the book's figures,
  the report a proof of its date; equal figures: the report is of the chart's own day).
Every dated report (the one giving the figures included) is a year-end proof: each row placed in
the chart by app/resolve.py's rules (full name, number, suffix path), accounts it does not list
counting zero. Two reports of one date: the first is used (said) when both give the same
figures; an error when they disagree (the proof would go by whichever came first). A row that
names no account of the chart, or one account twice, is an error at its line.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import replace
from decimal import Decimal

from app.account_labels import canonical
from app.extras import BudgetLine, Memorized, Statement, YearEnd
from app.model import Account, FileInfo, Ledger, Problem, money
from app.readers.private import quoted
from app.source import Source
from app.words import plural

ZERO = Decimal(0)
PROOF_KIND = "CSV Trial Balance as of {day} (a proof of that date)"


def numbered(row: Account) -> str:
    """A trial-balance row's label again, with its leaf number, for matching to the chart."""
    if not row.code:
        return row.full_name
    parent, _, leaf = row.full_name.rpartition(":")
    return f"{parent}:{row.code} · {leaf}" if parent else f"{row.code} · {leaf}"


def _date(part: Ledger):
    return part.files[0].exported_on


def split(
    tbs: Sequence[Ledger],
    charts: Sequence[Ledger],
    problems: list[Problem],
    last_day: dt.date | None = None,
) -> tuple[Ledger | None, list[Ledger]]:
    """(the report giving the figures or None, the dated reports proving their dates).
    ``last_day``: the history's last transaction date: a chart with figures but no export date
    (a lists export without its HDR row) whose figures are not the latest report's, with a
    history going on after that report, was exported after it, so its figures stay the book's
    (the report's would leave every later transaction unproven)."""
    chart = tuple(a for c in charts for a in c.accounts)
    undated = [tb for tb in tbs if _date(tb) is None]
    for other in undated[1:]:
        problems.append(_second(other, undated[0], "without an “As of” date", chart))
    proofs: list[Ledger] = []
    seen: dict[object, Ledger] = {}
    for tb in tbs:
        day = _date(tb)
        if day is None:
            continue
        if day in seen:
            problems.append(_second(tb, seen[day], f"as of {day}", chart))
            continue
        seen[day] = tb
        proofs.append(tb)
    if undated:
        return undated[0], proofs
    if not proofs:
        return None, proofs
    latest = max(proofs, key=_date)
    chart_days = [f.exported_on for c in charts for f in c.files if f.exported_on]
    if chart_days and max(chart_days) > _date(latest):
        return None, proofs
    if not chart_days and last_day is not None and last_day > _date(latest):
        if _later_figures(chart, latest):
            return None, proofs
    return latest, proofs


def same_day(tb: Ledger, charts: Sequence[Ledger], chart: tuple[Account, ...]) -> list[Problem]:
    """An error when the chart's figures (OBAMOUNT) and the trial balance giving the book's are
    of the same day and disagree: QuickBooks gives one set of figures for a day, so one file was
    exported after a change (a check entered between the two): the book would hold the report's
    and miss it (hunt 13). Either file alone is fine; a chart of another day is not compared."""
    day = _date(tb)
    dated = [f for c in charts for f in c.files if f.exported_on == day]
    figured = [a for a in chart if a.balance is not None]
    if day is None or not dated or not any(a.balance for a in figured):  # (all 0: no figures)
        return []
    unplaced: list[Problem] = []  # (a report row no chart account takes: said as such)
    placed = placed_rows(tb, chart, unplaced, "")
    mine = _rolled(figured, placed)
    off = sorted(n for n in mine.keys() | placed.keys() if mine.get(n, ZERO) != placed.get(n, ZERO))
    if unplaced:
        return []
    if not off:
        return _collapsed(tb, figured, placed)
    named = "; ".join(
        f"{n}: the lists {money(mine.get(n, ZERO))}, the report {money(placed.get(n, ZERO))}"
        for n in off[:3]
    )
    more = f" and {plural(len(off) - 3, 'other')}" if len(off) > 3 else ""
    info = tb.files[0]
    return [
        Problem(
            dated[0].exported_at or Source(dated[0].filename, 1),
            f"{dated[0].filename} and {info.filename} are both QuickBooks' figures of {day} but "
            f"disagree on {plural(len(off), 'account')} ({named}{more}): one was exported after "
            "a change in QuickBooks (a transaction entered between the two); export them again "
            "one right after the other, with the transaction files, or give only one of them",
        )
    ]


def _collapsed(tb: Ledger, figured: Sequence[Account], placed: dict[str, Decimal]) -> list[Problem]:
    """A warning when the report gives parents the totals of subaccounts it does not list (a
    report exported collapsed): the book's accounts cannot be compared with it one by one."""
    parents = sorted(
        {p for a in figured if a.balance and a.full_name not in placed
         for p in [a.full_name.rsplit(":", 1)[0]] if ":" in a.full_name and p in placed}
    )  # fmt: skip
    if not parents:
        return []
    info = tb.files[0]
    shown = ", ".join(f"{p} {money(placed[p])}" for p in parents[:3])
    more = f" and {plural(len(parents) - 3, 'other')}" if len(parents) > 3 else ""
    return [
        Problem(
            info.exported_at or Source(info.filename, 1),
            f"{info.filename} gives {plural(len(parents), 'account')} the total of subaccounts "
            f"it does not list ({shown}{more}), as a report exported collapsed does: the book's "
            "accounts are compared one by one, so they will differ; export the Trial Balance "
            "again with its subaccounts shown (Expand)",
            "warning",
        )
    ]


def _rolled(figured: Sequence[Account], placed: dict[str, Decimal]) -> dict[str, Decimal]:
    """The chart's figures as the report lists them: each account's added into the nearest of
    itself and its parents the report has a row for (a report exported collapsed gives a parent
    the total of its subaccounts: hunt 14)."""
    out: dict[str, Decimal] = {}
    for a in figured:
        at = a.full_name
        while at not in placed and ":" in at:
            at = at.rsplit(":", 1)[0]
        at = at if at in placed else a.full_name
        out[at] = out.get(at, ZERO) + (a.balance or ZERO)
    return out


def _later_figures(chart: tuple[Account, ...], latest: Ledger) -> bool:
    """Whether the undated chart's figures are of another day than the latest report (they are
    not its figures, placed on the chart): the history going on after that report, they are
    later. Equal, the report is of the chart's own day (transactions after it post-dated)."""
    figured = [a for a in chart if a.balance is not None]
    if not figured:
        return False
    placed = placed_rows(latest, chart, [], "")
    return any(placed.get(a.full_name, ZERO) != a.balance for a in figured)


def _second(tb: Ledger, first: Ledger, which: str, chart: tuple[Account, ...]) -> Problem:
    """A second trial balance of one date: not used (said) when its figures are the first's;
    an error when they disagree, since QuickBooks gives one set of figures for a date and the
    proof would go by whichever came first."""
    info, name = tb.files[0], first.files[0].filename
    where = info.exported_at or Source(info.filename, 1)
    mine, theirs = _figures(tb, chart), _figures(first, chart)
    off = sorted(a for a in mine.keys() | theirs.keys() if mine.get(a, ZERO) != theirs.get(a, ZERO))
    if not off:
        return Problem(
            where, f"a second trial balance {which}, the same as {name}: not used", "warning"
        )
    a = off[0]
    return Problem(
        where,
        f"a second trial balance {which} that disagrees with {name} on "
        f"{plural(len(off), 'account')} ({a}: {money(mine.get(a, ZERO))} here, "
        f"{money(theirs.get(a, ZERO))} there): QuickBooks gives one set of figures for a date; "
        "remove the one that is not from the company's current file (or export that report "
        "again)",
    )


def _figures(tb: Ledger, chart: tuple[Account, ...]) -> dict[str, Decimal]:
    """A report's figures per account: placed on the chart when there is one (a report with
    account numbers and one without are the same figures), else by its own labels."""
    if chart:
        return placed_rows(tb, chart, [], "")
    out: dict[str, Decimal] = {}
    for row in tb.accounts:
        out[numbered(row)] = out.get(numbered(row), ZERO) + (row.balance or ZERO)
    return out


def proof_files(files: Iterable[FileInfo], proofs: Sequence[Ledger], main: Ledger | None):
    """The files, a report kept only as a proof relabelled (layout "year end")."""
    only = {p.files[0].filename for p in proofs if p is not main}
    return tuple(
        replace(f, kind=PROOF_KIND.format(day=f.exported_on or "its date"), layout="year end")
        if f.filename in only
        else f
        for f in files
    )


def extra_accounts(
    accounts: tuple[Account, ...], proofs: Sequence[Ledger], chart: bool
) -> tuple[Account, ...]:
    """Without a chart: the accounts only an earlier report lists, at 0 on the figures' day
    (a trial balance leaves out what is zero)."""
    if chart:
        return accounts
    match = canonical(accounts)
    known = {a.full_name for a in accounts}
    added: list[Account] = []
    for tb in proofs:
        for row in tb.accounts:
            full = match(numbered(row))
            if full not in known:
                known.add(full)
                added.append(replace(row, full_name=full, balance=ZERO))
    return (*accounts, *added)


def year_ends(
    proofs: Sequence[Ledger],
    accounts: tuple[Account, ...],
    problems: list[Problem],
    main: Ledger | None = None,
) -> tuple[YearEnd, ...]:
    """Each dated report's figures per chart account (errors for rows the chart lacks, but for
    ``main``'s: the book's figures, whose rows were checked already)."""
    out = []
    for tb in sorted(proofs, key=_date):
        info = tb.files[0]
        said = problems if tb is not main else []
        figures = placed_rows(tb, accounts, said, "")
        where = info.exported_at or Source(info.filename, 1)
        out.append(YearEnd(info.exported_on, tuple(figures.items()), where, info.filename))  # type: ignore[arg-type]
    return tuple(out)


def placed_rows(
    tb: Ledger, accounts: tuple[Account, ...], problems: list[Problem], what_else: str
) -> dict[str, Decimal]:
    """A trial balance's rows as figures per chart account: each row placed by the resolver's
    rules; an error for a row outside the chart (``what_else``: the other way out, said after
    it) or one account listed twice."""
    match = canonical(accounts)
    known = {a.full_name for a in accounts}
    figures: dict[str, Decimal] = {}
    for row in tb.accounts:
        label = numbered(row)
        full = match(label)
        if full not in known:
            problems.append(
                Problem(
                    row.source,
                    f"trial balance account {quoted(label)} is not (or not only one account) "
                    "in the chart of accounts; export the lists and the report from the same "
                    f"company file{what_else}",
                )
            )
        elif full in figures:
            twice = f"trial balance lists account {quoted(full)} twice; fix the report"
            problems.append(Problem(row.source, twice))
        else:
            figures[full] = row.balance or ZERO
    return figures


def placed_budgets(
    lines: Iterable[BudgetLine], accounts: tuple[Account, ...], problems: list[Problem]
) -> tuple[BudgetLine, ...]:
    """The budget lines whose account is in the chart (an error for each other one), one line
    per account and budget (a second is an error)."""
    known = {a.full_name for a in accounts}
    seen: dict[tuple[object, ...], Source] = {}
    out = []
    for line in lines:
        key = (*line.key, line.account)
        if line.account not in known:
            problems.append(
                Problem(
                    line.source,
                    f"budget of account {quoted(line.account)}, which is not in the chart of "
                    "accounts; export the lists (budgets included) from one company file, all at "
                    "once",
                )
            )
        elif key in seen:
            problems.append(
                Problem(
                    line.source,
                    f"a second budget row for {quoted(line.account)} in the same budget (first at "
                    f"{seen[key]}); export the budgets again",
                )
            )
        else:
            seen[key] = line.source
            out.append(line)
    return tuple(out)


def placed_statements(
    statements: Iterable[Statement], accounts: tuple[Account, ...], problems: list[Problem]
) -> tuple[Statement, ...]:
    """Each reconciliation's account found in the chart; the latest statement per account."""
    match = canonical(accounts)
    by_name = {a.full_name: a for a in accounts}
    latest: dict[str, Statement] = {}
    for s in statements:
        full = match(s.label)
        account = by_name.get(full)
        if account is None:
            problems.append(
                Problem(
                    s.source,
                    f"reconciled account {quoted(s.label)} is not (or not only one account) in the "
                    "chart of accounts; export the report and the lists from one company file",
                )
            )
            continue
        family = account.type.family if account.type else "asset"
        # the report shows a card's or loan's balance as owed, positive: the book's is a credit
        owed = family == "liability"
        placed = replace(s, account=full, balance=-s.balance if owed else s.balance)
        earlier = latest.get(full)
        if earlier is None or earlier.date < placed.date:
            latest[full] = placed
    return tuple(latest.values())


def placed_memorized(
    memorized: Iterable[Memorized], accounts: tuple[Account, ...]
) -> tuple[Memorized, ...]:
    """Each memorized transaction's source account as the chart names it (left as the report
    names it when the chart has no such account: ``app.schedules`` says so)."""
    match = canonical(accounts)
    known = {a.full_name for a in accounts}
    out = []
    for m in memorized:
        full = match(m.account) if m.account else ""
        out.append(replace(m, account=full) if full in known else m)
    return tuple(out)
