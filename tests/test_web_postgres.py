"""The wizard's PostgreSQL books (issue 29): the Map step offers the database where GnuCash's
driver is installed, with a connection test; the password typed there is kept in the server's
memory only (never in the plan, a page, a log or a file) and handed to the import worker; the
book is written into the database, proved, and the Download step says where it is. Through
Flask's test client and the real worker against a throw-away PostgreSQL server."""

from __future__ import annotations

import io
import zipfile
from decimal import Decimal as D
from pathlib import Path

import pytest

from tests.support.pgserver import PASSWORD, USER
from tests.support.web import HX, new_migration, soup, upload, wait_done


@pytest.fixture
def no_password_around(monkeypatch):
    """Neither PGPASSWORD nor a password file: the only password is the one typed."""
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", "/nonexistent/pgpass")


@pytest.fixture
def company(tmp_path):
    from tests.support.companygen import make_company

    comp = make_company(120, seed=17, documents=True)
    lists = comp.write_lists_iif(tmp_path / "lists.iif")
    detail = comp.write_transaction_detail_csv(tmp_path / "transaction_detail.csv")
    return comp, [lists, detail]


def _migration(client, files: list[Path]):
    prefix, csrf = new_migration(client)
    for f in files:
        r = upload(client, prefix, csrf, f.name, data=f.read_bytes())
        assert r.status_code == 200, r.get_data(as_text=True)
    return prefix, csrf


def _settings(client, prefix, csrf, **fields):
    data = {"currency": "USD", "mode": "full", "documents": "all", **fields}
    return client.post(f"{prefix}/map/settings", data=data, headers=csrf | HX)


def _database(client, prefix, csrf, address: str, password: str = ""):
    """The Map step's database form: use this address (and password) and test it."""
    data = {"database": address, "db_password": password}
    return client.post(f"{prefix}/map/database", data=data, headers=csrf | HX)


def _everything_on_disk(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file())


def test_the_map_step_offers_postgresql_and_tests_the_connection(
    pg_server, client, company, no_password_around
):
    _comp, files = company
    prefix, csrf = _migration(client, files)
    page = soup(client.get(f"{prefix}/map"))
    options = [o["value"] for o in page.select("select[name=format] option")]
    assert options == ["xml", "sqlite", "postgres"]  # the driver is installed here
    assert page.select_one("#database-setting") is None  # shown once chosen
    r = _settings(client, prefix, csrf, format="postgres")
    assert r.status_code == 200
    page = soup(r)
    assert page.select_one("#database")["placeholder"] == "postgres://USER@HOST:5432/DATABASE"
    url = pg_server.url("wizard_test")

    def test(password: str = "", address: str = url) -> str:
        r = _database(client, prefix, csrf, address, password)
        assert r.status_code == 200
        return soup(r).select_one("#database-test").text

    assert "refused the password for bookkeeper" in test("wrong")
    assert "put the password in PGPASSWORD or ~/.pgpass" in test("")  # (the kept wrong one)
    said = test(PASSWORD)
    assert said == (
        f"Connected to 127.0.0.1:{pg_server.port} as {USER}. There is no database wizard_test "
        "yet: the import creates it."
    )
    # a user who may not create databases is told so by the test, not by a failed import
    pg_server.sql(f"CREATE ROLE wizard_clerk LOGIN NOCREATEDB PASSWORD '{PASSWORD}'")
    clerk = pg_server.url("wizard_clerk_books", user="wizard_clerk")
    assert test(PASSWORD, clerk) == (
        f"Connected to 127.0.0.1:{pg_server.port} as wizard_clerk, but there is no database "
        "wizard_clerk_books, and wizard_clerk may not create databases: create it for "
        "wizard_clerk (createdb -O wizard_clerk wizard_clerk_books), or give wizard_clerk that "
        "right (ALTER ROLE wizard_clerk CREATEDB), then test again."
    )
    r = _database(client, prefix, csrf, url.replace(USER, f"{USER}:pw"))
    assert "must not hold the password" in soup(r).select_one("#database-test").text
    assert soup(r).select_one("#database")["value"] == url.replace(USER, f"{USER}:pw")
    pg_server.sql(f"CREATE DATABASE wizard_empty OWNER {USER}")
    assert "the database wizard_empty is empty; the book goes there" in test(
        "", pg_server.url("wizard_empty")
    )
    # the address in the plan, the password kept in memory only (and used by the tests)
    r = _database(client, prefix, csrf, url, PASSWORD)
    mid = prefix.rsplit("/", 1)[-1]
    migrations = Path(client.application.config["MIGRATIONS_DIR"])
    assert f'"database": "{url}"' in (migrations / mid / "plan.json").read_text()
    assert soup(r).select_one("#db-password")["placeholder"] == "kept (type to change)"
    assert soup(r).select_one("#db-password")["value"] == ""
    assert "There is no database wizard_test yet" in test()  # the kept password
    assert PASSWORD not in r.get_data(as_text=True)
    assert PASSWORD.encode() not in _everything_on_disk(migrations.parent)
    bad = _database(client, prefix, csrf, "postgres://me@server")
    assert "Give the database name" in soup(bad).select_one("#database-test").text
    assert f'"database": "{url}"' in (migrations / mid / "plan.json").read_text()  # kept
    r = _settings(client, prefix, csrf, format="xml")  # another format: the password forgotten
    r = _settings(client, prefix, csrf, format="postgres")
    assert soup(r).select_one("#db-password")["placeholder"] == ""
    assert soup(r).select_one("#database")["value"] == url


