"""Every route of the wizard through Flask's test client, with real files and the real app.

Pages are checked by element id and text with BeautifulSoup; htmx requests (``HX-Request``)
must get the swapped region alone, other requests the whole page.
"""

from __future__ import annotations

import io
import json
import re
import socket
from pathlib import Path

import pytest

from app import create_app
from tests.support.web import HX, WEB, is_fragment, new_migration, soup, upload, wait_done

# ------------------------------------------------------------------ home, ids, CSRF


def test_home_new_reopen_delete(client):
    assert soup(client.get("/")).select_one("#migrations") is None
    prefix, csrf = new_migration(client)
    mid = prefix.rsplit("/", 1)[1]
    assert len(mid) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", mid)
    upload(client, prefix, csrf, "lists.iif")
    rows = soup(client.get("/")).select("#migrations tbody tr")
    assert len(rows) == 1
    assert "lists.iif" in rows[0].text and "not imported yet" in rows[0].text
    r = client.post(f"{prefix}/delete", data={"csrf_token": csrf["X-CSRF-Token"]})
    assert r.status_code == 303
    assert client.get(f"{prefix}/files").status_code == 404
    assert soup(client.get("/")).select_one("#migrations") is None


def test_every_change_needs_the_csrf_token(client, tmp_path):
    prefix, csrf = new_migration(client)
    for url in ("/m", f"{prefix}/files", f"{prefix}/import", f"{prefix}/map/settings"):
        r = client.post(url, data={})
        assert r.status_code == 400, url
        assert "Reload the page" in r.get_data(as_text=True)
        r = client.post(url, data={}, headers={"X-CSRF-Token": "forged"} | HX)
        assert r.status_code == 400
        assert r.headers["HX-Retarget"] == "#messages"
    assert client.delete(f"{prefix}/files/x.iif/delete").status_code in (400, 405)
    fresh = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "other")}).test_client()
    assert fresh.post("/m", headers=csrf).status_code == 400  # a token of another session


@pytest.mark.parametrize(
    "url",
    [
        "/m/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/files",
        "/m/short/preview",
        "/m/..%2F..%2Fetc/files",
        "/m/../../etc/passwd",
        "/m/%2e%2e/import",
    ],
)
def test_unknown_or_traversing_migration_ids_are_404(client, url):
    r = client.get(url)
    assert r.status_code == 404
    assert "passwd" not in r.get_data(as_text=True) or "no such" in r.get_data(as_text=True)


