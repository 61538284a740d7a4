"""Aging, the A/R and A/P reconciliation and the proof's three states (issue 27, items 1 and 2),
against the generator's truth: a company whose book matches QuickBooks in every open item, one
whose history lost the vendor's name on some journal lines on A/P (the ledger matches, those
vendors' open items do not), one whose history starts late (accounts differ). Every book is
written through the engine and read back."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal
from typing import cast

import pytest

from app import gnc, pipeline
from app.documents.aging import BUCKETS, bucket, quickbooks_aging
from app.pages.side_by_side import open_items, trial_balance
from app.plan import Plan
from app.proof_state import MATCHES, verdict, words
from tests.support import companygen_docs as gen
from tests.support.companygen import make_company

D = Decimal


def _convert(company, folder, plan: Plan | None = None):
    plan = plan or Plan()
    files = [
        company.write_lists_iif(folder / "lists.iif"),
        company.write_find_csv(folder / "history.csv", split=True),
        company.write_open_invoices_csv(folder / "open_invoices.csv"),
        company.write_unpaid_bills_csv(folder / "unpaid_bills.csv"),
    ]
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    assert not prepared.errors, prepared.errors[:3]
    outcome = pipeline.write(prepared, folder / "book.gnucash", plan)
    return prepared, outcome


def _aging(proof, side: str) -> tuple[dict, dict]:
    qb = {r.owner: list(r.quickbooks) for r in proof.aging if r.owner_kind == side}
    book = {r.owner: list(r.gnucash) for r in proof.aging if r.owner_kind == side}
    return qb, book


def _truth(company, side: str, *, book: bool = False) -> dict[str, list[D]]:
    return {
        owner: v
        for (s, owner), v in gen.aging_truth(company, book=book).items()
        if s == side and any(v)
    }


@pytest.fixture(scope="module")
def matching(tmp_path_factory):
    company = make_company(500, seed=41, documents=True, journals=True)
    folder = tmp_path_factory.mktemp("matching")
    return company, *_convert(company, folder), folder


@pytest.fixture(scope="module")
def allocated(tmp_path_factory):
    company = make_company(500, seed=31, documents=True, journals=True)
    lost = gen.lose_names(company, "vendor", 2)
    assert len(lost) == 2 and len({gen.owner_of(t) for t in lost}) == 2
    folder = tmp_path_factory.mktemp("allocated")
    return company, *_convert(company, folder), folder


def test_buckets_are_quickbooks_five() -> None:
    assert BUCKETS == ("Current", "1-30", "31-60", "61-90", "Over 90")
    days = (-5, 0, 1, 30, 31, 60, 61, 90, 91, 400)
    assert [bucket(d) for d in days] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]


def test_the_reports_aging_column_wins_over_its_due_date() -> None:
    from app.business import OpenItem
    from app.source import Source

    day = dt.date(2024, 3, 31)
    items = [
        OpenItem(
            "customer",
            "A",
            "Invoice",
            dt.date(2024, 1, 1),
            D("10.00"),
            Source("o.csv", 5),
            due=dt.date(2024, 3, 30),
            aging=45,
        ),
        OpenItem("customer", "A", "Payment", dt.date(2024, 3, 1), D("-4.00"), Source("o.csv", 6)),
        OpenItem(
            "customer",
            "A",
            "Invoice",
            dt.date(2024, 3, 20),
            D("7.00"),
            Source("o.csv", 7),
            due=dt.date(2024, 4, 19),
        ),
    ]
    assert quickbooks_aging(items, day) == {
        ("customer", "A"): (D("7.00"), D("-4.00"), D("10.00"), D(0), D(0))
    }


def test_a_report_aged_from_transaction_dates_is_compared_so() -> None:
    """QuickBooks' preference "Age from transaction date": the report's Aging column counts the
    days since each invoice's date. The same open items were said to be "aged differently"
    (payments applied otherwise, fixed in View Lots); GnuCash's side is aged the same way and
    the page says how to see it so in GnuCash."""
    from app.book import BookLot
    from app.business import OpenItem
    from app.documents.aging import aged_from_date, aging_rows
    from app.documents.proof import DocumentsProof
    from app.source import Source

    day = dt.date(2024, 3, 31)
    dates = [
        (dt.date(2024, 1, 1), dt.date(2024, 1, 31)),
        (dt.date(2024, 3, 1), dt.date(2024, 3, 31)),
    ]
    items = [
        OpenItem("customer", "A", "Invoice", d, D("10.00"), Source("o.csv", n), due=due,
                 aging=(day - d).days)
        for n, (d, due) in enumerate(dates, 5)
    ]  # fmt: skip
    lots = [BookLot("customer", "A", d, due, D("10.00"), True) for d, due in dates]
    assert aged_from_date(items, day) == {"customer"}
    rows = aging_rows(items, lots, day, {"customer"})
    assert [r.ok for r in rows] == [True] and rows[0].from_date
    assert rows[0].gnucash == (D(0), D("10.00"), D(0), D("10.00"), D(0))
    notes = DocumentsProof((), {}, {}, aging=rows).notes()
    assert any("“Due or Post Date” to “Post date”" in n for n in notes), notes
    # a row the report leaves without an Aging figure (not yet due) is aged from its own date
    # on that side too, as GnuCash's side is
    fresh = OpenItem("customer", "A", "Invoice", day - dt.timedelta(days=5), D("3.00"),
                     Source("o.csv", 9), due=day + dt.timedelta(days=10))  # fmt: skip
    lot = BookLot("customer", "A", fresh.date, fresh.due, D("3.00"), True)
    rows = aging_rows([*items, fresh], [*lots, lot], day, {"customer"})
    assert [r.ok for r in rows] == [True], rows
    # aged from the due date (the default): not taken for the other preference
    by_due = [replace(i, aging=(day - i.due).days) for i in items if i.due]
    assert aged_from_date(by_due, day) == set()
    assert not aging_rows(by_due, lots, day, {"customer"})[0].from_date


def test_a_matching_book_ages_every_owner_as_quickbooks(matching) -> None:
    company, _prepared, outcome, folder = matching
    report = outcome.report
    assert report.ok, report.summary_lines()
    assert verdict(report).state == "matches" and verdict(report).words() == MATCHES
    proof = report.documents
    assert proof is not None
    for side in ("customer", "vendor"):
        qb, book = _aging(proof, side)
        truth = _truth(company, side)
        assert len(truth) > 3
        assert {k: v for k, v in qb.items() if any(v)} == truth
        assert {k: v for k, v in book.items() if any(v)} == truth
    # the buckets are spread: not everything current, not everything over 90
    spread = {i for v in _truth(company, "customer").values() for i, x in enumerate(v) if x}
    assert {0, 4} <= spread and len(spread) >= 4
    # A/R and A/P reconciled: the trial balance is the report's total, the book's balance its
    # documents plus the owners' own lots, nothing in no lot
    back = gnc.read_documents(folder / "book.gnucash")
    for rec in proof.reconciliation:
        side = rec.owner_kind
        listed = sum(v for (s, _o, _t, v) in gen.open_items(company) if s == side)
        assert rec.report_documents + rec.report_other == listed
        assert rec.quickbooks_balance == listed and rec.quickbooks_not_listed == 0
        assert rec.gnucash_balance == listed and rec.gnucash_no_lot == 0
        lots = [lot for lot in back.open_lots if lot.owner_kind == side]
        assert rec.gnucash_documents == sum(lot.open for lot in lots if lot.document)
        assert rec.gnucash_owners == sum(lot.open for lot in lots if not lot.document)
        assert "naming no" not in rec.gnucash_line()


def test_journal_lines_that_lost_their_vendor_are_allocated_differently(allocated) -> None:
    company, _prepared, outcome, folder = allocated
    report = outcome.report
    said = verdict(report)
    assert not report.differences and all(c.ok for c in report.checks)  # the ledger matches
    assert (said.state, said.accounts, said.customers, said.vendors) == ("allocated", 0, 0, 2)
    assert said.words() == "Ledger matches; open items of 2 vendors allocated differently"
    assert not report.ok  # never called matching
    proof = report.documents
    qb, book = _aging(proof, "vendor")
    assert {k: v for k, v in qb.items() if any(v)} == _truth(company, "vendor")
    assert {k: v for k, v in book.items() if any(v)} == _truth(company, "vendor", book=True)
    lost = gen.unnamed_truth(company)
    assert {r.owner for r in proof.aging if not r.ok} == {o for _s, o in lost}
    # A/P = open bills + the vendors' own lots + the lines that name no vendor
    (rec,) = [r for r in proof.reconciliation if r.owner_kind == "vendor"]
    assert rec.gnucash_no_lot == sum(lost.values()) != 0
    assert rec.quickbooks_balance == rec.gnucash_balance
    assert rec.gnucash_documents + rec.gnucash_owners + rec.gnucash_no_lot == rec.gnucash_balance
    assert f"naming no vendor {rec.gnucash_no_lot:,.2f}" in rec.gnucash_line()
    # each one's cause: its report rows the files hold with no name; nothing here fixes it
    for (_s, owner), amount in lost.items():
        cause = proof.cause_of("vendor", owner)
        assert cause is not None and cause.step == ""
        assert "with no vendor named on the A/P line" in cause.cause
        assert f"{-amount:,.2f}" in cause.cause or f"{amount:,.2f}" in cause.cause
        assert cause.action.startswith("Nothing on these pages changes it")
    # the book read back: each vendor's lots hold QuickBooks' open balance less its lost line
    back = gnc.read_documents(folder / "book.gnucash")
    truth = {k: sum(v) for k, v in gen.aging_truth(company).items()}
    for key, amount in lost.items():
        assert back.owner_open[key] == truth[key] - amount
    # the command line and the pages say the same
    lines = report.difference_lines("cli")
    assert len(lines) == 2 and all("no vendor named on the A/P line" in x for x in lines)
    summary = report.summary_lines("cli")
    assert sum("no vendor named on the A/P line" in x for x in summary) == 2  # each said once
    assert rec.gnucash_line() in summary
    data = open_items(proof, report.as_of.date)
    vendors = next(s for s in data["sides"] if s["kind"] == "vendor")
    assert vendors["differ"] == 2 and vendors["reconciliation"][1] == rec.gnucash_line()


def test_a_late_history_needs_attention(tmp_path) -> None:
    company = make_company(300, seed=9, history_from=dt.date(2020, 1, 1))
    files = [
        company.write_lists_iif(tmp_path / "lists.iif"),
        company.write_transaction_detail_csv(tmp_path / "history.csv"),
    ]
    plan = Plan()
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    report = pipeline.write(prepared, tmp_path / "book.gnucash", plan).report
    said = verdict(report)
    n = len(report.differences)
    assert n > 1 and said.state == "attention" and said.accounts == n
    assert said.words() == f"Needs your attention: {n:,} accounts differ"
    # the trial balance side by side: every differing account carries its cause and the Map
    # step's control that fixes it
    lines = [
        line
        for sec in trial_balance(prepared.ledger, report)
        for g in sec["groups"]
        for line in g["lines"]
        if line["kind"] == "account" and not line["ok"]
    ]
    assert len(lines) == n
    assert all(line["step"] in ("map", "files") and line["cause"] for line in lines)
    late = [line for line in lines if "after the company did" in line["cause"]]
    assert len(late) >= n - 1
    assert all(line["step"] == "map" and "opening-balance" in line["action"] for line in late)


def test_the_three_states_in_words() -> None:
    assert words("matches") == "Matches QuickBooks to the cent"
    assert words("allocated", customers=1, vendors=2) == (
        "Ledger matches; open items of 1 customer and 2 vendors allocated differently"
    )
    # a job is named as one (hunt 10: "2 customers" where the summary said a customer's and a
    # job's)
    assert words("allocated", customers=1, vendors=0, jobs=1) == (
        "Ledger matches; open items of 1 customer and 1 job allocated differently"
    )
    assert words("attention", accounts=1) == "Needs your attention: 1 account differs"
    assert words("attention", accounts=1200, checks=1) == (
        "Needs your attention: 1,200 accounts differ; 1 other check differs"
    )
    assert words("attention", checks=6) == "Needs your attention: 6 other checks differ"
    year = "the year end 2021-12-31 differs from QuickBooks' trial balance"
    assert words("attention", checks=2, named=(year,)) == (
        f"Needs your attention: 1 other check differs; {year}"
    )


def test_the_trial_balance_reads_as_a_bookkeeper_reads_it(matching) -> None:
    """Credit-normal accounts positive, parents with their subtotal after their subaccounts,
    account numbers, the Balance Sheet balancing with this year's net income."""
    company, prepared, outcome, _folder = matching
    tb = trial_balance(prepared.ledger, outcome.report)
    sheet, pnl = tb[0], tb[1]
    assert [g["label"] for g in sheet["groups"]] == ["Assets", "Liabilities", "Equity"]
    assert [g["label"] for g in pnl["groups"]] == ["Income", "Expenses"]
    by_name = {line["full"]: line for sec in tb for g in sec["groups"] for line in g["lines"]
               if line["kind"] == "account"}  # fmt: skip
    full = company.expected_balances()  # debit positive
    payable = by_name["Accounts Payable"]
    assert D(payable["gnucash"]) == -full["Accounts Payable"]  # a credit shown positive
    assert D(by_name["Checking"]["gnucash"]) == full["Checking"]
    numbers = {name: number for name, _t, number, _x in company.accounts}
    assert payable["code"] == numbers["Accounts Payable"] != "" and payable["ok"]
    totals = [line for g in sheet["groups"] for line in g["lines"] if line["kind"] == "total"]
    assert totals  # at least one parent with its subtotal
    assets, liabilities, equity = (D(g["gnucash"]) for g in sheet["groups"])
    assert assets == liabilities + equity  # with the net income line
    # the Profit and Loss ends on its Net Income: income less expenses, a profit positive, as
    # on the Balance Sheet's net income line (hunt 23 L4: it stopped at Total Expenses)
    income, expenses = (D(g["gnucash"]) for g in pnl["groups"])
    net = pnl["net"]
    assert net["label"] == "Net Income" and net["ok"] and income != 0
    assert D(net["gnucash"]) == D(net["quickbooks"]) == income - expenses
    (in_equity,) = [line for line in sheet["groups"][2]["lines"] if line["kind"] == "net"]
    assert D(in_equity["gnucash"]) == D(net["gnucash"]) and sheet.get("net") is None


