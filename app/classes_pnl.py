"""The P&L by class, per fiscal year (pure; ``pipeline`` adds it to the ``Report`` when the
book carries classes). docs/CLASSES.md, "The P&L by class".

Each income and expense account of the book (class sub-accounts folded into it) is a row, each
class a column, then "unclassed" (its lines without a class) and the row's total: the sum of
the columns, worked out from the lines the book was written from. ``book`` is the same
account's figure for the fiscal year read back from the book; a row whose columns do not add up
to it is a difference (the proof is then not "matches"). Amounts in the P&L's own sense: income
and expense positive, net income = income − expense.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from app.as_of import fiscal_year_start
from app.book import BookSnapshot
from app.csvsafe import line as csv_line
from app.model import Ledger, plain
from app.words import plural

ZERO = Decimal(0)
UNCLASSED = "unclassed"


@dataclass(frozen=True, slots=True)
class ClassRow:
    account: str
    family: str  # "income" or "expense"
    amounts: tuple[Decimal, ...]  # one per class column, then unclassed
    book: Decimal  # the book's figure of the account for the year

    @property
    def total(self) -> Decimal:
        return sum(self.amounts, ZERO)

    @property
    def ok(self) -> bool:
        return self.total == self.book


@dataclass(frozen=True, slots=True)
class ClassYear:
    start: dt.date
    end: dt.date
    rows: tuple[ClassRow, ...]

    def net(self, width: int) -> tuple[Decimal, ...]:
        """Net income per column (income − expense), then the total's and the book's."""
        sums = [ZERO] * (width + 2)
        for r in self.rows:
            sign = 1 if r.family == "income" else -1
            for i, v in enumerate((*r.amounts, r.total, r.book)):
                sums[i] += sign * v
        return tuple(sums)

    @property
    def differences(self) -> tuple[ClassRow, ...]:
        return tuple(r for r in self.rows if not r.ok)


@dataclass(frozen=True, slots=True)
class ClassProof:
    classes: tuple[str, ...]  # the class columns (full names), "unclassed" after them
    years: tuple[ClassYear, ...]

    @property
    def ok(self) -> bool:
        return all(not y.differences for y in self.years)

    @property
    def columns(self) -> tuple[str, ...]:
        return (*self.classes, UNCLASSED)

    def headline(self) -> str:
        n = plural(len(self.classes), "class", "classes")
        if not self.years:
            return f"P&L by class: {n}, no income or expense line"
        span = f"{self.years[0].start} to {self.years[-1].end}"
        if self.ok:
            return (
                f"The P&L by class ({n} and unclassed) adds up to the book's P&L in every "
                f"fiscal year ({plural(len(self.years), 'year')}, {span})"
            )
        first = next(y for y in self.years if y.differences)
        names = ", ".join(r.account for r in first.differences[:5])
        return (
            f"The P&L by class does not add up to the book's P&L in the fiscal year from "
            f"{first.start} ({names}) — DIFFERS"
        )

    def to_csv(self) -> str:
        head = ["fiscal year start", "fiscal year end", "account", "type", *self.columns]
        out = [csv_line([*head, "total", "gnucash", "difference"])]
        width = len(self.columns)
        for y in self.years:
            for r in y.rows:
                cells = [y.start, y.end, r.account, r.family, *map(plain, r.amounts)]
                out.append(csv_line([*cells, plain(r.total), plain(r.book),
                                     plain(r.book - r.total)]))  # fmt: skip
            net = y.net(width)
            cells = [y.start, y.end, "Net income", "", *map(plain, net[:width])]
            out.append(csv_line([*cells, plain(net[-2]), plain(net[-1]), plain(net[-1] - net[-2])]))
        return "\n".join(out) + "\n"


def proof(ledger: Ledger, snapshot: BookSnapshot, folds: dict[str, str]) -> ClassProof | None:
    """The P&L by class of ``ledger`` (as written: class sub-accounts in ``folds``) against
    ``snapshot`` (folded: ``classes_stage.folded_snapshot``); None when no line has a class."""
    if not any(s.klass for t in ledger.transactions for s in t.splits):
        return None
    families = {
        a.full_name: a.counted.family  # as QuickBooks counts it (``Account.counted``)
        for a in ledger.accounts
        if a.counted is not None and not a.counted.balance_sheet and not a.folds_into
    }
    start = ledger.as_of.year_start if ledger.as_of else dt.date(2000, 1, 1)
    mmdd = f"{start.month:02d}-{start.day:02d}"
    starts: dict[dt.date, dt.date] = {}

    def year(day: dt.date) -> dt.date:
        if day not in starts:
            starts[day] = fiscal_year_start(day, mmdd)
        return starts[day]

    sums: dict[tuple[dt.date, str], dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    names: set[str] = set()
    for t in ledger.transactions:
        if t.voided:
            continue
        for s in t.splits:
            account = folds.get(s.account, s.account)
            if account in families:
                sums[(year(t.date), account)][s.klass] += s.value
                if s.klass:
                    names.add(s.klass)
    book: dict[tuple[dt.date, str], Decimal] = defaultdict(Decimal)
    for b in snapshot.accounts:
        if b.full_name in families:
            for day, value in b.daily:
                book[(year(day), b.full_name)] += value
    classes = tuple(sorted(names))
    years = []
    for begin in sorted({y for y, _ in (*sums, *book)}):
        rows = []
        for account, family in families.items():
            if (begin, account) not in sums and not book.get((begin, account)):
                continue
            per = sums.get((begin, account), {})
            sign = -1 if family == "income" else 1
            amounts = tuple(sign * per.get(c, ZERO) for c in (*classes, ""))
            rows.append(ClassRow(account, family, amounts, sign * book.get((begin, account), ZERO)))
        rows.sort(key=lambda r: (r.family != "income", r.account))
        end = fiscal_year_start(begin + dt.timedelta(days=400), mmdd) - dt.timedelta(days=1)
        years.append(ClassYear(begin, end, tuple(rows)))
    return ClassProof(classes, tuple(years))
