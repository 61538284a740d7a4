"""Invoices, bills and payments through the product's pipeline: the plan's ``documents`` setting,
``pipeline.write`` writing them in the same book as the GL, and the verification's documents
part. Every book is reopened through GnuCash (``gnc.read_book`` / ``gnc.read_documents``) and
checked against the generator's truth and against the GL-only book."""

from __future__ import annotations

import csv
from dataclasses import replace
from decimal import Decimal

import pytest

from app import gnc, pipeline
from app.errors import MappingError
from app.plan import Plan, plan_from_json
from tests.support.companygen import make_company

D = Decimal


def test_plan_documents_default_round_trip_and_old_files() -> None:
    assert Plan().documents == "all"
    plan = replace(Plan(), documents="open")
    assert plan_from_json(plan.to_json()) == plan
    assert plan_from_json('{"currency": "EUR"}').documents == "all"  # a plan saved before
    with pytest.raises(MappingError, match="documents must be one of"):
        plan_from_json('{"documents": "some"}')


@pytest.fixture(scope="module")
def company_files(tmp_path_factory):
    company = make_company(1500, seed=11, documents=True)
    folder = tmp_path_factory.mktemp("pipeline-docs")
    files = [
        company.write_lists_iif(folder / "lists.iif"),
        company.write_transaction_detail_csv(folder / "detail.csv"),
        company.write_open_invoices_csv(folder / "open_invoices.csv"),
        company.write_unpaid_bills_csv(folder / "unpaid_bills.csv"),
    ]
    return company, files


def _convert(files, path, mode: str, fmt: str = "xml"):
    plan = replace(Plan(), documents=mode, format=fmt)  # type: ignore[arg-type]
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    assert not prepared.errors
    return prepared, pipeline.write(prepared, path, plan)


@pytest.fixture(scope="module")
def gl_only(company_files, tmp_path_factory):
    _company, files = company_files
    path = tmp_path_factory.mktemp("gl") / "gl.gnucash"
    prepared, outcome = _convert(files, path, "none")
    assert prepared.documents is None and outcome.report.documents is None
    assert outcome.report.ok
    back = gnc.read_book(path)
    return {a.full_name: a.balance for a in back.accounts}, back


@pytest.mark.parametrize("mode", ["all", "open"])
def test_documents_written_read_back_and_proved(company_files, gl_only, tmp_path, mode) -> None:
    company, files = company_files
    path = tmp_path / "book.gnucash"
    prepared, outcome = _convert(files, path, mode)
    report = outcome.report
    assert report.ok, report.summary_lines()
    assert dict(outcome.stats.seconds)["documents"] > 0
    # every account balance exactly as the GL-only import
    balances, plain = gl_only
    book = gnc.read_book(path, documents=True)
    assert {a.full_name: a.balance for a in book.accounts} == balances
    # each document's open amount is the generator's truth
    back = gnc.read_documents(path)
    assert back.unowned_lots == 0
    assert book.documents == back  # the verification's read (same session as the accounts)
    ledger = prepared.ledger
    truth = {}
    for d in prepared.documents.derived.documents:
        truth[d.kind, d.id] = (
            d.owner,
            company.open_amounts[int(ledger.transactions[d.transaction].ref)],
        )
    got = {(d.kind, d.id): (d.owner, d.open) for d in back.documents}
    if mode == "all":
        assert got == truth
    else:  # only documents still open (and credit notes applied to them, closed or not)
        assert got.items() <= truth.items()
        assert {k for k, (_o, v) in truth.items() if v} <= set(got)
        assert len(got) < len(truth)
        closed = [k for k, (_o, v) in got.items() if not v]
        assert all(k[0].startswith("credit_note") or k in _linked(prepared) for k in closed)
    # the proof: per owner, and the counts
    proof = report.documents
    assert proof is not None and proof.ok and {r.basis for r in proof.rows} == {"report"}
    assert proof.book == {k: v for k, v in proof.expected.items() if k not in ("link", "open")}
    assert proof.book["payment"] == back.payments > 0
    assert book.transactions == plain.transactions + prepared.documents.counts()["link"]
    lines = report.summary_lines()
    docs = sum(v for k, v in proof.book.items() if k != "payment")
    customers = sum(1 for r in proof.rows if r.kind == "customer")
    vendors = sum(1 for r in proof.rows if r.kind == "vendor")
    assert (
        f"{docs:,} invoices and bills, open balances of {customers} "
        f"customers and {vendors} vendors match QuickBooks"
    ) in lines
    assert report.headline() == plain_headline(report)


def _linked(prepared) -> set[tuple[str, str]]:
    by_txn = {d.transaction: d for d in prepared.documents.derived.documents}
    return {
        (by_txn[a.document].kind, by_txn[a.document].id)
        for a in prepared.documents.allocation.applications
        if a.credit in by_txn and a.document in by_txn
    }


def plain_headline(report) -> str:
    n = len(report.rows)
    return f"{n} of {n} accounts match QuickBooks to the cent"


def test_a_report_the_history_cannot_explain_is_a_difference(company_files, tmp_path) -> None:
    """One open invoice 10.00 higher in the Open Invoices report than the history allows: the
    book is written, its accounts match, but that customer's open balance differs and the
    verification says so (and is not ok)."""
    _company, files = company_files
    oi = tmp_path / "open_invoices.csv"
    lines = files[2].read_text().splitlines()
    i = next(i for i, ln in enumerate(lines) if ",Invoice," in ln)
    cells = lines[i].rsplit(",", 1)
    amount = D(cells[1].strip('"').replace(",", ""))
    lines[i] = f'{cells[0]},"{amount + 10:,.2f}"'
    oi.write_text("\n".join(lines) + "\n")
    customer = next(csv.reader([lines[i]]))[5]
    prepared, outcome = _convert([files[0], files[1], oi, files[3]], tmp_path / "b.gnucash", "all")
    assert any("cannot be reproduced" in str(w) for w in prepared.warnings)
    report = outcome.report
    assert not report.differences  # every account still matches
    assert not report.ok
    (row,) = report.documents.differences
    assert (row.kind, row.owner, row.difference) == ("customer", customer.split(":")[0], D(-10))
    assert report.headline().endswith("; 1 customer's open balance differs from QuickBooks")
    assert any(ln.startswith(f"customer {row.owner}: open balance QuickBooks") for ln in
               report.summary_lines())  # fmt: skip


def test_without_lists_the_history_stays_plain_and_is_said(company_files, tmp_path) -> None:
    _company, files = company_files
    plan = Plan()
    prepared = pipeline.prepare(pipeline.read(files[1:2], plan), plan)
    assert prepared.documents is None
    (warning,) = [
        w for w in prepared.warnings if "not in the customer or vendor lists" in w.message
    ]
    assert "stay plain transactions" in warning.message
