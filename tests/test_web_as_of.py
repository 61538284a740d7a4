"""The wizard's side of the as-of date (issue 9): the Map step says when QuickBooks' figures are
from and asks for the export date when the files do not say it; the Download step names each
difference's cause and the Map step option that fixes it, never a command-line flag."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

from app.fixes import step
from app.gnc import read_book
from tests.support.companygen import make_company
from tests.support.web import HX, WEB, new_migration, soup, upload, wait_done

NEW_YEAR = dt.date(2022, 1, 3)


def company_files(tmp_path: Path, **kw) -> dict[str, Path]:
    company = make_company(200, seed=21, start=dt.date(2019, 1, 1), years=3, **kw)
    return company.write_all(tmp_path / "exports")


def add(client, prefix: str, csrf: dict, *paths: Path) -> None:
    for p in paths:
        r = upload(client, prefix, csrf, p.name, data=p.read_bytes())
        assert r.status_code == 200, r.get_data(as_text=True)


def settings(client, prefix: str, csrf: dict, **form: str):
    data = {"currency": "USD", "mode": "full", "format": "xml", **form}
    r = client.post(f"{prefix}/map/settings", data=data, headers=csrf | HX)
    assert r.status_code == 200, r.get_data(as_text=True)
    return soup(r)


def import_and_download(client, prefix: str, csrf: dict):
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    assert wait_done(client, prefix).select_one("#to-download") is not None
    return soup(client.get(f"{prefix}/download"))


def test_map_step_asks_for_the_export_date_when_the_files_do_not_say(client, tmp_path):
    files = company_files(tmp_path, exported=NEW_YEAR, hdr=False)
    prefix, csrf = new_migration(client)
    add(client, prefix, csrf, files["lists"], files["transactions_iif"])
    page = soup(client.get(f"{prefix}/map"))
    last = page.select_one("#export-date")["value"]
    assert dt.date.fromisoformat(last) < NEW_YEAR
    assert "the last transaction's date: a guess" in page.select_one("#as-of").text
    # other settings saved with the prefilled guess untouched: still a guess, not "given"
    page = settings(client, prefix, csrf, export_date=last, export_date_guess=last)
    assert json.loads(client.get(f"{prefix}/plan.json").data)["cutover"]["export_date"] == ""
    assert "a guess" in page.select_one("#as-of").text
    # the day typed in is the export date
    page = settings(client, prefix, csrf, export_date="2022-01-03", export_date_guess=last)
    assert "as of 2022-01-03 (the export date given)" in page.select_one("#as-of").text
    page = import_and_download(client, prefix, csrf)
    line = page.select_one("#summary-line")
    assert "ok" in line["class"] and line.text.endswith("accounts match QuickBooks to the cent")
    assert "2022-01-03 (the export date given)" in page.select_one(".as-of").text


def test_map_step_shows_the_export_header_date(client, tmp_path):
    files = company_files(tmp_path, exported=NEW_YEAR, fiscal_year_start=(7, 1))
    prefix, csrf = new_migration(client)
    add(client, prefix, csrf, files["lists"], files["find"])
    page = soup(client.get(f"{prefix}/map"))
    # the field a warning's fix names is there, prefilled with the header's day (issue 27, 6)
    field = page.select_one("#export-date")
    assert field["value"] == "2022-01-03"
    form = page.select_one("#settings-form")
    sent = {i["name"]: i.get("value", "") for i in form.select("input[type=hidden], #export-date")}
    settings(client, prefix, csrf, **sent)  # saved as shown: still the header's day, not pinned
    assert json.loads(client.get(f"{prefix}/plan.json").data)["cutover"]["export_date"] == ""
    page = soup(client.get(f"{prefix}/map"))
    said = page.select_one("#as-of").text
    assert "as of 2022-01-03 (the export date in lists.iif:2)" in said
    assert "fiscal year starting 1 July (read from QuickBooks' figures)" in said
    assert page.select_one("input[name=fiscal_year_start]")["placeholder"] == "07-01"


def test_download_names_causes_and_the_wizard_fix(client, tmp_path):
    files = company_files(tmp_path, exported=NEW_YEAR, hdr=False)
    prefix, csrf = new_migration(client)
    add(client, prefix, csrf, files["lists"], files["transactions_iif"])
    page = import_and_download(client, prefix, csrf)
    line = page.select_one("#summary-line")
    assert "error" in line["class"]
    assert " differ from QuickBooks (" in line.text and "match to the cent" not in line.text
    one = page.select_one("#one-cause").text  # one cause for all: said once, with its fix
    assert "the day of the export, which the files do not say" in one
    assert "set “Export date” on the Map step" in one
    assert one_link(page).endswith("/map#export-date")  # the fix's own control on its step
    assert page.select("#differences td.cause") == []
    text = page.get_text()
    assert "--export-date" not in text and "--opening-balances" not in text
    book = tmp_path / "book.gnucash"
    with client.get(page.select_one("#download-book")["href"]) as r:  # "anyway": it differs
        book.write_bytes(r.data)
    assert read_book(book).transactions == 200  # the book itself is whole


def one_link(page) -> str:
    return page.select_one("#one-cause a")["href"]


def test_every_fix_the_wizard_words_names_a_control_of_its_step(client, tmp_path):
    """Each Map-step fix's words quote a control label the Map step shows (issue 27, item 6;
    with a change made, whose list and undo two fixes name)."""
    import re

    from app.fixes import WORDS

    files = company_files(tmp_path, exported=NEW_YEAR, hdr=False)
    prefix, csrf = new_migration(client)
    add(client, prefix, csrf, files["lists"], files["find"])
    change = {"account": "Checking", "kind": "rename", "target": "Main Checking"}
    assert client.post(f"{prefix}/map/rules", data=change, headers=csrf).status_code < 400
    text = " ".join(soup(client.get(f"{prefix}/map")).select_one("#map").get_text().split())
    shown_with = {"account_map": "Report accounts to place"}  # shown when there is one
    for fix, words in WORDS["wizard"].items():
        if step(fix) == "map" and fix not in shown_with:
            for label in re.findall(r"“([^”]+)”", words):
                assert label in text, (fix, label)
    # a report account the chart does not know: its problem sends the user to its section
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    txns = (WEB / "txns.iif").read_text(encoding="utf-8").replace("Utilities:Gas", "Travel")
    txns = txns.replace("\tSales", "\tSales Abroad")  # (two names to place)
    upload(client, prefix, csrf, "txns.iif", data=txns.encode())
    problems = soup(client.get(f"{prefix}/preview")).get_text()
    assert "choose its account under “Report accounts to place” on the Map step" in problems
    assert "account_map" not in problems and "in the plan" not in problems
    page = soup(client.get(f"{prefix}/map"))
    assert page.select_one("#unresolved h2").text == shown_with["account_map"]
    said = page.select_one("#tree-errors").text  # the tree's note points at that section
    assert "2 account names from the transaction files to place in Report accounts to place" in (
        " ".join(said.split())
    )


def test_each_fix_is_made_on_its_step():
    assert (step("files"), step("accept_cut")) == ("files", "files")
    assert {step(f) for f in ("export_date", "opening_balances", "currency")} == {"map"}
    assert step("") is None


def test_the_map_step_lists_a_wrong_export_date_and_vouches_for_no_day(client, tmp_path):
    """An export date typed over the lists' own: the Map step lists that problem with its fix
    (it said "each is listed above" and listed nothing) and its tree check names no day (it
    said "QuickBooks' trial balance on" the day typed)."""
    files = company_files(tmp_path, exported=NEW_YEAR, fiscal_year_start=(7, 1))
    prefix, csrf = new_migration(client)
    add(client, prefix, csrf, files["lists"], files["find"])
    page = settings(client, prefix, csrf, export_date="2021-06-30", export_date_guess="")
    listed = page.select_one("#tree-problems").text
    assert "the export date given, 2021-06-30, is not the day lists.iif gives" in listed
    assert "to fix: set “Export date” on the Map step" in listed
    check = page.select_one("#tree-balance").text
    assert "QuickBooks' trial balance of the files," in check and "2021-06-30" not in check
    assert "1 problem to fix before importing" in page.select_one("#tree-errors").text


def test_a_date_in_year_one_is_refused_and_nothing_saved(client, tmp_path):
    """A cutover or export date of 0001-01-01 was saved, then every step of the migration was a
    500 (the fiscal year before year 1), the Map step where it would be undone too (hunt 24).
    Refused with its words now, the plan as it was; a plan file holding one likewise."""
    files = company_files(tmp_path)
    prefix, csrf = new_migration(client)
    add(client, prefix, csrf, files["lists"], files["transactions_iif"])
    before = client.get(f"{prefix}/plan.json").data
    for form in (
        {"mode": "balances_only", "date": "0001-01-01"},
        {"export_date": "0001-01-01"},
        {"export_date": "0001/1/1", "fiscal_year_start": "04-01"},
    ):
        data = {"currency": "USD", "mode": "full", "format": "xml", **form}
        r = client.post(f"{prefix}/map/settings", data=data, headers=csrf | HX)
        assert r.status_code == 422, (form, r.status_code)
        assert "(got “0001" in r.get_data(as_text=True), r.get_data(as_text=True)
        assert client.get(f"{prefix}/plan.json").data == before
    plan = json.loads(before)
    plan["cutover"]["export_date"] = "0001-01-01"
    r = client.post(
        f"{prefix}/plan",
        data={"plan": (io.BytesIO(json.dumps(plan).encode()), "plan.json")},
        headers=csrf | HX,
    )
    assert r.status_code in (200, 422), r.status_code
    for page in ("files", "preview", "map", "import"):
        got = client.get(f"{prefix}/{page}")
        assert got.status_code == 200, page
    assert "export date: expected a date in the years 1901-2099" in got.get_data(as_text=True)
