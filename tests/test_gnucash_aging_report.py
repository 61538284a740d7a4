"""What GnuCash's own Receivable and Payable Aging reports will show (``aging.report_aging``,
what the "What to do in GnuCash next" page tells a bookkeeper to expect), against those reports
run by ``gnucash-cli`` on books the pipeline wrote. The reports age to the end of today (their
To date's default), so each company here ends on the days before the test runs: its open
documents fall on every side of the 30-day boundaries, unapplied payments and credit notes
included, each owner's columns compared to the cent."""

from __future__ import annotations

import datetime as dt

import pytest

from app import gnc, pipeline
from app.documents.aging import REPORT_COLUMNS, report_aging
from app.plan import Plan
from tests.support.companygen import make_company
from tests.support.gnucash_reports import aging_columns


@pytest.mark.parametrize("seed", [21, 24])
def test_gnucashs_aging_reports_show_what_report_aging_says(tmp_path, seed):
    today = dt.date.today()
    company = make_company(
        600, seed=seed, start=today - dt.timedelta(days=365), years=1, documents=True
    )
    files = [
        company.write_lists_iif(tmp_path / "lists.iif"),
        company.write_transaction_detail_csv(tmp_path / "detail.csv"),
    ]
    plan = Plan()
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    book = tmp_path / "book.gnucash"
    assert pipeline.write(prepared, book, plan).report.ok
    lots = gnc.read_documents(book).open_lots
    expected = report_aging(lots, today)
    ages = {(today - lot.report_due).days for lot in lots if lot.document and lot.report_due}
    assert {d for d in ages if d < 0} and {d for d in ages if 0 <= d < 30}  # current, past due
    assert any(lot.payment for lot in lots)  # a Pre-Payment
    assert any(lot.document and lot.due is None for lot in lots)  # a credit note
    for report, kind in (("Receivable Aging", "customer"), ("Payable Aging", "vendor")):
        shown = aging_columns(book, report, tmp_path / "home")
        mine = {owner: row for (k, owner), row in expected.items() if k == kind and any(row)}
        assert shown == mine, report
        assert len(REPORT_COLUMNS) == len(next(iter(shown.values())))
