"""Finding a QuickBooks CSV report's header row and telling its layout (used by the qbcsv reader).

A header row has Date plus Account, Trans # or Split; its column set decides the layout (see
``layout_of``). ``ReadOptions.columns`` maps columns by hand instead (layout "hand").
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path

from app.errors import ParseError
from app.model import ReadOptions
from app.readers.values import decode, is_binary, unreadable
from app.source import Source

HEADER_SCAN = 15  # rows searched for the header row

# Header words (lower case, single spaces) → column role.
ROLES = {
    "trans #": "ref",
    "trans. #": "ref",
    "trans no": "ref",
    "trans no.": "ref",
    "trans num": "ref",
    "transaction #": "ref",
    "type": "kind",
    "trans type": "kind",
    "transaction type": "kind",
    "date": "date",
    "num": "num",
    "no.": "num",
    "number": "num",
    "name": "name",
    "payee": "name",
    "memo": "memo",
    "description": "memo",
    "memo/description": "memo",
    "account": "account",
    "account name": "account",
    "clr": "mark",
    "cleared": "mark",
    "split": "split",
    "debit": "debit",
    "credit": "credit",
    "amount": "amount",
    "balance": "balance",
    "account type": "account_type",
    # the item columns a user may add to a Custom Transaction Detail or General Ledger report
    # (never required): read into Split.item by app/readers/qbcsv/items.py
    "item": "item",
    "qty": "qty",
    "quantity": "qty",
    "sales price": "price",
    "rate": "price",
    "price": "price",
    "unit price": "price",
    "tax code": "tax_code",
    "sales tax code": "tax_code",
    "tax amount": "tax_amount",
    "tax amt": "tax_amount",
    "gst": "tax_amount",
    "gst amount": "tax_amount",
    "vat amount": "tax_amount",
    # the Class column a user may add (never required): Split.klass (app/classes.py)
    "class": "class",
}
ROW_ROLES = ("ref", "kind", "date", "num", "name", "memo", "account", "mark", "split")
VALUE_ROLES = ("amount", "debit", "credit", "balance", "account_type")
ITEM_ROLES = ("item", "qty", "price", "tax_code", "tax_amount")
CLASS_ROLE = "class"


class Header:
    """The header row: its line, column roles → indexes, leading unnamed columns, layout."""

    def __init__(self, index: int, line: int, cells: list[str], roles: dict[str, int]) -> None:
        self.index = index  # row number (0-based) among the file's rows
        self.line = line
        self.cells = cells
        self.roles = roles
        named = [i for i, c in enumerate(cells) if c.strip()]
        self.lead = named[0] if named else 0
        self.layout = layout_of(roles)


def layout_of(roles: dict[str, int]) -> str | None:
    """The layout a column set belongs to, or None when no layout claims it."""
    has = roles.__contains__
    money = has("amount") or (has("debit") and has("credit"))
    if not has("date") or not money:
        return None
    if has("account"):
        journal = (
            has("debit")
            and has("credit")
            and not any(has(r) for r in ("split", "balance", "mark", "amount"))
        )
        if journal:
            return "journal"
        if has("ref"):
            return "detail"
        if has("balance"):  # no Trans #: grouped by the running balance either way
            return "find" if has("amount") and not has("debit") else "detail"
        return None
    if has("split"):
        return "ledger"
    return None


def roles_of(cells: list[str]) -> dict[str, int]:
    roles: dict[str, int] = {}
    for i, cell in enumerate(cells):
        role = ROLES.get(" ".join(cell.split()).lower())
        if role and role not in roles:
            roles[role] = i
    return roles


def mapped_roles(cells: list[str], columns: tuple[tuple[str, str], ...]) -> dict[str, int] | None:
    """Roles from a hand mapping (role → header text), or None when a header is missing."""
    where = {" ".join(c.split()).lower(): i for i, c in reversed(list(enumerate(cells)))}
    roles = {}
    for role, name in columns:
        i = where.get(" ".join(name.split()).lower())
        if i is None:
            return None
        roles[role] = i
    return roles


def find_header(rows: list[tuple[int, list[str]]], options: ReadOptions) -> Header | None:
    """The header row among the first rows: hand-mapped headers when given, else the first row
    with Date and Account / Trans # / Split whose column set a layout claims."""
    for index, (line, cells) in enumerate(rows[:HEADER_SCAN]):
        if options.columns:
            roles = mapped_roles(cells, options.columns)
            if roles is not None:
                header = Header(index, line, cells, roles)
                header.layout = "hand"
                return header
            continue
        roles = roles_of(cells)
        if "date" in roles and ({"account", "ref", "split"} & roles.keys()):
            header = Header(index, line, cells, roles)
            if header.layout:
                return header
    return None


