"""Running ``run.py convert`` as a user does: a real process, its output and exit status."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT


def convert(
    *args: object, cwd: Path = ROOT, env: dict[str, str] | None = None, command: str = "convert"
) -> subprocess.CompletedProcess[str]:
    """``run.py convert ARGS`` (or ``command``); ``env``: the whole environment, else ours."""
    return subprocess.run(
        [sys.executable, str(ROOT / "run.py"), command, *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=600,
        check=False,
    )


def convert_many(*args: object, cwd: Path = ROOT, env: dict[str, str] | None = None):
    """``run.py convert-many ARGS``; ``env``: added to ours."""
    return convert(*args, cwd=cwd, env={**os.environ, **(env or {})}, command="convert-many")
