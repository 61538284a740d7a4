"""Driving the wizard (and its store) through Flask's test client: a migration, uploads, htmx
requests, pages parsed with BeautifulSoup, waiting for an import."""

from __future__ import annotations

import io
import time

from bs4 import BeautifulSoup

from tests.paths import DATA

WEB = DATA / "web"
HX = {"HX-Request": "true"}
LETTER = (  # a letter uploaded by mistake beside the exports: plainly no QuickBooks export
    b"Dear Sam,\n\nHere are the books for the year, as we agreed on the phone.\n"
    b"The invoices are in the blue folder.\n\nBest wishes,\nAnn\n"
)


def signed_in(app):
    """A test client that has opened the wizard's token address (it now holds the cookie)."""
    client = app.test_client()
    r = client.get(f"/?token={app.config['ACCESS_TOKEN']}")
    assert r.status_code == 303 and r.location == "/", r
    return client


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def token(client) -> str:
    page = soup(client.get("/"))
    return page.select_one("input[name=csrf_token]")["value"]


def new_migration(client) -> tuple[str, dict[str, str]]:
    """A fresh migration: its URL prefix and the CSRF header for htmx-style posts."""
    tok = token(client)
    r = client.post("/m", data={"csrf_token": tok})
    assert r.status_code == 303
    prefix = r.location.rsplit("/", 1)[0]
    return prefix, {"X-CSRF-Token": tok}


def upload(client, prefix: str, csrf: dict, *names: str, htmx: bool = True, data: bytes = b""):
    files = [(io.BytesIO(data or (WEB / n).read_bytes()), n) for n in names]
    headers = csrf | (HX if htmx else {})
    return client.post(f"{prefix}/files", data={"files": files}, headers=headers)


def post_update(client, book, files):
    """The update page's form sent: ``book`` (a path) and the later exports (paths)."""
    data: dict = {"csrf_token": token(client), "book": (io.BytesIO(book.read_bytes()), book.name)}
    data["files"] = [(io.BytesIO(p.read_bytes()), p.name) for p in files]
    return client.post("/update", data=data, content_type="multipart/form-data")


def decide_held(client, location: str, key: str, choice: str):
    """A held change decided on the update's result page at ``location``: the page after it."""
    form = {"csrf_token": token(client), "key": key, "choice": choice}
    decided = client.post(f"{location}/decide", data=form)
    assert decided.status_code == 303
    return soup(client.get(decided.location))


def is_fragment(response) -> bool:
    return "<html" not in response.get_data(as_text=True)


def wait_done(client, prefix: str, timeout: float = 120) -> BeautifulSoup:
    deadline = time.monotonic() + timeout
    while True:
        panel = soup(client.get(f"{prefix}/job", headers=HX))
        state = panel.select_one("#job")["data-state"]
        if state not in ("queued", "running"):
            return panel
        assert panel.select_one("#job")["hx-trigger"].startswith("load delay")
        assert time.monotonic() < deadline, "the import did not finish"
        time.sleep(0.3)


def add(m, name: str, data: bytes | None = None) -> str:
    return m.save_upload(name, io.BytesIO(data if data is not None else (WEB / name).read_bytes()))


def differing_lists() -> bytes:
    """lists.iif with QuickBooks saying 80.00 in Checking, where the history explains 75.00."""
    text = (WEB / "lists.iif").read_text(encoding="utf-8")
    text = text.replace("Checking\tBANK\t75.00", "Checking\tBANK\t80.00")
    return text.replace(
        "Opening Bal Equity\tEQUITY\t0.00", "Opening Bal Equity\tEQUITY\t-5.00"
    ).encode()
