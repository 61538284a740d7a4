"""``run.py convert --update BOOK FILE...`` as a user runs it (a real process, real files, the real
engine): a March book brought up to date with June's exports and proven, then the same again
(nothing added), and each refusal: one clear message, exit status 1 or 2, the book as it was and
nothing left beside it."""

from __future__ import annotations

import csv
import datetime as dt
import json
import shutil
import sqlite3
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest

from tests.support.cli import convert
from tests.support.companygen_later import Later, exports, later_company
from tests.support.exports_edit import bill_left_out


@pytest.fixture(scope="module")
def later() -> Later:
    return later_company(300, seed=8)


def _rows(path: Path) -> list[str]:
    """What a book holds, but for GnuCash's lock table (SQLite) or byte for byte (XML)."""
    data = path.read_bytes()
    if not data.startswith(b"SQLite"):
        return [data.hex()]
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "b.sqlite"
        copy.write_bytes(data)
        db = sqlite3.connect(copy)
        try:
            return [line for line in db.iterdump() if "gnclock" not in line]
        finally:
            db.close()


@pytest.fixture(scope="module")
def books(later: Later, tmp_path_factory) -> dict[str, Path]:
    """A March book (SQLite) and June's exports, and a June book for the older-exports case."""
    tmp = tmp_path_factory.mktemp("cli-update")
    march = exports(later.first, tmp / "march")
    book = tmp / "march.gnucash"
    done = convert(*march, "-o", book, "--format", "sqlite")
    assert done.returncode == 0, done.stderr
    june_book = tmp / "june.gnucash"
    june = exports(later.second, tmp / "june")
    assert convert(*june, "-o", june_book).returncode == 0
    return {"book": book, "june": tmp / "june", "march": tmp / "march", "june_book": june_book}


def _refused(book: Path, *args: object, code: int = 1) -> str:
    before, names = _rows(book), sorted(p.name for p in book.parent.iterdir())
    done = convert(*args)
    assert done.returncode == code, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    assert _rows(book) == before
    assert sorted(p.name for p in book.parent.iterdir()) == names  # no copy, backup or lock
    return done.stderr


def test_update_from_the_command_line_proves_and_is_idempotent(books, later: Later, tmp_path):
    book = tmp_path / "book.gnucash"
    book.write_bytes(books["book"].read_bytes())
    june = sorted(books["june"].iterdir())
    report = tmp_path / "proof.csv"
    done = convert(*june, "--update", book, "--report", report)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"{len(later.added)} transactions added" in out
    assert "2 changes in QuickBooks held (not applied)" in out
    assert "journal.csv:" in out and "edited in QuickBooks" in out
    assert "no longer in QuickBooks' exports" in out
    assert "differs from QuickBooks by exactly the 2 changes held" in out
    assert list(tmp_path.glob("book.before-update-*.gnucash"))
    text = report.with_name("proof.delta.csv").read_text(encoding="utf-8")
    delta = list(csv.reader(text.splitlines()))
    assert delta[0][:3] == ["account", "added_by_this_run", "quickbooks_movement"]
    rows = {r[0]: r for r in delta[1:]}
    assert rows[later.new_account][1] == rows[later.new_account][2] == "480.00"
    assert "(decide each held change, then update again)" in out
    again = convert(*june, "--update", book)
    assert again.returncode == 0, again.stderr
    assert "0 transactions added" in again.stdout and "nothing added" in again.stdout
    # nothing written, no proof run: the verdict still says the book is not QuickBooks'
    assert again.stdout.rstrip().endswith(
        "is up to date: nothing added; it still differs from QuickBooks by the 2 changes held "
        "above; 1 name QuickBooks changed is held above too (decide each held change, then "
        "update again)"
    )  # (the account QuickBooks renamed: said, though it changes no figure)
    assert "Traceback" not in again.stderr
    # the edited check decided: QuickBooks' version taken, by the key printed beside it
    edited = next(line for line in out.splitlines() if "edited in QuickBooks" in line)
    key = edited.split("[", 1)[1].split("]", 1)[0]
    taken = convert(*june, "--update", book, "--take-quickbooks", key)
    assert taken.returncode == 0, taken.stderr
    assert "Taken from QuickBooks (the plan)" in taken.stdout
    assert "1 change in QuickBooks held" in taken.stdout
    # taken: counted as replaced, not as added
    assert "0 transactions added, " in taken.stdout and "1 replaced by QuickBooks' version" in (
        taken.stdout
    )
    # the other kept as the book has it: counted as decided, and nothing left to decide
    gone = next(line for line in taken.stdout.splitlines() if line.startswith("Held ["))
    kept = convert(*june, "--update", book, "--keep-book", gone.split("[")[1].split("]")[0])
    assert kept.returncode == 0, kept.stderr
    assert "1 change (1 kept as the book has it (the plan), 0 to decide) in QuickBooks" in (
        kept.stdout
    )
    assert "decide each" not in kept.stdout
    bad = convert(*june, "--update", book, "--keep-book", "  ")
    assert bad.returncode == 2 and "expected a key" in bad.stderr
    # (a class's or a budget's key holds spaces: one no change has is said as such)
    bad = convert(*june, "--update", book, "--keep-book", "two words")
    assert bad.returncode == 1 and "no change held in this update has the key “two words”" in (
        bad.stderr
    )


def test_an_update_with_nothing_new_proves_the_book_again(books, tmp_path):
    """An update with nothing to add still reads the book back and proves it: a book whose
    last proof differed (here its conversion's: a bill the Unpaid Bills report leaves out) is
    never called up to date, and ``--strict`` exits 3 (it said "up to date", exit 0: hunt 11b)."""
    march = tmp_path / "march"
    shutil.copytree(books["march"], march)
    vendor = bill_left_out(march / "unpaid_bills.csv")
    files = sorted(march.iterdir())
    book = tmp_path / "book.gnucash"
    first = convert(*files, "-o", book)
    assert first.returncode == 0, first.stderr
    assert f"vendor {vendor}: open balance QuickBooks" in first.stdout
    before = _rows(book)
    again = convert(*files, "--update", book, "--strict")
    assert again.returncode == 3, (again.stdout, again.stderr)
    out = again.stdout
    assert "0 transactions added" in out and "The book was not changed" in out
    assert "is up to date" not in out
    said = f"{book} has nothing to add. Needs your attention: QuickBooks' A/P "  # (hunt 19:
    assert said in out and "disagree; open items of 1 vendor differ" in out  # the report short)
    assert f"vendor {vendor}: open balance QuickBooks" in out
    assert "Verification found differences (--strict)." in again.stderr
    assert _rows(book) == before and not list(tmp_path.glob("book.before-update-*"))
    # the same files, the book matching: up to date, exit 0 with --strict
    whole = sorted(books["march"].iterdir())
    fine = tmp_path / "fine.gnucash"
    assert convert(*whole, "-o", fine).returncode == 0
    same = convert(*whole, "--update", fine, "--strict")
    assert same.returncode == 0, (same.stdout, same.stderr)
    assert same.stdout.rstrip().endswith(f"{fine} is up to date: nothing added")


def test_a_book_not_written_by_qb2gnucash_is_refused(books, tmp_path):
    from app.gnc.bindings import C, GncAccount, Session, SessionOpenMode

    book = tmp_path / "theirs.gnucash"  # a book made in GnuCash: one bank account
    s = Session()
    s.begin("xml://" + str(book), SessionOpenMode.SESSION_NEW_STORE)
    try:
        a = GncAccount(s.book)
        a.SetName("Checking")
        a.SetType(C.ACCT_TYPE_BANK)
        a.SetCommodity(s.book.get_table().lookup("CURRENCY", "USD"))
        s.book.get_root_account().append_child(a)
        s.save()
    finally:
        s.end()
    for extra in tmp_path.glob("theirs.gnucash.*"):  # (the journal this session kept)
        extra.unlink()
    said = _refused(book, *sorted(books["june"].iterdir()), "--update", book)
    assert "was not written by qb2gnucash" in said and "-o" in said


def test_a_file_that_is_no_whole_book_is_refused_and_left_as_it_was(books, tmp_path):
    """An SQLite database of the user's own was refused as "not written by qb2gnucash" after
    GnuCash had added its 25 tables to it; a book cut short and an empty file were called "not
    written by qb2gnucash" too (hunt 20). Each is said for what it is, and left untouched."""
    june = sorted(books["june"].iterdir())
    theirs = tmp_path / "clients.sqlite"
    db = sqlite3.connect(theirs)
    db.execute("CREATE TABLE clients(name)")
    db.commit()
    db.close()
    cut = tmp_path / "cut.gnucash"
    cut.write_bytes(books["june_book"].read_bytes()[:15000])
    empty = tmp_path / "empty.gnucash"
    empty.write_bytes(b"")
    for book, said in (
        (theirs, "is an SQLite database, but not a GnuCash book (it has none of GnuCash's tables)"),
        (cut, "is cut short or damaged (its compressed data stops early or is broken)"),
        (empty, "is empty, not a GnuCash book"),
    ):
        before = book.read_bytes()
        err = _refused(book, *june, "--update", book)
        assert f"Book not updated: {book.name} {said}: give the book qb2gnucash wrote" in err, err
        assert book.read_bytes() == before
        assert "ERROR" not in err and "WARN" not in err, err


