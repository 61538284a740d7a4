"""What a person typed as an SSN, a bank, routing or card number, wherever QuickBooks lets them
type (hunt 17): on a note's second line (QuickBooks writes a cell's line break as the two
characters ``\\n``), in a contact or an address, as a customer message or a payment method, in a
CSV memo running over two lines, in a line broken off a note. Each is masked in the book, the
messages and the kept copy, which reads the same; ordinary numbers a bookkeeper writes are kept."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from app.plan import Plan
from app.readers import read
from app.readers.private import masked, quoted, typed_masked
from app.readers.redact import redact
from tests.support.cli import convert
from tests.support.companygen import make_company
from tests.support.kept import kept_reads_the_same

NUMBERS = re.compile(r"0012345678|021000021|4111111111111111|4012 8888 8888 1881|900-12-3456")


def _book_text(book: Path) -> str:
    return gzip.decompress(book.read_bytes()).decode("utf-8")


def _kept(tmp_path: Path, original: Path) -> str:
    return kept_reads_the_same(tmp_path, original, NUMBERS).read_bytes().decode("utf-8")


def test_numbers_typed_on_a_note_s_later_lines_contacts_and_messages_are_masked(tmp_path):
    """``Direct deposit:\\nRouting 021000021\\nAcct 0012345678``: the rule saw "nAcct" and
    "n4111...", so the numbers reached the book and the kept copy; so did a contact's, an
    address line's, a customer message's and a payment method's."""
    text = (
        "!ACCNT\tNAME\tACCNTTYPE\tDESC\n"
        "ACCNT\tSavings\tBANK\tChase savings\\nacct 0012345678\n"
        "!CUST\tNAME\tBADDR2\tCONT1\tNOTE\tNOTEPAD\n"
        "CUST\tAcme\tacct 0012345678\tPat\tsee\\nacct 0012345678\t"
        "Pays by card:\\n4111111111111111\n"
        "!VEND\tNAME\tNOTEPAD\tCUSTFLD1\n"
        "VEND\tChris\tDirect deposit:\\nRouting 021000021\\nAcct 0012345678\tSSN:\\n900-12-3456\n"
        "!INVMEMO\tNAME\n"
        "INVMEMO\tPlease pay by direct deposit to acct 0012345678, routing 021000021\n"
        "!PAYMETH\tNAME\n"
        "PAYMETH\tVisa 4012 8888 8888 1881\n"
    )
    path = tmp_path / "lists.iif"
    path.write_text(text, encoding="utf-8")
    book = tmp_path / "book.gnucash"
    run = convert(path, "-o", book, "--export-date", "2024-01-31")
    assert book.exists(), run.stdout + run.stderr
    assert not NUMBERS.search(run.stdout + run.stderr + _book_text(book))
    assert "the notes, description or address of 3 list entries at lines 2, 4, 6 hold" in (
        run.stdout
    )  # (Acme's address line, Chris's notes, the account's description)
    assert "Routing •••••••••\nAcct ••••••••••" in _book_text(book)
    read_back = read([path], Plan())
    assert [v.notes for v in read_back.vendors] == [
        "Direct deposit:\nRouting •••••••••\nAcct ••••••••••\nCustom field 1: SSN:\n•••-••-••••"
    ]
    assert {n.name for n in read_back.not_imported} == {
        "Please pay by direct deposit to acct ••••••••••, routing •••••••••",
        "Visa •••• •••• •••• ••••",
    }
    kept = _kept(tmp_path, path)
    assert not NUMBERS.search(kept)
    assert "Direct deposit:\\nRouting •••••••••\\nAcct ••••••••••" in kept  # (only digits)


