"""The Preview step's view models: plain rows the templates loop over (no Flask here).

Templates never compute: trees come with their depth, transactions with their splits nested and
paginated (the problems, each linked to the row it is about: ``app.pages.problems``).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from decimal import Decimal

from app.gc_pause import paused
from app.model import Ledger, Transaction
from app.quickbooks import kind_name
from app.readers.values import full_year
from app.source import Source

RECONCILE_WORDS = {"n": "", "c": "cleared", "y": "reconciled"}
_AT = re.compile(r"\s*(\S+):(\d+)\s*")
_WRITTEN_DATE = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})")  # 2/1/2024, 02/01/24
_WRITTEN_MONTH = re.compile(r"(\d{1,2})/(\d{4})")  # 2/2024
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?:\D|$))")  # 2,596.71 as shown → 2596.71
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")  # 2024-02-01, 2024-2-1


def anchor(source: Source | None) -> str:
    """The HTML id of the row a source line produced."""
    if source is None:
        return ""
    return "src-" + re.sub(r"[^A-Za-z0-9_-]", "_", source.filename) + f"-{source.line}"


# ---------------------------------------------------------------- sortable columns


@dataclass(frozen=True, slots=True)
class Column:
    """A table's column head: its label, and for a sortable one the ``?sort=`` a click asks for
    (the other direction when the table is sorted by it) and how the table is sorted by it now
    (``aria-sort``: "ascending", "descending" or "none")."""

    label: str
    key: str = ""  # "" = not sortable
    num: bool = False
    sort: str = ""
    state: str = "none"


def columns(spec: Sequence[tuple[str, str, bool]], current: str, default: str = "") -> list[Column]:
    """The heads of a table sorted by ``current`` ("key" or "-key"; "" is ``default``)."""
    current = current or default
    out = []
    for label, key, num in spec:
        if not key:
            out.append(Column(label, num=num))
            continue
        state = "ascending" if current == key else "descending" if current == f"-{key}" else "none"
        out.append(Column(label, key, num, f"-{key}" if state == "ascending" else key, state))
    return out


# ---------------------------------------------------------------- transactions

TXN_SORTS = ("date", "num", "description", "amount")
TXN_COLUMNS = (  # (label, sort key, right-aligned)
    ("Date", "date", False),
    ("Num", "num", False),
    ("Description / account", "description", False),
    ("Memo", "", False),
    ("Debit", "amount", True),  # (sorted by the transaction's amount: its debits)
    ("Credit", "", True),
    ("Cleared", "", False),
    ("Where", "", False),
)


def folded(text: str) -> str:
    """``text`` as the search compares it: lower case, accents off ("Café Olé" → "cafe ole"),
    so a search typed without them finds the names QuickBooks has with them."""
    text = text.lower()
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


class SearchIndex:
    """Server-side search over transactions: one lower-case text per transaction, built once per
    parsed result (the Store caches it), so a search over 100,000 is one pass of ``in`` tests."""

    def __init__(self, transactions: Sequence[Transaction]) -> None:
        self.transactions = transactions
        # sort key → (the indices in that order, each index's place in it), made when asked
        self._orders: dict[str, tuple[list[int], list[int]]] = {}
        self.texts: list[str] = []
        self.at: dict[str, int] = {}  # "file:line" → transaction index
        for i, t in enumerate(transactions):
            self.at.setdefault(str(t.source), i)
            parts = [t.date.isoformat(), t.num, t.description, t.ref, t.kind_label]
            for s in t.splits:
                self.at.setdefault(str(s.source), i)
                parts += (s.account, s.memo, f"{s.value:.2f}", f"{abs(s.value):.2f}")
            self.texts.append(folded("\n".join(parts)))

    def find(self, q: str, date_orders: Collection[str] = ("mdy",)) -> list[int]:
        """The transactions whose text holds every word of ``q``. A date is found as the page
        shows it (2024-02-01) and as QuickBooks writes it (2/1/2024, 02/01/24: read in the
        files' ``date_orders``, "mdy" and/or "dmy"); a month as 2024-02 or 2/2024."""
        q = folded(q.strip())
        if not q:
            return list(range(len(self.texts)))
        m = _AT.fullmatch(q)
        if m:
            for key, i in self.at.items():  # file:line, case-insensitive
                if key.lower() == q:
                    return [i]
        words = [_date_words(_THOUSANDS.sub("", w), date_orders) for w in q.split()]
        return [
            i
            for i, text in enumerate(self.texts)
            if all(any(alt in text for alt in alts) for alts in words)
        ]

    def ordered(self, found: list[int], sort: str) -> list[int]:
        """``found`` in the order ``sort`` asks ("date", "-amount"...; anything else: as in the
        files). Each key's ranking is worked out once per index (100,000 transactions: one
        sort), a request only orders its matches by it."""
        key = sort.removeprefix("-")
        if key not in TXN_SORTS:
            return found
        if key not in self._orders:
            # a key per transaction held at once: on Python 3.13 a Decimal (the amount) is an
            # object the cyclic collector tracks, so 100,000 of them set it off, and its first
            # passes after a parse walk every object of the ledgers (0.7-1.0 s at 100k); the
            # keys are acyclic and gone after the sort (see gc_pause)
            with paused():
                order = sorted(range(len(self.transactions)), key=_TXN_KEYS[key](self.transactions))
            rank = [0] * len(order)
            for position, i in enumerate(order):
                rank[i] = position
            self._orders[key] = (order, rank)
        order, rank = self._orders[key]
        out = list(order) if len(found) == len(order) else sorted(found, key=rank.__getitem__)
        return out[::-1] if sort.startswith("-") else out


def natural(text: str) -> tuple[int, int, str]:
    """Numbers by their value (9 before 10), then the rest by text."""
    digits = text.strip()
    return (0, int(digits), "") if digits.isdigit() else (1, 0, digits.casefold())


def _txn_total(t: Transaction) -> Decimal:
    return sum((s.value for s in t.splits if s.value > 0), Decimal(0))


_TXN_KEYS = {  # key → (transactions → the sort key of an index)
    "date": lambda ts: lambda i: ts[i].date,
    "num": lambda ts: lambda i: natural(ts[i].num),
    "description": lambda ts: lambda i: ts[i].description.casefold(),
    "amount": lambda ts: lambda i: _txn_total(ts[i]),
}


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
    sort: str = ""  # "" (as in the files) or one of TXN_SORTS, "-" before it for descending
    columns: tuple[Column, ...] = ()

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
    sort: str = "",
) -> TxnPage:
    """One page of the transactions matching ``q`` (dates as QuickBooks writes them read in
    ``date_orders``), in the order ``sort`` asks; with ``chart``, split accounts outside it are
    flagged."""
    sort = sort if sort.removeprefix("-") in TXN_SORTS else ""
    found = index.ordered(index.find(q, date_orders), sort)
    pages = max(1, -(-len(found) // per_page))
    page = min(max(1, page), pages)
    chosen = found[(page - 1) * per_page : page * per_page]
    groups = tuple(_group(index.transactions[i], chart) for i in chosen)
    heads = tuple(columns(TXN_COLUMNS, sort))
    return TxnPage(
        groups, q, page, pages, len(found), len(index.transactions), per_page, sort, heads
    )


def _group(t: Transaction, chart: Collection[str] | None) -> TxnGroup:
    return TxnGroup(
        date=t.date,
        num=t.num,
        description=t.description,
        kind=kind_name(t.kind_label),
        ref=t.ref,
        voided=t.voided,
        where=str(t.source),
        anchor=anchor(t.source),
        total=_txn_total(t),
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


# ---------------------------------------------------------------- what is left out


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
