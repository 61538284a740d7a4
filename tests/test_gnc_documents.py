"""Business documents through the real engine: a generated company's invoices, bills, credit
notes and payments adopted onto the GL the writer wrote, every book reopened and checked against
the generator's truth (each document's open amount, each owner's balance) and against the
GL-only book (every account balance unchanged)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from decimal import Decimal

import pytest

from app import gnc, pipeline
from app.documents import derive
from app.documents.allocate import allocate
from app.documents.proof import compare, documents_report, ok
from app.plan import Plan
from tests.support.companygen import make_company


@pytest.fixture(scope="module")
def company_files(tmp_path_factory):
    company = make_company(3000, seed=11, documents=True)
    folder = tmp_path_factory.mktemp("docs")
    files = [
        company.write_lists_iif(folder / "lists.iif"),
        company.write_transaction_detail_csv(folder / "detail.csv"),
        company.write_open_invoices_csv(folder / "open_invoices.csv"),
        company.write_unpaid_bills_csv(folder / "unpaid_bills.csv"),
    ]
    plan = Plan()
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    assert not prepared.errors
    return company, prepared.ledger, folder


def _write(ledger, path, fmt, docs=None):
    counts: dict[str, int] = {}
    allocation = allocate(docs) if docs is not None else None
    after = None
    if docs is not None:

        def after(w):
            counts.update(gnc.write_documents(w, docs, allocation))

    stats = gnc.write_book(ledger, path, fmt=fmt, after=after)
    return stats, counts


@pytest.mark.parametrize("fmt", ["xml", "sqlite"])
def test_every_document_is_in_gnucash_with_its_open_amount(company_files, tmp_path, fmt) -> None:
    company, ledger, _folder = company_files
    docs = derive(ledger)
    stats, counts = _write(ledger, tmp_path / "docs.gnucash", fmt, docs)
    assert dict(stats.seconds)["documents"] > 0
    _write(ledger, tmp_path / "gl.gnucash", fmt)
    with_docs = gnc.read_book(tmp_path / "docs.gnucash")
    gl_only = gnc.read_book(tmp_path / "gl.gnucash")
    # no amount in any account changed
    assert {a.full_name: a.balance for a in with_docs.accounts} == {
        a.full_name: a.balance for a in gl_only.accounts
    }
    links = counts.get("link", 0)
    assert with_docs.transactions == gl_only.transactions + links

    back = gnc.read_documents(tmp_path / "docs.gnucash")
    assert back.unowned_lots == 0
    got = {(d.kind, d.id): d for d in back.documents}
    open_docs = 0
    for d in docs.documents:
        book = got.pop((d.kind, d.id))
        txn = ledger.transactions[d.transaction]
        truth = company.open_amounts[int(txn.ref)]
        assert (book.owner, book.total, book.open) == (d.owner, d.total, truth), d
        assert book.posted and book.entries == len(d.lines)
        assert book.paid == (truth == 0)
        assert book.due == d.due
        open_docs += truth != 0
    assert not got  # nothing else in the book
    assert open_docs >= 200
    # every customer's and vendor's open balance: the report's
    rows = compare(docs, back.owner_open)
    assert ok(rows), [r for r in rows if r.difference]
    assert {r.basis for r in rows} == {"report"}
    assert len(documents_report(rows).splitlines()) == len(rows) + 1
    assert {k: v for k, v in counts.items() if k not in ("payment", "link")} == {
        k: v for k, v in docs.count().items() if k != "payment"
    }
    assert counts["payment"] == docs.count()["payment"]
    # A/R and A/P: Σ lots = account balance
    ar = next(a.balance for a in with_docs.accounts if a.type == "RECEIVABLE")
    ap = next(a.balance for a in with_docs.accounts if a.type == "PAYABLE")
    customers = sum((v for (k, _o), v in back.owner_open.items() if k == "customer"), Decimal(0))
    vendors = sum((v for (k, _o), v in back.owner_open.items() if k == "vendor"), Decimal(0))
    assert (customers, vendors) == (ar, -ap)


def test_without_the_report_owner_balances_still_hold(company_files, tmp_path) -> None:
    _company, ledger, _folder = company_files
    docs = derive(ledger)
    docs = type(docs)(docs.documents, docs.payments, (), docs.problems)  # no report given
    _write(ledger, tmp_path / "docs.gnucash", "xml", docs)
    back = gnc.read_documents(tmp_path / "docs.gnucash")
    rows = compare(docs, back.owner_open)
    assert ok(rows) and {r.basis for r in rows} == {"history"}


@pytest.fixture(scope="module")
def docs_book(company_files):
    _company, ledger, folder = company_files
    path = folder / "docs.gnucash"
    _write(ledger, path, "xml", derive(ledger))
    return path


@pytest.mark.parametrize("report", ["Receivable Aging", "Payable Aging", "Trial Balance"])
def test_gnucash_reports_run_on_the_book(docs_book, report) -> None:
    path = docs_book
    if shutil.which("gnucash-cli") is None:  # installed with GnuCash: its absence is a failure
        pytest.fail("gnucash-cli is not installed (make setup installs GnuCash)")
    out = subprocess.run(
        ["gnucash-cli", "--report", "run", "--name", report, str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    text = re.sub(r"<[^>]+>", " ", out)
    assert "no suitable transactions" not in text
    assert "Total" in text or "TOTAL" in text.upper()
    if report != "Trial Balance":
        back = gnc.read_documents(path)
        kind = "customer" if report.startswith("Receivable") else "vendor"
        total = sum((v for (k, _o), v in back.owner_open.items() if k == kind), Decimal(0))
        # the report's grand total is the owners' open balance
        assert f"{abs(total):,.2f}" in text, (report, total)


def test_check_and_repair_changes_nothing(docs_book, tmp_path) -> None:
    """GnuCash's Check & Repair (the business scrubber, run on a copy in its own process) finds
    nothing to repair: every account, lot and document is the same afterwards."""
    copy = tmp_path / "copy.gnucash"
    shutil.copy(docs_book, copy)
    out = subprocess.run(
        [sys.executable, "-m", "tests.support.scrub", str(copy)],
        capture_output=True,
        text=True,
        timeout=300,  # 4.13's scrubber loops for ever on a voided payment in a lot
        check=True,
    ).stdout
    seen = json.loads(out)
    before, after = seen["before"], seen["after"]
    assert len(before["documents"]) > 100 and sum(map(len, before["lots"].values())) > 100
    assert seen["progress_calls"] > 0  # the scrubber ran
    for part in ("accounts", "lots", "documents"):
        assert after[part] == before[part], part
