"""Steps 4 and 5, Import and Download: refused while problems remain, the job region, the
book, the verification report and its CSV.

Through Flask's test client with real files and the real app; pages are checked by element id
and text with BeautifulSoup, and htmx requests (``HX-Request``) must get the swapped region alone.
"""

from __future__ import annotations

import io
import re
import time
import zipfile
from pathlib import Path

from bs4 import BeautifulSoup

from tests.support.web import (
    HX,
    WEB,
    differing_lists,
    is_fragment,
    new_migration,
    soup,
    upload,
    wait_done,
)


def test_import_is_refused_while_problems_remain_then_resolved(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "unknown_account.iif")
    r = client.post(f"{prefix}/import", headers=csrf | HX)
    assert r.status_code == 422 and is_fragment(r)
    listed = soup(r).select("#refused-problems li")
    assert any("unknown_account.iif:5" in li.text and "Heating Oil" in li.text for li in listed)
    # each with its own fix, on the step where it is done (the Map's report accounts here)
    fixes = {a["href"] for li in listed for a in li.select("a.fix")}
    assert fixes and all(f.endswith("/map#unresolved") for f in fixes), fixes
    assert "on the Map step" in soup(r).select_one("#must-fix").text
    assert "Files step" not in soup(r).select_one("#must-fix").text
    assert not (
        client.application.config["MIGRATIONS_DIR"]
        and any(Path(client.application.config["MIGRATIONS_DIR"]).rglob("job.json"))
    )
    page = soup(client.get(f"{prefix}/map"))
    assert page.select_one("#unresolved").text.count("Heating Oil")
    said = page.select_one("#tree-errors")  # the tree's note points at that section, above it
    assert "1 account name from the transaction files to place in Report accounts to place" in (
        said.text
    )
    assert said.select_one("a[href='#unresolved']") is not None
    # a label no file has is refused, not kept in the plan (hunt 24 L2: "goes to", and stored)
    for label in ("No such label", ""):
        nowhere = {"label": label, "target": "Nowhere:At:All"}
        refused = client.post(f"{prefix}/map/resolve", data=nowhere, headers=csrf | HX)
        assert refused.status_code == 422 and "No file has a report account" in refused.text
    assert "Nowhere" not in client.get(f"{prefix}/plan.json").text
    client.post(
        f"{prefix}/map/resolve",
        data={"label": "Heating Oil", "target": "Utilities:Gas"},
        headers=csrf | HX,
    )
    client.post(
        f"{prefix}/map/settings",
        data={"currency": "USD", "mode": "full", "opening_balances": "1"},
        headers=csrf | HX,
    )
    r = client.post(f"{prefix}/import", headers=csrf | HX)
    assert r.status_code == 200, r.get_data(as_text=True)
    assert wait_done(client, prefix).select_one("#to-download")


def test_import_download_and_report(client, tmp_path):
    from app.gnc import read_book

    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    assert client.get(f"{prefix}/download/book").status_code == 404
    assert "no finished book" in soup(client.get(f"{prefix}/download")).select_one("#no-book").text
    client.post(
        f"{prefix}/map/rules",
        data={"account": "Checking", "kind": "rename", "target": "Bank"},
        headers=csrf | HX,
    )
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    panel = wait_done(client, prefix)
    assert panel.select_one("#to-download") is not None, panel
    page = soup(client.get(f"{prefix}/download"))
    summary = page.select_one("#summary-line").text  # Bank, Utilities(:Gas), Sales, Opening Bal
    assert summary == "5 of 5 accounts match QuickBooks to the cent"
    assert page.select_one("#large-note") is None
    book = tmp_path / "lists.gnucash"
    with client.get(f"{prefix}/download/book") as r:
        assert r.status_code == 200
        assert r.headers["Content-Disposition"] == "attachment; filename=lists.gnucash"
        book.write_bytes(r.data)
    snap = read_book(book)
    assert snap.account("Bank").balance == 75
    assert snap.account("Utilities:Gas").balance == 25
    assert snap.transactions == 2
    with client.get(f"{prefix}/download/report.csv") as csv:
        assert csv.headers["Content-Disposition"] == "attachment; filename=lists-verification.csv"
        lines = csv.get_data(as_text=True).splitlines()
    assert lines[0] == (
        "account,quickbooks_account,quickbooks_balance,gnucash_balance,difference,basis,as_of,cause"
    )
    assert any(line.startswith("Bank,Checking,75.00,75.00,0.00,all time,") for line in lines)
    home = soup(client.get("/")).select_one("#migrations").text
    assert "Matches QuickBooks to the cent" in home and "book written" in home


