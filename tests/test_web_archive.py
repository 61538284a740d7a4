"""The archive and working book in the wizard (issue 28): the Map step's own small form, the
import writing both books, the Download step offering the archive, the audit pack holding both
with the archive's proof and the carried table. Through the real app, worker and engine; both
books reopened and compared with the generator's truth."""

from __future__ import annotations

import csv
import datetime as dt
import io
import threading
import zipfile
from decimal import Decimal as D

import pytest

from app import archive, gnc, pipeline
from tests.support.companygen import make_company
from tests.support.companygen_years import closed
from tests.support.web import HX, new_migration, soup, upload, wait_done

DAY = dt.date(2021, 7, 1)
LAST = DAY - dt.timedelta(days=1)
BOOK = "Green-Valley-Landscaping-Inc"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    company = make_company(600, seed=31, years=3, documents=True, fiscal_year_start=(7, 1))
    folder = tmp_path_factory.mktemp("web-split")
    made = [
        company.write_lists_iif(folder / "lists.iif"),
        company.write_transaction_detail_csv(folder / "detail.csv"),
        company.write_open_invoices_csv(folder / "open_invoices.csv"),
        company.write_unpaid_bills_csv(folder / "unpaid_bills.csv"),
    ]
    return company, made


def _migration(client, made):
    prefix, csrf = new_migration(client)
    for path in made:
        r = upload(client, prefix, csrf, path.name, data=path.read_bytes())
        assert r.status_code == 200
    return prefix, csrf


def test_the_map_step_splits_the_history_and_both_books_are_offered(
    client, files, tmp_path
) -> None:
    company, made = files
    prefix, csrf = _migration(client, made)
    page = soup(client.get(f"{prefix}/map"))
    form = page.select_one("#archive-form")
    assert form is not None and not form.select_one("#split").has_attr("checked")
    assert form.select_one("#split-at")["value"] == DAY.isoformat()  # the last fiscal year
    assert page.select_one("#archive-suggested") is None  # a small history
    r = client.post(
        f"{prefix}/map/archive", data={"split": "1", "split_at": DAY}, headers=csrf | HX
    )
    assert r.status_code == 200
    region = soup(r)
    said = f"Saved: an archive book and a working book from {DAY}."
    assert region.select_one("#map-status").text == said
    assert region.select_one("#split").has_attr("checked")
    # the settings form (another form) keeps the choice
    settings = {"currency": "USD", "format": "xml", "mode": "full", "documents": "all"}
    r = client.post(f"{prefix}/map/settings", data=settings, headers=csrf | HX)
    assert soup(r).select_one("#split").has_attr("checked")
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    panel = wait_done(client, prefix)
    assert panel.select_one("#job")["data-state"] == "done"

    page = soup(client.get(f"{prefix}/download"))
    checks = [li.text for li in page.select("#checks li")]
    heads = (f"archive book (the history to {LAST})", f"opening balances on {LAST} equal")
    split = [c for c in checks if c.startswith(heads)]
    assert len(split) == 2 and all(c.endswith(" — matches") for c in split), split
    link = page.select_one("#download-archive")
    assert link.text == f"Download the archive {BOOK}-archive.gnucash"
    with client.get(link["href"]) as r:
        assert r.status_code == 200
        old = tmp_path / "archive.gnucash"
        old.write_bytes(r.data)
    back = gnc.read_book(old)
    assert back.last_date is not None and back.last_date < DAY

    with client.get(page.select_one("#download-audit")["href"]) as r:
        assert r.status_code == 200
        zf = zipfile.ZipFile(io.BytesIO(r.data))
    root = f"{BOOK}-audit/"
    names = {n.removeprefix(root) for n in zf.namelist()}
    assert {
        f"{BOOK}.gnucash",
        f"{BOOK}-archive.gnucash",
        "archive-report.csv",
        "carried.csv",
        "report.csv",
    } <= names
    assert zf.read(root + f"{BOOK}-archive.gnucash") == old.read_bytes()
    rows = list(csv.DictReader(zf.read(root + "carried.csv").decode().splitlines()))
    want = {k: v for k, v in closed(company, DAY).items() if v}
    assert {r["account"]: D(r["archive_closing"]) for r in rows} == want
    assert {r["difference"] for r in rows} == {"0.00"}
    readme = zf.read(root + "README.txt").decode()
    assert f"{BOOK}-archive.gnucash: the archive book" in readme
    work = tmp_path / "work.gnucash"
    work.write_bytes(zf.read(root + f"{BOOK}.gnucash"))
    opened = {a.full_name: a.balance_between(None, LAST) for a in gnc.read_book(work).accounts}
    assert {k: v for k, v in opened.items() if v} == want

    # one book again: the archive and its records are gone from the next import
    r = client.post(f"{prefix}/map/archive", data={"split_at": DAY}, headers=csrf | HX)
    assert soup(r).select_one("#map-status").text == "Saved: one book."
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    assert wait_done(client, prefix).select_one("#job")["data-state"] == "done"
    page = soup(client.get(f"{prefix}/download"))
    assert page.select_one("#download-archive") is None
    assert client.get(f"{prefix}/download/archive").status_code == 404


