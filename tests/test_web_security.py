"""What keeps the wizard safe: CSRF tokens, migration ids and file names in URLs, local host
names only (and where run.py listens), security headers, errors that tell nothing of the
internals, and SSNs and bank numbers that reach no page and no file.

Through Flask's test client with real files and the real app; pages are checked by element id
and text with BeautifulSoup, and htmx requests (``HX-Request``) must get the swapped region alone.
"""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest

from app import create_app
from tests.support.web import HX, is_fragment, new_migration, signed_in, soup, upload, wait_done


def test_every_change_needs_the_csrf_token(client, tmp_path):
    prefix, csrf = new_migration(client)
    for url in ("/m", f"{prefix}/files", f"{prefix}/import", f"{prefix}/map/settings"):
        r = client.post(url, data={})
        assert r.status_code == 400, url
        assert "Reload the page" in r.get_data(as_text=True)
        r = client.post(url, data={}, headers={"X-CSRF-Token": "forged"} | HX)
        assert r.status_code == 400
        assert r.headers["HX-Retarget"] == "#messages"
    # a method no route takes is that, not a token to reload the page for (hunt 24: 400)
    assert client.delete(f"{prefix}/files/x.iif/delete").status_code == 405
    assert client.post(f"{prefix}/preview", data={}).status_code == 405
    assert client.put("/m", data={}).status_code == 405
    assert client.post(f"{prefix}/no-such-step", data={}).status_code == 404
    fresh = signed_in(create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "other")}))
    assert fresh.post("/m", headers=csrf).status_code == 400  # a token of another session


