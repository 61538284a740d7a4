"""IIF reader: one behaviour per test, golden files for our fixtures and the real samples."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

import pytest

from app.business import Address
from app.errors import ParseError
from app.ledger_text import to_text
from app.model import AccountType, Ledger, ReadOptions, Reconcile, Role
from app.readers import iif

DATA = Path(__file__).resolve().parent / "data" / "iif"
OWN_FIXTURES = sorted(DATA.glob("*.iif"))
TRNS_HEAD = "!TRNS\tTRNSID\tTRNSTYPE\tDATE\tACCNT\tNAME\tAMOUNT\tDOCNUM\tMEMO\tCLEAR\n"
SPL_HEAD = "!SPL\tSPLID\tTRNSTYPE\tDATE\tACCNT\tNAME\tAMOUNT\tDOCNUM\tMEMO\tCLEAR\n!ENDTRNS\n"


def read(tmp_path: Path, content: str | bytes, **options: object) -> Ledger:
    path = tmp_path / "test.iif"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8", newline="")
    else:
        path.write_bytes(content)
    return iif.parse(path, ReadOptions(**options))  # type: ignore[arg-type]


def journal(*lines: str) -> str:
    return TRNS_HEAD + SPL_HEAD + "".join(line.replace("|", "\t") + "\n" for line in lines)


def dump(path: Path) -> str:
    try:
        return to_text(iif.parse(path, ReadOptions()))
    except ParseError as exc:
        return f"ParseError: {exc}\n"


# --- golden files -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", OWN_FIXTURES, ids=lambda p: p.name)
def test_own_fixture_golden(path: Path, golden) -> None:
    golden(path.with_name(path.name + ".expected"), dump(path))


@pytest.mark.samples
def test_real_samples_golden(samples_dir: Path, golden) -> None:
    samples = sorted(p for p in samples_dir.iterdir() if p.suffix.lower() == ".iif")
    assert len(samples) >= 5
    target = Path(__file__).resolve().parent / "data" / "samples"
    for path in samples:
        golden(target / (path.name + ".expected"), dump(path))


@pytest.mark.samples
def test_enterprise_sample_counts(samples_dir: Path) -> None:
    path = samples_dir / "Pewejekubam__qbd-to-gnucash__qbd-all-lists-sample.IIF"
    ledger = iif.parse(path, ReadOptions())
    assert len(ledger.customers) == 45
    assert sum(len(c.jobs) for c in ledger.customers) == 20
    assert len(ledger.vendors) == 38
    assert len(ledger.employees) == 3
    assert len(ledger.terms) == 7
    posting = [
        line.split("\t")[1]
        for line in path.read_text().splitlines()
        if line.startswith("ACCNT\t") and "\tNONPOSTING\t" not in line
    ]
    assert sorted(a.full_name for a in ledger.accounts) == sorted(posting)
    assert all(a.type is not None for a in ledger.accounts)
    assert sum(a.balance for a in ledger.accounts if a.balance is not None) == 0
    assert ledger.chart and not ledger.errors


@pytest.mark.samples
def test_enterprise_sample_never_holds_sensitive_numbers(samples_dir: Path) -> None:
    path = samples_dir / "Pewejekubam__qbd-to-gnucash__qbd-all-lists-sample.IIF"
    secrets: set[str] = set()
    header: list[str] = []
    for line in path.read_text().splitlines():
        cells = line.split("\t")
        if cells[0].startswith("!"):
            header = cells
            continue
        for name, value in zip(header, cells, strict=False):
            sensitive = (
                (cells[0] == "EMP" and name == "SSNO")
                or (cells[0] == "QB ONLINE" and name not in {"ACCNT", "!QB ONLINE"})
                or (cells[0] == "ACCNT" and name == "BANKNUM")
            )
            digits = re.sub(r"\D", "", value)
            if sensitive and len(digits) >= 4:  # 0 and Y/N flags are not secrets
                secrets.update({value, digits, *re.findall(r"\d{6,}", value)})
    assert len(secrets) > 10
    ledger = iif.parse(path, ReadOptions())
    text, debug = to_text(ledger), repr(ledger)
    assert not [s for s in secrets if s in text or s in debug]


# --- file level -------------------------------------------------------------------------------


def test_identify_accepts_tab_and_comma_headers(tmp_path: Path) -> None:
    for i, head in enumerate(("\ufeff\n!ACCNT\tNAME\n", "!TRNS,TRNSID\n", "!QB ONLINE\tACCNT\n")):
        path = tmp_path / f"{i}.iif"
        path.write_text(head, encoding="utf-8")
        assert iif.identify(path, ReadOptions())


def test_identify_rejects_csv_and_binary(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("Date,Num,Account\n1/1/2024,1,Checking\n")
    (tmp_path / "b.iif").write_bytes(b"\x00\x01\x02!ACCNT")
    (tmp_path / "c.iif").write_text("ACCNT\tChecking\n")
    assert not any(iif.identify(tmp_path / n, ReadOptions()) for n in ("a.csv", "b.iif", "c.iif"))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "test.iif:1: the file is empty"),
        ("\ufeff\r\n \t\n".encode("utf-16"), "test.iif:1: the file is empty"),
        (b"!ACCNT\x00\tNAME", "test.iif:1: this is a binary file"),
        (
            "Date,Num\n1/1/24,5\n",
            "test.iif:1: expected a !KEYWORD header row before the first data row (got “Date,Num”)",
        ),
        (
            "\nACCNT\tChecking\n",
            "test.iif:2: expected a !KEYWORD header row before the first data row (got “ACCNT”)",
        ),
        (
            '!ACCNT\tNAME\tDESC\nACCNT\tA\tok\nACCNT\tB\t"open\nACCNT\tC\tx\n',
            "test.iif:3: a quoted field",
        ),
    ],
)
def test_fatal_files(tmp_path: Path, content: str | bytes, message: str) -> None:
    with pytest.raises(ParseError) as info:
        read(tmp_path, content)
    assert str(info.value).startswith(message)


def test_quote_open_on_the_last_line_is_fatal(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match=r"^test\.iif:3: a quoted field"):
        read(tmp_path, '!ACCNT\tNAME\tDESC\nACCNT\tA\tok\nACCNT\tB\t"open\n')


def test_quoted_field_over_two_lines_is_kept_with_a_warning(tmp_path: Path) -> None:
    ledger = read(tmp_path, '!PAYMETH\tNAME\nPAYMETH\t"two\nlines"\nPAYMETH\tC\n')
    assert [(n.name, n.source.line) for n in ledger.not_imported] == [("two\nlines", 2), ("C", 4)]
    assert [str(p) for p in ledger.problems] == ["test.iif:2: a quoted field runs over lines 2-3"]


@pytest.mark.parametrize(
    ("content", "line", "over"),
    [
        (  # issue 22, item 1: a customer's stray quote swallows the !EMP header and an employee
            '!CUST\tNAME\tBADDR1\nCUST\tAl\tx\nCUST\t"unterminated quote\tx\n'
            "!EMP\tNAME\tADDR1\tSSNO\nEMP\tJo\t9 Elm\t987-65-4326\n"
            '!CLASS\tNAME\nCLASS\t"closed here"\n',
            3,
            "line 4 (!EMP)",
        ),
        (  # a row of a keyword already headed, the quote closed further on
            '!EMP\tNAME\tADDR1\tSSNO\nEMP\t"Jo\t9 Elm\t987-65-4326\n'
            'EMP\tAl\t"8 Oak"\t987-65-4327\n',
            2,
            "line 3 (EMP)",
        ),
        (  # the same never closed: said as running over the next row all the same
            '!ACCNT\tNAME\tBANKNUM\nACCNT\t"Checking\t000123456789\nENDTRNS\n',
            2,
            "line 3 (ENDTRNS)",
        ),
    ],
)
def test_a_quote_that_runs_over_a_row_of_its_own_is_a_broken_row(
    tmp_path: Path, content: str, line: int, over: str
) -> None:
    with pytest.raises(ParseError) as info:
        read(tmp_path, content)
    message = str(info.value)
    assert message.startswith(
        f"test.iif:{line}: a quoted field opened on this line runs over {over}, the start of a "
        'row of its own: a stray quote (") or one never closed; remove it or close it on its '
        "line, and export or add the file again"
    ), message
    assert "987-65" not in message and "000123456789" not in message


def test_tab_inside_quotes_stays_in_the_field(tmp_path: Path) -> None:
    ledger = read(tmp_path, '!EMP\tNAME\tNOTEPAD\tHIDDEN\nEMP\tAl\t"a\tb\tc"\tY\n')
    assert ledger.employees[0].notes == "a\tb\tc"
    assert ledger.employees[0].active is False


def test_comma_delimited_iif(tmp_path: Path) -> None:
    ledger = read(tmp_path, '!ACCNT,NAME,ACCNTTYPE,OBAMOUNT\nACCNT,Checking,BANK,"1,000.00"\n')
    assert ledger.accounts[0].balance == Decimal("1000.00")


def test_mixed_line_ends(tmp_path: Path) -> None:
    ledger = read(tmp_path, b"!PAYMETH\tNAME\r\nPAYMETH\tA\rPAYMETH\tB\nPAYMETH\tC\r\n")
    assert [(n.name, n.source.line) for n in ledger.not_imported] == [("A", 2), ("B", 3), ("C", 4)]


def test_cp1252_decoding(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!PAYMETH\tNAME\nPAYMETH\t\u201cCaf\u00e9\u201d\n".encode("cp1252"))
    assert ledger.not_imported[0].name == "\u201cCaf\u00e9\u201d"
    assert ledger.files[0].encoding == "cp1252"


def test_utf8_bom(tmp_path: Path) -> None:
    ledger = read(tmp_path, "\ufeff!PAYMETH\tNAME\nPAYMETH\tCaf\u00e9\n".encode())
    assert ledger.not_imported[0].name == "Caf\u00e9"
    assert ledger.files[0].encoding == "utf-8-sig"


def test_utf16_with_bom(tmp_path: Path) -> None:
    path = tmp_path / "u16.iif"
    path.write_bytes("!PAYMETH\tNAME\r\nPAYMETH\tCaf\u00e9\r\n".encode("utf-16"))
    assert iif.identify(path, ReadOptions())
    ledger = iif.parse(path, ReadOptions())
    assert (ledger.not_imported[0].name, ledger.files[0].encoding) == ("Caf\u00e9", "utf-16")


def test_columns_by_header_name_not_position(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!ACCNT\tACCNTTYPE\tACCNUM\tNAME\nACCNT\tBANK\t1000\tChecking\n")
    assert (ledger.accounts[0].full_name, ledger.accounts[0].code) == ("Checking", "1000")


def test_duplicate_header_names_keep_the_first_for_get(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!ACCNT\tNAME\tNAME\tACCNTTYPE\nACCNT\tFirst\tSecond\tBANK\n")
    assert ledger.accounts[0].full_name == "First"


def test_keyword_redefined_later_uses_the_latest_header(tmp_path: Path) -> None:
    text = (
        "!TERMS\tNAME\tSTDDUEDAYS\tTERMSTYPE\nTERMS\tNet 30\t30\t0\n"
        "!TERMS\tNAME\tDUEDAYS\tDISCPER\tDISCDAYS\tTERMSTYPE\nTERMS\t2% 10\t30\t2\t10\t0\n"
    )
    terms = read(tmp_path, text).terms
    assert [(t.name, t.due_days, t.discount_days, t.discount) for t in terms] == [
        ("Net 30", 30, 0, Decimal(0)),
        ("2% 10", 30, 10, Decimal(2)),
    ]


def test_stray_bang_in_header_cells(tmp_path: Path) -> None:
    ledger = read(
        tmp_path,
        journal(
            "TRNS|7|CHECK|1/2/2024|A||1||||", "SPL|8|CHECK|1/2/2024|B||-1||||", "ENDTRNS"
        ).replace("TRNSID", "!TRNSID"),
    )
    assert ledger.transactions[0].ref == "7"


def test_short_rows_are_read_with_a_warning(tmp_path: Path) -> None:
    """QuickBooks writes every cell: a short row may have lost one mid-row, so it is said."""
    ledger = read(tmp_path, "!ACCNT\tNAME\tACCNTTYPE\tDESC\tHIDDEN\nACCNT\tChecking\tBANK\n")
    assert ledger.accounts[0].description == ""
    assert [(str(p), p.severity) for p in ledger.problems] == [
        (
            "test.iif:2: this row has 2 of the 4 cells its !ACCNT header names: DESC, HIDDEN "
            "read as empty; if a cell is missing mid-row instead, the cells after it are under "
            "the wrong columns: check the row",
            "warning",
        )
    ]


EMP_HEAD = "!EMP\tNAME\tADDR1\tADDR2\tADDR3\tSSNO\tHIDDEN\n"


def test_a_short_row_with_text_where_a_moved_ssn_could_be_is_not_read(tmp_path: Path) -> None:
    ledger = read(tmp_path, EMP_HEAD + "EMP\tBo\t1 Elm St\tApt 2\t123-45-6789\n")
    assert ledger.employees == ()
    (problem,) = ledger.problems
    assert problem.severity == "error" and "if one is missing before SSNO" in problem.message
    assert "123-45-6789" not in to_text(ledger)


def test_a_short_row_whose_text_ends_before_any_moved_ssn_is_read(tmp_path: Path) -> None:
    """Two cells short: a moved SSNO cell would be in ADDR2 or ADDR3, which are empty."""
    ledger = read(tmp_path, EMP_HEAD + "EMP\tBo\t1 Elm St\t\t\n")
    assert [(e.name, e.address.lines) for e in ledger.employees] == [("Bo", ())]
    assert [p.severity for p in ledger.problems] == ["warning"]
    assert "SSNO, HIDDEN read as empty" in ledger.problems[0].message


def test_a_long_row_in_a_list_with_ssns_is_read_when_only_empty_cells_follow(
    tmp_path: Path,
) -> None:
    ledger = read(tmp_path, EMP_HEAD + "EMP\tBo\t1 Elm St\t\t\t123-45-6789\tN\t\t \n")
    assert [e.name for e in ledger.employees] == ["Bo"] and not ledger.problems
    assert "123-45-6789" not in to_text(ledger)


def test_a_row_short_only_of_unnamed_columns_is_not_said(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!VEND\tNAME\t1099\t\t\t\nVEND\tGas Co\tN\n")
    assert [v.name for v in ledger.vendors] == ["Gas Co"] and not ledger.problems


def test_extra_non_empty_cells_warn_with_line(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!CLASS\tNAME\nCLASS\tA\t\t \nCLASS\tB\t\tsurprise\n")
    assert [str(p) for p in ledger.problems] == [
        "test.iif:3: 1 cell under no column name of the !CLASS header ignored (“surprise”); "
        "none holds a number, so no amount is lost"
    ]
    assert ledger.problems[0].severity == "warning"


def test_extra_cells_that_could_be_an_amount_say_so(tmp_path: Path) -> None:
    text = (
        "!TRNS\tTRNSTYPE\tDATE\tACCNT\tAMOUNT\n!SPL\tTRNSTYPE\tDATE\tACCNT\tAMOUNT\n!ENDTRNS\n"
        "TRNS\tCHECK\t1/2/2024\tA\t-5.00\n"
        "SPL\tCHECK\t1/2/2024\tB\t5.00\tnote\t1,250.00\n"
        "ENDTRNS\n"
    )
    ledger = read(tmp_path, text)
    assert [str(p) for p in ledger.problems] == [
        "test.iif:5: 2 cells under no column name of the !SPL header ignored (“note”, "
        "“1,250.00”); 1 of them holds a number that is not read: if it is an amount, the row "
        "has more cells than the !SPL header names; line them up and import again"
    ]
    assert [s.value for s in ledger.transactions[0].splits] == [-5, 5]


def test_literal_backslash_n_becomes_a_line_break_in_notes(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!CUST\tNAME\tNOTEPAD\nCUST\tAl\tone\\ntwo\n")
    assert ledger.customers[0].notes == "one\ntwo"


def test_lone_space_cell_is_empty(tmp_path: Path) -> None:
    ledger = read(
        tmp_path,
        journal("TRNS| |CHECK|1/2/2024|A||1|||", "SPL| |CHECK|1/2/2024|B||-1|||", "ENDTRNS"),
    )
    assert ledger.transactions[0].ref == ""
    assert ledger.transactions[0].notes == "QuickBooks CHECK"


def test_amount_forms(tmp_path: Path) -> None:
    ledger = read(
        tmp_path,
        journal(
            'TRNS||GENERAL JOURNAL|1/2/2024|A||"1,776.23"|||',
            "SPL||GENERAL JOURNAL|1/2/2024|B||(1,000.00)|||",
            "SPL||GENERAL JOURNAL|1/2/2024|C||-776.23|||",
            "SPL||GENERAL JOURNAL|1/2/2024|D||0|||",
            "ENDTRNS",
        ),
    )
    values = [s.value for s in ledger.transactions[0].splits]
    assert values == [Decimal("1776.23"), Decimal("-1000.00"), Decimal("-776.23"), Decimal(0)]


def test_percentage_discount(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!TERMS\tNAME\tDISCPER\tSTDDISCDAYS\nTERMS\t1%\t1.5%\t10\n")
    assert ledger.terms[0].discount == Decimal("1.5")


def test_two_digit_year_pivot(tmp_path: Path) -> None:
    text = journal("TRNS||CHECK|12/31/79|A||1|||", "SPL||CHECK|12/31/79|B||-1|||", "ENDTRNS")
    assert read(tmp_path, text).transactions[0].date == dt.date(2079, 12, 31)
    assert read(tmp_path, text, pivot=70).transactions[0].date == dt.date(1979, 12, 31)


def test_iso_dates(tmp_path: Path) -> None:
    ledger = read(
        tmp_path,
        journal("TRNS||CHECK|2024-03-15|A||1|||", "SPL||CHECK|2024-03-15|B||-1|||", "ENDTRNS"),
    )
    assert ledger.transactions[0].date == dt.date(2024, 3, 15)


def test_zero_date_is_an_error_not_a_guess(tmp_path: Path) -> None:
    ledger = read(
        tmp_path, journal("TRNS||CHECK|0/0/0|A||1|||", "SPL||CHECK|0/0/0|B||-1|||", "ENDTRNS")
    )
    assert not ledger.transactions
    assert [p.message for p in ledger.errors] == ["the TRNS row has no DATE; transaction not read"]


def test_dmy_proven_by_the_file(tmp_path: Path) -> None:
    ledger = read(
        tmp_path,
        journal(
            "TRNS||CHECK|03/04/2024|A||1|||",
            "SPL||CHECK|03/04/2024|B||-1|||",
            "ENDTRNS",
            "TRNS||CHECK|25/04/2024|A||1|||",
            "SPL||CHECK|25/04/2024|B||-1|||",
            "ENDTRNS",
        ),
    )
    assert [t.date for t in ledger.transactions] == [dt.date(2024, 4, 3), dt.date(2024, 4, 25)]
    assert ledger.files[0].date_order == "dmy"


def test_dmy_by_option(tmp_path: Path) -> None:
    text = journal("TRNS||CHECK|03/04/2024|A||1|||", "SPL||CHECK|03/04/2024|B||-1|||", "ENDTRNS")
    assert read(tmp_path, text, date_order="dmy").transactions[0].date == dt.date(2024, 4, 3)
    ambiguous = read(tmp_path, text).files[0]
    assert (ambiguous.date_order, ambiguous.date_order_ambiguous) == ("mdy", True)


def test_mixed_date_orders_are_an_error(tmp_path: Path) -> None:
    ledger = read(
        tmp_path,
        journal(
            "TRNS||CHECK|25/04/2024|A||1|||",
            "SPL||CHECK|25/04/2024|B||-1|||",
            "ENDTRNS",
            "TRNS||CHECK|04/26/2024|A||1|||",
            "SPL||CHECK|04/26/2024|B||-1|||",
            "ENDTRNS",
        ),
    )
    assert str(ledger.errors[0]).startswith("test.iif:4: dates in two orders")


def test_a_lone_date_of_the_other_order_is_a_typo_said_once(tmp_path: Path) -> None:
    """Ten transactions dated M/D/Y beyond doubt and one '13/9/2020': a typo, said once where
    it cannot be read (it was also "dates in two orders", which it is not)."""
    rows = []
    for day in range(13, 23):
        rows += [
            f"TRNS||CHECK|4/{day}/2020|A||1|||",
            f"SPL||CHECK|4/{day}/2020|B||-1|||",
            "ENDTRNS",
        ]
    rows += ["TRNS||CHECK|13/9/2020|A||1|||", "SPL||CHECK|13/9/2020|B||-1|||", "ENDTRNS"]
    ledger = read(tmp_path, journal(*rows))
    assert [str(p) for p in ledger.errors] == [
        "test.iif:34: expected a date like M/D/YYYY (got “13/9/2020”): there is no month 13, "
        "read M/D/YYYY; transaction not read"
    ]
    assert len(ledger.transactions) == 10
    assert ledger.files[0].date_order == "mdy"


def test_yn_booleans(tmp_path: Path) -> None:
    ledger = read(
        tmp_path, "!CUST\tNAME\tTAXABLE\tHIDDEN\nCUST\tA\tY\tN\nCUST\tB\tN\tY\nCUST\tC\t\t\n"
    )
    assert [(c.taxable, c.active) for c in ledger.customers] == [
        (True, True),
        (False, False),
        (None, True),
    ]


def test_invalid_flag_warns_once(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!VEND\tNAME\t1099\nVEND\tV\tMaybe\n")
    assert [str(p) for p in ledger.problems] == ["test.iif:2: 1099: expected Y or N (got “Maybe”)"]


def test_unknown_keyword_is_listed_not_fatal(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!ZZWIDGET\tNAME\tSIZE\nZZWIDGET\tSprocket\t12\n")
    item = ledger.not_imported[0]
    assert (item.what, item.name, item.reason) == (
        "ZZWIDGET",
        "Sprocket",
        "not a QuickBooks list qb2gnucash knows",
    )


def test_row_without_header_warns(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!CLASS\tNAME\nMYSTERY\tx\n")
    assert [str(p) for p in ledger.problems] == [
        "test.iif:2: a MYSTERY row with no !MYSTERY header above it (not imported)"
    ]


def test_item_group_members_are_not_listed_twice(tmp_path: Path) -> None:
    text = (
        "!INVITEM\tNAME\tINVITEMTYPE\n!ENDGRP\nINVITEM\tKit\tGRP\nINVITEM\tPump\tPART\nENDGRP\n"
        "INVITEM\tHose\tPART\n"
    )
    names = [(n.name, n.reason) for n in read(tmp_path, text).not_imported]
    why = "GnuCash has no item list: each line keeps its item, the list goes to items.csv"
    assert names == [("Kit (a group of 1 item)", why), ("Hose", why)]


def test_sub_records_and_terminators_belong_to_their_block(tmp_path: Path) -> None:
    text = (
        "!QBP EMPLOYEE\tNAME\tSALARY\n!CUSTOMPI\tPAYITEM\tAMOUNT\n!ENDQBPEMP\n"
        "QBP EMPLOYEE\tAl\t50000\nCUSTOMPI\tBonus\t100\nENDQBPEMP\n"
        "!INVITEM\tNAME\tINVITEMTYPE\nINVITEM\tCounty\tSTAX\nINVITEM\tState\tCOMPTAX\nENDTAX\n"
    )
    ledger = read(tmp_path, text)
    assert [(n.what, n.name) for n in ledger.not_imported] == [
        ("Employee payroll settings", "Al"),
        ("Items", "County (a group of 1 item)"),
    ]
    assert not ledger.problems and "50000" not in to_text(ledger)


# --- accounts ---------------------------------------------------------------------------------


def test_account_types_roles_and_fields(tmp_path: Path) -> None:
    text = (
        "!ACCNT\tNAME\tACCNTTYPE\tOBAMOUNT\tDESC\tACCNUM\tBANKNUM\tEXTRA\tHIDDEN\n"
        'ACCNT\tChecking\tBANK\t"99,250.02"\tMain\t1000\t1234-5678\t\tN\n'
        "ACCNT\tOBE\tEQUITY\t0.00\t\t3000\t\tOPENBAL\tY\n"
        "ACCNT\tOdd\tOLIAB\t\t\t\t\t\tN\n"
    )
    ledger = read(tmp_path, text)
    checking, obe, odd = ledger.accounts
    assert (checking.type, checking.kind_label, checking.balance) == (
        AccountType.BANK,
        "BANK",
        Decimal("99250.02"),
    )
    assert (checking.code, checking.description) == ("1000", "Main")
    assert (obe.role, obe.hidden) == (Role.OPENING_BALANCE, True)
    assert (odd.type, odd.kind_label, odd.balance) == (None, "OLIAB", None)
    assert "1234" not in repr(ledger) and ledger.chart


def test_balance_is_none_without_obamount_column(tmp_path: Path) -> None:
    assert read(tmp_path, "!ACCNT\tNAME\tACCNTTYPE\nACCNT\tA\tEXP\n").accounts[0].balance is None


def test_nonposting_accounts_are_listed(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!ACCNT\tNAME\tACCNTTYPE\nACCNT\tPurchase Orders\tNONPOSTING\n")
    assert not ledger.accounts and ledger.not_imported[0].what == "Non-posting accounts"


def test_empty_account_level_is_an_error(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!ACCNT\tNAME\tACCNTTYPE\nACCNT\tUtilities::Water\tEXP\n")
    assert [str(p) for p in ledger.errors] == [
        "test.iif:2: expected an account name like Parent:Child (got “Utilities::Water”)"
    ]


# --- names ------------------------------------------------------------------------------------


def test_customer_job_becomes_a_job(tmp_path: Path) -> None:
    ledger = read(
        tmp_path, "!CUST\tNAME\tJOBDESC\nCUST\tBalak, Mike\t\nCUST\tBalak, Mike:330 Main\tRemodel\n"
    )
    (customer,) = ledger.customers
    assert [(j.name, j.description) for j in customer.jobs] == [("330 Main", "Remodel")]


def test_deeper_job_keeps_its_sub_path(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!CUST\tNAME\nCUST\tA\nCUST\tA:B:C\n")
    assert [j.name for j in ledger.customers[0].jobs] == ["B:C"]


def test_job_without_customer_row_creates_the_customer(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!CUST\tNAME\nCUST\tOrphan:Job\n")
    assert [(c.name, [j.name for j in c.jobs]) for c in ledger.customers] == [("Orphan", ["Job"])]
    assert ledger.problems[0].severity == "warning"


def test_customer_address_phone_and_notes(tmp_path: Path) -> None:
    text = (
        "!CUST\tNAME\tBADDR1\tBADDR2\tBADDR3\tPHONE1\tPHONE2\tCONT1\tCTYPE\tNOTE\tLIMIT\tTERMS\n"
        'CUST\tA\tA Co\t1 Main St\tTown\t555\t556\tAnn\tRetail\tX-1\t"3,000.00"\tNet 30\n'
    )
    customer = read(tmp_path, text).customers[0]
    assert customer.billing == Address(name="A Co", lines=("1 Main St", "Town"), phone="555")
    assert (
        customer.notes == "Account no.: X-1\nContact: Ann\nAlt. phone: 556\nCustomer type: Retail"
    )
    assert (customer.credit_limit, customer.terms) == (Decimal("3000.00"), "Net 30")


def test_address_folds_into_four_lines(tmp_path: Path) -> None:
    text = "!CUST\tNAME\tBADDR1\tBADDR2\tBADDR3\tBADDR4\tBADDR5\nCUST\tA\tA\tL1\tL2\\nL3\tL4\tL5\n"
    assert read(tmp_path, text).customers[0].billing.lines == ("L1", "L2", "L3", "L4, L5")


def test_vendor_print_as_tax_id_and_1099(tmp_path: Path) -> None:
    text = (
        "!VEND\tNAME\tPRINTAS\tADDR1\tADDR2\tTAXID\t1099\n"
        "VEND\tMike\tMichael J.\tMike\tPO Box 1\t12-3\tY\n"
    )
    vendor = read(tmp_path, text).vendors[0]
    assert vendor.address == Address(name="Michael J.", lines=("Mike", "PO Box 1"))
    assert (vendor.tax_id, vendor.eligible_1099) == ("12-3", True)


def test_vendor_bank_columns_are_dropped(tmp_path: Path) -> None:
    text = (
        "!VEND\tNAME\tBANKACCTNUM\tROUTINGNUM\tACCOUNT NUMBER\nVEND\tV\t5556667\t0260095\t4443332\n"
    )
    ledger = read(tmp_path, text)
    assert not re.search(r"5556667|0260095|4443332", repr(ledger) + to_text(ledger))


def test_employee_ssn_is_dropped(tmp_path: Path) -> None:
    ledger = read(
        tmp_path, "!EMP\tNAME\tSSNO\tCITY\tSTATE\tZIP\nEMP\tAl\t123-45-6789\tTown\tCA\t94000\n"
    )
    assert "6789" not in repr(ledger) + to_text(ledger)
    assert ledger.employees[0].address.lines == ("Town, CA 94000",)


def test_qb_online_lists_only_the_account_name(tmp_path: Path) -> None:
    ledger = read(
        tmp_path,
        "!QB ONLINE\tACCNT\tROUTNUM\tOLACCNT\nQB ONLINE\tChecking\t112200049\t0661001235\n",
    )
    item = ledger.not_imported[0]
    assert (item.what, item.name) == ("Online banking settings", "Checking")
    assert not re.search(r"112200049|0661001235", repr(ledger) + to_text(ledger))


def test_sensitive_cells_are_blank_in_the_rows_themselves() -> None:
    text = (
        "!EMP\tNAME\tSSNO\n!VEND\tNAME\tBANKACCTNUM\n!ACCNT\tNAME\tBANKNUM\n"
        "!QB ONLINE\tACCNT\tROUTNUM\nEMP\tAl\t123-45-6789\nVEND\tV\t5556667\n"
        "ACCNT\tChecking\t1234-5678\nQB ONLINE\tChecking\t112200049\n"
    )
    rows = list(iif._rows(text, iif.Reading("t.iif", ReadOptions())))
    assert [r.cells for r in rows] == [["Al", ""], ["V", ""], ["Checking", ""], ["Checking", ""]]


def test_sensitive_extra_cells_are_not_quoted(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!EMP\tNAME\nEMP\tAl\t123-45-6789\n")
    assert ledger.problems and "6789" not in str(ledger.problems)


def test_vendor_without_name_is_an_error(tmp_path: Path) -> None:
    ledger = read(tmp_path, "!VEND\tNAME\tADDR1\nVEND\t\tPO Box 1\n")
    assert not ledger.vendors
    assert [str(p) for p in ledger.errors] == [
        "test.iif:2: expected a NAME on this VEND row (got “”)"
    ]


def test_terms_proximo(tmp_path: Path) -> None:
    text = (
        "!TERMS\tNAME\tDISCPER\tDAYOFMONTHDUE\tDISCDAYOFMONTH\tDATEMINDAYS\tTERMSTYPE\n"
        "TERMS\tDue 15th\t1.0%\t15\t5\t10\t1\n"
    )
    term = read(tmp_path, text).terms[0]
    assert (term.kind, term.due_days, term.discount_days, term.cutoff) == ("proximo", 15, 5, 10)


# --- transactions -----------------------------------------------------------------------------


def test_transaction_fields(tmp_path: Path) -> None:
    ledger = read(
        tmp_path,
        journal(
            "TRNS|42|CHECK|1/5/2024|Checking|Cafe|-45.50|1001|Lunch|Y",
            "SPL|43|CHECK|1/5/2024|Meals||45.50||Food|N",
            "ENDTRNS",
        ),
    )
    (t,) = ledger.transactions
    assert (t.date, t.num, t.description, t.ref, t.kind_label, t.notes) == (
        dt.date(2024, 1, 5),
        "1001",
        "Cafe",
        "42",
        "CHECK",
        "QuickBooks CHECK 42",
    )
    first, second = t.splits
    assert (first.account, first.value, first.memo, first.reconcile, first.mark) == (
        "Checking",
        Decimal("-45.50"),
        "Lunch",
        Reconcile.RECONCILED,
        "Y",
    )
    assert (second.memo, second.reconcile) == ("Food", Reconcile.NEW)
    assert ledger.files[0].kind == "IIF transactions"


def test_repeated_endtrns_is_ignored(tmp_path: Path) -> None:
    ledger = read(
        tmp_path,
        journal(
            "TRNS||CHECK|1/5/2024|A||1|||", "SPL||CHECK|1/5/2024|B||-1|||", "ENDTRNS", "ENDTRNS"
        ),
    )
    assert len(ledger.transactions) == 1 and not ledger.problems


def test_missing_endtrns_closed_by_next_trns(tmp_path: Path) -> None:
    ledger = read(
        tmp_path,
        journal(
            "TRNS||CHECK|1/5/2024|A||1|||",
            "SPL||CHECK|1/5/2024|B||-1|||",
            "TRNS||CHECK|1/6/2024|A||2|||",
            "SPL||CHECK|1/6/2024|B||-2|||",
            "ENDTRNS",
        ),
    )
    assert [len(t.splits) for t in ledger.transactions] == [2, 2]
    assert [(p.source.line, p.severity) for p in ledger.problems] == [(6, "warning")]


def test_spl_without_trns_is_an_error(tmp_path: Path) -> None:
    ledger = read(tmp_path, journal("SPL||CHECK|1/5/2024|B||-1|||"))
    assert [str(p) for p in ledger.errors] == [
        "test.iif:4: expected a TRNS row before this SPL row (got SPL)"
    ]


def test_unbalanced_transaction_is_kept_for_validation(tmp_path: Path) -> None:
    ledger = read(
        tmp_path, journal("TRNS||CHECK|1/5/2024|A||1|||", "SPL||CHECK|1/5/2024|B||-2|||", "ENDTRNS")
    )
    assert ledger.transactions[0].total == Decimal(-1) and not ledger.problems


def test_estimates_and_orders_are_not_imported_and_never_complain(tmp_path: Path) -> None:
    """TRNSTYPE ESTIMATE / PURCHORDER / SALESORDER, or a non-posting account (Estimates...):
    counted under "not imported", not read, even with cells that would otherwise be errors."""
    ledger = read(
        tmp_path,
        journal(
            "TRNS|10|ESTIMATE|2/6/2024|Estimates|Ann Smith|120.00|E-2|Gutters|N",
            "SPL|11|ESTIMATE|2/6/2024|Sales|Ann Smith|TBD|E-2||?",
            "ENDTRNS",
            "TRNS|12|PURCHORDER|2/7/2024|Purchase Orders|Gas Co|-60.00|PO-8||N",
            "SPL|13|PURCHORDER|2/7/2024|Utilities:Gas|Gas Co|60.00|PO-8|Meter|N",
            "ENDTRNS",
            "TRNS|14|SALESORDER|0/0/0|Sales Orders|Ann Smith|50.00|SO-1||N",
            "SPL|15|SALESORDER|0/0/0|Sales|Ann Smith|-50.00|SO-1||N",
            "ENDTRNS",
            "TRNS|16|GENERAL JOURNAL|2/8/2024|Estimates||5.00|||N",
            "SPL|17|GENERAL JOURNAL|2/8/2024|Sales||-5.00|||N",
            "ENDTRNS",
            "TRNS|18|CHECK|2/9/2024|Checking|Gas Co|-25.00|101||N",
            "SPL|19|CHECK|2/9/2024|Utilities:Gas|Gas Co|25.00|101||N",
            "ENDTRNS",
        ),
    )
    assert ledger.problems == ()
    assert [t.ref for t in ledger.transactions] == ["18"]
    assert [(n.what, n.name, n.source.line) for n in ledger.not_imported] == [
        ("Estimates", "ESTIMATE #E-2 2/6/2024 Ann Smith", 4),
        ("Purchase orders", "PURCHORDER #PO-8 2/7/2024 Gas Co", 7),
        ("Sales orders", "SALESORDER #SO-1 0/0/0 Ann Smith", 10),
        ("Estimates", "GENERAL JOURNAL 2/8/2024", 13),
    ]
    assert {n.reason for n in ledger.not_imported} == {
        "a non-posting document: QuickBooks keeps it out of the books"
    }
    info = ledger.files[0]
    assert (info.kind, dict(info.counts)["Not imported"]) == ("IIF transactions", 4)


def test_deposit_payers_on_spl_rows_name_the_transaction(tmp_path: Path) -> None:
    """A TRNS without NAME takes its SPL rows' names (one: that name; several: the first and
    "+ N more"); an SPL row whose NAME differs keeps it in its memo."""
    ledger = read(
        tmp_path,
        journal(
            "TRNS|1|DEPOSIT|2/2/2024|Checking||300.00|||N",
            "SPL|2|DEPOSIT|2/2/2024|Undeposited Funds|Ann Smith|-100.00||Inv 7|N",
            "SPL|3|DEPOSIT|2/2/2024|Undeposited Funds|Bob Jones|-150.00|||N",
            "SPL|4|DEPOSIT|2/2/2024|Undeposited Funds|Cy Twombly|-50.00|||N",
            "ENDTRNS",
            "TRNS|5|DEPOSIT|2/3/2024|Checking||100.00|||N",
            "SPL|6|DEPOSIT|2/3/2024|Undeposited Funds|Ann Smith|-100.00|||N",
            "ENDTRNS",
            "TRNS|7|GENERAL JOURNAL|2/4/2024|Sales Tax|Tax Office|-5.00|||N",
            "SPL|8|GENERAL JOURNAL|2/4/2024|Checking|Bank|5.00||Fee|N",
            "ENDTRNS",
        ),
    )
    assert ledger.problems == ()
    assert [(t.description, [s.memo for s in t.splits]) for t in ledger.transactions] == [
        ("Ann Smith + 2 more", ["", "Ann Smith: Inv 7", "Bob Jones", "Cy Twombly"]),
        ("Ann Smith", ["", ""]),
        ("Tax Office", ["", "Bank: Fee"]),
    ]


@pytest.mark.parametrize(
    ("date", "time", "day"),
    [
        ("5/11/2021", "1636070400", dt.date(2021, 11, 5)),  # (TIME: 2021-11-05 00:00 UTC)
        ("5/11/2021", "1620691200", dt.date(2021, 5, 11)),  # (TIME: 2021-05-11)
        ("5/11/2021", "", dt.date(2021, 5, 11)),  # (M/D/Y, nothing to tell otherwise)
        ("25/11/2021", "", dt.date(2021, 11, 25)),
    ],
)
def test_a_lists_export_date_is_read_in_the_order_its_time_stamp_says(tmp_path, date, time, day):
    """A D/M/Y company's lists HDR "5/11/2021" (5 November) was read 11 May: 24 accounts
    "differed" and the fix offered was refused (hunt 19). A file of lists alone proves no
    order; its TIME (seconds since 1970) settles which one its DATE is written in."""
    path = tmp_path / "lists.iif"
    path.write_text(
        "!HDR\tPROD\tVER\tDATE\tTIME\n"
        f"HDR\tQuickBooks Pro\tVersion 28.0D\t{date}\t{time}\n"
        "!ACCNT\tNAME\tACCNTTYPE\n"
        "ACCNT\tChecking\tBANK\n",
        encoding="utf-8",
    )
    ledger = iif.parse(path, ReadOptions())
    assert ledger.files[0].exported_on == day


def test_two_accounts_differing_only_in_capitals_are_said(tmp_path):
    """ "Advertising" and "advertising" became two accounts with nothing said (hunt 20)."""
    path = tmp_path / "lists.iif"
    path.write_text(
        "!ACCNT\tNAME\tACCNTTYPE\nACCNT\tAdvertising\tEXP\nACCNT\tadvertising\tEXP\n",
        encoding="utf-8",
    )
    ledger = iif.parse(path, ReadOptions())
    assert [a.full_name for a in ledger.accounts] == ["Advertising", "advertising"]
    assert [str(p) for p in ledger.problems] == [
        "lists.iif:3: account “advertising” differs from “Advertising” (line 2) only in "
        "capitals: both are kept, apart, as written; if they are one account, merge one into "
        "the other"
    ]
