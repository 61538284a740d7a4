"""Documents derived from the ledger, payments allocated to them, and the Open Invoices /
Unpaid Bills reader: pure parts, on companies written by the project's generator."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from app import pipeline, readers
from app.documents import derive
from app.documents.allocate import allocate, unapplied
from app.documents.proof import compare, documents_report, quickbooks_open
from app.model import ReadOptions
from app.plan import Plan
from app.readers import qbcsv
from app.readers.qbcsv import open_items
from tests.support.companygen import make_company

D = Decimal


def _read(company, folder: Path, *, reports: bool = True, names: bool = True, nested: bool = True):
    files = [
        company.write_lists_iif(folder / "lists.iif"),
        company.write_transaction_detail_csv(folder / "detail.csv"),
    ]
    if reports:
        files += [
            company.write_open_invoices_csv(
                folder / "open_invoices.csv", names=names, nested=nested
            ),
            company.write_unpaid_bills_csv(folder / "unpaid_bills.csv", names=names),
        ]
    plan = Plan()
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    assert not prepared.errors, prepared.errors[:3]
    return prepared.ledger


def _truth(company, ledger, docs, allocation) -> tuple[dict, dict]:
    """(got, want): trans_no → open amount, for every document and every payment."""
    applied: dict[int, Decimal] = {}
    for a in allocation.applications:
        applied[a.document] = applied.get(a.document, D(0)) + a.amount
    rest = unapplied(docs, allocation)
    got = {}
    for d in docs.documents:
        got[d.transaction] = (
            rest[d.transaction] if d.credit else d.total - applied.get(d.transaction, 0)
        )
    for p in docs.payments:
        got[p.transaction] = rest[p.transaction]
    want = {i: company.open_amounts[int(ledger.transactions[i].ref)] for i in got}
    return got, want


@pytest.fixture(scope="module")
def company():
    return make_company(900, seed=5, documents=True)


@pytest.mark.parametrize(
    ("names", "nested"),
    [(True, True), (False, True), (False, False)],
    ids=["trans-no", "group-headers", "flat-groups"],
)
def test_the_report_fixes_every_documents_open_amount(company, tmp_path, names, nested) -> None:
    ledger = _read(company, tmp_path, names=names, nested=nested)
    docs = derive(ledger)
    allocation = allocate(docs)
    got, want = _truth(company, ledger, docs, allocation)
    assert got == want
    assert sum(1 for v in want.values() if v) > 100  # a real test: many open items
    assert {r.rule for r in allocation.rules} == {"open items report"}
    assert not allocation.problems


def test_documents_follow_the_quickbooks_types(company, tmp_path) -> None:
    ledger = _read(company, tmp_path, reports=False)
    docs = derive(ledger)
    by_type = {"Invoice": "invoice", "Credit Memo": "credit_note_customer", "Bill": "bill",
               "Credit": "credit_note_vendor"}  # fmt: skip
    want = sum(1 for t in company.history if t.type in by_type)
    assert len(docs.documents) == want
    payments = sum(1 for t in company.history if t.type in ("Payment", "Bill Pmt -Check"))
    assert len(docs.payments) == payments
    for d in docs.documents:
        txn = ledger.transactions[d.transaction]
        assert d.kind == by_type[txn.kind_label]
        assert d.owner == txn.description
        assert sum(ln.amount for ln in d.lines) == d.total
        assert d.source == txn.source
    ids = [(d.owner_kind, d.id) for d in docs.documents]
    assert len(ids) == len(set(ids))  # repeated bill numbers got made-up ones, said in notes
    made_up = [d for d in docs.documents if d.id != d.num]
    assert all("made up" in d.notes for d in made_up)


def test_without_the_report_payments_go_oldest_first_and_owner_balances_hold(
    company, tmp_path
) -> None:
    ledger = _read(company, tmp_path, reports=False)
    docs = derive(ledger)
    allocation = allocate(docs)
    rules = {r.rule for r in allocation.rules}
    assert "oldest first" in rules and "open items report" not in rules
    got, want = _truth(company, ledger, docs, allocation)
    assert got != want  # the generator did not always pay oldest first
    # whatever the allocation, each owner's open balance (each job's its own) is the history's
    owed: dict[tuple[str, str], Decimal] = {}
    for d in docs.documents:
        key = (d.owner_kind, d.owner)
        owed[key] = owed.get(key, D(0)) + (-got[d.transaction] if d.credit else got[d.transaction])
    for p in docs.payments:
        key = (p.owner_kind, p.owner)
        owed[key] = owed.get(key, D(0)) - got[p.transaction]
    assert any(":" in owner for _kind, owner in owed)
    qb = {k: v for k, (v, basis) in quickbooks_open(docs).items()}
    assert {k: v for k, v in owed.items() if v} == {k: v for k, v in qb.items() if v}


def _small(tmp_path: Path, rows: list[str], names: tuple[str, ...] = (), *more: Path):
    """The final ledger of a small IIF company: a chart (Checking, Accounts Receivable, Sales),
    customer Acme (and ``names``), the transactions ``rows``, and ``more`` files."""
    chart = [
        "!ACCNT\tNAME\tACCNTTYPE",
        "ACCNT\tChecking\tBANK",
        "ACCNT\tAccounts Receivable\tAR",
        "ACCNT\tSales\tINC",
        "!CUST\tNAME",
        "CUST\tAcme",
        *names,
    ]
    (tmp_path / "lists.iif").write_text("\r\n".join(chart) + "\r\n")
    (tmp_path / "txns.iif").write_text("\r\n".join(rows) + "\r\n")
    plan = Plan()
    files = [tmp_path / "lists.iif", tmp_path / "txns.iif", *more]
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    assert not prepared.errors, prepared.errors
    return prepared.ledger


def test_a_memo_naming_the_invoice_decides(tmp_path) -> None:
    rows = [
        "!TRNS\tTRNSID\tTRNSTYPE\tDATE\tACCNT\tNAME\tAMOUNT\tDOCNUM\tMEMO\tDUEDATE\tTERMS",
        "!SPL\tSPLID\tTRNSTYPE\tDATE\tACCNT\tNAME\tAMOUNT\tDOCNUM\tMEMO",
        "!ENDTRNS",
        "TRNS\t1\tINVOICE\t1/5/2024\tAccounts Receivable\tAcme\t100.00\t501\t\t2/4/2024\t",
        "SPL\t\tINVOICE\t1/5/2024\tSales\tAcme\t-100.00\t501\tDesign",
        "ENDTRNS",
        "TRNS\t2\tINVOICE\t1/9/2024\tAccounts Receivable\tAcme\t100.00\t502\t\t\t",
        "SPL\t\tINVOICE\t1/9/2024\tSales\tAcme\t-100.00\t502\tPlanting",
        "ENDTRNS",
        "TRNS\t3\tPAYMENT\t1/20/2024\tChecking\tAcme\t60.00\t77\t",
        "SPL\t\tPAYMENT\t1/20/2024\tAccounts Receivable\tAcme\t-60.00\t77\tfor Inv 502",
        "ENDTRNS",
        "TRNS\t4\tPAYMENT\t1/21/2024\tChecking\tAcme\t30.00\t78\t",
        "SPL\t\tPAYMENT\t1/21/2024\tAccounts Receivable\tAcme\t-30.00\t78\t",
        "ENDTRNS",
    ]
    docs = derive(_small(tmp_path, rows))
    first = docs.documents[0]
    assert (first.id, first.due) == ("501", dt.date(2024, 2, 4))  # DUEDATE read
    allocation = allocate(docs)
    steps = [(a.document, a.amount, a.step) for a in allocation.applications]
    assert steps == [(1, D("60.00"), "reference"), (0, D("30.00"), "oldest first")]
    (rule,) = allocation.rules
    assert (rule.owner, rule.rule, rule.note) == (
        "Acme",
        "oldest first",
        "1 reference, 1 oldest first",
    )


def test_open_items_reader_keeps_file_and_line(company, tmp_path) -> None:
    path = company.write_open_invoices_csv(tmp_path / "oi.csv")
    assert readers.identify(path, ReadOptions()) is open_items
    detail = company.write_transaction_detail_csv(tmp_path / "detail.csv")
    assert readers.identify(detail, ReadOptions()) is qbcsv
    ledger = open_items.parse(path, ReadOptions())
    lines = path.read_text().splitlines()
    kinds = ("Invoice", "Credit Memo", "Payment")
    want = {
        t.trans_no
        for t in company.transactions
        if company.open_amounts.get(t.trans_no) and t.type in kinds
    }
    assert {int(i.ref) for i in ledger.open_items} == want
    for item in ledger.open_items:
        assert item.owner_kind == "customer"
        row = lines[item.source.line - 1]
        assert item.kind_label in row and item.owner.split(":")[0].split(",")[0] in row
    total = sum((i.open for i in ledger.open_items), D(0))
    assert f"{total:,.2f}" in lines[-1]  # the TOTAL row
    assert ledger.files[0].kind == "CSV Open Invoices"


def test_a_bad_open_item_is_a_problem_not_a_traceback(tmp_path) -> None:
    path = tmp_path / "ub.csv"
    path.write_text(
        "Company,,,,\nUnpaid Bills Detail,,,,\n,,,,\n,Type,Date,Num,Open Balance\n"
        "PG&E,,,,\n,Bill,2/45/2024,7,12.00\n,Bill,1/2/2024,8,12.50\nTotal PG&E,,,,24.50\n"
    )
    ledger = open_items.parse(path, ReadOptions())
    (item,) = ledger.open_items
    assert (item.owner_kind, item.owner, item.open) == ("vendor", "PG&E", D("12.50"))
    (problem,) = ledger.problems
    assert str(problem).startswith("ub.csv:6: expected a date like M/D/YYYY")


def test_open_items_reader_nested_groups(tmp_path) -> None:
    """A customer's jobs are groups inside its group: their items are the job's (``Customer:
    Job``), a bare job name in the Name column is completed from the group, a Total row closes
    only the group it names, a customer whose name starts with "Total" is a customer."""
    path = tmp_path / "oi.csv"
    path.write_text(
        "Company,,,,,\nOpen Invoices,,,,,\n,,,,,\n,,Type,Date,Name,Open Balance\n"
        '"Cook, Brian",,,,,\n,,Invoice,1/2/2024,"Cook, Brian",10.00\n'
        ",Kitchen,,,,\n,,Invoice,1/3/2024,,20.00\n,,Invoice,1/4/2024,Kitchen,30.00\n"
        ",Total Kitchen,,,,50.00\n"
        ',"Deck, Phase 2",,,,\n,,Credit Memo,1/5/2024,"Cook, Brian:Deck, Phase 2",-5.00\n'
        ',"Total Deck, Phase 2",,,-5.00\n,,Payment,1/6/2024,,-1.00\n'
        '"Total Cook, Brian",,,,54.00\n'
        "Total Lawn Care,,,,\n,,Invoice,1/7/2024,,7.00\nTotal Total Lawn Care,,,,7.00\n"
        "TOTAL,,,,,61.00\n"
    )
    ledger = open_items.parse(path, ReadOptions())
    assert not ledger.problems
    assert [(i.owner, i.open) for i in ledger.open_items] == [
        ("Cook, Brian", D("10.00")),
        ("Cook, Brian:Kitchen", D("20.00")),
        ("Cook, Brian:Kitchen", D("30.00")),
        ("Cook, Brian:Deck, Phase 2", D("-5.00")),
        ("Cook, Brian", D("-1.00")),
        ("Total Lawn Care", D("7.00")),
    ]


def test_a_customers_payment_of_its_jobs_invoices_is_applied_across_them(tmp_path) -> None:
    """One payment of the customer (one A/R line in its name) paid its job's invoice: the
    report cannot be reproduced job by job, so the customer with its jobs is one pool, and each
    owner's open balance is the report's."""
    rows = [
        "!TRNS\tTRNSID\tTRNSTYPE\tDATE\tACCNT\tNAME\tAMOUNT\tDOCNUM",
        "!SPL\tSPLID\tTRNSTYPE\tDATE\tACCNT\tNAME\tAMOUNT\tDOCNUM",
        "!ENDTRNS",
        "TRNS\t1\tINVOICE\t1/5/2024\tAccounts Receivable\tAcme:Deck\t100.00\t501",
        "SPL\t\tINVOICE\t1/5/2024\tSales\tAcme:Deck\t-100.00\t501",
        "ENDTRNS",
        "TRNS\t2\tINVOICE\t1/9/2024\tAccounts Receivable\tAcme\t50.00\t502",
        "SPL\t\tINVOICE\t1/9/2024\tSales\tAcme\t-50.00\t502",
        "ENDTRNS",
        "TRNS\t3\tPAYMENT\t1/20/2024\tChecking\tAcme\t100.00\t77",
        "SPL\t\tPAYMENT\t1/20/2024\tAccounts Receivable\tAcme\t-100.00\t77",
        "ENDTRNS",
    ]
    report = tmp_path / "oi.csv"
    report.write_text(
        "Open Invoices,,,,,\n,,,,,\n,Trans #,Type,Date,Num,Open Balance\n"
        "Acme,,,,,\n,2,Invoice,1/9/2024,502,50.00\nTotal Acme,,,,,50.00\nTOTAL,,,,,50.00\n"
    )
    docs = derive(_small(tmp_path, rows, ("CUST\tAcme:Deck",), report))
    allocation = allocate(docs)
    assert [(a.credit, a.document, a.amount) for a in allocation.applications] == [(2, 0, 100)]
    (rule,) = allocation.rules
    assert (rule.owner, rule.rule) == ("Acme", "open items report")
    assert rule.note.endswith("applied across the jobs of Acme")
    assert not allocation.problems


def test_documents_report_csv(company, tmp_path) -> None:
    ledger = _read(company, tmp_path)
    docs = derive(ledger)
    qb = {k: v for k, (v, _b) in quickbooks_open(docs).items()}
    rows = compare(docs, {**qb, ("vendor", "PG&E"): qb.get(("vendor", "PG&E"), D(0)) + 1})
    text = documents_report(rows)
    assert text.splitlines()[0] == "owner,kind,quickbooks_open,gnucash_open,difference"
    assert [r.owner for r in rows if r.difference] == ["PG&E"]
    assert "PG&E,vendor," in text and text.count(",1.00\n") == 1


def test_generator_documents_are_opt_in() -> None:
    plain = make_company(300, seed=4)
    docs = make_company(300, seed=4, documents=True)
    assert plain.open_amounts == {}
    assert [(t.trans_no, t.date) for t in plain.transactions] == [
        (t.trans_no, t.date) for t in docs.transactions
    ]
    assert plain.transactions != docs.transactions
    assert make_company(300, seed=4).transactions == plain.transactions


def test_a_report_row_goes_to_the_document_of_its_type(tmp_path) -> None:
    """Without Trans #, a report row is joined by owner, date and number: an invoice and a
    payment of one customer with one day and one number (seen at 100,000 transactions in the
    Find export) each get their own row, whichever the report prints first."""
    rows = [
        "!TRNS\tTRNSTYPE\tDATE\tACCNT\tNAME\tAMOUNT\tDOCNUM",
        "!SPL\tTRNSTYPE\tDATE\tACCNT\tNAME\tAMOUNT\tDOCNUM",
        "!ENDTRNS",
        "TRNS\tINVOICE\t1/5/2024\tAccounts Receivable\tAcme\t100.00\t77",
        "SPL\tINVOICE\t1/5/2024\tSales\tAcme\t-100.00\t77",
        "ENDTRNS",
        "TRNS\tPAYMENT\t1/5/2024\tChecking\tAcme\t40.00\t77",
        "SPL\tPAYMENT\t1/5/2024\tAccounts Receivable\tAcme\t-40.00\t77",
        "ENDTRNS",
    ]
    report = tmp_path / "oi.csv"
    report.write_text(
        "Open Invoices,,,,\n,,,,\n,Type,Date,Num,Open Balance\nAcme,,,,\n"
        ",Payment,1/5/2024,77,-40.00\n,Invoice,1/5/2024,77,100.00\nTotal Acme,,,,60.00\n"
    )
    docs = derive(_small(tmp_path, rows, (), report))
    allocation = allocate(docs)
    assert not allocation.problems
    assert allocation.applications == ()
    ((rule),) = allocation.rules
    assert rule.rule == "open items report"
    assert unapplied(docs, allocation) == {1: D("40.00")}
