"""Step 1, Files: uploads (several, wrong, duplicate, oversized, oddly named), what each file
holds, removing, the date order, and the hand mapping of a CSV's columns.

Through Flask's test client with real files and the real app; pages are checked by element id
and text with BeautifulSoup, and htmx requests (``HX-Request``) must get the swapped region alone.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from app import create_app
from tests.support.web import HX, WEB, is_fragment, new_migration, signed_in, soup, upload


def test_upload_several_files_shows_what_each_holds(client):
    prefix, csrf = new_migration(client)
    r = upload(client, prefix, csrf, "lists.iif", "txns.iif")
    assert r.status_code == 200 and is_fragment(r)
    page = soup(r)
    cards = {c["data-filename"]: c.text for c in page.select("#files article.file")}
    assert list(cards) == ["lists.iif", "txns.iif"]
    assert "IIF lists" in cards["lists.iif"] and "Accounts" in cards["lists.iif"]
    assert "IIF transactions" in cards["txns.iif"]
    assert "2024-02-01 to 2024-02-02" in cards["txns.iif"]
    full = client.get(f"{prefix}/files")
    assert not is_fragment(full)
    assert soup(full).select_one(".steps .current").text.strip().endswith("Files")


def test_a_cards_facts_are_in_a_bookkeepers_words(client, samples_dir):
    """A real Windows-1252 export's card names its encoding as a person does, and a count of
    records not imported links to the Preview's list of what they are and why."""
    prefix, csrf = new_migration(client)
    for name in ("minimul__iif-parser__windows-1252.iif", "gitpan__Finance-IIF__sample.iif"):
        upload(client, prefix, csrf, name, data=(samples_dir / name).read_bytes())
    page = soup(client.get(f"{prefix}/files"))
    facts = {
        card["data-filename"]: {
            d.select_one("dt").contents[0].strip(): d for d in card.select("dl.facts > div")
        }
        for card in page.select("article.file")
    }
    windows = facts["minimul__iif-parser__windows-1252.iif"]["Text encoding"]
    assert windows.select_one("dd").text == "Windows (Western European, 1252)"
    skipped = facts["gitpan__Finance-IIF__sample.iif"]["Not imported"]
    assert int(skipped.select_one("dd").text) > 0
    assert skipped.select_one("a.what-why")["href"] == f"{prefix}/preview#not-imported"
    assert soup(client.get(f"{prefix}/preview")).select_one("#not-imported") is not None


