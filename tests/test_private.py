"""SSNs and bank numbers never leave the readers (hunt 11, app/readers/private.py): a message
quoting a cell masks them; an SSN or a bank number whose cell moved under another column (a cell
added or removed in the row, whatever its length) is refused, never read into a name or an
address; a custom field QuickBooks labels as one is left out; a vendor's tax ID that is an SSN is
masked; a report mapped by hand is read as the wizard's kept copy. Through ``run.py convert``:
the book reopened, and the kept copy (``readers.redact``) read as the original."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from app.ledger_text import to_text
from app.plan import Plan
from app.readers import read
from app.readers.private import (
    masked,
    number_shaped,
    quoted,
    ssn_shaped,
    tax_id,
    typed_masked,
)
from app.readers.redact import redact
from tests.support.cli import convert
from tests.support.companygen import make_company
from tests.support.kept import kept_reads_the_same

SECRET = re.compile(r"900-?\d\d-?\d{4}|900 \d\d \d{4}|4401\d{8}|7788\d{6}|026009593")
ACCNT = "!ACCNT\tNAME\tACCNTTYPE\tOBAMOUNT\tACCNUM\tBANKNUM\tEXTRA\tHIDDEN\tDELCOUNT\n"
EMP = "!EMP\tNAME\tADDR1\tADDR2\tADDR3\tSSNO\tPHONE1\tCITY\tZIP\tNOTE\n"


def _book_text(book: Path) -> str:
    return gzip.decompress(book.read_bytes()).decode("utf-8")


def _run(tmp_path: Path, *files: Path, extra: tuple[str, ...] = ()):
    book = tmp_path / "book.gnucash"
    run = convert(*files, "-o", book, "--export-date", "2024-01-31", *extra)
    said = run.stdout + run.stderr
    assert not SECRET.search(said), said
    if book.exists():
        assert not SECRET.search(_book_text(book))
    return run, book


def _kept_reads_the_same(tmp_path: Path, original: Path) -> Path:
    return kept_reads_the_same(tmp_path, original, SECRET)


def test_the_shapes() -> None:
    assert masked("paid 900-12-3456 to acct 440177882210") == (
        "paid •••-••-•••• to acct ••••••••••••"
    )
    kept = "123456789.00 and 1,234,567.89 on 20240131, call 415-555-0101, Trans # 10000001"
    assert masked(kept) == kept  # (hunt 12: a date, an amount, a phone, a Trans # quoted)
    assert quoted(" 900 12 3456 ") == "“••• •• ••••”"
    assert ssn_shaped("900123456") and ssn_shaped("900.12.3456") and not ssn_shaped("94326-1234")
    assert number_shaped("440177882298") and not number_shaped("415-555-0101")
    assert not number_shaped("1000") and not number_shaped("08 9555 1000")
    assert tax_id("900-77-1111") == "•••-••-••••" and tax_id(" 12-3456789 ") == "12-3456789"


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        (  # a stray empty cell before SSNO: the SSN under PHONE1, the row one cell long
            "long.iif",
            EMP + "EMP\tJo\t1 Elm St\t\tTown\t\t900-55-1234\t\tTown\t94000\t\t\n",
            "SSNO",
        ),
        (  # CITY removed and a cell added at the end: the header's width, the SSN under PHONE1
            "width.iif",
            EMP + "EMP\tJo\t1 Elm St\t\t\t\t900-23-4567\t94326\t\t\t\n",
            "SSNO",
        ),
        (  # two cells added before BANKNUM: the bank number under HIDDEN (a Y/N warning quoted it)
            "bank.iif",
            ACCNT + "ACCNT\tSavings\tBANK\t100.00\t1010\t\t\t440177882298\t\t\n",
            "BANKNUM",
        ),
    ],
)
def test_a_number_moved_under_another_column_is_refused(tmp_path, name, text, where) -> None:
    """Nothing of the row is read, nothing of it is quoted, and no copy is kept."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    run, book = _run(tmp_path, path)
    assert run.returncode == 1 and not book.exists(), run.stdout + run.stderr
    said = f"its {where} cell is empty and a cell near it holds a number shaped like one"
    assert said in run.stdout + run.stderr
    kept = tmp_path / "kept.iif"
    kept.write_text(text, encoding="utf-8")
    (refused,) = redact(kept).withheld
    assert said in refused.message


