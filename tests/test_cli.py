"""``run.py convert`` end to end, as a user runs it: a subprocess, real files, the real GnuCash
engine; every book written is reopened with gnc.read_book and checked."""

from __future__ import annotations

import csv
import ctypes
import datetime as dt
import gzip
import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from decimal import Decimal as D
from pathlib import Path

import pytest

from tests.paths import DATA, ENTERPRISE, ROOT
from tests.support.cli import convert

CLI = DATA / "cli"
LISTS, TXNS = CLI / "lists.iif", CLI / "txns.iif"


def read_book(path: Path, **kw):
    from app.gnc import read_book as read

    return read(path, **kw)


def balances(book) -> dict[str, D]:
    return {a.full_name: a.balance for a in book.accounts}


def test_estimates_and_orders_are_not_imported_and_do_not_block(tmp_path):
    """A Transaction Detail and an IIF file holding estimates, purchase and sales orders (on
    accounts the chart does not have): the book gets the two real transactions, the summary
    counts the rest under "Not imported", and nothing blocks."""
    out = tmp_path / "Company.gnucash"
    run = convert(LISTS, CLI / "non_posting.csv", CLI / "non_posting.iif", "-o", out, "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    reason = "a non-posting document: QuickBooks keeps it out of the books"
    assert f"  Estimates: 3 ({reason})\n  Purchase orders: 2 ({reason})\n" in run.stdout
    assert f"  Sales orders: 1 ({reason})\n" in run.stdout
    book = read_book(out, transactions=True)
    assert (book.transactions, book.splits) == (2, 4)
    assert balances(book)["Checking"] == D("75.00")
    assert [t.num for t in book.transaction_list] == ["101", ""]


def test_deposit_payers_reach_the_book(tmp_path):
    """A generated company whose deposits name their payers on the deposit lines only: in the
    book each deposit's description is its payer (or the first and "+ N more") and each deposit
    line's memo its own payer."""
    from tests.support.companygen import make_company

    company = make_company(200, seed=3, payers=True)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    detail = company.write_transaction_detail_csv(tmp_path / "detail.csv")
    out = tmp_path / "book.gnucash"
    run = convert(lists, detail, "-o", out, "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    book = read_book(out, transactions=True)
    assert len(book.transaction_list) == len(company.history)
    by_notes = {t.notes: t for t in book.transaction_list}  # (voided ones: "Voided transaction")
    several = 0
    for want in (t for t in company.history if t.names):
        payers = [n for n in want.names if n]
        distinct = list(dict.fromkeys(payers))
        txn = by_notes[f"QuickBooks Deposit #{want.trans_no}"]
        more = len(distinct) - 1
        assert txn.description == distinct[0] + (f" + {more} more" if more else "")
        memos = sorted(s.memo for s in txn.splits if s.value < 0)  # the deposit lines
        assert memos == (sorted(payers) if more else [""] * len(payers))
        several += bool(more)
    assert several


def test_relative_paths_are_taken_from_the_current_folder(tmp_path):
    """As typed in a terminal: ``convert lists.iif txns.iif -o Company.gnucash``."""
    shutil.copy(LISTS, tmp_path / "lists.iif")
    shutil.copy(TXNS, tmp_path / "txns.iif")
    run = convert(
        "lists.iif", "txns.iif", "-o", "Company.gnucash", "--report", "r.csv", cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "Company.gnucash",
        "lists.iif",
        "r.csv",
        "r.warnings.txt",  # the lists export's date is missing: one warning
        "txns.iif",
    ]
    assert read_book(Path(os.path.relpath(tmp_path / "Company.gnucash"))).transactions == 2


def test_small_company_lists_and_transactions(tmp_path):
    out, report = tmp_path / "Company.gnucash", tmp_path / "report.csv"
    run = convert(LISTS, TXNS, "-o", out, "--report", report)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    for line in (
        "  lists.iif: IIF lists, utf-8,",
        "  txns.iif: IIF transactions,",
        "  5 accounts",
        "  2 transactions with 4 lines",
        "  1 customer with 1 job",
        "  1 vendor",
        "  1 employee",
        "  1 bill term",
        "Bill terms 1, Classes 1\n",  # the class list is read, not listed as not imported
        "Verification:\n  5 of 5 accounts match QuickBooks to the cent",
        f"Book written to {out} (xml, USD)",
    ):
        assert line in run.stdout
    book = read_book(out)
    assert balances(book) == {
        "Checking": D("75.00"),
        "Utilities": D(0),
        "Utilities:Gas": D("25.00"),
        "Sales": D("-100.00"),
        "Opening Bal Equity": D(0),
    }
    checking = book.account("Checking")
    assert (checking.type, checking.code, checking.description) == ("BANK", "1000", "Main bank")
    assert book.account("Opening Bal Equity").opening_balance
    assert (book.transactions, book.splits) == (2, 4)
    assert dict(book.reconcile).get("y") == 1
    assert [(c.name, c.jobs, c.terms) for c in book.customers] == [
        ("Ann Smith", ("Kitchen",), "Net 30")
    ]
    assert [v.name for v in book.vendors] == ["Gas Co"]
    assert [e.name for e in book.employees] == ["Joe Worker"]
    assert [t.name for t in book.terms] == ["Net 30"]
    assert "987-65-4321" not in gzip.decompress(out.read_bytes()).decode("utf-8")
    rows = list(csv.reader(report.read_text(encoding="utf-8").splitlines()))
    assert rows[0] == [
        "account",
        "quickbooks_account",
        "quickbooks_balance",
        "gnucash_balance",
        "difference",
        "basis",
        "as_of",
        "cause",
    ]
    assert [r[:6] for r in rows if r[0] == "Checking"] == [
        ["Checking", "Checking", "75.00", "75.00", "0.00", "all time"]
    ]
    warnings = tmp_path / "report.warnings.txt"
    assert sorted(tmp_path.iterdir()) == sorted([out, report, warnings])
    assert warnings.read_text(encoding="utf-8").startswith(
        "the files do not say on which day the lists were exported"
    )


def test_reparent_and_sqlite(tmp_path):
    out = tmp_path / "book.gnucash"
    run = convert(LISTS, TXNS, "-o", out, "--reparent", "--format", "sqlite", "--strict")
    assert run.returncode == 0, run.stderr
    assert out.read_bytes().startswith(b"SQLite format 3")
    book = read_book(out)
    assert book.account("Assets:Current Assets:Checking").balance == D("75.00")
    assert book.account("Expenses:Utilities:Gas").balance == D("25.00")
    assert book.account("Equity:Opening Bal Equity").opening_balance
    for parent in ("Assets", "Assets:Current Assets", "Expenses", "Income", "Equity"):
        assert book.account(parent).placeholder, parent


def test_plan_file_and_options_on_top(tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text(
        json.dumps(
            {
                "rules": [
                    {"kind": "rename", "account": "Utilities:Gas", "target": "Gas and Electric"},
                    {"kind": "move", "account": "Checking", "target": "Banks"},
                ],
                "currency": "EUR",
            }
        )
    )
    out = tmp_path / "book.gnucash"
    run = convert(LISTS, TXNS, "-o", out, "--plan", plan, "--currency", "cad")
    assert run.returncode == 0, run.stderr
    book = read_book(out)
    assert book.currency == "CAD"
    assert book.account("Utilities:Gas and Electric").balance == D("25.00")
    assert book.account("Banks:Checking").balance == D("75.00")
    assert book.account("Banks").placeholder


def test_date_order_option(tmp_path):
    out = tmp_path / "book.gnucash"
    run = convert(LISTS, TXNS, "-o", out, "--date-order", "dmy")
    assert run.returncode == 0, run.stderr
    book = read_book(out)
    assert (book.first_date, book.last_date) == (dt.date(2024, 1, 2), dt.date(2024, 2, 2))


def test_input_problems_exit_1_with_file_line_and_no_book(tmp_path):
    out = tmp_path / "book.gnucash"
    run = convert(LISTS, CLI / "unbalanced.iif", "-o", out)
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        "unbalanced.iif:4: transaction does not balance: debits 20.00, credits 25.00 "
        "(difference -5.00); lines 4-5",
        "unbalanced.iif:8: account “Travel” (line 8) is not in the chart of accounts; to fix: "
        "map it to a chart account with account_map in a plan file (--plan)",
        "No book written: 2 problems to resolve.",
    ]
    assert list(tmp_path.iterdir()) == []


BAD_FILES = {
    "empty.iif": b"",
    "binary.iif": b"\x00\x01\x02\x03GNU\xff\xfe\x00\x00" * 40,
    "contacts.iif": b"Name,Phone,Email\nGas Co,555-0100,gas@example.com\n",  # a CSV, not IIF
    "headerless.iif": b"TRNS\t1\tCHECK\t2/1/2024\tChecking\t-25.00\n"
    b"SPL\t2\tCHECK\t2/1/2024\tUtilities:Gas\t25.00\nENDTRNS\n",
    "truncated.iif": b'!ACCNT\tNAME\tACCNTTYPE\tDESC\nACCNT\tChecking\tBANK\t"Main bank\n'
    b"ACCNT\tSavings\tBANK\t\n",
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_files_exit_1_naming_file_and_line(tmp_path, name):
    bad = tmp_path / name
    bad.write_bytes(BAD_FILES[name])
    out = tmp_path / "book.gnucash"
    run = convert(bad, "-o", out)
    assert run.returncode == 1, run.stdout + run.stderr
    first = run.stderr.splitlines()[0]
    assert first.startswith(f"{name}:"), first
    assert first.split(":")[1].isdigit(), first
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
    if name == "truncated.iif":
        assert "quote" in first, first  # the reader must say what is wrong, not guess a name


def test_a_csv_report_named_iif_is_read_by_its_content(tmp_path):
    report = tmp_path / "report.iif"
    report.write_bytes(
        b"Trans #,Type,Date,Num,Name,Memo,Account,Debit,Credit\n"
        b"1,Check,2/1/2024,101,Gas Co,,Checking,,25.00\n"
        b"1,Check,2/1/2024,101,Gas Co,,Utilities:Gas,25.00,\n"
    )
    out = tmp_path / "book.gnucash"
    run = convert(LISTS, report, "-o", out)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "report.iif: CSV" in run.stdout
    assert read_book(out).account("Utilities:Gas").balance == D("25.00")


def test_one_bad_file_among_good_ones_is_reported_and_nothing_written(tmp_path):
    empty = tmp_path / "empty.iif"
    empty.write_bytes(b"")
    out = tmp_path / "book.gnucash"
    run = convert(LISTS, empty, TXNS, "-o", out)
    assert run.returncode == 1
    assert run.stderr.splitlines()[0] == "empty.iif:1: the file is empty"
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((LISTS,), "the following arguments are required: -o"),
        ((LISTS, "-o", "{out}", "--format", "pdf"), "invalid choice: 'pdf'"),
        ((LISTS, "-o", "{out}", "--currency", "XYZ"), "unknown currency “XYZ”"),
        ((LISTS, "-o", "{out}", "--balances-only", "2024-13-01"), "expected a date YYYY-MM-DD"),
        ((LISTS, "-o", "{out}", "--fiscal-year-start", "13-01"), "MM-DD, e.g. 07-01"),
        ((LISTS, "-o", "{out}", "--plan", "{bad_plan}"), "plan.json:1: not valid JSON"),
        ((LISTS, "-o", "{out}", "--plan", "{odd_plan}"), "unknown rule kind “explode”"),
        ((CLI / "missing.iif", "-o", "{out}"), "missing.iif: no such file"),
        ((LISTS, "-o", "{tmp}/nowhere/book.gnucash"), "does not exist"),
        ((LISTS, LISTS, "-o", "{out}"), "two input files are named lists.iif"),
        ((CLI, "-o", "{out}"), "a folder, not a file"),
        ((LISTS, "-o", "{out}", "--report", "{tmp}/no/r.csv"), "for the report does not exist"),
        ((LISTS, "-o", "{tmp}/" + "b" * 292 + ".gnucash"), "the book's file name is too long"),
        ((LISTS, "-o", "{out}", "--report", "{tmp}/" + "r" * 296 + ".csv"), "name is too long"),
    ],
)
def test_usage_errors_exit_2(tmp_path, args, message):
    (tmp_path / "plan.json").write_text("{not json")
    (tmp_path / "odd.json").write_text(
        '{"rules": [{"kind": "explode", "account": "A", "target": ""}]}'
    )
    where = {
        "out": tmp_path / "book.gnucash",
        "bad_plan": tmp_path / "plan.json",
        "odd_plan": tmp_path / "odd.json",
        "tmp": tmp_path,
    }
    run = convert(*(str(a).format(**where) for a in args))
    assert run.returncode == 2
    assert message in run.stderr
    assert not (tmp_path / "book.gnucash").exists()


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        ('{"cutover": {"fiscal_year_start": 701}}', "cutover.fiscal_year_start must be a text"),
        ('{"cutover": {"mode": "balances_only", "date": 20191225}}', "cutover.date must be a"),
        ('{"files": {"d.csv": {"columns": {"Date": 5}}}}', "files.d.csv.columns.Date must be"),
        ('{"rules": [{"kind": "rename", "account": "Sales", "target": null}]}', "got null"),
        ('{"rules": [{"kind": "rename", "account": "Sales", "target": ["a"]}]}', 'got ["a"]'),
        ('{"reparent": "false"}', 'reparent must be true or false (got "false")'),
        ('{"cutover": {"opening_balances": "no"}}', "cutover.opening_balances must be true"),
        ('{"rulez": []}', "unknown setting “rulez” (expected one of: account_map,"),
        ('{"rules": [{"kind": "rename", "account": "Sales"}]}', "rules[1] has no target"),
        ("[" * 100_000, "not a plan (its JSON is nested too deeply)"),
        ('{"rules": [{"kind": "rename", "account": "Sales", "target": "a\\ud800"}]}', "no text"),
        ('{"currency": "\\ud800"}', "currency holds a character that is no text (a lone UTF-16"),
        ('{"reparent": ' + "1" * 5000 + "}", "not a plan (it holds a number too long to read)"),
        ('{"rules": [{"kind": "rename", "account": "Sales", "target": "Sales "}]}', "with a space"),
        ('{"rules": [{"kind": "rename", "account": "Sales", "target": "a\\u202eb"}]}', "invisible"),
    ],
)
def test_a_plan_of_wrong_types_or_unknown_settings_is_refused(tmp_path, plan, message):
    """Hunt 15: a number where a text goes was a traceback; a null target renamed Rent to
    "None", "false" turned reparenting on, a typo dropped every rule: each book "matched"."""
    path = tmp_path / "plan.json"
    path.write_text(plan, encoding="utf-8")
    run = convert(LISTS, TXNS, "-o", tmp_path / "book.gnucash", "--plan", path)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert message in run.stderr, run.stderr
    assert not (tmp_path / "book.gnucash").exists()


