"""IIF rows: a data row read through its ``!KEYWORD`` header, and what one pass collects.

Sensitive columns (employee SSNO, bank numbers, ``!QB ONLINE``) are blanked here, as soon as a
line is split, by their position in the header, before anything else sees them, whatever the
row's length. ``flag`` and ``amount`` read a cell with the row's problems reported on the
reading.

Rows that do not line up with their header. QuickBooks writes every cell of every row, empty ones
included (each row of the real exports has its header's width: docs/FORMATS.md, "Row width"), so a
row with fewer cells comes from another program or an edit, and nothing in it tells trailing cells
left off (harmless) from a cell missing mid-row, which moves every later cell under the wrong
column. The rule:

- A short row (fewer cells than the header names columns) in a header with a sensitive column
  at position s, k cells short: a sensitive cell moved left by a missing cell would sit at one
  of positions s-k .. s-1. If any of those holds text, the row is an error and is not read at
  all (that text may be an SSN or a bank number now under a name or address column).
- A long row (text beyond the header's last column) in such a header, text up to j cells past
  it: a sensitive cell moved right would sit at s+1 .. s+j; text there is the same error.
- Any other short row is read, its missing cells empty, with a warning naming the line and the
  columns that got no cell (none when only unnamed columns miss); other extra cells are
  ignored with a warning (``_stray_message``), as before.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from decimal import Decimal

from app.model import Problem, ReadOptions
from app.readers.private import (
    MASK,
    SSN_COLUMN,
    grouped,
    holds_typed,
    masked,
    maybe_typed,
    number_shaped,
    quoted,
    ssn_cell,
    ssn_shaped,
    typed_cell,
)
from app.readers.values import clean, parse_amount, parse_bool
from app.source import Source
from app.words import plural

# A VEND/CUST/EMP/OTHERNAME column that may hold a bank account or routing number.
BANK_COLUMN = re.compile(r"BANK|ROUT|ACC(OU)?N?T ?(NUM|NO)|ACCOUNT ?NUMBER")
_NAME_LISTS = ("CUST", "VEND", "EMP", "OTHERNAME")
# Keywords whose unexpected extra cells are never quoted in a message (they may be sensitive).
QUIET = ("EMP", "VEND", "CUST", "OTHERNAME", "ACCNT", "QB ONLINE", "QBP EMPLOYEE")


@dataclass(slots=True)
class Row:
    """One data row, read through the latest ``!KEYWORD`` header. Duplicate header names keep
    every cell (``all``); ``get`` returns the first."""

    keyword: str
    columns: tuple[str, ...]
    index: dict[str, int]  # column name → first position (shared by the rows of one header)
    cells: list[str]
    source: Source

    def get(self, name: str) -> str:
        i = self.index.get(name)
        return "" if i is None else self.cells[i].strip()

    def has(self, name: str) -> bool:
        return name in self.index

    def all(self, name: str) -> list[str]:
        return [clean(self.cells[i]) for i, col in enumerate(self.columns) if col == name]

    def text(self, name: str) -> str:
        """A free-text cell: the two characters ``\\n`` become a real line break."""
        return self.get(name).replace("\\n", "\n").strip()


@dataclass(slots=True)
class Reading:
    """What one pass over the file collects."""

    filename: str
    options: ReadOptions
    problems: list[Problem] = field(default_factory=list)

    def warn(self, source: Source | None, message: str) -> None:
        self.problems.append(Problem(source, message, "warning"))

    def error(self, source: Source | None, message: str) -> None:
        self.problems.append(Problem(source, message, "error"))


def flag(reading: Reading, row: Row, col: str) -> bool | None:
    """A Y/N cell; anything else is a warning and reads as unknown."""
    try:
        return parse_bool(row.get(col))
    except ValueError as exc:
        reading.warn(row.source, f"{col}: {exc}")
        return None


def amount(reading: Reading, row: Row, col: str) -> Decimal | None:
    try:
        return parse_amount(row.get(col))
    except ValueError as exc:
        reading.error(row.source, f"{col}: {exc}")
        return None


@dataclass(frozen=True, slots=True)
class Header:
    columns: tuple[str, ...]
    index: dict[str, int]
    sensitive: tuple[int, ...]  # positions blanked on every row
    unnamed: tuple[int, ...]  # positions under an empty header cell
    # positions masked where they hold a private number (``mask_ssns``): (position, kind)
    shaped: tuple[tuple[int, str], ...] = ()


def read_header(keyword: str, cells: list[str]) -> Header:
    # A stray "!" on column names (seen in third-party files) is not part of the name.
    columns = tuple(c.strip().lstrip("!").strip().upper() for c in cells)
    index: dict[str, int] = {}
    for i, col in enumerate(columns):
        index.setdefault(col, i)
    sensitive = tuple(
        i
        for i, col in enumerate(columns)
        if (keyword == "EMP" and col.startswith("SSN"))
        or (keyword == "ACCNT" and col == "BANKNUM")
        or (keyword == "QB ONLINE" and col != "ACCNT")
        or (keyword in _NAME_LISTS and BANK_COLUMN.search(col) is not None)
    )
    unnamed = tuple(i for i, col in enumerate(columns) if not col)
    shaped = tuple((index[c], kind) for kind, cols in _SHAPED for c in cols if c in index)
    if (label := _TYPED_LABELS.get(keyword)) in index:  # (a customer message: typed)
        shaped += ((index[label], "memo"),)
    return Header(columns, index, sensitive, unnamed, shaped)


def _stray_message(keyword: str, stray: list[str]) -> str:
    """What was ignored in plain words, and whether any of it could have been an amount (name
    lists never show the cells: they may hold personal numbers)."""
    n = len(stray)
    what = "" if keyword in QUIET else f" ({', '.join(quoted(c) for c in stray[:3])})"
    cells = plural(n, "cell")
    text = f"{cells} under no column name of the !{keyword} header ignored{what}"
    numbers = sum(1 for c in stray if holds_number(c))
    if not numbers:
        return f"{text}; none holds a number, so no amount is lost"
    which = "it holds" if n == 1 else f"{numbers} of them {'holds' if numbers == 1 else 'hold'}"
    return (
        f"{text}; {which} a number that is not read: if it is an amount, the row has more "
        f"cells than the !{keyword} header names; line them up and import again"
    )


def _moved_sensitive(header: Header, cells: list[str]) -> str:
    """The sensitive column whose cell may have moved onto text of a row of the wrong length
    (positions as in the module docstring), or ""."""
    width, n = len(header.columns), len(cells)
    if n < width:
        k = width - n
        spans = ((i, range(max(0, i - k), min(i, n))) for i in header.sensitive)
    else:
        filled = [i for i in range(width, n) if cells[i].strip()]
        if not filled:
            return ""  # only empty cells past the end: nothing moved
        j = filled[-1] - width + 1
        spans = ((i, range(i + 1, min(i + j, width - 1) + 1)) for i in header.sensitive)
    for i, span in spans:
        if any(cells[p].strip() for p in span if p not in header.sensitive):
            return header.columns[i]
    return ""


def _misaligned(header_words: str, n: int, width: int, column: str) -> str:
    how = "is missing" if n < width else "was added"
    return (
        f"this row has {n} cells, {header_words} {width}: if one {how} before {column}, "
        f"the {column} cell (never imported) now sits under another column, so the row is not "
        "read; export the list again from QuickBooks (it writes every cell) or line the row up "
        "with its header"
    )


def _short_message(keyword: str, n: int, width: int, missing: list[str]) -> str:
    shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
    return (
        f"this row has {n} of the {width} cells its !{keyword} header names: {shown} read as "
        "empty; if a cell is missing mid-row instead, the cells after it are under the wrong "
        "columns: check the row"
    )


def holds_number(cell: str) -> bool:
    """An amount, or a number masked (``private.masked``: as a kept copy holds it)."""
    return is_number(cell) or MASK in masked(cell)


def is_number(cell: str) -> bool:
    try:
        return parse_amount(cell) is not None
    except ValueError:
        return False


def misaligned(
    keyword: str,
    header: Header,
    cells: list[str],
    header_words: str = "",
    held: Collection[int] = (),
) -> str:
    """Why the row ``cells`` of a header with sensitive columns is not read (a sensitive cell
    may have moved under another column: see the module docstring), else "". Its sensitive
    positions must be blank already; ``held``: those that held text before. ``header_words``:
    the header in the message (default "its !KEYWORD header"; a CSV list's "its header
    row")."""
    width, n = len(header.columns), len(cells)
    if not header.sensitive:
        return ""
    words = header_words or f"its !{keyword} header"
    if n != width and (moved := _moved_sensitive(header, cells)):
        return _misaligned(words, n, width, moved)
    if keyword != "QB ONLINE" and (moved := _moved_number(header, cells, held)):
        return (
            f"its {moved} cell is empty and a cell near it holds a number shaped like one: the "
            "row's cells may have moved under other columns, so the row is not read; export the "
            "list again from QuickBooks (it writes every cell) or line the row up with "
            f"{words}"
        )
    return ""


def _moved_number(header: Header, cells: list[str], held: Collection[int]) -> str:
    """The sensitive column found empty while its number seems to sit near it: an SSN written
    out (123-45-6789) within three cells of an empty SSN cell, or a bank number (8 to 17
    digits) under a flag or count column within three of an empty bank cell, or past the
    header's end. A row whose cells moved, though its length may be the header's (a cell
    removed before it and one added after, a stray empty cell). Else "". A 9-digit ZIP, a
    phone without separators, a loan number as a description are no such thing (hunt 12)."""
    width = len(header.columns)
    for i in header.sensitive:
        if i in held:
            continue  # (its number was in place: blanked)
        near = [
            p for p in range(max(0, i - 3), min(len(cells), i + 4)) if p not in header.sensitive
        ]
        if SSN_COLUMN.search(header.columns[i]):
            found = any(ssn_cell(cells[p]) for p in near)
        else:
            flags = [p for p in near if p >= width or header.columns[p] in _FLAGS]
            found = any(number_shaped(cells[p]) for p in flags)
        if found:
            return header.columns[i]
    return ""


def mask_ssns(cells: list[str], header: Header) -> list[int]:
    """Mask, in place, a vendor's tax ID that is an SSN (a sole proprietor's: the reader's
    ``private.tax_id``) and an SSN or a bank number under a flag, date or amount column (read
    as neither), and what was typed into a memo as such a number: the positions masked
    (``Header.shaped``, found once per header). Nothing else:
    a part number or a document number shaped 3-2-4 is kept (hunt 12)."""
    found = [  # (every such shape has 8 characters or more: a date or an amount is let by)
        (i, kind)
        for i, kind in header.shaped
        if i < len(cells) and len(cells[i]) > 7 and _PRIVATE[kind](cells[i])
    ]
    for i, kind in found:  # (a memo: only what was typed as such a number, ``readers.typed``)
        cells[i] = typed_cell(cells[i]) if kind == "memo" else masked(cells[i])
    return [i for i, _ in found]


# text a person typed (a memo, a list's notes, descriptions, contacts and addresses, custom
# fields): what was typed into it as an SSN, a bank or a card number is masked
# (``private.typed_cell``); a customer message (``INVMEMO``) is its NAME (``read_header``)
TYPED_COLUMNS = (
    "MEMO", "NOTEPAD", "NOTE", "DESC", "PURCHASEDESC", "JOBDESC", "CONT1", "CONT2", "PHONE1",
    "PHONE2", "FAXNUM", "EMAIL", "CTYPE", "VTYPE", "JOBTYPE", "RESALENUM", "REP", "PRICELEVEL",
    "SALUTATION", "INIT", "COMPANYNAME", "PRINTAS", "CITY", "INVMEMO", "PAYMETH", "PONUM",
    "OTHER1", "OTHER2", "SHIPVIA", "FOB",
    *(f"{a}ADDR{n}" for a in ("", "B", "S") for n in range(1, 6)),
    *(f"CUSTFLD{n}" for n in range(1, 16)),
)  # fmt: skip
# lists not imported whose label is typed text no other record names (a customer message, a
# payment method "Visa 4111...", a sales rep's name): masked as a memo is
_TYPED_LABELS = {
    "INVMEMO": "NAME",
    "PAYMETH": "NAME",
    "SHIPMETH": "NAME",
    "SALESREP": "ASSOCIATEDNAME",
}
# columns that hold a flag, a count or a date, never a long number
_FLAGS = ("CLEAR", "TOPRINT", "NAMEISTAXABLE", "PAID", "HIDDEN", "DELCOUNT", "TAXABLE", "1099")
_SHAPED = (
    ("taxid", ("TAXID",)),
    ("flag", (*_FLAGS, "DATE", "DUEDATE", "SHIPDATE")),
    ("amount", ("AMOUNT", "PRICE", "QNTY")),  # (an SSN written out is never an amount)
    ("memo", TYPED_COLUMNS),
)
_PRIVATE = {
    "taxid": ssn_shaped,
    "flag": lambda cell: number_shaped(cell) or ssn_cell(cell) or grouped(cell),
    "amount": lambda cell: ssn_cell(cell) or grouped(cell),  # (hunt 17: a card under AMOUNT)
    # (the literal pre-scan first: every address and memo cell of 100k rows; ``typed_cell``)
    "memo": lambda cell: maybe_typed(cell) and holds_typed(cell.replace("\\n", "\n")),
}


def stray_cells(header: Header, cells: list[str]) -> list[int]:
    """The positions of the row's cells under no column name (past the header's end, or under
    an empty name) that hold text: read by nobody, said only by count (``_stray_message``)."""
    width = len(header.columns)
    return [i for i in (*range(width, len(cells)), *header.unnamed) if cells[i].strip()]


def read_row(
    keyword: str, header: Header, cells: list[str], source: Source, reading: Reading
) -> Row | None:
    """The row through its header; None (with an error) for a row of a header with sensitive
    columns whose cells cannot be shown to line up (see the module docstring)."""
    width, n = len(header.columns), len(cells)
    held = [i for i in header.sensitive if i < n and cells[i].strip()]
    for i in header.sensitive:
        if i < n:
            cells[i] = ""
    why = misaligned(keyword, header, cells, held=held)
    if why:
        reading.error(source, why)
        return None
    mask_ssns(cells, header)
    if n < width:
        missing = [c for c in header.columns[n:] if c]
        if missing:
            reading.warn(source, _short_message(keyword, n, width, missing))
        cells.extend([""] * (width - n))
    if len(cells) > width or header.unnamed:
        stray = [cells[i] for i in stray_cells(header, cells)]
        if stray:
            reading.warn(source, _stray_message(keyword, stray))
        del cells[width:]
    return Row(keyword, header.columns, header.index, cells, source)