def test_cells_read_as_amounts_dates_or_flags_are_quoted_masked(tmp_path) -> None:
    """A cell that is no amount, date or Y/N is said with its digits masked; so are the cells
    under no column name of a transaction row, in the message and in the kept copy."""
    head = "!TRNS\tTRNSID\tTRNSTYPE\tDATE\tACCNT\tAMOUNT\tCLEAR\n!SPL\tSPLID\tTRNSTYPE\tDATE\t"
    head += "ACCNT\tAMOUNT\tCLEAR\n!ENDTRNS\n"
    rows = (
        "TRNS\t1\tCHECK\t1/5/2024\tChecking\t900-11-2233\tN\nSPL\t2\tCHECK\t1/5/2024\tRent\t"
        "10.00\tN\nENDTRNS\nTRNS\t3\tCHECK\t900-11-2244\tChecking\t-5.00\t440199881122\n"
        "SPL\t4\tCHECK\t1/6/2024\tRent\t5.00\tN\t900-11-2255\t440199883344\nENDTRNS\n"
    )
    path = tmp_path / "odd.iif"
    path.write_text(head + rows, encoding="utf-8")
    run, _ = _run(tmp_path, path)
    said = run.stdout + run.stderr
    assert "(got “•••-••-••••”)" in said and "(got “••••••••••••”)" in said, said
    kept = _kept_reads_the_same(tmp_path, path)
    assert "•••-••-••••\t••••••••••••" in kept.read_text(encoding="utf-8")


def test_a_note_s_line_broken_off_is_said_and_kept_masked(tmp_path) -> None:
    """An unquoted line break in an employee's note: its second line is a row of no header,
    not read; the warning names it masked, and the kept copy keeps it masked."""
    text = (
        EMP
        + "EMP\tJo\t1 Elm\t\t\t\t\t\t\tDirect deposit to\nChase 440122223333 / SSN 900-10-1111\n"
    )
    path = tmp_path / "lists.iif"
    path.write_text(text, encoding="utf-8")
    run, _ = _run(tmp_path, path)
    assert "a CHASE •••••••••••• / SSN •••-••-•••• row with no !CHASE" in run.stdout, run.stdout
    _kept_reads_the_same(tmp_path, path)


def test_custom_fields_quickbooks_labels_as_private_and_ssn_tax_ids(tmp_path) -> None:
    """CUSTNAMEDICT labels CUSTFLD1 "Direct Deposit Bank Account" and CUSTFLD2 "Social Security
    No." for vendors: both left out of the vendor's notes (they went in as "ACH Bank Account No.:
    ..."), blank in the kept copy; a third, "Spouse's Name", kept. A tax ID shaped like an SSN
    (a sole proprietor's) is masked, an employer number kept, each said once (it was twice)."""
    text = (
        "!CUSTNAMEDICT\tINDEX\tLABEL\tCUSTOMER\tVENDOR\tEMPLOYEE\n"
        "CUSTNAMEDICT\t0\tDirect Deposit Bank Account\tN\tY\tN\n"
        "CUSTNAMEDICT\t1\tSocial Security No.\tN\tY\tN\n"
        "CUSTNAMEDICT\t2\tSpouse's Name\tN\tY\tN\n"
        "!VEND\tNAME\tTAXID\tCUSTFLD1\tCUSTFLD2\tCUSTFLD3\n"
        "VEND\tChris\t900-77-1111\t7788990011\t900-66-7777\tSam\n"
        "VEND\tAcme Co\t12-3456789\t\t\t\n"
    )
    path = tmp_path / "lists.iif"
    path.write_text(text, encoding="utf-8")
    run, book = _run(tmp_path, path)
    assert book.exists(), run.stdout + run.stderr
    from app import gnc

    notes = {v.name: v.notes for v in gnc.read_book(book).vendors}
    assert notes == {
        "Chris": "Spouse's Name: Sam\nTax ID: •••-••-••••",
        "Acme Co": "Tax ID: 12-3456789",
    }
    kept = _kept_reads_the_same(tmp_path, path)
    assert "VEND\tChris\t•••-••-••••\t\t\tSam" in kept.read_text(encoding="utf-8")