def test_the_reports_aging_column_is_read(matching) -> None:
    """Each open item keeps the report's Aging (days past due, blank when not yet due) and its
    Due Date; the documents the report lists take that due date into the book."""
    company, prepared, _outcome, folder = matching
    items = prepared.ledger.open_items
    overdue = [i for i in items if i.aging is not None]
    assert len(overdue) > 10
    assert all(i.aging == (company.export_date - i.due).days > 0 for i in overdue)
    assert all(i.due is None or i.due >= company.export_date for i in items if i.aging is None)
    back = gnc.read_documents(folder / "book.gnucash")
    due = {(i.owner, i.num): i.due for i in items if i.due is not None}
    posted = {(d.owner, d.id): d.due for d in back.documents if (d.owner, d.id) in due}
    assert len(posted) > 10 and all(posted[k] == due[k] for k in posted)


def test_a_result_written_before_the_verdict_still_says_one() -> None:
    from app.pages.download import legacy_state

    assert legacy_state({"ok": True, "rows": [{"ok": True}]})["words"] == MATCHES
    said = legacy_state({"ok": False, "rows": [{"ok": False}, {"ok": True}]})
    assert (said["state"], said["class"]) == ("attention", "error")
    assert said["words"] == "Needs your attention: 1 account differs"
    assert legacy_state({"ok": False, "rows": []})["words"].startswith("Needs your attention")


def test_a_report_without_due_dates_compares_totals_only() -> None:
    """A report printed without its Due Date and Aging columns says nothing of its invoices'
    ages: each owner's total is compared, not its buckets (no false difference)."""
    from app.book import BookLot
    from app.business import OpenItem
    from app.documents.aging import aging_rows
    from app.source import Source

    day = dt.date(2024, 3, 31)
    items = [OpenItem("customer", "A", "Invoice", dt.date(2024, 1, 1), D("10.00"), Source("o", 5))]
    same = [BookLot("customer", "A", dt.date(2024, 1, 1), dt.date(2024, 3, 30), D("10.00"), True)]
    (row,) = aging_rows(items, same, day, {"customer"})
    assert row.totals_only and row.ok and row.quickbooks != row.gnucash
    other = [BookLot("customer", "A", dt.date(2024, 1, 1), None, D("9.00"), True)]
    (row,) = aging_rows(items, other, day, {"customer"})
    assert not row.ok and row.total_differs
    dated = [OpenItem("customer", "A", "Invoice", dt.date(2024, 1, 1), D("10.00"),
                      Source("o", 5), due=dt.date(2024, 1, 31))]  # fmt: skip
    (row,) = aging_rows(dated, same, day, {"customer"})
    assert not row.totals_only and not row.ok  # 60 days past due against 1


