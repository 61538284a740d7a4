"""A retype across the balance-sheet line (an asset made an expense, an expense made an asset)
changes where GnuCash reports an account, not QuickBooks' figure for it: the proof compares the
book with QuickBooks' figures counted by QuickBooks' own type (``Account.counted``), on the
export date and at every year end, and the fiscal year is still read from the figures. A
balances-only book reads its fiscal year from the uploaded history too. Generated companies
through the whole pipeline; every book reopened with the bindings."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal as D

import pytest

from app import pipeline
from app.model import AccountType
from app.plan import Cutover, Plan, Rule
from tests.support.companygen import make_company
from tests.support.end_to_end import START, assert_known_answers, convert

# a bank account made an expense (its figure all time), an expense made an asset (its figure
# this fiscal year only), both top-level in the generator's chart
RETYPES = (Rule("retype", "Savings", "EXPENSE"), Rule("retype", "Advertising", "ASSET"))


def _plan(**cutover) -> Plan:
    return replace(Plan(cutover=Cutover(**cutover)), rules=RETYPES)


def test_a_retype_across_the_line_is_compared_as_quickbooks_counts_it(tmp_path) -> None:
    company = make_company(240, seed=5, start=START, years=4, fiscal_year_start=(7, 1))
    truth = company.trial_balance()
    assert truth["Savings"] and truth["Advertising"]  # both carry a figure to compare
    prepared, outcome = convert(tmp_path, company, _plan())
    assert not [w for w in prepared.warnings if "Savings" in w.message or "Advert" in w.message]
    asof = prepared.ledger.as_of
    assert asof is not None and asof.fiscal_basis == "read from figures"
    assert asof.year_start == company.fiscal_year_begin() and asof.year_start.month == 7
    types = {b.full_name: b.type for b in outcome.snapshot.accounts}
    assert (types["Savings"], types["Advertising"]) == ("EXPENSE", "ASSET")  # as the user chose
    report = outcome.report
    assert report.ok, report.summary_lines()
    assert_known_answers(report, truth)
    # counted by the new types instead, both differ: the comparison above could fail
    book = {b.full_name: b for b in outcome.snapshot.accounts}
    all_time = sum(v for _, v in book["Advertising"].daily)
    this_year = sum(v for d, v in book["Savings"].daily if d >= asof.year_start)
    assert all_time != truth["Advertising"] and this_year != truth["Savings"]
    # said where the figures are shown: the row knows QuickBooks' family, and the next steps
    # do not send the user to a Profit & Loss for an account GnuCash reports as an asset
    rows = {r.account: r for r in report.rows}
    assert (rows["Savings"].counted, rows["Savings"].family) == ("asset", "expense")
    assert (rows["Advertising"].counted, rows["Advertising"].family) == ("expense", "asset")
    assert rows["Checking"].counted == ""
    from app.pages.next_steps import next_steps_data

    steps = next_steps_data(prepared, outcome, "xml", (4, 13))
    trial = {r["account"]: r for r in steps["trial"]}  # type: ignore[union-attr]
    assert trial["Advertising"]["why"] == "retyped"
    assert (trial["Advertising"]["counted"], trial["Advertising"]["family"]) == (
        "expense",
        "asset",
    )
    # the side by side's Net Income counts them as QuickBooks does, and says so beside it:
    # its groups, by GnuCash's types, need not add up to it (hunt 27)
    from app.pages.side_by_side import trial_balance

    pnl = trial_balance(prepared.ledger, report)[1]
    assert pnl["net"]["crossed"] == 2 and pnl["net"]["ok"]


def test_every_year_end_is_compared_as_quickbooks_counts_it(tmp_path) -> None:
    company = make_company(300, seed=4, years=3, exported=dt.date(2022, 3, 31))
    files = company.write_all(tmp_path / "exports")
    ends = company.year_ends()
    tbs = [company.write_trial_balance_csv(tmp_path / f"tb-{d}.csv", as_of=d) for d in ends]
    plan = _plan()
    prepared = pipeline.prepare(pipeline.read([files["lists"], files["journal"], *tbs], plan), plan)
    assert not prepared.errors, prepared.errors
    outcome = pipeline.write(prepared, tmp_path / "book.gnucash", plan)
    report = outcome.report
    assert report.ok, report.summary_lines()
    years = report.extras.years
    assert [y.date for y in years] == ends and len(ends) >= 2
    for y in years:
        got = {r.account: (r.quickbooks, r.gnucash) for r in y.rows}
        for account in ("Savings", "Advertising", "Retained Earnings"):
            value = company.trial_balance(y.date)[account]
            assert got[account] == (value, value), (y.date, account)


@pytest.mark.parametrize("given", ["", "07-01"], ids=["read", "given"])
def test_a_balances_only_book_reads_its_fiscal_year_from_the_history(tmp_path, given) -> None:
    company = make_company(240, seed=8, start=START, years=3, fiscal_year_start=(7, 1))
    cut = {"mode": "balances_only", "date": company.export_date.isoformat()}
    prepared, outcome = convert(tmp_path, company, _plan(fiscal_year_start=given, **cut))
    asof = prepared.ledger.as_of
    assert asof is not None and asof.year_start == company.fiscal_year_begin()
    assert asof.fiscal_basis == ("given" if given else "read from figures")
    assert outcome.report.ok, outcome.report.summary_lines()
    assert outcome.snapshot.transactions == 1
    assert_known_answers(outcome.report, company.trial_balance())
    # without the history there is nothing to read it from: January 1st, said
    plan = Plan(cutover=Cutover(**cut))
    lists = company.write_lists_iif(tmp_path / "alone.iif")
    alone = pipeline.prepare(pipeline.read([lists], plan), plan).ledger.as_of
    assert alone is not None and alone.fiscal_basis == "default"
    assert alone.year_start == dt.date(company.export_date.year, 1, 1)


def test_an_account_type_kept_or_changed_within_its_side_counts_as_its_type() -> None:
    from app.mapping import _counted_as

    T = AccountType
    assert _counted_as(T.BANK, T.EXPENSE) is T.BANK
    assert _counted_as(T.EXPENSE, T.ASSET) is T.EXPENSE
    assert _counted_as(T.BANK, T.ASSET) is None  # the same side: its figure counts the same
    assert _counted_as(T.INCOME, T.EXPENSE) is None
    assert _counted_as(None, T.EXPENSE) is None  # untyped: typed by the user, counted by that


def test_a_split_carries_a_retyped_account_as_quickbooks_counts_it(tmp_path) -> None:
    """The working book opens Savings (made an expense) with its all-time balance and closes
    Advertising (made an asset) into Retained Earnings, as QuickBooks counts them: both books
    match QuickBooks, and the carried table is equal."""
    from app import gnc
    from tests.support.cli import convert as run

    company = make_company(300, seed=31, years=3, fiscal_year_start=(7, 1))
    day = company.fiscal_year_begin()
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    detail = company.write_transaction_detail_csv(tmp_path / "detail.csv")
    work, old = tmp_path / "work.gnucash", tmp_path / "archive.gnucash"
    types = ("--type", "Savings=EXPENSE", "--type", "Advertising=ASSET")
    out = run(lists, detail, "-o", work, "--archive", old, "--split-at", day, *types)
    assert out.returncode == 0, out.stdout + out.stderr
    said = out.stdout.splitlines()
    # QuickBooks gave no figures of the split day: the archive is proved against its own history
    archive = said[said.index("Archive verification:") + 1].split()
    assert archive[0] == archive[2]
    assert archive[3:8] == "accounts equal the archive's history".split()
    working = said[said.index("Working book verification:") + 1]
    assert working.endswith("accounts match QuickBooks to the cent")
    assert any(line.startswith("Carried over:") and "equal to the cent" in line for line in said)
    book = gnc.read_book(work)
    savings = next(a for a in book.accounts if a.full_name == "Savings")
    assert savings.type == "EXPENSE"
    before = sum(
        (v for t in company.transactions if t.date < day for a, v, _m, _c in t.splits
         if a == "Savings"),
        start=D(0),
    )  # fmt: skip
    opening = sum((v for d, v in savings.daily if d < day), start=D(0))
    assert before and opening == before  # carried over whole, as a bank account's balance
