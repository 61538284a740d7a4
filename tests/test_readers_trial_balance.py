"""The Trial Balance report reader: golden files, the TOTAL check, the title date, and the
figures it gives a balances-only book (with and without the lists IIF) through the real engine."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D
from pathlib import Path

import pytest

from app import pipeline, readers
from app.errors import ParseError
from app.ledger_text import to_text
from app.model import ReadOptions
from app.plan import Cutover, Plan, Rule
from app.readers.qbcsv import trial_balance
from tests.support.cli import convert
from tests.support.companygen import make_company

DATA = Path(__file__).parent / "data" / "reports"
FIXTURES = sorted(DATA.glob("tb_*.csv"))


def dump(path: Path) -> str:
    try:
        return to_text(trial_balance.parse(path, ReadOptions()))
    except ParseError as exc:
        return f"ParseError: {exc}\n"


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_golden(path: Path, golden) -> None:
    golden(path.with_name(path.name + ".expected"), dump(path))


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tb.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_title_date_and_signs(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        ',Co\n,Trial Balance\n,"As of Mar 31, 22"\n,,Debit,Credit\n,Checking,10.00,\n'
        ",Sales,,10.00\nTOTAL,,10.00,10.00\n",
    )
    ledger = trial_balance.parse(path, ReadOptions())
    assert [(a.full_name, a.balance) for a in ledger.accounts] == [
        ("Checking", D("10.00")),
        ("Sales", D("-10.00")),
    ]
    (info,) = ledger.files
    assert (info.exported_on, str(info.exported_at)) == (dt.date(2022, 3, 31), "tb.csv:3")


def test_a_range_title_gives_its_last_day_and_no_title_gives_none(tmp_path: Path) -> None:
    ranged = write(
        tmp_path, '"January 1 through June 30, 2023"\nAccount,Debit,Credit\nA,1,\nB,,1\n'
    )
    assert trial_balance.parse(ranged, ReadOptions()).files[0].exported_on == dt.date(2023, 6, 30)
    bare = write(tmp_path, "Account,Debit,Credit\nA,1,\nB,,1\n")
    assert trial_balance.parse(bare, ReadOptions()).files[0].exported_on is None


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("A,5,\nB,,4\nTOTAL,5,4\n", r"tb\.csv:4: TOTAL debits 5\.00 and credits 4\.00 differ"),
        ("A,5,\nB,,5\nTOTAL,6,6\n", r"tb\.csv:4: TOTAL row .* is not the sum of the rows"),
        ("A,5,\nB,,4\n", r"tb\.csv:3: the trial balance does not balance: debits 5\.00"),
        ("A,five,\n", r"tb\.csv:2: column 2: expected an amount"),
        (",5,\n", r"tb\.csv:2: a row with an amount but no account label"),
    ],
    ids=["total-unbalanced", "total-not-the-sum", "no-total-unbalanced", "bad-amount", "no-label"],
)
def test_bad_reports_name_the_line(tmp_path: Path, body: str, message: str) -> None:
    path = write(tmp_path, "Account,Debit,Credit\n" + body)
    with pytest.raises(ParseError, match=message):
        trial_balance.parse(path, ReadOptions())


def test_lists_and_trial_balance_the_reports_figures_win(tmp_path: Path) -> None:
    company = make_company(120, seed=3)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    tb = company.write_trial_balance_csv(tmp_path / "tb.csv")
    merged = readers.read([lists, tb], Plan())
    assert not merged.errors
    (note,) = merged.problems
    assert str(note).startswith("tb.csv:1: QuickBooks' balances are taken from this trial balance")
    assert note.severity == "note"  # how the files were read: nothing to do (it was a warning)
    history = company.write_journal_csv(tmp_path / "journal.csv")
    run = convert(lists, tb, history, "-o", tmp_path / "b.gnucash")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Warnings" not in run.stdout
    assert "Notes:\n  tb.csv:1: QuickBooks' balances are taken from this trial" in run.stdout
    got = {a.full_name: a.balance for a in merged.accounts}
    assert {n: v for n, v in company.trial_balance().items() if n in got} == got
    assert merged.files[1].exported_on == company.export_date


def test_a_trial_balance_row_missing_from_the_chart_is_an_error(tmp_path: Path) -> None:
    company = make_company(40, seed=3)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    tb = company.write_trial_balance_csv(tmp_path / "tb.csv")
    text = tb.read_text(encoding="utf-8").replace("1010 · Savings", "1019 · Rainy Day")
    tb.write_text(text, encoding="utf-8")
    merged = readers.read([lists, tb], Plan())
    (error,) = merged.errors
    assert "trial balance account “1019 · Rainy Day” is not" in str(error)
    assert str(error).startswith("tb.csv:")


def book(tmp_path: Path, paths: list[Path], plan: Plan):
    prepared = pipeline.prepare(pipeline.read(paths, plan), plan)
    assert not prepared.errors, prepared.errors
    return pipeline.write(prepared, tmp_path / "book.gnucash", plan)


def zero_obamount(path: Path) -> None:
    """Every ACCNT row's OBAMOUNT set to 0.00 (the lists alone would give an empty book)."""
    lines = path.read_text(encoding="utf-8").split("\r\n" if "\r\n" in path.read_text() else "\n")
    at = None
    for i, line in enumerate(lines):
        cells = line.split("\t")
        if cells[0] == "!ACCNT":
            at = cells.index("OBAMOUNT")
        elif cells[0] == "ACCNT" and at is not None:
            cells[at] = "0.00"
            lines[i] = "\t".join(cells)
    path.write_text("\n".join(lines), encoding="utf-8")


def test_balances_only_from_lists_and_trial_balance_through_gnucash(tmp_path: Path) -> None:
    company = make_company(240, seed=8, start=dt.date(2019, 1, 1), years=3)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    tb = company.write_trial_balance_csv(tmp_path / "tb.csv")
    zero_obamount(lists)  # the lists' figures are wrong on purpose: the report's must win
    plan = Plan(cutover=Cutover(mode="balances_only", date=company.export_date.isoformat()))
    outcome = book(tmp_path, [lists, tb], plan)
    assert outcome.report.ok, outcome.report.summary_lines()
    assert outcome.snapshot.transactions == 1
    balances = {a.full_name: a.balance for a in outcome.snapshot.accounts}
    for name, value in company.trial_balance().items():
        if value:
            assert balances[name] == value, name


def test_balances_only_from_a_trial_balance_alone_through_gnucash(tmp_path: Path) -> None:
    path = DATA / "tb_plain.csv"
    types = {"Checking": "BANK", "Savings": "BANK", "Loan": "LIABILITY",
             "Owner's Equity": "EQUITY", "Sales": "INCOME", "Rent": "EXPENSE"}  # fmt: skip
    parsed = pipeline.read([path], Plan())
    first = pipeline.prepare(parsed, Plan(cutover=Cutover(mode="balances_only", date="2021-12-31")))
    assert {str(p) for p in first.errors} >= {
        "tb_plain.csv:2: choose a GnuCash type for account “Checking”"
    }
    plan = Plan(
        rules=tuple(Rule("retype", n, t) for n, t in types.items()),
        cutover=Cutover(mode="balances_only", date="2021-12-31"),
    )
    outcome = book(tmp_path, [path], plan)
    assert outcome.report.ok, outcome.report.summary_lines()
    got = {a.full_name: (a.type, a.balance) for a in outcome.snapshot.accounts}
    assert got["Checking"] == ("BANK", D("1500.00"))
    assert got["Sales"] == ("INCOME", D("-3000.00"))
    assert got["Rent"] == ("EXPENSE", D("2849.50"))
