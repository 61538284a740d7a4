"""A General Ledger checked against its own Total rows: a heading row gone (its rows read as
the account before), a Total row or a detail row changed, a row moved to another section, and a
report cut short inside a section. The generator's whole report raises none of these."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from pathlib import Path

import pytest

from app.model import ReadOptions
from app.readers import qbcsv, read_one
from tests.support.cli import convert
from tests.support.companygen import make_company

DEFAULT = ReadOptions()


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[object, list[str]]:
    """A generated company and the lines of its General Ledger (nested sections included)."""
    company = make_company(120, seed=4)
    path = company.write_general_ledger_csv(tmp_path_factory.mktemp("gl") / "gl.csv")
    return company, path.read_text(encoding="utf-8").splitlines()


def _at(lines: list[str], start: str) -> int:
    """The 0-based index of the line starting with ``start``."""
    return next(i for i, line in enumerate(lines) if line.startswith(start))


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "gl.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _a_pair(rows: list[list[str]], kind: str) -> list[int]:
    """The rows of a transaction of type ``kind`` the report shows on two rows (mid-report)."""
    by_ref: dict[str, list[int]] = {}
    for i, cells in enumerate(rows):
        if len(cells) > 3 and cells[2].isdigit():
            by_ref.setdefault(cells[2], []).append(i)
    pairs = [ix for ix in by_ref.values() if len(ix) == 2 and rows[ix[0]][3] == kind]
    return pairs[len(pairs) // 2]


def test_the_whole_report_agrees_with_its_total_rows(report, tmp_path) -> None:
    _company, lines = report
    ledger = qbcsv.parse(_write(tmp_path, lines), DEFAULT)
    assert ledger.problems == ()
    assert any(line.startswith(",Total ") for line in lines)  # subaccounts' Total rows too


def test_a_missing_heading_row_is_an_error_naming_the_account_its_rows_went_to(
    report, tmp_path
) -> None:
    """The hunt's case: a section's heading row and the Total row above it gone, so its rows
    were read as the account before, silently."""
    company, lines = report
    heading = _at(lines, "6400 · Insurance")
    lines = lines[: heading - 1] + lines[heading + 1 :]  # "Total 6300 …" and "6400 · Insurance"
    total = _at(lines, "Total 6400 · Insurance") + 1
    ledger = qbcsv.parse(_write(tmp_path, lines), DEFAULT)
    assert [(p.severity, str(p.source), p.message) for p in ledger.errors] == [
        (
            "error",
            f"gl.csv:{total}",
            "a “Total 6400 · Insurance” row with no heading row for “6400 · Insurance” above "
            "it: the heading row is missing, so the rows above were read as rows of 6300 · "
            "Depreciation Expense; export the General Ledger again from QuickBooks and give it "
            "unedited",
        )
    ]
    out = tmp_path / "out"
    out.mkdir()
    lists = company.write_lists_iif(out / "lists.iif")
    book = out / "book.gnucash"
    run = convert(lists, tmp_path / "gl.csv", "-o", book)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"gl.csv:{total}: a “Total 6400 · Insurance” row" in run.stdout + run.stderr
    assert not book.exists()


def test_a_total_row_that_is_not_its_rows_sum_is_said_with_both_sums(report, tmp_path) -> None:
    _company, lines = report
    at = _at(lines, "Total 6400 · Insurance")
    cells = next(csv.reader([lines[at]]))
    debit = Decimal(cells[-3].replace(",", ""))
    cells[-3] = f"{debit + 100:.2f}"  # the Total row's debits edited by hand
    edited = io.StringIO()
    csv.writer(edited, lineterminator="").writerow(cells)
    lines = [*lines[:at], edited.getvalue(), *lines[at + 1 :]]
    ledger = qbcsv.parse(_write(tmp_path, lines), DEFAULT)
    under = lines[_at(lines, "6400 · Insurance") + 1 : at]  # subaccounts' sections too
    rows = sum(1 for line in under if line.startswith(",,"))
    assert [(p.severity, str(p.source), p.message) for p in ledger.problems] == [
        (
            "warning",
            f"gl.csv:{at + 1}",
            f"the Total row of 6400 · Insurance says {debit + 100:,.2f}, but the {rows} rows "
            f"read under it sum to {debit:,.2f} (difference -100.00): a row is missing, "
            "changed, or read under another account; export the General Ledger again from "
            "QuickBooks and give it unedited",
        )
    ]


def test_a_row_moved_to_another_section_is_said_at_both_total_rows(report, tmp_path) -> None:
    """A detail row moved under another account balances its transaction still: only the two
    sections' Total rows tell."""
    _company, lines = report
    first = _at(lines, "6000 · Advertising") + 1
    row = lines[first]
    assert row.startswith(",,")  # a detail row
    lines = [*lines[:first], *lines[first + 1 :]]
    other = _at(lines, "6300 · Depreciation Expense") + 1
    lines = [*lines[:other], row, *lines[other:]]
    ledger = qbcsv.parse(_write(tmp_path, lines), DEFAULT)
    said = [(str(p.source), p.message.split(" says ")[0]) for p in ledger.problems]
    totals = [
        _at(lines, f"Total {a}") + 1 for a in ("6000 · Advertising", "6300 · Depreciation Expense")
    ]
    assert said == [
        (f"gl.csv:{totals[0]}", "the Total row of 6000 · Advertising"),
        (f"gl.csv:{totals[1]}", "the Total row of 6300 · Depreciation Expense"),
    ]
    assert all(p.severity == "warning" for p in ledger.problems)
    assert all(t.total == 0 for t in ledger.transactions)


