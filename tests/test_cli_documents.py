"""``run.py convert`` with invoices, bills and payments, as a user runs it: a subprocess on a
generated company with documents (both open-items reports), XML and SQLite; every book reopened
through GnuCash and checked against the generator's truth and the ``--documents none`` book."""

from __future__ import annotations

import csv
import io
import re
import subprocess
from collections import Counter
from decimal import Decimal as D

import pytest

from app import gnc
from tests.support.cli import convert
from tests.support.companygen import make_company

DOCUMENT_TYPES = {"Invoice": "customer", "Credit Memo": "customer", "Bill": "vendor",
                  "Credit": "vendor"}  # fmt: skip


def balances(path) -> dict[str, D]:
    return {a.full_name: a.balance for a in gnc.read_book(path).accounts}


def truth(generated) -> dict[tuple[str, str], D]:
    """(owner kind, GnuCash document ID) → the generator's open amount: the QuickBooks Num where
    it is unique for the kind, else the ID made up from the Trans # ("QB1234")."""
    docs = [t for t in generated.history if t.type in DOCUMENT_TYPES]
    nums = Counter((DOCUMENT_TYPES[t.type], t.num) for t in docs if t.num)
    out = {}
    for t in docs:
        kind = DOCUMENT_TYPES[t.type]
        ident = t.num if t.num and nums[kind, t.num] == 1 else f"QB{t.trans_no}"
        out[kind, ident] = generated.open_amounts[t.trans_no]
    return out


def owner_kind(kind: str) -> str:
    return "vendor" if kind in ("bill", "credit_note_vendor") else "customer"


@pytest.fixture(scope="module")
def company(tmp_path_factory):
    company = make_company(1200, seed=23, documents=True)
    folder = tmp_path_factory.mktemp("cli-docs")
    files = [
        company.write_lists_iif(folder / "lists.iif"),
        company.write_transaction_detail_csv(folder / "detail.csv"),
        company.write_open_invoices_csv(folder / "open_invoices.csv"),
        company.write_unpaid_bills_csv(folder / "unpaid_bills.csv"),
    ]
    plain = folder / "plain.gnucash"
    run = convert(*files, "-o", plain, "--documents", "none")
    assert run.returncode == 0, run.stderr
    assert "Invoices and bills" not in run.stdout
    return company, files, balances(plain)


@pytest.mark.parametrize("fmt", ["xml", "sqlite"])
def test_convert_writes_and_proves_the_documents(company, tmp_path, fmt) -> None:
    generated, files, plain = company
    book, report = tmp_path / "book.gnucash", tmp_path / "documents.csv"
    run = convert(*files, "-o", book, "--format", fmt, "--documents-report", report)
    assert run.returncode == 0, run.stderr
    out = run.stdout.splitlines()
    # documents in the book, each with the generator's open amount
    back = gnc.read_documents(book)
    want = truth(generated)
    assert {(owner_kind(d.kind), d.id): d.open for d in back.documents} == want
    opened = sum(1 for v in want.values() if v)
    assert gnc.read_book(book, documents=True).documents == back  # the verification's read
    # every account balance as the GL-only book's
    assert balances(book) == plain
    # the summary and the verification say it
    docs = len(back.documents)
    assert f"  Invoices and bills: {docs:,} ({opened:,} open), payments {back.payments:,}" in out
    owners = {(owner_kind(d.kind), d.owner) for d in back.documents}
    customers = sum(1 for k, o in owners if k == "customer" and ":" not in o)
    jobs = sum(1 for _k, o in owners if ":" in o)
    vendors = len(owners) - customers - jobs
    headline = (
        f"  {docs:,} invoices and bills, open balances of {customers} customers, {jobs} jobs "
        f"and {vendors} vendors match QuickBooks"
    )
    assert out[out.index("Verification:") + 2] == headline
    assert f"Documents report written to {report}" in out
    # the documents CSV: one row per owner, every difference 0.00, the GnuCash side read back
    rows = list(csv.DictReader(report.read_text(encoding="utf-8").splitlines()))
    assert len(rows) == customers + jobs + vendors
    assert {r["difference"] for r in rows} == {"0.00"}
    assert {(r["kind"], r["owner"]): D(r["gnucash_open"]) for r in rows} == {
        k: v.quantize(D("0.01")) for k, v in back.owner_open.items()
    }


