"""QuickBooks' memorized transactions as GnuCash scheduled transactions (pure functions).

What QuickBooks' Memorized Transaction List export holds (``qbcsv.memorized``): per memorized
transaction its name, type, source account, amount, how often, whether QuickBooks enters it by
itself, the next date and how many remain; not its other lines. A GnuCash scheduled transaction
needs every line, so (``templated``): the other lines are those of the latest transaction of the
history with that type and a line of exactly that amount on the source account (the ones named
like the memorized transaction first): QuickBooks makes each occurrence as a copy of the
memorized one. Written (``Schedule``) when it has an amount, a frequency GnuCash can hold and
such a transaction; never enabled, so GnuCash posts nothing by itself. Every other one is listed
as not imported with why (a template without amounts, "Never" scheduled, twice a month on days
the export does not say, no such transaction in the history, an account outside the chart).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal

from app.extras import Memorized
from app.model import NotImported, Transaction
from app.source import Source
from app.words import quoted

WHAT = "Memorized transactions"
# QuickBooks' "How Often" words → GnuCash recurrences ((period, multiplier), ...)
FREQUENCIES: dict[str, tuple[tuple[str, int], ...]] = {
    "daily": (("day", 1),),
    "weekly": (("week", 1),),
    "every two weeks": (("week", 2),),
    "every 2 weeks": (("week", 2),),
    "biweekly": (("week", 2),),
    "every four weeks": (("week", 4),),
    "every 4 weeks": (("week", 4),),
    "monthly": (("month", 1),),
    "every two months": (("month", 2),),
    "every 2 months": (("month", 2),),
    "quarterly": (("month", 3),),
    "twice a year": (("month", 6),),
    "semi-annually": (("month", 6),),
    "yearly": (("year", 1),),
    "annually": (("year", 1),),
}


@dataclass(frozen=True, slots=True)
class Schedule:
    """A GnuCash scheduled transaction to write (never enabled)."""

    name: str
    start: dt.date
    periods: tuple[tuple[str, int], ...]
    lines: tuple[tuple[str, Decimal], ...]  # (final account, value debit positive)
    source: Source
    occurrences: int = 0  # 0: no end
    memo: str = ""

    @property
    def description(self) -> str:
        return self.name


def _why_not(m: Memorized) -> str:
    """Why the list's own data cannot make a schedule ("" when it can, lines aside)."""
    freq = " ".join(m.frequency.lower().split())
    if m.kind.lower() == "group" or (not m.kind and not m.account and m.amount is None):
        return "a group of memorized transactions: its members are listed on their own"
    if not m.amount:
        return "no amount in QuickBooks (a template to fill in each time): enter it in GnuCash"
    if freq in ("", "never", "none"):
        return "QuickBooks has no schedule for it (Do Not Remind Me): a template only"
    if freq in ("twice a month", "semi-monthly", "semimonthly"):
        return "twice a month, on days the export does not say: schedule it in GnuCash"
    if freq not in FREQUENCIES:
        return f"how often {quoted(m.frequency)} is not a QuickBooks frequency qb2gnucash knows"
    if m.next_date is None:
        return "no next date in the export"
    if m.remaining == 0:
        return "no occurrence remains"
    return ""


def templated(memorized: tuple[Memorized, ...], history: Iterable[Transaction], chart: set[str]):
    """Each memorized transaction with its template lines (accounts as the history names them)
    or why it has none."""
    if not memorized:
        return memorized
    todo = {i: m for i, m in enumerate(memorized) if not _why_not(m) and m.account in chart}
    best: dict[int, tuple[tuple, Transaction]] = {}
    for t in history:
        if t.voided:
            continue
        for i, m in todo.items():
            if t.kind_label.casefold() != m.kind.casefold():
                continue
            if not any(s.account == m.account and abs(s.value) == m.amount for s in t.splits):
                continue
            rank = (t.description in (m.name, m.payee), t.date, t.source)
            if i not in best or rank > best[i][0]:
                best[i] = (rank, t)
    out = []
    for i, m in enumerate(memorized):
        why = _why_not(m)
        if not why and m.account not in chart:
            why = f"its account {quoted(m.account)} is not in the chart of accounts"
        if not why and i not in best:
            why = (
                f"no {m.kind or 'transaction'} of {m.amount:,.2f} on {m.account} in the history "
                "to take its other lines from: schedule it in GnuCash"
            )
        if why:
            out.append(replace(m, template=(), why=why))
            continue
        t = best[i][1]
        lines: dict[str, Decimal] = {}
        for s in t.splits:
            lines[s.account] = lines.get(s.account, Decimal(0)) + s.value
        out.append(replace(m, template=tuple(lines.items()), why=""))
    return tuple(out)


def schedules(memorized: Iterable[Memorized]) -> tuple[Schedule, ...]:
    """The scheduled transactions to write (final account names in ``template``)."""
    return tuple(
        Schedule(
            m.name,
            m.next_date,  # type: ignore[arg-type]
            FREQUENCIES[" ".join(m.frequency.lower().split())],
            tuple((a, v) for a, v in m.template if v),
            m.source,
            m.remaining or 0,
        )
        for m in memorized
        if m.template and not m.why
    )


def not_imported(memorized: Iterable[Memorized]) -> tuple[NotImported, ...]:
    return tuple(NotImported(WHAT, m.name, m.why, m.source) for m in memorized if m.why)