def test_a_plan_not_in_utf8_is_refused_and_one_with_a_bom_is_read(tmp_path):
    plan = '{"rules": [{"kind": "rename", "account": "Sales", "target": "Miète"}]}'
    latin = tmp_path / "latin.json"
    latin.write_bytes(plan.encode("latin-1"))
    run = convert(LISTS, TXNS, "-o", tmp_path / "book.gnucash", "--plan", latin)
    assert run.returncode == 2 and "its text is not UTF-8" in run.stderr, run.stderr
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + b'{"reparent": true}')
    run = convert(LISTS, TXNS, "-o", tmp_path / "book.gnucash", "--plan", bom)
    assert run.returncode == 0, run.stderr


def test_a_circle_of_moves_is_refused(tmp_path):
    """Utilities under Sales, Sales under Utilities: it wrote Utilities:Sales:Utilities (a new
    placeholder "Utilities") and "matched" (hunt 15: Rent and Telephone)."""
    first, second = "Utilities", "Sales"
    plan = tmp_path / "plan.json"
    plan.write_text(
        json.dumps({"rules": [
            {"kind": "move", "account": first, "target": second},
            {"kind": "move", "account": second, "target": first},
        ]}),
        encoding="utf-8",
    )  # fmt: skip
    run = convert(LISTS, TXNS, "-o", tmp_path / "book.gnucash", "--plan", plan)
    assert run.returncode == 1 and f"cannot move “{second}” under “{first}”, which is inside" in (
        run.stderr
    ), run.stderr
    assert not (tmp_path / "book.gnucash").exists()


