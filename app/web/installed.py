"""The installed GnuCash's version, which the Map step's archive suggestion depends on for a big
history (GnuCash 4.x and 5.0-5.6 open large books slowly). The server never loads GnuCash, so it
is asked once per server from a process of its own: ahead of the Map step, as soon as an
upload's files are read and hold a history that big (``ask_ahead``), while they are prepared, so
that the page does not wait for it."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


class InstalledVersion:
    """Kept in ``app.extensions["gnucash_version"]``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._known: tuple[int, ...] | None = None
        self._ahead = False  # asked ahead already

    def get(self) -> tuple[int, ...]:
        """(major, minor), (0, 0) when it cannot be told; asked at the first call (a call made
        while it is being asked waits for it)."""
        with self._lock:
            if self._known is None:
                self._known = _ask()
            return self._known

    def ask_ahead(self) -> None:
        """Ask in the background, once, so that a later ``get`` finds it known."""
        if self._known is None and not self._ahead:
            self._ahead = True
            threading.Thread(target=self.get, name="gnucash-version", daemon=True).start()


def _ask() -> tuple[int, ...]:
    code = "from app import gnc; print(*gnc.engine_version())"
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
            check=False,
        )  # fmt: skip
        return tuple(int(x) for x in done.stdout.split()) or (0, 0)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return (0, 0)
