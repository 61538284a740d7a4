"""The audit pack (app/audit.py, GET /m/<mid>/download/audit.zip): one zip with the book, the
verification report as CSV and as a printable page, the plan, the files read with their SHA-256
and line counts, and what was not imported. Through the real app and engine; the book inside is
reopened."""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import re
import zipfile
from decimal import Decimal
from pathlib import Path

from bs4 import BeautifulSoup

from app import audit
from tests.support.web import (
    HX,
    WEB,
    differing_lists,
    new_migration,
    soup,
    token,
    upload,
    wait_done,
)

METHODS = b"!PAYMETH\tNAME\tHIDDEN\nPAYMETH\tWest Region\tN\nPAYMETH\tEast Region\tN\n"
MEMBERS = {
    "lists.gnucash",
    "report.html",
    "next-steps.html",
    "report.csv",
    "plan.json",
    "files.csv",
    "not_imported.csv",
    "README.txt",
}


def _ssns_and_bank_numbers() -> set[str]:
    """The sensitive values of tests/data/web (the SSNO and BANKNUM columns)."""
    found = set()
    for path in WEB.glob("*.iif"):
        header: list[str] = []
        for line in path.read_text(encoding="utf-8").splitlines():
            cells = line.split("\t")
            if cells[0].startswith("!"):
                header = cells
                continue
            for col in ("SSNO", "BANKNUM"):
                if col in header and header.index(col) < len(cells) and cells[header.index(col)]:
                    found.add(cells[header.index(col)])
    return found


def _migration(client, lists: bytes = b""):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", data=lists)
    upload(client, prefix, csrf, "txns.iif")
    client.post(  # a name that is stored under another one
        f"{prefix}/files",
        data={"files": [(io.BytesIO(METHODS), "My Methods (2024).iif")]},
        headers=csrf | HX,
    )
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    return prefix, wait_done(client, prefix)


def _open(data: bytes) -> tuple[zipfile.ZipFile, dict[str, bytes]]:
    zf = zipfile.ZipFile(io.BytesIO(data))
    assert zf.testzip() is None
    names = zf.namelist()
    assert all(n.startswith("lists-audit/") for n in names), names
    return zf, {n.removeprefix("lists-audit/"): zf.read(n) for n in names}