def test_an_update_s_report_on_an_export_or_the_book_is_refused(books):
    """``--report`` naming an export being read, or the book itself, was written over it (hunt
    20): refused before anything is read, exit 2."""
    june = sorted(books["june"].iterdir())
    before = june[0].read_bytes()
    said = _refused(books["book"], *june, "--update", books["book"], "--report", june[0], code=2)
    assert f"the report {june[0]} would replace the input file {june[0]}" in said
    assert june[0].read_bytes() == before
    said = _refused(
        books["book"], *june, "--update", books["book"], "--report", books["book"], code=2
    )
    assert f"the report {books['book']} would replace the book to update" in said


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        (("--documents", "none"), "with --documents all, and an update writes in the book's own"),
        (("--sales-tax", "lines"), "with --sales-tax tables, and an update"),
        (("--classes", "accounts"), "with --classes memo, and an update"),
        (("--currency", "EUR"), "with --currency USD, and an update"),
        (("--reparent",), "without --reparent, and an update"),
        # (hunt 22: a second opening over the history the book holds, the book replaced)
        (("--opening-balances",), "without --opening-balances, and an update"),
        (("--ytd-to-retained",), "without --ytd-to-retained, and an update"),
    ],
)
def test_an_update_in_another_mode_than_the_book_s_is_refused(books, tmp_path, asked, said):
    """The book's mode is the book's: asked for another, new invoices were written as plain
    transactions beside its documents (its paid ones left open, exit 0 with --strict), plain
    tax lines beside its tax tables (hunt 10). Refused, nothing written, with what to do."""
    book = tmp_path / "book.gnucash"
    book.write_bytes(books["book"].read_bytes())
    june = sorted(books["june"].iterdir())
    out = _refused(book, *june, "--update", book, *asked, "--strict")
    assert f"Book not updated: book.gnucash was written {said}" in out, out
    assert out.rstrip().endswith("or convert the exports into a new book (-o) to change it"), out


def test_an_update_with_a_plan_changing_the_accounts_is_refused(books, tmp_path):
    """A plan file with other renames or merges than the book's: it added an account beside the
    book's with the same number and held every transaction of it as "edited in QuickBooks",
    exit 0 (hunt 15). Refused, nothing written; the book's own plan file is accepted."""
    book = tmp_path / "book.gnucash"
    book.write_bytes(books["book"].read_bytes())
    june = sorted(books["june"].iterdir())
    plan = tmp_path / "plan.json"
    plan.write_text(
        json.dumps({"rules": [{"kind": "rename", "account": "Checking", "target": "Main"}]}),
        encoding="utf-8",
    )
    out = _refused(book, *june, "--update", book, "--plan", plan, "--strict")
    assert "Book not updated: the plan file given (--plan) changes book.gnucash's accounts" in out
    plan.write_text("{}", encoding="utf-8")  # (the book's: written with no rules)
    done = convert(*june, "--update", book, "--plan", plan)
    assert done.returncode == 0 and "Book brought up to date" in done.stdout, done.stderr


def test_older_exports_another_company_and_a_locked_book_are_refused(books, later, tmp_path):
    june_book = books["june_book"]
    said = _refused(june_book, *sorted(books["march"].iterdir()), "--update", june_book)
    assert "older than" in said and "export again" in said
    other = exports(replace(later.second, name="Other Landscaping Co"), tmp_path / "other")
    said = _refused(june_book, *other, "--update", june_book)
    assert "Other Landscaping Co" in said and "own company" in said
    lock = june_book.with_name(june_book.name + ".LCK")
    lock.write_text("")
    try:
        said = _refused(june_book, *sorted(books["june"].iterdir()), "--update", june_book)
        assert "has the book open" in said
    finally:
        lock.unlink()


