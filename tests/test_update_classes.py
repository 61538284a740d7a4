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
from tests.support.exports_edit import renamed_class


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


def _lines(book: Path) -> Counter[tuple[str, str, str, str]]:
    """Each classed line of the book reopened: (class, account, amount, memo's class)."""
    from app import gnc

    snap = gnc.read_book(book, transactions=True)
    return Counter(
        (s.klass, s.account, str(s.value), s.memo.partition("]")[0])
        for t in snap.transaction_list
        for s in t.splits
        if s.klass
    )


def _as_creative(text: str) -> str:
    """``text`` (a class, an account, a memo's class) with the class Design named Creative."""
    named = {"Design": "Creative", "[Design": "[Creative"}
    return ":".join(named.get(p, p) for p in text.split(":"))


@pytest.mark.parametrize("mode", ["memo", "accounts"])
def test_a_class_renamed_in_quickbooks_keeps_the_book_s_name(
    tmp_path: Path, later: Later, mode: str
) -> None:
    """Recognised as a rename, held as one change (``class:Design``) in place of every
    transaction on it; undecided and kept alike, the book keeps its name and holds every line,
    old and new, in the class as it was named: line for line the book that June's exports as
    they were make."""
    book, june = _written(later, tmp_path / "plain", mode)
    plain = convert(*june, "--update", book)
    assert plain.returncode in {0, 3}, plain.stdout + plain.stderr
    renamed, june = _written(later, tmp_path / "renamed", mode)
    renamed_class(june, "Design", "Creative")
    run = convert(*june, "--update", renamed)
    assert run.returncode == plain.returncode, run.stdout + run.stderr
    assert _held(run.stdout) == _held(plain.stdout) | {"Held [class:Design"}
    said = [line for line in run.stdout.splitlines() if "now calls class" in line]
    assert len(said) == 1, run.stdout
    assert said[0].startswith("Held [class:Design]: lists.iif:")
    assert "class “Design” “Creative”: renamed in QuickBooks (" in said[0]
    assert said[0].endswith(
        "the book keeps its name, and the exports' lines of that class are in it"
    )
    lines = _lines(renamed)
    assert lines == _lines(book)
    assert not any("Creative" in f"{klass}{a}{memo}" for klass, a, _v, memo in lines)
    assert sum(n for (klass, *_), n in lines.items() if klass == "Design") > 100
    again = convert(*june, "--update", renamed, "--keep-book", "class:Design")
    assert "0 transactions added" in again.stdout, again.stdout + again.stderr
    assert "Kept (the plan) [class:Design]: lists.iif:" in again.stdout
    assert _held(again.stdout) == _held(plain.stdout)
    assert _lines(renamed) == lines


def test_a_class_gone_and_another_listed_is_no_rename(tmp_path: Path, later: Later) -> None:
    """Design's lines unclassed in QuickBooks and a class Creative listed that no line uses: no
    book transaction is QuickBooks' once Creative is named Design, so it is no rename; each
    transaction that lost its class is held, said as a memo or a class changed."""
    book, june = _written(later, tmp_path, "memo")
    renamed_class(june, "Design", "")
    assert "CLASS\tCreative\t" in june[0].read_text(encoding="utf-8")
    run = convert(*june, "--update", book)
    out = run.stdout + run.stderr
    assert "now calls class" not in out
    said = (
        "edited in QuickBooks (its date, number, name, accounts and amounts are the book's: what "
        "changed is a memo, a class, or the customer or vendor a line names)"
    )
    assert sum(said in line for line in out.splitlines() if line.startswith("Held [")) > 10, out