def test_a_memo_s_second_line_in_an_iif_transaction_file_is_masked_in_the_kept_copy(tmp_path):
    company = make_company(30, seed=3)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    path = company.write_transactions_iif(tmp_path / "tx.iif")
    text = path.read_text(encoding="utf-8")
    typed = "\tOwner investment\\nAcct 0012345678\\n900-12-3456\t"
    path.write_text(text.replace("\tOwner investment\t", typed, 1), encoding="utf-8")
    book = tmp_path / "book.gnucash"
    run = convert(lists, path, "-o", book)
    assert run.returncode == 0, run.stderr
    assert not NUMBERS.search(_book_text(book))
    kept = _kept(tmp_path, path)
    assert not NUMBERS.search(kept)
    assert "\tOwner investment\\nAcct ••••••••••\\n•••-••-••••\t" in kept


@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_a_csv_memo_running_over_two_lines_is_masked_in_the_kept_copy(tmp_path, end) -> None:
    """The kept copy masked a memo's number line by line, so one after a line break inside
    the quoted memo ("acct\\n0012345678") stayed (the book had it masked)."""
    company = make_company(30, seed=3)
    path = company.write_transaction_detail_csv(tmp_path / "td.csv")
    text = path.read_text(encoding="utf-8")
    for memo in (f'"Paid to acct{end}0012345678"', f'"Payroll SSN{end}900-12-3456"'):
        text = text.replace(",Owner investment,", f",{memo},", 1)
    path.write_bytes(text.encode("utf-8"))
    kept = _kept(tmp_path, path)
    assert not NUMBERS.search(kept)
    assert f'"Paid to acct{end}••••••••••"' in kept or f'"Payroll SSN{end}•••-••-••••"' in kept


def test_a_csv_report_the_csv_module_cannot_split_keeps_no_copy(tmp_path) -> None:
    """A quote never closed, with more than the csv module's field limit after it: the copy
    was kept as uploaded, its memos' numbers in it (the reader refuses the file)."""
    company = make_company(30, seed=3)
    path = company.write_transaction_detail_csv(tmp_path / "td.csv")
    text = path.read_text(encoding="utf-8").replace(",Owner investment,", ',"acct 0012345678,', 1)
    path.write_text(text + ("x" * 140_000) + "\n", encoding="utf-8")
    done = redact(path)
    assert done.withheld and "not a readable CSV file" in done.withheld[0].message


def test_a_line_broken_off_a_note_is_said_with_every_digit_masked(tmp_path) -> None:
    """A note's real line break (a hand-edited file) makes its second line a row of its own,
    quoted in a warning: "Visa 4111 1111 1111 1111 exp 12/25" was said and kept as is."""
    text = '!CUST\tNAME\tNOTEPAD\nCUST\tAcme\t"Card on file:\nVisa 4111 1111 1111 1111 exp 12/25"\n'
    path = tmp_path / "lists.iif"
    path.write_text(text.replace('"', ""), encoding="utf-8")
    said = [p.message for p in read([path], Plan()).problems]
    assert any("a VISA •••• •••• •••• •••• EXP ••/•• row with no" in m for m in said), said
    kept = _kept(tmp_path, path)
    assert "4111" not in kept


def test_messages_quote_grouped_card_and_bank_numbers_masked() -> None:
    assert masked("got Visa 4111 1111 1111 1111, acct 0012 3456 78") == (
        "got Visa •••• •••• •••• ••••, acct •••• •••• ••"
    )
    assert quoted("card 4012 8888 8888 1881 on file", 12) == "“card •••• ••...”"
    kept = "call 415-555-0101 on 2024-01-31 for 1 234.56"
    assert masked(kept) == kept


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("routing 0210-0002-1", "routing ••••-••••-•"),
        ("TFN 123 456 782", "TFN ••• ••• •••"),
        ("Tax file no. 123456782", "Tax file no. •••••••••"),
        ("SIN 046 454 286", "SIN ••• ••• •••"),
        ("Paid by card 4012 8888\n8888 1881", "Paid by card •••• ••••\n•••• ••••"),
    ],
)
def test_more_ways_of_writing_such_numbers_are_masked(typed, kept) -> None:
    assert typed_masked(typed) == kept


