"""Migrations on disk: one folder each under ``MIGRATIONS_DIR``.

``<root>/<id>/`` holds ``meta.json`` (created, upload order), ``uploads/`` (sanitised names
only; each a copy of the export with its SSNs and bank numbers blanked, ``readers.redact``,
``Migration.blanked``; a file whose sensitive cells cannot be told is not kept: ``meta.json``
holds its name, size, SHA-256 and why, ``Migration.withheld``), ``plan.json``, ``job.json``
(see app/jobs/) and ``out/`` (the book, its result and report; ``out/previous/`` the last book
while a new one is made). The folders are the owner's alone (0700), the uploads too (0600).
Every page is a function of the uploads and the plan (a restart loses nothing); what they parse
to is cached by the web layer (``app.web.cache``, keyed on ``Migration.signature``)."""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import hashlib
import os
import re
import secrets
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from app import naming, parts
from app.errors import MigrationError, UnknownFormatError, why_not_written
from app.fileio import read_json, sha256_of, write_json
from app.model import Problem
from app.plan import Plan, load_plan, save_plan
from app.quickbooks import MENU_LISTS
from app.readers.redact import Redaction, redact
from app.source import Source
from app.words import quoted

ID = re.compile(r"[A-Za-z0-9_-]{20,64}")
SUFFIXES = (".iif", ".csv", ".txt")
UNTOUCHED_FOR = dt.timedelta(days=1)  # an empty migration is removed by a Start after that
MAX_COMPANY = 100  # characters of a company name the user types
MAX_NAME = 120  # characters of a stored name (the name the user gave is kept for pages)


class UnknownMigration(LookupError):
    """No migration with this id (or not a valid id at all)."""


class UnknownUpload(LookupError):
    """No uploaded file with this name in the migration."""


class MigrationGone(MigrationError):
    """This migration was deleted (in another window or browser, perhaps): nothing more is done
    in it. Start a new one from the home page."""


class UploadError(MigrationError):
    """The file could not be added."""


class DuplicateUpload(UploadError):
    """A file with this name is already part of the migration."""


class DiskFull(UploadError):
    """The disk is full: the file was not added."""


def _not_saved(name: str, exc: OSError, folder: Path) -> UploadError:
    why = why_not_written(exc, folder)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return DiskFull(
            f"{name} was not added: {why}. Nothing of it was kept. Free some space (deleting an "
            "earlier migration on the home page frees its files) and add it again."
        )
    return UploadError(f"{name} was not added ({why}); nothing of it was kept.")


@dataclass(frozen=True, slots=True)
class Withheld:
    """An upload of which no copy is kept: the reader cannot tell which of its cells hold an
    SSN or a bank number (``problems``: why, at its lines). Its name, size and SHA-256 (of the
    file as given) stay, for its card; nothing of it is read."""

    name: str
    size: int
    sha256: str
    problems: tuple[Problem, ...]
    kind: str = ""  # plainly no export (a PDF, a workbook): its card's label instead


def _withheld(part: Path, done: Redaction) -> dict[str, Any]:
    why = [[p.source.line if p.source else 1, p.message] for p in done.withheld]
    return {"bytes": part.stat().st_size, "sha256": sha256_of(part), "why": why} | (
        {"kind": done.kind} if done.kind else {}
    )


def display_name(filename: str) -> str:
    """The name as the user gave it, for pages only (never a path): its last part, without
    control characters."""
    last = re.split(r"[/\\]", filename)[-1]
    return "".join(c for c in last if c.isprintable()).strip()