@pytest.mark.parametrize("mode", ["memo", "accounts"])
def test_a_class_renamed_in_quickbooks_taken_renames_it_in_the_book(
    tmp_path: Path, later: Later, mode: str
) -> None:
    """--take-quickbooks class:Design: the book's lines of the class (memo prefix and class
    slot), the invoices' and bills' lines copied from those memos and the class sub-accounts
    take QuickBooks' name; line for line the book June's exports as they were make, the class
    named Creative; the next update finds nothing new and no rename."""
    from app import gnc

    book, june = _written(later, tmp_path / "plain", mode)
    plain = convert(*june, "--update", book)
    renamed, june = _written(later, tmp_path / "renamed", mode)
    renamed_class(june, "Design", "Creative")
    run = convert(*june, "--update", renamed, "--take-quickbooks", "class:Design")
    assert run.returncode == plain.returncode, run.stdout + run.stderr
    assert _held(run.stdout) == _held(plain.stdout)
    taken = "Taken from QuickBooks (the plan): the book's class “Design” renamed “Creative”"
    assert taken in run.stdout
    want = Counter(
        {tuple(map(_as_creative, (k, a, v, m))): n for (k, a, v, m), n in _lines(book).items()}
    )
    assert _lines(renamed) == want
    assert sum(n for (klass, *_), n in want.items() if klass == "Creative") > 100
    before, after = (gnc.read_book(b, sales_tax=()) for b in (book, renamed))
    assert before.sales_tax is not None and after.sales_tax is not None
    entries = [
        [(e.description.partition("]"), e.account) for i in s.invoices for e in i.entries]
        for s in (before.sales_tax, after.sales_tax)
    ]  # (the invoices' and bills' lines: their descriptions are the memos, class and all)
    assert sum("Design" in f"{d[0]}{a}" for d, a in entries[0]) > 10
    want_entries = [((_as_creative(d[0]), *d[1:]), _as_creative(a)) for d, a in entries[0]]
    assert sorted(entries[1]) == sorted(want_entries)
    classed = {
        a.full_name: a.description
        for a in after.accounts
        if a.description.startswith("QuickBooks class")
    }
    assert not any(
        ":Design" in name or said.startswith("QuickBooks class Design")
        for name, said in classed.items()
    )
    creative = {n for n, said in classed.items() if said == "QuickBooks class Creative"}
    assert {n.rpartition(":")[2] for n in creative} == (
        {"Creative"} if mode == "accounts" else set()
    )
    again = convert(*june, "--update", renamed)
    assert "0 transactions added" in again.stdout and "now calls class" not in again.stdout
    assert _held(again.stdout) == _held(plain.stdout)


def test_the_wizard_holds_the_class_rename_and_takes_it(
    client, app, tmp_path: Path, later: Later
) -> None:
    """The update page: the rename is one held change with the rename's two buttons; "Rename it
    as QuickBooks has it" renames the class in the book downloaded (reopened: Creative on every
    line Design was on)."""
    from tests.support.web import decide_held, post_update, soup

    book, june = _written(later, tmp_path, "memo")
    before = _lines(book)
    renamed_class(june, "Design", "Creative")
    r = post_update(client, book, june)
    assert r.status_code == 303, r.get_data(as_text=True)
    held = soup(client.get(r.location)).select_one('li.held[data-key="class:Design"]')
    assert "QuickBooks now calls class “Design” “Creative”" in held.get_text(" ")
    buttons = [b.get_text(" ").strip() for b in held.select("button")]
    assert buttons == ["Rename it as QuickBooks has it", "Keep the book's name"], buttons
    after = decide_held(client, r.location, "class:Design", "quickbooks")
    said = after.select_one("#update-summary").get_text(" ")
    assert "Taken from QuickBooks (your decision): the book's class “Design” renamed" in said
    assert not after.select('li.held[data-key="class:Design"]')
    out = tmp_path / "downloaded.gnucash"
    with client.get(after.select_one("#download-updated")["href"]) as got:
        assert got.status_code == 200
        out.write_bytes(got.data)
    lines = _lines(out)
    assert not any("Design" in f"{klass}{memo}" for klass, _a, _v, memo in lines)
    old = sum(n for (klass, *_), n in before.items() if klass == "Design")
    assert sum(n for (klass, *_), n in lines.items() if klass == "Creative") > old > 50


