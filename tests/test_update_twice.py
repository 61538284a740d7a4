"""A transaction entered twice during the parallel run (``app/update_twice.py``): the user enters
in GnuCash a deposit QuickBooks also gets. The update holds GnuCash's copy instead of leaving
it out of the proof as "made in GnuCash alone", so the book is never called matching while it
holds the deposit twice; taking QuickBooks' version removes the copy, keeping the book's says
they are two deposits. A transaction made in GnuCash that QuickBooks has not is still only
said. Through ``run.py convert --update``; every book reopened with the bindings."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from tests.support.cli import convert
from tests.support.companygen_later import Later, exports, later_company
from tests.support.gnucash_edits import editing, enter


@pytest.fixture(scope="module")
def setup(tmp_path_factory) -> tuple[Later, Path, Path, str, tuple]:
    later = later_company(300, seed=8)
    tmp = tmp_path_factory.mktemp("twice")
    book = tmp / "march.gnucash"
    done = convert(*exports(later.first, tmp / "march"), "-o", book)
    assert done.returncode == 0, done.stderr
    june = exports(later.second, tmp / "june")
    twin = next(
        t
        for t in later.added
        if len(t.splits) == 2 and {a for a, *_ in t.splits} == {"Checking", "Undeposited Funds"}
    )  # a deposit QuickBooks got after March
    lines = tuple((a, int(v * 100)) for a, v, *_ in t.splits) if (t := twin) else ()
    with editing(book) as b:  # the user enters it in GnuCash too, a day later; and a fee
        enter(b, twin.date + dt.timedelta(days=1), lines, "Deposit")
        enter(b, twin.date, [("Checking", -1500), ("Bank Service Charges", 1500)], "Fee")
    copied = (twin.date + dt.timedelta(days=1)).isoformat()  # (the key names the copy's day)
    return later, book, tmp, f"twice:ref:{twin.trans_no}@{copied}~{_made(book)}", (june, twin)


def _made(book: Path) -> str:
    """The first 8 hex digits of the GUID of the deposit entered in GnuCash (the key's end)."""
    with editing(book) as b:  # (saved unchanged)
        checking = b.get_root_account().lookup_by_full_name("Checking")
        made = [s.GetParent() for s in checking.GetSplitList() if s.GetParent().GetNum() == ""]
        deposit = next(t for t in made if t.GetDescription() == "Deposit")
        return deposit.GetGUID().to_string()[:8]


def _copies(book: Path, amount: Decimal) -> int:
    """How many lines of ``amount`` Checking holds, read through the engine."""
    with editing(book) as b:  # (saved unchanged)
        checking = b.get_root_account().lookup_by_full_name("Checking")
        cents = int(amount * 100)
        return sum(1 for s in checking.GetSplitList() if s.GetValue().to_string() == f"{cents}/100")


def _run(setup, tmp_path, *decision: str):
    _later, march, _tmp, _key, (june, _twin) = setup
    book = tmp_path / "book.gnucash"
    book.write_bytes(march.read_bytes())
    done = convert("--update", book, *june, *decision)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    return book, done.stdout


def test_a_copy_entered_in_gnucash_is_held_not_called_matching(setup, tmp_path) -> None:
    _later, _march, _tmp, key, (_june, twin) = setup
    book, out = _run(setup, tmp_path)
    assert f"Held [{key}]: The book's" in out
    assert "made in GnuCash: QuickBooks has it too" in out and "holds both copies" in out
    assert "Book brought up to date" in out and "Matches QuickBooks" not in out
    assert "it differs from QuickBooks by exactly the 3 changes held" in out  # (and 2 others)
    amount = next(v for a, v, *_ in twin.splits if a == "Checking")
    assert _copies(book, amount) == 2  # QuickBooks' added, GnuCash's still there
    # the fee QuickBooks does not have is only said
    assert "Made in GnuCash, not compared: 1 transaction" in out


def test_taking_quickbooks_version_removes_the_copy(setup, tmp_path) -> None:
    _later, _march, _tmp, key, (_june, twin) = setup
    book, out = _run(setup, tmp_path, "--take-quickbooks", key)
    assert "(made in GnuCash, QuickBooks has it too) removed" in out
    assert f"[{key}]" not in out.split("Verification:")[0].replace(f"Held [{key}]", "")
    assert "it differs from QuickBooks by exactly the 2 changes held" in out
    amount = next(v for a, v, *_ in twin.splits if a == "Checking")
    assert _copies(book, amount) == 1


def test_keeping_the_books_version_keeps_both_as_two_transactions(setup, tmp_path) -> None:
    _later, _march, _tmp, key, (_june, twin) = setup
    book, out = _run(setup, tmp_path, "--keep-book", key)
    assert f"[{key}]" not in out
    assert "Made in GnuCash, not compared: 2 transactions" in out
    assert "it differs from QuickBooks by exactly the 2 changes held" in out
    amount = next(v for a, v, *_ in twin.splits if a == "Checking")
    assert _copies(book, amount) == 2


def test_the_wizard_offers_to_remove_the_copy(setup, client, tmp_path) -> None:
    """The result page names the copy and its two choices in words; removing it is a decision
    like the others."""
    from tests.support.web import post_update, soup, token

    _later, march, _tmp, key, (june, _twin) = setup
    r = post_update(client, march, june)
    page = soup(client.get(r.location))
    row = page.select_one(f'#held-changes li.held[data-key="{key}"]')
    assert row is not None and "QuickBooks has it too" in row.text
    assert [b.text for b in row.select("button")] == [
        "Remove GnuCash's copy",
        "Keep both (two transactions)",
    ]
    form = {"csrf_token": token(client), "key": key, "choice": "quickbooks"}
    after = soup(client.get(client.post(f"{r.location}/decide", data=form).location))
    said = after.select_one("#update-summary").get_text(" ")
    assert "(made in GnuCash, QuickBooks has it too) removed" in said
    assert after.select_one(f'li.held[data-key="{key}"]') is None
    # the fee made in GnuCash alone is named among what the book differs by
    held = after.select_one("#update-held").get_text(" ")
    assert "and the 1 transaction made in GnuCash alone" in held, held
    # the home list says all of it too (it said only "the 2 changes held")
    state = next(
        tr.select_one(".state.update").text
        for tr in soup(client.get("/")).select("#migrations tbody tr")
        if tr.select_one("a.button")["href"] == r.location
    )
    assert state.endswith("and the 1 transaction made in GnuCash alone"), state


def test_a_second_copy_of_the_same_day_is_asked_about_on_its_own(setup, tmp_path) -> None:
    """Both copies were dated the same day and shared one key, so keeping the first as a
    transaction of its own kept a second copy, entered later, without a word: the key now ends
    with the copy's GUID."""
    _later, march, _tmp, key, (june, twin) = setup
    book = tmp_path / "book.gnucash"
    book.write_bytes(march.read_bytes())
    lines = tuple((a, int(v * 100)) for a, v, *_ in twin.splits)
    with editing(book) as b:  # entered once more, on the first copy's day
        enter(b, twin.date + dt.timedelta(days=1), lines, "Deposit")
    done = convert("--update", book, *june, "--keep-book", key)
    assert done.returncode == 0, done.stdout + done.stderr
    held = [line for line in done.stdout.splitlines() if "[twice:" in line]
    assert len(held) == 1 and f"[{key}]" not in held[0], held
    assert "QuickBooks has it too" in held[0]
    assert "it differs from QuickBooks by exactly the 3 changes held" in done.stdout
    amount = next(v for a, v, *_ in twin.splits if a == "Checking")
    assert _copies(book, amount) == 3  # QuickBooks', the copy kept, the copy held


def test_a_decision_under_the_key_without_its_guid_still_applies(setup, tmp_path) -> None:
    """A decision stored by the runs that keyed a copy by its day alone (twice:KEY@DAY) still
    applies to the one copy of that day: it is not asked about again."""
    _later, _march, _tmp, key, (_june, twin) = setup
    older = key.rsplit("~", 1)[0]
    book, out = _run(setup, tmp_path, "--keep-book", older)
    assert "[twice:" not in out
    assert "Made in GnuCash, not compared: 2 transactions" in out
    amount = next(v for a, v, *_ in twin.splits if a == "Checking")
    assert _copies(book, amount) == 2
