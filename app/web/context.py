"""What every blueprint uses: the app's services, the request's migration, htmx-aware rendering,
and the wizard's steps."""

from __future__ import annotations

import threading
from typing import Any

from flask import current_app, g, render_template, request

from app.jobs.runner import JobRunner
from app.store import Migration, Store
from app.web.cache import ViewCache
from app.web.installed import InstalledVersion
from app.web.uploading import Uploads

STEPS = (  # (endpoint, label, the endpoints that belong to the step)
    ("files.page", "Files", ("files.page", "files.columns")),
    ("preview.page", "Preview", ("preview.page",)),
    ("mapping.page", "Map accounts", ("mapping.page",)),
    ("jobs.page", "Import", ("jobs.page",)),
    ("jobs.result", "Download", ("jobs.result",)),
)


def step_index(endpoint: str | None) -> int:
    """Which step a page belongs to (-1: none, e.g. the home page)."""
    return next((i for i, (_, _, eps) in enumerate(STEPS) if endpoint in eps), -1)


def store() -> Store:
    return current_app.extensions["store"]


def installed() -> InstalledVersion:
    return current_app.extensions["gnucash_version"]


def views() -> ViewCache:
    return current_app.extensions["views"]


def uploads() -> Uploads:
    return current_app.extensions["uploads"]


def runner() -> JobRunner:
    return current_app.extensions["jobs"]


class Passwords:
    """Database passwords typed on the Map step, by migration: in this server's memory only
    (never in the plan, a page, a log or a file), handed to the import worker in its
    environment; gone when the wizard stops. Kept in ``app.extensions["passwords"]``."""

    def __init__(self) -> None:
        self._by_migration: dict[str, str] = {}
        self._lock = threading.Lock()

    def keep(self, mid: str, password: str) -> None:
        with self._lock:
            self._by_migration[mid] = password

    def get(self, mid: str) -> str | None:
        with self._lock:
            return self._by_migration.get(mid)

    def forget(self, mid: str) -> None:
        with self._lock:
            self._by_migration.pop(mid, None)


def passwords() -> Passwords:
    return current_app.extensions["passwords"]


class Edits:
    """One change at a time to a migration: a lock per migration, held by each POST to it from
    before its plan is read to after it is saved (the server is threaded: six edits posted at
    once each said "Saved" and three were lost, hunt 15). Kept in ``app.extensions["edits"]``."""

    def __init__(self) -> None:
        self._locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def of(self, mid: str) -> threading.Lock:
        with self._lock:
            return self._locks.setdefault(mid, threading.Lock())


def edits() -> Edits:
    return current_app.extensions["edits"]


def migration() -> Migration:
    return g.migration


def is_htmx() -> bool:
    """A request for a region. Not one: a boosted link, and the browser's Back or reload of a
    page htmx put in the history (it asks with HX-History-Restore-Request and wants the page)."""
    headers = request.headers
    return (
        headers.get("HX-Request") == "true"
        and not headers.get("HX-Boosted")
        and headers.get("HX-History-Restore-Request") != "true"
    )


def render(page: str, partial: str, status: int = 200, **context: Any) -> tuple[str, int]:
    """The whole page, or only the swapped region's partial for an htmx request."""
    return render_template(partial if is_htmx() else page, **context), status


def fragment(partial: str, status: int = 200, **context: Any) -> tuple[str, int]:
    """Only a region's partial, whoever asked (a fragment has no page of its own)."""
    return render_template(partial, **context), status
