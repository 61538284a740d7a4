"""Issue 13: input that must be refused (or said) with its file and line before any book is
written, through the real CLI (``run.py convert``) on the project's own files in
tests/data/checks/, and the readers' side of each rule."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from app import pipeline
from app.errors import BookWriteError
from app.gnc import read_book
from app.plan import Plan
from tests.paths import DATA
from tests.support.cli import convert

CHECKS = DATA / "checks"
LISTS = DATA / "cli" / "lists.iif"


def refused(tmp_path: Path, *files: Path) -> list[str]:
    """stderr's lines of a run that must exit 1 and leave no book (nor anything else) behind."""
    out = tmp_path / "book.gnucash"
    run = convert(*files, "-o", out)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert list(tmp_path.iterdir()) == []
    lines = run.stderr.splitlines()
    assert lines[-1].startswith("No book written:"), lines
    return lines[:-1]


# ---------------------------------------------------------------- 11: years 0001 and 0019

YEAR_WORDS = (
    "year {0} is before 1900: a year of 3 or 4 digits is read as written (only 2-digit years "
    "are completed), so correct it in the file; transaction not read"
)


def test_years_0019_and_0001_are_refused_not_read_as_2019(tmp_path):
    assert refused(tmp_path, CHECKS / "year_0019.iif") == [
        f"year_0019.iif:7: expected a date like M/D/YYYY (got “1/2/0019”): "
        f"{YEAR_WORDS.format('0019')}",
        f"year_0019.iif:10: expected a date like M/D/YYYY (got “1/2/0001”): "
        f"{YEAR_WORDS.format('0001')}",
    ]  # and 1/2/19 on line 13 is 2019: no problem


# ---------------------------------------------------------------- 13: amounts GnuCash cannot hold

TOO_LARGE = (
    "expected an amount under 1,000,000,000,000,000 (got “{0}”): a GnuCash book cannot hold it"
)
LEFT_OUT = "; the row's split is left out, so its transaction is incomplete"


def test_huge_iif_amounts_are_refused_with_their_lines(tmp_path):
    assert refused(tmp_path, CHECKS / "huge_amount.iif") == [
        "huge_amount.iif:3: OBAMOUNT: " + TOO_LARGE.format("-99999999999999999.99"),
        "huge_amount.iif:7: AMOUNT: " + TOO_LARGE.format("99999999999999999.99"),
        "huge_amount.iif:7: transaction has no lines",
        "huge_amount.iif:8: AMOUNT: " + TOO_LARGE.format("-99999999999999999.99"),
    ]


def test_huge_csv_amounts_are_refused_on_the_fast_path_too(tmp_path):
    """The Amount column's fast path (plain digits) and the grouped-thousands path; the largest
    amount under the limit (lines 6-7) is read."""
    assert refused(tmp_path, LISTS, CHECKS / "huge_amount_detail.csv") == [
        "huge_amount_detail.csv:2: " + TOO_LARGE.format("99999999999999999.99") + LEFT_OUT,
        "huge_amount_detail.csv:3: " + TOO_LARGE.format("-99999999999999999.99") + LEFT_OUT,
        "huge_amount_detail.csv:4: " + TOO_LARGE.format("1,000,000,000,000,000.00") + LEFT_OUT,
        "huge_amount_detail.csv:5: " + TOO_LARGE.format("-1,000,000,000,000,000.00") + LEFT_OUT,
    ]


def test_huge_csv_debits_and_credits_are_refused(tmp_path):
    assert refused(tmp_path, LISTS, CHECKS / "huge_amount_journal.csv") == [
        "huge_amount_journal.csv:2: " + TOO_LARGE.format("99999999999999999.99") + LEFT_OUT,
        "huge_amount_journal.csv:3: " + TOO_LARGE.format("99999999999999999.99") + LEFT_OUT,
    ]


# ---------------------------------------------------------------- 3: what the writer would refuse

