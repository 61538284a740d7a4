"""The Host check (DNS rebinding) and the CSRF check on every request that needs them, and the
security headers on every response."""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from collections.abc import Collection

from flask import Flask, Response, current_app, request, session
from werkzeug.exceptions import SecurityError

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


def host_name(host: str) -> str:
    """The name or address of a ``Host`` header, without port or IPv6 brackets, lower case."""
    if host.startswith("["):
        return host[1:].partition("]")[0].lower()
    return host.rpartition(":")[0].lower() if ":" in host else host.lower()


def is_served(host: str, served: Collection[str]) -> bool:
    """Whether a request for ``host`` is one for this server: a name or address it was started
    on, or with "*" (every address) any IP address. A DNS rebinding page always sends its own
    domain name, never an address."""
    name = host_name(host)
    if name in served:
        return True
    if "*" not in served:
        return False
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _check_host() -> None:
    if not is_served(request.host, current_app.config["SERVED_HOSTS"]):
        raise SecurityError()


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
    app.before_request(_check_host)
    app.before_request(_check_csrf)
    app.after_request(_headers)
    app.jinja_env.globals.update(csrf_token=csrf_token)
