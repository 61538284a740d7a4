"""Shared fixtures: paths, golden-file comparison (``--update-golden``), the shared samples."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from tests.paths import DATA, SAMPLES


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
    if not SAMPLES.is_dir():
        pytest.skip(f"real QuickBooks samples not found at {SAMPLES} (shared/ beside the checkout)")
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
