"""A class renamed in QuickBooks between two runs (docs/UPDATE.md, "A class renamed in
QuickBooks"): a real ``run.py convert --update`` on a generated company with classes, June's
exports naming the class Design "Creative" in the list and on every line. The book reopened is
compared with the same update of June's exports as they were (the class unrenamed)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.support.cli import convert
from tests.support.companygen_later import Later, exports, later_company


@pytest.fixture(scope="module")
def later() -> Later:
    return later_company(300, seed=5, classes=True)


def _written(later: Later, folder: Path, mode: str) -> tuple[Path, list[Path]]:
    """March's book (``--classes mode``) and June's exports, as they are."""
    book = folder / "book.gnucash"
    out = convert(*exports(later.first, folder / "march"), "-o", book, "--classes", mode)
    assert out.returncode == 0, out.stdout + out.stderr
    return book, exports(later.second, folder / "june")


def _held(stdout: str) -> set[str]:
    return {line.split("]")[0] for line in stdout.splitlines() if line.startswith("Held [")}


def _renamed(paths: list[Path], old: str, new: str) -> None:
    """The lists and the journal with the class ``old`` named ``new`` (``new`` empty: the lines
    unclassed, the list naming it "Creative")."""
    for path in paths[:2]:
        text = path.read_text(encoding="utf-8")
        listed = f"\t{new or 'Creative'}\t"
        path.write_text(
            text.replace(f"CLASS\t{old}\t", f"CLASS{listed}")
            .replace(f"\t{old}\t", f"\t{new}\t")
            .replace(f",{old},", f",{new},"),
            encoding="utf-8",
        )


def _lines(book: Path) -> Counter[tuple[str, str, str]]:
    """Each classed line of the book reopened: (class, account, amount)."""
    from app import gnc

    snap = gnc.read_book(book, transactions=True)
    return Counter(
        (s.klass, s.account, str(s.value))
        for t in snap.transaction_list
        for s in t.splits
        if s.klass
    )


@pytest.mark.parametrize("mode", ["memo", "accounts"])
def test_a_class_renamed_in_quickbooks_keeps_the_book_s_name(
    tmp_path: Path, later: Later, mode: str
) -> None:
    """Recognised as a rename: nothing held for it (only June's own changes), one line says it,
    and the book holds every line, old and new, in the class as it was named: line for line the
    book that June's exports as they were make."""
    book, june = _written(later, tmp_path / "plain", mode)
    plain = convert(*june, "--update", book)
    assert plain.returncode in {0, 3}, plain.stdout + plain.stderr
    renamed, june = _written(later, tmp_path / "renamed", mode)
    _renamed(june, "Design", "Creative")
    run = convert(*june, "--update", renamed)
    assert run.returncode == plain.returncode, run.stdout + run.stderr
    assert _held(run.stdout) == _held(plain.stdout)
    said = [line for line in run.stdout.splitlines() if "now calls class" in line]
    assert len(said) == 1 and said[0].startswith("lists.iif:"), run.stdout
    assert "class 'Design' 'Creative': renamed in QuickBooks (" in said[0]
    assert "the book keeps the name 'Design'" in said[0]
    lines = _lines(renamed)
    assert lines == _lines(book)
    assert not any("Creative" in klass or "Creative" in a for klass, a, _v in lines)
    assert sum(n for (klass, _a, _v), n in lines.items() if klass == "Design") > 100
    again = convert(*june, "--update", renamed)  # found again, and nothing new
    assert "0 transactions added" in again.stdout and "now calls class" in again.stdout
    assert _held(again.stdout) == _held(plain.stdout)


def test_a_class_gone_and_another_listed_is_no_rename(tmp_path: Path, later: Later) -> None:
    """Design's lines unclassed in QuickBooks and a class Creative listed that no line uses: no
    book transaction is QuickBooks' once Creative is named Design, so it is no rename; each
    transaction that lost its class is held, said as a memo or a class changed."""
    book, june = _written(later, tmp_path, "memo")
    _renamed(june, "Design", "")
    assert "CLASS\tCreative\t" in june[0].read_text(encoding="utf-8")
    run = convert(*june, "--update", book)
    out = run.stdout + run.stderr
    assert "now calls class" not in out
    said = (
        "edited in QuickBooks (its date, number, name, accounts and amounts are the book's: what "
        "changed is a memo or a class)"
    )
    assert sum(said in line for line in out.splitlines() if line.startswith("Held [")) > 10, out
