"""Each count and date of the proof that differs says its probable cause and what to do
(app/check_causes.py). Books written by the real engine, then changed in it as a user changes
them in GnuCash (a customer and an account made, a transaction entered after QuickBooks' last one
without balancing it, lines reconciled), read back and proven: as a first conversion (nobody can
touch the book between its writing and its reading, so the book changed in saving or reading)
and as an update (the user worked on it in GnuCash since). A book read in a far time zone reads
every date a day off. The command line prints each cause."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

from app import cli, gnc
from app.business import Customer
from app.cutover import apply
from app.plan import Cutover
from app.source import Source
from app.verify import verify
from tests.paths import DATA, ROOT
from tests.support.gnucash_edits import (
    add_account,
    add_customer,
    editing,
    enter,
    reconcile,
    redate,
)
from tests.support.ledgers import ledger

CLI = DATA / "cli"
LATE = dt.date(2022, 7, 15)  # after QuickBooks' last transaction (2022-06-30)


def _written(tmp_path: Path):
    led = apply(ledger(), Cutover())
    led = dataclasses.replace(led, customers=(Customer("Acme", Source("lists.iif", 50)),))
    book = tmp_path / "book.gnucash"
    gnc.write_book(led, book)
    assert verify(led, gnc.read_book(book), Cutover()).ok
    return led, book


def _changed_in_gnucash(book: Path, expense: str = "Rent", day: dt.date = LATE) -> None:
    with editing(book) as b:
        add_customer(b, "Walk-in")
        add_account(b, "Petty Cash")
        enter(b, day, [("Checking", -5000), (expense, 4000)])  # 10.00 short: Imbalance-USD
        assert reconcile(b, "Checking", 2) == 2


def test_a_book_changed_between_writing_and_reading_says_so_and_to_report_it(tmp_path):
    led, book = _written(tmp_path)
    _changed_in_gnucash(book)
    snap = gnc.read_book(book)
    assert snap.account("Imbalance-USD").balance == 10  # GnuCash balanced it itself
    report = verify(led, snap, Cutover())
    failed = {c.name: c for c in report.checks if not c.ok}
    assert set(failed) == {
        "accounts",
        "transactions",
        "splits",
        "splits not reconciled",
        "splits reconciled",
        "customers",
        "Imbalance/Orphan accounts",
        "last transaction date",
    }
    for c in failed.values():  # no one could have changed it: a fault to report
        assert c.cause and c.again, c
        assert c.cause.endswith("please report this") or c.name == "accounts", c
    assert failed["accounts"].detail == "in the book only: Imbalance-USD, Petty Cash"
    assert "the book holds 1 account no file has" in failed["accounts"].cause
    assert failed["customers"].detail == "in the book only: Walk-in"
    assert failed["customers"].cause.startswith("the book holds 1 customer more than the files")
    assert failed["transactions"].detail == (
        "lines in the book less the files': Checking +1, Imbalance-USD +1, Rent +1"
    )
    assert failed["last transaction date"].cause.startswith(
        "the book holds transactions dated after QuickBooks' last (2022-06-30), up to 2022-07-15"
    )
    imbalance = failed["Imbalance/Orphan accounts"]
    assert imbalance.detail == "Imbalance-USD"
    assert "balances every transaction it writes" in imbalance.cause
    assert imbalance.todo.startswith("in GnuCash, open Imbalance-USD on the Accounts tab")

    lines = report.summary_lines("cli")
    said = next(line for line in lines if line.startswith("customers:"))
    assert said == (
        "customers: QuickBooks 1, GnuCash 2 — DIFFERS (in the book only: Walk-in). Probable "
        "cause: the "
        "book holds 1 customer more than the files: qb2gnucash checks the book before GnuCash "
        "saves it and reads it straight back, so GnuCash changed it in saving or reading it: "
        "please report this. What to do: run the conversion again (a new book)."
    )
    wizard = next(
        x for x in report.difference_lines("wizard") if x.startswith("Imbalance and Orphan")
    )
    assert "What to do: write the book again on the Import step; or in GnuCash, open " in wizard
    assert all(" — ok" in line for line in lines if line.startswith("jobs:"))  # no cause on ok
    row = next(r for r in report.rows if r.account == "Imbalance-USD")  # its balance: why too
    assert row.cause.startswith("GnuCash's own account for amounts it could not place")


def test_an_update_names_what_was_done_in_gnucash(tmp_path):
    led, book = _written(tmp_path)
    _changed_in_gnucash(book)
    report = verify(led, gnc.read_book(book), Cutover(), update=True)
    causes = {c.name: (c.cause, c.todo, c.again) for c in report.checks if not c.ok}
    since = "in GnuCash since qb2gnucash last wrote the book"
    cause, todo, again = causes["customers"]
    assert cause.startswith(f"made {since}") and not again
    assert todo == (
        "nothing to correct if they are yours; one made by mistake: make it inactive in "
        "Business › Customer › Find Customer"
    )
    cause, todo, _ = causes["accounts"]
    assert cause == (
        f"Petty Cash made {since}: QuickBooks has no such account, so each is compared above as "
        "expected at 0.00; GnuCash made Imbalance-USD itself (see the check of Imbalance and "
        "Orphan accounts)"
    )
    assert "Edit › Delete Account" in todo
    cause, todo, _ = causes["Imbalance/Orphan accounts"]
    assert cause.endswith(f"such a transaction was entered or changed {since}")
    cause, todo, _ = causes["splits reconciled"]
    assert cause.startswith(f"lines cleared, reconciled or unmarked {since}")
    assert todo.startswith("nothing to correct if you reconciled in GnuCash")
    cause, todo, _ = causes["last transaction date"]
    assert f"up to 2022-07-15: entered {since}" in cause
    assert not any(again for *_, again in causes.values())
    assert "please report" not in json.dumps(causes)


def test_an_update_counts_what_quickbooks_had_not_what_was_made_in_gnucash_alone(tmp_path):
    """An update's proof leaves out what the user made in GnuCash alone (``apart``: here a
    customer, an account and a transaction after QuickBooks' last, into it): the counts and
    dates are QuickBooks' and match; a customer QuickBooks' earlier exports had (the record
    says so) and these do not is still counted: that check differs, and says why."""
    from app.lists import LISTS
    from app.made_here import MadeHere
    from app.update import BookEntry
    from app.update_proof import less

    led, book = _written(tmp_path)
    with editing(book) as b:
        add_customer(b, "Walk-in")
        add_customer(b, "Old Co", "GC0002")
        add_account(b, "Petty Cash")
        enter(b, LATE, [("Checking", -5000), ("Petty Cash", 5000)])
    snap = gnc.read_book(book)
    whole = verify(led, snap, Cutover(), update=True)
    assert {"accounts", "transactions", "customers", "last transaction date"} <= {
        c.name for c in whole.checks if not c.ok
    }
    lines = (("Checking", Decimal("-50")), ("Petty Cash", Decimal("50")))
    hand = BookEntry(0, LATE, "", "By hand", None, "", lines, marks="nn")
    made = {n: ("Walk-in",) if n == "customers" else () for n in LISTS}
    apart = MadeHere((hand,), ("Petty Cash",), made)
    report = verify(led, less(snap, [hand]), Cutover(), update=True, apart=apart)
    failed = {c.name: c for c in report.checks if not c.ok}
    assert set(failed) == {"customers"}, failed
    assert failed["customers"].detail == "in the book only: Old Co"
    assert failed["customers"].cause == (
        "named in QuickBooks' earlier exports, not in these: deleted or renamed in QuickBooks "
        "since (the book keeps them)"
    )
    assert next(c for c in report.checks if c.name == "last transaction date").book == (
        dt.date(2022, 6, 30)
    )
    assert all(r.ok for r in report.rows)  # Petty Cash holds only what was made there


def test_an_update_says_a_date_changed_in_gnucash(tmp_path):
    """One of QuickBooks' transactions given a date after QuickBooks' last in GnuCash: nothing
    made there alone, the last date differs at it, said so."""
    from app.made_here import MadeHere

    led, book = _written(tmp_path)
    with editing(book) as b:
        redate(b, "Checking", LATE)
    report = verify(led, gnc.read_book(book), Cutover(), update=True, apart=MadeHere())
    check = next(c for c in report.checks if c.name == "last transaction date")
    assert not check.ok and check.book == LATE
    assert check.cause == (
        "the book holds QuickBooks' transactions dated after QuickBooks' last (2022-06-30), up to "
        "2022-07-15: given another date in GnuCash since qb2gnucash last wrote the book"
    )
    assert check.todo.startswith("find it in GnuCash (Edit › Find, by its date)")


TZ_READ = """
import json, sys
from app import gnc
from app.cutover import apply
from app.plan import Cutover
from app.verify import verify
from tests.support.ledgers import ledger
report = verify(apply(ledger(), Cutover()), gnc.read_book(sys.argv[1]), Cutover(), update=True)
print(json.dumps([[c.name, c.cause, c.todo] for c in report.checks if not c.ok]))
"""


def test_a_book_read_in_a_far_time_zone_reads_every_date_a_day_off(tmp_path):
    """GnuCash keeps a date as 10:59 UTC of its day: on a computer set to UTC+14 every date of
    a book written at UTC reads as the next day (GnuCash shows it so too)."""
    _, book = _written(tmp_path)
    run = subprocess.run(
        [sys.executable, "-c", TZ_READ, str(book)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"TZ": "Pacific/Kiritimati", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        check=False,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    failed = {name: (cause, todo) for name, cause, todo in json.loads(run.stdout)}
    for name in ("first transaction date", "last transaction date"):
        cause, todo = failed[name]
        assert cause.startswith("every date reads one day later: the book was written on a ")
        assert todo == "open the book on a computer set to the time zone it was written in"


def test_the_command_line_prints_each_cause(tmp_path, monkeypatch, capsys):
    """``run.py convert``: a book changed as GnuCash saved it (here, by the test, between the
    writing and the reading back) is said with each check's cause and what to do."""
    read = gnc.read_book
    changed: list[Path] = []

    def changed_then_read(path, **kwargs):
        if not changed:
            _changed_in_gnucash(path, "Utilities:Gas", dt.date(2024, 3, 1))
            changed.append(path)
        return read(path, **kwargs)

    monkeypatch.setattr(gnc, "read_book", changed_then_read)
    out = tmp_path / "book.gnucash"
    assert cli.main([str(CLI / "lists.iif"), str(CLI / "txns.iif"), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert changed
    assert (
        "Imbalance and Orphan accounts (where GnuCash puts what it cannot place; none "
        "expected): QuickBooks 0, GnuCash 1 — DIFFERS (Imbalance-USD). " in (printed)
    )
    assert (
        "What to do: run the conversion again (a new book); or in GnuCash, open Imbalance-USD"
        in printed
    )
    assert (
        "last transaction date: QuickBooks 2024-02-02, GnuCash 2024-03-01 — DIFFERS. Probable "
        "cause: "
        "the book holds transactions dated after QuickBooks' last (2024-02-02), up to "
        "2024-03-01: qb2gnucash checks the book" in printed
    )
