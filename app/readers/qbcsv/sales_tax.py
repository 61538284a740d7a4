"""QuickBooks' Sales Tax Liability report (Reports > Vendors & Payables) as CSV → the tax still
owed per agency and per sales tax item on the report's date.

Recognised from content: a header row with a column whose title starts with "Sales Tax
Payable" (QuickBooks writes the date into it: ``Sales Tax Payable As of Dec 31, 21``), next to
"Tax Collected" or "Tax Rate", and no Date column. Rows: title rows, a header row per agency
(its name alone in the leading columns), a row per sales tax item (the item's name in a deeper
leading column, its figures to the right), "Total <agency>" rows and a TOTAL row; "Multiple
taxes" rows (a group's sales counted once per member) carry no tax and are skipped. Every row
keeps file:line; the agency totals are what the proof compares with the book.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal
from pathlib import Path

from app.errors import ParseError
from app.items import TaxLiability
from app.model import FileInfo, Ledger, Problem, ReadOptions
from app.readers.qbcsv.header import delimiter_of, first_rows
from app.readers.qbcsv.trial_balance import _DATES, _read_date
from app.readers.values import clean, decode, parse_amount
from app.source import Source

KIND = "CSV Sales Tax Liability"
PAYABLE = "sales tax payable"


def _header(rows: list[tuple[int, list[str]]]) -> tuple[int, list[str]] | None:
    for line, cells in rows:
        low = [clean(c).lower() for c in cells]
        payable = any(c.startswith(PAYABLE) for c in low)
        if payable and ({"tax collected", "tax rate"} & set(low)) and "date" not in low:
            return line, cells
    return None


def identify(path: Path, options: ReadOptions) -> bool:
    rows = first_rows(path)
    return bool(rows) and _header(rows) is not None


def parse(path: Path, options: ReadOptions) -> Ledger:
    name = path.name
    text, encoding = decode(path.read_bytes())
    text = text.lstrip("\ufeff")
    reader = csv.reader(
        io.StringIO(text, newline=""), delimiter=delimiter_of(text.splitlines()[:30])
    )
    rows = [(reader.line_num, row) for row in reader]
    found = _header(rows[:40])
    if found is None:
        raise ParseError(Source(name, 1), "no header row with a Sales Tax Payable column")
    at, head = found
    low = [clean(c).lower() for c in head]
    payable = next(i for i, c in enumerate(low) if c.startswith(PAYABLE))
    collected = low.index("tax collected") if "tax collected" in low else None
    rate = low.index("tax rate") if "tax rate" in low else None
    lead = next(i for i, c in enumerate(low) if c)  # the leading unnamed columns hold labels
    as_of, where = _as_of(name, [(at, [head[payable]]), *rows[: at - 1]], options)
    problems: list[Problem] = []
    out: list[TaxLiability] = []
    agency = ""
    for line, cells in rows[at:]:
        labels = [(i, clean(c)) for i, c in enumerate(cells[:lead]) if clean(c)]
        if not labels:
            continue
        depth, label = labels[0]
        src = Source(name, line)
        if label == "TOTAL" or label.startswith("Multiple taxes"):
            continue
        at_ = (payable, collected, rate)
        figures = [clean(cells[i]) if i is not None and i < len(cells) else "" for i in at_]
        if not any(figures[:2]):
            if depth == 0:
                agency = label  # an agency's header row
            continue
        try:
            owed = parse_amount(figures[0]) or Decimal(0)
            got = parse_amount(figures[1]) if collected is not None else None
            percent = parse_amount(figures[2]) if rate is not None else None
        except ValueError as exc:
            problems.append(Problem(src, f"{exc}; row not read"))
            continue
        if label.startswith("Total "):
            out.append(TaxLiability(label[6:], "", owed, src, as_of, got, None))
        elif depth == 0:
            out.append(TaxLiability(label, "", owed, src, as_of, got, None))
        else:
            out.append(TaxLiability(agency, label, owed, src, as_of, got, percent))
    if not out:
        problems.append(Problem(Source(name, at), "no agency or sales tax item rows", "warning"))
    info = FileInfo(
        filename=name,
        kind=KIND,
        layout="sales tax liability",
        encoding=encoding,
        counts=(
            ("Tax agencies", len({r.agency for r in out})),
            ("Sales tax items", sum(1 for r in out if r.item)),
        ),
        exported_on=as_of,
        exported_at=where,
    )
    return Ledger(tax_liability=tuple(out), problems=tuple(problems), files=(info,))


def _as_of(
    name: str, rows: list[tuple[int, list[str]]], options: ReadOptions
) -> tuple[dt.date | None, Source | None]:
    """The report's date: in the Sales Tax Payable column's title, else in a title row."""
    for line, cells in rows:
        m = next((m for c in cells for m in _DATES.finditer(c)), None)
        if m is not None:
            where = Source(name, line)
            return _read_date(where, m, options), where
    return None, None


def by_agency(rows: tuple[TaxLiability, ...]) -> dict[str, Decimal]:
    """Agency → the tax the report says is owed: its Total row, else the sum of its items."""
    totals = {r.agency: r.payable for r in rows if not r.item}
    items: dict[str, Decimal] = {}
    for r in rows:
        if r.item:
            items[r.agency] = items.get(r.agency, Decimal(0)) + r.payable
    return {**items, **totals}