def test_without_the_access_token_nothing_is_shown(client, app):
    """Another browser, or another user of the machine: 403 and how to get in, on every page;
    the static files only are served without the token."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    other = app.test_client()
    for url in ("/", f"{prefix}/files", f"{prefix}/download/book", "/no/such/page"):
        r = other.get(url)
        assert r.status_code == 403, url
        assert "private to the person who started it" in r.text and "?token=" in r.text
        assert "lists.iif" not in r.text and prefix not in r.text
    r = other.get(f"{prefix}/files", headers=HX)
    assert r.status_code == 403 and is_fragment(r) and r.headers["HX-Retarget"] == "#messages"
    assert other.post("/m", headers=csrf).status_code == 403
    assert other.get(f"/?token={app.config['ACCESS_TOKEN']}x").status_code == 403
    assert other.post(f"/m?token={app.config['ACCESS_TOKEN']}", headers=csrf).status_code == 403
    assert status_for(other, "localhost") == 200  # /static/app.css


def test_the_token_address_signs_in_then_leaves_the_url(app):
    prefix = "/m/" + app.extensions["store"].create().id
    browser = app.test_client()
    r = browser.get(f"{prefix}/files?token={app.config['ACCESS_TOKEN']}&x=1")
    assert r.status_code == 303 and r.location == f"{prefix}/files?x=1"
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith("qb2gnucash_http=") and "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    assert browser.get(f"{prefix}/files").status_code == 200
    assert browser.get("/").status_code == 200


def test_a_new_start_makes_a_new_token(tmp_path):
    first = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    second = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    assert len(first.config["ACCESS_TOKEN"]) >= 32
    assert first.config["ACCESS_TOKEN"] != second.config["ACCESS_TOKEN"]
    browser = signed_in(first)
    with browser.get("/", base_url="http://localhost") as r:
        assert r.status_code == 200
    second_browser = second.test_client()
    second_browser.set_cookie("qb2gnucash_http", first.config["ACCESS_TOKEN"])
    assert second_browser.get("/").status_code == 403  # the old token is no key any more


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


def test_only_local_host_names_are_served(client):
    """DNS rebinding: a page on another site that resolves its name to 127.0.0.1."""
    r = client.get("/", headers={"Host": "evil.example:5000"})
    assert r.status_code == 400 and "only on the address it was started on" in r.text
    assert "Set-Cookie" not in r.headers
    for host in ("127.0.0.1:5000", "localhost"):
        assert status_for(client, host) == 200, host
    assert status_for(client, "[::1]:5000") == 400  # not an address it listens on


@pytest.mark.parametrize(
    ("host", "served", "refused"),
    [
        ("::1", ["[::1]:5000", "localhost:5000", "[::1]"], ["evil.example", "127.0.0.1:5000"]),
        ("[::1]", ["[::1]:5000"], ["evil.example:5000"]),
        ("localhost", ["localhost:5000", "127.0.0.1:5000", "[::1]:5000"], ["evil.example"]),
        ("192.168.1.20", ["192.168.1.20:8080"], ["evil.example", "localhost", "10.0.0.1"]),
        ("0.0.0.0", ["192.168.1.20:8080", "127.0.0.1", "[fe80::1]:80"], ["evil.example:8080"]),
        ("::", ["10.1.2.3:5000", "localhost:5000"], ["rebind.evil.example"]),
    ],
)
def test_the_host_check_follows_the_address_served(host, served, refused, tmp_path):
    """``--host`` other than 127.0.0.1 keeps the DNS-rebinding check, for its own address."""
    from app.server import served_hosts

    app = create_app(
        {"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SERVED_HOSTS": served_hosts(host)}
    )
    client = app.test_client()
    for name in served:
        assert status_for(client, name) == 200, name
    for name in refused:
        assert status_for(client, name) == 400, name


def status_for(client, host: str) -> int:
    with client.get("/static/app.css", headers={"Host": host}) as r:
        return r.status_code


def test_security_headers(client):
    r = client.get("/")
    assert r.headers["X-Frame-Options"] == "DENY"
    assert "default-src 'self'" in r.headers["Content-Security-Policy"]
    assert "HX-Request" in r.headers["Vary"]
    assert soup(r).select_one("script")["src"] == "/static/htmx.min.js"  # no CDN: works offline
    with client.get("/static/htmx.min.js") as js:
        assert js.status_code == 200 and b"htmx" in js.data


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


def test_ssn_and_bank_numbers_reach_no_file_of_the_migration(client, app):
    import gzip

    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    client.post(f"{prefix}/import", headers=csrf | HX)
    assert wait_done(client, prefix).select_one("#to-download") is not None
    folder = Path(app.config["MIGRATIONS_DIR"]) / prefix.rsplit("/", 1)[1]
    written = [p for p in folder.rglob("*") if p.is_file()]
    assert {p.name for p in written} >= {
        *("lists.gnucash", "result.json", "report.csv", "job.json", "lists.iif", "txns.iif")
    }
    for p in written:
        data = p.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        assert b"987-65-4321" not in data and b"000123456789" not in data, p.name
    for p in (folder / "uploads" / "lists.iif", folder / "out" / "lists.gnucash"):
        assert p.stat().st_mode & 0o777 == 0o600, p  # the owner's alone, not 0644
    for p in (folder.parent, folder, folder / "uploads", folder / "out"):
        assert p.stat().st_mode & 0o777 == 0o700, p


def test_the_column_page_is_for_csv_reports_only_and_blanks_sensitive_cells(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    r = client.get(f"{prefix}/files/lists.iif/columns")
    assert r.status_code == 404 and "only a CSV report's columns can be mapped" in soup(r).text
    assert "987-65-4321" not in r.text and "000123456789" not in r.text
    odd = (
        "Posted On,Ref No,Ledger,Value,Payee SSN,Bank Account No,Note\n"
        "02/01/2024,7,Checking,-25.00,123-45-6789,000123456789,paid 987-65-4321\n"
        "02/01/2024,7,Gas,25.00,,,444-55-6666\n"
    )
    upload(client, prefix, csrf, "odd.csv", data=odd.encode())
    page = client.get(f"{prefix}/files/odd.csv/columns")
    assert page.status_code == 200
    cells = [td.text for td in soup(page).select("#column-sample tbody td")]
    assert cells[:4] == ["02/01/2024", "7", "Checking", "-25.00"] and "paid •••-••-••••" in cells
    for secret in ("123-45-6789", "000123456789", "987-65-4321", "444-55-6666"):
        assert secret not in page.text


class _NotServing:
    """Stands in for werkzeug's server: records where it was asked to listen."""

    def __init__(
        self, calls: list[dict], host: str, port: int, app, *, threaded: bool, request_handler
    ) -> None:
        calls.append({"host": host, "port": port, "threaded": threaded})
        calls[-1]["handler"] = request_handler
        calls[-1]["app"] = app

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
    (call,) = no_serving
    assert (call["host"], call["port"], call["threaded"]) == ("127.0.0.1", 5000, True)
    assert call["app"].config["SERVED_HOSTS"] == ["127.0.0.1", "localhost"]
    out, err = capsys.readouterr()
    token = call["app"].config["ACCESS_TOKEN"]
    assert f"http://127.0.0.1:5000/?token={token}" in out and err == ""
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


