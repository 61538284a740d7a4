"""Decisions taken together in one update (``run.py convert --update``): an account renamed in
QuickBooks and a transaction QuickBooks edited on it, both taken in one run (hunt 9: the taken
transaction, deleted from the book, was stamped again through its gone pointer, and the next
update found a transaction added twice and another "edited in GnuCash"); the book is reopened
and the next update with the same exports finds nothing new."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.support.cli import convert
from tests.support.companygen_later import Later, exports, later_company


@pytest.fixture(scope="module")
def later() -> Later:
    return later_company(300, seed=5, classes=True)


@pytest.mark.parametrize("form", ["xml", "sqlite"])
def test_an_account_rename_and_an_edit_on_it_taken_in_one_run(
    tmp_path: Path, later: Later, form: str
) -> None:
    book = tmp_path / "book.gnucash"
    out = convert(*exports(later.first, tmp_path / "march"), "-o", book, "--format", form)
    assert out.returncode == 0, out.stdout + out.stderr
    was, edited = later.edited  # (the book's version, QuickBooks' since)
    assert any(a == "Telephone" for a, *_ in was.splits)  # (a line in the account renamed)
    june = exports(later.second, tmp_path / "june")
    decided = (
        ("--take-quickbooks", "account:6800"),
        ("--take-quickbooks", f"ref:{edited.trans_no}"),
        ("--keep-book", f"ref:{later.deleted.trans_no}"),
    )
    run = convert(*june, "--update", book, *(x for d in decided for x in d))
    assert run.returncode == 0, run.stdout + run.stderr
    again = convert(*june, "--update", book, "--strict")
    said = again.stdout
    assert "0 transactions added" in said and "edited in GnuCash" not in said, said
    # the book differs from QuickBooks by the deleted check it keeps: said, --strict exit 3
    assert again.returncode == 3, said + again.stderr
    assert said.splitlines()[-1] == (
        f"{book} is up to date: nothing added; it still differs from QuickBooks by the 1 change "
        "kept as the book has it"
    ), said
    # the same decisions in two runs (which never shared a pointer) make the same book
    apart = tmp_path / "apart.gnucash"
    out = convert(*exports(later.first, tmp_path / "march2"), "-o", apart, "--format", form)
    assert out.returncode == 0, out.stdout + out.stderr
    assert convert(*june, "--update", apart, *decided[0]).returncode in {0, 3}
    assert convert(*june, "--update", apart, *decided[1], *decided[2]).returncode in {0, 3}
    assert _held(book) == _held(apart)


def _held(book: Path) -> Counter:
    """What the book holds, transaction by transaction: date, number, name and lines."""
    from app import gnc

    snap = gnc.read_book(book, transactions=True)
    return Counter(
        (t.date, t.num, t.description, tuple(sorted((s.account, s.value) for s in t.splits)))
        for t in snap.transaction_list
    )


def test_an_account_rename_and_a_class_rename_taken_in_one_run(tmp_path: Path, later: Later):
    """A sub-account per class: the account QuickBooks renamed and the class it renamed, both
    taken in one run; the class sub-account under the renamed account is keyed by the account's
    new name (it kept the old one, and every later update was refused: "appears twice"; hunt
    9), so the next update finds nothing new."""
    from app import gnc
    from tests.support.exports_edit import renamed_class

    book = tmp_path / "book.gnucash"
    out = convert(*exports(later.first, tmp_path / "march"), "-o", book, "--classes", "accounts")
    assert out.returncode == 0, out.stdout + out.stderr
    june = exports(later.second, tmp_path / "june")
    renamed_class(june, "Design", "Creative")
    both = ("--take-quickbooks", "account:6800", "--take-quickbooks", "class:Design")
    assert convert(*june, "--update", book, *both).returncode == 0
    names = {a.full_name for a in gnc.read_book(book).accounts}
    assert "Telephone and Internet:Creative" in names and not any(
        "Design" == n.rpartition(":")[2] for n in names
    )
    again = convert(*june, "--update", book)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "0 transactions added" in again.stdout and "now calls" not in again.stdout
