"""QuickBooks CSV transaction reports → Ledger: one header-driven reader for every layout.

Layouts (docs/FORMATS.md, "The transaction layouts"), told apart by the header row's columns:
- Edit > Find > Advanced export: Account + signed Amount + running Balance, no Trans #;
  transactions are rebuilt from the running sum returning to 0.00, the Split column (when the
  export has it) telling look-alike neighbours apart (see grouping.py);
- Reports > Journal: Trans #, Account, Debit/Credit, no Clr/Split/Balance/Amount; transaction
  fields on the first row only, a totals row (Debit and Credit both filled) ends a transaction;
- (Custom) Transaction Detail: Account per row plus Trans # (grouped by consecutive runs) or,
  without Trans #, a running Balance (grouped like the Find export);
- General Ledger / Transaction Detail by Account: no Account column but a Split column (the
  other side, never a split of its own); the account is the section's header row; splits are
  gathered by Trans # across all sections.
The header row is found by scanning the first rows; title, blank, ``Total …``/``TOTAL`` and account
header rows and leading unnamed columns are noise. ``ReadOptions.columns`` maps columns by hand for
a report no layout claims. Split.account is the report's account cell as printed (for the General
Ledger the nested section headers joined with ``:``); app/resolve.py matches it against the chart.
Transaction.notes = ``QuickBooks <Type> #<Trans #>``. With Amount beside Debit/Credit, Debit/Credit
is the value and Amount a cross-check (``Collector.checked``). Estimates and orders are counted
under "not imported", never read; a transaction without a name on its first row is named by its
lines (``app.readers.payers``). An account cell holding a number alone (Reckon's Spend Money /
Transfer exports) reads as the label the file gives that number in its Split or Account column
(``account_labels.numbers_named``). A report that stops before its end (a last transaction cut in
the middle, no closing TOTAL row while its title's period runs on) is said so (``ending.py``), as
one cut at the export cap is. A Class column gives ``Split.klass`` (docs/CLASSES.md).

The row loop is the hot path (``make bench`` compares it with bare ``csv.reader``): UTF-8 is
decoded while reading, column indexes are resolved once, amounts take a fast path (one regex
where they have commas, a strip of the characters allowed where not), labels, memos and dates
are handled once per distinct text (and share one string), Split/Source/Transaction are built
through their slots (``build.py``), the cyclic GC is paused while the objects are built (it
doubled the time). By CPU time, 3.33× csv.reader; a bare loop making only the model's objects
takes 2.4×: 2× leaves no room without changing the model (docs/ENGINE.md has the figures).
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from operator import itemgetter
from pathlib import Path
from typing import cast

from app.classes import class_name
from app.errors import ParseError
from app.gc_pause import paused
from app.model import Layout, Ledger, ReadOptions, Reconcile, Split
from app.read_progress import through
from app.readers.private import quoted, typed_masked
from app.readers.qbcsv import grouping
from app.readers.qbcsv.build import Group, split_maker
from app.readers.qbcsv.ending import ends_with_total
from app.readers.qbcsv.header import (
    CLASS_ROLE,
    HEADER_SCAN,
    ITEM_ROLES,
    ROW_ROLES,
    VALUE_ROLES,
    Header,
    delimiter_of,
    find_header,
    first_rows,
    widths,
)
from app.readers.qbcsv.items import ItemCells
from app.readers.values import SHORT_AMOUNT, decode, is_binary, is_utf16, unreadable
from app.source import Source

KINDS = {
    "find": "CSV Find export",
    "journal": "CSV Journal",
    "detail": "CSV Transaction Detail",
    "ledger": "CSV General Ledger",
    "hand": "CSV (columns mapped by hand)",
}
_CLEARED_MARKS = frozenset({"*", "C", "c"})


def identify(path: Path, options: ReadOptions) -> bool:
    """True when one of the first rows is a header row a CSV layout (or the hand mapping) claims.
    IIF files (first line ``!…``) are never claimed."""
    rows = first_rows(path)
    return bool(rows) and find_header(rows, options) is not None


def parse(path: Path, options: ReadOptions) -> Ledger:
    """Read a CSV report. File-level failures raise ParseError; the rest become problems.
    UTF-8 (the common case) is decoded while reading, as csv.reader on an open file does;
    anything else goes through values.decode (BOM, UTF-8, else cp1252)."""
    name = path.name
    with path.open("rb") as f:
        head = f.read(65536)
    if not head.strip() and not path.read_bytes().strip():
        raise ParseError(Source(name, 1), "the file is empty")
    utf16 = is_utf16(head)
    if is_binary(head):
        raise ParseError(Source(name, 1), "this is a binary file, not a CSV report")
    delimiter = delimiter_of(decode(head)[0].splitlines(keepends=True)[: HEADER_SCAN + 2])
    if not utf16:
        encoding = "utf-8-sig" if head.startswith(codecs.BOM_UTF8) else "utf-8"
        try:
            with path.open(encoding=encoding, newline="") as stream:
                return _read(name, encoding, options, stream, delimiter, path)
        except UnicodeDecodeError:
            pass  # not UTF-8 after all: read again, decoded as a whole
    text, encoding = decode(path.read_bytes())
    return _read(name, encoding, options, io.StringIO(text, newline=""), delimiter, path)


def _read(  # noqa: PLR0917 - one internal call site
    name: str, encoding: str, options: ReadOptions, stream, delimiter: str, path: Path
) -> Ledger:
    reader = _Reader(name, encoding, options)
    try:
        with paused():  # hundreds of thousands of new objects, no cycles
            return reader.run(stream, delimiter, path)
    except csv.Error as exc:
        raise ParseError(Source(name, reader.line), unreadable(exc)) from None


class _Reader:
    """One file's reading: rows → split rows (here) → transactions (qbcsv_group.Collector)."""

    def __init__(self, name: str, encoding: str, options: ReadOptions) -> None:
        self.name = name
        self.encoding = encoding
        self.options = options
        self.out = grouping.Collector(name, options)
        self.line = 0
        self.spans: list[int] = []  # first lines of records that span several lines

    def run(self, stream, delimiter: str, path: Path) -> Ledger:
        reader = csv.reader(stream, delimiter=delimiter)
        if self.options.seen is not None:  # asked from another thread: nothing per row here
            self.options.seen.follow(lambda: reader.line_num, through(stream, path))
        rows: list[tuple[int, list[str]]] = []
        header = None
        try:  # read up to the header row only: the hot loop goes on with the same reader
            for row in reader:
                rows.append((reader.line_num, row))
                header = find_header(rows[-1:], self.options)
                if header is not None or len(rows) >= HEADER_SCAN:
                    break
        finally:
            self.line = reader.line_num
        if header is None:
            raise ParseError(Source(self.name, 1), self._no_header())
        header.index = len(rows) - 1
        titles = (c.strip() for _, cells in rows[: header.index] for c in cells if c.strip())
        self.out.company = typed_masked(next(titles, ""))  # (hunt 20: "... SSN 123-45-6789")
        self._check(header)
        layout = cast(Layout, header.layout or "hand")  # layout_of's names are Layouts
        self.out.start(layout, header.line, "ref" in header.roles)
        self.out.has_split = "split" in header.roles
        try:
            self._rows(header, reader)
        finally:
            self.line = reader.line_num
        self.out.last_line = reader.line_num
        self.out.titles = rows[: header.index]  # (its period read in the rows' date order)
        self.out.whole = ends_with_total(path, delimiter, self.encoding)
        if self.spans and path.read_bytes().count(b'"') % 2:  # csv ends an open quote at EOF
            raise ParseError(
                Source(self.name, self.spans[-1]),
                "a quoted field opens on this line and is never closed: the file is "
                "probably truncated or damaged",
            )
        return self.out.ledger(KINDS[layout], layout, self.encoding)

    def _no_header(self) -> str:
        if self.options.columns:
            wanted = ", ".join(quoted(h) for _, h in self.options.columns)
            return f"expected a header row with the mapped columns {wanted} in the first rows"
        return (
            f"expected a header row with Date and Account (or Trans # / Split) columns in the "
            f"first {HEADER_SCAN} rows of a QuickBooks CSV report (got none)"
        )

    def _check(self, header: Header) -> None:
        roles = header.roles
        src = Source(self.name, header.line)
        if header.layout == "ledger" and "ref" not in roles:
            raise ParseError(
                src,
                "this General Ledger export has no Trans # column, so its transactions cannot "
                "be rebuilt: add Trans # (Customize Report > Display) and export again",
            )
        if header.layout == "hand":
            known_roles = {*ROW_ROLES, *VALUE_ROLES, *ITEM_ROLES, CLASS_ROLE}
            unknown = sorted(set(roles) - known_roles)
            if unknown:
                known = ", ".join((*ROW_ROLES, *VALUE_ROLES))
                raise ParseError(src, f"unknown column roles {unknown} (known: {known})")
            missing = [r for r in ("date", "account") if r not in roles]
            if "amount" not in roles and not ("debit" in roles and "credit" in roles):
                missing.append("amount (or debit and credit)")
            if missing:
                raise ParseError(src, f"the column mapping needs {', '.join(missing)}")

    def _rows(self, header: Header, reader) -> None:  # noqa: PLR0912, PLR0915 - the hot loop
        """The hot loop: every row after the header becomes a split or is skipped. Kept flat
        (one function, locals, no per-row calls but the Split) for speed; see the module doc."""
        roles = header.roles
        hw = len(header.cells)
        lead = header.lead
        # A missing role reads a cell that is always "": the leading unnamed column (noise), or hw
        blank = 0 if lead else hw
        # the Split cell is read only where it decides (a report without Trans #)
        indexes = [roles.get(r, blank) for r in (*ROW_ROLES, *VALUE_ROLES) if r != "split"]
        pick = itemgetter(*indexes)
        other_at = roles.get("split", blank)
        # the item columns, where the report has any (Split.item; set on the fresh split)
        item_at = [roles.get(r, blank) for r in ITEM_ROLES] if set(ITEM_ROLES) & set(roles) else []
        item_cells = itemgetter(*item_at) if item_at else None
        set_item = Split.item.__set__  # type: ignore[misc, union-attr]
        item_line = ItemCells(self.out.warn).line
        # the Class column, where the report has one (Split.klass; one name per distinct cell)
        class_at = roles.get(CLASS_ROLE, -1)
        set_class = Split.klass.__set__  # type: ignore[misc, attr-defined]
        classes: dict[str, str] = {"": ""}
        need = max(*indexes, other_at, *item_at, class_at) + 1  # shorter rows are padded
        pad = [""] * (need + 1)
        ledger = header.layout == "ledger"
        both = "amount" in roles and "debit" in roles and "credit" in roles
        by_ref = self.out.mode == "ref"  # consecutive Trans # runs handled inline
        make_split = split_maker(self.name)
        out = self.out
        add = out.add_row
        amount = out.amount
        groups = out.groups
        new_group = Group
        zero = grouping.ZERO
        plain = grouping.PLAIN_AMOUNT
        short = SHORT_AMOUNT  # longer ones go through parse_amount, which refuses huge ones
        decimal = Decimal
        g = None
        g_ref = g_date = g_who = ""  # the open group's Trans #, date and name
        put: Callable[[Split], None] = _before_any_group  # its splits.append
        spans = self.spans
        section = ""
        stack: list[str] = []  # the open sections' accounts (full label paths)
        sections: set[str] = set()  # every section's account
        heads: list[str] = []  # their header texts, to match "Total <header>"
        opened, closed = out.sections.opened, out.sections.closed
        marks: dict[str, tuple[Reconcile, str]] = {"": (Reconcile.NEW, "")}
        labels: dict[str, str] = {}  # account and account type cells → stripped
        memos: dict[str, tuple[str, bool]] = {}  # memo cell → stripped, starts with VOID
        # Split cells (by_ref; else kept with their rows): names of accounts printed by number
        note = out.others.setdefault if by_ref and "split" in roles else None
        last = reader.line_num
        shifted: list[int] = []  # rows with text past the header's last column (not read)
        fewer_cells: list[int] = []  # rows of fewer cells than the header's columns
        for cells in reader:
            line = last + 1  # a record's first line (a quoted cell can hold line breaks)
            last = reader.line_num
            if last != line:
                spans.append(line)  # a record over several lines: see run()
            row = cells
            n = len(row)
            if n < need:
                if not any(row):
                    continue
                row += pad[n:need]
            elif n > hw:  # (text past the header: its cells moved, hunt 17; else empty, cut)
                if any(c.strip() for c in row[hw:]):
                    shifted.append(line)  # (said once for the file, after the loop)
                    continue
                row = row if lead else [*row[:hw], ""]
            if lead and (row[0] or (lead > 1 and any(row[1:lead]))):
                head = next(((i, c.strip()) for i, c in enumerate(row[:lead]) if c.strip()), None)
                if head is not None:  # (a lone space there is not a heading)
                    if not ledger:
                        out.heading(line, row[:lead])
                        continue
                    level, text = head
                    # "Total X" closes the section X opened (an account may be named "Total …")
                    closing = text == "TOTAL" or (
                        level < len(heads)
                        and text.startswith("Total ")
                        and text[6:] == heads[level]
                    )
                    if closing and text != "TOTAL" and level < len(stack):  # (sections.py)
                        closed.append((line, stack[level], *pick([""] * lead + row[lead:])[8:11]))
                    del stack[level:], heads[level:]
                    if not closing:
                        parent = stack[-1] if stack else ""
                        stack.append(f"{parent}:{text}" if parent and ":" not in text else text)
                        sections.add(stack[-1])
                        heads.append(text)
                        opened.append((line, stack[-1], text, section))
                    section = stack[-1] if stack else ""
                    continue
                row[:lead] = [""] * lead  # missing roles read cell 0: keep it empty
            if n < hw and any(row):  # (a heading or TOTAL row short of cells is harmless)
                fewer_cells.append(-line if row[n - 1].strip() else line)  # (-: its last filled)
            ref, kind, date, num, who, memo, account, mark, am, de, cr, bal, atype = pick(row)
            if ledger:
                account = section
            else:  # one shared string per distinct label, not one per row
                label = labels.get(account)
                if label is None:
                    label = labels[account] = account.strip()
                account = label
            # Amount beside Debit/Credit is read where the cells agree as text, else a cross-check
            if am and (
                not both
                or (not cr and de == am)
                or (cr and not de and cr == am[1:] and am[0] == "-")
            ):
                value = None
                # the fast path: "-1,234.56" (commas checked by a regex), "1234.5": where these
                # characters alone do not make a number, Decimal refuses it as the regex would
                if len(am) <= short and (plain(am) if "," in am else not am.strip("-.0123456789")):
                    try:
                        value = decimal(am.replace(",", ""))
                    except InvalidOperation:  # "-", "."
                        pass
                if value is None:
                    value = amount(am, line)
            elif de or cr:
                if de and cr and not account:  # a Journal totals row (or an unlabelled TOTAL)
                    out.totals(line, de, cr, g if by_ref else None)
                    g = None
                    continue
                value = out.checked(am, de, cr, line) if both else out.debit_credit(de, cr, line)
            elif am:  # Amount filled, Debit and Credit empty
                value = out.checked(am, de, cr, line)
            else:
                value = zero
            if ledger and not ref and not date and not value:
                out.noise(line, row)  # e.g. a Beginning Balance row: not a split
                continue
            if not account or value is None:
                if not out.non_posting_row(line, kind):
                    out.bad_row(line, row, value)
                    continue
                if not account:
                    continue
                value = zero  # an estimate's or order's row: it is not read anyway
            reconcile = marks.get(mark)
            if reconcile is None:
                m = mark.strip()
                state = (
                    Reconcile.NEW
                    if not m
                    else Reconcile.CLEARED
                    if m in _CLEARED_MARKS
                    else Reconcile.RECONCILED
                )
                reconcile = marks[mark] = (state, m)
            void = False
            if memo:  # memos repeat too: one string (and VOID check) per distinct text
                known = memos.get(memo)
                if known is None:
                    text = memo.strip()
                    known = memos[memo] = (text, text[:4].upper() == "VOID")
                memo, void = known
            split = make_split(
                account, value, line, memo, reconcile[0], reconcile[1],
                (labels.get(atype) or labels.setdefault(atype, atype.strip())) if atype else "",
            )  # fmt: skip
            if item_cells is not None:
                detail = item_line(item_cells(row), line)
                if detail is not None:
                    set_item(split, detail)
            if class_at >= 0:
                cell = row[class_at]
                klass = classes.get(cell)
                if klass is None:
                    klass = classes[cell] = class_name(cell)
                if klass:
                    set_class(split, klass)
            if by_ref:
                if note is not None:
                    note(row[other_at], line)
                if g is None or (ref and ref != g_ref) or (date and date != g_date):
                    g = new_group(line, ref, kind, date, num, who)
                    groups.append(g)
                    g_ref, g_date, g_who, put = ref, date, who, g.splits.append
                put(split)
                if void:
                    g.void = True
                if who and who != g_who:  # a line's own name (a deposit's payer)
                    g.own(split, who)
            else:
                add(line, ref, kind, date, num, who, split, bal, row[other_at])
        for at, said, severity in widths(hw, shifted, fewer_cells, last - header.line):
            (out.error if severity == "error" else out.warn)(at, said)
        if by_ref:  # every split of this loop went into a group
            out.rows += sum(len(g.splits) for g in groups)
        out.marks = sorted({m for _, m in marks.values() if m})
        out.labels = {*labels.values(), *sections}


def _before_any_group(split: Split) -> None:
    """``put`` before the first group opens: never called (a group opens on the first split)."""
    raise AssertionError(f"{split.source}: a split before any transaction")
