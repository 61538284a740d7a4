"""readers.redact: the kept copy of an upload has no SSN and no bank number left, reads exactly
as the original did, and every line without one is unchanged byte for byte."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.ledger_text import to_text
from app.plan import Plan
from app.readers import read
from app.readers.redact import Redaction, redact
from tests.paths import DATA

SECRETS = re.compile(
    rb"987-65-4321|000123456789|123-45-6789|5556667|0260095|4443332|112200049|0661001235"
    rb"|066-000|12345678"
)
IIF = {
    "lists.iif": (DATA / "web" / "lists.iif").read_text(encoding="utf-8"),
    "bank.iif": "!VEND\tNAME\tBANKACCTNUM\tROUTINGNUM\tACCOUNT NUMBER\tTERMS\r\n"
    "VEND\tV\t5556667\t0260095\t4443332\tNet 30\r\nVEND\tW\t\t\t\tNet 30\r\n",
    "online.iif": "!QB ONLINE\tACCNT\tROUTNUM\tOLACCNT\n"
    "QB ONLINE\tChecking\t112200049\t0661001235\n",
    "quoted.iif": '!EMP\tNAME\tADDR1\tSSNO\n!ACCNT\tNAME\tACCNTTYPE\tDESC\nEMP\t"Al\n2nd line"\t'
    '"9 Elm St"\t123-45-6789\nACCNT\tChecking\tBANK\t"a ""quoted"" memo"\n',
}


def _same_reading(original: Path, kept: Path) -> None:
    assert to_text(read([kept], Plan())) == to_text(read([original], Plan()))


@pytest.mark.parametrize("name", sorted(IIF))
@pytest.mark.parametrize("encoding", ["utf-8", "cp1252", "utf-16", "utf-16-le"])
def test_iif_copies_lose_their_secrets_and_nothing_else(tmp_path, name, encoding):
    data = IIF[name].encode(encoding)
    (tmp_path / "original").mkdir()
    (tmp_path / "kept").mkdir()
    original, kept = tmp_path / "original" / name, tmp_path / "kept" / name
    original.write_bytes(data)
    kept.write_bytes(data)
    assert redact(kept).blanked
    after = kept.read_bytes()
    assert not SECRETS.search(after.decode(encoding).encode())
    _same_reading(original, kept)
    if encoding == "utf-8":
        untouched = [line for line in data.splitlines() if not SECRETS.search(line)]
        assert set(untouched) <= set(after.splitlines())
    assert redact(kept) == Redaction()  # nothing left to blank: the file is not written again


@pytest.mark.parametrize("name", ["customers.csv", "suppliers.csv"])
def test_csv_lists_lose_their_bank_columns(tmp_path, name):
    original = DATA / "reports" / name
    kept = tmp_path / name
    kept.write_bytes(original.read_bytes())
    redact(kept)
    assert not SECRETS.search(kept.read_bytes())
    _same_reading(original, kept)


def test_reports_and_files_without_secrets_are_left_alone(tmp_path):
    for source in (DATA / "web" / "txns.iif", DATA / "web" / "odd_columns.csv"):
        kept = tmp_path / source.name
        kept.write_bytes(source.read_bytes())
        assert redact(kept) == Redaction()
        assert kept.read_bytes() == source.read_bytes()


@pytest.mark.samples
def test_the_enterprise_sample_keeps_no_ssn(tmp_path, samples_dir):
    from tests.paths import ENTERPRISE

    raw = ENTERPRISE.read_bytes()
    assert re.search(rb"\b\d{3}-\d{2}-\d{4}\b", raw)
    kept = tmp_path / ENTERPRISE.name
    kept.write_bytes(raw)
    assert redact(kept).blanked
    left = [
        line
        for line in kept.read_bytes().splitlines()
        if re.search(rb"\b\d{3}-\d{2}-\d{4}\b", line)
    ]
    # a sole proprietor's tax ID is an SSN: masked too, as the reader masks it (hunt 11: kept)
    assert left == [], left
    assert "•••-••-••••".encode() in kept.read_bytes()
    employees = re.findall(rb"\nEMP\t[^\n]*", raw)
    ssns = [m for e in employees for m in re.findall(rb"\b\d{3}-\d{2}-\d{4}\b", e)]
    assert ssns and not any(s in kept.read_bytes() for s in ssns)
    _same_reading(ENTERPRISE, kept)


@pytest.mark.parametrize(
    "text",
    [  # cells the reader does not read: under no column name, or in a row with no header
        "!EMP\tNAME\t\tSSNO\tHIDDEN\nEMP\tJo\t987-65-4321\t123-45-6789\tN\n",
        "!EMP\tNAME\tSSNO\nEMP\tJo\t\t\t12345678\n",
        "!ACCNT\tNAME\tACCNTTYPE\nACCNT\tChecking\tBANK\nEMP\tJo\t987-65-4321\n",
    ],
)
def test_cells_nobody_reads_are_blanked_and_the_copy_reads_the_same(tmp_path, text):
    (tmp_path / "original").mkdir()
    original, kept = tmp_path / "original" / "lists.iif", tmp_path / "lists.iif"
    original.write_text(text, encoding="utf-8")
    kept.write_text(text, encoding="utf-8")
    assert redact(kept).blanked
    assert not SECRETS.search(kept.read_bytes())
    _same_reading(original, kept)
    assert read([kept], Plan()).problems  # each is still said (counted, never shown)


@pytest.mark.parametrize(
    ("data", "line", "words"),
    [
        (b"!EMP\tNAME\tADDR1\tSSNO\tPHONE1\nEMP\tJo\t123-45-6789\t555\n", 2, "missing before SSNO"),
        (b'!ACCNT\tNAME\tBANKNUM\nACCNT\tChecking\t"12345678\n', 2, "never closed"),
        (b'!EMP\tNAME\tSSNO\nEMP\tJo\t"123-45-6789\nEMP\tAl\t"\n', 2, "runs over line 3 (EMP)"),
        (b"\x1f\x8b\x08\x00" + b"\x00" * 40, 1, "a binary file"),
    ],
)
def test_where_the_reader_cannot_tell_no_copy_is_kept(tmp_path, data, line, words):
    kept = tmp_path / ".lists.iif.part"
    kept.write_bytes(data)
    done = redact(kept, "lists.iif")
    assert not done.blanked and kept.read_bytes() == data  # (the store deletes it)
    (problem,) = done.withheld
    assert problem.source.filename == "lists.iif" and problem.source.line == line
    assert words in problem.message and not SECRETS.search(problem.message.encode())


def test_an_employee_list_no_reader_knows_keeps_no_ssn(tmp_path):
    kept = tmp_path / "employees.csv"
    kept.write_text(
        "Employee,SS No.,Phone,Note\nJo,123-45-6789,555-0101,old 987-65-4321\n", encoding="utf-8"
    )
    assert redact(kept).blanked
    assert kept.read_text(encoding="utf-8") == (
        "Employee,SS No.,Phone,Note\nJo,,555-0101,old •••-••-••••\n"
    )