def test_the_audit_pack_holds_the_book_and_its_proof(app, client, tmp_path):
    from app.gnc import read_book

    prefix, panel = _migration(client)
    assert panel.select_one("#job")["data-state"] == "done"
    page = soup(client.get(f"{prefix}/download"))
    link = page.select_one("#download-audit")
    assert link.text == "Download the audit pack (zip)"
    with client.get(link["href"]) as r:
        assert r.status_code == 200 and r.mimetype == "application/zip"
        assert r.headers["Content-Disposition"] == "attachment; filename=lists-audit.zip"
        _, members = _open(r.data)
    assert set(members) == MEMBERS

    book = tmp_path / "lists.gnucash"
    book.write_bytes(members["lists.gnucash"])
    snap = read_book(book)
    report = list(csv.DictReader(members["report.csv"].decode().splitlines()))
    assert report and {r["account"] for r in report} >= {"Checking", "Utilities:Gas", "Sales"}
    for row in report:
        assert snap.account(row["account"]).balance == Decimal(row["gnucash_balance"]), row
        assert row["difference"] == "0.00"
    assert snap.account("Checking").balance == 75 and snap.transactions == 2
    with client.get(f"{prefix}/download/report.csv") as same:
        assert same.data == members["report.csv"]

    html = members["report.html"].decode()
    headline = page.select_one("#summary-line").text
    assert headline == f"{len(report)} of {len(report)} accounts match QuickBooks to the cent"
    printed = BeautifulSoup(html, "html.parser")
    assert printed.select_one("#headline").text == headline
    assert not re.search(r"""(src|href)=|<script|<link""", html)  # standalone, nothing external
    assert printed.select_one("#verdict").text == "Matches QuickBooks to the cent"
    shown = [tr["data-account"] for tr in printed.select("table.tb tr.account")]
    assert sorted(shown) == sorted(r["account"] for r in report)  # the chart's tree order
    assert len(printed.select("table.tb tr.account .tick")) == len(report)
    assert (
        "Payment methods (2): GnuCash has no payment methods"
        in printed.select_one("#not-imported").text
    )

    files = list(csv.DictReader(members["files.csv"].decode().splitlines()))
    uploads = Path(app.config["MIGRATIONS_DIR"]) / prefix.rsplit("/", 1)[1] / "uploads"
    assert [(f["name"], f["stored_name"]) for f in files] == [
        ("lists.iif", "lists.iif"),
        ("txns.iif", "txns.iif"),
        ("My Methods (2024).iif", "My_Methods_2024.iif"),
    ]
    for f in files:
        stored = (uploads / f["stored_name"]).read_bytes()
        assert f["sha256"] == hashlib.sha256(stored).hexdigest()
        assert int(f["bytes"]) == len(stored)
        assert int(f["lines"]) == len(stored.decode().splitlines())
    # which stored copy differs from the user's file: only the one whose bank number was blanked
    # (every row said it "differs from your original export where the export held any")
    notes = {f["name"]: f["note"] for f in files}
    assert "bank account numbers were blanked: it differs" in notes["lists.iif"]
    assert notes["txns.iif"].startswith("SHA-256 and lines of the file as uploaded (nothing")
    assert printed.select_one("#files").text.count(files[0]["sha256"]) == 1

    not_imported = list(csv.DictReader(members["not_imported.csv"].decode().splitlines()))
    assert [(n["what"], n["name"], n["reason"], n["where"]) for n in not_imported] == [
        (
            "Payment methods",
            "West Region",
            "GnuCash has no payment methods",
            "My_Methods_2024.iif:2",
        ),
        (
            "Payment methods",
            "East Region",
            "GnuCash has no payment methods",
            "My_Methods_2024.iif:3",
        ),
    ]
    assert b'"currency"' in members["plan.json"]
    readme = members["README.txt"].decode()
    for name in MEMBERS - {"README.txt"}:
        assert f"\n{name}: " in readme, name
    assert "Not in this pack" not in readme

    secrets = _ssns_and_bank_numbers()
    assert "987-65-4321" in secrets and "000123456789" in secrets
    for name, raw in members.items():
        gzipped = raw.startswith(b"\x1f\x8b")  # the book, as GnuCash compresses it
        data = gzip.decompress(raw) if gzipped else raw
        assert b"Joe Worker" in data or name != "lists.gnucash"  # (the employee is there)
        assert not any(s.encode() in data for s in secrets), name


def test_a_differing_books_pack_is_offered_behind_its_differences(client):
    prefix, panel = _migration(client, differing_lists())
    assert panel.select_one("#job")["data-state"] == "differs"
    r = client.get(f"{prefix}/download/audit.zip")
    assert r.status_code == 303 and r.location.endswith(f"{prefix}/download")
    page = soup(client.get(f"{prefix}/download"))
    link = page.select_one("#download-audit")
    assert link["href"].endswith("differences=accepted")
    assert link.find_previous(id="differences")  # after what differs
    with client.get(link["href"]) as pack:
        assert pack.status_code == 200
        _, members = _open(pack.data)
    assert set(members) == MEMBERS
    printed = BeautifulSoup(members["report.html"].decode(), "html.parser")
    headline = printed.select_one("#headline")
    assert headline["class"] == ["headline", "differs"]
    assert headline.text == page.select_one("#summary-line").text
    differs = printed.select("table.tb tr.account.differs")
    assert [tr["data-account"] for tr in differs] == ["Checking", "Opening Bal Equity"]
    assert printed.select_one("#verdict").text == "Needs your attention: 2 accounts differ"
    causes = printed.select("table.tb tr.cause-row")
    assert len(causes) == 2 and not printed.select("table.tb a")  # named, no link


def test_no_pack_before_a_book(client):
    prefix, _ = new_migration(client)
    assert client.get(f"{prefix}/download/audit.zip").status_code == 404


