"""The copies of the uploads the wizard keeps, with their sensitive cells blanked: employee Social
Security numbers, bank account and routing numbers (the cells the readers blank while reading,
by the same rules), so they never stay on disk, whatever the file's fate (read, refused or not
understood). The user keeps the original; what the readers make of the copy is what they made of
the original.

IIF: the cells ``iif.rows.read_header`` marks sensitive, in rows split exactly as the reader
splits them, and the custom fields a ``CUSTNAMEDICT`` row labels so (``sensitive_fields``); the
cells of a row with no header (not read; its first cell masked) and, in the name lists and the
chart, the cells under no column name (not read, only counted: a placeholder of the same kind
stays; elsewhere they are quoted, so masked as the reader quotes them); a vendor's tax ID that is
an SSN, and an SSN or a bank number under a flag, date or amount column, masked as the reader
masks them (``iif.rows.mask_ssns``); the rows of a list no reader knows (only its names are
listed: ``iif.lists.unknown_list``), every cell masked as a memo is, and under a column named for
such a number every digit. A CSV list's tax ID likewise.
CSV customer and vendor lists: the columns ``qbcsv.names`` drops. A text file no reader
understands (a CSV employee list, a report to map by hand): the columns named like an SSN or a
bank number (``private.SENSITIVE_HEADER``), and SSNs written out anywhere else masked as the
column mapping page shows them (``private.ssn_masked``; the command line reads a report mapped by
hand from such a copy too: ``app.mapped``). Transaction reports: what was typed into a memo as an
SSN or a bank number (``private.typed_masked``; in IIF the MEMO cells, by ``mask_ssns``). Only
a file holding such a cell is rewritten: in an IIF file its records with one are written again
(the same cells, the sensitive ones empty), every other line stays byte for byte.

Where the reader cannot tell which cells are sensitive, no copy is kept at all
(``Redaction.withheld``: why, in the reader's own words, at its file and line): an IIF file the
reader stops reading (a quote never closed or running over rows: ``iif._records``), a row of a
header with sensitive columns whose cells do not line up (``rows.misaligned``), a binary file,
and a CSV list or a file no reader understands that cannot be split.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from app.errors import ParseError
from app.model import Problem, ReadOptions
from app.readers import BINARY, READERS, iif, looks
from app.readers.iif import _records, refuse_spaced
from app.readers.iif.lists import field_labels, unknown_list
from app.readers.iif.rows import (
    BANK_COLUMN,
    QUIET,
    Header,
    Reading,
    Row,
    holds_number,
    mask_ssns,
    misaligned,
    read_header,
    stray_cells,
)
from app.readers.private import (
    SENSITIVE_HEADER,
    digits_masked,
    masked,
    maybe_typed,
    ssn_masked,
    tax_id,
    typed_cell,
    typed_masked,
    typed_numbers,
)
from app.readers.qbcsv import names
from app.readers.qbcsv.header import HEADER_SCAN, ROLES, delimiter_of
from app.readers.values import decode, encoding_fault, is_binary, unreadable
from app.source import Source


@dataclass(frozen=True, slots=True)
class Redaction:
    """What ``redact`` did: ``blanked`` the file in place, or found it must be ``withheld`` (no
    copy kept; the problems say why, at their file and line)."""

    blanked: bool = False
    withheld: tuple[Problem, ...] = ()
    kind: str = ""  # a file plainly no export (``looks.Refusal.kind``): its card's label


def redact(path: Path, name: str = "") -> Redaction:
    """Blank the sensitive cells of ``path`` in place, or say it must not be kept. ``name``:
    the file's name in the problems (default: ``path``'s)."""
    name = name or path.name
    with path.open("rb") as f:
        head = f.read(4096)
    if is_binary(head):
        refused = looks.refusal_of(head)
        said = refused.message if refused else BINARY
        return Redaction(
            withheld=(Problem(Source(name, 1), said),), kind=refused.kind if refused else ""
        )
    data = path.read_bytes()
    if fault := encoding_fault(data):  # (refused as read: nothing of it can be told apart)
        return Redaction(withheld=(Problem(Source(name, fault[0]), fault[1]),))
    options = ReadOptions()
    claims = [r for r in READERS if r.identify(path, options)]
    text, encoding = decode(data)
    if claims and iif not in claims and names not in claims:  # a transaction report
        try:
            blanked = _memos(text) if maybe_typed(text) else None  # (one scan when none is)
        except csv.Error as exc:  # (which memos hold what cannot be told: hunt 17)
            return Redaction(withheld=(Problem(Source(name, 1), unreadable(exc)),))
        if blanked is not None:
            path.write_bytes(blanked.encode(encoding, errors="replace"))
        return Redaction(blanked=blanked is not None)
    if iif in claims:
        blanked, why = _iif(text, name)
    elif names in claims:
        blanked, why = _csv(text, name, _list_columns, ssn_shaped=False)
    else:  # understood by no reader: kept for the column mapping, its sensitive columns blank
        blanked, why = _csv(text, name, _named_columns, ssn_shaped=True)
    if why:
        return Redaction(withheld=why)
    if blanked is None:
        return Redaction()
    path.write_bytes(blanked.encode(encoding, errors="replace"))
    return Redaction(blanked=True)


def _cells(cells: list[str], delimiter: str) -> str:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\n").writerow(cells)  # quotes a \n
    return out.getvalue()[:-1]


def _iif(text: str, name: str) -> tuple[str | None, tuple[Problem, ...]]:
    """(``text`` with every sensitive cell blank, or None when it holds none; the reasons to
    keep no copy)."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    parts = re.split(r"(\r\n|\r|\n)", text[len(bom) :])
    lines, ends = parts[0::2], [*parts[1::2], ""]
    headers: dict[str, Header] = {}
    withheld: list[Problem] = []
    changed = False
    labelled: set[tuple[str, int]] = set()  # (CUST/VEND/EMP, n): CUSTFLDn labelled sensitive
    try:
        refuse_spaced(text, name)  # its columns cannot be told apart: nothing can be blanked
        for start, end, cells, delimiter in _records(text, name):
            if not cells:  # (an empty record: a bare CR's line, hunt 23)
                continue
            first = cells[0].strip().upper()
            if first.startswith("!"):
                headers[first[1:].strip()] = read_header(first[1:].strip(), cells[1:])
                continue
            rest = cells[1:]
            header = headers.get(first)
            if first == "CUSTNAMEDICT" and header is not None:
                labelled |= sensitive_fields(header, rest, Source(name, start))
            elif header is not None and (mine := [n for kw, n in labelled if kw == first]):
                extra = tuple(header.index[c] for n in mine if (c := f"CUSTFLD{n}") in header.index)
                header = replace(header, sensitive=(*header.sensitive, *extra))
            lead = digits_masked(cells[0]) if header is None else cells[0]  # (a note's line)
            blanked = _blank(first, header, rest, withheld, Source(name, start))
            if not blanked and lead == cells[0]:
                continue
            lines[start - 1] = _cells([lead, *rest], delimiter)
            for k in range(start, end):  # the lines of a quoted field are now in its cell
                lines[k], ends[k - 1] = "", ""
            changed = True
    except ParseError as exc:  # the reader stops there: what follows cannot be told
        prefix = f"{exc.source}: "
        return None, (Problem(exc.source, exc.message.removeprefix(prefix)),)
    if withheld:
        return None, tuple(withheld)
    return (bom + "".join(a + b for a, b in zip(lines, ends, strict=True)) if changed else None), ()


