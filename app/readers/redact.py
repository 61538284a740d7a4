"""The copies of the uploads the wizard keeps, with their sensitive cells blanked: employee Social
Security numbers, bank account and routing numbers (the cells the readers blank while reading,
by the same rules), so they never stay on disk. The user keeps the original; what the readers
make of the copy is what they made of the original.

IIF: the cells ``iif.rows.read_header`` marks sensitive, in rows split exactly as the reader
splits them. CSV customer and vendor lists: the columns ``qbcsv.names`` drops. Other files are
left as they are. Only a file holding such a cell is rewritten: its records with one are
written again (the same cells, the sensitive ones empty), every other line stays byte for byte.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from app.errors import ParseError
from app.model import ReadOptions
from app.readers import iif
from app.readers.iif import _records
from app.readers.iif.rows import read_header
from app.readers.qbcsv import names
from app.readers.qbcsv.header import delimiter_of
from app.readers.values import decode, is_binary


def redact(path: Path) -> bool:
    """Blank the sensitive cells of ``path`` in place; True when there were any."""
    is_iif = iif.identify(path, ReadOptions())
    if not is_iif and not names.identify(path, ReadOptions()):
        return False  # a transaction report (however large) is not even read in full
    data = path.read_bytes()
    if is_binary(data[:4096]):
        return False
    text, encoding = decode(data)
    blanked = _iif(text, path.name) if is_iif else _csv_list(text)
    if blanked is None:
        return False
    path.write_bytes(blanked.encode(encoding, errors="replace"))
    return True


def _cells(cells: list[str], delimiter: str) -> str:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\n").writerow(cells)  # quotes a \n
    return out.getvalue()[:-1]


def _iif(text: str, name: str) -> str | None:
    """``text`` with every sensitive cell blank, or None when it holds none."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    parts = re.split(r"(\r\n|\r|\n)", text[len(bom) :])
    lines, ends = parts[0::2], [*parts[1::2], ""]
    sensitive: dict[str, tuple[int, ...]] = {}
    changed = False
    try:
        for start, end, cells, delimiter in _records(text, name):
            first = cells[0].strip().upper() if cells else ""
            if first.startswith("!"):
                sensitive[first[1:].strip()] = read_header(first[1:].strip(), cells[1:]).sensitive
                continue
            filled = [i + 1 for i in sensitive.get(first, ()) if i + 1 < len(cells)]
            filled = [i for i in filled if cells[i].strip()]
            if not filled:
                continue
            for i in filled:
                cells[i] = ""
            lines[start - 1] = _cells(cells, delimiter)
            for k in range(start, end):  # the lines of a quoted field are now in its cell
                lines[k], ends[k - 1] = "", ""
            changed = True
    except ParseError:  # the reader stops there too: what follows is not read
        pass
    return bom + "".join(a + b for a, b in zip(lines, ends, strict=True)) if changed else None


def _csv_list(text: str) -> str | None:
    """A customer or vendor list with its sensitive columns empty, or None when none holds
    anything."""
    body = text.lstrip("\ufeff")
    delimiter = delimiter_of(body.splitlines()[: names.SCAN])
    try:
        rows = list(csv.reader(io.StringIO(body, newline=""), delimiter=delimiter))
    except csv.Error:  # not readable as a list either
        return None
    at = next((i for i, r in enumerate(rows[: names.SCAN]) if names._list_of(r)), None)
    if at is None:
        return None
    blank = [i for i, c in enumerate(rows[at]) if names._SENSITIVE.search(names._norm(c))]
    changed = False
    for row in rows[at + 1 :]:
        for i in blank:
            if i < len(row) and row[i].strip():
                row[i], changed = "", True
    if not changed:
        return None
    out = io.StringIO()
    end = "\r\n" if "\r\n" in body else "\n"
    csv.writer(out, delimiter=delimiter, lineterminator=end).writerows(rows)
    return text[: len(text) - len(body)] + out.getvalue()