def test_a_book_written_before_audit_packs_gets_a_pack_that_says_what_is_missing(tmp_path):
    (tmp_path / "old.gnucash").write_bytes(b"\x1f\x8b not really a book")
    (tmp_path / "report.csv").write_text("account\n", encoding="utf-8")
    target = io.BytesIO()
    audit.write_pack(target, tmp_path, "old.gnucash", "<p>page</p>", 1_700_000_000)
    zf = zipfile.ZipFile(target)
    assert zf.namelist() == [
        "old-audit/old.gnucash",
        "old-audit/report.html",
        "old-audit/report.csv",
        "old-audit/README.txt",
    ]
    assert zf.getinfo("old-audit/old.gnucash").compress_type == zipfile.ZIP_STORED
    readme = zf.read("old-audit/README.txt").decode()
    assert "Not in this pack: plan.json, files.csv, not_imported.csv." in readme
    assert "on 2023-11-1" in readme


def test_line_counts_follow_the_readers():
    assert audit.line_count(b"") == 0
    assert audit.line_count(b"a\nb") == 2
    assert audit.line_count(b"a\r\nb\r\n") == 2
    assert audit.line_count("a\nb\n".encode("utf-16")) == 2


def test_the_kept_books_pack_is_the_kept_books_own(client, monkeypatch):
    """While a new import runs: the earlier book's pack, with the plan it was written from."""
    prefix, _ = _migration(client)
    csrf = {"X-CSRF-Token": token(client)}
    client.post(
        f"{prefix}/map/rules",
        data={"account": "Checking", "kind": "rename", "target": "Bank"},
        headers=csrf | HX,
    )
    monkeypatch.setenv("QB2GNUCASH_WORKER_DELAY", "60")
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    assert soup(client.get(f"{prefix}/download")).select_one("#previous-book")
    with client.get(f"{prefix}/download/audit.zip") as r:
        assert r.status_code == 200
        _, members = _open(r.data)
    assert set(members) == MEMBERS
    assert b"Bank" not in members["plan.json"]  # the rule came after this book
    assert b"Bank" in client.get(f"{prefix}/plan.json").data
    assert "Checking" in {
        r["account"] for r in csv.DictReader(members["report.csv"].decode().splitlines())
    }
    client.post(f"{prefix}/job/cancel", headers=csrf | HX)


def test_the_audit_pack_holds_the_pnl_by_class(client, tmp_path):
    """A company with classes (the default: on each line): the pack's classes.csv and printable
    classes.html, every fiscal year adding up to the book's P&L; no class "not imported"."""
    from tests.support.companygen import make_company

    company = make_company(120, seed=26, years=2, classes=True)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    detail = company.write_transaction_detail_csv(tmp_path / "detail.csv")
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", data=lists.read_bytes())
    upload(client, prefix, csrf, "detail.csv", data=detail.read_bytes())
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    assert wait_done(client, prefix).select_one("#job")["data-state"] == "done"
    link = soup(client.get(f"{prefix}/download")).select_one("#download-audit")["href"]
    with client.get(link) as r:
        zf = zipfile.ZipFile(io.BytesIO(r.data))
        members = {n.split("/", 1)[1]: zf.read(n) for n in zf.namelist()}
    assert {"classes.csv", "classes.html", "report.html", "not_imported.csv"} <= set(members)
    rows = list(csv.DictReader(members["classes.csv"].decode().splitlines()))
    years = {r["fiscal year start"] for r in rows}
    assert len(years) == 2 and all(r["difference"] == "0.00" for r in rows)
    assert {"Design", "Landscaping", "Landscaping:Residential", "unclassed"} <= set(rows[0])
    page = BeautifulSoup(members["classes.html"].decode(), "html.parser")
    assert (
        "adds up to the book's P&L in every fiscal year"
        in page.select_one("#classes-headline").text
    )
    assert not re.search(r"""(src|href)=|<script|<link""", members["classes.html"].decode())
    readme = members["README.txt"].decode()
    assert "\nclasses.csv: the P&L by class" in readme and "\nclasses.html: " in readme
    assert "Classes" not in members["not_imported.csv"].decode()
