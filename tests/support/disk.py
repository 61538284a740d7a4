"""A real full disk, and a real read-only one, for the tests of what a write that fails leaves.

``small_disk`` mounts a tmpfs of a few hundred KB on a folder (the kernel's own ENOSPC, EROFS:
nothing of the code under test is replaced); ``fill`` then takes its last byte. Mounting needs
root, as CI runs (``make test`` as root or with sudo); elsewhere these tests skip and say why.
The mount is private to the folder given (under the test's tmp_path) and always undone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def small_disk(path: Path, kb: int = 512, *, read_only: bool = False) -> Iterator[Path]:
    """``path`` (made here) as a file system of ``kb`` KB of its own, read-only if asked."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root (CI runs the suite as root)")
    path.mkdir(parents=True)
    options = f"size={kb}k,mode=0700" + (",ro" if read_only else "")
    subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "qb2gnucash-test", str(path)],
        check=True,
        capture_output=True,
    )
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True, capture_output=True)


def fill(folder: Path) -> Path:
    """Take every free byte of ``folder``'s file system (a file of zeros); its path."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for size in (1 << 16, 1 << 12, 1 << 9, 1):
            while True:
                try:
                    os.write(fd, b"\0" * size)
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
                    break
    finally:
        os.close(fd)
    return filler


def files_in(folder: Path) -> dict[str, int]:
    """Every file under ``folder`` (hidden ones included) with its size."""
    return {
        str(p.relative_to(folder)): p.stat().st_size
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }
