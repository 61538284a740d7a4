"""A merge across the balance-sheet line (an expense account merged into an asset account):
QuickBooks counts the asset from all time and the expense from the fiscal year's start, so after
the first fiscal year the merged account and Retained Earnings differ from QuickBooks' figures by
what the earlier years moved. The Map step warns (``mapping.CROSSED``); the proof and the
cutover's warnings name the merge as the cause (they blamed a transaction missing from the
files, hunt 15), and with ``--opening-balances`` the difference is never posted: it was, as an
opening transaction QuickBooks never had, and the book was called matching."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from app import gnc, pipeline
from app.plan import Plan, Rule
from tests.support.companygen import make_company

CAUSE = (
    "the plan merges across the balance-sheet line ('Office Supplies' merged into 'Savings'): "
    "QuickBooks counts a balance-sheet account from all time, an income or expense account "
    "from the fiscal year's start (2021-01-01), so the merged account and Retained Earnings "
    "differ by what the earlier fiscal years moved"
)


@pytest.mark.parametrize("opening", [False, True])
def test_a_merge_across_the_balance_sheet_line_is_the_cause_and_never_plugged(
    tmp_path: Path, opening: bool
) -> None:
    company = make_company(120, seed=3)
    files = [
        company.write_lists_iif(tmp_path / "lists.iif"),
        company.write_transaction_detail_csv(tmp_path / "td.csv"),
    ]
    plan = Plan(rules=(Rule("merge", "Office Supplies", "Savings"),))
    plan = replace(plan, cutover=replace(plan.cutover, opening_balances=opening))
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    assert not prepared.errors, prepared.errors
    warned = {w.message.split(":")[0]: w for w in prepared.warnings if w.fix == "merge_crossed"}
    assert set(warned) == {"Savings", "Retained Earnings"}
    assert all(w.message.endswith(f"not posted: {CAUSE}") for w in warned.values())
    book = tmp_path / "book.gnucash"
    report = pipeline.write(prepared, book, plan).report
    assert not report.ok
    differ = {r.account: r for r in report.rows if not r.ok}
    assert set(differ) == {"Savings", "Retained Earnings"}
    assert all(r.cause == CAUSE and r.fix == "merge_crossed" for r in differ.values())
    truth, held = company.trial_balance(), company.history_balances()
    # what the book holds: Savings and every year's office supplies, no opening made up
    assert differ["Savings"].gnucash_balance == held["Savings"] + held["Office Supplies"]
    assert differ["Savings"].quickbooks_balance == truth["Savings"] + truth["Office Supplies"]
    snap = gnc.read_book(book)  # (no opening transaction: the first is the history's)
    assert snap.transactions == len(company.history) and snap.first_date == company.history[0].date
