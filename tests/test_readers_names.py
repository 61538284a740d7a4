"""Customer and vendor (supplier) lists exported as CSV: read like the IIF lists, into the book."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest

from app.ledger_text import to_text
from app.model import ReadOptions
from app.readers.qbcsv import names
from tests.paths import DATA, ROOT

REPORTS = DATA / "reports"
SECRETS = ("123456789", "12345678", "066-000")  # bank account numbers and a BSB in the fixtures


@pytest.mark.parametrize("name", ["customers.csv", "suppliers.csv"])
def test_customer_and_vendor_lists_golden_and_no_bank_numbers(name: str, golden) -> None:
    path = REPORTS / name
    text = to_text(names.parse(path, ReadOptions()))
    golden(path.with_name(name + ".expected"), text)
    for secret in SECRETS:
        assert secret not in text


def test_csv_lists_become_customers_and_vendors_in_the_book(tmp_path: Path) -> None:
    from app.gnc import read_book

    lists = tmp_path / "lists.iif"
    text = (DATA / "web" / "lists.iif").read_text(encoding="utf-8")
    lists.write_text(text.rstrip("\r\n") + "\nTERMS\tDue on receipt\t0\t0\t0.00%\t0\tN\n")
    out = tmp_path / "book.gnucash"
    csv_lists = [str(REPORTS / "customers.csv"), str(REPORTS / "suppliers.csv")]
    run = subprocess.run(
        [sys.executable, "run.py", "convert", str(lists), *csv_lists, "-o", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "customers.csv: CSV customer list" in run.stdout
    book = read_book(out)
    customers = {c.name: c for c in book.customers}
    assert {"Abercrombie, Kristy", "Cook, Brian"} <= set(customers)
    assert [j for j in customers["Abercrombie, Kristy"].jobs if "Remodel" in j]
    assert customers["Abercrombie, Kristy"].terms == "Net 30"
    assert "5647 Cypress Hill Rd" in customers["Abercrombie, Kristy"].address
    assert "Hardware Hut" in {v.name for v in book.vendors}
    raw = gzip.decompress(out.read_bytes()).decode("utf-8")
    for secret in SECRETS:
        assert secret not in raw


@pytest.mark.parametrize(
    ("row", "words"),
    [
        ("Hardware Hut,x,066-000,12345678,Net 30", "if one was added before Bank Account Number"),
        ("Hardware Hut,12345678,Net 30", "if one is missing before BSB"),
    ],
)
def test_a_list_row_whose_bank_number_may_have_moved_is_not_read(tmp_path, row, words) -> None:
    """Issue 22, item 2: the IIF lists' rule on a CSV list with sensitive columns: a row of
    another length, with text where a bank cell would sit, is an error and is not read."""
    path = tmp_path / "suppliers.csv"
    path.write_text(
        f"Supplier,BSB,Bank Account Number,Terms\nGood Co,066-000,87654321,Net 30\n{row}\n",
        encoding="utf-8",
    )
    ledger = names.parse(path, ReadOptions())
    assert [v.name for v in ledger.vendors] == ["Good Co"]
    (problem,) = [p for p in ledger.problems if p.severity == "error"]
    assert problem.source.line == 3 and words in problem.message
    assert "12345678" not in to_text(ledger) and "87654321" not in to_text(ledger)
