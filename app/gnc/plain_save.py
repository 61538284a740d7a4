"""GnuCash's XML book saved plain by the writer, and gzip-compressed here while GnuCash reads the
plain file back for the proof (docs/ENGINE.md, "The save, compressed beside the read-back").

GnuCash compresses its XML as it saves (zlib, the default level) when its preference says so
(``gnc_prefs_get_file_save_compressed``, libgnc-core-utils, 4.13 and 5.x; on by default): in
the process that writes, in the save, after everything else. Saved plain (``plain``), the
writer's child is done sooner, and the compression (``compressed_after``) runs on a thread of
the parent while the engine reads the plain book back: the other core, otherwise idle then. The
book a user gets is compressed as GnuCash compresses it (gzip, level 6), from the very bytes the
engine read back.
"""

from __future__ import annotations

import ctypes
import gzip
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from app.errors import BookWriteError
from app.gnc.engine import _loaded
from app.postgres import Address

LEVEL = 6  # zlib's default, GnuCash's own (gzdopen "wb")
CHUNK = 1 << 20


def _prefs() -> tuple[Callable[[], int], Callable[[int], None]] | None:
    """GnuCash's getter and setter of the preference, None where the library lacks them."""
    try:
        lib = ctypes.CDLL(_loaded("libgnc-core-utils.so"))
        get, put = lib.gnc_prefs_get_file_save_compressed, lib.gnc_prefs_set_file_save_compressed
    except (OSError, AttributeError):
        return None
    get.restype, get.argtypes = ctypes.c_int, []
    put.restype, put.argtypes = None, [ctypes.c_int]
    return get, put


@contextmanager
def plain() -> Iterator[None]:
    """GnuCash's XML saves inside the block write plain XML; the preference as it was after
    (a save outside it, an update's, compresses as GnuCash does)."""
    prefs = _prefs()
    if prefs is None:
        yield
        return
    get, put = prefs
    was = get()
    put(0)
    try:
        yield
    finally:
        put(was)


def is_plain_xml(path: Path) -> bool:
    with path.open("rb") as f:
        return f.read(5) == b"<?xml"


@contextmanager
def compressed_after(where: Path | Address) -> Iterator[None]:
    """The plain XML book at ``where`` compressed on a thread while the block runs (the engine
    reading it back), and put in its place when both are done; nothing to do for a compressed
    book, SQLite or a database. A compression that fails raises BookWriteError; a block that
    fails leaves the plain book (the caller removes its staged book) and no partial file."""
    if not isinstance(where, Path) or not is_plain_xml(where):
        yield
        return
    part = where.with_name(f".{where.name}.partial-gz-{os.getpid()}")
    failed: list[OSError] = []

    def work() -> None:
        try:
            with where.open("rb") as src, part.open("wb") as raw:
                with gzip.GzipFile("", "wb", LEVEL, raw) as out:  # (no file name in it)
                    shutil.copyfileobj(src, out, CHUNK)
        except OSError as exc:
            failed.append(exc)

    thread = threading.Thread(target=work, name="compress-book")
    thread.start()
    try:
        yield
    except BaseException:
        thread.join()
        _remove(part)
        raise
    thread.join()
    if failed:
        _remove(part)
        raise BookWriteError(f"the book could not be compressed beside {where}: {failed[0]}")
    try:
        part.chmod(0o600)  # the company's books: readable by their owner only
        os.replace(part, where)
    except OSError as exc:
        _remove(part)
        raise BookWriteError(f"cannot put the compressed book in place at {where}: {exc}") from exc


def _remove(part: Path) -> None:
    if part.is_file():
        part.unlink()
