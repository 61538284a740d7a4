"""``app.repeated``: what makes two transactions of the files "alike" (a file given twice
repeats the day, type, number, name and every line), so that a month's invoices of one price to
several customers are not taken for a file given twice."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal

from app import repeated
from app.model import Ledger, Split, Transaction
from app.source import Source

DAY = dt.date(2021, 3, 1)


def _invoice(line: int, name: str, num: str) -> Transaction:
    src = Source("journal.csv", line)
    splits = (
        Split("Accounts Receivable", Decimal("450.00"), src),
        Split("Landscaping Services", Decimal("-450.00"), src),
    )
    return Transaction(DAY, splits, src, num, name, kind_label="Invoice")


def test_invoices_of_one_price_to_several_customers_are_not_twins() -> None:
    month = Ledger(transactions=(_invoice(2, "Cook, Brian", "71"), _invoice(5, "Heldt, Bob", "72")))
    assert repeated.twins(month) is None
    assert repeated.cause(month)[1] == "same_day"


def test_a_transaction_given_twice_is_found_with_both_lines() -> None:
    first = _invoice(2, "Cook, Brian", "71")
    again = replace(first, source=Source("journal (2).csv", 2))
    pair = repeated.twins(Ledger(transactions=(first, _invoice(5, "Heldt, Bob", "72"), again)))
    assert pair == (first, again)
    words, fix = repeated.cause(Ledger(transactions=(first, again)))
    assert fix == "repeated"
    assert "(such as journal.csv:2 and journal (2).csv:2, alike)" in words


def test_twins_from_two_files_whose_periods_overlap_name_the_overlap() -> None:
    """Two exports whose periods overlap, each given once (IIF transaction ids renumbered in
    the second, so the overlap is not taken out): the cause names the days both cover."""
    from app.model import FileInfo

    first = _invoice(482, "Cook, Brian", "71")
    again = replace(first, source=Source("p1.iif", 4))
    files = (
        FileInfo("journal.csv", "IIF", first_date=dt.date(2019, 1, 1), last_date=DAY),
        FileInfo("p1.iif", "IIF", first_date=dt.date(2021, 2, 1), last_date=dt.date(2021, 12, 31)),
    )
    words, fix = repeated.cause(Ledger(transactions=(first, again), files=files))
    assert fix == "repeated"
    assert "journal.csv and p1.iif both cover 2021-02-01 to 2021-03-01" in words, words
    assert "give transaction files whose periods do not overlap" in words


def test_a_transaction_deleted_between_two_overlapping_exports_is_named(tmp_path) -> None:
    """Two Transaction Detail reports whose periods overlap, the first exported before a check
    of the overlap was deleted in QuickBooks (the second and the lists lack it): each is
    imported, so the history explains more than QuickBooks. It was caught with "no transaction
    is in the files twice" and named none (hunt 13); a warning and the cause now name it."""
    from app import pipeline
    from app.plan import Plan
    from tests.support.companygen import make_company

    company = make_company(150, seed=3)
    days = sorted(t.date for t in company.transactions)
    middle = days[len(days) // 2]
    gone = next(
        t
        for t in company.transactions
        if t.type == "Check" and dt.timedelta(30) < middle - t.date < dt.timedelta(300)
    )
    now = replace(company, transactions=[t for t in company.transactions if t is not gone])
    earlier = replace(company, transactions=[t for t in company.transactions if t.date <= middle])
    later = replace(now, history_from=middle - dt.timedelta(365))
    files = [
        now.write_lists_iif(tmp_path / "lists.iif"),
        earlier.write_transaction_detail_csv(tmp_path / "td_old.csv"),
        later.write_transaction_detail_csv(tmp_path / "td_new.csv"),
    ]
    prepared = pipeline.prepare(pipeline.read(files, Plan()), Plan())
    named = f"Check {gone.num} of {gone.date.isoformat()} (Trans # {gone.trans_no}) at td_old.csv:"
    (said,) = [w.message for w in prepared.warnings if w.topic == "overlap" and named in w.message]
    assert said.startswith("td_old.csv and td_new.csv both cover "), said
    assert "but 1 transaction of those days is in only one of them (" + named in said
    assert said.endswith(
        ", not in td_new.csv); each is imported: one QuickBooks deleted or changed between the "
        "two exports would be in the book though QuickBooks no longer counts it"
    )
    words, fix = repeated.cause(prepared.ledger)
    assert words.startswith("no transaction is in the files twice; td_old.csv and td_new.csv")
    assert named in words and fix == "same_day"
    assert words.endswith(
        ": one of those is probably one QuickBooks deleted or changed between the two exports "
        "(one entered since and dated back is in the later file alone, and right)"
    )


def test_a_deleted_transaction_of_an_earlier_fiscal_year_is_named_by_the_proof(tmp_path) -> None:
    """The check deleted between the two exports dated in an earlier fiscal year: the history no
    longer explains more everywhere (Retained Earnings takes the year), and the cutover and the
    proof said "a transaction is missing from the files" (hunt 18); they name it too."""
    from app import pipeline
    from app.plan import Plan
    from tests.support.companygen import make_company

    company = make_company(150, seed=3)
    days = sorted(t.date for t in company.transactions)
    middle = days[len(days) // 2]
    start = middle - dt.timedelta(500)
    gone = next(
        t
        for t in company.transactions
        if t.type == "Check" and start < t.date < company.fiscal_year_begin().replace(year=2020)
    )
    now = replace(company, transactions=[t for t in company.transactions if t is not gone])
    earlier = replace(company, transactions=[t for t in company.transactions if t.date <= middle])
    files = [
        now.write_lists_iif(tmp_path / "lists.iif"),
        earlier.write_transaction_detail_csv(tmp_path / "td_old.csv"),
        replace(now, history_from=start).write_transaction_detail_csv(tmp_path / "td_new.csv"),
    ]
    prepared = pipeline.prepare(pipeline.read(files, Plan()), Plan())
    named = f"Check {gone.num} of {gone.date.isoformat()} (Trans # {gone.trans_no})"
    report = pipeline.write(prepared, tmp_path / "book.gnucash", Plan()).report
    causes = [r.cause for r in report.rows if not r.ok]
    assert causes and all(named in c and "in only one of them" in c for c in causes), causes
