"""The home page: start a migration, reopen it, delete it.

Through Flask's test client with real files and the real app; pages are checked by element id
and text with BeautifulSoup, and htmx requests (``HX-Request``) must get the swapped region alone.
"""

from __future__ import annotations

import re

from tests.support.web import new_migration, soup, upload


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


def test_home_says_where_migrations_are_kept_and_their_space(client, app):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    page = soup(client.get("/"))
    kept = page.select_one("#kept-in").text
    assert app.config["MIGRATIONS_DIR"] in kept and "Deleting a migration frees" in kept
    m = app.extensions["store"].open(prefix.rsplit("/", 1)[1])
    assert page.select_one("#migrations td.size").text == f"{round(m.size() / 1024)} KB"


def test_start_twice_leaves_one_empty_migration_and_rows_name_the_company(client):
    first, csrf = new_migration(client)
    again, _ = new_migration(client)
    assert again == first  # nothing was done in the first: it is the one started again
    upload(client, first, csrf, "lists.iif")
    client.get(f"{first}/files")
    other, _ = new_migration(client)
    assert other != first
    rows = soup(client.get("/")).select("#migrations tbody tr")
    assert len(rows) == 2
    names = [r.select_one("td.company").text for r in rows]
    assert "(no files yet)" in names and any(n and n != "(no files yet)" for n in names), names
