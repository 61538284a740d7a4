"""The wizard's "Bring an existing book up to date" through Flask's test client: a book converted
from the first export uploaded with the later exports, the result page and the updated book
(reopened through the engine); a book the wizard wrote itself offered; refusals as pages with
their message, never a 500, nothing kept."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest

from app import gnc, pipeline
from app.plan import Plan
from tests.support.companygen_later import RENAMED, Later, exports, later_company
from tests.support.exports_edit import bill_left_out
from tests.support.web import decide_held, soup, token

HX = {"HX-Request": "true"}


@pytest.fixture(scope="module")
def later() -> Later:
    return later_company(250, seed=4)


@pytest.fixture(scope="module")
def march_book(later: Later, tmp_path_factory) -> tuple[Path, list[Path]]:
    tmp = tmp_path_factory.mktemp("web-update")
    (tmp / "march").mkdir()
    (tmp / "june").mkdir()
    files = [
        later.first.write_lists_iif(tmp / "march" / "lists.iif"),
        later.first.write_journal_csv(tmp / "march" / "journal.csv"),
    ]
    plan = Plan()
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    book = tmp / "march.gnucash"
    assert pipeline.write(prepared, book, plan).report.ok
    june = [
        later.second.write_lists_iif(tmp / "june" / "lists.iif"),
        later.second.write_journal_csv(tmp / "june" / "journal.csv"),
    ]
    return book, june


def _post(client, book: Path | None, files: list[Path], **extra):
    data: dict = {"csrf_token": token(client), **extra}
    if book is not None:
        data["book"] = (io.BytesIO(book.read_bytes()), book.name)
    data["files"] = [(io.BytesIO(p.read_bytes()), p.name) for p in files]
    return client.post("/update", data=data, content_type="multipart/form-data")


def _home_state(client, location: str):
    """The home list's state cell of the update whose result page is at ``location``."""
    row = next(
        tr
        for tr in soup(client.get("/")).select("#migrations tbody tr")
        if tr.select_one("a.button")["href"] == location
    )
    return row.select_one(".state.update")


def test_home_offers_the_update_and_its_page_has_the_form(client) -> None:
    home = soup(client.get("/"))
    assert home.select_one("#update-existing")["href"] == "/update"
    page = soup(client.get("/update"))
    assert page.select_one("#update-form input[type=file][name=book]")
    assert page.select_one("#update-form input[type=file][name=files][multiple]")


def test_an_uploaded_book_brought_up_to_date(client, app, march_book, later: Later) -> None:
    book, june = march_book
    r = _post(client, book, june)
    assert r.status_code == 303, r.get_data(as_text=True)
    page = soup(client.get(r.location))
    summary = page.select_one("#update-summary").get_text(" ")
    assert f"{len(later.added)} transactions added" in summary
    assert "2 changes to transactions in QuickBooks held" in summary
    assert page.select_one("#update-held"), page.select_one("#update-proof")
    # the user's own file was never written: said so, no server path given
    assert "Your own copy of the book is untouched" in summary
    assert "The previous book is kept as" not in summary
    assert page.select_one("nav.steps") is None  # an update is not one of the five steps
    # the per-account table: ✓ where this run added QuickBooks' movement, else why not
    marks = [
        tr.select("td")[-1].get_text(" ").strip() for tr in page.select("#update-deltas tr")[1:]
    ]
    assert "✓" in marks and "—" not in marks and all(marks), marks
    assert any("in changes held (listed above)" in m for m in marks), marks
    assert not any("not explained" in m for m in marks), marks  # Retained Earnings too:
    assert any("is the income and expense of the years before" in m for m in marks), marks
    # the home list says what it did and opens its result, not the five steps
    state = _home_state(client, r.location)
    assert state.text == "Brought up to date: differs from QuickBooks by the 2 changes held"
    assert "proof-warn" in state["class"] and "not imported yet" not in state.find_parent("tr").text
    differs = [li.text for li in page.select("#update-differences li")]
    said = next(d for d in differs if d.startswith("Retained Earnings: "))
    assert said.startswith("Retained Earnings: QuickBooks 36,298.04, GnuCash 35,051.65")  # credit +
    out = app.extensions["store"].root.parent / "downloaded.gnucash"
    with client.get(page.select_one("#download-updated")["href"]) as got:
        assert got.status_code == 200
        # never the name of the book given: saved beside it, it would replace it
        said = got.headers["Content-Disposition"]
        assert f"{book.stem}-updated.gnucash" in said and f"={book.name}" not in said
        out.write_bytes(got.data)
    snap = gnc.read_book(out)
    assert snap.transactions >= len(later.second.transactions)
    assert snap.account(later.new_account) is not None


