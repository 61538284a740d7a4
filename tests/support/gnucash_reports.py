"""GnuCash's own reports, run on a book the way a bookkeeper would see them: ``gnucash-cli
--report run --name NAME`` (GnuCash's report engine, not ours), its HTML read back into figures.

``trial_balance`` gives each account's Debit or Credit figure by full account name, and the
report's two totals; the names come from the book file itself (the report shows leaf names and
links each row to its account's GUID), read without the bindings so that this check shares
nothing with the reader it checks."""

from __future__ import annotations

import gzip
import html
import os
import re
import sqlite3
import subprocess
import xml.etree.ElementTree as ET
from contextlib import closing
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

ZERO = Decimal(0)
_ROW = re.compile(r"<tr\b[^>]*>(.*?)</tr>", re.S)
_CELL = re.compile(r"<t[dh]\b([^>]*)>(.*?)</t[dh]>", re.S)
_GUID = re.compile(r"acct-guid=([0-9a-f]{32})")
_XML = {
    "gnc": "http://www.gnucash.org/XML/gnc",
    "act": "http://www.gnucash.org/XML/act",
}


@dataclass(frozen=True)
class TrialBalance:
    """GnuCash's Trial Balance report (its default options: balances at the end of the current
    year, each account's own splits, no closing entries)."""

    balances: dict[str, Decimal]  # full name → debit positive, credit negative; every row shown
    total_debit: Decimal
    total_credit: Decimal

    def nonzero(self) -> dict[str, Decimal]:
        return {name: value for name, value in self.balances.items() if value}


def run_report(book: Path, name: str, home: Path) -> str:
    """The HTML of GnuCash's report ``name`` on ``book`` (``home``: GnuCash's HOME, created)."""
    home.mkdir(parents=True, exist_ok=True)
    out = home / f"{book.stem}-{name.replace(' ', '-')}.html"
    done = subprocess.run(
        ["gnucash-cli", "--report", "run", "--name", name, "--output-file", str(out), str(book)],
        capture_output=True,
        text=True,
        env={**os.environ, "HOME": str(home)},
        timeout=300,
        check=False,
    )
    assert done.returncode == 0 and out.exists(), f"gnucash-cli {name}: {done.stderr}"
    return out.read_text(encoding="utf-8")


def amount(cell: str) -> Decimal | None:
    """A report cell's figure (``$1,234.56``, ``-$5.00``, ``($5.00)``), or None for a blank."""
    text = html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
    digits = re.sub(r"[^\d.]", "", text)
    if not digits:
        return None
    value = Decimal(digits)
    return -value if "-" in text or "(" in text else value


def totals(page: str) -> list[Decimal]:
    """The figures of the report's total cells, in order."""
    found = [amount(c) for a, c in _CELL.findall(page) if "total-number-cell" in a]
    return [v for v in found if v is not None]


def account_names(book: Path) -> dict[str, str]:
    """GUID → full account name (``:``-joined, the root left out), read from the file."""
    with book.open("rb") as f:
        sqlite = f.read(16) == b"SQLite format 3\0"
    rows: list[tuple[str, str, str | None, str]]
    if sqlite:
        # closing: a connection's own ``with`` commits but never closes (Python 3.13 warns)
        with closing(sqlite3.connect(f"file:{book}?mode=ro", uri=True)) as db:
            rows = db.execute(
                "SELECT guid, name, parent_guid, account_type FROM accounts"
            ).fetchall()
    else:
        with gzip.open(book) if _gzipped(book) else book.open("rb") as f:
            tree = ET.parse(f)
        rows = []
        for acc in tree.iter(f"{{{_XML['gnc']}}}account"):
            parent = acc.find("act:parent", _XML)
            rows.append(
                (
                    acc.findtext("act:id", "", _XML),
                    acc.findtext("act:name", "", _XML),
                    parent.text if parent is not None else None,
                    acc.findtext("act:type", "", _XML),
                )
            )
    by_guid = {guid: (name, parent, kind) for guid, name, parent, kind in rows}

    def full(guid: str) -> str:
        name, parent, _kind = by_guid[guid]
        if parent is None or by_guid[parent][2] == "ROOT":
            return name
        return f"{full(parent)}:{name}"

    return {guid: full(guid) for guid, (_n, _p, kind) in by_guid.items() if kind != "ROOT"}


def _gzipped(path: Path) -> bool:
    with path.open("rb") as f:
        return f.read(2) == b"\x1f\x8b"


def trial_balance(book: Path, home: Path) -> TrialBalance:
    """GnuCash's Trial Balance report on ``book``, read into figures."""
    page = run_report(book, "Trial Balance", home)
    names = account_names(book)
    balances: dict[str, Decimal] = {}
    for row in _ROW.findall(page):
        guid = _GUID.search(row)
        if guid is None:
            continue
        cells = [c for _a, c in _CELL.findall(row)]
        assert len(cells) == 3, row  # Account Name, Debit, Credit
        debit, credit = amount(cells[1]), amount(cells[2])
        assert debit is None or credit is None, row
        name = names[guid[1]]
        assert name not in balances, name
        balances[name] = debit if debit is not None else -(credit or ZERO)
    total = totals(page)
    assert len(total) == 2, total
    return TrialBalance(balances, total[0], total[1])


_OWNER = re.compile(r"owner=([cv]):([0-9a-f]{32})")
_NAMED = re.compile(r"(?:customer|vendor)=([0-9a-f]{32})#\">([^<]*)<")


@dataclass(frozen=True)
class Aging:
    """GnuCash's Receivable or Payable Aging report: each owner's Total column (its jobs'
    rows added to it) by owner name, and the report's grand total."""

    owners: dict[str, Decimal]
    total: Decimal


def aging(book: Path, report: str, home: Path) -> Aging:
    """``report``: "Receivable Aging" or "Payable Aging", read into figures."""
    page = run_report(book, report, home)
    owners = {name: cells[-1] for name, cells in _owner_rows(page).items()}
    total = totals(page)
    assert total, "no total row"
    return Aging(owners, total[-1])


def aging_columns(book: Path, report: str, home: Path) -> dict[str, tuple[Decimal, ...]]:
    """``report`` ("Receivable Aging" or "Payable Aging") as GnuCash prints it: each owner's
    Pre-Payment, Current, 0-30, 31-60, 61-90 and 91+ days columns (its jobs' rows added in)."""
    rows = _owner_rows(run_report(book, report, home))
    for cells in rows.values():
        assert sum(cells[:6]) == cells[6], cells  # the columns add up to the Total
    return {name: tuple(cells[:6]) for name, cells in rows.items()}


def _owner_rows(page: str) -> dict[str, list[Decimal]]:
    """An aging report's owners by name: their last seven cells (Pre-Payment to Total), the
    rows of one owner (its jobs) added up."""
    names: dict[str, str] = {}
    by_guid: dict[str, list[Decimal]] = {}
    for row in _ROW.findall(page):
        owner = _OWNER.search(row)
        if owner is None:
            continue
        guid = owner[2]
        if (named := _NAMED.search(row)) and named[1] == guid:
            names[guid] = html.unescape(named[2]).strip()
        cells = [amount(c) or ZERO for _a, c in _CELL.findall(row)[-7:]]
        into = by_guid.setdefault(guid, [ZERO] * 7)
        into[:] = [a + b for a, b in zip(into, cells, strict=True)]
    return {names[g]: v for g, v in by_guid.items()}