def head_text(path: Path, size: int = 65536) -> str | None:
    try:
        with path.open("rb") as f:
            data = f.read(size)
    except OSError:
        return None
    if is_binary(data):
        return None
    text, _ = decode(data)
    return text.lstrip("\ufeff")


def first_rows(path: Path) -> list[tuple[int, list[str]]]:
    """The first rows of a file that could be a CSV report (what every CSV reader's ``identify``
    looks at); [] for an unreadable or binary file and for IIF (first line ``!…``)."""
    text = head_text(path)
    if not text or text.lstrip().startswith("!"):
        return []
    return sample_rows(text)


def sample_rows(text: str) -> list[tuple[int, list[str]]]:
    lines = text.splitlines(keepends=True)[: HEADER_SCAN + 2]
    reader = csv.reader(
        lines[:-1] if len(lines) > HEADER_SCAN else lines, delimiter=delimiter_of(lines)
    )
    try:
        return [(reader.line_num, row) for row in reader]
    except csv.Error:
        return []


def delimiter_of(lines: list[str]) -> str:
    """Comma, unless the lines are plainly tab-delimited (QuickBooks' Print → File), or split
    into more columns by semicolons (a spreadsheet's export where the comma is the decimal
    mark: ``01.02.2024;Checking;-25,00``)."""
    tabs = sum(line.count("\t") for line in lines)
    found = "\t" if tabs > sum(line.count(",") for line in lines) else ","
    if any(";" in line for line in lines) and _width(lines, ";") > _width(lines, found):
        return ";"
    return found


def _width(lines: list[str], delimiter: str) -> int:
    """The most common number of cells of a row that has more than one (title rows have one),
    the larger on a tie; 0 when no row has more than one."""
    try:
        widths = Counter(len(r) for r in csv.reader(lines, delimiter=delimiter) if len(r) > 1)
    except csv.Error:
        return 0
    return max(widths, key=lambda w: (widths[w], w), default=0)


def all_rows(path: Path, scan: int = HEADER_SCAN) -> tuple[list[tuple[int, list[str]]], str]:
    """Every row of a small CSV report with its line, and the encoding: decoded like every
    report (``values.decode``), the delimiter told from the first ``scan`` lines; ParseError
    for a file the csv module cannot split."""
    text, encoding = decode(path.read_bytes())
    text = text.lstrip("\ufeff")
    lines = text.splitlines(keepends=True)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter_of(lines[:scan]))
    try:
        return [(reader.line_num, row) for row in reader], encoding
    except csv.Error as exc:
        where = Source(path.name, reader.line_num)
        raise ParseError(where, unreadable(exc)) from None


def widths(
    width: int, shifted: list[int], fewer: list[int], rows: int
) -> list[tuple[int, str, str]]:
    """(line, message, severity) for the rows of another width than their header's
    (``width``): ``shifted``, with text past its last column, are not read (an error: a cell
    holding a comma without quotes, or a column added); ``fewer``, of fewer cells, are read,
    said once (a cell removed by hand moves the cells after it; hunt 20: only "does not
    balance" was said, at the transaction's lines): a line is negative where the row's last
    cell is filled. Many short rows (more than 5, a quarter of the ``rows`` or more), every one
    ending in a filled cell, are a program's that leaves trailing empty cells off (hunt 25: 422
    rows warned): not said; a few edited by hand are (hunt 26: six hid the warning)."""
    if len(fewer) > 5 and len(fewer) * 4 >= rows and all(n < 0 for n in fewer):
        fewer = []
    fewer = [abs(n) for n in fewer]
    out = []
    if shifted:
        out.append((shifted[0], f"{_rows(shifted)} text past the last of the {width} columns "
                    "the header row names: a cell holding a comma without quotes (or a column "
                    "added) moves every cell after it under the wrong column, so such a row is "
                    "not read; put that cell in quotes, or remove the cells past the header's "
                    "last column", "error"))  # fmt: skip
    if fewer:
        out.append((fewer[0], f"{_rows(fewer)} fewer cells than the {width} columns the header "
                    "row names: if a cell was removed (a hand edit), every cell after it was "
                    "read under the wrong column, its amount too; check the row, or export the "
                    "file again from QuickBooks", "warning"))  # fmt: skip
    return out


def _rows(lines: list[int]) -> str:
    """ "this row has", "7 rows (lines 4, 9, 12, 20, 31 and 2 more) have"."""
    more = f" and {len(lines) - 5:,} more" if len(lines) > 5 else ""
    shown = ", ".join(str(n) for n in lines[:5]) + more
    return "this row has" if len(lines) == 1 else f"{len(lines):,} rows (lines {shown}) have"
