"""The wizard's web layer: blueprints, the per-migration URL prefix, security, filters and the
error handlers (statuses live in ``app.web.errors``: the domain raises MigrationError)."""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, g, request
from werkzeug.exceptions import NotFound

from app.store import UnknownMigration
from app.web import files, home, jobs, mapping, preview, update
from app.web.context import STEPS, edits, step_index, store
from app.web.errors import setup_errors
from app.web.filters import setup_filters
from app.web.security import setup_security

BLUEPRINTS = (home, files, preview, mapping, jobs, update)


def _load_migration(endpoint: str | None, values: dict[str, Any] | None) -> None:
    if values and "mid" in values:
        try:
            g.migration = store().open(values.pop("mid"))
        except UnknownMigration:
            raise NotFound(
                "There is no such migration here (it may have been deleted). Start a new one "
                "from the home page."
            ) from None


def _one_change_at_a_time() -> None:
    """A POST to a migration waits for the one before it (``context.Edits``)."""
    if request.method == "POST" and "migration" in g:
        lock = edits().of(g.migration.id)
        lock.acquire()
        g.edit_lock = lock


def _change_done(_exc: BaseException | None) -> None:
    if (lock := g.pop("edit_lock", None)) is not None:
        lock.release()


def _add_migration(endpoint: str, values: dict[str, Any]) -> None:
    if (
        "mid" not in values
        and "migration" in g
        and current_app.url_map.is_endpoint_expecting(endpoint, "mid")
    ):
        values["mid"] = g.migration.id


def _setup_blueprints(app: Flask) -> None:
    for module in BLUEPRINTS:
        app.register_blueprint(module.bp)
    app.url_value_preprocessor(_load_migration)
    app.before_request(_one_change_at_a_time)
    app.teardown_request(_change_done)
    app.url_defaults(_add_migration)
    app.jinja_env.globals.update(STEPS=STEPS, step_index=step_index)


def register(app: Flask) -> None:
    setup_security(app)  # first: its checks run before a migration is opened
    _setup_blueprints(app)
    setup_filters(app)
    setup_errors(app)