def sensitive_fields(header: Header, cells: list[str], at: Source) -> set[tuple[str, int]]:
    """(CUST/VEND/EMP, n) of the custom field a ``CUSTNAMEDICT`` row labels like an SSN or a
    bank number (``iif.lists.field_labels``): blanked in the kept copy, as the reader leaves it
    out of the notes (``iif.names``)."""
    row = Row("CUSTNAMEDICT", header.columns, header.index, cells, at)
    labels = field_labels(Reading(at.filename, ReadOptions()), row)
    return {k for k, label in labels.items() if SENSITIVE_HEADER.search(label)}


def _blank(
    keyword: str, header: Header | None, cells: list[str], withheld: list[Problem], at: Source
) -> bool:
    """Blank a data row's sensitive cells in place (True when any changed); a row whose cells
    may have moved is added to ``withheld``."""
    if header is None:  # not read at all (no header above it): nothing of it is kept
        filled = [i for i, c in enumerate(cells) if c.strip()]
    else:
        filled = [i for i in header.sensitive if i < len(cells) and cells[i].strip()]
    for i in filled:
        cells[i] = ""
    if header is None:
        return bool(filled)
    why = misaligned(keyword, header, cells, held=filled)
    if why:
        withheld.append(Problem(at, why))
        return False
    filled += mask_ssns(cells, header)  # (as the reader masks them)
    if unknown_list(keyword):  # (only its name is read, masked as a memo is: every cell so,
        for i, cell in enumerate(cells):  # and those of a column named for such a number)
            col = header.columns[i] if i < len(header.columns) else ""
            named = SENSITIVE_HEADER.search(col) or BANK_COLUMN.search(col)
            if (shown := digits_masked(cell) if named else typed_cell(cell)) != cell:
                cells[i] = shown
                filled.append(i)
    for i in stray_cells(header, cells):
        if keyword in QUIET:  # only counted by the reader, numbers apart: a placeholder
            shown = "0" if holds_number(cells[i]) else "x"
        else:  # quoted by the reader, masked (``private.quoted``): the same here
            shown = masked(cells[i])
        if cells[i] != shown:
            cells[i] = shown
            filled.append(i)
    return bool(filled)


