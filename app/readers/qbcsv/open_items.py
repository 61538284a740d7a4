"""QuickBooks' Open Invoices and Unpaid Bills Detail reports (CSV): the open items at a date.

Recognised from content: a header row with Type, Date and Open Balance and no Account column
(the transaction reports all have one). Rows: title rows, a header row per customer / vendor
(its name alone in a leading column), detail rows, "Total ..." rows and a TOTAL row. QuickBooks
prints a customer's jobs as groups inside the customer's group, one leading column further in
(``Cook, Brian`` then ``,Kitchen``, closed by ``,Total Kitchen``): the groups open at a row
make up the owner, ``Cook, Brian:Kitchen``. The owner of a detail row is its Name cell when the
report has that column (a job's full name; a job's bare name inside its customer's group is
completed from the group), else the groups it sits in. Trans # (when shown) joins a row to the
transaction history. Every item keeps file:line.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import Literal

from app.business import OpenItem
from app.errors import ParseError
from app.model import FileInfo, Ledger, Problem, ReadOptions
from app.quickbooks import is_document_word
from app.readers.date_orders import refuted
from app.readers.private import quoted
from app.readers.qbcsv.header import delimiter_of, first_rows
from app.readers.qbcsv.trial_balance import title_date
from app.readers.values import clean, date_order, decode, parse_amount, parse_date
from app.source import Source

_NEEDED = ("Type", "Date", "Open Balance")
# an Unpaid Bills report's title (Reckon's is "Open AP")
_PAYABLE = re.compile(r"bill|payable|\bA/?P\b", re.IGNORECASE).search
_VENDOR_TYPES = frozenset({"BILL", "CREDIT", "BILL CREDIT", "BILL REFUND", "ITEM RECEIPT"})
_CUSTOMER_TYPES = frozenset(
    {"INVOICE", "TAX INVOICE", "CREDIT MEMO", "ADJUSTMENT NOTE", "PAYMENT", "STATEMENT CHARGE"}
)


def _header(rows: list[tuple[int, list[str]]]) -> tuple[int, dict[str, int]] | None:
    for line, cells in rows:
        names = {clean(c): i for i, c in enumerate(cells) if clean(c)}
        if all(n in names for n in _NEEDED) and "Account" not in names:
            return line, names
    return None


def identify(path: Path, options: ReadOptions) -> bool:
    rows = first_rows(path)
    return bool(rows) and _header(rows) is not None


def parse(path: Path, options: ReadOptions) -> Ledger:
    name = path.name
    text, encoding = decode(path.read_bytes())
    text = text.lstrip("\ufeff")
    lines = text.splitlines(keepends=True)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter_of(lines[:30]))
    rows = [(reader.line_num, row) for row in reader]
    found = _header(rows[:40])
    if found is None:
        raise ParseError(Source(name, 1), "no header row with Type, Date and Open Balance")
    at, col = found
    file_kind = _side(rows[: at - 1])
    i = col["Date"]
    samples = ((cells[i], Source(name, line)) for line, cells in rows[at:] if i < len(cells))
    dates_found = date_order(samples, options.date_order)
    items: list[OpenItem] = []
    problems = [p for p in (refuted(dates_found, options.date_order),) if p is not None]
    lead = min(col.values())  # the cells before the first named column hold the groups

    def cell(cells: list[str], key: str) -> str:
        i = col.get(key)
        return clean(cells[i]) if i is not None and i < len(cells) else ""

    total: tuple[int, str] | None = None  # the TOTAL row: (line, its Open Balance)
    groups = _Groups(_kind(file_kind))  # and each one's "Total <name>" row checked
    for line, cells in rows[at:]:
        kind, date_text = cell(cells, "Type"), cell(cells, "Date")
        if not kind and not date_text:
            if cells and clean(cells[0]) == "TOTAL" and cell(cells, "Open Balance"):
                total = (line, cell(cells, "Open Balance"))  # (not a customer named Total)
            elif len(cells) > 1:
                said = (Source(name, line), cell(cells, "Open Balance"))  # (its Total's)
                groups.row(cells[: max(lead, 1)], said, items, len(problems))
            continue
        src = Source(name, line)
        try:
            date = parse_date(date_text, dates_found.order, options.pivot)
            amount = parse_amount(cell(cells, "Open Balance"))
            due_text = cell(cells, "Due Date")
            due = parse_date(due_text, dates_found.order, options.pivot) if due_text else None
            aging = _days(cell(cells, "Aging"))
        except ValueError as exc:
            problems.append(Problem(src, f"{exc}; this open item is not read"))
            continue
        owner = _owner(cell(cells, "Name"), groups.open)
        if date is None or amount is None or not owner:
            what = "date" if date is None else "Open Balance" if amount is None else "owner name"
            problems.append(Problem(src, f"open item without a {what}: not read"))
            continue
        word = kind.upper()
        owner_kind: Literal["customer", "vendor"] = (
            "vendor"
            if word in _VENDOR_TYPES or word.startswith("BILL PMT")
            else "customer"
            if word in _CUSTOMER_TYPES
            else file_kind
        )
        ref = cell(cells, "Trans #").replace(",", "")
        items.append(
            OpenItem(
                owner_kind,
                owner,
                kind,
                date,
                amount,
                src,
                cell(cells, "Num"),
                ref,
                due,
                cell(cells, "Terms"),
                aging,
            )
        )
    problems += [*groups.found, *_total_problem(name, file_kind, total, items, bool(problems))]
    info = _dated(
        _info(name, file_kind, encoding, dates_found, items),
        rows[: at - 1],
        replace(options, date_order=dates_found.order),
    )
    return Ledger(open_items=tuple(items), problems=tuple(problems), files=(info,))


def _dated(info: FileInfo, titles: list[tuple[int, list[str]]], options: ReadOptions) -> FileInfo:
    """``info`` with the day its title says the items are open on (``FileInfo.titled``;
    ``as_of_said.other_days``: another day's than the figures', said)."""
    try:
        day, _ = title_date(info.filename, titles, options)
    except ParseError:
        return info  # (no real date: nothing to compare)
    return replace(info, titled=(day, day)) if day is not None else info


def _side(titles: list[tuple[int, list[str]]]) -> Literal["customer", "vendor"]:
    """Whose report it is, by its title rows."""
    said = " ".join(clean(c) for _, cells in titles for c in cells)
    return "vendor" if _PAYABLE(said) else "customer"


def _kind(file_kind: str) -> str:
    return "Unpaid Bills" if file_kind == "vendor" else "Open Invoices"


def _info(name: str, file_kind: str, encoding: str, dates_found, items: list[OpenItem]) -> FileInfo:
    dates = [i.date for i in items]
    # what the Preview counts as open documents (the one rule: is_document_word), the rest apart
    paid = sum(1 for i in items if not is_document_word(i.kind_label))
    documents = "Unpaid bills and credits" if file_kind == "vendor" else "Open invoices and credits"
    return FileInfo(
        name,
        f"CSV {_kind(file_kind)}",
        "unpaid bills" if file_kind == "vendor" else "open invoices",
        encoding=encoding,
        date_order=dates_found.order if items and dates_found.slashed else "",  # (or ISO alone)
        date_order_ambiguous=dates_found.unsure,
        counts=((documents, len(items) - paid), ("Payments not yet applied", paid)),
        first_date=min(dates, default=None),
        last_date=max(dates, default=None),
    )


def _days(text: str) -> int | None:
    """The Aging cell: whole days past due ("45", "1,204"); blank when not yet due."""
    digits = text.replace(",", "").strip()
    if not digits:
        return None
    if not digits.lstrip("-").isdigit():
        raise ValueError(f"Aging {quoted(text)} is not a number of days")
    return int(digits)


def _grouped(groups: list[tuple[int, str]], lead: list[str]) -> list[tuple[int, str]]:
    """The groups open after a row whose leading cells are ``lead``: "Total <name>" closes the
    group open at its column (and any further in), "TOTAL" all of them; any other text opens a
    group at its column (a name that merely starts with "Total" too)."""
    at, text = next(((i, clean(c)) for i, c in enumerate(lead) if clean(c)), (-1, ""))
    if not text:
        return groups
    if text == "TOTAL":
        return []
    inner = [g for g in groups if g[0] < at]
    closed = groups[len(inner) : len(inner) + 1]
    if closed and text == f"Total {closed[0][1]}":
        return inner
    return [*inner, (at, text)]


def _owner(name: str, groups: list[tuple[int, str]]) -> str:
    """A detail row's owner: its Name cell, else the groups it sits in joined with ":" (a
    customer's job: ``Customer:Job``); a bare job name in its customer's group is completed."""
    path = ":".join(n for _col, n in groups)
    if not name:
        return path
    if ":" not in name and len(groups) > 1 and groups[-1][1] == name:
        return path
    return name


@dataclass(slots=True)
class _Groups:
    """The groups open at a row (``open``: (leading column, name), outermost first), and each
    customer's (job's, vendor's) "Total <name>" row against the sum of its rows (``found``):
    two rows edited so that the report's TOTAL still holds (hunt 19) are found at their groups.
    ``opened``: each group open → (items, problems) read before it."""

    report: str
    open: list[tuple[int, str]] = field(default_factory=list)
    opened: dict[tuple[int, str], tuple[int, int]] = field(default_factory=dict)
    found: list[Problem] = field(default_factory=list)

    def row(
        self, lead: list[str], said: tuple[Source, str], items: list[OpenItem], problems: int
    ) -> None:
        """A row of no item: its leading cells ``lead``, ``said`` its line and Open Balance."""
        before, self.open = self.open, _grouped(self.open, lead)
        self.opened.update({g: (len(items), problems) for g in self.open if g not in before})
        src, text = said
        if len(self.open) >= len(before) or not text:
            return
        group = before[len(self.open)]  # the group its "Total <name>" row closes
        first, errors = self.opened.pop(group, (0, 0))
        try:
            total = parse_amount(text)
        except ValueError:
            return
        got = sum((i.open for i in items[first:]), Decimal(0))
        if total is None or total == got or errors != problems:  # (or rows not read)
            return
        self.found.append(
            Problem(
                src,
                f"the {self.report} report's row {quoted(f'Total {group[1]}')} says "
                f"{total:,.2f}, but the {len(items) - first:,} rows of {quoted(group[1])} above "
                f"it sum to {got:,.2f} (difference {got - total:,.2f}): a row is missing, added "
                "or edited; export the report again from QuickBooks and give it unedited",
                "warning",
            )
        )


def _total_problem(
    name: str, file_kind: str, total: tuple[int, str] | None, items: list[OpenItem], unread: bool
) -> list[Problem]:
    """The report's TOTAL row against the sum of the rows read: a row missing, added or edited
    (a warning at its line: the proof compares each owner and document with the rows as they
    are, and would show a total the report does not print). Not when rows were not read."""
    if total is None or unread:
        return []
    line, text = total
    try:
        said = parse_amount(text)
    except ValueError:
        return []
    got = sum((i.open for i in items), Decimal(0))
    if said is None or said == got:
        return []
    return [
        Problem(
            Source(name, line),
            f"the {_kind(file_kind)} report's TOTAL row says {said:,.2f}, but its "
            f"{len(items):,} rows sum to {got:,.2f} (difference {got - said:,.2f}): a row is "
            "missing, added or edited; export the report again from QuickBooks and give it "
            "unedited",
            "warning",
        )
    ]