def _with_change(folder, kind: str, account: str, target: str):
    """The documents company of the Map-step tests converted with one change: (prepared,
    outcome)."""
    from app.plan import Rule, RuleKind

    change = Rule(cast(RuleKind, kind), account, target)
    return _convert(make_company(200, seed=41, documents=True), folder, Plan(rules=(change,)))


def test_a_control_account_retyped_on_the_map_step_is_the_cause(tmp_path) -> None:
    """Accounts Receivable given the type Bank on the Map step (accepted: the tree balances):
    GnuCash keeps invoices only on an A/R account, so none is made and every customer's open
    items differ. The cause named the transaction files ("open items … in no transaction
    file") though the invoices are in them; it names the Map step's change."""
    prepared, outcome = _with_change(tmp_path, "retype", "Accounts Receivable", "BANK")
    # said on the Map step first, before the book is written
    (warned,) = [p for p in prepared.warnings if "no account of GnuCash's type" in p.message]
    assert warned.message.startswith(
        "the plan leaves no account of GnuCash's type A/Receivable (Accounts Receivable was "
        "retyped)"
    )
    assert warned.fix == "account_type"
    proof = outcome.report.documents
    assert proof is not None and not proof.ok
    customers = [c for c in proof.causes if c.owner_kind == "customer"]
    assert customers and all(
        c.cause.startswith("the book has no account of GnuCash's type Accounts Receivable")
        and c.step == "map"
        for c in customers
    )
    assert all(c.owner_kind == "customer" for c in proof.causes)  # A/P as it was: vendors match
    # not "Ledger matches; open items allocated differently": no invoice was made at all
    said = verdict(outcome.report)
    assert said.state == "attention", said
    assert "no invoices or bills were made: A/R or A/P retyped or merged away" in said.words()