def test_refusals_are_pages_not_500s_and_keep_nothing(client, app, march_book, later) -> None:
    book, june = march_book
    root = app.extensions["store"].root
    kept = lambda: sorted(p.name for p in root.iterdir() if not p.name.startswith("."))  # noqa: E731
    before = kept()
    r = _post(client, None, june)
    assert r.status_code == 400 and "Choose the GnuCash book" in r.get_data(as_text=True)
    r = _post(client, book, [])
    assert r.status_code == 400 and "later QuickBooks exports" in r.get_data(as_text=True)
    other = replace(later.second, name="Other Landscaping Co")
    folder = app.extensions["store"].root.parent / "other"
    folder.mkdir(parents=True, exist_ok=True)
    files = [
        other.write_lists_iif(folder / "lists.iif"),
        other.write_journal_csv(folder / "journal.csv"),
    ]
    r = _post(client, book, files)
    assert r.status_code == 422 and "Other Landscaping Co" in r.get_data(as_text=True)
    # said with the book as the user named it, and that it is as it was (hunt 28: the stored
    # name, "Green_Valley.gnucash", and a sentence starting in lower case on its own)
    spaced = folder / "Green Valley.gnucash"
    spaced.write_bytes(book.read_bytes())
    said = soup(_post(client, spaced, files)).select_one("#error-message").text
    assert "Your book was not changed: these exports are of “Other Landscaping Co”" in said
    assert "Green Valley.gnucash holds" in said and "Green_Valley" not in said, said
    junk = folder / "book.gnucash"
    junk.write_bytes(b"not a book at all")
    r = _post(client, junk, june)
    said = "book.gnucash is not a GnuCash book (neither GnuCash&#39;s XML nor SQLite)"
    assert r.status_code == 422 and said in r.get_data(as_text=True)
    # an export no copy of which is kept (a binary file) is named, not "these exports hold no
    # transactions" (hunt 20)
    binary = folder / "journal.csv"
    binary.write_bytes(b"\x00\x01garbage")
    r = _post(client, book, [june[0], binary])
    said = "journal.csv:1: this is not a QuickBooks export"
    assert r.status_code == 422 and said in r.get_data(as_text=True), r.get_data(as_text=True)
    assert kept() == before


def test_a_book_the_wizard_wrote_is_offered_and_brought_up_to_date(client, march_book, later):
    """A migration imported in the wizard (its own book), then picked on the update page."""
    from tests.support.web import new_migration, wait_done

    _book, june = march_book
    prefix, csrf = new_migration(client)
    march = [june[0].parent.parent / "march" / n for n in ("lists.iif", "journal.csv")]
    files = [(io.BytesIO(p.read_bytes()), p.name) for p in march]
    assert (
        client.post(f"{prefix}/files", data={"files": files}, headers=csrf | HX).status_code == 200
    )
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    assert wait_done(client, prefix).select_one("#to-download")
    mid = prefix.rsplit("/", 1)[-1]
    offered = soup(client.get("/update")).select("#earlier-books input[name=earlier]")
    assert [i["value"] for i in offered] == [mid]
    r = _post(client, None, june, earlier=mid)
    assert r.status_code == 303, r.get_data(as_text=True)
    summary = soup(client.get(r.location)).select_one("#update-summary").get_text(" ")
    assert f"{len(later.added)} transactions added" in summary
    # the wizard's own book is left as it was: the update worked on a copy
    again = _post(client, None, june, earlier=mid)
    said = soup(client.get(again.location)).select_one("#update-summary").get_text(" ")
    assert f"{len(later.added)} transactions added" in said
    # the books those updates brought up to date are offered too, the latest first: next
    # month's update starts from one (only the first conversion's was offered)
    listed = soup(client.get("/update")).select("#earlier-books li")
    updates = [u.location.split("/")[2] for u in (again, r)]
    assert [li.select_one("input")["value"] for li in listed] == [*updates, mid]
    assert "(brought up to date)" in listed[0].text and "(converted)" in listed[-1].text
    # each with its verdict, as the home list says it
    assert listed[0].select_one(".state").text.startswith("Brought up to date: ")
    assert listed[-1].select_one(".state").text  # the conversion's proof, in words
    latest = _post(client, None, june, earlier=updates[0])
    said = soup(client.get(latest.location)).select_one("#update-summary").get_text(" ")
    assert "0 transactions added" in said  # it already holds everything in these exports


