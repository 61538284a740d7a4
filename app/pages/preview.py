"""The Preview step's view models: plain rows the templates loop over (no Flask here).

Templates never compute: trees come with their depth, transactions with their splits nested and
paginated, problems with the link to the row they are about.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from decimal import Decimal

from app.fixes import with_fix
from app.model import Account, Ledger, Problem, Transaction
from app.readers.values import full_year
from app.source import Source

RECONCILE_WORDS = {"n": "", "c": "cleared", "y": "reconciled"}
_AT = re.compile(r"\s*(\S+):(\d+)\s*")
_WRITTEN_DATE = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})")  # 2/1/2024, 02/01/24
_WRITTEN_MONTH = re.compile(r"(\d{1,2})/(\d{4})")  # 2/2024
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")  # 2024-02-01, 2024-2-1


def anchor(source: Source | None) -> str:
    """The HTML id of the row a source line produced."""
    if source is None:
        return ""
    return "src-" + re.sub(r"[^A-Za-z0-9_-]", "_", source.filename) + f"-{source.line}"


# ---------------------------------------------------------------- transactions


class SearchIndex:
    """Server-side search over transactions: one lower-case text per transaction, built once per
    parsed result (the Store caches it), so a search over 100,000 is one pass of ``in`` tests."""

    def __init__(self, transactions: Sequence[Transaction]) -> None:
        self.transactions = transactions
        self.texts: list[str] = []
        self.at: dict[str, int] = {}  # "file:line" → transaction index
        for i, t in enumerate(transactions):
            self.at.setdefault(str(t.source), i)
            parts = [t.date.isoformat(), t.num, t.description, t.ref, t.kind_label]
            for s in t.splits:
                self.at.setdefault(str(s.source), i)
                parts += (s.account, s.memo, f"{s.value:.2f}", f"{abs(s.value):.2f}")
            self.texts.append("\n".join(parts).lower())

    def find(self, q: str, date_orders: Collection[str] = ("mdy",)) -> list[int]:
        """The transactions whose text holds every word of ``q``. A date is found as the page
        shows it (2024-02-01) and as QuickBooks writes it (2/1/2024, 02/01/24: read in the
        files' ``date_orders``, "mdy" and/or "dmy"); a month as 2024-02 or 2/2024."""
        q = q.strip().lower()
        if not q:
            return list(range(len(self.texts)))
        m = _AT.fullmatch(q)
        if m:
            for key, i in self.at.items():  # file:line, case-insensitive
                if key.lower() == q:
                    return [i]
        words = [_date_words(w, date_orders) for w in q.split()]
        return [
            i
            for i, text in enumerate(self.texts)
            if all(any(alt in text for alt in alts) for alts in words)
        ]


def _date_words(word: str, orders: Collection[str]) -> tuple[str, ...]:
    """A searched word with the ISO forms it may mean (the index holds dates as YYYY-MM-DD)."""
    found = [word]
    if m := _ISO_DATE.fullmatch(word):
        found += _iso(int(m[1]), int(m[2]), int(m[3]))
    elif m := _WRITTEN_DATE.fullmatch(word):
        a, b = int(m[1]), int(m[2])
        try:
            year = full_year(m[3])
        except ValueError:  # 1/2/0019: a year before 1900 is no date here
            return tuple(found)
        for order in orders or ("mdy",):
            month, day = (a, b) if order == "mdy" else (b, a)
            found += _iso(year, month, day)
    elif (m := _WRITTEN_MONTH.fullmatch(word)) and 1 <= int(m[1]) <= 12:
        found.append(f"{m[2]}-{int(m[1]):02d}-")
    return tuple(dict.fromkeys(found))


def _iso(year: int, month: int, day: int) -> list[str]:
    try:
        return [dt.date(year, month, day).isoformat()]
    except ValueError:  # 13/13/2024: no date, searched as written
        return []


@dataclass(frozen=True, slots=True)
class SplitRow:
    account: str
    memo: str
    amount: Decimal
    reconcile: str
    anchor: str
    known: bool = True  # False: the account is not (yet) one of the chart's


@dataclass(frozen=True, slots=True)
class TxnGroup:
    date: dt.date
    num: str
    description: str
    kind: str
    ref: str
    voided: bool
    where: str
    anchor: str
    total: Decimal  # the debit side: what the transaction moves
    splits: tuple[SplitRow, ...]


@dataclass(frozen=True, slots=True)
class TxnPage:
    groups: tuple[TxnGroup, ...]
    q: str
    page: int
    pages: int
    matches: int
    total: int
    per_page: int

    @property
    def first(self) -> int:
        """The position (1-based) of the page's first transaction among the matches."""
        return 0 if not self.groups else (self.page - 1) * self.per_page + 1


PER_PAGE = 50  # the default; the wizard passes its TRANSACTIONS_PER_PAGE setting


def txn_page(
    index: SearchIndex,
    q: str = "",
    page: int = 1,
    per_page: int = PER_PAGE,
    *,
    chart: Collection[str] | None = None,
    date_orders: Collection[str] = ("mdy",),
) -> TxnPage:
    """One page of the transactions matching ``q`` (dates as QuickBooks writes them read in
    ``date_orders``); with ``chart``, split accounts outside it are flagged."""
    found = index.find(q, date_orders)
    pages = max(1, -(-len(found) // per_page))
    page = min(max(1, page), pages)
    chosen = found[(page - 1) * per_page : page * per_page]
    groups = tuple(_group(index.transactions[i], chart) for i in chosen)
    return TxnPage(groups, q, page, pages, len(found), len(index.transactions), per_page)


def _group(t: Transaction, chart: Collection[str] | None) -> TxnGroup:
    return TxnGroup(
        date=t.date,
        num=t.num,
        description=t.description,
        kind=t.kind_label,
        ref=t.ref,
        voided=t.voided,
        where=str(t.source),
        anchor=anchor(t.source),
        total=sum((s.value for s in t.splits if s.value > 0), Decimal(0)),
        splits=tuple(
            SplitRow(
                s.account,
                s.memo,
                s.value,
                RECONCILE_WORDS[s.reconcile.value],
                anchor(s.source),
                known=chart is None or s.account in chart,
            )
            for s in t.splits
        ),
    )


# ---------------------------------------------------------------- accounts


@dataclass(frozen=True, slots=True)
class AccountRow:
    full_name: str
    name: str
    depth: int
    type: str  # GnuCash type
    kind_label: str  # QuickBooks type
    code: str
    balance: Decimal | None
    splits: int
    hidden: bool
    placeholder: bool
    where: str
    anchor: str


def _tree_key(a: Account) -> tuple[str, ...]:
    return tuple(level.casefold() for level in a.full_name.split(":"))


def account_rows(ledger: Ledger) -> list[AccountRow]:
    """The chart as a tree table: parents before children, siblings by name."""
    counts = Counter(s.account for t in ledger.transactions for s in t.splits)
    return [
        AccountRow(
            full_name=a.full_name,
            name=a.name,
            depth=a.full_name.count(":"),
            type=a.type.value if a.type else "unknown",
            kind_label=a.kind_label,
            code=a.code,
            balance=a.balance,
            splits=counts[a.full_name],
            hidden=a.hidden,
            placeholder=a.placeholder,
            where=str(a.source),
            anchor=anchor(a.source),
        )
        for a in sorted(ledger.accounts, key=_tree_key)
    ]


# ---------------------------------------------------------------- problems and what is left out


@dataclass(frozen=True, slots=True)
class ProblemRow:
    severity: str
    where: str
    message: str
    link: str  # "" or a fragment/query the page turns into a link
    page: str  # "transactions" or "accounts" or ""


def problem_rows(
    problems: Sequence[Problem], ledger: Ledger, index: SearchIndex
) -> list[ProblemRow]:
    accounts = {str(a.source) for a in ledger.accounts}
    rows = []
    for p in problems:
        where = str(p.source) if p.source else ""
        if where and where in index.at:
            link, page = where, "transactions"
        elif where and where in accounts:
            link, page = anchor(p.source), "accounts"
        else:
            link, page = "", ""
        message = with_fix(p.message, p.fix, "wizard")
        rows.append(ProblemRow(p.severity, where, message, link, page))
    return rows


def not_imported(ledger: Ledger) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Grouped by list: (what, [(name, reason, file:line)])."""
    groups: dict[str, list[tuple[str, str, str]]] = {}
    for n in ledger.not_imported:
        groups.setdefault(n.what, []).append((n.name, n.reason, str(n.source)))
    return sorted(groups.items())


@dataclass(frozen=True, slots=True)
class LeftOut:
    """One list's entries that GnuCash gets nothing of: how many, and why (commonest first)."""

    what: str
    count: int
    reasons: tuple[str, ...]


def left_out(ledger: Ledger) -> list[LeftOut]:
    """The "not imported" summary every step and the CLI show, by list name."""
    groups: dict[str, Counter[str]] = {}
    for n in ledger.not_imported:
        groups.setdefault(n.what, Counter())[n.reason] += 1
    return [
        LeftOut(what, reasons.total(), tuple(r for r, _ in reasons.most_common()))
        for what, reasons in sorted(groups.items())
    ]


def counts(ledger: Ledger) -> list[tuple[str, int]]:
    return [
        ("Accounts", len(ledger.accounts)),
        ("Transactions", len(ledger.transactions)),
        ("Splits", sum(len(t.splits) for t in ledger.transactions)),
        ("Customers", len(ledger.customers)),
        ("Jobs", sum(len(c.jobs) for c in ledger.customers)),
        ("Vendors", len(ledger.vendors)),
        ("Employees", len(ledger.employees)),
        ("Terms", len(ledger.terms)),
    ]
