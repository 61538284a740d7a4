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