def test_list_columns_named_for_a_private_number_are_left_out(tmp_path) -> None:
    """A vendor list's "Soc. Sec. No.", "ACH Acct #", "ABA #" and "Direct Deposit Account"
    columns: not in the book's notes (they were), blank in the kept copy."""
    text = (
        "Vendor,Main Phone,Soc. Sec. No.,ACH Acct #,ABA #,Direct Deposit Account,Tax ID\n"
        "Chris Markley,555-0101,900-88-1111,7788001122,026009593,440155550000,12-3456789\n"
    )
    path = tmp_path / "vendors.csv"
    path.write_text(text, encoding="utf-8")
    _, book = _run(tmp_path, path)
    from app import gnc

    (vendor,) = gnc.read_book(book).vendors
    assert vendor.notes == "Tax ID: 12-3456789", vendor.notes
    kept = _kept_reads_the_same(tmp_path, path)
    assert kept.read_text(encoding="utf-8").splitlines()[1] == (
        "Chris Markley,555-0101,,,,,12-3456789"
    )


def test_a_report_mapped_by_hand_on_the_command_line_is_read_as_the_wizard_reads_it(tmp_path):
    """A column named "Payee SSN" mapped as the Name, SSNs written out in the memos: the book
    holds none of them (the command line read the file itself and wrote them in); a long number
    (a reference, a Trans #, an amount) is read as it is (hunt 12)."""
    path = tmp_path / "odd.csv"
    path.write_text(
        "Posted On,Ref No,Ledger,Value,Payee SSN,Note\n"
        "02/01/2024,7,Checking,-25.00,900-99-1111,paid 900-99-2222 acct 440166661111\n"
        "02/01/2024,7,Gas,25.00,,SSN 900 99 3333 / 900993333\n",
        encoding="utf-8",
    )
    columns = {"date": "Posted On", "num": "Ref No", "account": "Ledger", "amount": "Value"}
    columns |= {"memo": "Note", "name": "Payee SSN"}
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"files": {"odd.csv": {"columns": columns}}}), encoding="utf-8")
    types = ("--type", "Checking=BANK", "--type", "Gas=EXPENSE", "--plan", str(plan))
    book = tmp_path / "book.gnucash"
    run = convert(path, "-o", book, "--export-date", "2024-01-31", *types)
    assert run.returncode == 0 and book.exists(), run.stdout + run.stderr
    text = _book_text(book)
    # (a bank number typed after "acct" is masked too, and a second number after a slash:
    # readers.typed)
    assert "paid •••-••-•••• acct ••••••••••••" in text and "SSN ••• •• •••• / •••••••••" in text
    assert not re.search(r"900-99-\d{4}|900 99 \d{4}", text)
    kept = tmp_path / "kept" / "odd.csv"  # (the wizard's copy: the typed bank number masked)
    kept.parent.mkdir()
    kept.write_bytes(path.read_bytes())
    assert redact(kept).blanked and "440166661111" not in kept.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "text", ["Jo Smith,900-44-1212,440155551111,555-0101\n" * 3, "Jo Smith,900441414\n" * 3]
)
def test_a_table_that_is_no_export_is_refused_without_its_numbers(tmp_path, text) -> None:
    path = tmp_path / "staff.csv"
    path.write_text(text, encoding="utf-8")
    run, book = _run(tmp_path, path)
    assert run.returncode == 1 and not book.exists()
    assert "Jo Smith, •••" in run.stdout + run.stderr, run.stdout + run.stderr