def test_held_changes_decided_on_the_result_page(client, march_book, later: Later) -> None:
    book, june = march_book
    r = _post(client, book, june)
    page = soup(client.get(r.location))
    held = page.select("#held-changes li.held")
    assert len(held) == 3  # the edited check, the deleted one, the account renamed in QuickBooks
    assert "renamed in QuickBooks" in page.select_one('li.held[data-key="account:6800"]').text
    edited = next(li for li in held if "edited in QuickBooks" in li.get_text())
    key = edited["data-key"]
    form = {"csrf_token": token(client), "key": key, "choice": "quickbooks"}
    after = decide_held(client, r.location, key, "quickbooks")
    summary = after.select_one("#update-summary").get_text(" ")
    assert "Taken from QuickBooks (your decision)" in summary
    assert len(after.select("#update-decisions li")) == 1
    # what the update itself added stays on the page after the run that applies a decision
    # (it said only "0 transactions added ... Nothing new"), its per-account table with it
    first = after.select_one("#update-first").get_text(" ")
    assert f"{len(later.added)} transactions added" in first
    assert after.select("#update-deltas tbody tr")
    left = [li["data-key"] for li in after.select("#held-changes li.held")]
    assert key not in left and len(left) == 2 and "account:6800" in left
    form = {**form, "key": "account:6800"}  # QuickBooks' name taken: the book's account renamed
    renamed = soup(client.get(client.post(f"{r.location}/decide", data=form).location))
    said = renamed.select_one("#update-summary").get_text(" ")
    assert f"renamed “{RENAMED[1]}”" in said, said
    # both decisions stay listed, in the order made (the page listed only the last one's run)
    decisions = [li.get_text(" ") for li in renamed.select("#update-decisions li")]
    assert len(decisions) == 2, decisions
    assert decisions[0].startswith("Take QuickBooks' version") and "edited" in decisions[0]
    assert decisions[1].startswith("Rename it as QuickBooks has it"), decisions
    assert len(renamed.select("#held-changes li.held")) == 1
    wrong = client.post(f"{r.location}/decide", data={**form, "key": "ref:nope"})
    assert wrong.status_code == 400 and "not among the ones" in wrong.get_data(as_text=True)


def test_the_result_page_heading_says_what_is_left_to_decide(client, march_book, later, tmp_path):
    """The same exports again: "already up to date"; the same exports with one transaction
    edited in QuickBooks: nothing added, and the heading says a change waits for a decision (it
    said "already up to date" while the book differed from QuickBooks by that change)."""
    book, _june = march_book
    same = [
        later.first.write_lists_iif(tmp_path / "lists.iif"),
        later.first.write_journal_csv(tmp_path / "journal.csv"),
    ]
    page = soup(client.get(_post(client, book, same).location))
    assert page.select_one("h1").text == "The book was already up to date"
    txns = list(later.first.transactions)
    at = next(i for i, t in enumerate(txns) if t.type == "Check" and t.num)
    txns[at] = replace(txns[at], num=txns[at].num + "A")  # its number edited in QuickBooks
    edited = replace(later.first, transactions=txns)
    (tmp_path / "edited").mkdir()
    files = [
        edited.write_lists_iif(tmp_path / "edited" / "lists.iif"),
        edited.write_journal_csv(tmp_path / "edited" / "journal.csv"),
    ]
    page = soup(client.get(_post(client, book, files).location))
    assert page.select_one("h1").text == "Nothing added: 1 change to decide"
    assert len(page.select("#held-changes li.held")) == 1