def test_open_items_only(company, tmp_path) -> None:
    generated, files, plain = company
    book = tmp_path / "open.gnucash"
    run = convert(*files, "-o", book, "--documents", "open", "--strict")
    assert run.returncode == 0, run.stderr
    back = gnc.read_documents(book)
    want = truth(generated)
    got = {(owner_kind(d.kind), d.id): d.open for d in back.documents}
    # every open document, each with its open amount; closed ones only as credit notes applied
    # to an open one (or the documents such a credit note closed)
    assert got.items() <= want.items()
    assert {k for k, v in want.items() if v} <= set(got)
    assert len(got) < len(want)
    line = next(ln for ln in run.stdout.splitlines() if ln.startswith("  Invoices and bills: "))
    assert re.search(
        r"; open items only: [\d,]+ become GnuCash documents with [\d,]+ payments ", line
    )
    assert line.endswith("the others stay plain transactions")
    assert balances(book) == plain
    # GnuCash's own aging report: every A/R line a document's or an owner's, nothing counted as
    # unapplied that is not (a payment half in lots would show as a prepayment)
    aging = subprocess.run(
        ["gnucash-cli", "--report", "run", "--name", "Receivable Aging", str(book)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    owed = sum((v for (k, _o), v in back.owner_open.items() if k == "customer"), D(0))
    assert owed == sum(
        (v for k, v in plain.items() if k == "Accounts Receivable"), D(0)
    )  # the A/R balance
    assert re.search(rf"Total.*?\${owed:,.2f}\s", re.sub(r"<[^>]+>", " ", aging), re.S)


def test_documents_usage_errors(company, tmp_path) -> None:
    _generated, files, _plain = company
    run = convert(*files, "-o", tmp_path / "b.gnucash", "--documents", "some")
    assert run.returncode == 2 and "invalid choice: 'some'" in run.stderr
    run = convert(
        *files, "-o", tmp_path / "b.gnucash", "--documents-report", tmp_path / "no" / "d.csv"
    )
    assert run.returncode == 2 and "for the documents report does not exist" in run.stderr
    assert not (tmp_path / "b.gnucash").exists()


def test_strict_exits_3_when_an_open_balance_differs(company, tmp_path) -> None:
    """The Unpaid Bills report with one bill 25.00 higher than the history allows: the book is
    written, its accounts match, the vendor's open balance differs, --strict exits 3."""
    _generated, files, _plain = company
    rows = files[3].read_text(encoding="utf-8").splitlines()
    i = next(i for i, ln in enumerate(rows) if ",Bill," in ln)
    cells = next(csv.reader([rows[i]]))
    cells[-1] = f"{D(cells[-1].replace(',', '')) + 25:,.2f}"
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(cells)
    rows[i] = out.getvalue()
    bills = tmp_path / "unpaid_bills.csv"
    bills.write_text("\n".join(rows) + "\n", encoding="utf-8")
    report = tmp_path / "documents.csv"
    book = tmp_path / "book.gnucash"
    run = convert(*files[:3], bills, "-o", book, "--strict", "--documents-report", report)
    assert run.returncode == 3, run.stderr
    assert "Verification found differences (--strict)." in run.stderr
    lines = run.stdout.splitlines()
    head = lines[lines.index("Verification:") + 1]
    assert re.fullmatch(
        r"  \d+ of \d+ accounts match QuickBooks to the cent; 1 vendor's open balance differs "
        "from QuickBooks",
        head,
    ), head
    vendor = cells[5] or next(
        r[0] for r in csv.reader(rows[:i][::-1]) if r and r[0] and not r[0].startswith("Total")
    )
    assert f"  vendor {vendor}: open balance QuickBooks " in "\n".join(lines)
    differing = [
        r for r in csv.DictReader(report.read_text().splitlines()) if r["difference"] != "0.00"
    ]
    assert [(r["owner"], r["difference"]) for r in differing] == [(vendor, "-25.00")]
    assert book.is_file()