def test_another_account_merged_onto_a_control_account_is_warned(tmp_path) -> None:
    """Checking merged into Accounts Receivable on the Map step: the book "allocated open items
    differently" with the exports blamed ("export it again"), nothing saying the merge made
    every payment through Checking carry two A/R or A/P lines (hunt 15). The Map step now says
    so; two receivable accounts merged are not warned."""
    prepared, outcome = _with_change(tmp_path, "merge", "Checking", "Accounts Receivable")
    (warned,) = [p for p in prepared.warnings if "the plan puts Checking on" in p.message]
    assert warned.message.startswith(
        "the plan puts Checking on GnuCash's type A/Receivable (merged or retyped): its lines "
        "name no customer"
    ), warned.message
    assert warned.message.endswith("undo that change on the Map step")
    # and the proof names the merge as the customers' cause (it named the report, or lines
    # the files hold with no customer named, "nothing on these pages changes it")
    proof = outcome.report.documents
    assert proof is not None and proof.causes and not proof.ok
    said = "on the Map step, “Checking” merged into A/R: a payment through it then has two A/R or "
    assert {(c.owner_kind, c.cause, c.action, c.step) for c in proof.causes} == {
        (  # (a bill paid from Checking: its A/P and Checking's, now A/R, lines; the customers
            # pay into Undeposited Funds, and match)
            "vendor",
            f"{said}A/P lines and stays a plain transaction, applied to none of this vendor's open "
            "bills and bill credits",
            "on the Map step, undo that change",
            "map",
        ),
    }
    (tmp_path / "plain").mkdir()
    prepared, _outcome = _with_change(tmp_path / "plain", "merge", "Savings", "Checking")
    assert not [p for p in prepared.warnings if "the plan puts" in p.message]


def test_another_account_retyped_onto_a_control_account_is_the_owners_cause(tmp_path) -> None:
    """Undeposited Funds given GnuCash's type A/Receivable: every customer payment deposited
    there has two A/R lines and stays plain; the customers' cause was generic (note 12)."""
    _prepared, outcome = _with_change(tmp_path, "retype", "Undeposited Funds", "RECEIVABLE")
    proof = outcome.report.documents
    assert proof is not None and proof.causes and not proof.ok
    assert {(c.owner_kind, c.cause.split(":")[0], c.step) for c in proof.causes} == {
        ("customer", "on the Map step, “Undeposited Funds” retyped A/R", "map")
    }


def test_a_control_account_merged_away_is_warned_with_the_merge_to_undo(tmp_path) -> None:
    """Accounts Payable merged into the credit card on the Map step: the warning says it was
    merged (not a type to give back, which would be the card's)."""
    from app.plan import Rule

    company = make_company(120, seed=41, documents=True)
    plan = Plan(rules=(Rule("merge", "Accounts Payable", "CalOil Card"),))
    files = [
        company.write_lists_iif(tmp_path / "lists.iif"),
        company.write_find_csv(tmp_path / "history.csv", split=True),
    ]
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    (warned,) = [p for p in prepared.warnings if "no account of GnuCash's type" in p.message]
    assert "(Accounts Payable was merged into another account: undo the merge)" in warned.message
    assert warned.fix == ""
    # renamed and retyped: a retype still, with the type to give back
    plan = Plan(
        rules=(
            Rule("rename", "Accounts Payable", "Owed"),
            Rule("retype", "Accounts Payable", "LIABILITY"),
        )
    )
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    (warned,) = [p for p in prepared.warnings if "no account of GnuCash's type" in p.message]
    assert "(Accounts Payable was retyped)" in warned.message and warned.fix == "account_type"