def test_a_report_cut_inside_a_section_is_one_error_not_one_per_transaction(
    report, tmp_path
) -> None:
    """Cut after the first account's section: each transaction there lacks its other lines.
    One error says the cut (its signs: no TOTAL row, the unbalanced transactions, the last
    section without its Total row); the unbalanced ones are left out, not listed one by one."""
    _company, lines = report
    savings = _at(lines, "1010 · Savings")
    path = _write(tmp_path, lines[: savings + 1])
    refused = read_one(path, DEFAULT)
    assert [p.severity for p in refused.problems] == ["error"]
    (cut,) = refused.problems
    assert str(cut.source) == f"gl.csv:{savings + 1}"
    assert cut.message.startswith(
        "gl.csv stops early: it does not end with the TOTAL row a whole General Ledger report "
        "ends with, and "
    )
    last = f"its last account section (1010 · Savings, from line {savings + 1}) has no Total row"
    assert last in cut.message
    assert all(t.total == 0 for t in refused.transactions)
    read = qbcsv.parse(path, DEFAULT)
    unbalanced = sum(1 for t in read.transactions if t.total)
    assert unbalanced > 10
    assert f"{unbalanced} of its transactions do not balance" in cut.message
    assert f"the {unbalanced} that do not balance are left out" in cut.message
    assert len(refused.transactions) == len(read.transactions) - unbalanced
    # it cannot be taken as cut: the sections past the cut hold lines of every year
    accepted = read_one(path, ReadOptions(truncated_ok=True))
    assert [p.severity for p in accepted.problems] == ["error"]
    assert accepted.problems[0].message.endswith(
        "export it again (by date range, a year at a time, if it is large) and give every "
        "file (it cannot be taken as cut: the account sections past where it stops hold "
        "lines of every year)"
    )
    assert accepted.transactions == refused.transactions


AMOUNT = (  # Transaction Detail by Account: one Amount column, its Total rows an Amount
    ",,Trans #,Type,Date,Num,Name,Memo,Split,Amount,Balance\n"
    "Checking,,,,,,,,,,\n"
    ",,1,Deposit,01/05/2021,,,Deposit,Sales,500.00,500.00\n"
    ",,2,Check,01/20/2021,101,Acme,,Rent,-200.00,300.00\n"
    "Total Checking,,,,,,,,,300.00,300.00\n"
    "Rent,,,,,,,,,,\n"
    ",,2,Check,01/20/2021,101,Acme,,Checking,200.00,200.00\n"
    "Total Rent,,,,,,,,,200.00,200.00\n"
    "Sales,,,,,,,,,,\n"
    ",,1,Deposit,01/05/2021,,,Deposit,Checking,-500.00,500.00\n"
    "Total Sales,,,,,,,,,-500.00,500.00\n"
    "TOTAL,,,,,,,,,0.00,\n"
)


