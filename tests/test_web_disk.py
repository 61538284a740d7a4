"""The wizard on a disk that is full or read-only (issue 22, item 14): one clear message, never a
traceback or a 5xx, nothing half-written. A real small file system (tests/support/disk.py)."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from io import BytesIO

from app import create_app
from tests.paths import ROOT
from tests.support.browser import free_port
from tests.support.disk import files_in, fill, small_disk
from tests.support.web import HX, new_migration, signed_in, soup, upload, wait_done


def test_the_audit_pack_and_a_new_import_on_a_full_disk(tmp_path):
    with small_disk(tmp_path / "instance", kb=8192) as folder:
        app = create_app({"TESTING": True, "INSTANCE_PATH": str(folder)})
        try:
            client = signed_in(app)
            prefix, csrf = new_migration(client)
            upload(client, prefix, csrf, "lists.iif", "txns.iif")
            client.post(f"{prefix}/import", headers=csrf | HX)
            assert wait_done(client, prefix).select_one("#to-download") is not None
            filler = fill(folder)
            before = files_in(folder)

            r = client.get(f"{prefix}/download/audit.zip")
            assert r.status_code == 409, r.text
            text = " ".join(soup(r).text.split())
            assert "The audit pack could not be made: the disk is full (0 MB free)." in text
            assert "Free some space" in text and "Something went wrong" not in text
            assert files_in(folder) == before

            for headers in (csrf | HX, csrf):
                r = client.post(f"{prefix}/import", headers=headers)
                assert r.status_code == 409, r.text
                text = " ".join(soup(r).text.split())
                assert "The import could not start: the disk is full (0 MB free)." in text
                assert "Nothing was changed: the book written before stays on offer" in text
                assert files_in(folder) == before  # the book not moved aside, no job started
            page = soup(client.get(f"{prefix}/download"))
            assert page.select_one("#download-book") is not None, page.text
            assert "earlier settings" not in page.text
            with client.get(f"{prefix}/download/book") as r:
                assert r.status_code == 200

            filler.unlink()  # room again: both work
            with client.get(f"{prefix}/download/audit.zip") as r:
                assert r.status_code == 200
                names = zipfile.ZipFile(BytesIO(r.data)).namelist()
            assert "lists-audit/lists.gnucash" in names
            assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
            assert wait_done(client, prefix).select_one("#to-download") is not None
        finally:
            app.extensions["jobs"].shutdown()


def test_a_read_only_instance_folder_is_said_at_start_up(tmp_path):
    with small_disk(tmp_path / "instance", read_only=True) as folder:
        command = [sys.executable, "run.py", "--no-open", "--port", str(free_port())]
        run = subprocess.run(
            [*command, "--instance", str(folder)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert run.returncode == 2, run.stdout + run.stderr
        assert "Traceback" not in run.stderr and run.stdout == ""
        (line,) = run.stderr.splitlines()
        assert re.fullmatch(
            rf"run\.py: error: qb2gnucash cannot keep its files in {re.escape(str(folder))}: the "
            r"disk or folder is read-only\. Start it with --instance naming a folder you can "
            r"write \(or set QB2GNUCASH_INSTANCE\)\.",
            line,
        ), line


BANK = {"target": "Bank"}


def test_starting_saving_choices_and_an_update_on_a_full_disk(tmp_path):
    """Start, Use a sample company, the Map step's settings and changes, a plan loaded, a
    rename, and an update's book on a full disk were each a 500 saying "your uploaded files
    and choices are kept", and a failed Start left a folder with no meta.json for good, an
    update a partial copy of the book (hunt 24). Each is said now (409), nothing left."""
    from tests.support.web import WEB, token

    with small_disk(tmp_path / "instance", kb=8192) as folder:
        app = create_app({"TESTING": True, "INSTANCE_PATH": str(folder)})
        try:
            client = signed_in(app)
            prefix, csrf = new_migration(client)
            upload(client, prefix, csrf, "lists.iif", "txns.iif")
            filler = fill(folder)
            before = files_in(folder)
            plan = client.get(f"{prefix}/plan.json").data
            sqlite = BytesIO(plan.replace(b'"xml"', b'"sqlite"'))
            posts = [
                ("/m", {"csrf_token": token(client)}, {}),
                ("/sample", {"csrf_token": token(client)}, {}),
                (f"{prefix}/map/settings", {"currency": "USD", "format": "sqlite"}, csrf),
                (f"{prefix}/map/rules", {"kind": "rename", "account": "Checking"} | BANK, csrf),
                (f"{prefix}/plan", {"plan": (sqlite, "p.json")}, csrf),
                (f"{prefix}/name", {"name": "Acme Ltd"}, csrf),
            ]
            for url, data, headers in posts:
                r = client.post(url, data=data, headers=headers | HX)
                assert r.status_code == 409, (url, r.status_code, r.text[:300])
                text = " ".join(soup(r).text.split())
                assert "the disk is full" in text and "Something went wrong" not in text, url
                assert files_in(folder) == before, url
            book = tmp_path / "book.gnucash"
            book.write_bytes(b"<?xml version='1.0'?><gnc-v2>" + b" " * 200_000 + b"</gnc-v2>")
            r = client.post(
                "/update",
                data={
                    "csrf_token": token(client),
                    "book": (BytesIO(book.read_bytes()), book.name),
                    "files": [(BytesIO((WEB / "txns.iif").read_bytes()), "txns.iif")],
                },
                content_type="multipart/form-data",
            )
            assert r.status_code == 409, r.text[:300]
            assert files_in(folder) == before
            filler.unlink()
            # the disk made read-only under the running wizard: said so, not "free some space"
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
            r = client.post(f"{prefix}/name", data={"name": "Acme Ltd"}, headers=csrf | HX)
            text = " ".join(soup(r).text.split())
            assert r.status_code == 409 and "the disk or folder is read-only" in text, text
            assert "make that folder writable, or start it with --instance" in text
            assert "Free some space" not in text
            subprocess.run(["mount", "-o", "remount,rw", str(folder)], check=True)
        finally:
            app.extensions["jobs"].shutdown()
