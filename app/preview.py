"""View models for the wizard's pages: plain rows the templates loop over (no Flask here).

Templates never compute: trees come with their depth, transactions with their splits nested and
paginated, problems with the link to the row they are about.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from app.fixes import with_fix
from app.model import Account, FileInfo, Ledger, Problem, Source, Transaction
from app.readers.values import decode, parse_amount, parse_date

RECONCILE_WORDS = {"n": "", "c": "cleared", "y": "reconciled"}
_AT = re.compile(r"\s*(\S+):(\d+)\s*")


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

    def find(self, q: str) -> list[int]:
        q = q.strip().lower()
        if not q:
            return list(range(len(self.texts)))
        m = _AT.fullmatch(q)
        if m:
            for key, i in self.at.items():  # file:line, case-insensitive
                if key.lower() == q:
                    return [i]
        words = q.split()
        return [i for i, text in enumerate(self.texts) if all(w in text for w in words)]


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

    @property
    def first(self) -> int:
        return 0 if not self.groups else (self.page - 1) * PER_PAGE + 1


PER_PAGE = 50


def txn_page(
    index: SearchIndex,
    q: str = "",
    page: int = 1,
    per_page: int = PER_PAGE,
    chart: Collection[str] | None = None,
) -> TxnPage:
    """One page of the transactions matching ``q``; with ``chart``, split accounts outside it
    are flagged."""
    found = index.find(q)
    pages = max(1, -(-len(found) // per_page))
    page = min(max(1, page), pages)
    chosen = found[(page - 1) * per_page : page * per_page]
    groups = tuple(_group(index.transactions[i], chart) for i in chosen)
    return TxnPage(groups, q, page, pages, len(found), len(index.transactions))


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


# ---------------------------------------------------------------- files and problems


@dataclass(frozen=True, slots=True)
class FileCard:
    name: str
    kind: str
    size: int
    info: FileInfo
    problems: tuple[Problem, ...]
    read: bool
    needs_columns: bool  # a CSV no layout claims: offer the hand mapping

    @property
    def error_count(self) -> int:
        return sum(1 for p in self.problems if p.severity == "error")


def file_cards(paths: Sequence[Path], parsed: Ledger) -> list[FileCard]:
    infos = {f.filename: f for f in parsed.files}
    cards = []
    for p in paths:
        info = infos.get(p.name, FileInfo(p.name, "not read"))
        problems = tuple(x for x in parsed.problems if x.source and x.source.filename == p.name)
        read = info.kind != "not read"
        is_csv = p.suffix.lower() in (".csv", ".txt")
        cards.append(
            FileCard(
                p.name,
                info.kind,
                p.stat().st_size,
                info,
                problems,
                read,
                needs_columns=is_csv and (not read or "by hand" in info.kind),
            )
        )
    return cards


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


# ---------------------------------------------------------------- hand-mapped CSV columns

COLUMN_ROLES = (
    ("ref", "Trans #", "groups the lines of one transaction"),
    ("kind", "Type", "Check, Invoice, ..."),
    ("date", "Date", "required"),
    ("num", "Num", "check or invoice number"),
    ("name", "Name", "customer, vendor, payee"),
    ("memo", "Memo", ""),
    ("account", "Account", "required"),
    ("mark", "Clr", "cleared mark"),
    ("amount", "Amount", "signed; or Debit and Credit"),
    ("debit", "Debit", ""),
    ("credit", "Credit", ""),
)
SAMPLE_ROWS = 8


@dataclass(frozen=True, slots=True)
class ColumnSample:
    header_line: int
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]  # cells as found
    parsed: tuple[tuple[tuple[str, str, bool], ...], ...]  # per row: (role label, value, ok)
    complaint: str


def column_sample(path: Path, columns: dict[str, str], date_order: str = "") -> ColumnSample:
    """The first rows of a CSV with the chosen columns read as the reader will: live feedback
    while the user maps them. The header is the first row with at least three filled cells."""
    text, _ = decode(path.read_bytes()[: 256 * 1024])
    lines = text.splitlines()[:400]
    dialect = (
        "\t"
        if sum(ln.count("\t") for ln in lines[:20]) > sum(ln.count(",") for ln in lines[:20])
        else ","
    )
    rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=dialect))
    start = next((i for i, r in enumerate(rows[:30]) if sum(1 for c in r if c.strip()) >= 3), 0)
    headers = tuple(c.strip() for c in rows[start]) if rows else ()
    body = [r for r in rows[start + 1 :] if any(c.strip() for c in r)][:SAMPLE_ROWS]
    position = {h: i for i, h in reversed(list(enumerate(headers)))}
    labels = {role: label for role, label, _ in COLUMN_ROLES}
    parsed = []
    for r in body:
        cells = []
        for role, header in columns.items():
            i = position.get(header)
            raw = r[i].strip() if i is not None and i < len(r) else ""
            cells.append((labels.get(role, role), *_read(role, raw, date_order)))
        parsed.append(tuple(cells))
    missing = [labels[r] for r in ("date", "account") if r not in columns]
    if "amount" not in columns and not {"debit", "credit"} <= columns.keys():
        missing.append("Amount (or Debit and Credit)")
    complaint = ("Still to choose: " + ", ".join(missing)) if missing else ""
    return ColumnSample(start + 1, headers, tuple(tuple(r) for r in body), tuple(parsed), complaint)


def _read(role: str, raw: str, date_order: str) -> tuple[str, bool]:
    try:
        if role == "date":
            d = parse_date(raw, date_order or "mdy")
            return (d.isoformat() if d else "(empty)", d is not None)
        if role in ("amount", "debit", "credit"):
            v = parse_amount(raw)
            return ("" if v is None else f"{v:,.2f}", v is not None or role != "amount")
    except ValueError as exc:
        return (str(exc), False)
    return (raw, True)
