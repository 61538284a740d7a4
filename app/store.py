"""Migrations on disk: one folder each under ``MIGRATIONS_DIR``, and a cache of what they parse to.

``<root>/<id>/`` holds ``meta.json`` (created, upload order), ``uploads/`` (sanitised names
only), ``plan.json``, ``job.json`` (see app/jobs.py) and ``out/``. Every page is a function of
the uploads and the plan, so a restart loses nothing. Parsing is the slow part: the ``Store``
keeps the last few results keyed on the uploads' names, sizes and mtimes plus the plan, so a page
never re-parses unchanged files and an edited plan re-runs only the cheap stages.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import secrets
import shutil
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO

from werkzeug.utils import secure_filename

from app import pipeline
from app.errors import MigrationError, UnknownFormatError
from app.model import Ledger
from app.plan import Plan, load_plan, save_plan
from app.preview import SearchIndex

ID = re.compile(r"[A-Za-z0-9_-]{20,64}")
SUFFIXES = (".iif", ".csv", ".txt")
CACHE_SIZE = 6  # parsed results kept (each can be a few hundred MB for 100,000 transactions)


class UnknownMigration(LookupError):
    """No migration with this id (or not a valid id at all)."""


class UnknownUpload(LookupError):
    """No uploaded file with this name in the migration."""


class UploadError(MigrationError):
    """The file could not be added."""


class DuplicateUpload(UploadError):
    """A file with this name is already part of the migration."""


def write_json(path: Path, data: object) -> None:
    """Atomically: readers see the old or the new file, never half of one."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True), encoding="utf-8")
    tmp.replace(path)


def read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


@dataclass(frozen=True)
class View:
    """One migration's uploads read with its plan: what every step shows."""

    parsed: Ledger  # as read, QuickBooks names
    resolved: Ledger  # report labels matched to chart accounts (the preview's transactions)
    prepared: pipeline.Prepared  # final ledger and every problem
    search: SearchIndex


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
            return dt.datetime.fromtimestamp(self.path.stat().st_mtime)

    def files(self) -> list[Path]:
        """Uploaded files in the order they were added (merging keeps the first of twins)."""
        present = {p.name: p for p in self.uploads_dir.iterdir() if not p.name.startswith(".")}
        order = [n for n in self.meta.get("files", []) if n in present]
        return [present[n] for n in order + sorted(set(present) - set(order))]

    def file(self, name: str) -> Path:
        """An uploaded file by name; only names in the listing, so never a path of the user's."""
        for p in self.files():
            if p.name == name:
                return p
        raise UnknownUpload(name)

    def save_upload(self, filename: str, stream: BinaryIO) -> str:
        """Store one upload under its sanitised name; refuses odd names, types, twins, empties."""
        name = secure_filename(filename or "")
        if not name:
            raise UploadError(
                f"{filename!r} has no usable file name; rename it (letters, digits, dots) and "
                "add it again"
            )
        if Path(name).suffix.lower() not in SUFFIXES:
            raise UnknownFormatError(
                f"{name}: only QuickBooks exports can be added (.IIF, .CSV or .TXT files); "
                "export the lists with File > Utilities > Export > Lists to IIF Files and the "
                "transactions as a CSV report"
            )
        if name in {p.name for p in self.files()}:
            raise DuplicateUpload(
                f"{name} is already uploaded; remove it first to replace it, or rename the new one"
            )
        part = self.uploads_dir / f".{name}.part"
        with part.open("wb") as f:
            shutil.copyfileobj(stream, f, 1024 * 1024)
        if part.stat().st_size == 0:
            part.unlink()
            raise UploadError(f"{name} is empty; export it again from QuickBooks")
        part.replace(self.uploads_dir / name)
        meta = self.meta
        meta["files"] = [*meta.get("files", []), name]
        shown = display_name(filename)
        if shown != name:
            meta["names"] = {**meta.get("names", {}), name: shown}
        write_json(self.meta_path, meta)
        return name

    def display_names(self) -> dict[str, str]:
        """Stored (sanitised) name → the name the user gave the file, where they differ."""
        names = self.meta.get("names", {})
        present = {p.name for p in self.files()}
        return {k: str(v) for k, v in names.items() if k in present} if names else {}

    def remove_upload(self, name: str) -> None:
        self.file(name).unlink()
        plan = self.plan()
        if name in plan.files:
            self.save_plan(replace(plan, files={k: v for k, v in plan.files.items() if k != name}))

    def plan(self) -> Plan:
        return load_plan(self.plan_path) if self.plan_path.exists() else Plan()

    def save_plan(self, plan: Plan) -> None:
        save_plan(plan, self.plan_path)

    def signature(self) -> tuple:
        """Changes whenever an upload is added, removed or replaced."""
        out = []
        for p in self.files():
            st = p.stat()
            out.append((p.name, st.st_size, st.st_mtime_ns))
        return tuple(out)


class Store:
    """All migrations under ``root``; held in ``app.extensions["store"]``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self._cache: OrderedDict[tuple, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._pending: dict[tuple, threading.Lock] = {}

    def create(self) -> Migration:
        mid = secrets.token_urlsafe(24)
        m = Migration(self.root / mid)
        m.path.mkdir()
        m.uploads_dir.mkdir()
        m.out_dir.mkdir()
        write_json(m.meta_path, {"created": dt.datetime.now().isoformat(timespec="seconds")})
        return m

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
        shutil.rmtree(m.path)
        with self._lock:
            for key in [k for k in self._cache if k[0] == m.id]:
                del self._cache[key]

    # ------------------------------------------------------------------ parsed results

    def _cached(self, key: tuple, make: Callable[[], Any]) -> Any:
        """The cached value, else ``make()`` once: concurrent requests for the same key wait
        for the first one instead of parsing the same files again."""
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
            pending = self._pending.setdefault(key, threading.Lock())
        with pending:  # other keys (other migrations) are not held up
            with self._lock:
                if key in self._cache:
                    return self._cache[key]
            try:
                value = make()
                with self._lock:
                    self._cache[key] = value
                    while len(self._cache) > CACHE_SIZE:
                        self._cache.popitem(last=False)
            finally:
                with self._lock:
                    self._pending.pop(key, None)
        return value

    def parsed(self, m: Migration, plan: Plan | None = None) -> Ledger:
        plan = plan or m.plan()
        key = (m.id, "parsed", m.signature(), _read_options(plan))
        return self._cached(key, lambda: pipeline.read(m.files(), plan))

    def view(self, m: Migration, plan: Plan | None = None) -> View:
        plan = plan or m.plan()
        parsed = self.parsed(m, plan)
        sig = m.signature()
        mapped = json.dumps(plan.account_map, sort_keys=True)

        def make_resolved() -> tuple[Ledger, SearchIndex]:
            resolved = pipeline.resolve_accounts(parsed, plan)
            return resolved, SearchIndex(resolved.transactions)

        # the preview's part depends only on the files and the report-account choices
        key = (m.id, "resolved", sig, _read_options(plan), mapped)
        resolved, search = self._cached(key, make_resolved)
        key = (m.id, "view", sig, plan.to_json())
        return self._cached(
            key, lambda: View(parsed, resolved, pipeline.prepare(parsed, plan, resolved), search)
        )


def _read_options(plan: Plan) -> str:
    """The part of a plan that changes how files are read."""
    return json.dumps({k: [v.date_order, v.columns] for k, v in plan.files.items()}, sort_keys=True)