@pytest.mark.parametrize(
    "text",
    [  # (hunt 12) no SSN recorded, a 9-digit ZIP, a phone without separators beside SSNO
        EMP + "EMP\tJo\t1 Elm St\t\t\t\t612345678\tTown\t943261234\t\n",
        ACCNT + "ACCNT\tSavings\tBANK\t100.00\t1010\t\t\tN\t0\n",  # (no bank number)
        "!ACCNT\tNAME\tACCNTTYPE\tDESC\tBANKNUM\tHIDDEN\nACCNT\tLoan\tBANK\t4400123456\t\tN\n",
        "!INVITEM\tNAME\tINVITEMTYPE\tDESC\tPRICE\n"  # part numbers shaped 3-2-4
        "INVITEM\t100-20-3000\tPART\tBolt\t1.00\nINVITEM\t100-20-3001\tPART\tNut\t1.00\n",
    ],
)
def test_ordinary_lists_are_read_as_they_are(tmp_path, text) -> None:
    """A row whose sensitive cell is empty, its neighbours holding ordinary numbers, is read;
    a part number shaped like an SSN is kept (two of them were masked into one, and the second
    item lost)."""
    path = tmp_path / "lists.iif"
    path.write_text(text, encoding="utf-8")
    parsed = read([path], Plan())
    assert not parsed.errors and "•" not in to_text(parsed), to_text(parsed)
    (tmp_path / "kept").mkdir()
    kept = tmp_path / "kept" / "lists.iif"
    kept.write_text(text, encoding="utf-8")
    assert not redact(kept).withheld
    assert to_text(read([kept], Plan())) == to_text(parsed)


def test_lists_with_account_and_phone_numbers_beside_an_empty_bank_column_are_read(tmp_path):
    text = (
        "Vendor,Company,Main Phone,Account No.,Bank Name,Bank Account No.,Tax ID\n"
        "Gas Co,Gas Co,5552013001,004412345678,,,12-3456789\n"
        "Sole Prop,,555-0101,,,,123-45-6789\n"
    )
    path = tmp_path / "vendors.csv"
    path.write_text(text, encoding="utf-8")
    parsed = read([path], Plan())
    assert not parsed.errors and len(parsed.vendors) == 2, parsed.problems
    assert [v.tax_id for v in parsed.vendors] == ["12-3456789", "•••-••-••••"]
    kept = _kept_reads_the_same(tmp_path, path)
    assert "123-45-6789" not in kept.read_text(encoding="utf-8")


def test_a_vendor_list_with_no_private_column_still_masks_an_ssn_tax_id(tmp_path) -> None:
    path = tmp_path / "vendors.csv"
    path.write_text("Vendor,Tax ID,Eligible for 1099\nSole Prop,123-45-6789,Yes\n", "utf-8")
    kept = _kept_reads_the_same(tmp_path, path)
    assert kept.read_text(encoding="utf-8").splitlines()[1] == "Sole Prop,•••-••-••••,Yes"


def test_a_job_s_terms_not_in_the_terms_list_are_refused_as_a_customer_s(tmp_path) -> None:
    """A job's own terms date its invoices; terms the list does not hold are said, as for a
    customer (its invoices fell due on their date, silently; hunt 12)."""
    path = tmp_path / "lists.iif"
    path.write_text(
        "!TERMS\tNAME\tDUEDAYS\tTERMSTYPE\nTERMS\tNet 30\t30\t0\n"
        "!CUST\tNAME\tTERMS\nCUST\tAcme\tNet 30\nCUST\tAcme:Roof\tNet 45\n",
        encoding="utf-8",
    )
    from app import pipeline

    prepared = pipeline.prepare(read([path], Plan()), Plan())
    found = [p.message for p in prepared.errors]
    job = "job “Acme:Roof” has terms “Net 45”, which are not in the terms list"
    assert any(job in m for m in found), found


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("Payroll SSN 900-12-3456", "Payroll SSN •••-••-••••"),
        ("Social Security No. 900 12 3456", "Social Security No. ••• •• ••••"),
        ("SSN 900 - 12 - 3456 / ssn-900123456", "SSN ••• - •• - •••• / ssn-•••••••••"),
        ("Account #: 0012345678 Chase", "Account #: •••••••••• Chase"),
        ("routing/acct 021000021/0012345678", "routing/acct •••••••••/••••••••••"),
        ("Acct 12345678/021000021", "Acct ••••••••/•••••••••"),
        ("Acct:  0012345678, acct=0012345678", "Acct:  ••••••••••, acct=••••••••••"),
        ("acct 0012 3456 78", "acct •••• •••• ••"),
        ("RTN 021000021 DDA 0012345678", "RTN ••••••••• DDA ••••••••••"),
        ("Direct deposit to 0012345678 / 021000021", "Direct deposit to •••••••••• / •••••••••"),
        ("TIN 900123456", "TIN •••••••••"),
        ("Paid by card 4012-8888-8888-1881", "Paid by card ••••-••••-••••-••••"),
        ("Amex 3782 822463 10005 refund", "Amex •••• •••••• ••••• refund"),
    ],
)
def test_numbers_typed_in_the_shapes_people_type_them_are_masked(typed, kept) -> None:
    """Hunt 14: these reached the book (a second number after a slash, "#:", two spaces, "=",
    spaced digits, RTN, DDA, TIN, direct deposit)."""
    assert typed_masked(typed) == kept


