"""Shared fixtures: paths, golden-file comparison (``--update-golden``), the shared samples, and
the browser tests' server and Chromium page."""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.paths import DATA, ROOT, SAMPLES
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, free_port


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite golden files (*.expected) from the current output; review the diff",
    )


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def samples_dir() -> Path:
    """The real QuickBooks samples. A developer's clone without ``../shared`` skips the tests
    that read them (with the reason); CI (``CI=true``) always has the folder, so there its
    absence fails them instead of letting the suite go green without them."""
    if not SAMPLES.is_dir():
        missing = f"real QuickBooks samples not found at {SAMPLES} (shared/ beside the checkout)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{missing}; CI must have them", pytrace=False)
        pytest.skip(missing)
    return SAMPLES


@pytest.fixture
def golden(request: pytest.FixtureRequest):
    """``golden(path, text)``: compare ``text`` with the file ``path``, failing with a unified diff.
    Only ``pytest --update-golden`` writes the file."""
    update = request.config.getoption("--update-golden")

    def check(path: Path, text: str) -> None:
        if update:
            path.write_text(text, encoding="utf-8")
            return
        if not path.exists():
            pytest.fail(f"no golden file {path}; create it with pytest --update-golden, review it")
        expected = path.read_text(encoding="utf-8")
        if text != expected:
            diff = difflib.unified_diff(
                expected.splitlines(keepends=True),
                text.splitlines(keepends=True),
                fromfile=str(path),
                tofile="actual",
            )
            pytest.fail("golden file differs:\n" + "".join(diff), pytrace=False)

    return check


@pytest.fixture
def app(tmp_path: Path):
    """The real wizard app with its own instance folder (migrations, jobs)."""
    from app import create_app

    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")})
    yield app
    app.extensions["jobs"].shutdown()


@pytest.fixture
def client(app):
    """A browser signed in through the token address, as ``make run`` opens it."""
    from tests.support.web import signed_in

    return signed_in(app)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """``run.py --no-open`` on a free port with its own instance folder: the address it prints,
    with its access token (what ``make run`` opens). Without the token the wizard says 403."""
    with wizard_server(tmp_path) as address:
        yield address


@contextlib.contextmanager
def wizard_server(tmp_path: Path, name: str = "server") -> Iterator[str]:
    """``server``'s wizard (``name``: its log's and instance folder's, for a second one)."""
    port = free_port()
    instance = "instance" if name == "server" else f"{name}-instance"
    log_path = tmp_path / f"{name}.log"
    log = log_path.open("wb")
    proc = subprocess.Popen(
        [sys.executable, "run.py", "--no-open", "--port", str(port)],
        cwd=ROOT,
        env={**os.environ, "QB2GNUCASH_INSTANCE": str(tmp_path / instance)},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    printed = re.compile(rf"running at (http://127\.0\.0\.1:{port}/\?token=[\w-]+) ")
    try:
        deadline = time.monotonic() + 30
        while not (found := printed.search(log_path.read_text(encoding="utf-8"))):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("run.py did not start:\n" + log_path.read_text(encoding="utf-8"))
            time.sleep(0.2)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).close()
        assert refused.value.code == 403
        refused.value.close()
        yield found[1]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()
        # shown by pytest under "Captured stdout teardown" when the test failed, else dropped
        print("the server's last words:", *log_path.read_text("utf-8").splitlines()[-25:], sep="\n")


@pytest.fixture(scope="session")
def pg_server():
    """A throw-away PostgreSQL server for the whole run (tests/support/pgserver.py), stopped at
    the end. Without Debian's server binaries: a failure under CI=true, else a skip saying why."""
    from tests.support.pgserver import PgServer, missing

    if why := missing():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{why}: CI runs the PostgreSQL tests")
        pytest.skip(why)
    server = PgServer.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg(pg_server, monkeypatch: pytest.MonkeyPatch):
    """The server, with the book user's password in PGPASSWORD (as a user gives it)."""
    from tests.support.pgserver import PASSWORD

    monkeypatch.setenv("PGPASSWORD", PASSWORD)
    monkeypatch.delenv("PGPASSFILE", raising=False)
    return pg_server


@pytest.fixture
def browser_page(tmp_path: Path):
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():  # part of the set-up: missing is a failure, not a skip
        pytest.fail(f"Debian's chromium is not installed at {CHROMIUM} (make setup installs it)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(
            accept_downloads=True, viewport={"width": 1280, "height": 900}
        )
        page = context.new_page()
        page.set_default_timeout(30_000)
        said: list[str] = []  # what the page logged: printed for a failed test (pytest shows it)
        page.on("console", lambda msg: said.append(f"console {msg.type}: {msg.text}"))
        page.on("pageerror", lambda exc: said.append(f"page error: {exc}"))
        page.on("requestfailed", lambda req: said.append(f"failed: {req.method} {req.url}"))
        try:
            yield page
        finally:
            print("the page's last words:", *said[-25:], sep="\n")
            context.close()
            browser.close()
