"""Archive and working book (``--split-at DAY --archive ARCHIVE``): one final ledger cut in two
at ``DAY``, the accountant's close of the books. Pure: the model, the cutover and the documents.

- The archive holds every transaction dated before ``DAY`` (the cutover's own opening included),
  the budgets, year-end trial balances and statements dated before it; its figures are its own
  history's as of its last day (``DAY`` − 1): what its proof compares the book with.
- The working book starts from the archive's closing balances, carried as one opening
  transaction on the archive's last day (``cutover.trial_balance_opening``, the balances-only
  rule): balance-sheet accounts all time, income and expense from the start of the fiscal year
  holding ``DAY``, the net income of every earlier fiscal year in Retained Earnings
  (``as_of.figures``, QuickBooks' own close; the account is made as balances-only mode makes it
  when the chart has none). The invoices, bills, credit notes and payments still open on that
  day become open items (``documents.opening.open_items_opening``, as in balances-only mode), so
  a payment after ``DAY`` applies to its invoice. Then the history from ``DAY`` on, the
  memorized transactions and the rest of the extras (the budgets of the fiscal years not over
  on ``DAY``: the year holding it is in both books); its figures are QuickBooks' at the export
  date, as the single book's are.
Why the opening is dated the archive's last day: the working book then equals the archive on
that day, account by account, by the same computation on both books read back
(``closing_table``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal

from app.as_of import figures, fiscal_year_start, ledger_daily, role_account
from app.business import OpenItem
from app.classes_stage import folded_ledger
from app.cutover import equity_account
from app.documents.allocate import unapplied
from app.documents.opening import open_items_opening
from app.documents.selection import Selection
from app.errors import MappingError
from app.extras import BudgetLine
from app.model import (
    AccountType,
    AsOf,
    Ledger,
    Problem,
    Reconcile,
    Role,
    Split,
    Transaction,
    money,
)
from app.openings import OPENING_KIND, trial_balance_opening
from app.plan import Plan, parse_day

ZERO = Decimal(0)
DAY = dt.timedelta(days=1)
# GnuCash releases whose engine loads a book in time growing with the square of each account's
# splits (docs/ENGINE.md, "Why writing and reading a big book is quadratic in GnuCash 4.x-5.6")
SLOW_LOADERS = ((4, 0), (5, 7))  # [from, to)
SUGGEST_FROM = 30_000  # transactions: from here GnuCash 4.13 takes minutes to open the book


@dataclass(frozen=True, slots=True)
class Carried:
    """One account on the split day: the archive's closing figure, the working book's opening
    (both read back from the books), and the difference."""

    account: str
    closing: Decimal
    opening: Decimal

    @property
    def difference(self) -> Decimal:
        return self.opening - self.closing


def check_day(ledger: Ledger, day: dt.date) -> None:
    """MappingError unless ``day`` splits the history: some history before it and from it."""
    dates = [t.date for t in ledger.transactions if t.kind_label != OPENING_KIND]
    if not dates:
        raise MappingError("the files hold no transactions to split into an archive")
    first, last = min(dates), max(dates)
    if not first < day <= last:
        where = (
            "the history's first day (the archive would hold nothing)"
            if day == first
            else f"outside the history ({first} to {last})"
        )
        raise MappingError(
            f"the working book's first day {day} is {where}: "
            f"choose a day after {first} and no later than {last}, e.g. the start of the last "
            "fiscal year"
        )


def day_problems(plan: Plan, history: tuple[Transaction, ...] | None) -> list[Problem]:
    """The plan's split day as errors (``pipeline.prepare``): it must fall inside the history
    (``history``: None in balances-only mode), and the books be files."""
    if history is None:
        return [Problem(None, "an archive and working book need the history, not balances only")]
    if plan.format == "postgres":
        return [
            Problem(None, "an archive and working book are written as files, not into a database")
        ]
    try:
        check_day(Ledger(transactions=history), parse_day(plan.cutover.split_at))
    except ValueError as exc:
        return [Problem(None, f"the working book's first day: {exc}")]
    except MappingError as exc:
        return [Problem(None, exc.message)]
    return []


def year_start_of(ledger: Ledger, day: dt.date) -> dt.date:
    """The first day of the fiscal year holding ``day`` (the ledger's fiscal year)."""
    start = ledger.as_of.year_start if ledger.as_of else dt.date(day.year, 1, 1)
    return fiscal_year_start(day, f"{start.month:02d}-{start.day:02d}")


def suggested_day(as_of: AsOf | None, transactions: tuple[Transaction, ...]) -> dt.date | None:
    """The start of the last fiscal year (of ``as_of``), when it splits the history (else
    None)."""
    if as_of is None:
        return None
    try:
        check_day(Ledger(transactions=transactions), as_of.year_start)
    except MappingError:
        return None
    return as_of.year_start


def slow_words(version: tuple[int, ...]) -> str:
    """What such a GnuCash does with a large book, as measured here, in the suggestion's words
    (the command line, the Map step): docs/ENGINE.md, "Archive and working book"."""
    return (
        f"GnuCash {'.'.join(map(str, version))} (installed here) opens a book of 100,000 "
        "transactions in about 85 s on this kind of computer, and its Trial Balance report on "
        "it ran for over 10 minutes"
    )


def slow_loader(version: tuple[int, ...]) -> bool:
    """Whether this GnuCash opens a large book slowly (4.x, 5.0-5.6)."""
    low, high = SLOW_LOADERS
    return low <= tuple(version[:2]) < high


def archive_ledger(ledger: Ledger, day: dt.date) -> Ledger:
    """The history before ``day``, its figures its own as of ``day`` − 1."""
    last = day - DAY
    txns = tuple(t for t in ledger.transactions if t.date < day)
    start = year_start_of(ledger, last)
    retained = role_account(ledger, Role.RETAINED_EARNINGS)
    # (a class sub-account's lines count in its account's figure: QuickBooks has no such
    # account, and the proof compares the book folded so, docs/CLASSES.md)
    daily = ledger_daily(folded_ledger(replace(ledger, transactions=txns)))
    own = figures(
        ((a.full_name, a.counted, daily.get(a.full_name, {}).items()) for a in ledger.accounts),
        retained.full_name if retained else None,
        last,
        start,
    )
    accounts = tuple(
        replace(a, balance=own.get(a.full_name, ZERO)) if a.balance is not None else a
        for a in ledger.accounts
    )
    as_of = AsOf(last, "archive end", start, "given")
    return replace(
        ledger,
        accounts=accounts,
        transactions=txns,
        as_of=as_of,
        open_items=(),  # QuickBooks' report is of the export date, not of the archive's end
        budget_lines=tuple(b for b in ledger.budget_lines if b.start < day),
        year_ends=tuple(y for y in ledger.year_ends if y.date < day),
        statements=tuple(s for s in ledger.statements if s.date < day),
        memorized=(),
    )


def closing(ledger: Ledger, day: dt.date) -> tuple[dict[str, Decimal], Ledger]:
    """The figures the working book opens with (per account, sums to zero) and ``ledger`` with
    the Retained Earnings account they need (made as balances-only mode makes it)."""
    before = Ledger(transactions=tuple(t for t in ledger.transactions if t.date < day))
    daily = ledger_daily(before)
    start = year_start_of(ledger, day)
    retained = role_account(ledger, Role.RETAINED_EARNINGS)
    accounts = ledger.accounts
    earlier = any(
        d < start
        for a in ledger.accounts
        if a.counted is not None and not a.counted.balance_sheet
        for d in daily.get(a.full_name, {})
    )
    if retained is None and earlier:
        source = ledger.transactions[0].source
        retained, accounts = equity_account(
            ledger, Role.RETAINED_EARNINGS, "Retained Earnings", source
        )
    out = figures(
        ((a.full_name, a.counted, daily.get(a.full_name, {}).items()) for a in accounts),
        retained.full_name if retained else None,
        day - DAY,
        start,
    )
    return out, replace(ledger, accounts=accounts)


def open_at(selection: Selection) -> tuple[OpenItem, ...]:
    """What the archive leaves open on its last day, as open items (the report's signs: owed
    to us / by us positive): every document with something open, every payment or credit with
    something unapplied, every charge not fully paid (``selection``: the archive's)."""
    docs, allocation = selection.derived, selection.allocation
    rest = unapplied(docs, allocation)
    out: list[OpenItem] = []
    for d in docs.documents:
        left = ZERO if d.voided else selection.open_amounts.get(d.transaction, ZERO)
        if left:
            out.append(
                OpenItem(
                    d.owner_kind,
                    d.owner,
                    _label(d.kind),
                    d.date,
                    -left if d.credit else left,
                    d.source,
                    num=d.num,
                    ref=d.ref,
                    due=None if d.credit else d.due,  # a credit ages from its date (aging)
                    terms=d.terms,
                )
            )
    for p in docs.payments:
        left = ZERO if p.voided else rest.get(p.transaction, ZERO)
        if left:
            out.append(
                OpenItem(
                    p.owner_kind,
                    p.owner,
                    p.kind_label or ("Payment" if p.amount >= 0 else "General Journal"),
                    p.date,
                    -left if p.amount >= 0 else left,
                    p.source,
                    num=p.num,
                    ref=p.ref,
                )
            )
    out.sort(key=lambda o: (o.date, o.owner_kind, o.owner, o.num))
    return tuple(out)


_LABELS = {
    "invoice": "Invoice",
    "bill": "Bill",
    "credit_note_customer": "Credit Memo",
    "credit_note_vendor": "Credit",
}


def _label(kind: str) -> str:
    return _LABELS[kind]


def working_ledger(
    ledger: Ledger, day: dt.date, items: Iterable[OpenItem] | None
) -> tuple[Ledger, dict[str, Decimal]]:
    """The working book's ledger (see the module docstring) and the figures it opens with.
    ``items``: the archive's open documents on its last day (None: no documents)."""
    carried, ledger = closing(ledger, day)
    last = day - DAY
    source = ledger.transactions[0].source
    parts = _reconciled(ledger, day)
    lines: list[Split] = []
    for a in ledger.accounts:
        rest = carried.get(a.full_name, ZERO)
        for state, value in parts.get(a.full_name, {}).items():
            memo = f"Closing balance of the archive, {state.name.lower()} part"
            lines.append(Split(a.full_name, value, a.source, memo=memo, reconcile=state))
            rest -= value
        if rest:
            lines.append(Split(a.full_name, rest, a.source, memo="Closing balance of the archive"))
    notes = f"The archive's closing balances on {last}, its last day"
    opening, off = trial_balance_opening(lines, last, source, notes)
    if off:  # every transaction balances, so the figures do: a bug, never plugged
        raise MappingError(f"the archive's closing balances are off by {money(off)}")
    after = tuple(t for t in ledger.transactions if t.date >= day)
    working = replace(
        ledger,
        transactions=(*opening, *after),
        budget_lines=tuple(b for b in ledger.budget_lines if _last_month(b) >= day.replace(day=1)),
        year_ends=tuple(y for y in ledger.year_ends if y.date >= day),
        statements=tuple(s for s in ledger.statements if s.date >= day),
    )
    if items is not None:
        working = open_items_opening(working, tuple(items))
    return working, carried


def _reconciled(ledger: Ledger, day: dt.date) -> dict[str, dict[Reconcile, Decimal]]:
    """Per account with a statement from ``day`` on: its reconciled and cleared lines before
    ``day`` summed, which the working book's opening carries as such (its reconciled balance
    then is the archive's plus its own, as QuickBooks' statement counts it)."""
    wanted = {s.account for s in ledger.statements if s.date >= day}
    out: dict[str, dict[Reconcile, Decimal]] = {}
    for t in ledger.transactions:
        if t.date >= day or t.voided or not wanted:
            continue
        for sp in t.splits:
            if sp.account in wanted and sp.reconcile in (Reconcile.RECONCILED, Reconcile.CLEARED):
                sums = out.setdefault(sp.account, {})
                sums[sp.reconcile] = sums.get(sp.reconcile, ZERO) + sp.value
    return {k: {s: v for s, v in sums.items() if v} for k, sums in out.items()}


def closing_table(
    archive: Mapping[str, Decimal], working: Mapping[str, Decimal]
) -> tuple[Carried, ...]:
    """Per account, the archive's closing figure beside the working book's opening."""
    names = sorted(set(archive) | set(working))
    return tuple(
        Carried(n, archive.get(n, ZERO), working.get(n, ZERO))
        for n in names
        if archive.get(n, ZERO) or working.get(n, ZERO)
    )


def book_figures(
    accounts: Iterable[tuple[str, AccountType | None, Iterable[tuple[dt.date, Decimal]]]],
    retained: str | None,
    day: dt.date,
    start: dt.date,
) -> dict[str, Decimal]:
    """A book's figures on the archive's last day (``day`` − 1) counted from ``start``."""
    return figures(accounts, retained, day - DAY, start)


def _last_month(line: BudgetLine) -> dt.date:
    """The first day of a budget line's last month."""
    months = line.start.month - 1 + len(line.amounts) - 1
    return dt.date(line.start.year + months // 12, months % 12 + 1, 1)