@pytest.mark.parametrize("htmx", [True, False])
def test_the_upload_reads_the_files_for_the_preview(app, client, htmx):
    """The parse and the Preview's view models are made by the upload (the slow part happens
    under its progress bar); the first Preview only shows them."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif", htmx=htmx)
    m = app.extensions["store"].open(prefix.rsplit("/", 1)[1])
    made = app.extensions["views"].view(m).page("preview", lambda: pytest.fail("made again"))
    assert [n for n, _ in made["counts"]][:2] == ["Accounts", "Transactions"]
    assert dict(made["counts"])["Transactions"] == 2
    assert "Checking" in client.get(f"{prefix}/preview").get_data(as_text=True)


def test_upload_without_htmx_redirects_back(client):
    prefix, csrf = new_migration(client)
    r = upload(client, prefix, csrf, "lists.iif", htmx=False)
    assert r.status_code == 303 and r.location.endswith("/files")


@pytest.mark.parametrize(
    ("name", "data", "status", "words"),
    [
        ("invoice.pdf", b"%PDF-1.4", 415, "only QuickBooks exports"),
        ("run.exe", b"MZ\x90\x00", 415, "only QuickBooks exports"),
        ("empty.iif", b"", 400, "is empty"),
        ("...", b"x", 400, "no usable file name"),
    ],
)
def test_wrong_uploads_are_refused_with_a_message(client, name, data, status, words):
    prefix, csrf = new_migration(client)
    files = {"files": [(io.BytesIO(data), name)]}
    r = client.post(f"{prefix}/files", data=files, headers=csrf | HX)
    assert r.status_code == status
    assert words in r.get_data(as_text=True)
    # said in the files region itself (issue 27, item 7), replacing whatever it said before
    assert "HX-Retarget" not in r.headers
    assert words in soup(r).select_one("section#files .message.error").text
    r = client.post(f"{prefix}/files", data={"files": [(io.BytesIO(data), name)]}, headers=csrf)
    assert r.status_code == status and "<html" in r.get_data(as_text=True)


def test_a_file_that_cannot_be_read_is_said_once_by_its_card(client):
    prefix, csrf = new_migration(client)
    r = upload(client, prefix, csrf, "junk.txt", data=b"\x00\x01hello\nnothing here\n")
    page = soup(r)
    assert page.select_one("#files .message.ok") is None  # no green "Added" beside a red card
    card = page.select_one("article[data-filename='junk.txt']")
    assert "has-errors" in card["class"] and "not a QuickBooks export" in card.text
    assert "a binary file" in card.text
    r = upload(client, prefix, csrf, "lists.iif")
    assert soup(r).select_one("#files .message.ok").text.strip() == "Added lists.iif."


def test_a_transactions_file_shows_its_problems_and_asks_for_the_lists(client):
    prefix, csrf = new_migration(client)
    card = soup(upload(client, prefix, csrf, "txns.iif")).select_one(
        "article[data-filename='txns.iif']"
    )
    assert "Lists to IIF Files" in card.select_one("#needs-chart").text
    problems = card.select_one("details.problems")
    assert "5 problems in this file (4 to fix)" in problems.select_one("summary").text
    assert "txns.iif:4: choose a GnuCash type for account “Checking”" in problems.text
    # the Map step lists them with the control that sets a type (it said neither)
    tree = soup(client.get(f"{prefix}/map")).select_one("#tree-problems").text
    assert (
        "choose a GnuCash type for account “Checking”; to fix: on the Map step, choose “Change…” "
        "beside it in “The GnuCash accounts” and pick its GnuCash type" in tree
    )
    page = soup(upload(client, prefix, csrf, "lists.iif"))
    assert page.select_one("#needs-chart") is None
    left = page.select_one("article[data-filename='txns.iif'] details.problems")
    assert [li.text.split(": ")[1] for li in left.select("li")] == [  # (its dates only: 1-12)
        "its dates fit either order (no day past the 12th) and were read M/D/Y, and no other file "
        "tells"
    ]


def test_no_file_chosen(client):
    prefix, csrf = new_migration(client)
    r = client.post(f"{prefix}/files", data={}, headers=csrf)
    assert r.status_code == 400 and "Choose one or more" in r.get_data(as_text=True)


def test_duplicate_upload_is_refused_and_the_first_kept(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    r = upload(client, prefix, csrf, "lists.iif", data=b"!ACCNT\tNAME\n")
    assert r.status_code == 409 and "already uploaded" in r.get_data(as_text=True)
    r = upload(client, prefix, csrf, "lists.iif", "txns.iif")  # one twin among new files
    assert r.status_code == 200
    assert "already uploaded" in soup(r).select_one("#files .message.error").text


def test_uploaded_names_are_sanitised(client, app):
    prefix, csrf = new_migration(client)
    data = (WEB / "lists.iif").read_bytes()
    r = client.post(
        f"{prefix}/files",
        data={"files": [(io.BytesIO(data), "../../../etc/passwd.iif")]},
        headers=csrf | HX,
    )
    assert r.status_code == 200
    assert [c["data-filename"] for c in soup(r).select("article.file")] == ["etc_passwd.iif"]
    root = Path(app.config["MIGRATIONS_DIR"])
    stored = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.iif"))
    assert stored == [f"{prefix.rsplit('/', 1)[1]}/uploads/etc_passwd.iif"]


def test_oversized_upload_is_413_with_a_clear_message(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "MAX_CONTENT_LENGTH": 1024})
    client = signed_in(app)
    prefix, csrf = new_migration(client)
    r = upload(client, prefix, csrf, "big.iif", data=b"!ACCNT\tNAME\n" + b"x" * 4096)
    assert r.status_code == 413
    assert "larger than the limit" in r.get_data(as_text=True)


def test_remove_a_file(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    r = client.post(f"{prefix}/files/txns.iif/delete", headers=csrf | HX)
    assert [c["data-filename"] for c in soup(r).select("article.file")] == ["lists.iif"]
    said = soup(r).select_one("#files-status")
    assert said.text.startswith("Removed txns.iif:") and said.has_attr("data-status")
    page = soup(client.get(f"{prefix}/files"))  # said once, where it happened
    assert page.select_one("#files-status") is None


def test_the_preview_shows_parents_subtotals_and_lines_as_debits_and_credits(client):
    """Hunt 23 M3: Utilities showed 0.00 (its own QuickBooks balance) with 25.00 under it and
    no subtotal; transaction lines were signed debit + (Sales -100.00) on a page that says
    balances have no minus sign when usual."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    page = soup(client.get(f"{prefix}/preview"))
    heads = [th.text for th in page.select("#account-table th")]
    assert heads[4:6] == ["QuickBooks balance", "With subaccounts"]

    def cells(account: str) -> list[str]:
        row = page.select_one(f'#account-table tr[data-account="{account}"]')
        return [td.text.strip() for td in row.select("td.num")]

    assert cells("Utilities")[:2] == ["0.00", "25.00"]  # its own, then with Gas
    assert cells("Utilities:Gas")[:2] == ["25.00", ""]  # no subaccounts: no subtotal
    assert cells("Checking")[:2] == ["75.00", ""]
    assert [th.text for th in page.select("#txn-table th")][4:6] == ["Debit", "Credit"]
    deposit = page.select("#txn-table tbody.txn")[1]
    lines = [[td.text.strip() for td in tr.select("td")][2:6] for tr in deposit.select("tr.split")]
    assert lines == [["Checking", "", "100.00", ""], ["Sales", "", "", "100.00"]]
    assert deposit.select_one("tr.head td.amount").text == "amount 100.00"  # labelled, centred
    assert "as in QuickBooks' Journal" in page.select_one("#txn-sign").text