TERMS_HINT = (
    "which are not in the terms list (no TERMS row names them; is the lists file cut short?): "
    "export the lists again with the terms list"
)
FINER = "finer than the book currency's smallest unit"
# One defect a case: its file (and currency), the one message the checks give, and what the
# writer itself raises without them (its message's file:line, or the binding that overflows).
WRITER_REFUSALS = {
    "a customer's terms not listed": (
        ("truncated_lists.iif",),
        f"truncated_lists.iif:7: customer “Big Co” has terms “Net 15”, {TERMS_HINT}",
        r"^truncated_lists\.iif:7: terms “Net 15” are not in the terms list$",
    ),
    "a vendor's terms not listed": (
        ("truncated_lists_vendor.iif",),
        f"truncated_lists_vendor.iif:9: vendor “Gas Co” has terms “Net 30”, {TERMS_HINT}",
        r"^truncated_lists_vendor\.iif:9: terms “Net 30” are not in the terms list$",
    ),
    "a credit limit finer than a cent": (
        ("fine_limit.iif",),
        f"fine_limit.iif:5: customer “Ann Smith”: credit limit 100.005 is {FINER} "
        "(USD: 2 decimal places); correct it in the file",
        r"^fine_limit\.iif:5: amount 100\.005 is finer than .* \(1/100\)$",
    ),
    "amounts finer than a cent": (
        ("fine_amounts.iif",),
        f"fine_amounts.iif:9: amounts {FINER} (USD: 2 decimal places) at lines 9-10; "
        "correct them in the file or choose another book currency",
        r"^fine_amounts\.iif:9: amount 10\.005 is finer than the currency's smallest unit",
    ),
    "a credit limit in cents in a yen book": (
        ("fine_limit.iif", "--currency", "JPY"),
        f"fine_limit.iif:5: customer “Ann Smith”: credit limit 100.005 is {FINER} "
        "(JPY: no decimal places); correct it in the file",
        r"^fine_limit\.iif:5: amount 100\.005 is finer than .* \(1/1\)$",
    ),
    "cents in a yen book": (
        ("yen_amounts.iif", "--currency", "JPY"),
        f"yen_amounts.iif:12: amounts {FINER} (JPY: no decimal places) at lines 12-13; "
        "correct them in the file or choose another book currency",
        r"^yen_amounts\.iif:12: amount 10\.50 is finer than the currency's smallest unit",
    ),
    "too large for a 6-decimal currency": (
        ("large_for_currency.iif", "--currency", "XAU"),
        "large_for_currency.iif:7: amounts larger than the book currency can hold (XAU: at "
        "most 9,223,372,036,854.775807) at lines 7-8; correct them in the file",
        "'gnc_numeric_create', argument 1 of type 'gint64'",  # no file:line: the bindings'
    ),
    "terms due days": (
        ("terms_numbers.iif",),
        "terms_numbers.iif:4: terms “Net Forever”: due days 99999999999 is more than "
        "GnuCash holds; correct it in the file",
        "'gncBillTermSetDueDays', argument 2 of type 'gint'",  # no file:line: the bindings'
    ),
    "terms discount digits": (
        ("terms_discount.iif",),
        "terms_discount.iif:5: terms “Tiny Discount”: discount 0.0000000000000000000001% has "
        "more digits than GnuCash holds; correct it in the file",
        "'gnc_numeric_create', argument 2 of type 'gint64'",  # the discount's denominator
    ),
    "a currency without a decimal unit": (
        ("../cli/lists.iif", "--currency", "MGA"),
        "currency MGA has a unit of 1/5, which GnuCash cannot take decimal amounts in; "
        "choose another book currency",
        r"^currency MGA has a non-decimal unit 1/5$",
    ),
}


def _args(args: tuple[str, ...]) -> list[object]:
    return [CHECKS / a if a.endswith(".iif") else a for a in args]


@pytest.mark.parametrize("case", sorted(WRITER_REFUSALS))
def test_what_the_writer_refuses_is_found_before_writing(tmp_path, case):
    args, expected, _writer = WRITER_REFUSALS[case]
    assert refused(tmp_path, *_args(args)) == [expected]


