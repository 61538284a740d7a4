"""The Download step and the audit pack's printable report show each count and date of the proof
that differs with its probable cause and what to do (app/check_causes.py): writing the book again
is a link to the Import step on the page, words on the printed page; what only GnuCash can
correct says that nothing on these pages changes it. The import is run by the worker's own code
in this process, with the book changed in GnuCash (through the engine) just before it is read
back: the one way a first conversion's checks can differ."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

from bs4 import BeautifulSoup

from app import jobs
from tests.support.gnucash_edits import add_customer, enter, import_changed_in_gnucash
from tests.support.web import new_migration, soup, upload


def test_the_download_step_and_the_printed_report_say_why_a_check_differs(app, client, monkeypatch):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    upload(client, prefix, csrf, "txns.iif")

    def change(book) -> None:
        add_customer(book, "Walk-in")
        enter(book, dt.date(2024, 2, 2), [("Checking", -1000), ("Utilities:Gas", 900)])

    folder = Path(app.config["MIGRATIONS_DIR"]) / prefix.rsplit("/", 1)[1]
    import_changed_in_gnucash(folder, monkeypatch, change)
    assert jobs.load(folder / "job.json").state == "differs"

    page = soup(client.get(f"{prefix}/download"))
    assert "each difference with its probable cause" in page.select_one("#differs-first").text
    failed = {li.text.split(":")[0]: li for li in page.select("#checks li.differs")}
    customers = failed["customers"]
    assert customers.text.startswith(
        "customers: expected 1, GnuCash book 2 — DIFFERS (in the book only: Walk-in)"
    )
    cause = customers.select_one("p.check-cause")
    assert cause.text.startswith("Probable cause: the book holds 1 customer more than the files")
    link = cause.select_one("a.fix")
    assert link.text == "write the book again" and link["href"] == f"{prefix}/import"
    strays = failed[
        "Imbalance and Orphan accounts (where GnuCash puts what it cannot place; none expected)"
    ]
    said = strays.select_one("p.check-cause").text
    assert "GnuCash puts into an Imbalance account the amount that balances a transaction" in said
    assert "on the Import step; or in GnuCash, open Imbalance-USD on the Accounts tab" in said
    assert not page.select("#checks li.ok p")  # a check that matches says nothing more

    with client.get(f"{prefix}/download/audit.zip?differences=accepted") as r:
        assert r.status_code == 200
        zf = zipfile.ZipFile(io.BytesIO(r.data))
    html = next(zf.read(n) for n in zf.namelist() if n.endswith("/report.html")).decode()
    printed = BeautifulSoup(html, "html.parser")
    lines = {li.text.split(":")[0]: li for li in printed.select("#checks li.differs")}
    said = lines["customers"].select_one("p.check-cause").text
    assert said.startswith("Probable cause: the book holds 1 customer more than the files")
    assert "What to do: write the book again (qb2gnucash's Import step)." in said
    assert not printed.select("#checks a")  # standalone: no link back to the wizard