def _without_root_override() -> None:
    """In the child, before exec: no CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH, so that folder
    permissions hold for root too (the test may run as root)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):
        libc.prctl(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP: gone after exec


@pytest.mark.parametrize("where", ["report", "book"])
def test_a_read_only_folder_is_a_usage_error_before_anything_is_written(tmp_path, where):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    out = (locked if where == "book" else tmp_path) / "book.gnucash"
    report = (locked if where == "report" else tmp_path) / "report.csv"
    try:
        run = subprocess.run(
            [sys.executable, "run.py", "convert", LISTS, TXNS, "-o", out, "--report", report],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
            preexec_fn=_without_root_override if os.geteuid() == 0 else None,
        )
    finally:
        locked.chmod(0o755)
    assert run.returncode == 2, run.stderr
    assert f"cannot write the {where} in folder {locked} (Permission denied)" in run.stderr
    assert "Traceback" not in run.stderr
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["locked"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["-o", "{t}", "--force"], "the book {t} would replace the input file {t}"),
        (["-o", "{d}/../{t}", "--force"], "the book {d}/../{t} would replace the input file"),
        (["-o", "b.gnucash", "--report", "{l}"], "the report {l} would replace the input file"),
        (["-o", "b.gnucash", "--tax-report", "{l}"], "the tax report {l} would replace the"),
        (["-o", "b.gnucash", "--report", "p.json", "--plan", "p.json"], "would replace the plan"),
        (["-o", "b.gnucash", "--report", "b.gnucash"], "the book and the report are both"),
        (
            ["-o", "b.gnucash", "--documents-report", "x.csv", "--item-catalogue", "x.csv"],
            "the documents report and the item catalogue are both x.csv",
        ),
        (
            ["-o", "b.gnucash", "--report", "r.csv", "--documents-report", "r.warnings.txt"],
            "the warnings file and the documents report are both r.warnings.txt",
        ),
        (["-o", "b.gnucash", "--report", "."], "the report . is a folder: give a file name"),
        # (hunt 20: another name of the export, a hard link, was written over)
        (["-o", "b.gnucash", "--report", "same.iif", "--force"], "report same.iif would replace"),
        (["-o", "fifo", "--force"], "the book fifo is not a plain file: give a file name"),
        (["-o", "b.gnucash", "--report", "old.csv"], "old.csv already exists; add --force"),
        # (hunt 21: a traceback; an update of a database book refused over its report)
        (["-o", "b.gnucash", "--tax-report", "t" * 300 + ".csv"], "tax report's file name is too"),
        (
            ["--update", "postgres://u@127.0.0.1:9/db", "--report", "old.csv"],
            "cannot reach the PostgreSQL server at 127.0.0.1:9",
        ),
        (
            ["-o", "b.gnucash", "--split-at", "2024-01-01", "--archive", "{t}", "--force"],
            "the archive {t} would replace the input file {t}",
        ),
    ],
)
def test_an_output_on_an_input_another_output_or_no_plain_file_is_refused(tmp_path, args, said):
    """``-o journal.csv --force`` wrote the book over the export being read, ``--report`` an
    export or the book without being asked, two reports one another, and ``-o /dev/null
    --force`` replaced the device (hunt 20): refused before anything is read, exit 2, every
    file as it was."""
    import shutil

    work = tmp_path / "work"
    work.mkdir()
    for f in (LISTS, TXNS):
        shutil.copy(f, work / f.name)
    os.mkfifo(work / "fifo")
    os.link(work / TXNS.name, work / "same.iif")
    (work / "old.csv").write_text("an earlier report")
    (work / "p.json").write_text("{}")
    before = {p.name: p.read_bytes() for p in work.iterdir() if p.is_file()}
    names = {"t": TXNS.name, "l": LISTS.name, "d": work.name}
    run = convert(LISTS.name, TXNS.name, *(a.format(**names) for a in args), cwd=work)
    assert run.returncode == 2, run.stdout + run.stderr
    assert said.format(**names) in run.stderr, run.stderr
    assert "Traceback" not in run.stderr
    assert {p.name: p.read_bytes() for p in work.iterdir() if p.is_file()} == before
    assert (work / "fifo").is_fifo()


def test_existing_output_needs_force(tmp_path):
    out = tmp_path / "book.gnucash"
    out.write_text("an older book")
    run = convert(LISTS, TXNS, "-o", out)
    assert run.returncode == 2
    assert "already exists; add --force" in run.stderr
    assert out.read_text() == "an older book"
    failed = convert(LISTS, CLI / "unbalanced.iif", "-o", out, "--force")
    assert failed.returncode == 1
    assert out.read_text() == "an older book"  # only replaced on success
    run = convert(LISTS, TXNS, "-o", out, "--force")
    assert run.returncode == 0, run.stderr
    assert read_book(out).account("Checking").balance == D("75.00")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.gnucash"]


def test_strict_exits_3_on_a_difference_and_still_writes(tmp_path):
    out, report = tmp_path / "book.gnucash", tmp_path / "r.csv"
    lenient = convert(CLI / "lists_differs.iif", TXNS, "-o", tmp_path / "lenient.gnucash")
    assert lenient.returncode == 0, lenient.stderr
    assert "Checking: QuickBooks balance 80.00" in lenient.stdout  # the warning says so
    # Issue 13: the differences are the last lines, said on the "Book written" line, --strict named
    # their one cause said once, first, each pointing to it
    assert lenient.stdout.splitlines()[-4:] == [
        f"Book written to {tmp_path / 'lenient.gnucash'} (xml, USD). Needs your attention: 2 "
        "accounts differ (exit status 0: --strict makes a difference exit 3):",
        "  Probable cause of every difference: the history starts on 2024-02-01, after the "
        "company did: what came before, or a transaction of the files, is missing; to fix: add "
        "--opening-balances",
        "  Checking: QuickBooks 80.00, GnuCash 75.00 (all time), difference -5.00 — the history "
        "starts on 2024-02-01, after the company did (see above)",
        "  Opening Bal Equity: QuickBooks -5.00, GnuCash 0.00 (all time), difference 5.00 — the "
        "history starts on 2024-02-01, after the company did (see above)",
    ]
    assert lenient.stdout.count("Checking: QuickBooks 80.00, GnuCash 75.00") == 1
    run = convert(CLI / "lists_differs.iif", TXNS, "-o", out, "--strict", "--report", report)
    assert run.returncode == 3
    assert "Verification found differences" in run.stderr
    assert read_book(out).account("Checking").balance == D("75.00")
    rows = list(csv.reader(report.read_text(encoding="utf-8").splitlines()))
    assert ["Checking", "Checking", "80.00", "75.00", "-5.00", "all time"] in [r[:6] for r in rows]
    (checking,) = [r for r in rows if r[0] == "Checking"]
    assert checking[7].startswith("the history starts on 2024-02-01")  # the probable cause


def test_opening_balances_option_closes_the_difference(tmp_path):
    out = tmp_path / "book.gnucash"
    run = convert(CLI / "lists_differs.iif", TXNS, "-o", out, "--opening-balances", "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    book = read_book(out)
    assert book.account("Checking").balance == D("80.00")
    assert book.transactions == 3


# ---------------------------------------------------------------- the real Enterprise sample


def sample_ssns() -> list[str]:
    lines = ENTERPRISE.read_text(encoding="utf-8").splitlines()
    header = next(line.split("\t") for line in lines if line.startswith("!EMP\t"))
    col = header.index("SSNO")
    ssns = [line.split("\t")[col] for line in lines if line.startswith("EMP\t")]
    return [s for s in ssns if s.strip()]


@pytest.mark.samples
def test_enterprise_sample_lists(samples_dir, tmp_path):
    out = tmp_path / "Enterprise.gnucash"
    run = convert(ENTERPRISE, "-o", out)
    assert run.returncode == 0, run.stderr
    # a table named "County, San Thomas" is one name among the others (a walk read seven)
    assert "(Assessment; County, San Thomas; Out of State;" in run.stdout
    lines = ENTERPRISE.read_text(encoding="utf-8").splitlines()
    header = next(line.split("\t") for line in lines if line.startswith("!ACCNT\t"))
    posting = [
        line.split("\t")[1]
        for line in lines
        if line.startswith("ACCNT\t")
        and line.split("\t")[header.index("ACCNTTYPE")] != "NONPOSTING"
    ]
    book = read_book(out)
    assert len(posting) == 104
    assert sorted(a.full_name for a in book.accounts) == sorted(posting)
    assert len(book.customers) == 45
    assert sum(len(c.jobs) for c in book.customers) == 20
    assert (len(book.vendors), len(book.employees), len(book.terms)) == (38, 3, 7)
    ssns = sample_ssns()
    assert ssns  # the sample does carry SSNs: the check below is meaningful
    text = gzip.decompress(out.read_bytes()).decode("utf-8")
    for ssn in ssns:
        assert ssn not in text
        assert ssn not in run.stdout + run.stderr


@pytest.mark.samples
def test_a_sample_whose_list_gives_two_accounts_one_number(samples_dir, tmp_path):
    """The real gitpan sample gives account number 6375 to two accounts (its lines 24 and 48):
    a warning naming both before writing, GnuCash keeping it on both, and the proof matching
    (it called the book differing, the number's second account blamed on GnuCash)."""
    sample = samples_dir / "gitpan__Finance-IIF__sample.iif"
    out = tmp_path / "gitpan.gnucash"
    run = convert(sample, "-o", out)
    assert run.returncode == 0, run.stdout + run.stderr
    warned = f"{sample.name}:24: account number 6375 is on 2 accounts: “Interest Expense:Mortgage”"
    assert warned in run.stdout and f"({sample.name}:48)" in run.stdout
    assert "account numbers used by two accounts: QuickBooks 1, GnuCash 1 — ok" in run.stdout
    assert "Matches QuickBooks to the cent" in run.stdout
    codes = {a.full_name: a.code for a in read_book(out).accounts}
    assert codes["Interest Expense:Mortgage"] == codes["Travel & Ent:Meals"] == "6375"


@pytest.mark.samples
def test_enterprise_sample_balances_only_matches_its_trial_balance(samples_dir, tmp_path):
    out, report = tmp_path / "Enterprise.gnucash", tmp_path / "r.csv"
    run = convert(
        ENTERPRISE, "-o", out, "--balances-only", "2026-12-15", "--reparent", "--strict",
        "--report", report,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "accounts match QuickBooks to the cent" in run.stdout
    # the only warnings: A/R and A/P open as one amount each, no open-items report behind them
    warned = run.stdout.split("Warnings (2):")[1].split("Verification:")[0].strip().splitlines()
    assert [w.split(": ", 1)[1].split(" (")[0] for w in warned] == [
        "Assets:Current Assets:Accounts Receivable",  # (--reparent: GnuCash's standard tree)
        "Liabilities:Current Liabilities:Accounts Payable",
    ]
    assert "Add QuickBooks' Open Invoices report as of 2026-12-15 (Reports › Customers" in warned[0]
    book = read_book(out)
    assert book.account("Assets:Current Assets:Checking").balance == D("99250.02")
    rows = list(csv.DictReader(report.read_text(encoding="utf-8").splitlines()))
    assert all(D(r["difference"]) == 0 for r in rows)


# ---------------------------------------------------------------- the project's generated company


@pytest.fixture(scope="module")
def company(tmp_path_factory):
    from tests.support.companygen import make_company

    company = make_company(transactions=150, seed=7)
    files = company.write_all(tmp_path_factory.mktemp("company"))
    return company, files


@pytest.mark.parametrize(
    "layout", ["transactions_iif", "find", "journal", "transaction_detail", "general_ledger"]
)
def test_generated_company_every_layout(company, layout, tmp_path):
    comp, files = company
    out = tmp_path / "book.gnucash"
    run = convert(files["lists"], files[layout], "-o", out, "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    book = read_book(out)
    expected = comp.expected_balances()
    got = balances(book)
    assert {k: got.get(k, D(0)) for k in expected} == expected  # non-posting ones are left out
    assert book.transactions == len(comp.transactions)


def test_generated_company_overlapping_files_import_once(company, tmp_path):
    comp, files = company
    out = tmp_path / "book.gnucash"
    run = convert(files["lists"], files["transactions_iif"], files["transaction_detail"], "-o", out)
    assert run.returncode == 0, run.stdout + run.stderr
    assert read_book(out).transactions == len(comp.transactions)
    n = len(comp.transactions)
    assert "Warnings (" not in run.stdout  # each is in the book once: nothing to read first
    assert (  # one note for the file pair, not one per transaction
        f"  transaction_detail.csv:6: {n} transactions of this file "
        f"({comp.transactions[0].date} to {comp.transactions[-1].date}) are also in "
        "transactions.iif; each is imported once, from transactions.iif (this file's lines 6, 11, "
    ) in run.stdout.split("\nNotes:\n", 1)[1]


def test_generated_find_export_and_transaction_detail_are_one_history(company, tmp_path):
    """Issue 13: the same history uploaded twice, in two layouts, is imported once."""
    comp, files = company
    out = tmp_path / "book.gnucash"
    run = convert(files["lists"], files["find"], files["transaction_detail"], "-o", out, "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "are also in transaction_detail.csv; each is imported once" in run.stdout
    book = read_book(out)
    assert book.transactions == len(comp.transactions)
    expected = comp.expected_balances()
    got = balances(book)
    assert {k: got.get(k, D(0)) for k in expected} == expected


def test_two_files_that_disagree_about_a_transaction_stop_naming_both(company, tmp_path):
    comp, files = company
    lines = files["transaction_detail"].read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if ",Invoice," in line)
    t = next(t for t in comp.transactions if t.type == "Invoice")
    old = f"{t.splits[0][1]:,.2f}"
    assert old in lines[at]  # the invoice's first line, edited after the Find export was made
    lines[at] = lines[at].replace(old, f"{t.splits[0][1] + 1:,.2f}")
    lines[at + 1] = lines[at + 1].replace(f"{-t.splits[1][1]:,.2f}", f"{-t.splits[1][1] + 1:,.2f}")
    edited = tmp_path / "transaction_detail.csv"
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "book.gnucash"
    run = convert(files["lists"], files["find"], edited, "-o", out)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"Invoice {t.num} of {t.date} is also in transaction_detail.csv:{at + 1}" in run.stderr
    assert "the two files disagree about it" in run.stderr
    assert run.stderr.startswith("find.csv:")
    assert not out.exists()


# ---------------------------------------------------------------- golden runs


@pytest.mark.parametrize("case", sorted(CLI.glob("*.args")), ids=lambda p: p.stem)
def test_golden_runs(case, tmp_path, golden):
    """tests/data/cli/NAME.args: the arguments (files relative to that folder, {tmp} = a fresh
    folder); NAME.args.expected: exit status, stdout and stderr, paths made neutral."""
    args = case.read_text(encoding="utf-8").split()
    argv = [str(CLI / a) if (CLI / a).is_file() else a.format(tmp=tmp_path) for a in args]
    run = convert(*argv, "-o", tmp_path / "book.gnucash")
    text = f"exit {run.returncode}\n--- stdout\n{run.stdout}--- stderr\n{run.stderr}"
    golden(case.with_name(case.name + ".expected"), text.replace(str(tmp_path), "TMP"))
    assert (tmp_path / "book.gnucash").exists() == (run.returncode in (0, 3))
    if run.returncode in (0, 3):
        assert read_book(tmp_path / "book.gnucash").accounts


def test_generated_journal_without_chart_needs_types_then_converts(company, tmp_path):
    from app.quickbooks import ACCOUNT_TYPES

    comp, files = company
    out = tmp_path / "book.gnucash"
    run = convert(files["journal"], "-o", out)
    assert run.returncode == 1
    assert "journal.csv:" in run.stderr
    assert "choose a GnuCash type for account “Checking”" in run.stderr
    assert not out.exists()
    # the Journal shows leaf names only: the user types each account used (here from the chart)
    used = {account.rsplit(":", 1)[-1] for t in comp.transactions for account, *_ in t.splits}
    kinds = {name.rsplit(":", 1)[-1]: kind for name, kind, *_ in comp.accounts}
    rules = [
        {"kind": "retype", "account": leaf, "target": ACCOUNT_TYPES[kinds[leaf]].value}
        for leaf in sorted(used)
    ]
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"rules": rules}))
    run = convert(files["journal"], "-o", out, "--plan", plan)
    assert run.returncode == 0, run.stdout + run.stderr
    book = balances(read_book(out))
    for full, value in comp.expected_balances().items():
        if value:
            assert book[full.rsplit(":", 1)[-1]] == value, full


