"""The checks every request passes (the Host, the access token, the CSRF token) and the
security headers on every response.

The access token keeps the wizard to the person who started it, as Jupyter does: ``run.py``
prints (and opens) the address with ``?token=<ACCESS_TOKEN>``; that request sets an HttpOnly
cookie and redirects to the same address without the token. Any other request without the
cookie, from another browser or another user of the machine, gets 403 and how to get in. Only
the static files are served without it. The token is new at every start.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from collections.abc import Collection

from flask import Flask, Response, current_app, redirect, request, session
from flask.sessions import SecureCookieSessionInterface
from werkzeug.exceptions import SecurityError
from werkzeug.urls import urlencode
from werkzeug.wrappers import Response as BaseResponse

from app.web.errors import CSRFError, NotSignedIn

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


def _check_host(endpoint: str | None, values: dict | None) -> None:
    if not is_served(request.host, current_app.config["SERVED_HOSTS"]):
        raise SecurityError()


def _cookie_name() -> str:
    """One cookie per port: two wizards on one machine do not sign each other out."""
    after = request.host.rpartition("]")[2]
    return "qb2gnucash_" + (after.rpartition(":")[2] if ":" in after else "http")


def _same(given: str, expected: str) -> bool:
    return hmac.compare_digest(given.encode(), expected.encode())


def _signed_in() -> bool:
    return _same(request.cookies.get(_cookie_name(), ""), current_app.config["ACCESS_TOKEN"])


def _token_given() -> bool:
    given = request.args.get("token")
    expected = current_app.config["ACCESS_TOKEN"]
    return given is not None and request.method in ("GET", "HEAD") and _same(given, expected)


def _check_access(endpoint: str | None, values: dict | None) -> None:
    """Before anything else is looked at (the migration of the URL included)."""
    if endpoint != "static" and not _signed_in() and not _token_given():
        raise NotSignedIn()


def _sign_in() -> BaseResponse | None:
    """The token address: the cookie, and the same address without the token."""
    if request.endpoint == "static" or _signed_in() or not _token_given():
        return None
    expected = current_app.config["ACCESS_TOKEN"]
    rest = request.args.copy()
    rest.pop("token")
    response = redirect(request.path + (f"?{urlencode(rest)}" if rest else ""), 303)
    response.set_cookie(_cookie_name(), expected, httponly=True, samesite="Strict")
    return response


def _check_csrf() -> None:
    if request.method not in UNSAFE or request.routing_exception is not None:
        return  # (a method or an address no route takes: its 405 or 404, not "reload": hunt 24)
    expected = session.get("csrf", "")
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
    if not expected or not hmac.compare_digest(expected, sent):
        raise CSRFError()


def _headers(response: Response) -> Response:
    response.headers.add("Vary", "HX-Request")
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


class _PortSession(SecureCookieSessionInterface):
    """Flask's session (it holds the CSRF token) in a cookie per port, as the access cookie:
    one shared by two wizards on one machine was discarded by each (another secret key), and
    every switch between them broke the next form in the other (hunt 24)."""

    def get_cookie_name(self, app: Flask) -> str:
        return _cookie_name() + "_session"


def setup_security(app: Flask) -> None:
    app.session_interface = _PortSession()
    # URL value preprocessors run before the blueprints' (which open the URL's migration), in
    # the order registered: web.register sets up security first.
    app.url_value_preprocessor(_check_host)
    app.url_value_preprocessor(_check_access)
    app.before_request(_sign_in)
    app.before_request(_check_csrf)
    app.after_request(_headers)
    app.jinja_env.globals.update(csrf_token=csrf_token)