def _list_columns(row: list[str]) -> list[int] | None:
    """A customer or vendor list's header row: the columns ``qbcsv.names`` drops."""
    return names.sensitive_columns(row) if names._list_of(row) else None


def _named_columns(row: list[str]) -> list[int] | None:
    """Any row naming a column like an SSN or a bank number: those columns."""
    found = [i for i, c in enumerate(row) if SENSITIVE_HEADER.search(c)]
    return found or None


def _csv(
    text: str,
    name: str,
    header: Callable[[list[str]], list[int] | None],
    *,
    ssn_shaped: bool,
) -> tuple[str | None, tuple[Problem, ...]]:
    """(The CSV with the columns ``header`` finds (on one of its first rows) empty below it and,
    with ``ssn_shaped``, SSN-shaped text anywhere else masked; None when nothing changed; the
    reason to keep no copy: a file that cannot be split)."""
    body = text.lstrip("\ufeff")
    delimiter = delimiter_of(body.splitlines()[: names.SCAN])
    reader = csv.reader(io.StringIO(body, newline=""), delimiter=delimiter)
    rows: list[list[str]] = []
    try:
        rows.extend(reader)
    except csv.Error as exc:
        return None, (Problem(Source(name, reader.line_num), unreadable(exc)),)
    at = next((i for i, r in enumerate(rows[: names.SCAN]) if header(r) is not None), None)
    changed = False
    if at is not None:
        blank = header(rows[at]) or []
        taxid = names.tax_id_columns(rows[at]) if not ssn_shaped else []
        keyword = names._list_of(rows[at]) if not ssn_shaped else None
        if keyword:  # a list's row whose cells may have moved: the reader's own rule
            lines = _first_lines(body, delimiter)
            why = [
                Problem(Source(name, line), problem)
                for line, row in zip(lines[at + 1 :], rows[at + 1 :], strict=True)
                if (problem := names.misaligned_row(keyword, rows[at], row))
            ]
            if why:
                return None, tuple(why)
        changed = _blank_columns(rows[at + 1 :], blank, taxid)
        if keyword:  # what was typed into its notes as an SSN or a bank number (as read)
            shape = names.typed_shape(keyword, rows[at])
            typed = [mask_ssns(row, shape) for row in rows[at + 1 :]]  # (each row, in place)
            changed = changed or any(typed)
    if ssn_shaped:  # anywhere else, masked as the column page shows it (columns._shown)
        for row in rows:
            for i, c in enumerate(row):
                if (shown := typed_masked(ssn_masked(c))) != c:  # (and typed: a memo)
                    row[i], changed = shown, True
    if not changed:
        return None, ()
    out = io.StringIO()
    end = "\r\n" if "\r\n" in body else "\n"
    csv.writer(out, delimiter=delimiter, lineterminator=end).writerows(rows)
    return text[: len(text) - len(body)] + out.getvalue(), ()


