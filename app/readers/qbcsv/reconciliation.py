"""QuickBooks' Reconciliation Summary (Reports › Banking › Previous Reconciliation, Summary, as
CSV) → ``Statement`` (app/extras.py): per account, the statement date and ending balance.

Layout [QuickBooks Desktop's summary report, from its printed form; no public CSV export was
found, so the reader is driven by the row labels, not by positions]: title rows (company,
"Reconciliation Summary", ``<account>, Period Ending <date>``), then labelled rows, the label in
the leading columns and the amount in the last non-empty cell::

    Beginning Balance                                  71,452.58
        Cleared Transactions
            Checks and Payments - 21 items            -52,542.84
            Deposits and Credits - 9 items             30,563.09
        Total Cleared Transactions                    -21,979.75
    Cleared Balance                                    49,472.83
        Uncleared Transactions
            Checks and Payments - 12 items             -9,018.33
        Total Uncleared Transactions                   -9,018.33
    Register Balance as of 11/30/2023                  40,454.50
    ...
    Ending Balance                                     ...

(a card's report says "Charges and Cash Advances", "Payments and Credits"). The Cleared Balance is
the statement's ending balance; the items of the Uncleared Transactions section (up to the
statement date) are counted; none when the report has no such section and its register balance
equals the cleared one. One file may hold several accounts' reports, each from its own
"Period Ending" title. A report whose Beginning Balance and cleared total do not add up to its
Cleared Balance, or that lacks one, is refused at its line.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

from app.errors import ParseError
from app.extras import Statement
from app.model import FileInfo, Ledger, ReadOptions
from app.readers.private import quoted
from app.readers.qbcsv.header import all_rows, first_rows
from app.readers.values import parse_amount, parse_date
from app.source import Source

KIND = "CSV Reconciliation Summary"
SCAN = 10
_TITLE = re.compile(r"reconciliation summary|previous reconciliation", re.IGNORECASE)
_PERIOD = re.compile(r"^(?P<account>.+?),\s*period ending\s+(?P<date>\S+)\s*$", re.IGNORECASE)
_ITEMS = re.compile(r"-\s*(\d+)\s+items?\s*$", re.IGNORECASE)
AGAIN = "export the Reconciliation Summary again (Reports > Banking > Previous Reconciliation)"


def _norm(cell: str) -> str:
    return " ".join(cell.split()).casefold()


def identify(path: Path, options: ReadOptions) -> bool:
    """A "Reconciliation Summary" title and a "<account>, Period Ending <date>" one."""
    if options.columns:
        return False
    cells = [c.strip() for _, row in first_rows(path)[:SCAN] for c in row if c.strip()]
    return any(_TITLE.search(c) for c in cells) and any(_PERIOD.match(c) for c in cells)


def parse(path: Path, options: ReadOptions) -> Ledger:
    name = path.name
    rows, encoding = all_rows(path, SCAN)
    statements: list[Statement] = []
    block: list[tuple[int, list[str]]] = []
    head: tuple[int, str, dt.date] | None = None
    for line, cells in rows:
        title = next((m for c in cells if (m := _PERIOD.match(c.strip()))), None)
        if title:
            if head:
                statements.append(_statement(name, head, block))
            head = (line, title["account"].strip(), _date(name, line, title["date"], options))
            block = []
        elif head:
            block.append((line, cells))
    if head is None:
        raise ParseError(
            Source(name, 1), f"expected a title like 'Checking, Period Ending 12/31/2022'; {AGAIN}"
        )
    statements.append(_statement(name, head, block))
    info = FileInfo(
        filename=name,
        kind=KIND,
        layout="reconciliation",
        encoding=encoding,
        counts=(("Reconciliations", len(statements)),),
    )
    return Ledger(files=(info,), statements=tuple(statements))


def _date(name: str, line: int, text: str, options: ReadOptions) -> dt.date:
    try:
        day = parse_date(text, options.date_order or "mdy", options.pivot)
    except ValueError:
        day = None
    if day is None:
        raise ParseError(
            Source(name, line), f"the statement date {quoted(text)} is not a date; {AGAIN}"
        )
    return day


def _statement(
    name: str, head: tuple[int, str, dt.date], rows: list[tuple[int, list[str]]]
) -> Statement:
    line0, account, day = head
    found: dict[str, tuple[int, Decimal]] = {}
    section = ""
    uncleared = 0
    for line, cells in rows:
        label = next((c.strip() for c in cells if c.strip() and not _is_amount(c)), "")
        value = next(
            (a for c in reversed(cells) if c.strip() and (a := _amount(c)) is not None), None
        )
        key = _norm(label)
        if not key:
            continue
        if key in ("cleared transactions", "uncleared transactions", "new transactions"):
            section = key
        elif key.startswith("total "):
            section = ""
        elif section == "uncleared transactions" and (m := _ITEMS.search(label)):
            uncleared += int(m[1])
        if value is not None:
            word = "register balance" if key.startswith("register balance") else key
            found.setdefault(word, (line, value))
    where = Source(name, line0)
    if "cleared balance" not in found:
        raise ParseError(
            where, f"the report of {quoted(account)} has no Cleared Balance row; {AGAIN}"
        )
    line, cleared = found["cleared balance"]
    begin, total = found.get("beginning balance"), found.get("total cleared transactions")
    if begin and total and begin[1] + total[1] != cleared:
        raise ParseError(
            Source(name, line),
            f"{quoted(account)}: Beginning Balance {begin[1]:,.2f} and the cleared transactions "
            f"{total[1]:,.2f} do not add up to the Cleared Balance {cleared:,.2f}; {AGAIN}",
        )
    said = any(_norm(c) == "uncleared transactions" for _, cs in rows for c in cs)
    register = found.get("register balance")
    count = uncleared if said else 0 if register and register[1] == cleared else None
    return Statement(account, day, cleared, where, count, account)


def _is_amount(cell: str) -> bool:
    return _amount(cell) is not None


def _amount(cell: str) -> Decimal | None:
    try:
        return parse_amount(cell)
    except ValueError:
        return None