def test_builtin_accounts_missing_from_the_lists_are_created_and_said(tmp_path):
    """Intuit's own examples post to Accounts Receivable, Undeposited Funds... that the lists
    export does not declare: QuickBooks makes them itself, so the book gets them with its types."""
    out = tmp_path / "book.gnucash"
    run = convert(CLI / "builtin_lists.iif", CLI / "builtin_txns.iif", "-o", out)
    assert run.returncode == 0, run.stdout + run.stderr
    for line, name in [(5, "Opening Balance Equity"), (7, "Accounts Receivable")]:
        assert f"builtin_txns.iif:{line}: account “{name}” (line" in run.stdout
    assert "created as “Accounts Payable” with type PAYABLE" in run.stdout
    book = read_book(out)
    got = {a.full_name: (a.type, a.balance, a.opening_balance) for a in book.accounts}
    assert got == {
        "Checking": ("BANK", D("608.00"), False),
        "Sales": ("INCOME", D("-100.00"), False),
        "Office Supplies": ("EXPENSE", D("40.00"), False),
        "Opening Balance Equity": ("EQUITY", D("-500.00"), True),
        "Accounts Receivable": ("RECEIVABLE", D("0.00"), False),
        "Sales Tax Payable": ("LIABILITY", D("-8.00"), False),
        "Undeposited Funds": ("ASSET", D("0.00"), False),
        "Accounts Payable": ("PAYABLE", D("-40.00"), False),
    }
    assert book.transactions == 5