@pytest.mark.parametrize("case", sorted(WRITER_REFUSALS))
def test_the_writer_does_refuse_each_of_them(tmp_path, case):
    """Without the checks, GnuCash's writer fails on every one of these ledgers, on the same
    line (a BookWriteError naming file:line, or the bindings' OverflowError naming the engine
    call that cannot hold the figure): the rules in validate are its own."""
    from app import gnc

    args, _, writer = WRITER_REFUSALS[case]
    given = _args(args)
    files = [Path(a) for a in given if isinstance(a, Path)]
    plan = Plan(currency=str(given[-1]) if "--currency" in args else "USD")
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    assert len(prepared.errors) == 1  # what the test above shows
    out = tmp_path / "book.gnucash"
    raised = BookWriteError if writer.startswith("^") else OverflowError
    with pytest.raises(raised, match=writer if raised is BookWriteError else re.escape(writer)):
        gnc.write_book(prepared.ledger, out, currency=plan.currency)
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- 10: an export of headers alone

EMPTY_FILE = (
    "nothing is imported from this file: it has column headers but no rows under them; export "
    "it again with the lists ticked, or with report dates that cover the transactions"
)
EMPTY_BOOK = (
    "nothing to import: the files hold no accounts, transactions, customers, vendors, employees "
    "or bill terms, so the book would be empty"
)


def test_headers_without_rows_are_said_and_never_a_match(tmp_path):
    out = tmp_path / "book.gnucash"
    files = (CHECKS / "headers_only.iif", CHECKS / "headers_only_journal.csv")
    run = convert(*files, "-o", out)
    assert run.returncode == 0, run.stdout + run.stderr
    for line in (
        f"  {EMPTY_BOOK}",
        f"  headers_only.iif:1: {EMPTY_FILE}",
        f"  headers_only_journal.csv:1: {EMPTY_FILE}",
        "Verification:\n  nothing to compare with QuickBooks: the book has no accounts\n",
    ):
        assert line in run.stdout
    assert "match" not in run.stdout
    assert read_book(out).accounts == ()
    strict = convert(*files, "-o", tmp_path / "strict.gnucash", "--strict")
    assert strict.returncode == 3
    assert strict.stderr == "Verification compared nothing (--strict).\n"
    assert read_book(tmp_path / "strict.gnucash").accounts == ()


def test_an_empty_file_among_good_ones_is_named(tmp_path):
    out = tmp_path / "book.gnucash"
    run = convert(LISTS, DATA / "cli" / "txns.iif", CHECKS / "headers_only_journal.csv", "-o", out)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"  headers_only_journal.csv:1: {EMPTY_FILE}" in run.stdout
    assert EMPTY_BOOK not in run.stdout
    assert "5 of 5 accounts match QuickBooks to the cent" in run.stdout
    assert read_book(out).transactions == 2


def test_a_report_of_no_accounts_is_not_ok():
    from app.verify_report import Report

    report = Report(rows=(), checks=())
    assert not report.ok
    assert report.headline() == "nothing to compare with QuickBooks: the book has no accounts"


def test_preview_warns_of_an_empty_export():
    plan = Plan()
    prepared = pipeline.prepare(pipeline.read([CHECKS / "headers_only.iif"], plan), plan)
    assert [str(p) for p in prepared.warnings] == [EMPTY_BOOK, f"headers_only.iif:1: {EMPTY_FILE}"]
    assert not prepared.errors


# ---------------------------------------------------------------- 15: control characters in names

CONTROL = (
    "invisible control characters ({0}) removed from the {1} at line {2}; a GnuCash book cannot "
    "show them"
)


