"""Background imports: a real worker process, real files, the real GnuCash engine.

Covers the job life cycle (queued → running → done/failed), cancel, a worker killed mid-import
and a server restarted on the same folder (the job shows "interrupted", a re-run succeeds), and a
worker whose server died (it stops by itself).
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from app import create_app
from app.jobs import Book, ImportJob, load
from app.jobs.runner import JobRunner
from app.store import Migration, Store
from tests.paths import DATA, ROOT
from tests.support.web import signed_in

WEB = DATA / "web"
DELAY = "QB2GNUCASH_WORKER_DELAY"


def migration(root: Path, *names: str) -> Migration:
    m = Store(root).create()
    for n in names:
        with (WEB / n).open("rb") as f:
            m.save_upload(n, f)
    return m


def wait(runner: JobRunner, m: Migration, until, timeout: float = 120) -> ImportJob:
    deadline = time.monotonic() + timeout
    while True:
        job = runner.get(m)
        if job is not None and until(job):
            return job
        assert time.monotonic() < deadline, f"job stuck: {job}"
        time.sleep(0.1)


@pytest.fixture
def runner():
    r = JobRunner()
    yield r
    r.shutdown()


def test_import_runs_in_a_worker_process(tmp_path, runner):
    from app.gnc import read_book

    m = migration(tmp_path, "lists.iif", "txns.iif")
    job = runner.submit(m)
    assert job.state == "queued"
    assert runner.submit(m).id == job.id  # one at a time
    done = wait(runner, m, lambda j: not j.active)
    assert done.state == "done", done
    assert done.pid not in (None, os.getpid())
    assert done.book == "lists.gnucash"
    assert sorted(p.name for p in m.out_dir.iterdir()) == [
        "files.csv",  # the audit pack's records (app.audit)
        "lists.gnucash",
        "next_steps.json",  # the figures of "What to do in GnuCash next"
        "not_imported.csv",
        "plan.json",
        "report.csv",
        "result.json",
    ]
    assert not [p for p in m.path.rglob("*") if p.name.endswith(".tmp") or ".part" in p.name]
    snap = read_book(m.out_dir / "lists.gnucash")
    assert snap.account("Checking").balance == 75
    assert load(m.job_path) == done


def test_problems_found_by_the_worker_fail_the_job(tmp_path, runner):
    m = migration(tmp_path, "lists.iif", "unknown_account.iif")
    runner.submit(m)
    job = wait(runner, m, lambda j: not j.active)
    assert job.state == "failed"
    assert any("Heating Oil" in p and p.startswith("unknown_account.iif:5") for p in job.problems)
    assert [p.name for p in m.out_dir.iterdir()] == []


def test_cancel_kills_the_worker(tmp_path, runner, monkeypatch):
    monkeypatch.setenv(DELAY, "60")
    m = migration(tmp_path, "lists.iif", "txns.iif")
    runner.submit(m)
    running = wait(runner, m, lambda j: j.state == "running" and j.pid)
    cancelled = runner.cancel(m)
    assert cancelled.state == "cancelled"
    assert "No new book" in cancelled.error
    assert not Path(f"/proc/{running.pid}").exists()
    assert runner.get(m).state == "cancelled"
    assert [p.name for p in m.out_dir.iterdir()] == []


def test_a_killed_workers_temporary_book_and_lock_go_when_it_is_marked_interrupted(
    tmp_path, runner, monkeypatch
):
    monkeypatch.setenv(DELAY, "60")
    m = migration(tmp_path, "lists.iif", "txns.iif")
    runner.submit(m)
    job = wait(runner, m, lambda j: j.state == "running" and j.pid)
    left = [m.out_dir / f".lists.gnucash.partial-{job.pid}{end}" for end in ("", ".LCK")]
    for p in left:  # what the engine holds while it writes (the book, GnuCash's lock on it)
        p.write_bytes(b"half a book")
    (m.out_dir / "kept.txt").write_text("not the writer's")
    os.kill(job.pid, signal.SIGKILL)
    assert wait(runner, m, lambda j: not j.active).state == "interrupted"
    assert sorted(p.name for p in m.out_dir.iterdir()) == ["kept.txt"]


def test_the_last_book_stays_offered_until_a_new_one_replaces_it(tmp_path, runner, monkeypatch):
    m = migration(tmp_path, "lists.iif", "txns.iif")
    runner.submit(m)
    first = wait(runner, m, lambda j: not j.active)
    assert runner.book(m) == Book(first, m.out_dir, previous=False)
    monkeypatch.setenv(DELAY, "60")
    runner.submit(m)
    wait(runner, m, lambda j: j.state == "running" and j.pid)
    kept = runner.book(m)  # while the new import runs
    assert (kept.job, kept.previous) == (first, True)
    assert kept.path == m.out_dir / "previous" / "lists.gnucash" and kept.path.is_file()
    assert sorted(p.name for p in kept.folder.iterdir()) == [
        *("files.csv", "job.json", "lists.gnucash", "next_steps.json", "not_imported.csv"),
        "plan.json",
        *("report.csv", "result.json"),
    ]
    assert runner.cancel(m).state == "cancelled"
    assert runner.book(m) == kept  # after the cancel too
    monkeypatch.delenv(DELAY)
    runner.submit(m)
    second = wait(runner, m, lambda j: not j.active)
    assert runner.book(m) == Book(second, m.out_dir, previous=False)
    assert not (m.out_dir / "previous").exists()  # replaced


def test_killed_worker_and_restarted_server(tmp_path, monkeypatch):
    """The worker dies mid-import, the server restarts on the same folder: the job shows as
    interrupted, nothing is offered for download, and a second run succeeds."""
    from app.gnc import read_book

    instance = str(tmp_path / "instance")
    monkeypatch.setenv(DELAY, "60")
    first = create_app({"TESTING": True, "INSTANCE_PATH": instance})
    client = signed_in(first)
    tok = BeautifulSoup(client.get("/").data, "html.parser").select_one("[name=csrf_token]")
    csrf = {"X-CSRF-Token": tok["value"]}
    prefix = client.post("/m", headers=csrf).location.rsplit("/", 1)[0]
    files = [(io.BytesIO((WEB / n).read_bytes()), n) for n in ("lists.iif", "txns.iif")]
    client.post(f"{prefix}/files", data={"files": files}, headers=csrf)
    started = client.post(f"{prefix}/import", headers=csrf)  # (the form without JavaScript:
    assert started.status_code == 303 and started.location.endswith("/import")  # a reload
    m = first.extensions["store"].open(prefix.rsplit("/", 1)[1])  # starts nothing: hunt 24)
    job = wait(first.extensions["jobs"], m, lambda j: j.state == "running" and j.pid)
    os.kill(job.pid, signal.SIGKILL)

    monkeypatch.delenv(DELAY)
    second = create_app({"TESTING": True, "INSTANCE_PATH": instance})  # the restarted server
    client2 = signed_in(second)
    page = BeautifulSoup(client2.get(f"{prefix}/import").data, "html.parser")
    assert page.select_one("#job")["data-state"] == "interrupted"
    assert "interrupted" in page.select_one("#job-error").text
    assert client2.get(f"{prefix}/download/book").status_code == 404
    home = BeautifulSoup(client2.get("/").data, "html.parser").select_one("#migrations").text
    assert "import interrupted" in home
    first.extensions["jobs"].shutdown()  # reaps the killed worker

    tok2 = page.select_one("[name=csrf_token]")["value"]
    r = client2.post(f"{prefix}/import", headers={"X-CSRF-Token": tok2, "HX-Request": "true"})
    assert r.status_code == 200
    done = wait(second.extensions["jobs"], m, lambda j: not j.active)
    assert done.state == "done", done
    with client2.get(f"{prefix}/download/book") as book:
        assert book.status_code == 200
        (tmp_path / "book.gnucash").write_bytes(book.data)
    assert read_book(tmp_path / "book.gnucash").account("Utilities:Gas").balance == 25
    second.extensions["jobs"].shutdown()


@pytest.mark.parametrize("alive", [1.5, 0])
def test_worker_stops_when_its_server_dies(tmp_path, alive):
    """A server killed with its worker still running: the worker notices and gives up; also when
    the server dies at once, before the worker has even finished importing (it knows its server
    from its command's environment, not from its parent at that moment)."""
    m = migration(tmp_path, "lists.iif", "txns.iif")
    script = (
        "import sys; from pathlib import Path; from app.jobs.runner import JobRunner; "
        "from app.store import Migration; import time; "
        f"JobRunner().submit(Migration(Path(sys.argv[1]))); time.sleep({alive}); "
        "import os; os._exit(0)"
    )
    env = {**os.environ, DELAY: "60", "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", script, str(m.path)], env=env, check=True, timeout=30)
    deadline = time.monotonic() + 20
    while (job := load(m.job_path)).active:
        assert time.monotonic() < deadline, job
        time.sleep(0.1)
    assert job.state == "interrupted"
    assert "server stopped" in job.error

    def worker_alive() -> bool:  # a zombie (exited, not yet reaped) has an empty cmdline
        try:
            return b"app.jobs.worker" in Path(f"/proc/{job.pid}/cmdline").read_bytes()
        except FileNotFoundError:
            return False

    while worker_alive():  # it writes the job file first, then exits
        assert time.monotonic() < deadline, f"worker {job.pid} still running"
        time.sleep(0.05)


def test_worker_refuses_a_job_that_is_not_current(tmp_path):
    m = migration(tmp_path, "lists.iif")
    run = subprocess.run(
        [sys.executable, "-m", "app.jobs.worker", str(m.path), "nope"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert run.returncode == 2
    assert "not this migration's current job" in run.stderr


def test_the_book_is_named_after_the_company_cleanly():
    from app.naming import slug

    assert slug("Rivière Design & Build, LLC.") == "Riviere-Design-and-Build-LLC"
    assert slug("Acme / Sons  (2024)") == "Acme-Sons-2024"
    assert slug("***") == ""
    assert "__" not in slug("a _ b __ c")