def test_types_for_a_report_without_a_chart_come_from_type_options(tmp_path):
    journal, out = CLI / "untyped_journal.csv", tmp_path / "book.gnucash"
    run = convert(journal, "-o", out)
    assert run.returncode == 1
    assert not out.exists()
    for line, name in [(7, "Sales"), (15, "Checking"), (20, "Utilities:Gas")]:
        assert (
            f"untyped_journal.csv:{line}: choose a GnuCash type for account “{name}”: "
            f'add --type "{name}=TYPE" (a GnuCash type such as BANK'
        ) in run.stderr
    assert "Accounts Receivable" not in run.stderr  # QuickBooks' own accounts type themselves
    assert "Undeposited Funds" not in run.stderr

    types = ["Checking=Bank", "Sales=income", "Utilities:Gas=EXPENSE"]
    run = convert(journal, "-o", out, *(arg for t in types for arg in ("--type", t)))
    assert run.returncode == 0, run.stdout + run.stderr
    book = read_book(out)
    assert {a.full_name: (a.type, a.balance) for a in book.accounts} == {
        "Accounts Receivable": ("RECEIVABLE", D("0.00")),
        "Sales": ("INCOME", D("-100.00")),
        "Sales Tax Payable": ("LIABILITY", D("-8.00")),
        "Undeposited Funds": ("ASSET", D("0.00")),
        "Checking": ("BANK", D("83.00")),
        "Utilities": ("EXPENSE", D("0.00")),
        "Utilities:Gas": ("EXPENSE", D("25.00")),
    }
    assert book.transactions == 4


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ("Checking=Savings", "argument --type: “Savings” is not an account type; a GnuCash type"),
        ("Checking", "argument --type: expected ACCOUNT=TYPE (got “Checking”)"),
        ("=BANK", "argument --type: expected ACCOUNT=TYPE (got “=BANK”)"),
    ],
)
def test_type_option_errors_are_usage_errors(arg, message, tmp_path):
    run = convert(CLI / "untyped_journal.csv", "-o", tmp_path / "b.gnucash", "--type", arg)
    assert run.returncode == 2
    assert message in run.stderr
    assert not (tmp_path / "b.gnucash").exists()