def _memos(text: str) -> str | None:
    """A CSV transaction report with what was typed into its memos or title rows as an SSN or a
    bank number masked, as the reader masks it (``readers.typed``; None when none holds one).
    Only those characters change: every other byte of the file stays as it was. Raises
    csv.Error for a file the csv module cannot split (the reader refuses it; no copy is kept)."""
    body = text.lstrip("\ufeff")
    delimiter = delimiter_of(body.splitlines()[: names.SCAN])
    rows, firsts = _csv_records(body, delimiter)  # (csv.Error: no copy kept, ``redact``)
    at = next((i for i, r in enumerate(rows[:HEADER_SCAN]) if _memo_columns(r)), None)
    if at is None:
        return None
    columns = _memo_columns(rows[at])
    lines = io.StringIO(body, newline="").readlines()  # (as the csv reader counts them)
    changed = False
    width = len(rows[at])
    for k in (*range(at), *range(at + 1, len(rows))):  # (the title rows: the company's name)
        row = rows[k]  # (text past the header: not read, ``qbcsv.header.widths``; any cell
        moved = k < at or any(c.strip() for c in row[width:])  # may hold the memo)
        cells = row if moved else [row[i] for i in columns if i < len(row)]
        typed = {n for cell in cells for n in typed_numbers(cell)}
        if not typed:
            continue
        start, end = firsts[k] - 1, firsts[k + 1] - 1 if k + 1 < len(firsts) else len(lines)
        record = "".join(lines[start:end])  # (a quoted memo may run over its lines)
        for found in typed:
            record = _replaced(record, found)
        lines[start:end] = [record, *[""] * (end - start - 1)]
        changed = True
    return text[: len(text) - len(body)] + "".join(lines) if changed else None


def _replaced(record: str, found: str) -> str:
    """``record`` (a CSV record's lines as written) with ``found`` (a memo's typed number, as
    the cell reads) masked: its line breaks may be written CRLF where the cell reads LF."""
    if found in record:
        return record.replace(found, typed_masked(found))
    loose = r"\r?\n".join(re.escape(part) for part in found.split("\n"))
    return re.sub(loose, lambda m: digits_masked(m[0]), record)


def _memo_columns(row: list[str]) -> list[int]:
    """The memo columns of a transaction report's header row, and those it names that no
    reader reads (a payment method, a P.O. number: typed text, never in the book; hunt 18);
    none: not its header row."""
    roles = [ROLES.get(" ".join(c.lower().split())) for c in row]
    if "date" not in roles:
        return []
    return [i for i, r in enumerate(roles) if r == "memo" or (r is None and row[i].strip())]


def _blank_columns(rows: list[list[str]], blank: list[int], taxid: list[int]) -> bool:
    """Blank the ``blank`` columns of ``rows`` and mask their tax IDs that are SSNs (as the
    reader masks them: ``private.tax_id``), in place; whether any changed."""
    changed = False
    for row in rows:
        for i in blank:
            if i < len(row) and row[i].strip():
                row[i], changed = "", True
        for i in taxid:
            if i < len(row) and (shown := tax_id(row[i])) != row[i].strip():
                row[i], changed = shown, True
    return changed


def _first_lines(body: str, delimiter: str) -> list[int]:
    """The first line of each CSV record (a quoted cell may run over lines), as the list reader
    numbers them."""
    return _csv_records(body, delimiter)[1]


def _csv_records(body: str, delimiter: str) -> tuple[list[list[str]], list[int]]:
    """The CSV's records and the first line of each, in one pass (csv.Error as csv.reader)."""
    reader = csv.reader(io.StringIO(body, newline=""), delimiter=delimiter)
    rows, firsts, last = [], [], 0
    for row in reader:
        rows.append(row)
        firsts.append(last + 1)
        last = reader.line_num
    return rows, firsts