def test_an_import_into_postgresql_with_the_typed_password(
    pg_server, client, company, no_password_around
):
    from app import gnc
    from app.postgres import engine_password, parse_address

    comp, files = company
    prefix, csrf = _migration(client, files)
    url = pg_server.url("wizard_book")
    _settings(client, prefix, csrf, format="postgres")
    _database(client, prefix, csrf, url, PASSWORD)
    page = soup(client.get(f"{prefix}/import"))
    assert f"into the PostgreSQL database {url}" in page.select_one("#import-summary").text
    r = client.post(f"{prefix}/import", headers=csrf | HX)
    assert r.status_code == 200, r.get_data(as_text=True)
    panel = wait_done(client, prefix)
    assert panel.select_one("#to-download"), panel.text
    with engine_password(PASSWORD):
        book = gnc.read_book(parse_address(url))
    expected = comp.expected_balances()
    got = {a.full_name: a.balance for a in book.accounts}
    assert {k: got.get(k, D(0)) for k in expected} == expected
    download = soup(client.get(f"{prefix}/download"))
    assert download.select_one("#book-in-database").text == (
        f"The book is in the PostgreSQL database {url}."
    )
    assert download.select_one("#download-book") is None
    with client.get(f"{prefix}/download/book") as refused:
        assert refused.status_code == 404
        assert "This book is in the PostgreSQL database" in refused.get_data(as_text=True)
    with client.get(f"{prefix}/download/audit.zip") as pack:
        assert pack.status_code == 200
        data = pack.data
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
        readme = next(zf.read(n).decode() for n in names if n.endswith("README.txt"))
        report = next(zf.read(n).decode() for n in names if n.endswith("report.html"))
    assert not [n for n in names if n.endswith(".gnucash")]
    assert f"The GnuCash book is in the PostgreSQL database {url}" in readme
    assert f"Verification report: {url}" in report
    instance = Path(client.application.config["MIGRATIONS_DIR"]).parent
    assert PASSWORD.encode() not in _everything_on_disk(instance)  # worker.log included
    # written again: the book this migration wrote is replaced, once the new one is proven
    r = client.post(f"{prefix}/import", headers=csrf | HX)
    assert wait_done(client, prefix).select_one("#to-download")
    assert pg_server.tables("wizard_book") >= {"accounts", "transactions"}
    assert not [d for d in pg_server.databases() if "qb2gnucash" in d]


def test_an_import_never_replaces_a_book_it_did_not_write(
    pg_server, client, company, no_password_around
):
    _comp, files = company
    pg_server.sql(f"CREATE DATABASE someone_elses OWNER {USER}")
    pg_server.sql("CREATE TABLE ledger (id int)", "someone_elses")
    prefix, csrf = _migration(client, files)
    url = pg_server.url("someone_elses")
    _settings(client, prefix, csrf, format="postgres")
    _database(client, prefix, csrf, url, PASSWORD)
    client.post(f"{prefix}/import", headers=csrf | HX)
    panel = wait_done(client, prefix)
    assert panel.select_one("#job")["data-state"] == "failed"
    assert "already holds tables (not a GnuCash book); not overwritten" in panel.text
    assert pg_server.tables("someone_elses") == {"ledger"}