def test_type_option_for_an_account_not_in_the_files_is_reported(tmp_path):
    """Said as the command line's change, with the name the files have, and what to do there
    (it said "a saved change", "was its file removed?", "undo the change": the wizard's words,
    hunt 15)."""
    run = convert(LISTS, TXNS, "-o", tmp_path / "b.gnucash", "--type", "Chequing=BANK")
    assert run.returncode == 1
    assert (
        "the change retype “Chequing” names account “Chequing”, which none of the files lists "
        "(they list “Checking”); to fix: write the account's full name as the files spell it "
        "(Parent:Child) in --type or the plan file (--plan), or give the file that lists it"
    ) in run.stderr
    assert "saved" not in run.stderr and "undo" not in run.stderr
    assert not (tmp_path / "b.gnucash").exists()


def test_a_plan_rule_for_an_account_not_in_the_files_names_the_plan_file(tmp_path):
    """The fix said "the plan file" without naming the one given (hunt 18)."""
    plan = tmp_path / "company plan.json"
    rule = {"kind": "retype", "account": "Chequing", "target": "BANK"}
    plan.write_text(json.dumps({"rules": [rule]}))
    run = convert(LISTS, TXNS, "-o", tmp_path / "b.gnucash", "--plan", plan)
    assert run.returncode == 1, run.stdout + run.stderr
    assert (
        "the change retype “Chequing” names account “Chequing”, which none of the files lists "
        "(they list “Checking”); to fix: write the account's full name as the files spell it "
        f"(Parent:Child) in --type or the plan file {plan}, or give the file that lists it"
    ) in run.stderr
    assert not (tmp_path / "b.gnucash").exists()


def test_a_plan_moving_an_account_under_a_parent_with_an_empty_level_is_refused(tmp_path):
    """A new parent 'A::B' was three errors blamed on the lists' line of the account moved
    (hunt 15): the plan file's rule is refused, by name."""
    plan = tmp_path / "plan.json"
    plan.write_text(
        json.dumps({"rules": [{"kind": "move", "account": "Checking", "target": "A::B"}]})
    )
    run = convert(LISTS, TXNS, "-o", tmp_path / "b.gnucash", "--plan", plan)
    assert run.returncode == 2
    assert (
        "new parent “A::B” for “Checking” must name every level (Parent:Child, nothing empty "
        "between two “:”)"
    ) in run.stderr
    assert "empty name level" not in run.stderr
    assert not (tmp_path / "b.gnucash").exists()


