"""Running ``run.py convert`` as a user does: a real process, its output and exit status."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT


def convert(*args: object, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "convert", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        check=False,
    )
