"""The hidden copy of an upload being stored, as it came (``Migration.save_upload`` redacts it,
then keeps it under its name or drops it): ``.NAME.part-PID``, named for the process storing
it. A server stopped while storing one (a crash, Ctrl+C: no ``finally`` runs) left the file as
it came, Social Security and bank numbers and all, kept for good and its migration listed (hunt
24); a server starting on the folder removes those of processes gone (``sweep``)."""

from __future__ import annotations

import os
from pathlib import Path

from app.fileio import alive, remove_stale_partials

PART = ".part-"


def part(folder: Path, name: str) -> Path:
    """Where this process stores upload ``name`` until it is redacted."""
    return folder / f".{name}{PART}{os.getpid()}"


def sweep(root: Path) -> None:
    """Removes the parts under ``root``'s migrations that no running process is storing (one
    another server on the folder is storing stays), and the temporary books a stopped import
    left in their ``out`` folders (hunt 24: 13 MB kept, counted on the home page's Space)."""
    for out in root.glob("*/out"):
        remove_stale_partials(out)
    for found in root.glob("*/uploads/.*.part*"):  # (".NAME.part": an earlier version's)
        pid = found.name.rpartition(PART)[2] if PART in found.name else ""
        if not pid.isdigit() or int(pid) == os.getpid() or not alive(int(pid)):
            found.unlink(missing_ok=True)