def test_a_bare_account_number_and_its_name_in_another_file_are_one_account(tmp_path):
    """Issue 13: Reckon's Pay Cheque export names accounts by bare numbers, its Transfer export
    by number and name: one account per number, never two with one code."""
    head = ",Trans #,Type,Date,Num,Name,Memo,Account,Debit,Credit,Amount,Balance,Account Type"
    pay = tmp_path / "pay_cheques.csv"
    pay.write_text(
        "Reckon Sample Pty Ltd\nCustom Transaction Detail Report\n\n" + head + "\n"
        ",501,Pay Cheque,07/03/2023,88,Jo Smith,,6500,900.00,,900.00,900.00,Expense\n"
        ",501,Pay Cheque,07/03/2023,88,Jo Smith,,1222,,900.00,-900.00,0.00,Bank\n",
        encoding="utf-8",
    )
    transfers = tmp_path / "transfers.csv"
    transfers.write_text(
        "Reckon Sample Pty Ltd\nCustom Transaction Detail Report\n\n" + head + "\n"
        ",502,Transfer,10/03/2023,,,,1222 · Cheque Account,"
        "5000.00,,5000.00,5000.00,Bank\n"
        ",502,Transfer,10/03/2023,,,,1230 · Savings Account,,5000.00,-5000.00,0.00,Bank\n",
        encoding="utf-8",
    )
    out = tmp_path / "book.gnucash"
    run = convert(pay, transfers, "-o", out, "--strict", "--date-order", "dmy")
    assert run.returncode == 0, run.stdout + run.stderr
    assert (
        "pay_cheques.csv:6: account number 1222 (line 6) is taken as “Cheque Account”, the "
        "account that number names at transfers.csv:5"
    ) in run.stdout
    book = read_book(out)
    assert [(a.full_name, a.balance) for a in book.accounts if a.code == "1222"] == [
        ("Cheque Account", D("4100.00"))
    ]
    assert book.account("6500").balance == D("900.00")  # no name anywhere: the number it is
    # with Reckon's trial balance the numbers take its names, and the proof compares one account
    tb = tmp_path / "open_tb.csv"
    tb.write_text(
        "Reckon Sample Pty Ltd\nOpen TB\n31 March 2023\n,,,\nAccount,Type,Debit,Credit\n"
        '1222 · Cheque Account,Bank,"4,100.00",\n1230 · Savings Account,Bank,,"5,000.00"\n'
        '6500 · Wages,Expense,900.00,\nTotal,,"5,000.00","5,000.00"\n',
        encoding="utf-8",
    )
    run = convert(pay, transfers, tb, "-o", out, "--force", "--strict", "--date-order", "dmy")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Verification:\n  3 of 3 accounts match QuickBooks to the cent" in run.stdout
    assert "no file covers" not in run.stdout  # two files of two types, days apart: no gap
    book = read_book(out)
    assert sorted((a.code, a.full_name, a.balance) for a in book.accounts) == [
        ("1222", "Cheque Account", D("4100.00")),
        ("1230", "Savings Account", D("-5000.00")),
        ("6500", "Wages", D("900.00")),
    ]