def test_bad_exports_and_usage_are_refused(books, tmp_path):
    book = books["june_book"]
    broken = tmp_path / "journal.csv"
    broken.write_text("not,a,report\n1,2,3\n", encoding="utf-8")
    said = _refused(book, broken, "--update", book)
    assert "Book not updated" in said and "journal.csv" in said
    # the lists alone: every transaction would seem gone (it said each was edited in GnuCash,
    # exit 3, since a run adding nothing proves the book: hunt 14)
    said = _refused(book, books["june"] / "lists.iif", "--update", book, "--strict")
    assert "these exports hold no transactions, and june.gnucash holds QuickBooks' history" in (
        said
    )
    june = sorted(books["june"].iterdir())
    said = _refused(book, *june, "--update", book, "-o", tmp_path / "x.gnucash", code=2)
    assert "-o does not go with --update" in said
    said = _refused(book, *june, code=2)
    assert "required: -o" in said and "--update BOOK" in said
    # a book in PostgreSQL: its address checked before anything is read (tests/test_postgres_
    # update.py brings one up to date)
    done = convert(*june, "--update", "postgres://someone@localhost/Bad%20Name")
    assert done.returncode == 2 and "give the database name" in done.stderr
    missing = tmp_path / "none.gnucash"
    done = convert(*june, "--update", missing)
    assert done.returncode == 2 and "no book at" in done.stderr and not missing.exists()
    # the reports a first conversion writes are not made by an update: said, not ignored
    for flag in ("--tax-report", "--documents-report", "--item-catalogue"):
        said = _refused(book, *june, "--update", book, flag, tmp_path / "r.csv", code=2)
        assert f"{flag} does not go with --update: an update writes the proof" in said


def test_a_decision_on_a_key_no_change_has_is_refused(books, tmp_path):
    """A mistyped key, or one of a transaction edited in GnuCash alone (not held), refuses the
    run with the book untouched; it was accepted without a word and stored in the plan."""
    book = tmp_path / "book.gnucash"
    book.write_bytes(books["book"].read_bytes())
    june = sorted(books["june"].iterdir())
    said = _refused(book, *june, "--update", book, "--take-quickbooks", "ref:999999")
    assert "no change held in this update has the key “ref:999999”" in said
    said = _refused(book, *june, "--update", book, "--keep-book", "229", "--keep-book", "x:1")
    assert "the key “229”, “x:1”: use a key as the update printed it" in said


def test_a_split_history_is_refused(books, later: Later, tmp_path):
    """A working book and its archive (``--split-at``) are not brought up to date yet: the
    stored plan's split day refuses the update with the books untouched, and the split options
    do not go with ``--update``."""
    march = sorted(books["march"].iterdir())
    work, archive = tmp_path / "work" / "w.gnucash", tmp_path / "archive" / "a.gnucash"
    work.parent.mkdir()
    archive.parent.mkdir()
    day = (later.cut.replace(day=1) - dt.timedelta(days=40)).replace(day=1).isoformat()
    done = convert(*march, "-o", work, "--split-at", day, "--archive", archive)
    assert done.returncode == 0, done.stderr
    june = sorted(books["june"].iterdir())
    for book in (work, archive):
        said = _refused(book, *june, "--update", book)
        assert f"split at {day}" in said and "--split-at" in said, said
    said = _refused(work, *june, "--update", work, "--split-at", day, code=2)
    assert "--split-at does not go with --update" in said


def test_what_was_done_in_gnucash_is_said_with_each_check_that_differs(books, later, tmp_path):
    """Between runs the user makes a customer and a bank account in GnuCash, enters a payment
    after QuickBooks' last transaction without balancing it (GnuCash balances it itself, into
    Imbalance-USD) and reconciles lines: what was made in GnuCash alone is said, not compared;
    the Imbalance account GnuCash made still differs, with its cause and what to do."""
    from tests.support.gnucash_edits import add_account, add_customer, editing, enter, reconcile

    book = tmp_path / "book.gnucash"
    book.write_bytes(books["book"].read_bytes())
    day = max(t.date for t in later.second.transactions) + dt.timedelta(days=5)
    with editing(book) as b:
        add_customer(b, "Walk-in")
        add_account(b, "Petty Cash")
        enter(b, day, [("Checking", -5000), ("Rent", 4000)])
        assert reconcile(b, "Savings", 3) == 3
    done = convert(*sorted(books["june"].iterdir()), "--update", book)
    assert done.returncode == 0, done.stderr
    lines = {
        line.split(":")[0].strip(): line for line in done.stdout.splitlines() if "DIFFERS" in line
    }
    since = "in GnuCash since qb2gnucash last wrote the book"
    assert lines["accounts"].endswith(
        "— DIFFERS (in the book only: Imbalance-USD). Probable cause: GnuCash made Imbalance-USD "
        "itself (see the check of Imbalance and Orphan accounts). What to do: in GnuCash, open "
        "Imbalance-USD on the Accounts tab: each line there belongs to a transaction to correct "
        "(give its amount the right account); then delete the empty account (Edit › Delete "
        "Account)."
    )
    assert (
        f"such a transaction was entered or changed {since}. What to do: in GnuCash, open "
        in (
            lines[
                "Imbalance and Orphan accounts (where GnuCash puts what it cannot place; "
                "none expected)"
            ]
        )
    )
    # what the user made there alone: not compared, said
    assert {"customers", "last transaction date", "transaction lines reconciled"}.isdisjoint(lines)
    assert (
        f"Made in GnuCash, not compared: 1 transaction (last {day}), account Petty Cash, customer "
        "Walk-in." in done.stdout
    )
    assert "Reconcile marks not compared: the book marks 3 lines of QuickBooks'" in done.stdout
    # the accounts the headline leaves out, each for what it is: GnuCash's own, the user's
    assert (
        "Not counted above, GnuCash's own accounts for amounts it could not place: "
        "Imbalance-USD\n" in done.stdout
    )
    assert "Not counted above, in the book only (not in QuickBooks' files): Petty Cash\n" in (
        done.stdout
    )
    assert "made by GnuCash" not in done.stdout
    assert "please report" not in done.stdout
    assert f"Book brought up to date: {book}. Needs your attention: " in done.stdout
    assert " accounts differ; 5 other checks differ:" in done.stdout  # (with the held changes)