def test_control_characters_are_removed_with_a_warning(tmp_path):
    out = tmp_path / "book.gnucash"
    run = convert(CHECKS / "control_chars.iif", "-o", out)
    assert run.returncode == 0, run.stdout + run.stderr
    for codes, what, line in (
        ("U+0001", "account name", 2),
        ("U+0007", "account description", 2),
        ("U+001B", "customer name", 5),
        ("U+000C", "customer billing address lines", 5),
        ("U+0008", "customer notes", 5),
        ("U+007F", "vendor name", 7),
        ("U+0002", "employee name", 9),
        ("U+001B", "transaction description", 13),
        ("U+0001", "split account", 13),
        ("U+001F", "split memo", 13),
    ):
        assert f"  control_chars.iif:{line}: {CONTROL.format(codes, what, line)}\n" in run.stdout
    book = read_book(out)
    assert [a.full_name for a in book.accounts] == ["Checking", "Sales"]
    assert book.account("Checking").description == "Main bank"
    (ann,) = book.customers
    assert (ann.name, ann.address[:2], ann.notes) == (
        "Ann Smith",
        ("Ann Smith", "1 Main St"),
        "called twice",
    )
    assert [v.name for v in book.vendors] == ["Gas Co"]
    assert [e.name for e in book.employees] == ["Joe Worker"]
    (deposit,) = read_book_transactions(out)
    assert deposit.description == "Ann Smith"
    assert [s.memo for s in deposit.splits] == ["first deposit", ""]
    text = gzip.decompress(out.read_bytes()).decode("utf-8")
    assert "?" not in text.split("<gnc:book", 1)[1]  # nothing became a question mark
    assert "987-65-4321" not in text


def test_control_characters_in_a_csv_report(tmp_path):
    out = tmp_path / "book.gnucash"
    run = convert(LISTS, CHECKS / "control_chars_journal.csv", "-o", out)
    assert run.returncode == 0, run.stdout + run.stderr
    where = "control_chars_journal.csv:2"
    assert f"  {where}: {CONTROL.format('U+0007', 'transaction description', 2)}\n" in run.stdout
    memo = CONTROL.format("U+001B", "split memo", 2).replace("line 2", "lines 2-3")
    assert f"  {where}: {memo}\n" in run.stdout
    (gas,) = [t for t in read_book_transactions(out) if t.num == "102"]
    assert (gas.description, {s.memo for s in gas.splits}) == ("Gas Co", {"March gas"})


def read_book_transactions(path: Path):
    from app.gnc import read_book as read

    return read(path, transactions=True).transaction_list


# ---------------------------------------------------------------- 9: rows that do not line up

SSNS = ("111-22-3333", "222-33-4444", "333-44-5555")
MOVED = (
    "this row has {0} cells, its !EMP header 4: if one {1} before SSNO, the SSNO cell (never "
    "imported) now sits under another column, so the row is not read; export the list again "
    "from QuickBooks (it writes every cell) or line the row up with its header"
)
SHORT = (
    "this row has 2 of the {0} cells its !{1} header names: {2} read as empty; if a cell is "
    "missing mid-row instead, the cells after it are under the wrong columns: check the row"
)


def test_rows_that_may_have_moved_an_ssn_are_refused_and_short_rows_said(tmp_path):
    out = tmp_path / "book.gnucash"
    run = convert(CHECKS / "short_rows.iif", "-o", out)
    assert run.returncode == 1, run.stdout + run.stderr
    assert run.stderr.splitlines() == [
        "short_rows.iif:9: " + MOVED.format(3, "is missing"),
        "short_rows.iif:10: " + MOVED.format(5, "was added"),
        "No book written: 2 problems to resolve.",
    ]
    assert "  short_rows.iif:3: " + SHORT.format(4, "ACCNT", "DESC, ACCNUM") in run.stdout
    assert "  short_rows.iif:6: " + SHORT.format(5, "CUST", "BADDR2, TERMS, HIDDEN") in run.stdout
    assert list(tmp_path.iterdir()) == []
    for ssn in SSNS:
        assert ssn not in run.stdout + run.stderr


def test_the_reader_never_lets_a_moved_ssn_through(tmp_path):
    """Line 9's SSN sits under ADDR1 and line 10's under HIDDEN: neither row is read; line 8
    (full width) and line 11 (empty cells past the end) are."""
    from app.ledger_text import to_text
    from app.model import ReadOptions
    from app.readers import iif

    ledger = iif.parse(CHECKS / "short_rows.iif", ReadOptions())
    assert [e.name for e in ledger.employees] == ["Joe Worker", "Bo Trailing"]
    text = to_text(ledger)
    assert not any(ssn in text for ssn in SSNS)
    assert [c.name for c in ledger.customers] == ["Big Co", "Small Co"]
    assert [a.full_name for a in ledger.accounts] == ["Checking", "Sales"]


