"""Every CSV the tool writes is safe to open in a spreadsheet: text that would run as a formula
gets an apostrophe in front, amounts stay numbers (OWASP's CSV injection rule)."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from decimal import Decimal

import pytest

from app.csvsafe import line, neutral, text
from app.documents.proof import OwnerRow, documents_report
from tests.paths import DATA, ROOT

EVIL = "=cmd|'/C calc'!A0"


@pytest.mark.parametrize(
    ("cell", "shown"),
    [
        (EVIL, "'" + EVIL),
        ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("- Misc", "'- Misc"),
        ("-12.50", "-12.50"),
        ("+3", "+3"),
        ("-0.01", "-0.01"),
        ("Checking", "Checking"),
        ("A=B", "A=B"),
        ("", ""),
    ],
)
def test_formula_cells_are_neutralised_numbers_are_not(cell, shown):
    assert neutral(cell) == shown


def test_cells_are_quoted_as_the_csv_module_reads_them():
    row = ["Checking, Main", 'say "hi"', EVIL + ",x", "-12.50", "line\nbreak"]
    assert next(csv.reader(io.StringIO(line(row)))) == [
        "Checking, Main",
        'say "hi"',
        "'" + EVIL + ",x",
        "-12.50",
        "line\nbreak",
    ]
    assert text([["a", "b"], ["1", "-2.00"]]) == "a,b\n1,-2.00\n"


def test_documents_report_neutralises_owner_names():
    rows = (OwnerRow("@evil", "customer", Decimal("-12.50"), Decimal(0), "history"),)
    assert documents_report(rows).splitlines()[1] == "'@evil,customer,-12.50,0.00,12.50"


def test_the_verification_report_of_a_real_book_neutralises_account_names(tmp_path):
    """An account named like a formula, through ``run.py convert --report`` and the engine."""
    lists = (DATA / "cli" / "lists.iif").read_text(encoding="utf-8")
    (tmp_path / "lists.iif").write_text(lists.replace("\tSales\t", f"\t{EVIL}\t"), "utf-8")
    txns = (DATA / "cli" / "txns.iif").read_text(encoding="utf-8")
    (tmp_path / "txns.iif").write_text(txns.replace("4000 · Sales", EVIL), encoding="utf-8")
    files = (tmp_path / "lists.iif", tmp_path / "txns.iif")
    out = ("-o", tmp_path / "book.gnucash", "--report", tmp_path / "report.csv")
    run = subprocess.run(
        [sys.executable, "run.py", "convert", *files, *out],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    report = (tmp_path / "report.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(report, newline="")))
    evil = next(r for r in rows if EVIL in r[0])
    assert evil[:5] == ["'" + EVIL, "'" + EVIL, "-100.00", "-100.00", "0.00"]
    assert not any(c.startswith(("=", "@", "+")) for r in rows for c in r)
