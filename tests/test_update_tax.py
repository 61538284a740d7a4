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


def test_an_invoice_changed_in_quickbooks_in_its_lines_only_is_not_called_matching(tmp_path):
    """Between the two exports QuickBooks changed an invoice the book holds in its lines only:
    an item line's quantity halved and its rate doubled (the same amount, tax and total). The
    transaction's digest cannot see that, and the update called the book up to date while its
    invoice said the old quantity and rate (hunt 10). The proof compares every invoice's lines
    now: that one is named with both, the verdict is not a match (exit 3 with --strict), and
    the book reopened still holds the book's lines, as an update does not rewrite an
    invoice."""
    from dataclasses import replace

    later = later_company(300, seed=9, items=True)
    kept = {t.trans_no for t in later.first.transactions}
    invoice, k = next(
        (t, k)
        for t in later.second.transactions
        if t.type == "Invoice" and t.trans_no in kept and t.items
        for k, x in enumerate(t.items)
        if x is not None and x.quantity and x.quantity % 2 == 0 and x.price
    )
    was = invoice.items[k]
    now = replace(was, quantity=was.quantity / 2, price=was.price * 2)
    invoice.items = (*invoice.items[:k], now, *invoice.items[k + 1 :])
    book = tmp_path / "book.gnucash"
    first = exports(later.first, tmp_path / "first", "transaction_detail")
    assert convert(*first, "-o", book).returncode == 0
    second = exports(later.second, tmp_path / "second", "transaction_detail")
    take = ("account:6800", f"ref:{later.edited[1].trans_no}", f"ref:{later.deleted.trans_no}")
    run = convert(*second, "--update", book, "--strict", *(
        x for key in take for x in ("--take-quickbooks", key)
    ))  # fmt: skip
    out = run.stdout + run.stderr
    assert run.returncode == 3, out
    said = next(line for line in out.splitlines() if f"invoice {invoice.num} (" in line)
    assert "changed in QuickBooks since the book's last run in its lines only" in said, said
    assert f"{was.quantity / 2}" in said and "Edit Invoice" in said, said
    assert "Needs your attention: the lines of invoices or bills differ" in out, out
    back = {d.id: d for d in gnc.read_book(book, sales_tax=TAX).sales_tax.invoices}
    entry = next(e for e in back[invoice.num].entries if e.action == was.item)
    assert (entry.quantity, entry.price) == (was.quantity, was.price)