# ---------------------------------------------- issue 22 (9): files that would make an empty book

OPEN_AR = (
    "Reckon Sample Pty Ltd\nOpen AR\nAs of 31 March 2023\n"
    "Trans #,Type,Date,Num,P. O. #,Name,Source Name,Terms,Due Date,Class,Ageing,Open Balance\n"
    ',,,,,,,,,,,\n"364,101",Tax Invoice,03/02/2023,1001,,"Smith, Jane","Smith, Jane",Net 30,'
    '05/03/2023,,26,"1,100.00"\n"364,102",Payment,10/03/2023,,,Bloggs Pty Ltd,Bloggs Pty Ltd,,'
    "10/03/2023,,,-200.00\n,,,,,,,,,,,900.00\nTOTAL,,,,,,,,,,,900.00\n"
)

OPEN_AP = (  # Reckon's Open AP: no "bill" or "payable" in its titles
    "Reckon Sample Pty Ltd\nOpen AP\nAs of 31 March 2023\n"
    "Trans #,Type,Date,Num,Name,Source Name,Due Date,Open Balance\n"
    '"364,301",Bill,03/02/2023,,Bunnings,Bunnings,05/03/2023,"2,650.00"\n'
    '"364,302",Bill Pmt -Cheque,10/03/2023,Debit,Bunnings,Bunnings,,-133.22\n'
    ',,,,,,,"2,516.78"\nTOTAL,,,,,,,"2,516.78"\n'
)


@pytest.mark.parametrize("side", ["AR", "AP"])
def test_an_open_items_report_alone_is_refused_with_what_to_add(tmp_path, side):
    """A Reckon "Open AR" / "Open AP" report alone wrote an empty book and exited 0."""
    report = tmp_path / f"open_{side.lower()}.csv"
    report.write_text(OPEN_AR if side == "AR" else OPEN_AP, encoding="utf-8")
    what = "Open Invoices" if side == "AR" else "Unpaid Bills"
    (tmp_path / "out").mkdir()
    assert refused(tmp_path / "out", report) == [
        f"{report.name}:1: this {what} report lists the items still open on a date, but no "
        "file gives the accounts and transactions they belong to, so the book would be empty: "
        "add the IIF lists export (File › Utilities › Export › Lists to IIF Files) and the "
        "transaction history, or the lists alone to start from the balances on a date"
    ]