@pytest.mark.parametrize(
    "text",
    [
        AMOUNT,
        # Total rows showing the Balance alone: nothing to check them against, nothing said
        AMOUNT.replace(",,300.00,300.00\n", ",,,300.00\n")
        .replace(",,200.00,200.00\n", ",,,200.00\n")
        .replace(",,-500.00,500.00\n", ",,,500.00\n"),
        # subaccounts indented in one column (not QuickBooks' own export): a Total row of a
        # heading opened above is no missing heading
        AMOUNT.replace("Rent,,,,", "Expenses,,,,\nRent,,,,", 1).replace(
            "Total Rent,,,,,,,,,200.00,200.00\n",
            "Total Rent,,,,,,,,,200.00,200.00\nTotal Expenses,,,,,,,,,200.00,200.00\n",
        ),
        # a Purchase Orders section: its row is a document not read (listed as not imported)
        AMOUNT.replace(
            "TOTAL,",
            "Purchase Orders,,,,,,,,,,\n,,3,Purchase Order,01/22/2021,7,Acme,,Rent,-50.00,-50.00\n"
            "Total Purchase Orders,,,,,,,,,-50.00,-50.00\nTOTAL,",
        ),
        # the last section closed by the report's TOTAL row alone: no Total row of its own
        AMOUNT.replace("Total Sales,,,,,,,,,-500.00,500.00\n", ""),
    ],
    ids=["amount", "balance-only", "one-column", "non-posting", "last-without-total"],
)
def test_legitimate_layouts_raise_nothing(tmp_path, text: str) -> None:
    ledger = qbcsv.parse(_write(tmp_path, text.rstrip("\n").split("\n")), DEFAULT)
    assert ledger.problems == ()
    assert len(ledger.transactions) == 2 and all(t.total == 0 for t in ledger.transactions)


def test_an_amount_layout_row_changed_is_said_at_its_total_row(tmp_path) -> None:
    text = AMOUNT.replace("Acme,,Checking,200.00,200.00", "Acme,,Checking,210.00,210.00")
    ledger = qbcsv.parse(_write(tmp_path, text.rstrip("\n").split("\n")), DEFAULT)
    said = [(str(p.source), p.severity, p.message.split(":")[0]) for p in ledger.problems]
    assert said == [
        (
            "gl.csv:8",
            "warning",
            "the Total row of Rent says 200.00, but the 1 rows read under it sum to 210.00 "
            "(difference 10.00)",
        )
    ]


def test_a_missing_heading_is_found_though_another_parent_has_a_subaccount_so_named(tmp_path):
    """Auto:Other and Utilities:Other: the heading of Utilities' "Other" gone, its rows read as
    Utilities' own. Auto's "Other" is no heading of it: still an error."""
    text = (
        ",,,Trans #,Type,Date,Num,Name,Memo,Split,Amount,Balance\n"
        "Checking,,,,,,,,,,,\n"
        ",,,1,Check,01/05/2021,1,A,,-SPLIT-,-30.00,-30.00\n"
        "Total Checking,,,,,,,,,,-30.00,-30.00\n"
        "Auto,,,,,,,,,,,\n"
        ",Other,,,,,,,,,,\n"
        ",,,1,Check,01/05/2021,1,A,,Checking,10.00,10.00\n"
        ",Total Other,,,,,,,,,10.00,10.00\n"
        "Total Auto,,,,,,,,,,10.00,10.00\n"
        "Utilities,,,,,,,,,,,\n"
        ",,,1,Check,01/05/2021,1,A,,Checking,20.00,20.00\n"
        ",Total Other,,,,,,,,,20.00,20.00\n"
        "Total Utilities,,,,,,,,,,20.00,20.00\n"
        "TOTAL,,,,,,,,,,0.00,\n"
    )
    ledger = qbcsv.parse(_write(tmp_path, text.rstrip("\n").split("\n")), DEFAULT)
    assert [(str(p.source), p.message.split(":")[0]) for p in ledger.errors] == [
        ("gl.csv:12", "a “Total Other” row with no heading row for “Other” above it")
    ]