@pytest.mark.parametrize(
    "memo",
    [
        "iPhone 12 repair, IMEI 356938035643809",  # (an IMEI passes Luhn's check)
        "Samsung S21 IMEI 35-209900-176148-1 screen",
        "Loan account 2019-2020 interest",
        "Called bank 415 555 1234 re fee",
        "IMEI number: 356938035643809",  # (hunt 18: "number" hid the word)
        "Serial number 356938035643809",
        "Vendor TIN 12-3456789 on file",  # (an employer's number, kept as a tax ID is)
        "email acct.12345678@example.com",
    ],
)
def test_device_numbers_years_and_phones_after_such_a_word_are_kept(memo) -> None:
    assert typed_masked(memo) == memo


def test_a_csv_row_whose_cells_moved_is_refused_and_masked_in_the_kept_copy(tmp_path) -> None:
    """An unquoted comma in a memo ("Paid, acct 0012345678") moved the number under Account:
    named in "account “acct 0012345678” is not in the chart", offered on the Map step to place,
    kept in the kept copy (hunt 17). A row with text past its header's last column is now
    refused at its line, quoting nothing, and the kept copy masks any cell of it."""
    company = make_company(30, seed=3)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    path = company.write_transaction_detail_csv(tmp_path / "td.csv")
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(k for k, line in enumerate(lines) if ",Owner investment," in line)
    lines[at] = lines[at].replace(",Owner investment,", ",Owner investment, acct 0012345678,")
    path.write_text("\n".join(lines), encoding="utf-8")
    run = convert(lists, path, "-o", tmp_path / "book.gnucash")
    assert run.returncode == 1 and not (tmp_path / "book.gnucash").exists()
    assert f"td.csv:{at + 1}: this row has text past the last of the 16 columns" in run.stderr
    assert not NUMBERS.search(run.stdout + run.stderr)
    assert not NUMBERS.search(_kept(tmp_path, path))


def test_a_trimmed_row_s_cells_are_read_alike_from_the_kept_copy(tmp_path) -> None:
    """A Journal whose rows lost their trailing empty cells (a tool that trims them): the kept
    copy masked every cell of such a row, the reader only its memo, so a Num 123-45-6789 (an
    identifier, never masked) was masked in the wizard's book alone (hunt 18)."""
    import csv
    import io

    src = Path(__file__).parent / "data" / "csv" / "gen_journal.csv"
    rows = list(csv.reader(io.StringIO(src.read_text(encoding="utf-8"), newline="")))
    at = next(i for i, r in enumerate(rows) if "Trans #" in r)
    k = next(i for i in range(at + 1, len(rows)) if rows[i][4].strip() and rows[i][1].strip())
    rows[k][4] = "123-45-6789"
    for row in rows[at + 1 :]:
        while row and row[-1] == "":
            row.pop()
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    text = out.getvalue().replace("Opening balance", "Opening balance acct 0012345678", 1)
    path = tmp_path / "journal.csv"
    path.write_bytes(text.encode("utf-8"))
    kept = _kept(tmp_path, path)  # (reads the same: the same book in the wizard)
    assert "123-45-6789" in kept and "acct ••••••••••" in kept


def test_typed_text_in_columns_no_reader_reads_is_masked_in_the_kept_copy(tmp_path) -> None:
    """A payment method "Visa 4012 8888 8888 1881" and a P.O. number on a transaction: never in
    the book, but kept as typed in the kept copy (hunt 18), of an IIF file and a CSV report."""
    company = make_company(30, seed=3)
    iif = company.write_transactions_iif(tmp_path / "tx.iif")
    text = iif.read_text(encoding="utf-8")
    head = next(line for line in text.splitlines() if line.startswith("!TRNS"))
    row = next(line for line in text.splitlines() if line.startswith("TRNS"))
    text = text.replace(head, head + "\tPAYMETH", 1).replace(
        row, row + "\tVisa 4111111111111111", 1
    )
    iif.write_text(text, encoding="utf-8")
    assert "Visa ••••••••••••••••" in _kept(tmp_path, iif)
    csv_path = company.write_transaction_detail_csv(tmp_path / "td.csv")
    lines = csv_path.read_text(encoding="utf-8").split("\n")
    at = next(k for k, line in enumerate(lines) if ",Memo," in line)
    lines[at] += ",Pay Meth"
    lines[at + 2] += ",Visa 4012 8888 8888 1881"
    csv_path.write_text("\n".join(lines), encoding="utf-8")
    assert "Visa •••• •••• •••• ••••" in _kept(tmp_path, csv_path)