def test_import_with_no_files(client):
    prefix, csrf = new_migration(client)
    r = client.post(f"{prefix}/import", headers=csrf | HX)
    assert r.status_code == 422 and "no files yet" in r.get_data(as_text=True)


def test_progress_says_what_the_import_does(client, monkeypatch):
    """The running region names its phase in plain words; a step of one shows no count."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    monkeypatch.setenv("QB2GNUCASH_WORKER_DELAY", "60")  # the worker waits after reading
    client.post(f"{prefix}/import", headers=csrf | HX)
    deadline = time.monotonic() + 30
    while (said := soup(client.get(f"{prefix}/job", headers=HX)).select_one("#job-phase")) and (
        not said.text.endswith("(file 2 of 2)") and time.monotonic() < deadline
    ):
        time.sleep(0.1)
    # the phase, its place among the import's steps, one bar for them all, the last file read
    # with its rows, as the upload's bar says them (issue 27, item 4)
    assert said is not None
    assert said.text == "Step 5 of 13: Reading txns.iif — 9 rows read (file 2 of 2)"
    panel = soup(client.get(f"{prefix}/job", headers=HX))
    bar = panel.select_one("[role=progressbar]")
    assert bar["aria-valuenow"] == "32"  # the reading's whole share, after the upload's
    steps = [li.text for li in panel.select("#job-phases li")]  # the upload's ticked, then these
    assert len(steps) == 13 and steps[:4] == ["✓ send", "✓ read", "✓ check", "✓ preview"]
    assert steps[4] == "5 read the files for the book" and steps[-1] == "13 compare with QuickBooks"
    assert soup(client.post(f"{prefix}/job/cancel", headers=csrf | HX)).select_one("#job")


def test_the_import_step_says_when_the_book_was_written_with_earlier_settings(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    client.post(f"{prefix}/import", headers=csrf | HX)
    assert wait_done(client, prefix).select_one("#to-download") is not None
    assert soup(client.get(f"{prefix}/import")).select_one("#job-outdated") is None
    assert soup(client.get(f"{prefix}/download")).select_one("#book-outdated") is None
    rename = {"account": "Checking", "kind": "rename", "target": "Bank"}
    client.post(f"{prefix}/map/rules", data=rename, headers=csrf | HX)
    for panel in (
        soup(client.get(f"{prefix}/import")),
        soup(client.get(f"{prefix}/job", headers=HX)),
    ):
        assert "made with earlier settings" in panel.select_one("#job-outdated").text
        assert panel.select_one("#to-download") is None
        assert "primary" in panel.select_one("#start-import")["class"]
    page = soup(client.get(f"{prefix}/download"))  # the book is still offered, said to be old
    assert "with earlier settings" in page.select_one("#book-outdated").text
    assert page.select_one("#download-book") is not None
    client.post(f"{prefix}/map/rules/0/delete", headers=csrf | HX)  # back to the job's plan
    assert soup(client.get(f"{prefix}/import")).select_one("#to-download") is not None
    assert soup(client.get(f"{prefix}/download")).select_one("#book-outdated") is None


def test_large_history_note(client, monkeypatch):
    from app.web import jobs as job_views

    monkeypatch.setattr(job_views, "LARGE_HISTORY", 1)
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    assert "large history" in soup(client.get(f"{prefix}/import")).text
    client.post(f"{prefix}/import", headers=csrf | HX)
    wait_done(client, prefix)
    note = soup(client.get(f"{prefix}/download")).select_one("#large-note").text
    assert "GnuCash 4.x needs a long time to open" in note and "5.0 to 5.6" in note
    assert "GnuCash 5.7 and later open it quickly" in note


def test_balances_by_kind_picture(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    client.post(f"{prefix}/import", headers=csrf | HX)
    wait_done(client, prefix)
    rows = soup(client.get(f"{prefix}/download")).select("#families tbody tr")
    cells = [[td.text for td in tr.select("td")[:3]] for tr in rows]
    assert cells == [
        ["Assets", "75.00", "75.00"],
        ["Liabilities", "0.00", "0.00"],
        ["Equity (without this year's net income)", "0.00", "0.00"],
        ["Income (this fiscal year)", "100.00", "100.00"],  # a credit: positive, as GnuCash
        ["Expenses (this fiscal year)", "25.00", "25.00"],
    ]
    assert rows[0].select_one(".bar.qb")["style"] == "width: 75%"


def large_company() -> tuple[bytes, bytes]:
    """lists.iif and txns.iif with amounts in the millions (the same two transactions)."""
    lists = (WEB / "lists.iif").read_text(encoding="utf-8")
    for old, new in (("75.00", "1222222.22"), ("25.00", "12345.67"), ("100.00", "1234567.89")):
        lists = lists.replace(old, new)
    txns = (WEB / "txns.iif").read_text(encoding="utf-8")
    for old, new in (("25.00", "12345.67"), ("100.00", "1234567.89")):
        txns = txns.replace(old, new)
    return lists.encode(), txns.encode()


MONEY = re.compile(r"-?\d{1,3}(,\d{3})*\.\d{2}")


def test_the_download_page_has_one_sign_convention_and_formatted_numbers(client):
    """Issue 27, item 2 (issue 13, item 26 before it): every table of the proof in GnuCash's
    account tree's signs (each account's usual balance positive: income and liabilities too),
    said once in words; every amount with thousands separators, 2 decimals, a minus sign only
    for a balance on the unusual side; the printable report the same; the CSV keeps a trial
    balance's debit and credit signs."""
    lists, txns = large_company()
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", data=lists)
    upload(client, prefix, csrf, "txns.iif", data=txns)
    client.post(f"{prefix}/import", headers=csrf | HX)
    assert wait_done(client, prefix).select_one("#job")["data-state"] == "done"
    page = soup(client.get(f"{prefix}/download"))
    assert len(page.select("#sign-note")) == 1
    note = page.select_one("#sign-note").text
    assert "each account's usual balance is positive" in note
    assert "Difference is GnuCash minus QuickBooks" in note
    amounts = [td.text for td in page.select("#families td.num, table.tb td.num:not(.mark)")]
    assert amounts and all(MONEY.fullmatch(a) for a in amounts), amounts
    rows = {
        tr.select("td")[1].text: [td.text for td in tr.select("td.num")]
        for tr in page.select("table.tb tr.account")
    }
    assert rows["Sales"] == ["1,234,567.89", "1,234,567.89", "✓"]
    assert rows["Checking"] == ["1,222,222.22", "1,222,222.22", "✓"]
    kinds = {
        tr.select("td")[0].text: [td.text for td in tr.select("td.num")]
        for tr in page.select("#families tbody tr")
    }
    assert kinds["Income (this fiscal year)"] == ["1,234,567.89", "1,234,567.89"]  # as Sales
    assert kinds["Expenses (this fiscal year)"] == ["12,345.67", "12,345.67"]
    checks = page.select_one("#checks").text
    assert "transaction lines (GnuCash calls them splits): expected 4" in checks
    assert "none expected): expected 0, GnuCash book 0" in checks
    assert "first transaction date: expected 2024-02-01" in checks
    facts = [dt.text for dt in page.select("#imported dt")]
    assert "Transaction lines (splits)" in facts and "Splits" not in facts
    with client.get(f"{prefix}/download/report.csv") as r:
        assert "Sales,Sales,-1234567.89,-1234567.89,0.00," in r.get_data(as_text=True)
    pack = client.get(f"{prefix}/download/audit.zip")
    with zipfile.ZipFile(io.BytesIO(pack.data)) as z:
        name = next(n for n in z.namelist() if n.endswith(".html"))
        report = BeautifulSoup(z.read(name).decode(), "html.parser")
    pack.close()
    assert "each account's usual balance is positive" in report.select_one("#sign-note").text
    income = report.select("#families tbody tr")[3].select("td.num")
    assert [td.text for td in income[:2]] == ["1,234,567.89", "1,234,567.89"]
    sales = report.select_one("table.tb tr.account[data-account='Sales']").select("td.num")
    assert [td.text for td in sales] == ["1,234,567.89", "1,234,567.89", "✓"]