def test_a_transaction_detail_by_account_cut_short_is_refused_as_a_general_ledger_is(tmp_path):
    """Grouped by account with an Account column (sections in a Trans # report): cut after the
    first section, its transactions lack their other lines in every year. One error, not to be
    accepted as cut (it dropped only the last transaction)."""
    rows = [
        ",Trans #,Type,Date,Account,Debit,Credit",
        "Checking,,,,,,",
        *(f",{n},Check,0{n}/05/2021,Checking,,{n}0.00" for n in range(1, 6)),
        "Total Checking,,,,,,150.00",
        "Rent,,,,,,",
        ",1,Check,01/05/2021,Rent,10.00,",
    ]
    path = _write(tmp_path, rows)
    for options in (DEFAULT, ReadOptions(truncated_ok=True)):
        read = read_one(path, options)
        assert [p.severity for p in read.problems] == ["error"], read.problems
        assert "4 of its transactions do not balance" in read.problems[0].message
        assert "the account sections after where it stops are missing" in read.problems[0].message
        assert len(read.transactions) == 1  # the one whole: its Rent line came before the cut


@pytest.mark.parametrize("opening", [False, True])
def test_a_transaction_gone_from_the_report_is_never_posted_as_an_opening_balance(
    report, tmp_path, opening: bool
) -> None:
    """A whole transaction (both its rows) gone from the General Ledger: it still balances, so
    only the two sections' Total rows tell. The two accounts' differences are not posted as
    opening balances (with --opening-balances the book was called "Matches QuickBooks to the
    cent", the missing deposit plugged), and the proof names those Total rows as their cause.
    The book reopened holds what the file's rows hold."""
    from app import gnc

    company, lines = report
    rows = list(csv.reader(lines))
    gone = _a_pair(rows, "Deposit")
    accounts = [rows[i][10].split(" · ")[-1] for i in reversed(gone)]  # (each row's other side)
    amount = Decimal(next(c for c in rows[gone[0]][11:13] if c).replace(",", ""))
    kept = [line for i, line in enumerate(lines) if i not in gone]
    folder = tmp_path / "files"
    folder.mkdir()
    lists = company.write_lists_iif(folder / "lists.iif")
    book = tmp_path / "book.gnucash"
    extra = ["--opening-balances"] if opening else []
    run = convert(lists, _write(folder, kept), "-o", book, "--strict", *extra)
    out = run.stdout + run.stderr
    assert run.returncode == 3, out
    assert "Needs your attention: 2 accounts differ" in out, out
    for name in accounts:
        said = next(line for line in out.splitlines() if line.strip().startswith(f"{name}:"))
        assert "the General Ledger is short there: gl.csv:" in said, said
        at = int(said.split("gl.csv:")[1].split(":")[0])
        assert kept[at - 1].lstrip(",").startswith("Total ") and name in kept[at - 1], said
    got = {a.full_name: a.balance for a in gnc.read_book(book).accounts}
    truth = company.expected_balances()
    assert {got[n] - truth[n] for n in accounts} == {amount, -amount}
    assert all(got.get(n, Decimal(0)) == v for n, v in truth.items() if n not in accounts)


def test_the_cutover_and_the_proof_give_one_cause_where_two_apply(report, tmp_path) -> None:
    """An account the General Ledger's Total rows say is short, merged across the balance-sheet
    line too: the cutover's warning and the proof named different causes (the warning the
    Total rows, the proof the merge: each checked in its own order, hunt 18). Both name the
    merge, which the plan can undo."""
    import json

    company, lines = report
    rows = list(csv.reader(lines))
    gone = _a_pair(rows, "Check")
    names = [rows[i][10].split(" · ")[-1] for i in gone]
    kinds = {full.rsplit(":", 1)[-1]: (full, kind) for full, kind, *_ in company.accounts}
    expense = next(kinds[n][0] for n in names if kinds[n][1] == "EXP")
    bank = next(kinds[n][0] for n in names if kinds[n][1] == "BANK")
    folder = tmp_path / "files"
    folder.mkdir()
    lists = company.write_lists_iif(folder / "lists.iif")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"rules": [{"kind": "merge", "account": expense, "target": bank}]}))
    kept = [line for i, line in enumerate(lines) if i not in gone]
    book = tmp_path / "book.gnucash"
    run = convert(lists, _write(folder, kept), "-o", book, "--plan", plan, "--opening-balances")
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    merge = f"the plan merges across the balance-sheet line (“{expense}” merged into “{bank}”)"
    warned = [line for line in out.splitlines() if f": {bank}: QuickBooks balance" in line]
    proof = [line.strip() for line in out.splitlines() if line.strip().startswith(f"{bank}: ")]
    assert len(warned) == len(proof) == 1, out
    assert merge in warned[0] and "General Ledger is short" not in warned[0], warned
    assert "the plan merges across the balance-sheet line" in proof[0], proof
