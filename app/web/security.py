"""The CSRF check on every unsafe request, and the security headers on every response."""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, Response, request, session

from app.web.errors import CSRFError

UNSAFE = ("POST", "PUT", "PATCH", "DELETE")
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:"
    ),
}


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


def _headers(response: Response) -> Response:
    response.headers.add("Vary", "HX-Request")
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def setup_security(app: Flask) -> None:
    app.before_request(_check_csrf)
    app.after_request(_headers)
    app.jinja_env.globals.update(csrf_token=csrf_token)