def test_import_page_shows_warnings_before_writing(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "unknown_account.iif")
    client.post(
        f"{prefix}/map/resolve",
        data={"label": "Heating Oil", "target": "Utilities:Gas"},
        headers=csrf,
    )
    box = soup(client.get(f"{prefix}/import")).select_one("#import-warnings")
    assert "Checking: QuickBooks balance 75.00" in box.text
    # the heading sends the user to no one step: each warning says where it is settled
    head = " ".join(box.select_one("summary").text.split())
    assert head.endswith(
        "each says what settles it, on the Files or the Map step, where something does."
    )
    assert [a.text for a in box.select("summary a")] == ["Files", "Map"]
    assert soup(client.get(f"{prefix}/import")).select_one("#start-import") is not None


def test_a_book_that_differs_is_said_first_and_offered_behind_it(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", data=differing_lists())
    upload(client, prefix, csrf, "txns.iif")
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    panel = wait_done(client, prefix)
    assert panel.select_one("#job")["data-state"] == "differs"
    said = panel.select_one("#job-differs")
    assert "Needs your attention: 2 accounts differ" in said.text and "error" in said["class"]
    assert "written and checked" not in panel.text
    page = soup(client.get(f"{prefix}/download"))
    first = page.select_one("main .message")
    assert first["id"] == "differs-first" and "2 accounts differ" in first.text
    button = page.select_one("#download-book")
    assert "anyway, with its differences" in button.text
    assert page.select("#differences tr.differs") and button.find_previous(id="differences")
    r = client.get(f"{prefix}/download/book")  # a link straight to the book: the page first
    assert r.status_code == 303 and r.location.endswith(f"{prefix}/download")
    with client.get(button["href"]) as book:
        assert book.status_code == 200 and book.headers["Content-Disposition"].startswith(
            "attachment"
        )
    with client.get(f"{prefix}/download/report.csv") as report:
        assert report.status_code == 200
    home = soup(client.get("/")).select_one("#migrations").text
    assert "Needs your attention: 2 accounts differbook written" in home  # (a line break between)


def test_cancelling_a_new_import_keeps_the_previous_book_marked_as_such(client, monkeypatch):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    client.post(f"{prefix}/import", headers=csrf | HX)
    assert wait_done(client, prefix).select_one("#job")["data-state"] == "done"
    with client.get(f"{prefix}/download/book") as r:
        first = r.data
    rename = {"account": "Checking", "kind": "rename", "target": "Bank"}
    client.post(f"{prefix}/map/rules", data=rename, headers=csrf | HX)
    monkeypatch.setenv("QB2GNUCASH_WORKER_DELAY", "60")  # the worker waits after reading
    client.post(f"{prefix}/import", headers=csrf | HX)
    page = soup(client.get(f"{prefix}/download"))
    assert "a new import is running" in page.select_one("#previous-book").text
    panel = soup(client.post(f"{prefix}/job/cancel", headers=csrf | HX))
    assert panel.select_one("#job")["data-state"] == "cancelled"
    assert "from the settings you had then" in panel.select_one("#kept-book").text
    page = soup(client.get(f"{prefix}/download"))
    assert page.select_one("#no-book") is None
    said = page.select_one("#previous-book").text
    assert "book of your previous import" in said and "latest import was cancelled" in said
    with client.get(page.select_one("#download-book")["href"]) as r:
        assert r.status_code == 200 and r.data == first
    with client.get(f"{prefix}/download/report.csv") as r:
        assert r.status_code == 200 and "Checking,Checking,75.00" in r.get_data(as_text=True)
    assert "is kept" in soup(client.get("/")).select_one("#migrations").text
    monkeypatch.delenv("QB2GNUCASH_WORKER_DELAY")
    client.post(f"{prefix}/import", headers=csrf | HX)
    assert wait_done(client, prefix).select_one("#job")["data-state"] == "done"
    page = soup(client.get(f"{prefix}/download"))
    assert page.select_one("#previous-book") is None
    with client.get(f"{prefix}/download/report.csv") as r:
        assert "Bank,Checking,75.00" in r.get_data(as_text=True)


def test_import_refused_for_a_file_that_is_no_export_points_at_its_remove_button(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    letter = b"Dear Jim,\r\n\r\nThank you for the plants. They arrived on Friday as agreed.\r\n"
    upload(client, prefix, csrf, "letter.txt", data=letter)
    r = client.post(f"{prefix}/import", headers=csrf | HX)
    assert r.status_code == 422
    part = soup(r)
    said = part.select_one("#must-fix").text
    assert "on the Files step, remove the file that is not a QuickBooks export" in said
    assert "Map step" not in said
    (fix,) = {a["href"] for a in part.select("#refused-problems a.fix")}
    assert fix.endswith("/files#remove-letter_txt")
    files = soup(client.get(f"{prefix}/files"))
    assert files.select_one("#remove-letter_txt") is not None  # the link lands on it


def test_a_stale_cancel_and_a_removal_leave_the_running_import_alone(client, monkeypatch):
    """The first tab's Cancel, shown for an import that has finished, cancelled the import
    another tab had started since; a file removed while the import read it was removed, and
    the import failed, told to free some space (hunt 24). The cancel names the import it was
    shown for; a removal waits for the import."""
    from app.jobs import load

    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    client.post(f"{prefix}/import", headers=csrf | HX)
    assert wait_done(client, prefix).select_one("#job")["data-state"] == "done"
    store = client.application.extensions["store"]
    first = load(store.open(prefix.rsplit("/", 1)[1]).job_path).id  # (the finished import)
    monkeypatch.setenv("QB2GNUCASH_WORKER_DELAY", "60")  # the worker waits after reading
    running = soup(client.post(f"{prefix}/import", headers=csrf | HX))
    shown = running.select_one("#job form input[name=job]")["value"]
    assert shown != first
    panel = soup(client.post(f"{prefix}/job/cancel", data={"job": first}, headers=csrf | HX))
    assert panel.select_one("#job")["data-state"] not in ("cancelled",)  # (still running)
    r = client.post(f"{prefix}/files/txns.iif/delete", headers=csrf | HX)
    assert r.status_code == 409 and "is being read by the import that is running" in r.text
    assert "txns.iif" in soup(client.get(f"{prefix}/files")).text
    panel = soup(client.post(f"{prefix}/job/cancel", data={"job": shown}, headers=csrf | HX))
    assert panel.select_one("#job")["data-state"] == "cancelled"
    assert client.post(f"{prefix}/files/txns.iif/delete", headers=csrf | HX).status_code == 200
