"""Migrations on disk and the parse cache."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

import pytest

from app.errors import UnknownFormatError
from app.plan import FileOptions
from app.store import (
    DuplicateUpload,
    MigrationGone,
    Store,
    UnknownMigration,
    UnknownUpload,
    UploadError,
)
from tests.paths import DATA
from tests.support.web import add

WEB = DATA / "web"


def test_create_open_list_delete(tmp_path):
    store = Store(tmp_path / "migrations")
    a = store.create()
    b = store.create()
    assert a.id != b.id and len(a.id) == 32
    assert sorted(p.name for p in a.path.iterdir()) == ["meta.json", "out", "uploads"]
    assert store.open(a.id).path == a.path
    assert {m.id for m in store.all()} == {a.id, b.id}
    store.delete(a)
    assert not a.path.exists()
    with pytest.raises(UnknownMigration):
        store.open(a.id)


@pytest.mark.parametrize("mid", ["", "..", "../x", "a" * 19, "a/b" * 10, "A" * 65, "x" * 20 + "."])
def test_invalid_or_unknown_ids(tmp_path, mid):
    store = Store(tmp_path)
    (tmp_path / ("a" * 19)).mkdir(exist_ok=True)
    with pytest.raises(UnknownMigration):
        store.open(mid)


def test_a_folder_without_meta_is_not_a_migration(tmp_path):
    store = Store(tmp_path)
    (tmp_path / ("b" * 32)).mkdir()
    with pytest.raises(UnknownMigration):
        store.open("b" * 32)
    assert store.all() == []


def test_uploads_keep_their_order_and_are_sanitised(tmp_path):
    m = Store(tmp_path).create()
    assert add(m, "txns.iif") == "txns.iif"
    assert add(m, "../../lists.iif", (WEB / "lists.iif").read_bytes()) == "lists.iif"
    assert add(m, "My Report (2024).csv", b"Date,Account\n") == "My_Report_2024.csv"
    assert [p.name for p in m.files()] == ["txns.iif", "lists.iif", "My_Report_2024.csv"]
    assert all(p.parent == m.uploads_dir for p in m.files())
    m.remove_upload("lists.iif")
    assert [p.name for p in m.files()] == ["txns.iif", "My_Report_2024.csv"]
    with pytest.raises(UnknownUpload):
        m.remove_upload("../meta.json")


@pytest.mark.parametrize(
    ("name", "data", "error", "words"),
    [
        ("", b"x", UploadError, "no usable file name"),
        ("/", b"x", UploadError, "no usable file name"),
        ("book.gnucash", b"x", UnknownFormatError, "only QuickBooks exports"),
        ("lists", b"x", UnknownFormatError, "only QuickBooks exports"),
        ("empty.csv", b"", UploadError, "is empty"),
    ],
)
def test_refused_uploads(tmp_path, name, data, error, words):
    m = Store(tmp_path).create()
    with pytest.raises(error, match=words):
        add(m, name, data)
    assert list(m.uploads_dir.iterdir()) == []


def test_duplicates_never_overwrite(tmp_path):
    m = Store(tmp_path).create()
    add(m, "txns.iif")
    with pytest.raises(DuplicateUpload):
        add(m, "txns.iif", b"other")
    with pytest.raises(DuplicateUpload):
        add(m, "../txns.iif", b"other")
    assert (m.uploads_dir / "txns.iif").read_bytes() == (WEB / "txns.iif").read_bytes()


def test_plan_saved_and_file_options_dropped_with_the_file(tmp_path):
    m = Store(tmp_path).create()
    add(m, "txns.iif")
    plan = m.plan()
    m.save_plan(replace(plan, files={"txns.iif": FileOptions("dmy")}, reparent=True))
    assert m.plan().reparent and m.plan().files["txns.iif"].date_order == "dmy"
    m.remove_upload("txns.iif")
    assert m.plan().files == {} and m.plan().reparent


def test_restart_loses_nothing(tmp_path):
    m = Store(tmp_path).create()
    add(m, "lists.iif")
    m.save_plan(replace(m.plan(), currency="EUR"))
    again = Store(tmp_path).open(m.id)
    assert [p.name for p in again.files()] == ["lists.iif"]
    assert again.plan().currency == "EUR"
    assert again.created == m.created
    assert isinstance(again.path, Path)


def test_the_kept_copy_has_no_ssn_or_bank_number_and_only_the_owner_reads_it(tmp_path):
    store = Store(tmp_path / "migrations")
    m = store.create()
    add(m, "lists.iif")
    kept = (m.uploads_dir / "lists.iif").read_bytes()
    assert b"987-65-4321" not in kept and b"000123456789" not in kept
    assert b"ACCNT\tChecking\tBANK\t75.00\tMain bank\t1000\t\t\tN\n" in kept
    assert b"EMP\tJoe Worker\t9 Elm St\t\tN\n" in kept
    for path, mode in ((store.root, 0o700), (m.path, 0o700), (m.uploads_dir, 0o700)):
        assert path.stat().st_mode & 0o777 == mode, path
    assert (m.uploads_dir / "lists.iif").stat().st_mode & 0o777 == 0o600
    assert m.size() == sum(p.stat().st_size for p in m.path.rglob("*") if p.is_file()) > 0


def test_a_migration_deleted_while_it_is_listed_answers_as_empty(tmp_path):
    """Issue 22, item 13: the home page lists migrations while another browser deletes one:
    what it asks of the vanished one answers as for an empty one, never an error."""
    store = Store(tmp_path / "migrations")
    m = store.create()
    add(m, "lists.iif")
    listed = store.all()
    with store.exclusive(m):
        store.delete(m)
    (gone,) = listed
    assert (gone.files(), gone.size(), gone.untouched(), gone.withheld()) == ([], 0, True, [])
    assert gone.created == dt.datetime.min and store.all() == []
    with pytest.raises(MigrationGone), store.exclusive(gone):
        pass


def test_an_upload_stopped_midway_leaves_no_copy_as_it_came(tmp_path):
    """A server stopped (a crash, Ctrl+C: no ``finally`` runs) while it stored an upload left
    the file as it came, SSNs and all, in a hidden part kept for good (hunt 24). The part is
    named for the process storing it: a server started on the folder again removes it; one
    another running server is storing stays."""
    import contextlib
    import os
    import subprocess
    import sys
    import time

    from tests.paths import ROOT

    root = tmp_path / "migrations"
    m = Store(root).create()
    script = (
        "import sys; from pathlib import Path; from app.store import Store; "
        f"Store(Path({str(root)!r})).open({m.id!r}).save_upload('lists.iif', sys.stdin.buffer)"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, cwd=ROOT)
    assert proc.stdin is not None
    proc.stdin.write((WEB / "lists.iif").read_bytes() + b"EMP\tPat\tSSN 900-12-3456\n" * 100_000)
    proc.stdin.flush()  # (the stream stays open: the upload is still being stored)
    deadline = time.monotonic() + 30
    while not (parts := list(m.uploads_dir.glob(".*"))) or not parts[0].stat().st_size:
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    with contextlib.suppress(BrokenPipeError):
        proc.stdin.close()
    (part,) = parts
    assert b"900-12-3456" in part.read_bytes()  # (as it came: the redaction runs at the end)
    other = m.uploads_dir / f".b.iif.part-{os.getppid()}"  # (a running process's: stays)
    other.write_bytes(b"storing")
    legacy = m.uploads_dir / ".c.iif.part"  # (an earlier version's, no process named: hunt 25)
    legacy.write_bytes(b"SSN 900-12-3456")
    # a stopped import's book being read back, and a running one's (hunt 24: 13 MB kept)
    dead = proc.pid  # (waited for: gone)
    (m.out_dir / f".Acme.gnucash.partial-checked-{dead}").write_bytes(b"a book")
    running = m.out_dir / f".Acme.gnucash.partial-{os.getppid()}"
    running.write_bytes(b"a book being written")
    Store(root)  # a server started again on the folder
    assert sorted(p.name for p in m.uploads_dir.iterdir()) == [other.name]
    assert sorted(p.name for p in m.out_dir.iterdir()) == [running.name]