def test_a_class_moved_under_another_is_not_taken_into_sub_accounts(
    tmp_path: Path, later: Later
) -> None:
    """Design is Landscaping:Design in QuickBooks now (moved in the class tree): held as a
    rename; with a sub-account per class, taking it would move sub-accounts under others, which
    is not done: refused with what to do, the book as it was (hunt 7: the sub-accounts kept
    their place, the proof differed and the book could no longer be updated)."""
    book, june = _written(later, tmp_path, "accounts")
    for path in june[:2]:
        text = path.read_text(encoding="utf-8")
        text = text.replace("CLASS\tDesign\t", "CLASS\tLandscaping:Design\t")
        path.write_text(
            text.replace("\tDesign\t", "\tLandscaping:Design\t").replace(
                ",Design,", ",Landscaping:Design,"
            ),
            encoding="utf-8",
        )
    before = book.read_bytes()
    run = convert(*june, "--update", book, "--take-quickbooks", "class:Design")
    assert run.returncode == 1, run.stdout + run.stderr
    assert run.stderr.strip() == (
        "Book not updated: class “Design” is “Landscaping:Design” in QuickBooks now, under "
        "another parent class: in a book with a sub-account per class, taking that is not done "
        "yet; keep the book's name for it, or convert into a new book"
    )
    assert book.read_bytes() == before
    held = convert(*june, "--update", book)
    assert "Held [class:Design]: lists.iif:" in held.stdout, held.stdout + held.stderr


def test_two_classes_merged_into_one_are_held_not_another_company(
    tmp_path: Path, later: Later
) -> None:
    """Design and Landscaping both named Creative in QuickBooks (a merge: no rename of one
    class): most of the shared transactions change, but only in memo or class, never in date,
    number, name or amounts, which is the same company's; each is held (it was refused as
    "another company")."""
    book, june = _written(later, tmp_path, "memo")
    for path in june[:2]:
        text = path.read_text(encoding="utf-8")
        for old in ("Design", "Landscaping"):
            text = text.replace(f"\t{old}", "\tCreative").replace(f",{old}", ",Creative")
        path.write_text(text, encoding="utf-8")
    run = convert(*june, "--update", book)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert "another company" not in out and "now calls class" not in out
    said = "what changed is a memo, a class, or the customer or vendor a line names)"
    assert sum(said in line for line in out.splitlines() if line.startswith("Held [")) > 112, out


def test_a_key_both_taken_and_kept_is_refused(tmp_path: Path) -> None:
    book = tmp_path / "book.gnucash"
    book.write_bytes(b"")
    both = ("--take-quickbooks", "class:Design", "--keep-book", "class:Design")
    run = convert(tmp_path / "x.csv", "--update", book, *both)
    assert run.returncode == 2
    assert "class:Design is given both --take-quickbooks and --keep-book: choose one" in run.stderr


def test_a_rename_alone_is_no_nothing_new(client, app, tmp_path: Path, later: Later) -> None:
    """The exports the book was written from, the class renamed in them and nothing else: the
    rename is held, so the update no longer says "Nothing new: the book already holds
    everything" and its last line says the name is held, to decide (no figure differs: exit 0
    with --strict); kept, the book's name is its own, as a Map step rename is. The wizard's
    home list says a change waits for a decision, never "Already up to date" (a green state,
    before)."""
    from tests.support.web import post_update, soup

    book = tmp_path / "book.gnucash"
    march = exports(later.first, tmp_path / "march")
    assert convert(*march, "-o", book).returncode == 0
    renamed_class(march, "Design", "Creative")
    run = convert(*march, "--update", book, "--strict")
    said = run.stdout
    assert run.returncode == 0, said + run.stderr
    assert "Nothing new" not in said and "Held [class:Design]: lists.iif:" in said, said
    assert said.splitlines()[-1] == (
        f"{book} is up to date: nothing added; 1 name QuickBooks changed is held above "
        "(decide each held change, then update again)"
    ), said
    r = post_update(client, book, march)
    assert r.status_code == 303, r.get_data(as_text=True)
    page = soup(client.get(r.location))
    assert page.select_one("h1").get_text(" ").strip() == "Nothing added: 1 change to decide"
    state = soup(client.get("/")).select_one("span.state.update")
    assert state.get_text(" ").strip() == "Nothing added: 1 change to decide", state
    assert "proof-warn" in state["class"]
    kept = convert(*march, "--update", book, "--strict", "--keep-book", "class:Design")
    said = kept.stdout
    assert kept.returncode == 0, said + kept.stderr
    assert "Kept (the plan) [class:Design]: lists.iif:" in said, said
    assert said.splitlines()[-1] == f"Book brought up to date: {book}", said
