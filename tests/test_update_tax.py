"""An update of a book written with sales tax tables (``run.py convert --update``): the invoices
QuickBooks made since the first conversion get their items and GnuCash's tax tables as the
first write gave its own (the book's tables, found by name; none made twice), each invoice's
subtotal, tax and total read back through the engine equal to QuickBooks' (the generator's
truth), and the summary says it. Before, they carried their tax as plain lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import gnc
from tests.support.cli import convert
from tests.support.companygen_later import Later, exports, later_company
from tests.support.companygen_tax import GST_ACCOUNT, SALES_TAX

TAX = {SALES_TAX, GST_ACCOUNT}


@pytest.fixture(scope="module")
def updated(tmp_path_factory) -> tuple[Later, Path, Path, str]:
    later = later_company(300, seed=9, items=True)  # (one new invoice keeps its tax plain)
    tmp = tmp_path_factory.mktemp("update-tax")
    book = tmp / "book.gnucash"
    first = convert(*exports(later.first, tmp / "first", "transaction_detail"), "-o", book)
    assert first.returncode == 0, first.stdout + first.stderr
    before = tmp / "before.gnucash"
    before.write_bytes(book.read_bytes())
    run = convert("--update", book, *exports(later.second, tmp / "second", "transaction_detail"))
    assert "Traceback" not in run.stderr
    assert run.returncode == 0, run.stdout + run.stderr  # (held: an edit and a deletion)
    return later, before, book, run.stdout


def test_new_invoices_get_the_books_tax_tables(updated) -> None:
    later, before, book, out = updated
    new = [t for t in later.added if t.type == "Invoice" and t.items]
    assert len(new) >= 10
    back = gnc.read_book(book, sales_tax=TAX).sales_tax
    assert back is not None
    first = gnc.read_book(before, sales_tax=TAX).sales_tax
    assert first is not None and first.tables
    assert back.tables == first.tables  # the book's own tables, none made again
    by_id = {d.id: d for d in back.invoices}
    taxed = 0
    for t in new:
        truth = later.second.tax.invoices[t.trans_no]
        got = by_id[t.num]
        tables = {e.table for e in got.entries} - {""}
        if truth.kept:  # QuickBooks' tax as a plain line: in GnuCash's subtotal, no table
            assert (got.total, got.tax, tables) == (truth.total, 0, set()), t.num
            continue
        assert (got.subtotal, got.tax, got.total) == (truth.subtotal, truth.tax, truth.total)
        if truth.table and truth.tax and not truth.kept:  # (a table, no taxable line: none)
            assert tables == {truth.table}, t.num  # through the table, not a plain tax line
            assert {e.action for e in got.entries} <= {i for i, *_ in truth.lines}  # items
            taxed += 1
        else:
            assert not tables, t.num
    assert taxed >= 5
    kept = [t.num for t in new if later.second.tax.invoices[t.trans_no].kept]
    (said,) = [line for line in out.splitlines() if line.startswith("Sales tax: ")]
    assert said.startswith(f"Sales tax: {taxed} new invoices taxed through GnuCash's tax tables")
    assert ("QuickBooks' tax as plain lines: " in said) is bool(kept)
    assert kept and all(f"{num} (" in said for num in kept)  # each named, with why


def test_the_updated_books_proof_is_the_held_changes_only(updated) -> None:
    later, _before, _book, out = updated
    assert "it differs from QuickBooks by exactly the 2 changes held" in out
    # the new documents' subtotal, tax and total read back: compared, one by one
    (line,) = [x for x in out.splitlines() if x.strip().startswith("Subtotal, tax and total of")]
    new = [t for t in later.added if t.type in ("Invoice", "Credit Memo") and t.items]
    assert line.strip().endswith("invoices and bills match QuickBooks")
    assert int(line.split(" of ")[1].split()[0]) >= len(new)