def test_a_day_outside_the_history_is_an_error_on_the_map_step(client, files) -> None:
    _company, made = files
    prefix, csrf = _migration(client, made)
    r = client.post(
        f"{prefix}/map/archive", data={"split": "1", "split_at": "2030-01-01"}, headers=csrf | HX
    )
    assert r.status_code == 200
    assert "1 problem to fix before importing" in soup(r).select_one("#map").text
    said = "the working book's first day 2030-01-01 is outside the history (2019-01-01 to"
    assert said in soup(client.get(f"{prefix}/import")).text
    r = client.post(
        f"{prefix}/map/archive", data={"split": "1", "split_at": "soon"}, headers=csrf | HX
    )
    assert r.status_code == 422 and "is a date like 2024-01-01" in r.get_data(as_text=True)


def test_the_split_is_suggested_for_a_large_history_on_a_slow_gnucash(
    client, files, monkeypatch
) -> None:
    _company, made = files
    prefix, _csrf = _migration(client, made)
    monkeypatch.setattr(archive, "SUGGEST_FROM", 100)
    note = soup(client.get(f"{prefix}/map")).select_one("#archive-suggested")
    if archive.slow_loader(gnc.engine_version()):
        assert note is not None and "opens a book of 100,000 transactions in about" in note.text
        assert "starting on July 1, 2021" in note.text
    else:
        assert note is None


def test_an_upload_that_makes_a_large_history_asks_gnucashs_version_ahead(
    app, client, files, monkeypatch
) -> None:
    """The suggestion depends on the installed GnuCash, asked from a process of its own: as
    soon as the upload is read, so that the Map step does not wait for it; a small history
    never asks."""
    _company, made = files
    asked = app.extensions["gnucash_version"]
    _migration(client, made)  # a small history: not asked
    assert asked._known is None and not _asking()
    monkeypatch.setattr(archive, "SUGGEST_FROM", 100)
    _migration(client, made)
    for thread in _asking():
        thread.join(60)
    assert asked._known == gnc.engine_version()  # known before any Map step was shown


def test_the_version_is_asked_as_soon_as_the_files_are_read(
    app, client, files, monkeypatch
) -> None:
    """Before the files are prepared (their transactions counted as read), so that GnuCash
    starts in its process while the upload is still prepared and a Map step opened right after
    the Preview finds the version known."""
    _company, made = files
    asked = app.extensions["gnucash_version"]
    monkeypatch.setattr(archive, "SUGGEST_FROM", 100)
    prepared: list[tuple[int, bool]] = []  # (transactions read, asked yet) at each prepare
    prepare = pipeline.prepare

    def watched(parsed, *args, **kwargs):
        prepared.append((len(parsed.transactions), asked._ahead))
        return prepare(parsed, *args, **kwargs)

    monkeypatch.setattr(pipeline, "prepare", watched)
    _migration(client, made)
    for thread in _asking():
        thread.join(60)
    large = [ahead for n, ahead in prepared if n >= 100]
    assert large and all(large)  # asked before the first large history was prepared
    assert asked._known == gnc.engine_version()


def _asking() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "gnucash-version"]