@pytest.mark.parametrize("spaces", [" ", "    "])
def test_an_iif_file_whose_tabs_became_spaces_is_refused(tmp_path, spaces):
    """Its rows were all "with no header above" (their cells, SSNs included, in the warnings)
    and the book was empty, exit 0."""
    from tests.support.companygen import make_company

    lists = make_company(40, 1).write_lists_iif(tmp_path / "lists.iif")
    text = lists.read_text(encoding="utf-8")
    assert "900-12-3456" in text  # an employee's SSN
    lists.write_text(text.replace("\t", spaces), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    run = convert(lists, "-o", out / "book.gnucash")
    assert run.returncode == 1, run.stdout + run.stderr
    assert list(out.iterdir()) == []
    assert "900-12-3456" not in run.stdout + run.stderr
    assert (
        "lists.iif:1: this IIF file has no tabs: its columns are separated by spaces (an editor "
        "or e-mail program turned the tabs into spaces), so no row can be read; export it again "
        "from QuickBooks and give that file as it is"
    ) in run.stderr


# ------------------------------------------------- hunt 20: a byte-order mark, a file cut short

MIXED = (
    "this line holds bytes that are not UTF-8 text, though the file starts with UTF-8's "
    "byte-order mark: the file mixes two encodings (edited in another program?) or is damaged; "
    "save it again as UTF-8 (Excel: CSV UTF-8) or export it again from QuickBooks"
)


def test_a_file_marked_utf8_mixing_in_windows_1252_is_refused_at_its_line(tmp_path):
    """UTF-8 text behind its byte-order mark, one name edited into Windows-1252 ("Caf\\xe9"):
    a traceback on the command line, a 500 on upload (hunt 20). Refused at the line. Text that
    is Windows-1252 throughout behind the mark is read as such (a later test)."""
    text = (DATA / "cli" / "txns.iif").read_text(encoding="utf-8").replace("Gas Co", "Gas Cö", 1)
    lines = text.encode("utf-8").split(b"\n")
    lines[6] = lines[6].replace(b"Ann Smith", b"Caf\xe9 Ann", 1)  # (line 7)
    path = tmp_path / "in" / "mixed.iif"
    path.parent.mkdir()
    path.write_bytes(b"\xef\xbb\xbf" + b"\n".join(lines))
    (tmp_path / "out").mkdir()
    assert refused(tmp_path / "out", DATA / "cli" / "lists.iif", path) == [f"mixed.iif:7: {MIXED}"]


def test_a_file_cut_inside_a_character_is_read_as_cut(tmp_path):
    """A UTF-8 report cut inside its last character was read as Windows-1252 whole (every
    "1000 · Checking" became "1000 Â· Checking": 34 errors); a UTF-16 one cut at an odd byte
    gave a traceback (hunt 20). Both are read in their encoding, and found cut."""
    from app.readers.values import decode, encoding_fault

    text = "1000 · Checking,Café"
    assert decode(text.encode("utf-8")[:-1]) == ("1000 · Checking,Caf", "utf-8")
    marked = b"\xef\xbb\xbf" + text.encode("utf-8")[:-1]
    assert decode(marked) == ("1000 · Checking,Caf", "utf-8-sig")
    utf16 = text.encode("utf-16")[:-1]
    assert decode(utf16) == ("1000 · Checking,Caf", "utf-16")
    assert encoding_fault(marked) is None and encoding_fault(utf16) is None
    assert decode(b"\xef\xbb\xbfCaf\xe9\n") == ("Café\n", "cp1252")  # (Windows-1252 throughout)
    # (hunt 21: a pair of Windows-1252 letters reading as one UTF-8 character, "É’", is no
    # mixing; a last é of Windows-1252 is no cut character)
    assert decode(b"\xef\xbb\xbfCaf\xe9 ANDR\xc9\x92S\n") == ("Café ANDRÉ’S\n", "cp1252")
    assert encoding_fault(b"\xef\xbb\xbfCaf\xe9 ANDR\xc9\x92S\n") is None
    assert decode(b"Caf\xe9") == ("Café", "cp1252")
    damaged = b"\xff\xfe" + "ab\ncd\n".encode("utf-16-le") + b"\x00\xdc" + "ef".encode("utf-16-le")
    assert encoding_fault(damaged) == (3, MIXED.replace("UTF-8", "UTF-16").replace(
        "(Excel: CSV UTF-16)", "(Excel: CSV UTF-8)"))  # fmt: skip


ENDLESS = (
    "txns.iif stops early: its last transaction (DEPOSIT of 2024-02-02, line 7) is not closed "
    "by ENDTRNS, which QuickBooks writes after every transaction{0}: its history stops on "
    "2024-02-02, and what follows it in the file is missing; to fix: export it again by date "
    "range (a year at a time) and give every file, or add --accept-truncated txns.iif if the "
    "cut is expected"
)


@pytest.mark.parametrize("cut", ["ENDTRNS", "SPL"])
def test_an_iif_transaction_file_cut_short_is_refused_unless_accepted(tmp_path, cut):
    """An IIF file ending without its last ENDTRNS, or inside its last transaction, was a
    warning and a book, exit 0 (hunt 20); a CSV report cut so is an error. Refused now, and with
    --accept-truncated the transaction the cut fell inside is left out, named."""
    text = (DATA / "cli" / "txns.iif").read_text(encoding="utf-8")
    text = text[: text.rindex(cut)]
    path = tmp_path / "in" / "txns.iif"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    (tmp_path / "out").mkdir()
    unbalanced = ", and its lines do not balance" if cut == "SPL" else ""
    said = refused(tmp_path / "out", DATA / "cli" / "lists.iif", path)
    assert said == [f"txns.iif:{7 if cut == 'SPL' else 8}: {ENDLESS.format(unbalanced)}"]
    out = tmp_path / "out" / "book.gnucash"
    run = convert(DATA / "cli" / "lists.iif", path, "-o", out, "--accept-truncated", path)
    assert run.returncode == 0, run.stdout + run.stderr
    kept = [t.description for t in read_book_transactions(out)]
    assert kept == (["Gas Co"] if cut == "SPL" else ["Gas Co", "Ann Smith"]), kept
    if cut == "SPL":
        assert (
            "the last transaction (DEPOSIT of 2024-02-02, Trans # 3, 1 of its lines) is cut off"
            in run.stdout
        )


def test_a_cell_too_long_to_split_is_said_in_plain_words(tmp_path):
    """Python's own words reached the user: "(field larger than field limit (131072))" (hunt
    20)."""
    path = tmp_path / "in" / "journal.csv"
    path.parent.mkdir()
    path.write_text(
        "Trans #,Type,Date,Num,Name,Memo,Account,Debit,Credit\n"
        '1,Check,01/02/2024,,,"' + "x" * 140_000 + "\n",
        encoding="utf-8",
    )
    (tmp_path / "out").mkdir()
    (said,) = refused(tmp_path / "out", DATA / "cli" / "lists.iif", path)
    assert said.startswith("journal.csv:"), said
    assert said.endswith(
        "not a readable CSV file (a cell longer than 131,072 characters (a quote opened and "
        "never closed runs on to the end?))"
    ), said


def test_a_file_of_spaces_and_line_breaks_is_empty(tmp_path):
    """It was "a table without a single date ()", empty brackets and all (hunt 20)."""
    path = tmp_path / "in" / "blank.csv"
    path.parent.mkdir()
    path.write_text("  \n\n \t\n", encoding="utf-8")
    (tmp_path / "out").mkdir()
    assert refused(tmp_path / "out", DATA / "cli" / "lists.iif", path) == [
        "blank.csv:1: the file is empty"
    ]


def test_a_header_row_repeated_mid_file_is_said_once_as_such(tmp_path):
    """Two reports pasted into one file: the second header row was "expected an amount like
    1,234.56 (got 'Debit')" and the same for “Credit” (hunt 20)."""
    from tests.support.companygen import make_company

    company = make_company(30, seed=9)
    (tmp_path / "in").mkdir()
    journal = company.write_journal_csv(tmp_path / "in" / "journal.csv")
    lines = journal.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if "Debit" in line and "Credit" in line)
    lines.insert(at + 7, lines[at])
    journal.write_text("\n".join(lines), encoding="utf-8")
    lists = company.write_lists_iif(tmp_path / "in" / "lists.iif")
    (tmp_path / "out").mkdir()
    said = refused(tmp_path / "out", lists, journal)
    assert said == [
        f"journal.csv:{at + 8}: this row repeats the header row: two reports pasted into one "
        "file? give each report as QuickBooks exported it (the row is not read)"
    ], said


def test_an_iif_transaction_without_endtrns_before_list_rows_is_no_cut(tmp_path):
    """Rows of lists after a transaction left open: the file goes on, so it is the old warning,
    not "stops early ... what follows it in the file is missing" (hunt 21)."""
    text = (DATA / "cli" / "txns.iif").read_text(encoding="utf-8")
    text = text[: text.rindex("ENDTRNS")] + "!CLASS\tNAME\nCLASS\tEast\n"
    path = tmp_path / "txns.iif"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "book.gnucash"
    run = convert(DATA / "cli" / "lists.iif", path, "-o", out)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "txns.iif:7: transaction not closed by ENDTRNS before the end of the file" in run.stdout
    assert "stops early" not in run.stdout + run.stderr
