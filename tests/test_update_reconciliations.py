"""QuickBooks' later reconciliations in an update (docs/UPDATE.md, "Reconciliations"), through
``run.py convert --update`` and the real engine: the March book carries QuickBooks' last
reconciliation of Checking then; by June QuickBooks has reconciled Checking again, three lines
of March among those it cleared. The update sets June's statement date, reconciles those three
lines and the new ones on it, and the proof compares June's statement (it would differ without).
A reconciliation the user made in GnuCash between the runs is the book's: left as it is, not
compared with QuickBooks' statement, and said."""

from __future__ import annotations

import copy
import datetime as dt
from dataclasses import replace
from pathlib import Path

import pytest

from app.model import money
from tests.support.cli import convert
from tests.support.companygen import Company
from tests.support.companygen_later import Later, later_company

ACCOUNT = "Checking"
SINCE = 3  # lines of March that QuickBooks reconciles after the March export


@pytest.fixture(scope="module")
def later() -> Later:
    """The later company, its March export with the last ``SINCE`` lines of Checking it had
    reconciled (✓) not yet reconciled then (QuickBooks reconciled them after the export; a
    voided check's line is none of them: voided lines are marked so)."""
    whole = later_company(300, seed=8)
    first = copy.deepcopy(whole.first)
    skip = {whole.edited[1].trans_no, whole.deleted.trans_no}
    marked = [
        t
        for t in first.transactions
        if t.trans_no not in skip
        and any(a == ACCOUNT and c == "✓" and v for a, v, _m, c in t.splits)
    ]
    for t in sorted(marked, key=lambda t: t.date)[-SINCE:]:
        t.splits = [(a, v, m, "" if a == ACCOUNT else c) for a, v, m, c in t.splits]
    return replace(whole, first=first)


def _exports(company: Company, folder: Path) -> tuple[list[Path], object]:
    folder.mkdir(parents=True, exist_ok=True)
    statement = company.statement(ACCOUNT)
    files = [
        company.write_lists_iif(folder / "lists.iif"),
        company.write_transaction_detail_csv(folder / "detail.csv"),
        company.write_open_invoices_csv(folder / "open_invoices.csv"),
        company.write_unpaid_bills_csv(folder / "unpaid_bills.csv"),
        company.write_reconciliation_csv(folder / "reconciliation.csv", [statement]),
    ]
    return files, statement


@pytest.fixture(scope="module")
def books(later: Later, tmp_path_factory) -> dict[str, object]:
    tmp = tmp_path_factory.mktemp("update-reconciliations")
    march, first = _exports(later.first, tmp / "march")
    june, second = _exports(later.second, tmp / "june")
    assert first.date < second.date  # (the generator's: QuickBooks reconciled again by June)
    out: dict[str, object] = {"june": june, "first": first, "second": second}
    for fmt in ("xml", "sqlite"):
        book = tmp / f"march-{fmt}.gnucash"
        done = convert(*march, "-o", book, "--format", fmt)
        assert done.returncode == 0, done.stdout + done.stderr
        out[fmt] = book
    return out


def _decided(later: Later) -> tuple[str, ...]:
    """QuickBooks' changes to March decided (the edited and the deleted check taken)."""
    return (
        *("--take-quickbooks", f"ref:{later.edited[1].trans_no}"),
        *("--take-quickbooks", f"ref:{later.deleted.trans_no}"),
        *("--keep-book", "account:6800"),
    )


