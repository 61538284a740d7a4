"""The suite's own rules, run as CI runs them: a test that reads ``../shared/samples`` skips on a
developer's clone without that folder, and fails under ``CI=true`` (CI always has it, so a
missing folder must not let the suite go green without those tests)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT

NEEDS_SAMPLES = """
import pytest

@pytest.mark.samples
def test_reads_a_sample(samples_dir):
    assert samples_dir.is_dir()
"""


def _run_without_samples(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    """pytest on a copy of the suite's conftest and support in ``tmp_path/clone`` (no
    ``shared/`` beside it), with ``CI`` set to ``ci`` (or unset)."""
    clone = tmp_path / "clone"
    tests = clone / "tests"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "tests" / "support", tests / "support", ignore=ignore)
    for name in ("__init__.py", "conftest.py", "paths.py"):
        shutil.copy(ROOT / "tests" / name, tests / name)
    shutil.copy(ROOT / "pytest.ini", clone / "pytest.ini")
    (tests / "test_needs_samples.py").write_text(NEEDS_SAMPLES, encoding="utf-8")
    assert not (tmp_path / "shared").exists()
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}
    env["PYTHONPATH"] = str(ROOT)  # the app itself; `tests` is the clone's (its rootdir first)
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "tests"],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_without_the_samples_a_developer_run_skips_and_says_why(tmp_path):
    run = _run_without_samples(tmp_path, None)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 skipped" in run.stdout and "real QuickBooks samples not found" in run.stdout


def test_without_the_samples_a_ci_run_fails(tmp_path):
    run = _run_without_samples(tmp_path, "true")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 error" in run.stdout  # a failing fixture: pytest exits 1
    assert "real QuickBooks samples not found" in run.stdout and "CI must have them" in run.stdout
