"""``run.py convert`` with items and sales tax, as a user runs it: ``--sales-tax tables|lines``,
the summary (tax tables, taxed lines, every invoice whose tax stays QuickBooks' amount, what
items and inventory become), ``--tax-report`` (the third proof file) and ``--item-catalogue``;
the kit-shaped IIF fixtures, whose expectations are worked out by hand below."""

from __future__ import annotations

import csv
import io
from decimal import Decimal as D
from pathlib import Path

from app import gnc
from tests.support.cli import convert

KIT = Path(__file__).parent / "data" / "tax"
FILES = (KIT / "kit_lists.iif", KIT / "kit_invoices.iif")


def test_tables_summary_tax_report_and_catalogue(tmp_path) -> None:
    book, tax, items = tmp_path / "kit.gnucash", tmp_path / "tax.csv", tmp_path / "items.csv"
    run = convert(*FILES, "-o", book, "--tax-report", tax, "--item-catalogue", items)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    # before writing: the tables, the taxed lines, the two invoices keeping QuickBooks' tax
    assert (
        "  Sales tax: 3 GnuCash tax tables (State Tax, Harbor City Tax, Harbor Group), "
        "2 taxed lines, 2 invoices keep QuickBooks' tax as plain lines"
    ) in out
    assert "5002 (GnuCash's Harbor Group table gives 0.09, QuickBooks' tax is 0.10)" in out
    assert "5005 (sales tax item “Special District”: it has no rate in the lists)" in out
    assert "No tax table for Special District: it has no rate in the lists" in out
    assert "item “Training” is not in the item list" in out
    # after: the proof
    assert "Subtotal, tax and total of 6 invoices and bills and the tax owed to 2 agencies" in out
    assert out.rstrip().endswith(
        f"Book written to {book} (xml, USD): Matches QuickBooks to the cent"
    )
    rows = list(csv.DictReader(io.StringIO(tax.read_text())))
    docs = {r["id"]: r for r in rows if r["what"] == "document"}
    assert (docs["5001"]["quickbooks_tax"], docs["5001"]["gnucash_tax"]) == ("107.02", "107.02")
    assert docs["5001"]["tax_table"] == "Harbor Group"
    assert docs["5002"]["tax_table"] == "" and "0.09" in docs["5002"]["note"]
    agencies = {r["name"]: r for r in rows if r["what"] == "agency"}
    # State: 75.54 + 0.07 + 2.01 (Special District, its agency) - 50.00 paid; Harbor City
    assert agencies["State Revenue Dept"]["gnucash_tax"] == "27.62"
    assert agencies["Harbor City Treasurer"]["gnucash_tax"] == "31.51"
    assert {r["difference"] for r in agencies.values()} == {"0.00"}
    catalogue = {r["name"]: r for r in csv.DictReader(io.StringIO(items.read_text()))}
    assert catalogue["State Tax"]["rate_percent"] == "6.0"
    assert catalogue["Harbor Group"]["members"] == "State Tax; Harbor City Tax"
    assert catalogue["Filters"]["sales_price"] == "3.35"
    # the book: a customer's default table, an entry's item, quantity and rate
    back = gnc.read_book(book, sales_tax={"Sales Tax Payable"}).sales_tax
    assert back.customers == {"Ridgeway Cafe": "Harbor Group"}
    first = next(d for d in back.invoices if d.id == "5001")
    assert (first.subtotal, first.tax, first.total) == (D("1324.05"), D("107.02"), D("1431.07"))
    filters = next(e for e in first.entries if e.action == "Filters")
    assert (filters.quantity, filters.price, filters.value, filters.table) == (
        D(3),
        D("3.35"),
        D("10.05"),
        "Harbor Group",
    )
    # a bill: its item line with quantity and cost, its plain expense line
    bill = next(d for d in back.invoices if d.id == "BS-77")
    assert (bill.kind, bill.total, bill.tax) == ("vendor", D("135.00"), D(0))
    assert sorted((e.action, e.quantity, e.price, e.account) for e in bill.entries) == [
        ("", D(1), D("15.00"), "Supplies"),
        ("Filters", D(100), D("1.20"), "Supplies"),
    ]


def test_lines_mode_and_usage(tmp_path) -> None:
    book = tmp_path / "lines.gnucash"
    run = convert(*FILES, "-o", book, "--sales-tax", "lines")
    assert run.returncode == 0, run.stderr
    assert "Sales tax: as plain lines on every invoice (no tax tables), as chosen" in run.stdout
    back = gnc.read_book(book, sales_tax={"Sales Tax Payable"}).sales_tax
    assert back.tables == () and back.customers == {}
    bad = convert(*FILES, "-o", tmp_path / "x.gnucash", "--sales-tax", "some")
    assert bad.returncode == 2 and "invalid choice: 'some'" in bad.stderr
    missing = convert(*FILES, "-o", tmp_path / "y.gnucash", "--tax-report", tmp_path / "no" / "t")
    assert missing.returncode == 2 and "for the tax report does not exist" in missing.stderr