def test_rows_with_text_past_the_header_are_said_once_for_the_file(tmp_path) -> None:
    """A column added past the header (a spreadsheet's notes) on many rows: one error with the
    count and the first lines, not one per row (hunt 18: 49 identical errors)."""
    company = make_company(30, seed=3)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    path = company.write_transaction_detail_csv(tmp_path / "td.csv")
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(k for k, line in enumerate(lines) if ",Memo," in line)
    for k in (at + 1, at + 2, at + 3):
        lines[k] += ",checked"
    path.write_text("\n".join(lines), encoding="utf-8")
    run = convert(lists, path, "-o", tmp_path / "book.gnucash")
    said = [line for line in run.stderr.splitlines() if "past the last of the" in line]
    assert len(said) == 1 and run.returncode == 1
    assert said[0].startswith(f"td.csv:{at + 2}: 3 rows (lines {at + 2}, {at + 3}, {at + 4}) have")


def test_a_list_qb2gnucash_does_not_know_is_masked_in_the_kept_copy(tmp_path) -> None:
    """An IIF list no reader reads (only its names are listed as not imported): its rows were
    kept as typed in the kept copy (hunt 17), a bank number under its own column and a card
    typed into a note included. The names listed read the same from the copy."""
    lists = make_company(30, seed=5).write_lists_iif(tmp_path / "lists.iif")
    text = lists.read_text(encoding="utf-8")
    text += (
        "!DIRECTDEP\tNAME\tROUTINGNUM\tBANKACCT\tNOTE\n"
        "DIRECTDEP\tPayroll deposit\t021000021\t0012345678\tcard 4111111111111111\n"
    )
    lists.write_text(text, encoding="utf-8")
    kept = _kept(tmp_path, lists)
    row = next(line for line in kept.splitlines() if line.startswith("DIRECTDEP\t"))
    assert row == "DIRECTDEP\tPayroll deposit\t•••••••••\t••••••••••\tcard ••••••••••••••••"
    ledger = read([lists], Plan())
    assert [n.name for n in ledger.not_imported if n.what == "DIRECTDEP"] == ["Payroll deposit"]


def test_numbers_typed_into_a_report_s_title_row_are_masked(tmp_path) -> None:
    """A report's first title row is the company's name, which names the book, the audit pack
    and the pages: "Green Valley SSN 900-12-3456 acct 0012345678" reached them all, and the
    kept copy (hunt 20)."""
    company = make_company(30, seed=6)
    journal = company.write_journal_csv(tmp_path / "journal.csv")
    lines = journal.read_text(encoding="utf-8").split("\n")
    lines[0] = '"Green Valley SSN 900-12-3456 acct 0012345678",,,,,,,,,,'
    journal.write_text("\n".join(lines), encoding="utf-8")
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    assert read([journal], Plan()).company == "Green Valley SSN •••-••-•••• acct ••••••••••"
    kept = _kept(tmp_path, journal)
    assert kept.split("\n")[0] == '"Green Valley SSN •••-••-•••• acct ••••••••••",,,,,,,,,,'
    book = tmp_path / "book.gnucash"
    run = convert(lists, journal, "-o", book)
    assert not NUMBERS.search(run.stdout + run.stderr + _book_text(book))