def test_server_on_ipv6_loopback_checks_hosts_against_it(no_serving, tmp_path, capsys):
    from app.server import main

    assert main(["--no-open", "--host", "::1", "--instance", str(tmp_path)]) == 0
    app = no_serving[0]["app"]
    out, err = capsys.readouterr()
    assert "http://[::1]:5000/" in out and err == ""  # loopback: no warning
    client = app.test_client()
    assert status_for(client, "[::1]:5000") == 200
    assert status_for(client, "evil.example") == 400


def test_server_opens_the_token_address(no_serving, tmp_path, monkeypatch):
    from app.server import main

    opened: list[tuple] = []

    class Timer:  # instead of threading.Timer: what would be opened, without a browser
        def __init__(self, delay, fn, args) -> None:
            opened.append((fn.__name__, *args))

        def start(self) -> None:
            pass

    monkeypatch.setattr("app.server.threading.Timer", Timer)
    monkeypatch.setenv("QB2GNUCASH_TOKEN", "chosen-token-chosen-token-chosen-token")
    assert main(["--port", "5123", "--instance", str(tmp_path)]) == 0
    assert no_serving[0]["app"].config["ACCESS_TOKEN"] == "chosen-token-chosen-token-chosen-token"
    url = "http://127.0.0.1:5123/?token=chosen-token-chosen-token-chosen-token"
    assert opened == [("open", url)]


def test_the_access_token_stays_out_of_the_servers_log(server: str, tmp_path):
    """Issue 22, item 3: werkzeug's access log line of the token address (``GET /?token=…``)
    and of a request line it cannot parse never show the token; nor what was typed into a
    search (a bank number searched for reached the log: hunt 24)."""
    import urllib.request

    token = server.partition("?token=")[2]
    assert token
    base = server.partition("?")[0]
    searched = f"{base}m/x/transactions?q=5955444433338901&page=2"  # (typed: hunt 24)
    for url in (server, f"{base}files?x=1&token={token}", f"{base}?%74oken={token}", searched):
        with pytest.raises(urllib.error.HTTPError):  # 303 to a page that needs the cookie
            urllib.request.urlopen(url, timeout=10).close()
    port = int(base.rsplit(":", 1)[1].strip("/"))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(f"GET /?token={token} HTTP/9.9 nonsense\r\n\r\n".encode())
        raw.recv(4096)
    printed, *logged = (tmp_path / "server.log").read_text(encoding="utf-8").splitlines()
    assert printed.startswith("qb2gnucash is running at") and token in printed  # for the user
    log = "\n".join(logged)
    assert "GET /?token=[hidden] HTTP/1.1" in log and "GET /files?x=1&token=[hidden] " in log, log
    assert token not in log, log
    assert "5955444433338901" not in log and "?q=[hidden]&page=2" in log, log
