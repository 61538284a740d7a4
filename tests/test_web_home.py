"""The home page: start a migration, reopen it, delete it.

Through Flask's test client with real files and the real app; pages are checked by element id
and text with BeautifulSoup, and htmx requests (``HX-Request``) must get the swapped region alone.
"""

from __future__ import annotations

import re

from tests.support.web import WEB, new_migration, soup, upload


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


def test_every_start_is_a_new_migration_and_rows_name_the_company(client):
    """Issue 22, item 12: an untouched migration is never handed to a second Start (another
    browser may hold it); the home list shows only migrations with something in them."""
    first, csrf = new_migration(client)
    again, _ = new_migration(client)
    assert again != first
    upload(client, first, csrf, "lists.iif")
    client.get(f"{first}/files")
    rows = soup(client.get("/")).select("#migrations tbody tr")
    assert len(rows) == 1  # the untouched one is not listed (and is cleaned up later)
    assert rows[0].select_one("td.company").text not in ("", "(no files yet)")
    assert upload(client, again, csrf, "txns.iif").status_code == 200
    assert len(soup(client.get("/")).select("#migrations tbody tr")) == 2


def test_ten_browsers_starting_together_get_ten_migrations(app):
    """Issue 22, item 12: 10 browsers pressing Start together, then each adding its file."""
    import threading

    from tests.support.web import signed_in, token

    browsers = [signed_in(app) for _ in range(10)]
    tokens = [token(b) for b in browsers]
    ready = threading.Barrier(len(browsers))
    got: dict[int, object] = {}

    def start(i: int) -> None:
        ready.wait()
        got[i] = browsers[i].post("/m", data={"csrf_token": tokens[i]})

    threads = [threading.Thread(target=start, args=(i,)) for i in range(len(browsers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(r.status_code for r in got.values()) == [303] * 10
    prefixes = [got[i].location.rsplit("/", 1)[0] for i in range(10)]
    assert len(set(prefixes)) == 10
    for i, (b, prefix) in enumerate(zip(browsers, prefixes, strict=True)):
        name = f"lists{i}.iif"
        data = (WEB / "lists.iif").read_bytes()
        assert upload(b, prefix, {"X-CSRF-Token": tokens[i]}, name, data=data).status_code == 200
    store = app.extensions["store"]
    assert sorted([p.name for p in m.files()] for m in store.all()) == sorted(
        [f"lists{i}.iif"] for i in range(10)
    )


def test_untouched_migrations_are_cleaned_up_a_day_later(app, client):
    import datetime as dt
    import os

    store = app.extensions["store"]
    old, fresh, used = store.create(), store.create(), store.create()
    (used.uploads_dir / "lists.iif").write_bytes((WEB / "lists.iif").read_bytes())
    day_ago = (dt.datetime.now() - dt.timedelta(days=1, minutes=1)).timestamp()
    for m in (old, used):
        for p in (m.path, m.meta_path, m.uploads_dir):
            os.utime(p, (day_ago, day_ago))
        m.meta_path.write_text(
            m.meta_path.read_text().replace(m.meta["created"][:4], "2000"), encoding="utf-8"
        )
    new_migration(client)
    left = {m.id for m in store.all()}
    assert old.id not in left and {fresh.id, used.id} <= left and len(left) == 3


def test_deleting_while_another_browser_starts_its_import(app):
    """Issue 22, item 13: deletion and a job's start exclude each other. Whichever comes first,
    no 500, and the migration ends wholly deleted: not listed, no folder, no worker left."""
    import threading

    from tests.support.web import HX, signed_in, token

    store = app.extensions["store"]
    root = store.root
    for _ in range(6):
        one, other = signed_in(app), signed_in(app)
        csrf_one, csrf_other = token(one), token(other)
        prefix, _ = new_migration(one)
        upload(one, prefix, {"X-CSRF-Token": csrf_one}, "lists.iif", "txns.iif")
        ready = threading.Barrier(2)
        got: dict[str, object] = {}

        def delete(prefix=prefix, client=one, csrf=csrf_one, ready=ready, got=got) -> None:
            ready.wait()
            got["delete"] = client.post(f"{prefix}/delete", data={"csrf_token": csrf})

        def start(prefix=prefix, client=other, csrf=csrf_other, ready=ready, got=got) -> None:
            ready.wait()
            got["import"] = client.post(f"{prefix}/import", headers={"X-CSRF-Token": csrf} | HX)

        threads = [threading.Thread(target=delete), threading.Thread(target=start)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert got["delete"].status_code == 303, got["delete"].text
        started = got["import"]
        assert started.status_code in (200, 404), started.text
        if started.status_code == 404:
            assert "deleted" in soup(started).text
        mid = prefix.rsplit("/", 1)[1]
        assert not (root / mid).exists() and mid not in {m.id for m in store.all()}
        assert [p.name for p in root.iterdir() if not p.name.startswith(".")] == []
        assert one.get(f"{prefix}/import").status_code == 404
    assert not app.extensions["jobs"]._procs  # every worker started was stopped and collected


def test_a_request_that_waited_for_a_deletion_says_the_migration_is_gone(app, client):
    """Issue 22, item 13, the other order: an import or an upload that opened the migration
    just before it was deleted waits for the deletion, then says so (404, nothing written)."""
    import threading

    from tests.support.web import HX

    store = app.extensions["store"]
    for action in ("import", "files"):
        prefix, csrf = new_migration(client)
        upload(client, prefix, csrf, "lists.iif", "txns.iif")
        m = store.open(prefix.rsplit("/", 1)[1])
        got: dict[str, object] = {}

        def request(prefix=prefix, csrf=csrf, action=action, got=got) -> None:
            if action == "import":
                got["r"] = client.post(f"{prefix}/import", headers=csrf | HX)
            else:
                got["r"] = upload(client, prefix, csrf, "odd_columns.csv")

        with store.exclusive(m):  # as the deletion holds it
            waiting = threading.Thread(target=request)
            waiting.start()
            waiting.join(1.0)
            assert waiting.is_alive()  # it waits for the deletion
            store.delete(m)
        waiting.join(30)
        r = got["r"]
        assert r.status_code == 404, r.text
        assert "This migration was deleted" in soup(r).text and "Start a new one" in soup(r).text
        assert not m.path.exists() and not list(store.root.iterdir())