def test_an_update_is_proven_with_what_was_made_in_gnucash_alone_said(books, later, tmp_path):
    """The parallel run as it goes: between runs the user makes in GnuCash an account, a
    customer, a job of one of QuickBooks' customers, a vendor, an employee and a billing term,
    enters three transactions after QuickBooks' last and reconciles lines; QuickBooks' changes
    are decided. The update is proven (every count and date of QuickBooks' matches), each thing
    made in GnuCash alone named and counted."""
    from tests.support import gnucash_edits as gc

    book = tmp_path / "book.gnucash"
    book.write_bytes(books["book"].read_bytes())
    last = max(t.date for t in later.second.transactions)
    with gc.editing(book) as b:
        gc.add_account(b, "Petty Cash")
        gc.add_customer(b, "Walk-in")
        gc.add_job(b, "Heldt, Bob", "Fence")
        gc.add_vendor(b, "Corner Hardware")
        gc.add_employee(b, "Sam Temp")
        gc.add_term(b, "Net 7")
        for n in (1, 3, 5):
            gc.enter(b, last + dt.timedelta(days=n), [("Checking", -2000), ("Petty Cash", 2000)])
        assert gc.reconcile(b, "Savings", 3) == 3
    decided = (
        *("--take-quickbooks", f"ref:{later.edited[1].trans_no}"),
        *("--take-quickbooks", f"ref:{later.deleted.trans_no}"),
        *("--keep-book", "account:6800"),
    )
    done = convert(*sorted(books["june"].iterdir()), "--update", book, *decided)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # never called matching: the book holds what QuickBooks does not (said, with its effect)
    assert out.endswith(
        f"Book brought up to date: {book}. QuickBooks' transactions are in it to the cent; it "
        "differs from QuickBooks by the 3 transactions made in GnuCash alone (Checking credited "
        "60.00; Petty Cash debited 60.00), kept as the book's\n"
    ), out
    assert "DIFFERS" not in out and " accounts match QuickBooks to the cent" in out
    assert f"last transaction date: QuickBooks {last}, GnuCash {last} — ok" in out
    assert "transaction lines reconciled: QuickBooks 3, GnuCash 3 — ok" in out
    assert (
        f"Made in GnuCash, not compared: 3 transactions (last {last + dt.timedelta(days=5)}), "
        "account Petty Cash, customer Walk-in, job Heldt, Bob:Fence, vendor Corner Hardware, "
        "employee Sam Temp, billing term Net 7." in out
    )
    assert (
        "Reconcile marks not compared: the book marks 3 lines of QuickBooks' transactions "
        "otherwise than its exports do" in out
    )
    again = convert(*sorted(books["june"].iterdir()), "--update", book)
    assert again.returncode == 0 and "0 transactions added" in again.stdout, again.stderr
    strict = book.with_name("strict.gnucash")
    strict.write_bytes(book.read_bytes())
    with gc.editing(strict) as b:  # one more made in GnuCash; nothing new from QuickBooks
        gc.enter(b, last + dt.timedelta(days=6), [("Checking", -100), ("Petty Cash", 100)])
    done = convert(*sorted(books["june"].iterdir()), "--update", strict, "--strict")
    assert done.returncode == 3, done.stdout + done.stderr  # (it differs: exit 0 before)
    assert done.stdout.rstrip().endswith(
        "nothing added; it still differs from QuickBooks by the 4 transactions made in GnuCash "
        "alone (Checking credited 61.00; Petty Cash debited 61.00)"
    ), done.stdout