def test_an_amount_moved_between_two_invoices_of_one_bucket_is_no_match(matching, tmp_path):
    """The Open Invoices report edited: 1.00 moved from one invoice of a customer to another
    in the same bucket that was open in full (so the report cannot be reproduced and payments
    go oldest first). The customer's balance and buckets are QuickBooks', so the book was
    called matching; each document is now compared with its row: the two invoices are named
    with both figures, the customer's row is flagged, and the verdict is "allocated" (hunt 10).
    The figures said are the edited report's and the book's, reopened."""
    import csv
    import io

    from app.documents.aging import bucket

    _company, prepared, _outcome, folder = matching
    sel = prepared.documents
    full = {
        (d.owner, d.id)
        for d in sel.docs.documents
        if d.kind == "invoice" and sel.open_amounts.get(d.transaction) == d.total
    }
    text = (folder / "open_invoices.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    invoices = [(i, r) for i, r in enumerate(rows) if len(r) > 11 and r[3] == "Invoice"]
    pair = next(
        (a, b)
        for a in invoices
        for b in invoices
        if a[0] != b[0]
        and a[1][6] == b[1][6]
        and (b[1][6], b[1][5]) in full
        and bucket(int(a[1][10])) == bucket(int(b[1][10]))
        and D(a[1][11].replace(",", "")) > 1
    )
    (i, a), (j, b) = pair
    was = {a[5]: D(a[11].replace(",", "")), b[5]: D(b[11].replace(",", ""))}
    now = {a[5]: was[a[5]] - 1, b[5]: was[b[5]] + 1}
    rows[i][11], rows[j][11] = f"{now[a[5]]:,.2f}", f"{now[b[5]]:,.2f}"
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    report = _edited(folder, tmp_path, "open_invoices.csv", out.getvalue())
    assert not report.ok and verdict(report).state == "allocated", report.summary_lines()
    proof = report.documents
    owner = a[6]
    assert proof.allocated == (("customer", owner),)
    back = {
        d.id: d.open
        for d in gnc.read_documents(tmp_path / "book.gnucash").documents
        if d.owner == owner
    }
    differ = {d.id: (d.quickbooks, d.gnucash) for d in proof.documents_differ}
    assert set(differ) & set(now), differ  # (oldest first may leave others open too)
    assert all(qb == now.get(n, 0) and gnucash == back[n] for n, (qb, gnucash) in differ.items())
    assert all(back[n] == q for n, q in now.items() if n not in differ)  # (the others: equal)
    assert "open by other amounts" in proof.headline()
    line = next(x for x in proof.owner_lines() if x.startswith(f"customer {owner}: "))
    assert "cannot be reproduced from the transaction files (" in line, line
    # why, in the cause itself (hunt 23: "its warning says why", the warning folded away)
    assert "(an open amount above its document's total), so payments" in line, line
    assert all(f"invoice {n} open QuickBooks {q:,.2f}" in line for n, (q, _) in differ.items())
    side = next(s for s in open_items(proof, report.as_of.date)["sides"] if s["kind"] == "customer")
    assert [r["owner"] for r in side["rows"] if not r["ok"]] == [owner]


def test_an_unpaid_bills_report_that_lists_nothing_is_given_not_missing(matching, tmp_path):
    """The Unpaid Bills report given with its headings and no rows (every bill paid, says
    QuickBooks), while the trial balance holds A/P: the side is QuickBooks' report, never "no
    Unpaid Bills report given" with the vendors compared with the history's guess, and the
    book, whose bills the history leaves open, is not called matching (hunt 10)."""
    _company, _prepared, _outcome, folder = matching
    lines = (folder / "unpaid_bills.csv").read_text(encoding="utf-8").splitlines()
    header = next(i for i, line in enumerate(lines) if "Open Balance" in line)
    cells = lines[header].count(",")
    empty = [*lines[: header + 1], "TOTAL" + "," * (cells - 1) + ",0.00"]
    report = _edited(folder, tmp_path, "unpaid_bills.csv", "\n".join(empty) + "\n")
    assert not report.ok and verdict(report).state == "attention", report.summary_lines()
    # (the report and the trial balance disagree: QuickBooks' own two figures, named, hunt 19)
    assert "and its Unpaid Bills report 0.00 disagree" in verdict(report).words()
    proof = report.documents
    vendors = [r for r in proof.rows if r.kind == "vendor"]
    assert vendors and all(r.basis == "report" and r.quickbooks_open == 0 for r in vendors)
    back = gnc.read_documents(tmp_path / "book.gnucash")
    owed = {o: v for (k, o), v in back.owner_open.items() if k == "vendor" and v}
    assert (
        owed and {r.owner: r.gnucash_open for r in proof.differences if r.kind == "vendor"} == owed
    )
    rec = next(r for r in proof.reconciliation if r.owner_kind == "vendor")
    assert rec.report_documents == 0 and rec.quickbooks_not_listed == rec.quickbooks_balance > 0
    assert "not given" not in rec.quickbooks_line(), rec.quickbooks_line()
    page = open_items(proof, report.as_of.date)  # (the Download step's side by side)
    side = next(s for s in page["sides"] if s["kind"] == "vendor")
    assert side["unlisted"] and not page["ok"]
    assert page["unlisted"].startswith("QuickBooks' A/P ") and "export it again" in page["unlisted"]


def test_a_current_invoice_of_a_report_without_due_dates_is_current() -> None:
    """A report printed with its Aging column and without its Due Date column: QuickBooks
    leaves an invoice's Aging blank until it is due, so that invoice is current (it was aged
    from its own date, 68 days, and QuickBooks' side said 61-90); a credit memo with no figure
    still ages from its date, as GnuCash's side does."""
    from app.business import OpenItem
    from app.source import Source

    day = dt.date(2021, 12, 25)
    items = [
        OpenItem("customer", "A", "Invoice", dt.date(2021, 10, 18), D("9.00"), Source("o", 7)),
        OpenItem(
            "customer", "A", "Invoice", dt.date(2021, 9, 1), D("5.00"), Source("o", 8), aging=85
        ),
        OpenItem("customer", "A", "Credit Memo", dt.date(2021, 10, 1), D("-2.00"), Source("o", 9)),
    ]
    assert quickbooks_aging(items, day) == {
        ("customer", "A"): (D("9.00"), D(0), D(0), D("3.00"), D(0))
    }
    # a tax invoice or a statement charge falls due as an invoice does (hunt 11)
    for word in ("Tax Invoice", "Statement Charge"):
        worded = [replace(i, kind_label=word) if i.kind_label == "Invoice" else i for i in items]
        assert quickbooks_aging(worded, day) == quickbooks_aging(items, day)
    # without the Aging column, a row without a due date still ages from its own date
    plain = [replace(i, aging=None) for i in items]
    assert quickbooks_aging(plain, day) == {("customer", "A"): (D(0), D(0), D(0), D(7), D(5))}


def test_an_invoice_aged_otherwise_is_not_blamed_on_payments(matching, tmp_path):
    """One invoice's Aging figure edited into another bucket (every open amount QuickBooks'):
    the customer is flagged, and its cause is the report's due date or Aging figure, with the
    report to export again; it said payments were applied otherwise, with View Lots to move
    them (hunt 10)."""
    import csv
    import io

    _company, _prepared, _outcome, folder = matching
    text = (folder / "open_invoices.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    at = next(
        i
        for i, r in enumerate(rows)
        if len(r) > 11 and r[3] == "Invoice" and r[10].isdigit() and int(r[10]) > 90
    )
    rows[at][10] = "5"  # (over 90 days past due → 1-30)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    report = _edited(folder, tmp_path, "open_invoices.csv", out.getvalue())
    proof = report.documents
    assert verdict(report).state == "allocated" and not proof.documents_differ
    assert proof.allocated == (("customer", rows[at][6]),)
    cause = proof.causes[0]
    assert cause.cause.startswith("every one of this "), cause
    assert "aged otherwise" in cause.cause and "View Lots" not in cause.action
    assert cause.step == "files"


def _edited(folder, tmp_path, name: str, text: str):
    """The matching company's files with ``name`` given ``text``, converted: the proof."""
    import shutil

    edited = tmp_path / "files"
    shutil.copytree(folder, edited, ignore=shutil.ignore_patterns("*.gnucash*"))
    (edited / name).write_text(text, encoding="utf-8")
    names = ("lists.iif", "history.csv", "open_invoices.csv", "unpaid_bills.csv")
    plan = Plan()
    prepared = pipeline.prepare(pipeline.read([edited / n for n in names], plan), plan)
    return pipeline.write(prepared, tmp_path / "book.gnucash", plan).report


def test_a_report_listing_more_than_the_trial_balance_is_said_so() -> None:
    """A/R 100.00 in the trial balance, the report's rows 180.44 (a row twice): the
    reconciliation takes the excess off, in words; it added "not listed in the report -80.44"."""
    from app.documents.aging import Reconciliation

    rec = Reconciliation(
        "customer", ("A/R",), D(100), D("180.44"), D(0), D(100), D(100), D(0), D(0)
    )
    assert rec.quickbooks_line() == (
        "QuickBooks: A/R 100.00 = Open Invoices report 180.44 (invoices and credit memos "
        "180.44, payments, credits and journal entries 0.00) - listed in the report beyond the "
        "trial balance 80.44"
    )
    short = Reconciliation("customer", ("A/R",), D(100), D(90), D(0), D(100), D(100), D(0), D(0))
    assert short.quickbooks_line().endswith(" + not listed in the report 10.00")


def test_a_job_s_own_terms_date_its_invoices_when_the_report_has_no_due_dates(matching, tmp_path):
    """The Open Invoices report printed without its Due Date column: a job's invoices fall due
    by the job's own terms, as in QuickBooks (they took its customer's, and a job of Net 30
    under a customer of Due on receipt was flagged aged otherwise; hunt 11)."""
    import csv
    import io

    _company, prepared, _outcome, folder = matching
    own = [
        (c.name, j.name)
        for c in prepared.ledger.customers
        for j in c.jobs
        if j.terms and j.terms != c.terms
    ]
    assert own  # (the generator gives some jobs terms of their own)
    rows = list(csv.reader(io.StringIO((folder / "open_invoices.csv").read_text("utf-8"))))
    at = next(i for i, r in enumerate(rows) if "Due Date" in r)
    due = rows[at].index("Due Date")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([r[:due] + r[due + 1 :] for r in rows])
    report = _edited(folder, tmp_path, "open_invoices.csv", out.getvalue())
    assert verdict(report).state == "matches", report.documents.owner_lines()


def test_report_rows_in_no_file_outrank_a_merge_onto_a_control_account() -> None:
    """An owner whose report rows are in no transaction file: that is its cause, not a merge
    onto A/R elsewhere (hunt 18: the merge was every flagged owner's cause)."""
    from app.business import OpenItem
    from app.documents.owner_causes import owner_cause
    from app.source import Source

    missing = [
        OpenItem(
            "vendor", "PG&E", "Bill", dt.date(2024, 3, 1), Decimal("412.10"),
            Source("unpaid_bills.csv", 9), ref="812",
        )
    ]  # fmt: skip
    said = owner_cause(
        "vendor", "PG&E", total_differs=True, unmatched=missing, no_lot=Decimal(0),
        guessed=False, onto=(("Customer Deposits", "A/R"),),
    )  # fmt: skip
    assert said.cause.startswith("QuickBooks' Unpaid Bills report lists open items of this vendor")
    assert said.step == "files"


def test_an_open_items_report_of_another_day_is_said(matching, tmp_path) -> None:
    """An Open Invoices report retitled "As of" another day than QuickBooks' figures was taken
    unsaid (hunt 19): its items are another day's. The report of the figures' day says
    nothing."""
    _company, prepared, _outcome, folder = matching
    assert not [w for w in prepared.warnings if "lists the items open on" in w.message]
    day = prepared.ledger.as_of.date
    text = (folder / "open_invoices.csv").read_text(encoding="utf-8")
    said = f"As of {day:%B} {day.day}, {day.year}"
    assert said in text
    other = day - dt.timedelta(days=14)
    edited = tmp_path / "open_invoices.csv"
    edited.write_text(text.replace(said, f"As of {other:%B} {other.day}, {other.year}"))
    files = [folder / "lists.iif", folder / "history.csv", edited, folder / "unpaid_bills.csv"]
    again = pipeline.prepare(pipeline.read(files, Plan()), Plan())
    (warned,) = [w for w in again.warnings if "lists the items open on" in w.message]
    assert str(warned) == (
        f"open_invoices.csv:1: this report lists the items open on {other}, and QuickBooks' "
        f"figures are of {day}: its open items are another day's; export it again from "
        f"QuickBooks as of {day}"
    )
