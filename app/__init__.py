"""qb2gnucash: QuickBooks Desktop exports → a verified GnuCash book; ``create_app`` is the wizard.

Flask is imported inside ``create_app`` only: the import worker and the CLI import this package
too and have no use for it.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.errors import NotWritten, why_not_written
from app.fileio import write_text

if TYPE_CHECKING:
    from flask import Flask

MB = 1024 * 1024


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The wizard. ``QB2GNUCASH_INSTANCE`` (or ``instance_path`` in ``test_config``) moves the
    folder holding the migrations; the default is ``instance/`` beside the code. Every page needs
    ``ACCESS_TOKEN`` (a new random one unless given): ``?token=`` once, then a cookie. Raises
    NotWritten when the instance folder cannot be written (read-only, full, not allowed)."""
    from flask import Flask  # noqa: PLC0415 - see the module docstring

    from app import web  # noqa: PLC0415
    from app.jobs.runner import JobRunner  # noqa: PLC0415
    from app.store import Store  # noqa: PLC0415
    from app.web.cache import ViewCache  # noqa: PLC0415
    from app.web.context import Edits, Passwords  # noqa: PLC0415
    from app.web.installed import InstalledVersion  # noqa: PLC0415
    from app.web.uploading import Uploads  # noqa: PLC0415

    config = dict(test_config or {})
    instance = config.pop("INSTANCE_PATH", None) or os.environ.get("QB2GNUCASH_INSTANCE")
    app = Flask(
        __name__,
        instance_path=str(Path(instance).resolve()) if instance else None,
        instance_relative_config=True,
        template_folder="../templates",
        static_folder="../static",
    )
    app.config.from_mapping(
        MIGRATIONS_DIR=str(Path(app.instance_path) / "migrations"),
        MAX_CONTENT_LENGTH=500 * MB,  # a 100,000-transaction CSV report is about 30 MB
        TRANSACTIONS_PER_PAGE=50,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        # The Host names pages answer to (web.security): a web page elsewhere cannot reach the
        # books by pointing its own name at 127.0.0.1 (DNS rebinding). server.py sets them from
        # --host; "*" (a server on every address) also takes any IP address. Not Flask's own
        # TRUSTED_HOSTS, which cannot hold an IPv6 address.
        SERVED_HOSTS=["127.0.0.1", "localhost"],
    )
    app.config.update(config)
    folder = Path(app.instance_path)
    try:  # a folder that cannot be written is said now, in one sentence (NotWritten)
        folder.mkdir(parents=True, exist_ok=True)
        if not app.config.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = _secret_key(folder / "secret_key")
        store = Store(Path(app.config["MIGRATIONS_DIR"]))
    except OSError as exc:
        why = why_not_written(exc, folder if folder.is_dir() else folder.parent)
        raise NotWritten(f"qb2gnucash cannot keep its files in {folder}: {why}") from exc
    if not app.config.get("ACCESS_TOKEN"):  # made at start-up: see app.web.security
        app.config["ACCESS_TOKEN"] = secrets.token_urlsafe(24)

    app.extensions["store"] = store
    app.extensions["jobs"] = JobRunner()
    app.extensions["views"] = ViewCache()
    app.extensions["uploads"] = Uploads()  # the uploads being read, for their bar
    app.extensions["passwords"] = Passwords()  # database passwords, in memory only
    app.extensions["edits"] = Edits()  # one change at a time to each migration
    app.extensions["gnucash_version"] = InstalledVersion()  # asked once, ahead (Map step)
    web.register(app)
    return app


def _secret_key(path: Path) -> str:
    """One key per instance folder, kept across restarts so open pages stay valid."""
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        key = secrets.token_hex(32)
        write_text(path, key, encoding="ascii", mode=0o600)
        return key
