"""Atomic writes: a reader sees the old file or the new one, never half of one, and a write that
fails (disk full, killed) leaves no partial file behind, not even its temporary."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _read_umask() -> int:
    mask = os.umask(0o077)  # reading it means setting it: done once, at import, before threads
    os.umask(mask)
    return mask


_UMASK = _read_umask()  # a constant of the process (never changed by this program)


def write_text(path: Path, text: str, *, encoding: str = "utf-8", mode: int | None = None) -> None:
    """``text`` into ``path`` atomically. ``mode`` sets the file's permissions (0o600 for
    secrets); by default they are those of any new file (0o666 less the umask)."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(name)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        tmp.chmod(0o666 & ~_UMASK if mode is None else mode)
        tmp.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_json(path: Path, data: object) -> None:
    write_text(path, json.dumps(data, indent=2, sort_keys=True))


def read_json(path: Path) -> dict[str, Any]:
    """A JSON object from ``path``; {} when it is missing, unreadable or not an object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


# A book being written or read back (app.gnc.session, app.pipeline), and what the engine puts
# beside it: ".BOOK.partial-PID", ".BOOK.partial-checked-PID", "..BOOK.partial-checked-PID.
# partial-PID.LCK"... The first PID is the process that made it.
_PARTIAL = re.compile(r"\.(.+?)\.partial-(?:checked-)?(\d+)(?=$|\.)")


def remove_stale_partials(folder: Path) -> list[Path]:
    """Remove the partial books (and their locks) that a run killed while writing left in
    ``folder``: only those whose process is gone, never a live run's; the paths removed."""
    return remove_partials(folder, lambda pid: not alive(pid))


def remove_partials(folder: Path, made_by: Callable[[int], bool]) -> list[Path]:
    """Remove the partial books (and their locks) in ``folder`` whose making process's id
    ``made_by`` takes; the paths removed."""
    removed = []
    with contextlib.suppress(OSError):
        for path in folder.iterdir():
            m = _PARTIAL.match(path.name)
            if m and made_by(int(m[2])) and path.is_file():
                with contextlib.suppress(OSError):
                    path.unlink()
                    removed.append(path)
    return removed


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (another user's included); a reused pid counts as alive."""
    if pid <= 0:
        return True  # not a process id: leave the file alone
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file's bytes (read a megabyte at a time)."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1024 * 1024), b""):
            digest.update(block)
    return digest.hexdigest()
