"""The update's delta table (docs/UPDATE.md, "The proof"): per account, what this run changed
in the book against QuickBooks' movement since the last run, and why a row differs. Pure."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from app.as_of import fiscal_year_start, role_account
from app.model import Ledger, Role, money
from app.update import Work
from app.update_record import Record

ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class Delta:
    """One account's row of the delta table."""

    account: str
    added: Decimal  # what this run changed in the book: lines added less the lines it replaced
    quickbooks: Decimal  # QuickBooks' movement since the last run
    basis: str  # "figures" (balance sheet: now less then) or "history" (lines after then)
    why: str = ""  # where the two differ: what explains it, in words

    @property
    def ok(self) -> bool:
        return self.added == self.quickbooks


def deltas(
    ledger: Ledger,
    work: Work,
    last: Record,
    balance_sheet: frozenset[str],
    held: Mapping[str, Decimal],
) -> tuple[Delta, ...]:
    """Per account: what this run changed in the book (the lines it added less the book's
    versions of the changes it took from QuickBooks), and QuickBooks' movement since the last
    run: its figure now less its figure then for a balance-sheet account with both, else the
    sum of the exports' lines dated after the last run's day (docs/UPDATE.md, "The proof").
    A row that differs says why: transactions dated on or before that day, changes taken or
    held (``held``: ``held_effect``), an account with no figure then."""
    since = last.as_of
    added, late = _changed(ledger, work, since)
    after: defaultdict[str, Decimal] = defaultdict(Decimal)
    for t in ledger.transactions:
        if since is not None and t.date > since and not t.voided:
            for s in t.splits:
                after[s.account] += s.value
    retained = role_account(ledger, Role.RETAINED_EARNINGS)
    rows = []
    for a in ledger.accounts:
        name = a.full_name
        then = last.figures.get(name)
        if name in balance_sheet and a.balance is not None and then is not None:
            moved, basis = a.balance - then, "figures"
        elif name in balance_sheet and a.balance is not None:
            moved, basis = a.balance, "figures"  # new since the last run
        else:
            moved, basis = after.get(name, ZERO), "history"
        if moved or added.get(name):
            row = Delta(name, added.get(name, ZERO), moved, basis)
            why = "" if row.ok else _why(row, since, late.get(name), held.get(name), then)
            if not row.ok and retained is not None and name == retained.full_name:
                why = _retained_why(row, ledger, work, balance_sheet, since) or why
            rows.append(replace(row, why=why))
    return tuple(rows)


def _changed(
    ledger: Ledger, work: Work, since: dt.date | None
) -> tuple[dict[str, Decimal], dict[str, Decimal]]:
    """Per account, what this run changed in the book (the lines added less the book's
    versions of the changes taken), and the part of it dated on or before ``since``."""
    added: defaultdict[str, Decimal] = defaultdict(Decimal)
    late: defaultdict[str, Decimal] = defaultdict(Decimal)
    for t in (ledger.transactions[i] for i in work.add):
        for s in t.splits:
            v = ZERO if t.voided else s.value
            added[s.account] += v
            if since is not None and t.date <= since:
                late[s.account] += v
    for h in work.taken:  # the book's version, replaced or taken out
        for a, v in h.entry.lines:
            added[a] -= v
            if since is not None and h.entry.date <= since:
                late[a] -= v
    return added, late


def _retained_why(
    row: Delta, ledger: Ledger, work: Work, balance_sheet: frozenset[str], since: dt.date | None
) -> str:
    """Why QuickBooks' Retained Earnings moved otherwise than this run's lines on it: a fiscal
    year closed since the last run (QuickBooks folds its whole income and expense into it, the
    book keeps them in their own accounts), and this run's income and expense of the years
    closed before (transactions added, changes taken or held); what these leave, said."""
    start = ledger.as_of.year_start if ledger.as_of else None
    if start is None:
        return ""
    then = fiscal_year_start(since, start.strftime("%m-%d")) if since else start
    pnl = {a.full_name for a in ledger.accounts if a.type is not None} - balance_sheet
    closed = sum(
        (
            s.value
            for t in ledger.transactions
            if then <= t.date < start and not t.voided
            for s in t.splits
            if s.account in pnl
        ),
        ZERO,
    )
    folded = _earlier_years(ledger, work, pnl, then)
    said = []
    if closed:
        end = start - dt.timedelta(days=1)
        years = "fiscal year" if (end - then).days < 366 else "fiscal years"
        said.append(
            f"QuickBooks closed the {years} {then} to {end} into it since the last run: their "
            f"income and expense, {money(closed)} (the book keeps them in their own accounts)"
        )
    if folded:
        said.append(
            f"{money(folded)} is the income and expense of the years before {then} in changes "
            "held or transactions dated then (the book keeps those in their own accounts)"
        )
    left = row.quickbooks - row.added - closed - folded
    if said and left:
        said.append(f"{money(left)} not explained by these: see the proof")
    return "; ".join(said)


def _earlier_years(ledger: Ledger, work: Work, pnl: set[str], start: dt.date) -> Decimal:
    """The income and expense dated before ``start`` of the transactions this run added, of the
    changes it took (less the book's versions) and of the changes held (QuickBooks' versions
    less the book's): what moved QuickBooks' Retained Earnings in the years closed before."""
    total = ZERO
    taken_held = (*work.taken, *work.held)
    versions = [ledger.transactions[i] for i in work.add] + [
        ledger.transactions[h.index] for h in work.held if h.index is not None
    ]
    for t in versions:
        if t.date < start and not t.voided:
            total += sum((s.value for s in t.splits if s.account in pnl), ZERO)
    for h in taken_held:  # the book's version, replaced, taken out or kept in place of QuickBooks'
        if h.entry.date < start:
            total -= sum((v for a, v in h.entry.lines if a in pnl), ZERO)
    return total


def _why(
    d: Delta,
    since: dt.date | None,
    late: Decimal | None,
    held: Decimal | None,
    then: Decimal | None,
) -> str:
    """What explains a row of the delta table that differs, in words."""
    out = []
    if d.basis == "history" and since is not None:
        out.append(f"QuickBooks' movement is its lines dated after {since.isoformat()}")
        if late:
            out.append(f"{money(late)} of this run's is dated on or before it")
    elif d.basis == "figures" and then is None:
        out.append("the book had no figure for it at the last run: its whole balance")
    if held:
        out.append(f"{money(held)} of QuickBooks' is in changes held (listed above)")
    return "; ".join(out) or "not explained by a change listed above: see the proof"


def delta_csv_rows(rows: Sequence[Delta]) -> list[list[str]]:
    head = ["account", "added_by_this_run", "quickbooks_movement", "difference", "basis", "why"]
    return [head] + [
        [d.account, str(d.added), str(d.quickbooks), str(d.added - d.quickbooks), d.basis, d.why]
        for d in rows
    ]