@pytest.mark.parametrize("fmt", ["sqlite", "xml"])
def test_customers_vendors_and_jobs_renamed_in_gnucash_stay_quickbooks_own(
    books, later, tmp_path, fmt
):
    """Between runs the user renames in GnuCash a customer and a vendor whose March invoice and
    bill June's exports pay, and a job: the update adds none of them again, June's payments go
    to the renamed ones and close March's documents, the update is proven under QuickBooks'
    names with the renames said; the next update finds nothing new."""
    from app import gnc
    from tests.support import gnucash_edits as gc

    book = tmp_path / "book.gnucash"
    if fmt == "sqlite":
        book.write_bytes(books["book"].read_bytes())
    else:
        assert convert(*sorted(books["march"].iterdir()), "-o", book).returncode == 0
    paid = [t for t in later.first.transactions if t.trans_no in later.paid_later]
    customer = next(t.name for t in paid if t.type == "Invoice" and ":" not in t.name)
    vendor = next(t.name for t in paid if t.type == "Bill")
    before = gnc.read_book(book)
    job = next(f"{c.name}:{c.jobs[0]}" for c in before.customers if c.jobs)
    with gc.editing(book) as b:
        owners = gc.owner_names.owners(b)
        for kind, name, now in (
            ("customer", customer, f"{customer} (renamed)"),
            ("vendor", vendor, f"{vendor} (renamed)"),
            ("customer", job, "Job renamed"),
        ):
            o = owners[kind, name]
            o.BeginEdit()
            o.SetName(now)
            o.CommitEdit()
    done = convert(
        *sorted(books["june"].iterdir()),
        "--update",
        book,
        *("--take-quickbooks", f"ref:{later.edited[1].trans_no}"),
        *("--take-quickbooks", f"ref:{later.deleted.trans_no}"),
        *("--keep-book", "account:6800"),
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "DIFFERS" not in out and " accounts match QuickBooks to the cent" in out, out
    new = next(line for line in out.splitlines() if line.startswith("New customers, vendors and"))
    assert customer not in new and vendor not in new and job not in new, new
    assert (
        f"Renamed in GnuCash, compared under QuickBooks' name: customer {customer} (now "
        f"{customer} (renamed)), job {job} (now Job renamed), vendor {vendor} (now {vendor} "
        "(renamed))." in out
    )
    snap = gnc.read_book(book, documents=True)
    by_name = {o.name: o for o in snap.customers}
    assert by_name[customer].here == f"{customer} (renamed)"
    assert len(snap.customers) == len(before.customers) + 1  # June's one new customer alone
    assert len(snap.vendors) == len(before.vendors)
    assert {o.name: o.here for o in snap.vendors}[vendor] == f"{vendor} (renamed)"
    assert snap.documents is not None
    docs = {(d.id, d.owner): d for d in snap.documents.documents}
    assert all(docs[t.num, t.name].paid for t in paid), [t.name for t in paid]
    again = convert(*sorted(books["june"].iterdir()), "--update", book)
    assert again.returncode == 0 and "0 transactions added" in again.stdout, again.stderr
    assert "New customers" not in again.stdout


def test_an_invoice_held_as_edited_in_quickbooks_is_its_customer_s_cause(later, tmp_path):
    """An open invoice of March's book that QuickBooks raised by 10.00 since: held, and its
    customer's open balance differs by it. That customer's row says the held change is why
    and what to do, as the accounts' rows do; it said the report and the files disagree, with
    the report to export again (hunt 10)."""
    from dataclasses import replace as copied

    first = {t.trans_no for t in later.first.transactions}
    invoice = next(
        t
        for t in later.second.transactions
        if t.type == "Invoice" and t.trans_no in first
        and later.first.open_amounts.get(t.trans_no) == later.second.open_amounts.get(t.trans_no)
        and later.second.open_amounts.get(t.trans_no)
    )  # fmt: skip
    ar, income = invoice.splits[0], invoice.splits[1]
    raised = copied(invoice, splits=[
        (ar[0], ar[1] + 10, *ar[2:]), (income[0], income[1] - 10, *income[2:]),
        *invoice.splits[2:],
    ])  # fmt: skip
    opened = {**later.second.open_amounts}
    opened[invoice.trans_no] += 10
    second = copied(
        later.second,
        transactions=[raised if t is invoice else t for t in later.second.transactions],
        open_amounts=opened,
    )
    book = tmp_path / "book.gnucash"
    assert convert(*exports(later.first, tmp_path / "march"), "-o", book).returncode == 0
    run = convert(*exports(second, tmp_path / "june"), "--update", book)
    out = run.stdout + run.stderr
    assert f"Held [ref:{invoice.trans_no}]" in out, out
    said = next(
        line for line in out.splitlines() if f"customer {invoice.name}: open balance" in line
    )
    assert "difference -10.00" in said and "a change since the last run: held" in said, said
    assert "export it again" not in said and "decide each held change" in said, said


@pytest.mark.parametrize("how", ["balances-only", "split-at", "documents-open"])
def test_a_book_of_balances_alone_or_of_a_split_history_is_refused_up_front(
    books, later: Later, tmp_path, how
):
    """A book written from QuickBooks' balances alone: each later export was refused as a new
    conversion would be ("the cutover date ... is not the day of QuickBooks' figures: set the
    cutover date"), advice an update cannot follow; one written with only the open documents
    ended with owners' balances "differing", QuickBooks' report blamed, where a new book of the
    same exports matched (hunt 22). Said up front now, with what to do instead; an archive's
    working book likewise (said before, never tested)."""
    book = tmp_path / "book.gnucash"
    march = sorted(books["march"].iterdir())
    day = later.cut.isoformat()
    asked = {
        "balances-only": ["--balances-only", day],
        "split-at": ["--split-at", day, "--archive", tmp_path / "archive.gnucash"],
        "documents-open": ["--documents", "open"],
    }[how]
    done = convert(*march, "-o", book, "--format", "sqlite", *asked)
    assert done.returncode == 0, done.stdout + done.stderr
    said = _refused(book, *sorted(books["june"].iterdir()), "--update", book)
    want = {
        "balances-only": "was written from QuickBooks' balances alone",
        "split-at": "is an archive or a working book",
        "documents-open": "was written with only the invoices and bills open on its day",
    }[how]
    assert f"book.gnucash {want}" in said and "not done yet" in said, said


@pytest.mark.parametrize("first", ["journal", "find"])
def test_exports_keyed_otherwise_than_the_book_are_refused(later: Later, tmp_path, first):
    """A book written from a Journal (each transaction known by QuickBooks' Trans #) updated
    with a Find export (none): no transaction found, the whole history added a second time and
    226 "deleted in QuickBooks" held, QuickBooks having deleted none (hunt 22). And the other
    way round. Refused, the book as it was, the report to export named."""
    from tests.support.companygen_later import exports

    second = "find" if first == "journal" else "journal"
    march = exports(later.first, tmp_path / "march", first)
    book = tmp_path / "book.gnucash"
    done = convert(*march, "-o", book, "--format", "sqlite")
    assert done.returncode == 0, done.stdout + done.stderr
    june = exports(later.second, tmp_path / "june", second)
    said = _refused(book, *june, "--update", book)
    how = "with QuickBooks' Trans #" if first == "journal" else "without QuickBooks' Trans #"
    assert f"book.gnucash's transactions were written from exports {how}" in said, said
    assert "export the same report as the first run" in said


def test_a_company_renamed_in_quickbooks_is_taken_when_asked(books, later: Later, tmp_path):
    """QuickBooks' company renamed (Company Information) between two exports: the update was
    refused as another company's, with no way to take the new name (hunt 22). The refusal says
    how; taken, the book is brought up to date and keeps the new name for the next run."""
    book = tmp_path / "book.gnucash"
    book.write_bytes(books["book"].read_bytes())
    june = tmp_path / "june"
    june.mkdir()
    old, new = later.second.name, "Green Valley Landscaping LLC"
    for f in sorted(books["june"].iterdir()):
        (june / f.name).write_text(f.read_text(encoding="utf-8").replace(old, new), "utf-8")
    files = sorted(june.iterdir())
    said = _refused(book, *files, "--update", book)
    assert f"these exports are of “{new}”" in said and "--take-quickbooks company" in said, said
    taken = convert(*files, "--update", book, "--take-quickbooks", "company")
    assert taken.returncode in (0, 3), taken.stdout + taken.stderr
    assert "Book brought up to date" in taken.stdout
    again = convert(*files, "--update", book)  # (the new name is the book's now)
    assert again.returncode in (0, 3), again.stdout + again.stderr
    assert "another company" not in again.stderr and "these exports are of" not in again.stderr
    # taken for that run alone: exports of a third name are refused again (hunt 26: the
    # decision was kept in the book, and any other company's exports went in, exit 0)
    third = tmp_path / "third"
    third.mkdir()
    for f in files:
        (third / f.name).write_text(f.read_text("utf-8").replace(new, "Other Co Ltd"), "utf-8")
    said = _refused(book, *sorted(third.iterdir()), "--update", book)
    assert "these exports are of “Other Co Ltd”" in said, said


def test_a_journal_entry_s_customer_changed_in_quickbooks_is_said_as_such(tmp_path):
    """A journal entry's A/R line moved to another customer in QuickBooks (the same date,
    number, accounts and amounts): held, and said as "what changed is a memo or a class",
    which it was not (hunt 22). The words name a line's customer or vendor too."""
    import copy

    from tests.support.companygen import make_company
    from tests.support.companygen_docs import control, owner_of

    company = make_company(300, seed=5, years=2, documents=True, journals=True)
    entry = next(
        t
        for t in company.transactions
        if t.type == "General Journal"
        and t.names
        and any(s[0] == "Accounts Receivable" for s in t.splits)
        and abs(company.open_amounts.get(t.trans_no) or 0) == abs(control(t))
    )
    old = owner_of(entry)
    new = next(c for c in company.customers if ":" not in c and not c.startswith(old[:4]))
    second = copy.deepcopy(company)
    moved = next(t for t in second.transactions if t.trans_no == entry.trans_no)
    moved.names = tuple(
        new if (n == old and s[0] == "Accounts Receivable") else n
        for n, s in zip(moved.names, moved.splits, strict=True)
    )
    files = {}
    for name, co in (("first", company), ("second", second)):
        (tmp_path / name).mkdir()
        files[name] = [co.write_lists_iif(tmp_path / name / "lists.iif"),
                       co.write_journal_csv(tmp_path / name / "journal.csv")]  # fmt: skip
    book = tmp_path / "book.gnucash"
    assert convert(*files["first"], "-o", book).returncode == 0
    run = convert(*files["second"], "--update", book)
    held = [
        line for line in run.stdout.splitlines() if line.startswith(f"Held [ref:{entry.trans_no}]")
    ]
    assert held and "or the customer or vendor a line names" in held[0], run.stdout
    # taken, it is refused in words for a journal entry (it was told to unpost it: hunt 22 F6)
    said = _refused(book, *files["second"], "--update", book, "--take-quickbooks",
                    f"ref:{entry.trans_no}")  # fmt: skip
    assert "is a payment or a journal entry whose A/R or A/P line GnuCash keeps in" in said, said
    assert "Actions › View Lots" in said and "unpost" not in said


def test_a_book_of_both_kinds_of_keys_updated_with_the_later_days_report(tmp_path):
    """A book whose history came from a Journal (Trans #) up to mid-2019 and a Find export (no
    Trans #) after, brought up to date with a Find export of the later days: refused as
    "exports keyed otherwise" though the days they share are keyed alike (hunt 26). Judged by
    the days the exports cover, those exports alone are refused as not reaching back to the
    book's first day (hunt 22 F2: the proof then blamed GnuCash for what was not exported);
    with the early days' Journal beside them: updated, the generator's edit and deletion held."""
    import copy
    import datetime as dt

    from tests.support.companygen_later import later_company

    later = later_company(300, seed=8)
    split = dt.date(2019, 7, 1)

    def written(company, folder: Path, early: bool, whole: bool = False) -> list[Path]:
        folder.mkdir()
        files = [company.write_lists_iif(folder / "lists.iif")]
        for name, keep, write in (
            ("journal_early.csv", lambda t: t.date < split, "write_journal_csv"),
            ("find_late.csv", lambda t: t.date >= split, "write_find_csv"),
        ):
            if early or name.startswith("find") or whole:
                part = copy.deepcopy(company)
                part.transactions = [t for t in part.transactions if keep(t)]
                files.append(getattr(part, write)(folder / name))
        return files

    book = tmp_path / "book.gnucash"
    first = convert(*written(later.first, tmp_path / "march", True), "-o", book)
    assert first.returncode == 0, first.stdout + first.stderr
    said = _refused(book, *written(later.second, tmp_path / "june", False), "--update", book)
    assert "keyed otherwise" not in said and "transactions begin on 2019-07-0" in said, said
    assert "export the transaction report again for all dates" in said
    run = convert(*written(later.second, tmp_path / "whole", False, True), "--update", book)
    assert run.returncode in (0, 3), run.stdout + run.stderr
    assert "Book brought up to date" in run.stdout