class Migration:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.id = path.name
        self.uploads_dir = path / "uploads"
        self.out_dir = path / "out"
        self.plan_path = path / "plan.json"
        self.job_path = path / "job.json"
        self.meta_path = path / "meta.json"

    @property
    def meta(self) -> dict[str, Any]:
        return read_json(self.meta_path)

    @property
    def created(self) -> dt.datetime:
        try:
            return dt.datetime.fromisoformat(self.meta["created"])
        except (KeyError, ValueError):
            try:
                return dt.datetime.fromtimestamp(self.path.stat().st_mtime)
            except OSError:  # deleted meanwhile
                return dt.datetime.min

    def files(self) -> list[Path]:
        """Uploaded files in the order they were added (merging keeps the first of twins)."""
        try:
            found = list(self.uploads_dir.iterdir())
        except FileNotFoundError:  # deleted meanwhile (Store.delete): nothing is left of it
            return []
        present = {p.name: p for p in found if not p.name.startswith(".")}
        order = [n for n in dict.fromkeys(self.meta.get("files", [])) if n in present]
        return [present[n] for n in order + sorted(set(present) - set(order))]

    def file(self, name: str) -> Path:
        """An uploaded file by name; only names in the listing, so never a path of the user's."""
        for p in self.files():
            if p.name == name:
                return p
        raise UnknownUpload(name)

    def save_upload(self, filename: str, stream: IO[bytes]) -> str:
        """Store one upload under its sanitised name; refuses odd names, types, twins, empties."""
        name = naming.upload_name(filename or "")
        if not name:
            raise UploadError(
                f"{quoted(filename)} has no usable file name; rename it (letters, digits, dots) "
                "and add it again"
            )
        if Path(name).suffix.lower() not in SUFFIXES:
            raise UnknownFormatError(
                f"{display_name(filename) or name}: only QuickBooks exports can be added (.IIF, "
                ".CSV or .TXT files); "
                f"export the lists with {MENU_LISTS} and the transactions as a CSV report"
            )
        if len(name) > MAX_NAME:  # the file system's limit is 255 bytes, with room for a part
            stem, suffix = name.rsplit(".", 1)
            name = f"{stem[: MAX_NAME - len(suffix) - 1]}.{suffix}"
        if name in {p.name for p in self.files()} | {w.name for w in self.withheld()}:
            raise DuplicateUpload(
                f"{display_name(filename) or name} is already uploaded; remove it first to "
                "replace it, or rename the new one"
            )
        part, final = parts.part(self.uploads_dir, name), self.uploads_dir / name
        try:
            with os.fdopen(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
                shutil.copyfileobj(stream, f, 1024 * 1024)
            if part.stat().st_size == 0:
                raise UploadError(f"{name} is empty; export it again from QuickBooks")
            # the kept copy has no SSN or bank number (the user keeps the original); where the
            # reader cannot tell which cells hold one, no copy is kept (name, size, why kept)
            done = redact(part, name)
            meta = self.meta
            if done.withheld:
                meta["withheld"] = {**meta.get("withheld", {}), name: _withheld(part, done)}
            else:
                meta["digests"] = {**meta.get("digests", {}), name: sha256_of(part)}
                if done.blanked:
                    meta["blanked"] = [*meta.get("blanked", []), name]
                part.replace(final)
            meta["files"] = [*(n for n in meta.get("files", []) if n != name), name]
            shown = display_name(filename)
            if shown != name:
                meta["names"] = {**meta.get("names", {}), name: shown}
            write_json(self.meta_path, meta)
        except OSError as exc:  # nothing of this file is kept, not even a hidden part
            part.unlink(missing_ok=True)
            final.unlink(missing_ok=True)
            raise _not_saved(name, exc, self.uploads_dir) from exc
        finally:
            part.unlink(missing_ok=True)
        return name

    def withheld(self) -> list[Withheld]:
        """The uploads of which no copy is kept (``readers.redact``), in the order added."""
        kept = self.meta.get("withheld", {})
        return [
            Withheld(
                name,
                int(kept[name]["bytes"]),
                str(kept[name]["sha256"]),
                tuple(Problem(Source(name, int(n)), str(text)) for n, text in kept[name]["why"]),
                str(kept[name].get("kind", "")),
            )
            for name in self.meta.get("files", [])
            if name in kept
        ]

    def blanked(self) -> frozenset[str]:  # uploads whose stored copy had SSNs... blanked
        return frozenset(self.meta.get("blanked", ()))

    def digests(self) -> dict[str, str]:
        """Each upload's SHA-256 as kept (computed now for one uploaded before they were)."""
        known = self.meta.get("digests", {})
        return {p.name: known.get(p.name) or sha256_of(p) for p in self.files()}

    def unread(self) -> list[tuple[str, tuple[Problem, ...]]]:
        """The uploads of which no copy is kept, as ``pipeline.read`` takes them."""
        return [(w.name, w.problems) for w in self.withheld()]

    def untouched(self) -> bool:
        """Nothing uploaded, chosen or imported yet (or nothing left: deleted meanwhile)."""
        try:
            uploaded = any(self.uploads_dir.iterdir())
        except FileNotFoundError:
            return True
        return not (
            uploaded
            or self.plan_path.exists()
            or self.job_path.exists()
            or self.meta.get("withheld")
        )

    @property
    def company(self) -> str:
        """The company's name as the files give it ("" before any file names one)."""
        return str(self.meta.get("company", ""))

    def note_company(self, name: str) -> None:
        """Remember the company the files name (for the home list; "" once none names it)."""
        if name != self.company:
            write_json(self.meta_path, {**self.meta, "company": name})

    @property
    def given_name(self) -> str:
        """The company's name as the user typed it on the Files step ("" when not renamed)."""
        return str(self.meta.get("name", ""))

    @property
    def name(self) -> str:
        """What the book and its downloads are named after: the name the user gave, else the
        company the files name, else "" (then the first file)."""
        return self.given_name or self.company

    def rename(self, name: str) -> None:
        """The user's name for the company, on one line ("" = the files' own again)."""
        name = "".join(c for c in " ".join(name.split()) if c.isprintable())[:MAX_COMPANY]
        write_json(
            self.meta_path,
            {k: v for k, v in self.meta.items() if k != "name"} | ({"name": name} if name else {}),
        )

    def size(self) -> int:
        """Bytes on disk: uploads, plan, books and reports."""
        total = 0
        for folder, _, names in os.walk(self.path):
            for name in names:
                with contextlib.suppress(OSError):  # a file replaced or deleted meanwhile
                    total += os.stat(os.path.join(folder, name)).st_size
        return total

    def display_names(self) -> dict[str, str]:
        """Stored (sanitised) name → the name the user gave the file, where they differ."""
        names = self.meta.get("names", {})
        present = {p.name for p in self.files()} | {w.name for w in self.withheld()}
        return {k: str(v) for k, v in names.items() if k in present} if names else {}

    def remove_upload(self, name: str) -> None:
        meta = self.meta  # the upload gone, and every word of it (added again, it is one)
        if name not in meta.get("withheld", {}):
            self.file(name).unlink()
        for key in ("withheld", "digests", "names"):
            meta[key] = {k: v for k, v in meta.get(key, {}).items() if k != name}
        for key in ("files", "blanked"):
            meta[key] = [n for n in meta.get(key, []) if n != name]
        write_json(self.meta_path, meta)
        plan = self.plan()
        if name in plan.files:
            self.save_plan(replace(plan, files={k: v for k, v in plan.files.items() if k != name}))

    def plan(self) -> Plan:
        return load_plan(self.plan_path) if self.plan_path.exists() else Plan()

    def save_plan(self, plan: Plan) -> None:
        save_plan(plan, self.plan_path)

    def settings_sha(self) -> str:
        """A digest of what an import is made from: the plan (as its JSON file says it) and the
        uploads (name and size). The job keeps it, so the Import step can tell a book written
        with earlier settings."""
        files = [(p.name, p.stat().st_size) for p in self.files()]
        files += [(w.name, -w.size) for w in self.withheld()]
        text = self.plan().to_json() + "\n" + repr(files)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def signature(self) -> tuple:
        """Changes whenever an upload is added, removed or replaced."""
        out: list[tuple[str, int, int | str]] = []
        for p in self.files():
            st = p.stat()
            out.append((p.name, st.st_size, st.st_mtime_ns))
        out += [(w.name, w.size, w.sha256) for w in self.withheld()]
        return tuple(out)


class Store:
    """All migrations under ``root``; held in ``app.extensions["store"]``. Deleting a migration
    and starting its import exclude each other (``exclusive``): whichever comes second sees what
    the first did (a deleted migration raises ``MigrationGone``; a started import is stopped by
    the deletion). A deletion first renames the folder out of the listing (``.deleted-<id>``),
    so no half-deleted migration is ever listed or opened."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        root.chmod(0o700)  # earlier versions made it 0755: no other user may look inside
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        parts.sweep(root)  # (what a stopped server was storing)

    def create(self) -> Migration:
        mid = secrets.token_urlsafe(24)
        m = Migration(self.root / mid)
        try:
            for folder in (m.path, m.uploads_dir, m.out_dir):
                folder.mkdir(mode=0o700)
            write_json(m.meta_path, {"created": _now()})
        except OSError:  # (a full disk: no folder left without its meta.json, hunt 24)
            shutil.rmtree(m.path, ignore_errors=True)
            raise
        return m

    def start(self) -> Migration:
        """A new migration for every "Start": one never handed out twice (two browsers pressing
        it would share their files). Untouched ones (no file, no choice, no import) older than
        ``UNTOUCHED_FOR`` are removed here instead, and what a deletion left behind."""
        for m in self.all():
            if m.created < dt.datetime.now() - UNTOUCHED_FOR:
                with contextlib.suppress(MigrationGone), self.exclusive(m):
                    if m.untouched():
                        self.delete(m)
        for left in self.root.glob(".deleted-*"):
            shutil.rmtree(left, ignore_errors=True)
        return self.create()

    @contextlib.contextmanager
    def exclusive(self, m: Migration) -> Iterator[Migration]:
        """Hold ``m`` against a deletion (or, for a deletion, against everything else that
        holds it); raises MigrationGone when it was deleted before."""
        with self._guard:
            lock = self._locks.setdefault(m.id, threading.Lock())
        with lock:
            if not m.meta_path.is_file():
                raise MigrationGone()
            yield m

    def open(self, mid: str) -> Migration:
        if not ID.fullmatch(mid or ""):
            raise UnknownMigration(mid)
        m = Migration(self.root / mid)
        if not m.meta_path.is_file():
            raise UnknownMigration(mid)
        return m

    def all(self) -> list[Migration]:
        found = [Migration(p) for p in self.root.iterdir() if ID.fullmatch(p.name)]
        found = [m for m in found if m.meta_path.is_file()]
        return sorted(found, key=lambda m: m.created, reverse=True)

    def delete(self, m: Migration) -> None:
        """Out of the listing at once (one rename), then its files (call within ``exclusive``,
        after the migration's job is stopped)."""
        gone = self.root / f".deleted-{m.id}"
        m.path.rename(gone)
        shutil.rmtree(gone, ignore_errors=True)  # what is left is removed by the next Start
        with self._guard:
            self._locks.pop(m.id, None)


def _now() -> str:
    return dt.datetime.now().isoformat(timespec="seconds")