def test_reckon_bare_numbers_are_named_from_the_split_column(tmp_path):
    """Issue 22 (10): Reckon's Spend Money / Transfer layout (a number alone in the Account
    column, ``1000 · Checking`` in the Split column) made most accounts bare numbers."""
    from tests.support.companygen import make_company

    company = make_company(300, 7)
    path = company.write_transaction_detail_csv(tmp_path / "spend.csv", bare_numbers=True)
    out = tmp_path / "book.gnucash"
    run = convert(path, "-o", out, "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    book = read_book(out)
    by_code = {a.code: a.full_name.rsplit(":", 1)[-1] for a in book.accounts}
    assert by_code["1000"] == "Checking" and by_code["1200"] == "Accounts Receivable"
    named = {t.splits[0][0] for t in company.history}  # the first rows' (later rows name it)
    named |= {a for t in company.history if len(t.splits) == 2 for a, *_ in t.splits}
    never = {a[2] for a in company.accounts if a[0] not in named}
    assert {code for code, name in by_code.items() if name == code} == never & by_code.keys()
    assert len(never & by_code.keys()) < len(by_code) / 2
    assert balances(book)["Checking"] == company.history_balances()["Checking"]


# ---------------------------------------------------------------- a file cut at the export cap


@pytest.fixture(scope="module")
def cut_company(tmp_path_factory):
    """A company whose Journal is longer than QuickBooks' 32,768-line export cap, cut there."""
    from tests.support.companygen import make_company

    company = make_company(transactions=7000, seed=4)
    folder = tmp_path_factory.mktemp("cut")
    lists = company.write_lists_iif(folder / "lists.iif")
    journal = company.write_journal_csv(folder / "journal.csv")
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    assert len(lines) > 32768
    journal.write_text("".join(lines[:32768]), encoding="utf-8")
    return company, lists, journal


def test_a_journal_cut_at_the_export_cap_is_not_converted(cut_company, tmp_path):
    _company, lists, journal = cut_company
    out = tmp_path / "book.gnucash"
    run = convert(lists, journal, "-o", out)
    assert run.returncode == 1, run.stdout + run.stderr
    assert (
        "journal.csv:32768: journal.csv has exactly 32,763 data lines: probably truncated by "
        "QuickBooks' export cap: its history stops on 2021-10-25, and what follows in the "
        "report's period is missing; to fix: export it again by date range (a year at a time) "
        "and give every file, or add --accept-truncated journal.csv if the cut is expected"
    ) in run.stderr
    assert not out.exists()


def test_an_accepted_cut_is_converted_and_the_proof_names_the_missing_period(cut_company, tmp_path):
    company, lists, journal = cut_company
    out = tmp_path / "book.gnucash"
    run = convert(
        lists, journal, "-o", out, "--accept-truncated", journal, "--opening-balances", "--strict"
    )
    assert run.returncode == 3, run.stdout + run.stderr  # the missing period differs
    assert "journal.csv: CSV Journal, utf-8, dates M/D/Y, 2019-01-01 to 2021-10-25, cut at " in (
        run.stdout
    )
    missing = (
        "journal.csv is cut at QuickBooks' export cap: its history stops on 2021-10-25, so the "
        "book has no history from 2021-10-25 on (that day perhaps incomplete)."
    )
    assert f"\n  {missing}\n" in run.stdout  # in the verification, not only among the warnings
    assert "not posted as an opening balance: the history is incomplete" in run.stdout
    book = read_book(out)
    complete = [t for t in company.transactions if t.trans_no < 6561]
    assert book.transactions == len(complete)  # the cut Payment (Trans # 6561) is left out
    assert book.first_date == dt.date(2019, 1, 1)
    assert book.last_date == dt.date(2021, 10, 25)


def test_accept_truncated_names_an_input_file(tmp_path):
    run = convert(LISTS, TXNS, "-o", tmp_path / "b.gnucash", "--accept-truncated", "other.csv")
    assert run.returncode == 2
    assert "--accept-truncated other.csv: not one of the input files" in run.stderr


def test_the_most_important_warnings_come_first_and_the_rest_are_counted(tmp_path):
    """Issue 13: past the 50th warning the CLI showed nothing; the truncation, overlap and
    difference warnings come first now, and the rest are counted with where to read them."""
    from tests.support.companygen import make_company

    company = make_company(transactions=3000, seed=5)
    find = company.write_find_csv(tmp_path / "find.csv")
    # the detail holds the first half: the rest is taken from the Find export, whose warnings
    # about its own grouping then matter (a Find export taken wholly from another file says
    # them once: tests/test_history_trust.py)
    half = replace(company, transactions=company.transactions[:1500])
    detail = half.write_transaction_detail_csv(tmp_path / "detail.csv")
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    out, report = tmp_path / "book.gnucash", tmp_path / "r.csv"
    run = convert(lists, find, detail, "-o", out)
    assert run.returncode == 0, run.stdout + run.stderr
    text = run.stdout.split("Warnings (", 1)[1].split("\nNotes:\n", 1)[0]
    n = int(text.split(")", 1)[0].replace(",", ""))
    shown = text.splitlines()[1:]
    assert n > 50 and len(shown) == 51
    # the overlap is a note (each in the book once), the Find export's own grouping warned
    assert not [line for line in shown if "imported once" in line]
    assert "imported once" in run.stdout.split("\nNotes:\n", 1)[1]
    assert [line for line in shown if "ambiguous grouping" in line]
    assert shown[-1] == (
        f"  ... and {n - 50:,} more, less important (add --report REPORT.csv to have all {n:,} "
        "in REPORT.warnings.txt)"
    )
    again = convert(lists, find, detail, "-o", out, "--force", "--report", report)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"(all {n:,} are in {tmp_path / 'r.warnings.txt'})" in again.stdout
    every = (tmp_path / "r.warnings.txt").read_text(encoding="utf-8").splitlines()
    assert len(every) == n
    assert every[:50] == [line.strip() for line in shown[:50]]  # the most important first
    # an ambiguous grouping in the half taken from the Find export kept two of its
    # transactions as one, as said (in the other half the detail's two are taken instead)
    kept_as_one = sum(1 for line in every if "ambiguous grouping" in line)
    snap = read_book(out)
    assert len(company.transactions) - kept_as_one <= snap.transactions < len(company.transactions)
    for account, value in company.expected_balances().items():
        if company.account_type(account) != "NONPOSTING":
            assert snap.account(account).balance == value, account


def test_a_cli_killed_while_saving_leaves_partials_that_the_next_run_removes(tmp_path):
    """Issue 22, item 15: kill -9 during the save leaves hidden partial files beside the book
    (the engine's temporary book and its lock); the next run to that folder removes those of
    dead processes only, never another live run's."""
    import re
    import signal
    import time

    from tests.support.companygen import make_company

    company = make_company(3000, seed=5)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    journal = company.write_journal_csv(tmp_path / "journal.csv")
    folder = tmp_path / "books"
    folder.mkdir()
    out = folder / "Company.gnucash"
    cmd = [sys.executable, str(ROOT / "run.py"), "convert", lists, journal, "-o", out]
    killed = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 240
    saving = re.compile(r"\.partial-(checked-)?\d+$")  # a book being written or read back
    while not any(saving.search(p.name) for p in folder.iterdir()):
        assert killed.poll() is None and time.monotonic() < deadline, "no temporary book seen"
        time.sleep(0.01)
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    stale = sorted(p.name for p in folder.iterdir())
    assert stale and all(".Company.gnucash.partial-" in n for n in stale), stale
    alive = subprocess.Popen(["sleep", "300"])  # a live run's (its pid in the name)
    try:
        live = [
            f".Company.gnucash.partial-checked-{alive.pid}",
            f".Other.gnucash.partial-{alive.pid}",
        ]
        live.append(f"{live[0]}.partial-{alive.pid}.LCK")
        for name in live:
            (folder / name).write_bytes(b"another run's")
        (folder / "notes.partial-1.txt").write_bytes(b"the user's")  # not one of ours
        run = convert(lists, journal, "-o", out)
        assert run.returncode == 0, run.stdout + run.stderr
        n = len(stale)
        said = f"Removed {n} temporary file{'s' * (n != 1)} left beside the book by an earlier run"
        assert said in run.stdout
        assert sorted(p.name for p in folder.iterdir()) == sorted(
            ["Company.gnucash", "notes.partial-1.txt", *live]
        )
    finally:
        alive.kill()
        alive.wait()
    assert read_book(out).account("Checking").balance == company.expected_balances()["Checking"]


@pytest.mark.parametrize("option", ["--report", "--documents-report"])
def test_a_full_disk_for_the_reports_is_said_once_and_leaves_nothing_half_written(tmp_path, option):
    """Issue 22, item 14: the warnings file (written with --report) and --documents-report on a
    disk that is full: one clear message, exit 1, the book kept (and said), no partial file."""
    from tests.support.disk import files_in, fill, small_disk

    out = tmp_path / "Company.gnucash"
    with small_disk(tmp_path / "full") as full:
        fill(full)
        before = files_in(full)
        run = convert(LISTS, TXNS, "-o", out, option, full / "r.csv")
        assert run.returncode == 1, run.stdout + run.stderr
        assert "Traceback" not in run.stderr + run.stdout
        what = "warnings file" if option == "--report" else "documents report"
        said = [line for line in run.stderr.splitlines() if line]
        assert said[-1].startswith(f"Book written to {out}, but not the {what} "), said
        assert said[-1].endswith(
            f"{'or the report ' + str(full / 'r.csv') if option == '--report' else ''}: the disk "
            "is full (0 MB free). Free some space or choose another folder, and run again with "
            "--force."
        ), said
        assert files_in(full) == before  # nothing half-written, not even a hidden temporary
    assert read_book(out).transactions == 2


def test_a_stray_quote_before_the_employees_refuses_the_lists(tmp_path):
    """Issue 22, item 1: ``CUST<TAB>"unterminated quote<TAB>x`` just before ``!EMP`` made the
    quoted field swallow the header and the first employee, whose SSN landed in a 20th
    customer's address, and the book was called matching. Now the file is refused, at that
    line, and no SSN reaches the output."""
    from tests.support.companygen import make_company

    company = make_company(200, seed=7)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    text = lists.read_text(encoding="utf-8")
    at = text.index("!EMP\t")
    lists.write_text(text[:at] + 'CUST\t"unterminated quote\tx\n' + text[at:], encoding="utf-8")
    line = text[:at].count("\n") + 1
    journal = company.write_journal_csv(tmp_path / "journal.csv")
    out = tmp_path / "book.gnucash"
    run = convert(lists, journal, "-o", out)
    assert run.returncode == 1, run.stdout + run.stderr
    assert (
        f"lists.iif:{line}: a quoted field opened on this line runs over line {line + 1} (!EMP)"
        in run.stderr
    )
    assert not out.exists()
    for _, ssn in company.employees:
        assert ssn not in run.stdout + run.stderr
