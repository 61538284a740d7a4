"""The wizard's web layer: blueprints, CSRF, the per-migration URL prefix, and the only error
handlers (statuses live here, next to nothing else: the domain raises MigrationError)."""

from __future__ import annotations

import hmac
import logging
import secrets
from decimal import Decimal
from typing import Any

from flask import Flask, current_app, g, render_template, request, session
from werkzeug.exceptions import HTTPException, NotFound, RequestEntityTooLarge, SecurityError

from app.errors import (
    AmbiguousFormatError,
    BookWriteError,
    MappingError,
    MigrationError,
    ParseError,
    ProblemsError,
    UnknownFormatError,
)
from app.fixes import with_fix
from app.model import Problem
from app.store import (
    DuplicateUpload,
    Migration,
    Store,
    UnknownMigration,
    UnknownUpload,
    UploadError,
)

log = logging.getLogger(__name__)
UNSAFE = ("POST", "PUT", "PATCH", "DELETE")


class CSRFError(MigrationError):
    """This page is out of date (its security token does not match). Reload the page and try
    again."""


STATUS: dict[type[MigrationError], int] = {
    ParseError: 422,
    UnknownFormatError: 415,
    AmbiguousFormatError: 422,
    MappingError: 422,
    ProblemsError: 422,
    DuplicateUpload: 409,
    UploadError: 400,
    CSRFError: 400,
    BookWriteError: 500,
}

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


def migration() -> Migration:
    return g.migration


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true" and not request.headers.get("HX-Boosted")


def render(page: str, partial: str, status: int = 200, **context: Any) -> tuple[str, int]:
    """The whole page, or only the swapped region's partial for an htmx request."""
    return render_template(partial if is_htmx() else page, **context), status


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return session["csrf"]


def _check_csrf() -> None:
    if request.method not in UNSAFE:
        return
    expected = session.get("csrf", "")
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
    if not expected or not hmac.compare_digest(expected, sent):
        raise CSRFError()


def _load_migration(endpoint: str | None, values: dict[str, Any] | None) -> None:
    if values and "mid" in values:
        try:
            g.migration = store().open(values.pop("mid"))
        except UnknownMigration:
            raise NotFound(
                "There is no such migration here (it may have been deleted). Start a new one "
                "from the home page."
            ) from None


def _add_migration(endpoint: str, values: dict[str, Any]) -> None:
    if (
        "mid" not in values
        and "migration" in g
        and current_app.url_map.is_endpoint_expecting(endpoint, "mid")
    ):
        values["mid"] = g.migration.id


def problem(p: Problem) -> str:
    """A finding as the wizard says it: place, message and what to do on which step."""
    return with_fix(str(p), p.fix, "wizard")


def money(value: Decimal | str | None) -> str:
    if value is None or value == "":
        return ""
    return f"{Decimal(value):,.2f}"


def _status(exc: MigrationError) -> int:
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400


def _error_page(message: str, status: int, problems: tuple = ()) -> tuple[str, int, dict]:
    headers = {"Vary": "HX-Request"}
    if is_htmx():  # shown in the page's message area, whatever region asked
        headers |= {"HX-Retarget": "#messages", "HX-Reswap": "innerHTML"}
        html = render_template("partials/_error.html", message=message, problems=problems)
    else:
        html = render_template(
            "errors/error.html", message=message, problems=problems, status=status
        )
    return html, status, headers


def shown(text: object) -> str:
    """A file name, a problem or a place with each upload's stored name replaced by the name the
    user gave it (the page escapes the result like any text)."""
    out = str(text)
    m = g.get("migration")
    if m is None or not out:
        return out
    if "shown_names" not in g:  # once per request: a page may show hundreds of problems
        g.shown_names = sorted(m.display_names().items(), key=lambda kv: -len(kv[0]))
    for stored, given in g.shown_names:
        out = out.replace(stored, given)
    return out


def register(app: Flask) -> None:
    from app.web import files, home, jobs, mapping, preview  # noqa: PLC0415 - they import this

    for module in (home, files, preview, mapping, jobs):
        app.register_blueprint(module.bp)
    app.url_value_preprocessor(_load_migration)
    app.url_defaults(_add_migration)
    app.before_request(_check_csrf)
    app.add_template_filter(money)
    app.add_template_filter(problem)
    app.add_template_filter(shown)
    app.jinja_env.globals.update(csrf_token=csrf_token, STEPS=STEPS, step_index=step_index)

    @app.after_request
    def headers(response):
        response.headers.add("Vary", "HX-Request")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
        )
        return response

    @app.errorhandler(MigrationError)
    def migration_error(exc: MigrationError):
        return _error_page(exc.message, _status(exc), getattr(exc, "problems", ()))

    @app.errorhandler(UnknownUpload)
    def unknown_upload(exc: UnknownUpload):
        return _error_page(
            f"There is no uploaded file named {exc.args[0]!r} in this migration; the page may be "
            "out of date. Go back to the Files step.",
            404,
        )

    @app.errorhandler(SecurityError)
    def untrusted_host(exc: SecurityError):
        # No page: URLs cannot be built for a host we do not serve (DNS rebinding attempts).
        text = "qb2gnucash answers only on this computer's own address (127.0.0.1).\n"
        return text, 400, {"Content-Type": "text/plain; charset=utf-8"}

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(exc: RequestEntityTooLarge):
        limit = current_app.config["MAX_CONTENT_LENGTH"] // (1024 * 1024)
        return _error_page(
            f"That upload is larger than the limit of {limit:,} MB. Upload the files one at a "
            "time, or export a shorter date range from QuickBooks.",
            413,
        )

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        return _error_page(exc.description or exc.name, exc.code or 500)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        return _error_page(
            "Something went wrong on our side (the details are in the server's log). Go back "
            "and try again; your uploaded files and choices are kept.",
            500,
        )