def test_a_file_removed_and_added_again_is_read_once(client, app):
    """A walk removed lists.iif and added it back: two cards, every account "appears again",
    the not-imported counts doubled (the name stayed in the upload order)."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    client.post(f"{prefix}/files/lists.iif/delete", headers=csrf | HX)
    r = upload(client, prefix, csrf, "lists.iif")
    assert [c["data-filename"] for c in soup(r).select("article.file")] == ["txns.iif", "lists.iif"]
    page = soup(client.get(f"{prefix}/preview"))
    assert not [li for li in page.select("#problem-list > li") if "appears again" in li.text]
    m = app.extensions["store"].open(prefix.rstrip("/").rsplit("/", 1)[-1])
    assert m.meta["files"] == ["txns.iif", "lists.iif"]


def test_a_small_files_size_is_in_bytes(client):
    """A walk read "0 KB" for a 417-byte file."""
    prefix, csrf = new_migration(client)
    r = upload(client, prefix, csrf, "txns.iif")
    card = soup(r).select_one("article[data-filename='txns.iif']")
    size = next(d.find_next("dd").text for d in card.select("dt") if d.text == "Size")
    assert size == f"{(WEB / 'txns.iif').stat().st_size:,} bytes"


def test_date_order_is_saved_in_the_plan(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    r = client.post(
        f"{prefix}/files/txns.iif/options", data={"date_order": "dmy"}, headers=csrf | HX
    )
    assert r.status_code == 200
    plan = json.loads(client.get(f"{prefix}/plan.json").data)
    assert plan["files"]["txns.iif"]["date_order"] == "dmy"
    card = soup(r).select_one("article[data-filename='txns.iif']").text
    assert "2024-01-02 to 2024-02-02" in card  # 2/1 read as 2 January


def test_csv_with_unknown_columns_is_mapped_by_hand(client):
    prefix, csrf = new_migration(client)
    r = upload(client, prefix, csrf, "lists.iif", "odd_columns.csv")
    card = soup(r).select_one("article[data-filename='odd_columns.csv']")
    link = card.select_one("a[href$='/files/odd_columns.csv/columns']")
    assert link is not None
    page = soup(client.get(link["href"]))
    assert [o.text for o in page.select("select[name=date] option")][1:] == [
        "Posted On",
        "Ref No",
        "Ledger",
        "Note",
        "Value",
    ]
    chosen = {
        "date": "Posted On",
        "ref": "Ref No",
        "account": "Ledger",
        "memo": "Note",
        "amount": "Value",
    }
    live = client.get(link["href"], query_string=chosen | {"preview": "1"}, headers=HX)
    assert is_fragment(live)
    sample = soup(live).select_one("#column-sample")
    heads = [th.text for th in sample.select("thead th")]
    cells = [td.text for td in sample.select("tbody tr:first-child td")]
    assert dict(zip(heads, cells, strict=True)) == {
        "Trans #": "7",
        "Date": "2024-02-01",
        "Account": "Checking",
        "Memo": "February gas",
        "Amount": "-25.00",
    }
    half = client.post(link["href"], data={"date": "Posted On"}, headers=csrf)
    assert half.status_code == 422 and "Still to choose" in half.get_data(as_text=True)
    done = client.post(link["href"], data=chosen, headers=csrf)
    assert done.status_code == 303
    plan = json.loads(client.get(f"{prefix}/plan.json").data)
    assert plan["files"]["odd_columns.csv"]["columns"] == chosen
    page = soup(client.get(f"{prefix}/files"))
    assert (
        "columns mapped by hand" in page.select_one("article[data-filename='odd_columns.csv']").text
    )


def test_a_file_is_shown_by_the_name_the_user_gave_it(client):
    """Stored under a safe name, shown (escaped) as named, in the card and in its problems."""
    prefix, csrf = new_migration(client)
    given = "Invoice (Sales Tax Preference=off) <b>.iif"
    data = (WEB / "unknown_account.iif").read_bytes()
    r = client.post(
        f"{prefix}/files", data={"files": [(io.BytesIO(data), given)]}, headers=csrf | HX
    )
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "<b>" not in html and "&lt;b&gt;" in html
    card = soup(r).select_one("#file-1")
    assert card.select_one("h2").text == given
    stored = card["data-filename"]
    assert stored != given and "/" not in stored
    where = [w.text for w in soup(client.get(f"{prefix}/preview")).select("#problem-list .where")]
    assert where and all(w.startswith(f"{given}:") for w in where), where
    r = client.post(f"{prefix}/files/{stored}/delete", headers=csrf | HX)
    assert soup(r).select_one("#file-1") is None


def test_utf16_without_a_bom_is_read_not_called_binary(client):
    prefix, csrf = new_migration(client)
    text = (WEB / "lists.iif").read_text(encoding="utf-8")
    r = upload(client, prefix, csrf, "lists.iif", data=text.encode("utf-16-le"))
    card = soup(r).select_one("article[data-filename='lists.iif']")
    assert "IIF lists" in card.text and "UTF-16 (Unicode)" in card.text, card.text
    assert "binary" not in card.text


def test_a_semicolon_separated_csv_is_split_on_the_column_page(client):
    prefix, csrf = new_migration(client)
    text = (WEB / "odd_columns.csv").read_text(encoding="utf-8").replace(",", ";")
    r = upload(client, prefix, csrf, "odd_columns.csv", data=text.encode())
    link = soup(r).select_one("a[href$='/files/odd_columns.csv/columns']")
    page = soup(client.get(link["href"]))
    headers = [th.text for th in page.select("#column-sample thead th")]
    assert headers == ["Posted On", "Ref No", "Ledger", "Note", "Value"]
    first = [td.text for td in page.select("#column-sample tbody tr:first-child td")]
    assert first == ["02/01/2024", "7", "Checking", "February gas", "-25.00"]


def test_disk_full_during_an_upload_keeps_nothing_and_says_so(client, app, monkeypatch):
    import errno

    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")

    def full_disk(source, target, length=0):  # 2 MB written, then the disk is full
        target.write(b"x" * (2 * 1024 * 1024))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("app.store.shutil.copyfileobj", full_disk)
    for headers in (csrf | HX, csrf):
        r = upload(client, prefix, csrf, "txns.iif", htmx="HX-Request" in headers)
        assert r.status_code == 409  # the state of this computer: never a 5xx
        text = soup(r).text
        assert "txns.iif was not added: the disk is full" in text and "MB free" in text
        assert "kept" in text and "your uploaded files" not in text
    uploads = Path(app.config["MIGRATIONS_DIR"]) / prefix.rsplit("/", 1)[1] / "uploads"
    assert sorted(p.name for p in uploads.iterdir()) == ["lists.iif"]  # no hidden partial
    monkeypatch.undo()
    assert upload(client, prefix, csrf, "txns.iif").status_code == 200  # room again: it works


def test_a_file_cut_at_the_export_cap_can_be_accepted_on_its_card(client, tmp_path):
    from tests.support.cut import cut_journal

    prefix, csrf = new_migration(client)
    journal = cut_journal(tmp_path / "journal.csv")
    # stored as an upload is: werkzeug's test client would spool this 1 MB body to a temporary
    # file it never closes (a ResourceWarning in whichever test comes next)
    with journal.open("rb") as stream:
        store = client.application.extensions["store"]
        store.open(prefix.rsplit("/", 1)[1]).save_upload("journal.csv", stream)
    card = soup(client.get(f"{prefix}/files"))
    assert "stops at QuickBooks' 32,768-line export limit" in card.text
    preview = soup(client.get(f"{prefix}/preview")).text
    assert "probably truncated by QuickBooks' export cap" in preview
    form = {"truncated_ok": "yes", "csrf_token": csrf["X-CSRF-Token"]}
    r = client.post(f"{prefix}/files/journal.csv/options", data=form, headers=csrf | HX)
    assert (
        r.status_code == 200 and "cut at QuickBooks' 32,768-line export limit on purpose" in r.text
    )
    assert app_plan(client, prefix).files["journal.csv"].truncated_ok
    plain = client.post(f"{prefix}/files/journal.csv/options", data=form | {"truncated_ok": "no"})
    assert (
        plain.status_code == 303 and not app_plan(client, prefix).files["journal.csv"].truncated_ok
    )


def test_a_report_that_stops_early_can_be_accepted_on_its_card(client, tmp_path):
    """Issue 22 (7): a Journal cut before its TOTAL row, well before its title's period ends."""
    from tests.support.companygen import make_company

    prefix, csrf = new_migration(client)
    journal = make_company(300, 5).write_journal_csv(tmp_path / "journal.csv")
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    journal.write_text("".join(lines[:400]), encoding="utf-8")
    with journal.open("rb") as stream:
        store = client.application.extensions["store"]
        store.open(prefix.rsplit("/", 1)[1]).save_upload("journal.csv", stream)
    card = soup(client.get(f"{prefix}/files"))
    assert "This file stops early (its problems below say why)" in card.text
    assert "journal.csv stops early: it does not end with the TOTAL row" in card.text
    form = {"truncated_ok": "yes", "csrf_token": csrf["X-CSRF-Token"]}
    r = client.post(f"{prefix}/files/journal.csv/options", data=form, headers=csrf | HX)
    assert r.status_code == 200 and "You said this file is cut short on purpose" in r.text


