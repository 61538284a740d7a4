"""The proof's as-of date and fiscal year, end to end through the real engine (issue 9).

QuickBooks takes its figures (OBAMOUNT) on the day of the lists export: usually a day or two
into a new fiscal year, when every income and expense account is back to 0.00 and the closed
year sits in Retained Earnings. Each case converts a generated company's lists + history, reopens
the book through the bindings (``pipeline.write``) and compares every account with the
generator's own truth.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from app import cli, pipeline
from app.plan import Cutover, Plan
from tests.support.companygen import BALANCE_SHEET, Company, make_company
from tests.support.end_to_end import START, assert_known_answers, convert

NEW_YEAR = dt.date(2022, 1, 3)  # the export, two days into the next fiscal year


def company_exported(**kw) -> Company:
    base = {"transactions": 300, "seed": 21, "start": START, "years": 3}
    company = make_company(**{**base, **kw})
    assert company.transactions[-1].date < NEW_YEAR or kw.get("exported") != NEW_YEAR
    return company


def book_truth(company: Company, outcome: pipeline.Outcome) -> None:
    """Balance-sheet accounts (Retained Earnings apart: the book holds the years before the
    history there) hold their all-time truth in the book."""
    book = {b.full_name: b.balance for b in outcome.snapshot.accounts}
    truth = company.expected_balances()
    for name, value in truth.items():
        if company.account_type(name) in BALANCE_SHEET and name != "Retained Earnings":
            assert book.get(name, Decimal(0)) == value, name


@pytest.mark.parametrize(
    "history_from", [None, dt.date(2020, 7, 1)], ids=["whole-history", "opening-balances"]
)
def test_export_after_the_year_end_matches(tmp_path: Path, history_from) -> None:
    company = company_exported(exported=NEW_YEAR, history_from=history_from)
    tb = company.trial_balance()
    assert all(v == 0 for n, v in tb.items() if company.account_type(n) not in BALANCE_SHEET)
    plan = Plan(cutover=Cutover(opening_balances=history_from is not None))
    prepared, outcome = convert(tmp_path, company, plan)
    assert prepared.warnings == (), prepared.warnings
    report = outcome.report
    assert report.ok, report.summary_lines()
    asof = prepared.ledger.as_of
    assert asof is not None
    assert (asof.date, asof.basis, str(asof.where)) == (NEW_YEAR, "export header", "lists.iif:2")
    assert (asof.year_start, asof.fiscal_basis) == (dt.date(2022, 1, 1), "read from figures")
    assert_known_answers(report, tb)
    book_truth(company, outcome)
    assert report.summary_lines()[0] == (
        f"{len(report.rows)} of {len(report.rows)} accounts match QuickBooks to the cent"
    )
    assert any(
        "as of 2022-01-03 (the export date in lists.iif:2)" in s for s in report.as_of_lines()
    )
    if history_from is not None:  # the closed years' result is posted once, never twice
        opening = prepared.ledger.transactions[0]
        lines = {s.account: s.value for s in opening.splits}
        earlier = sum(
            (
                v
                for t in company.transactions
                if t.date < history_from
                for name, v, _m, _c in t.splits
                if company.account_type(name) not in BALANCE_SHEET
            ),
            Decimal(0),
        )
        assert lines["Retained Earnings"] == earlier
        assert lines["Opening Balance Equity"] == tb["Opening Balance Equity"]


@pytest.mark.parametrize("layout", ["find", "journal", "transaction_detail", "general_ledger"])
def test_every_layout_matches_after_the_year_end(tmp_path: Path, layout: str) -> None:
    company = company_exported(exported=NEW_YEAR, history_from=dt.date(2020, 7, 1))
    plan = Plan(cutover=Cutover(opening_balances=True))
    _prepared, outcome = convert(tmp_path, company, plan, layout=layout)
    assert outcome.report.ok, outcome.report.summary_lines()
    assert_known_answers(outcome.report, company.trial_balance())
    book_truth(company, outcome)


def test_strict_cli_exits_0_after_the_year_end(tmp_path: Path, capsys) -> None:
    company = company_exported(exported=NEW_YEAR, history_from=dt.date(2020, 7, 1))
    files = company.write_all(tmp_path / "exports")
    out = tmp_path / "Company.gnucash"
    argv = [str(files["lists"]), str(files["find"]), "-o", str(out), "--opening-balances"]
    assert cli.main([*argv, "--strict"]) == 0
    text = capsys.readouterr().out
    assert "accounts match QuickBooks to the cent" in text
    assert "QuickBooks' figures as of 2022-01-03 (the export date in lists.iif:2)" in text
    assert out.is_file()


def test_july_fiscal_year_is_read_from_the_figures(tmp_path: Path) -> None:
    company = company_exported(fiscal_year_start=(7, 1), history_from=dt.date(2020, 2, 1))
    assert company.fiscal_year_begin() == dt.date(2021, 7, 1)
    plan = Plan(cutover=Cutover(opening_balances=True))  # no fiscal year start given
    prepared, outcome = convert(tmp_path, company, plan)
    assert prepared.warnings == (), prepared.warnings
    asof = prepared.ledger.as_of
    assert asof is not None and asof.fits == ("07-01",)
    assert (asof.year_start, asof.fiscal_basis) == (dt.date(2021, 7, 1), "read from figures")
    assert outcome.report.ok, outcome.report.summary_lines()
    assert_known_answers(outcome.report, company.trial_balance())
    book_truth(company, outcome)
    assert (
        "the fiscal year starting 1 July (read from QuickBooks' figures)"
        in (outcome.report.as_of_lines()[0])
    )


def test_wrong_fiscal_year_start_given_is_named(tmp_path: Path) -> None:
    company = company_exported(fiscal_year_start=(7, 1), history_from=dt.date(2020, 2, 1))
    plan = Plan(cutover=Cutover(opening_balances=True, fiscal_year_start="01-01"))
    prepared, outcome = convert(tmp_path, company, plan)
    (given,) = [p for p in prepared.warnings if p.fix == "fiscal_year_start" and not p.source]
    assert given.message == (
        "the fiscal year start given (1 January) does not explain QuickBooks' income and "
        "expense figures; a fiscal year starting 1 July does"
    )
    report = outcome.report
    assert not report.ok
    assert {r.fix for r in report.differences} == {"fiscal_year_start"}
    assert all("fit a fiscal year starting 1 July" in r.cause for r in report.differences)
    assert report.summary_lines("wizard")[1].endswith("set “Fiscal year starts” on the Map step")


def test_transactions_after_the_export_date(tmp_path: Path) -> None:
    probe = company_exported()
    exported = probe.transactions[-1].date - dt.timedelta(days=40)
    company = company_exported(exported=exported)
    after = len(company.after_export)
    assert after > 0
    prepared, outcome = convert(tmp_path, company, Plan())
    asof = prepared.ledger.as_of
    assert asof is not None and (asof.date, asof.after) == (exported, after)
    (notice,) = prepared.warnings
    assert notice.message.startswith(f"{after} transactions are dated after {exported}")
    report = outcome.report
    assert report.ok, report.summary_lines()
    assert_known_answers(report, company.trial_balance())
    assert outcome.snapshot.transactions == len(company.transactions)  # all of them are in
    assert f"{after} transactions dated after {exported}" in report.as_of_lines()[1]


def test_lists_without_hdr_ask_for_the_export_date(tmp_path: Path) -> None:
    company = company_exported(exported=NEW_YEAR, hdr=False)
    prepared, outcome = convert(tmp_path, company, Plan())
    asof = prepared.ledger.as_of
    assert asof is not None and asof.guessed and asof.date == company.transactions[-1].date
    assert {p.fix for p in prepared.warnings} == {"export_date"}
    report = outcome.report
    assert not report.ok  # the guess is wrong: the year closed before the export
    assert "export_date" in {r.fix for r in report.differences}
    # the export date given: everything matches
    plan = Plan(cutover=Cutover(export_date=NEW_YEAR.isoformat()))
    prepared, outcome = convert(tmp_path / "given", company, plan)
    assert prepared.warnings == ()
    assert prepared.ledger.as_of is not None
    assert prepared.ledger.as_of.basis == "given"
    assert outcome.report.ok, outcome.report.summary_lines()
    assert_known_answers(outcome.report, company.trial_balance())


def test_an_export_date_given_that_is_not_the_files_own_day_is_refused(tmp_path: Path) -> None:
    """The lists' header says the day of QuickBooks' balances; a day typed over it (a typo on
    the Map step: 2021-06-30 for 2021-12-30) made a book that differed, with the wrong fix
    advised. Now it is refused before writing, naming both days and the fix; the same day
    typed is fine."""
    company = company_exported(exported=NEW_YEAR)
    files = company.write_all(tmp_path / "exports")
    chosen = [files["lists"], files["transactions_iif"]]
    wrong = Plan(cutover=Cutover(export_date="2021-06-30"))
    prepared = pipeline.prepare(pipeline.read(chosen, wrong), wrong)
    (error,) = [p for p in prepared.errors if "export date given" in p.message]
    assert error.fix == "export_date" and error.source is not None
    assert error.source.filename == files["lists"].name
    assert (
        f"the export date given, 2021-06-30, is not the day {files['lists'].name} gives "
        f"QuickBooks' figures as of, {NEW_YEAR}" in error.message
    )
    same = Plan(cutover=Cutover(export_date=NEW_YEAR.isoformat()))
    assert not pipeline.prepare(pipeline.read(chosen, same), same).errors


@pytest.mark.parametrize("opening", [False, True], ids=["as-is", "opening-balances-ticked"])
def test_a_typed_export_date_months_early_is_named_the_cause_and_never_plugged(
    tmp_path: Path, opening: bool
) -> None:
    """Lists without their header (the wizard cannot check the day typed), the whole history,
    and an export date typed half a year early: the proof names the day typed as the cause of
    every difference (it said the history starts late, and advised an opening balance), and
    with opening balances ticked nothing is plugged (it posted a made-up opening balance)."""
    company = company_exported(exported=NEW_YEAR, hdr=False)
    early = dt.date(2021, 6, 30)
    plan = Plan(cutover=Cutover(export_date=early.isoformat(), opening_balances=opening))
    prepared, outcome = convert(tmp_path, company, plan)
    assert outcome.snapshot.transactions == len(company.transactions)  # no opening transaction
    warned = [w for w in prepared.warnings if w.topic == "difference"]
    assert warned and {w.fix for w in warned} == {"export_date"}
    sheet = [w for w in warned if "for the fiscal year from" not in w.message]  # (not P&L)
    assert sheet and all("not posted as an opening balance" in w.message for w in sheet)
    report = outcome.report
    assert not report.ok and report.differences
    assert {r.fix for r in report.differences} <= {"export_date"}
    cause = report.differences[0].cause
    assert cause.startswith(f"the export date given, {early}, is probably not the day"), cause


def test_cli_export_date(tmp_path: Path, capsys) -> None:
    company = company_exported(exported=NEW_YEAR, hdr=False)
    files = company.write_all(tmp_path / "exports")
    out = tmp_path / "Company.gnucash"
    argv = [str(files["lists"]), str(files["transactions_iif"]), "-o", str(out), "--strict"]
    assert cli.main(argv) == 3
    text = capsys.readouterr()
    assert "to fix: give --export-date YYYY-MM-DD" in text.out
    out.unlink()
    assert cli.main([*argv, "--export-date", "2022-01-03"]) == 0
    assert "QuickBooks' figures as of 2022-01-03 (the export date given)" in capsys.readouterr().out


def test_a_trial_balance_report_dates_the_figures(tmp_path: Path) -> None:
    """Lists without their HDR row plus the Trial Balance report: the report's "As of" title is
    the day of QuickBooks' figures, and its figures replace OBAMOUNT."""
    company = company_exported(exported=NEW_YEAR, hdr=False)
    files = company.write_all(tmp_path / "exports")
    plan = Plan()
    paths = [files["lists"], files["trial_balance"], files["journal"]]
    prepared = pipeline.prepare(pipeline.read(paths, plan), plan)
    assert not prepared.errors, prepared.errors
    asof = prepared.ledger.as_of
    assert asof is not None
    assert (asof.date, asof.basis, str(asof.where)) == (
        NEW_YEAR,
        "report title",
        "trial_balance.csv:3",
    )
    outcome = pipeline.write(prepared, tmp_path / "book.gnucash", plan)
    assert outcome.report.ok, outcome.report.summary_lines()
    assert_known_answers(outcome.report, company.trial_balance())