def test_nothing_new_proves_the_book_again(client, later: Later, tmp_path) -> None:
    """The same exports again, into a book whose conversion's proof differed (a bill the Unpaid
    Bills report leaves out): nothing added, but the page shows the proof with the vendor that
    differs, and the home list says it needs attention (it said "already up to date", green)."""
    files = exports(later.first, tmp_path / "march")
    vendor = bill_left_out(tmp_path / "march" / "unpaid_bills.csv")
    plan = Plan()
    book = tmp_path / "march.gnucash"
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    assert not pipeline.write(prepared, book, plan).report.ok
    r = _post(client, book, files)
    page = soup(client.get(r.location))
    assert page.select_one("h1").text == "Nothing added: the book differs from QuickBooks"
    assert f"vendor {vendor}: open balance QuickBooks" in page.select_one("#update-proof").text
    assert page.select_one("#download-updated") is None  # (nothing written: nothing to offer)
    state = _home_state(client, r.location)
    assert state.text == "Nothing added: Needs your attention (it differs from QuickBooks)"
    assert "proof-error" in state["class"]


def test_what_was_made_in_gnucash_is_never_called_up_to_date_and_matching(
    client, march_book, later: Later, tmp_path
) -> None:
    """The same exports again, after a transaction was entered in GnuCash alone: nothing new,
    but the page and the home list say the book differs from QuickBooks by it (amber), with its
    effect on each account; they said "already up to date", green."""
    from tests.support.gnucash_edits import editing, enter

    book, _june = march_book
    mine = tmp_path / "mine.gnucash"
    mine.write_bytes(book.read_bytes())
    day = max(t.date for t in later.first.transactions)
    with editing(mine) as b:
        enter(b, day, [("Checking", -4500), ("Bank Service Charges", 4500)], "Fee")
    same = [
        later.first.write_lists_iif(tmp_path / "lists.iif"),
        later.first.write_journal_csv(tmp_path / "journal.csv"),
    ]
    r = _post(client, mine, same)
    page = soup(client.get(r.location))
    own = page.select_one("#update-own")
    assert own is not None and "message warn" in " ".join(own["class"]), page.text
    assert (
        "the 1 transaction made in GnuCash alone (Bank Service Charges debited 45.00; Checking "
        "credited 45.00)"
    ) in own.text
    state = _home_state(client, r.location)
    assert state.text == "Already up to date: differs from QuickBooks by what was done in GnuCash"
    assert "proof-warn" in state["class"]


@pytest.mark.parametrize("name", ["result.json", "Книга.gnucash"])
def test_a_book_given_under_an_odd_name_is_the_one_brought_up_to_date(
    client, march_book, later: Later, tmp_path, name
) -> None:
    """A book uploaded as ``result.json`` was replaced by the update's own result file, and
    that JSON served as "the updated book"; one named in Cyrillic was stored as ``gnucash``,
    downloaded with no extension (hunt 24). Stored as ``book.gnucash`` now: the book served
    is the updated book, reopened through the engine."""
    book, june = march_book
    odd = tmp_path / name
    odd.write_bytes(book.read_bytes())
    r = _post(client, odd, june)
    assert r.status_code == 303, r.get_data(as_text=True)
    page = soup(client.get(r.location))
    out = tmp_path / "downloaded.gnucash"
    with client.get(page.select_one("#download-updated")["href"]) as got:
        assert got.status_code == 200
        assert "book-updated.gnucash" in got.headers["Content-Disposition"]
        out.write_bytes(got.data)
    snap = gnc.read_book(out)
    assert snap.transactions >= len(later.second.transactions)