def test_file_names_in_urls_must_be_uploads(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    for name in ("..%2F..%2Fmeta.json", "meta.json", "..", "plan.json"):
        r = client.post(f"{prefix}/files/{name}/delete", headers=csrf)
        assert r.status_code == 404, name
        assert client.get(f"{prefix}/files/{name}/columns").status_code == 404
    assert (Path(client.application.config["MIGRATIONS_DIR"])).is_dir()


# ------------------------------------------------------------------ upload


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
    assert r.headers["HX-Retarget"] == "#messages"
    r = client.post(f"{prefix}/files", data={"files": [(io.BytesIO(data), name)]}, headers=csrf)
    assert r.status_code == status and "<html" in r.get_data(as_text=True)


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
    client = app.test_client()
    prefix, csrf = new_migration(client)
    r = upload(client, prefix, csrf, "big.iif", data=b"!ACCNT\tNAME\n" + b"x" * 4096)
    assert r.status_code == 413
    assert "larger than the limit" in r.get_data(as_text=True)


def test_remove_a_file(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    r = client.post(f"{prefix}/files/txns.iif/delete", headers=csrf | HX)
    assert [c["data-filename"] for c in soup(r).select("article.file")] == ["lists.iif"]


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


# ------------------------------------------------------------------ preview


def test_preview_tables_and_search(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    page = soup(client.get(f"{prefix}/preview"))
    rows = {
        tr["data-account"]: [td.text.strip() for td in tr.select("td")]
        for tr in page.select("#account-table tbody tr")
    }
    assert list(rows) == ["Checking", "Opening Bal Equity", "Sales", "Utilities", "Utilities:Gas"]
    assert rows["Utilities:Gas"] == ["Gas", "7751", "expense", "EXP", "25.00", "1", ""]
    assert rows["Checking"][2:6] == ["bank", "BANK", "75.00", "2"]
    assert len(page.select("#txn-table tbody.txn")) == 2
    assert page.select_one("#customers").text.count("Ann Smith") == 1
    r = client.get(f"{prefix}/transactions", query_string={"q": "february"}, headers=HX)
    assert is_fragment(r)
    groups = soup(r).select("tbody.txn")
    assert len(groups) == 1 and "February gas" in groups[0].text
    r = client.get(f"{prefix}/transactions", query_string={"q": "txns.iif:8"}, headers=HX)
    assert [g["id"] for g in soup(r).select("tbody.txn")] == ["src-txns_iif-7"]
    r = client.get(f"{prefix}/transactions", query_string={"q": "x"})
    assert r.status_code == 302 and "/preview?q=x" in r.location


def test_problems_link_to_their_rows(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "unknown_account.iif")
    page = soup(client.get(f"{prefix}/preview"))
    items = page.select("#problem-list li.error")
    heating = next(li for li in items if "Heating Oil" in li.text)
    assert heating.select_one("a.where").text == "unknown_account.iif:5"
    assert heating.select_one("a.where")["href"].endswith(
        "preview?q=unknown_account.iif:5#transactions"
    )
    warnings = page.select("#problem-list li.warning")
    checking = next(li for li in warnings if "Checking: QuickBooks balance" in li.text)
    assert checking.select_one("a.where")["href"].endswith("#src-lists_iif-4")
    assert page.select_one("#src-lists_iif-4")["data-account"] == "Checking"


def test_many_transactions_are_paginated(client, tmp_path):
    from tests.support.companygen import make_company

    company = make_company(transactions=130, seed=3)
    prefix, csrf = new_migration(client)
    lists = company.write_lists_iif(tmp_path / "lists.iif").read_bytes()
    detail = company.write_transaction_detail_csv(tmp_path / "detail.csv").read_bytes()
    upload(client, prefix, csrf, "lists.iif", data=lists)
    upload(client, prefix, csrf, "detail.csv", data=detail)
    page = soup(client.get(f"{prefix}/preview", query_string={"page": "3"}))
    assert len(page.select("#txn-table tbody.txn")) == 30
    assert "Page 3 of 3" in page.select_one(".pager").text
    r = client.get(f"{prefix}/transactions", query_string={"page": "99"}, headers=HX)
    assert "Page 3 of 3" in soup(r).select_one(".pager").text
    client.application.config["TRANSACTIONS_PER_PAGE"] = 100  # the setting is the page size
    r = client.get(f"{prefix}/transactions", query_string={"page": "2"}, headers=HX)
    assert len(soup(r).select("#txn-table tbody.txn")) == 30
    assert "Page 2 of 2" in soup(r).select_one(".pager").text and "Showing 101–130" in r.text


# ------------------------------------------------------------------ map


def test_map_rules_tree_and_inline_validation(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    r = client.post(
        f"{prefix}/map/rules",
        data={"account": "Checking", "kind": "rename", "target": "Main Checking"},
        headers=csrf | HX,
    )
    assert r.status_code == 200 and is_fragment(r)
    tree = [tr["data-account"] for tr in soup(r).select("#tree-table tbody tr")]
    assert "Main Checking" in tree and "Checking" not in tree
    check = client.post(
        f"{prefix}/map/check",
        data={"account": "Sales", "kind": "rename", "target": "Main Checking"},
        headers=csrf | HX,
    )
    assert "would be named" in check.get_data(as_text=True) or "Main Checking" in check.text
    colon = client.post(
        f"{prefix}/map/check",
        data={"account": "Sales", "kind": "rename", "target": "A:B"},
        headers=csrf | HX,
    )
    assert "cannot contain ':'" in soup(colon).text
    bad = client.post(
        f"{prefix}/map/rules",
        data={"account": "Sales", "kind": "rename", "target": "A:B"},
        headers=csrf | HX,
    )
    assert bad.status_code == 422 and "without ':'" in soup(bad).text
    r = client.post(
        f"{prefix}/map/settings",
        data={
            "reparent": "1",
            "currency": "usd",
            "format": "sqlite",
            "mode": "full",
            "fiscal_year_start": "7-1",
        },
        headers=csrf | HX,
    )
    tree = [tr["data-account"] for tr in soup(r).select("#tree-table tbody tr")]
    assert "Assets:Current Assets:Main Checking" in tree
    plan = json.loads(client.get(f"{prefix}/plan.json").data)
    assert plan["reparent"] is True and plan["currency"] == "USD" and plan["format"] == "sqlite"
    assert plan["cutover"]["fiscal_year_start"] == "07-01"
    assert plan["rules"] == [{"account": "Checking", "kind": "rename", "target": "Main Checking"}]
    r = client.post(f"{prefix}/map/rules/0/delete", headers=csrf | HX)
    assert "Checking" in [tr["data-account"] for tr in soup(r).select("#tree-table tbody tr")][
        :5
    ] or "Assets:Current Assets:Checking" in r.get_data(as_text=True)
    assert client.post(f"{prefix}/map/rules/5/delete", headers=csrf | HX).status_code == 422
    full = client.get(f"{prefix}/map")
    assert not is_fragment(full) and soup(full).select_one("#to-import")


def test_map_settings_refuse_bad_values(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    cases = [
        ({"currency": "dollars"}, "three-letter"),
        ({"currency": "USD", "fiscal_year_start": "13-40"}, "fiscal year start"),
        ({"currency": "USD", "mode": "balances_only"}, "cutover date"),
    ]
    for form, words in cases:
        r = client.post(f"{prefix}/map/settings", data=form, headers=csrf | HX)
        assert r.status_code == 422 and words in r.get_data(as_text=True)
    r = client.post(
        f"{prefix}/map/settings",
        data={"currency": "USD", "mode": "balances_only", "date": "2024-01-01"},
        headers=csrf | HX,
    )
    assert r.status_code == 200


def test_plan_download_and_upload(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    r = client.get(f"{prefix}/plan.json")
    assert r.headers["Content-Disposition"].startswith("attachment")
    plan = json.loads(r.data) | {
        "reparent": True,
        "rules": [{"kind": "rename", "account": "Sales", "target": "Revenue"}],
    }
    r = client.post(
        f"{prefix}/plan",
        data={"plan": (io.BytesIO(json.dumps(plan).encode()), "mine.json")},
        headers=csrf | HX,
    )
    assert r.status_code == 200 and "Income:Revenue" in r.get_data(as_text=True)
    assert json.loads(client.get(f"{prefix}/plan.json").data)["reparent"] is True
    r = client.post(
        f"{prefix}/plan", data={"plan": (io.BytesIO(b"{nope"), "bad.json")}, headers=csrf | HX
    )
    assert r.status_code == 422 and "bad.json:1: not valid JSON" in r.get_data(as_text=True)


# ------------------------------------------------------------------ import and download


def test_import_is_refused_while_problems_remain_then_resolved(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "unknown_account.iif")
    r = client.post(f"{prefix}/import", headers=csrf | HX)
    assert r.status_code == 422 and is_fragment(r)
    listed = soup(r).select("#refused-problems li")
    assert any("unknown_account.iif:5" in li.text and "Heating Oil" in li.text for li in listed)
    assert not (
        client.application.config["MIGRATIONS_DIR"]
        and any(Path(client.application.config["MIGRATIONS_DIR"]).rglob("job.json"))
    )
    page = soup(client.get(f"{prefix}/map"))
    assert page.select_one("#unresolved").text.count("Heating Oil")
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
    assert re.fullmatch(
        r"(\d+) of \1 accounts match QuickBooks to the cent", page.select_one("#summary-line").text
    )
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
    assert "book written" in home


def test_import_with_no_files(client):
    prefix, csrf = new_migration(client)
    r = client.post(f"{prefix}/import", headers=csrf | HX)
    assert r.status_code == 422 and "no files yet" in r.get_data(as_text=True)


# ------------------------------------------------------------------ errors and privacy


def test_unexpected_errors_show_a_generic_page_and_are_logged(client, app, caplog, monkeypatch):
    prefix, _ = new_migration(client)

    def broken(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(app.extensions["views"], "view", broken)
    r = client.get(f"{prefix}/preview")
    assert r.status_code == 500
    text = r.get_data(as_text=True)
    assert "Something went wrong" in text and "secret internals" not in text
    assert "RuntimeError: secret internals" in caplog.text
    r = client.get(f"{prefix}/preview", headers=HX)
    assert r.status_code == 500 and is_fragment(r) and r.headers["HX-Retarget"] == "#messages"


def test_security_headers(client):
    r = client.get("/")
    assert r.headers["X-Frame-Options"] == "DENY"
    assert "default-src 'self'" in r.headers["Content-Security-Policy"]
    assert "HX-Request" in r.headers["Vary"]
    assert soup(r).select_one("script")["src"] == "/static/htmx.min.js"  # no CDN: works offline
    with client.get("/static/htmx.min.js") as js:
        assert js.status_code == 200 and b"htmx" in js.data


PAGES = ("/files", "/preview", "/map", "/import")


def test_ssn_and_bank_numbers_are_never_shown(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    for page in PAGES:
        text = client.get(prefix + page).get_data(as_text=True)
        assert "987-65-4321" not in text and "000123456789" not in text, page


@pytest.mark.samples
def test_enterprise_sample_pages_hide_ssns(client, samples_dir):
    from tests.paths import ENTERPRISE

    raw = ENTERPRISE.read_bytes()
    ssns = set(re.findall(rb"\b\d{3}-\d{2}-\d{4}\b", raw))
    assert ssns, "the sample is expected to hold SSNs"
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.IIF", data=raw)
    for page in PAGES:
        text = client.get(prefix + page).data
        assert not any(s in text for s in ssns), page
    page = soup(client.get(f"{prefix}/preview"))
    rows = page.select("#account-table tbody tr")
    skipped = next(
        d for d in page.select("#not-imported details") if "Non-posting accounts" in d.summary.text
    )
    assert len(rows) + len(skipped.select("tbody tr")) == raw.count(b"\nACCNT\t")


def test_large_history_note(client, monkeypatch):
    from app.web import jobs as job_views

    monkeypatch.setattr(job_views, "LARGE_HISTORY", 1)
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    assert "large history" in soup(client.get(f"{prefix}/import")).text
    client.post(f"{prefix}/import", headers=csrf | HX)
    wait_done(client, prefix)
    note = soup(client.get(f"{prefix}/download")).select_one("#large-note").text
    assert "GnuCash 4.x needs a long time to open" in note and "GnuCash 5" in note


# ------------------------------------------------------------------ run.py (server options)


class _NotServing:
    """Stands in for werkzeug's server: records where it was asked to listen."""

    def __init__(self, calls: list[dict], host: str, port: int, app, threaded: bool) -> None:
        calls.append({"host": host, "port": port, "threaded": threaded})

    def serve_forever(self) -> None:
        pass


@pytest.fixture
def no_serving(monkeypatch):
    calls: list[dict] = []
    monkeypatch.setattr("app.server.make_server", lambda *a, **kw: _NotServing(calls, *a, **kw))
    return calls


def test_server_binds_locally_by_default(no_serving, tmp_path, capsys):
    from app.server import main

    assert main(["--no-open", "--instance", str(tmp_path)]) == 0
    assert no_serving == [{"host": "127.0.0.1", "port": 5000, "threaded": True}]
    out, err = capsys.readouterr()
    assert "http://127.0.0.1:5000/" in out and err == ""
    assert (tmp_path / "migrations").is_dir()


def test_server_says_when_its_port_is_taken(tmp_path, capsys):
    from app.server import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(SystemExit) as stop:
            main(["--no-open", "--port", str(port), "--instance", str(tmp_path)])
    assert stop.value.code == 1
    out, err = capsys.readouterr()
    assert f"Port {port} is in use" in err and "different port" in err
    assert "running" not in out


def test_server_warns_loudly_on_a_public_host(no_serving, tmp_path, capsys):
    from app.server import main

    assert (
        main(["--no-open", "--host", "0.0.0.0", "--port", "8080", "--instance", str(tmp_path)]) == 0
    )
    assert no_serving[0]["host"] == "0.0.0.0"
    out, err = capsys.readouterr()
    assert "WARNING: listening on 0.0.0.0" in err and "http://127.0.0.1:8080/" in out


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
        ["Equity", "0.00", "0.00"],
        ["Income (this fiscal year)", "100.00", "100.00"],
        ["Expenses (this fiscal year)", "25.00", "25.00"],
    ]
    assert rows[0].select_one(".bar.qb")["style"] == "width: 75%"


def test_only_local_host_names_are_served(client):
    """DNS rebinding: a page on another site that resolves its name to 127.0.0.1."""
    r = client.get("/", headers={"Host": "evil.example:5000"})
    assert r.status_code == 400 and "only on this computer" in r.get_data(as_text=True)
    for base in ("http://127.0.0.1:5000", "http://localhost"):
        assert client.get("/", base_url=base).status_code == 200, base


def test_inline_validation_of_type_families_and_merges(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    form = {"account": "Utilities:Gas", "kind": "retype", "target": "BANK"}
    r = client.post(f"{prefix}/map/check", data=form, headers=csrf | HX)
    assert r.status_code == 200 and "field-error" in soup(r).select_one("#rule-check")["class"]
    assert "cannot sit under 'Utilities'" in soup(r).text
    ok = client.post(f"{prefix}/map/check", data=form | {"target": "EXPENSE"}, headers=csrf | HX)
    assert soup(ok).select_one("#rule-check")["class"] == ["field-ok"]
    plain = client.post(f"{prefix}/map/check", data=form, headers=csrf)  # no htmx: no 500
    assert plain.status_code == 200 and "cannot sit under 'Utilities'" in soup(plain).text
    merge = {"account": "Utilities:Gas", "kind": "merge", "target": "Utilities"}
    r = client.post(f"{prefix}/map/rules", data=merge, headers=csrf | HX)
    tree = {
        tr["data-account"]: tr.select("td")[2].text
        for tr in soup(r).select("#tree-table tr[data-account]")
    }
    assert "Utilities:Gas" not in tree and tree["Utilities"] == "Utilities + Utilities:Gas"
    assert (
        client.post(
            f"{prefix}/map/rules", data=merge | {"account": "Nope"}, headers=csrf | HX
        ).status_code
        == 422
    )


def test_unknown_split_accounts_are_marked_in_the_preview(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "unknown_account.iif")
    cells = soup(client.get(f"{prefix}/preview")).select("#txn-table td.account.bad")
    assert [c.text.split()[0:2] for c in cells] == [["Heating", "Oil"]]


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
    assert soup(client.get(f"{prefix}/import")).select_one("#start-import") is not None


def test_ssn_and_bank_numbers_reach_no_file_of_the_migration(client, app):
    import gzip

    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    client.post(f"{prefix}/import", headers=csrf | HX)
    assert wait_done(client, prefix).select_one("#to-download") is not None
    folder = Path(app.config["MIGRATIONS_DIR"]) / prefix.rsplit("/", 1)[1]
    written = [p for p in folder.rglob("*") if p.is_file() and p.parent.name != "uploads"]
    assert {p.name for p in written} >= {"lists.gnucash", "result.json", "report.csv", "job.json"}
    for p in written:
        data = p.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        assert b"987-65-4321" not in data and b"000123456789" not in data, p.name


def test_click_to_edit_a_tree_row(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    page = soup(client.get(f"{prefix}/map"))
    edit = page.select_one("#tree-table tr[data-account='Utilities:Gas'] button.edit")
    r = client.get(edit["hx-get"], headers=HX)
    assert is_fragment(r)
    row = soup(r).select_one("tr.editing")
    assert row["data-account"] == "Utilities:Gas"
    assert row.select_one("input[name=name]")["value"] == "Gas"
    assert row.select_one("select[name=type] option[selected]")["value"] == "EXPENSE"
    account = row.select_one("input[name=account]")["value"]
    r = client.post(
        f"{prefix}/map/edit",
        data={"account": account, "name": "Heating", "type": "EXPENSE"},
        headers=csrf | HX,
    )
    tree = [tr["data-account"] for tr in soup(r).select("#tree-table tr[data-account]")]
    assert "Utilities:Heating" in tree and "Utilities:Gas" not in tree
    assert soup(r).select_one("#map-status").text == "Saved: Rename “Utilities:Gas” to “Heating”."
    bad = client.post(
        f"{prefix}/map/edit", data={"account": account, "name": "A:B"}, headers=csrf | HX
    )
    assert bad.status_code == 422
    gone = client.get(f"{prefix}/map/edit", query_string={"account": "Nope"}, headers=HX)
    assert gone.status_code == 422


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