@pytest.mark.parametrize(
    "memo",
    [
        "Call 415-555-0101, ZIP 94107-1234, invoice 123456789, loan 1234567890",
        "Bank 20210131 transfer",  # (a date after the word)
        "Processor ref 1234567812345678, order 4012888888881882",  # (no card: Luhn's check)
        "Reclass to account 6100-00; account 12 34; Bank of America 2 checks; 2019-01-15",
    ],
)
def test_ordinary_memos_are_kept_as_typed(memo) -> None:
    assert typed_masked(memo) == memo


@pytest.mark.parametrize("kind", ["transaction_detail_csv", "transactions_iif"])
def test_numbers_typed_into_memos_are_masked_and_said(tmp_path, kind) -> None:
    """An SSN written out and a bank account number typed after "acct#" into a memo are masked
    in the book, said at their lines, and masked in the kept copy, which reads the same; a
    phone number and an invoice number in a memo are kept as typed (they were in the book and
    the kept copy as typed: hunt 11's note)."""
    company = make_company(30, seed=3)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    path = getattr(company, f"write_{kind}")(tmp_path / ("td.csv" if "csv" in kind else "tx.iif"))
    sep = "," if path.suffix == ".csv" else "\t"
    text = path.read_text(encoding="utf-8")
    for old, new in (
        ("Owner investment", "Owner investment SSN 900-12-3456"),
        ("Owner investment", "Owner investment to acct# 4401123456789012"),
        ("Deposit", "Deposit call 415-555-0101 invoice 123456789"),
    ):
        text = text.replace(f"{sep}{old}{sep}", f"{sep}{new}{sep}", 1)
    path.write_text(text, encoding="utf-8")
    book = tmp_path / "book.gnucash"
    run = convert(lists, path, "-o", book)
    assert run.returncode == 0, run.stderr
    typed = re.compile(r"900.?12.?3456|4401123456789012")
    assert not typed.search(run.stdout + run.stderr) and not typed.search(_book_text(book))
    assert "2 memos at " in run.stdout + run.stderr
    assert "what looks like a Social Security number or a bank account" in run.stdout
    book_text = _book_text(book)
    assert "Owner investment SSN •••-••-••••" in book_text
    assert "Owner investment to acct# ••••••••••••••••" in book_text
    assert "Deposit call 415-555-0101 invoice 123456789" in book_text
    kept = _kept_reads_the_same(tmp_path, path)
    assert not typed.search(kept.read_text(encoding="utf-8"))
    assert "Deposit call 415-555-0101 invoice 123456789" in kept.read_text(encoding="utf-8")
    said = [p.message for p in read([lists, kept], Plan()).problems if "2 memos at" in p.message]
    assert said, "the kept copy's memos are said as the original's"