@pytest.mark.parametrize("fmt", ["xml", "sqlite"])
def test_quickbooks_later_reconciliation_is_carried_and_proven(books, later, tmp_path, fmt) -> None:
    from app.gnc import read_book

    book = tmp_path / "book.gnucash"
    book.write_bytes(books[fmt].read_bytes())
    first, second = books["first"], books["second"]
    assert read_book(book).reconciled[0].last_date == first.date
    done = convert(*books["june"], "--update", book, *_decided(later))
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert (
        f"QuickBooks' reconciliation of {ACCOUNT} on {second.date} carried into the book (its "
        f"last reconcile date; {SINCE} lines reconciled since)" in out
    ), out
    assert "DIFFERS" not in out and out.endswith(f"Book brought up to date: {book}\n"), out
    assert "Reconciliations: the last reconcile date of 1 account" in out
    assert "Reconcile marks not compared" not in out  # the three lines: reconciled as QuickBooks

    snap = read_book(book, transactions=True)  # the engine reopened
    (got,) = snap.reconciled
    assert (got.account, got.last_date, got.balance) == (ACCOUNT, second.date, second.balance)
    book_marks = sum(
        1
        for t in snap.transaction_list
        for s in t.splits
        if s.account == ACCOUNT and s.reconcile == "y"
    )
    quickbooks = sum(
        1
        for t in later.second.transactions
        if not any(m.startswith("VOID:") for _a, _v, m, _c in t.splits)  # (voided: "v")
        for a, _v, _m, c in t.splits
        if a == ACCOUNT and c == "✓"
    )
    assert book_marks == quickbooks  # the three of March among them

    again = convert(*books["june"], "--update", book)  # nothing later: nothing carried
    assert again.returncode == 0, again.stderr
    assert "0 transactions added" in again.stdout and "carried" not in again.stdout
    assert "DIFFERS" not in again.stdout, again.stdout
    assert read_book(book).reconciled == snap.reconciled


def test_a_reconciliation_made_in_gnucash_is_the_book_s(books, later, tmp_path) -> None:
    from app.gnc import read_book
    from tests.support import gnucash_edits as gc

    book = tmp_path / "book.gnucash"
    book.write_bytes(books["xml"].read_bytes())
    first, second = books["first"], books["second"]
    day = first.date + dt.timedelta(days=30)  # the user's statement, reconciled in GnuCash
    with gc.editing(book) as b:
        assert gc.reconcile(b, ACCOUNT, 2, day) == 2
    done = convert(*books["june"], "--update", book, *_decided(later))
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    said = (
        "Reconciliations made in GnuCash since the last run, kept and not compared with "
        f"QuickBooks' statements: {ACCOUNT}: reconciled in GnuCash to {day} (QuickBooks' last "
        f"statement: {second.date})"
    )
    assert said in out, out
    assert "carried" not in out
    assert "Reconciliation of" not in out  # QuickBooks' statement not compared
    assert "DIFFERS" not in out, out
    (got,) = read_book(book).reconciled  # the engine reopened: the user's date kept
    assert (got.account, got.last_date) == (ACCOUNT, day)


def test_a_reconciliation_that_differs_by_a_held_change_says_so(books, later, tmp_path) -> None:
    """QuickBooks deleted a reconciled check after March and edited another; held (not
    decided), the book keeps both as they were: June's statement differs by them, with that
    cause."""
    deleted = [(a, v, c) for a, v, _m, c in later.deleted.splits if a == ACCOUNT]
    assert deleted and deleted[0][2] == "✓"  # (the generator's: a reconciled check)
    book = tmp_path / "book.gnucash"
    book.write_bytes(books["xml"].read_bytes())
    done = convert(*books["june"], "--update", book)
    assert done.returncode == 0, done.stdout + done.stderr
    second = books["second"]
    line = next(x for x in done.stdout.splitlines() if x.strip().startswith("Reconciliation of"))
    (was, now) = (
        next(v for a, v, _m, c in t.splits if a == ACCOUNT and c == "✓") for t in later.edited
    )
    # the deleted check still reconciled, and the edited one as March had it (both held)
    book_balance = second.balance + deleted[0][1] + was - now
    assert line.strip() == (
        f"Reconciliation of {ACCOUNT} (statement of {second.date}): the statement's ending "
        f"balance {money(second.balance)}; the book: last reconciled {second.date}, reconciled "
        f"balance {money(book_balance)} — DIFFERS. Probable cause: a change since the last run: "
        "held from QuickBooks, or made in GnuCash (listed above)"
    )