def test_a_book_the_wizard_wrote_in_postgresql_is_brought_up_to_date_where_it_is(
    pg_server, client, no_password_around, tmp_path
):
    """March's book written into PostgreSQL by the wizard, offered on the update page with June's
    exports: brought up to date in its database (the book as it was kept there under a new
    name), with the password typed on the update page (the one typed for the first write is
    gone: the wizard restarted). The book reopened through the engine equals the same update
    of the same book in a file; a held change decided there runs on the database again."""
    from app import gnc, pipeline, update_run
    from app.plan import Plan
    from app.postgres import parse_address
    from tests.support.companygen_later import later_company
    from tests.support.web import decide_held, token

    later = later_company(250, seed=4)
    march = [
        later.first.write_lists_iif(tmp_path / "lists.iif"),
        later.first.write_journal_csv(tmp_path / "journal.csv"),
    ]
    (tmp_path / "june").mkdir()
    june = [
        later.second.write_lists_iif(tmp_path / "june" / "lists.iif"),
        later.second.write_journal_csv(tmp_path / "june" / "journal.csv"),
    ]
    prefix, csrf = _migration(client, march)
    url = pg_server.url("wizard_update")
    _settings(client, prefix, csrf, format="postgres")
    _database(client, prefix, csrf, url, PASSWORD)
    client.post(f"{prefix}/import", headers=csrf | HX)
    assert wait_done(client, prefix).select_one("#to-download")
    mid = prefix.rsplit("/", 1)[-1]
    client.application.extensions["passwords"].forget(mid)  # (as after a restart)
    page = soup(client.get("/update"))
    (offered,) = page.select("#earlier-books li")
    assert offered.select_one("input")["value"] == mid
    assert f"in PostgreSQL, {url} (converted)" in offered.get_text(" ")
    assert page.select_one("#update-password input[type=password][name=password]")

    def post(password: str):
        data = {"csrf_token": token(client), "earlier": mid, "password": password}
        data["files"] = [(io.BytesIO(p.read_bytes()), p.name) for p in june]
        return client.post("/update", data=data, content_type="multipart/form-data")

    wrong = post("not-the-Pa55word-42")
    assert wrong.status_code == 400, wrong.get_data(as_text=True)
    assert "refused the password for bookkeeper" in wrong.get_data(as_text=True)
    assert "not-the-Pa55word-42" not in wrong.get_data(as_text=True)  # (never shown back)
    assert len(soup(client.get("/update")).select("#earlier-books li")) == 1  # nothing kept
    r = post(PASSWORD)
    assert r.status_code == 303, r.get_data(as_text=True)
    result = soup(client.get(r.location))
    backups = sorted(d for d in pg_server.databases() if d.startswith("wizard_update_before_"))
    assert len(backups) == 1
    said = result.select_one("#updated-database").text
    assert said == (
        f"The book in PostgreSQL, {url}, is brought up to date where it is. Open it in GnuCash "
        "with File › Open (Data Format postgres)."
    )
    kept = f"The previous book is kept as the database {backups[0]} on {pg_server.host}"
    assert kept in [li.text for li in result.select("#update-summary li")]
    assert result.select_one("#download-updated") is None
    assert client.get(f"{r.location}/book").status_code == 404
    summary = result.select_one("#update-summary").get_text(" ")
    assert f"{len(later.added)} transactions added" in summary
    # the same update of the same book in a file: reopened, the two books are one
    plan = Plan()
    xml = tmp_path / "march.gnucash"
    assert pipeline.write(pipeline.prepare(pipeline.read(march, plan), plan), xml, plan).report.ok
    in_file = update_run.bring_up_to_date(june, xml)
    book = gnc.read_book(parse_address(url), password=PASSWORD)
    file_book = gnc.read_book(xml)
    assert book.transactions == file_book.transactions
    assert {a.full_name: a.balance for a in book.accounts} == {
        a.full_name: a.balance for a in file_book.accounts
    }
    # proven as the file's update is: by exactly the changes held, the same differences
    assert in_file.report is not None and in_file.explained and not in_file.report.ok
    assert result.select_one("#update-held")
    shown = [li.get_text() for li in result.select("#update-differences li")]
    assert shown == in_file.report.difference_lines("wizard") != []
    # a held change decided on the result page: the update runs on the database again, with
    # the password kept in memory for this update
    key = next(li["data-key"] for li in result.select("#held-changes li.held"))
    after = decide_held(client, r.location, key, "quickbooks")
    assert "(your decision)" in after.select_one("#update-summary").get_text(" ")
    assert len([d for d in pg_server.databases() if d.startswith("wizard_update_before_")]) == 2
    # the wizard started again: the password kept for the decisions is gone, said so
    update_mid = r.location.split("/")[2]
    client.application.extensions["passwords"].forget(update_mid)
    left = next(li["data-key"] for li in after.select("#held-changes li.held"))
    form = {"csrf_token": token(client), "key": left, "choice": "book"}
    gone = client.post(f"{r.location}/decide", data=form)
    assert gone.status_code == 400
    assert "its password is no longer kept (the wizard was started again since)" in gone.get_data(
        as_text=True
    )
    # the update's book is offered next, in its database
    listed = soup(client.get("/update")).select("#earlier-books li")
    assert f"in PostgreSQL, {url} (brought up to date)" in listed[0].get_text(" ")
    instance = Path(client.application.config["MIGRATIONS_DIR"]).parent
    assert PASSWORD.encode() not in _everything_on_disk(instance)