def test_numbers_typed_into_the_lists_notes_and_descriptions_are_masked_and_said(tmp_path):
    """An SSN in an employee's note, a bank number in a vendor's note and in a bank account's
    description, a card number as a vendor's "Account no." reached the book and the kept copy
    as typed (the lists' texts were not looked at: note 11). Masked in both, said once at
    their lines; an account number with a customer or a utility (the real lists sample's), a
    phone and a loan number after no such word are kept."""
    text = (
        ACCNT
        + "ACCNT\tChecking\tBANK\t0\t1000\t\t\tN\t0\n"
        + "!ACCNT\tNAME\tACCNTTYPE\tDESC\n"
        + "ACCNT\tSavings\tBANK\tChase savings acct 4401123456789012\n"
        + EMP
        + "EMP\tPat Lee\t1 Main St\t\t\t\t555-0101\tSpringfield\t12345\tSSN 900-12-3456\n"
        + "!VEND\tNAME\tNOTE\tNOTEPAD\tCUSTFLD1\n"
        + "VEND\tCard Co\t4012 8888 8888 1881\tDirect deposit to 7788123456\tLoan 1234567890\n"
        + "VEND\tCal Telephone\t415-555-9876-8053\t\t\n"
        + "!CUST\tNAME\tNOTE\tNOTEPAD\n"
        + "CUST\tAcme\tC-1001\tCall 415-555-0101\n"
    )
    path = tmp_path / "lists.iif"
    path.write_text(text, encoding="utf-8")
    run, book = _run(tmp_path, path)
    said = run.stdout + run.stderr
    assert book.exists(), said
    card = re.compile(r"4012 8888 8888 1881|8888.?1881")
    assert not card.search(said) and not card.search(_book_text(book))
    assert (
        "the notes, description or address of 3 list entries at lines 4, 6, 8 hold what looks"
        in said
    )
    from app import gnc

    read_back = gnc.read_book(book)
    assert {v.name: v.notes for v in read_back.vendors} == {
        "Card Co": "Direct deposit to ••••••••••\nAccount no.: •••• •••• •••• ••••\n"
        "Custom field 1: Loan 1234567890",
        "Cal Telephone": "Account no.: 415-555-9876-8053",
    }
    employees = read([path], Plan()).employees  # (GnuCash keeps no notes of an employee)
    assert [e.notes for e in employees] == ["Note: SSN •••-••-••••"]
    assert [c.notes for c in read_back.customers] == ["Call 415-555-0101\nAccount no.: C-1001"]
    assert "Chase savings acct ••••••••••••••••" in _book_text(book)
    kept = _kept_reads_the_same(tmp_path, path).read_text(encoding="utf-8")
    assert not card.search(kept)
    assert (
        "VEND\tCard Co\t•••• •••• •••• ••••\tDirect deposit to ••••••••••\tLoan 1234567890" in kept
    )


def test_numbers_typed_into_a_csv_list_are_masked_and_said(tmp_path) -> None:
    """A vendor list's notes, its "Account no." and a column that lands in the notes: what was
    typed there as an SSN or a bank number is masked in the book and the kept copy."""
    text = (
        "Vendor,Main Phone,Account No.,Notes,Payment info\n"
        'Card Co,555-0101,3782 822463 10005,SSN 900-55-4444,"acct 7788123456, branch 12"\n'
        "Acme,555-0102,A-77,Call Sam,\n"
    )
    path = tmp_path / "vendors.csv"
    path.write_text(text, encoding="utf-8")
    run, book = _run(tmp_path, path)
    said = run.stdout + run.stderr
    assert not re.search(r"822463", said + _book_text(book))
    assert "the notes, description or address of 1 list entry at line 2 holds what looks" in said
    from app import gnc

    assert {v.name: v.notes for v in gnc.read_book(book).vendors} == {
        "Card Co": "SSN •••-••-••••\nAccount no.: •••• •••••• •••••\n"
        "Payment info: acct ••••••••••, branch 12",
        "Acme": "Call Sam\nAccount no.: A-77",
    }
    kept = _kept_reads_the_same(tmp_path, path).read_text(encoding="utf-8")
    assert kept.splitlines()[1] == (
        'Card Co,555-0101,•••• •••••• •••••,SSN •••-••-••••,"acct ••••••••••, branch 12"'
    )