def app_plan(client, prefix: str):
    return client.application.extensions["store"].open(prefix.rsplit("/", 1)[1]).plan()


def test_choose_files_is_a_label_that_shows_the_file_inputs_focus(client):
    """Issue 13, item 31: the file input is invisible but focusable; its label, the visible
    "Choose files…" button, follows it so the stylesheet can outline it on the input's focus."""
    prefix, _csrf = new_migration(client)
    page = soup(client.get(f"{prefix}/files"))
    box = page.select_one("#file-input")
    label = box.find_next_sibling()
    assert label.name == "label" and label["for"] == "file-input"
    assert "Choose files" in label.text
    with client.get("/static/app.css") as r:
        css = r.get_data(as_text=True)
    assert "#file-input:focus-visible + label {" in css and "\n:focus-visible {" in css


def test_remove_asks_first(client):
    """Issue 13, item 32: the Remove form carries its question (static/app.js asks it)."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    form = soup(client.get(f"{prefix}/files")).select_one("#files form.remove")
    assert form["data-confirm"].startswith("Remove lists.iif? What was read from it leaves")
    assert "you can add it again" in form["data-confirm"]


def test_a_trial_balance_s_note_is_no_problem(client, tmp_path):
    """How the Trial Balance report was read (its figures replace the chart's) is a note on its
    card, not "1 problem in this file", nor counted among the Preview's problems."""
    from tests.support.companygen import make_company

    company = make_company(60, seed=3)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    tb = company.write_trial_balance_csv(tmp_path / "tb.csv")
    prefix, csrf = new_migration(client)
    for p in (lists, tb):
        page = soup(upload(client, prefix, csrf, p.name, data=p.read_bytes()))
    card = page.select_one("article[data-filename='tb.csv']")
    assert card.select_one("details.problems") is None
    assert "balances are taken from this trial balance" in card.select_one("p.note").text
    preview = soup(client.get(f"{prefix}/preview"))
    notes = [li for li in preview.select("#problem-list li.note") if "trial balance" in li.text]
    assert len(notes) == 1 and notes[0].select_one(".sev").text == "note"
    counted = preview.select_one("a[href='#problems']").text
    shown = preview.select("#problem-list > li:not(.note)")
    assert counted == f"Problems ({len(shown)} · 1 note)"


def test_import_without_balances_does_not_advise_balances_only(client):
    """No transactions and no QuickBooks balances (only a file that is no export): the Import
    step asks for the lists and a transaction report, not for "Only the balances", which has
    nothing to start from."""
    prefix, csrf = new_migration(client)
    letter = b"Dear Sir,\nplease find our invoice attached.\nRegards\n"
    upload(client, prefix, csrf, "letter.txt", data=letter)
    said = soup(client.get(f"{prefix}/import")).select_one("#lists-only").text
    assert "No file gives QuickBooks' balances either: add the lists export" in said
    assert "Only the balances" not in said


def test_a_file_marked_utf8_mixing_encodings_is_refused_on_its_card_not_a_500(client):
    """UTF-8 behind its byte-order mark with one Windows-1252 name, as a hand-edit leaves it:
    the upload answered 500 (hunt 20). Its card says the line and what to do; no copy kept."""
    prefix, csrf = new_migration(client)
    text = (WEB / "lists.iif").read_text(encoding="utf-8")
    data = b"\xef\xbb\xbf" + text.encode("utf-8").replace(b"\n", " Café · Müller\n".encode(), 1)
    lines = data.split(b"\n")
    lines[2] += b" Caf\xe9"
    r = upload(client, prefix, csrf, "lists.iif", data=b"\n".join(lines))
    assert r.status_code == 200
    card = soup(r).select_one("article[data-filename='lists.iif']")
    assert "lists.iif:3" in card.text or "line 3" in card.text, card.text
    assert "mixes two encodings" in card.text, card.text
    assert client.get(f"{prefix}/preview").status_code == 200


@pytest.mark.samples
def test_every_real_sample_uploads_at_once_and_each_gets_its_card(client, samples_dir):
    """The five real exports uploaded together: the one with bare-CR line ends (a CR-only
    line: an empty record) was a 500 in the kept copy's redaction, and the files stored before
    it were lost from the page (hunt 23). Each gets its card; Preview answers."""
    samples = sorted(p for p in samples_dir.iterdir() if p.suffix.lower() == ".iif")
    assert len(samples) >= 5
    prefix, csrf = new_migration(client)
    files = [(io.BytesIO(p.read_bytes()), p.name) for p in samples]
    r = client.post(f"{prefix}/files", data={"files": files}, headers=csrf | HX)
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    page = soup(client.get(f"{prefix}/files"))
    cards = {c["data-filename"] for c in page.select("article[data-filename]")}
    assert cards == {p.name for p in samples}
    assert client.get(f"{prefix}/preview").status_code == 200


def test_files_named_in_another_script_are_kept_apart_and_said_by_their_names(client):
    """werkzeug keeps ASCII alone: "Журнал.csv" was refused as "csv: only QuickBooks exports
    can be added", "会计 2024.csv" stored as "2024.csv", and "日记 2024.csv", another file,
    refused as "2024.csv is already uploaded", a name the user never gave (hunt 24). Each is
    stored under a name of its own now and shown, and said, by the name given."""
    from app.naming import upload_name

    prefix, csrf = new_migration(client)
    journal = (WEB / "txns.iif").read_bytes()
    for name in ("Журнал.iif", "会计 2024.iif", "日记 2024.iif", "Müller.iif"):
        r = upload(client, prefix, csrf, name, data=journal)
        assert r.status_code == 200, (name, r.text[:300])
        card = soup(r).select_one(f"article[data-filename='{upload_name(name)}']")
        assert card is not None and name in card.text, name
    again = upload(client, prefix, csrf, "会计 2024.iif", data=journal)
    assert again.status_code == 409
    assert "会计 2024.iif is already uploaded" in again.text
    assert upload_name("Müller.iif") == "Muller.iif"
    # digits of another script too; a refusal names the file given (hunt 25)
    assert upload(client, prefix, csrf, "٢٠٢٤.iif", data=journal).status_code == 200
    refused = upload(client, prefix, csrf, "Журнал.pdf", data=journal)
    assert refused.status_code == 415 and "Журнал.pdf: only QuickBooks exports" in refused.text


def test_an_upload_of_too_many_files_at_once_says_so(server):
    """An upload of 1,200 tiny files in one request (werkzeug's limit of form parts) said "That
    upload is larger than the limit of 500 MB" (hunt 24): it says what it is. Sent to the
    wizard as ``make run`` starts it: werkzeug leaves the parts it read open when it stops,
    and in this process, beside GnuCash 5.10's engine, they crashed the interpreter's exit."""
    import http.cookiejar
    import re
    import urllib.error
    import urllib.request

    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    home = opener.open(server, timeout=30).read().decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', home)[1]
    base = server.partition("?")[0].rstrip("/")
    start = urllib.request.Request(f"{base}/m", data=f"csrf_token={token}".encode())
    files_page = opener.open(start, timeout=30).geturl()  # (the Files step)
    body = (
        b"".join(
            b'--b\r\nContent-Disposition: form-data; name="files"; filename="f%d.iif"\r\n\r\nx\r\n'
            % i
            for i in range(1200)
        )
        + b"--b--\r\n"
    )
    sent = urllib.request.Request(
        files_page,
        data=body,
        headers={"Content-Type": "multipart/form-data; boundary=b", "X-CSRF-Token": token,
                 "HX-Request": "true"},
    )  # fmt: skip
    with pytest.raises(urllib.error.HTTPError) as refused:
        opener.open(sent, timeout=60)
    text = refused.value.read().decode()
    refused.value.close()
    assert refused.value.code == 413, text[:300]
    assert "holds too many files (or form fields) at once" in text and "500 MB" not in text
