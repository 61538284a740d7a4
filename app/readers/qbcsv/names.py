"""Customer and vendor (supplier) lists exported as CSV → customers and vendors.

QuickBooks' Customer / Vendor Contact List and Reckon's customer / supplier exports: a header row
whose first named column is ``Customer`` or ``Vendor``/``Supplier`` (no Date, Debit or Account).
Each known column is renamed to its IIF list column (``Bill to`` → BADDR1…, ``Main Phone`` →
PHONE1...) and the row goes through ``iif/names.py``, so a CSV list becomes exactly what the IIF
path makes of the same data; any other column lands in the notes as "Header: value". Sensitive
columns (bank account, BSB, routing, SSN, tax file number) are dropped while parsing; tax IDs
are kept.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from app.errors import ParseError
from app.model import FileInfo, Layout, Ledger, ReadOptions
from app.readers.iif.names import Names
from app.readers.iif.rows import Header, Reading, Row, mask_ssns, misaligned, read_header
from app.readers.private import SENSITIVE_HEADER
from app.readers.qbcsv.header import delimiter_of, first_rows
from app.readers.values import decode, unreadable
from app.source import Source

SCAN = 15
KINDS = {"CUST": "CSV customer list", "VEND": "CSV vendor list"}
_NAME = {"customer": "CUST", "customer name": "CUST", "vendor": "VEND", "supplier": "VEND",
         "vendor name": "VEND", "supplier name": "VEND"}  # fmt: skip
_SENSITIVE = re.compile(rf"bank|{SENSITIVE_HEADER.pattern}", re.IGNORECASE)  # (a bank's name too)
_NOT_A_LIST = frozenset({"date", "debit", "credit", "account", "amount", "trans #"})
_COLUMNS = {
    "company": "BADDR1", "company name": "BADDR1", "phone": "PHONE1", "main phone": "PHONE1",
    "alt. phone": "PHONE2", "alt phone": "PHONE2", "fax": "FAXNUM", "email": "EMAIL",
    "main email": "EMAIL", "e-mail": "EMAIL", "contact": "CONT1", "primary contact": "CONT1",
    "alt. contact": "CONT2", "alt contact": "CONT2", "terms": "TERMS", "rep": "REP",
    "customer type": "CTYPE", "vendor type": "VTYPE", "supplier type": "VTYPE",
    "account no.": "NOTE", "account no": "NOTE", "credit limit": "LIMIT", "tax id": "TAXID",
    "abn": "TAXID", "1099": "1099", "eligible for 1099": "1099", "sales tax code": "SALESTAXCODE",
    "tax code": "SALESTAXCODE", "tax item": "TAXITEM", "resale num": "RESALENUM",
    "resale no.": "RESALENUM", "price level": "PRICELEVEL", "note": "NOTEPAD", "notes": "NOTEPAD",
    "taxable": "TAXABLE", "currency": "CURRENCY",
}  # fmt: skip
_ADDRESS = re.compile(r"(bill to|ship to|bill from|address)\s*(\d?)")


def _norm(cell: str) -> str:
    return " ".join(cell.split()).casefold()


def _list_of(cells: list[str]) -> str | None:
    words = [_norm(c) for c in cells]
    if _NOT_A_LIST & set(words):
        return None
    first = next((w for w in words if w), "")
    return _NAME.get(first)


def identify(path: Path, options: ReadOptions) -> bool:
    return not options.columns and any(_list_of(cells) for _, cells in first_rows(path)[:SCAN])


def sensitive_columns(header: list[str]) -> list[int]:
    """The positions of a list's header row naming a bank account, BSB, routing, SSN or tax file
    number column (dropped while parsing, blanked in the kept copy: ``readers.redact``)."""
    return [i for i, c in enumerate(header) if _SENSITIVE.search(_norm(c))]


def tax_id_columns(header: list[str]) -> list[int]:
    """The positions of a list's tax ID column (a sole proprietor's is an SSN: masked in the
    kept copy, as the reader masks it: ``private.tax_id``)."""
    keyword = _list_of(header)
    return (
        [i for i, c in enumerate(_columns(keyword, header)[0]) if c == "TAXID"] if keyword else []
    )


def misaligned_row(keyword: str, header: list[str], cells: list[str]) -> str:
    """Why a list's row is not read: of another length than its header row, with text where a
    sensitive cell would sit if one were missing or added (the IIF lists' rule,
    ``iif.rows.misaligned``); else ""."""
    if not any(c.strip() for c in cells):
        return ""
    sensitive = tuple(sensitive_columns(header))
    shape = Header(tuple(c.strip() for c in header), {}, sensitive, ())
    blanked = ["" if i in sensitive else c for i, c in enumerate(cells)]
    held = [i for i in sensitive if i < len(cells) and cells[i].strip()]
    return misaligned(keyword, shape, blanked, "its header row", held)


def typed_shape(keyword: str, header: list[str]) -> Header:
    """A list's header row as the IIF header of its columns' IIF names: the cells a person
    typed into (notes, account no., the columns landing in the notes) whose typed SSNs and bank
    numbers ``iif.rows.mask_ssns`` masks, here and in the kept copy (``readers.redact``)."""
    return read_header(keyword, _columns(keyword, header)[0])


def _columns(keyword: str, cells: list[str]) -> tuple[list[str], list[str]]:
    """(IIF column per CSV column, "" = not read; the notes' labels for the others)."""
    out: list[str] = []
    extra: list[str] = []
    used: set[str] = set()
    lines = {"CUST": ("BADDR", "SADDR"), "VEND": ("ADDR", "ADDR")}[keyword]
    next_line = {lines[0]: 1, lines[1]: 1}
    for cell in cells:
        word = _norm(cell)
        col = ""
        m = _ADDRESS.fullmatch(word)
        if not word or _SENSITIVE.search(word):  # (sensitive_columns)
            col = ""
        elif word in _NAME and "NAME" not in used:
            col = "NAME"
        elif m:
            prefix = lines[1] if m[1] == "ship to" else lines[0]
            n = next_line[prefix]
            col, next_line[prefix] = f"{prefix}{n}", n + 1
        elif word in _COLUMNS and _COLUMNS[word] not in used:
            col = _COLUMNS[word]
            if col == "BADDR1" and keyword == "VEND":
                col = "PRINTAS"
            if col == "BADDR1":
                next_line["BADDR"] = 2
        elif len(extra) < 15:
            extra.append(cell.strip())
            col = f"CUSTFLD{len(extra)}"
        used.add(col)
        out.append(col)
    return out, extra


def parse(path: Path, options: ReadOptions) -> Ledger:
    name = path.name
    text, encoding = decode(path.read_bytes())
    text = text.lstrip("\ufeff")
    reader = csv.reader(
        io.StringIO(text, newline=""), delimiter=delimiter_of(text.splitlines()[:SCAN])
    )
    read: list[tuple[int, list[str], int]] = []  # (first line, cells, last line)
    try:
        for row in reader:  # a record's first line (a quoted address spans several)
            read.append((read[-1][2] + 1 if read else 1, row, reader.line_num))
    except csv.Error as exc:
        raise ParseError(Source(name, reader.line_num), unreadable(exc)) from None
    rows = [(first, row) for first, row, _ in read]
    at = next((i for i, (_, cells) in enumerate(rows[:SCAN]) if _list_of(cells)), None)
    if at is None:
        raise ParseError(Source(name, 1), "expected a Customer or Vendor header row (got none)")
    header = rows[at][1]
    keyword = _list_of(header)
    assert keyword is not None
    columns, extra = _columns(keyword, header)
    index = {c: i for i, c in reversed(list(enumerate(columns))) if c}
    reading = Reading(name, options)
    labels = {(keyword, i + 1): label for i, label in enumerate(extra)}
    records: list[Row] = []
    width = len(columns)
    shape = typed_shape(keyword, header)
    for line, raw in rows[at + 1 :]:
        why = misaligned_row(keyword, header, raw)
        if why:  # a sensitive cell may sit under another column: the row is not read
            reading.error(Source(name, line), why)
            continue
        kept = [c if columns[i] else "" for i, c in enumerate(raw[:width])]  # sensitive: gone
        kept += [""] * (width - len(kept))
        mask_ssns(kept, shape)
        if not any(c.strip() for c in kept) or not kept[index["NAME"]].strip():
            continue
        records.append(Row(keyword, tuple(columns), index, kept, Source(name, line)))
    names = Names(reading, labels)
    customers = names.customers(records) if keyword == "CUST" else ()
    vendors = tuple(names.vendor(r) for r in records) if keyword == "VEND" else ()
    what = "Customers" if keyword == "CUST" else "Vendors"
    layout: Layout = "vendor list" if keyword == "VEND" else "customer list"
    info = FileInfo(name, KINDS[keyword], layout, encoding, counts=((what, len(records)),))
    return Ledger(
        customers=customers, vendors=vendors, problems=tuple(reading.problems), files=(info,)
    )
