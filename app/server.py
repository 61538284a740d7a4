"""``python run.py [--host H] [--port P] [--no-open] [--debug] [--instance DIR]``: the wizard.

Its address carries the access token made at start-up (``?token=…``, see app.web.security):
printed, and opened in the browser. ``QB2GNUCASH_TOKEN`` sets the token instead (Flask's
reloader in ``--debug`` passes it on to the restarted server this way)."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import re
import socket
import sys
import threading
import webbrowser
from collections.abc import Sequence
from urllib.parse import unquote

from werkzeug.serving import WSGIRequestHandler, make_server

from app import create_app
from app.errors import NotWritten

LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
TOKEN_ENV = "QB2GNUCASH_TOKEN"


_QUERY_PART = re.compile(r"(?<=[?&;])([^=&;\s]*)=([^&;\s\"']*)")


def hide_token(text: str, token: str) -> str:
    """A request line (or any text) without the access token: the value of every ``token=``
    query parameter (however its name is percent-encoded), and the token itself anywhere; and
    without what was typed into a search (``q=``: a bank number searched for reached the log,
    hunt 24)."""

    def part(m: re.Match[str]) -> str:
        return f"{m[1]}=[hidden]" if unquote(m[1]).lower() in ("token", "q") else m[0]

    text = _QUERY_PART.sub(part, text)
    return text.replace(token, "[hidden]") if token else text


class QuietRequestHandler(WSGIRequestHandler):
    """werkzeug's request handler, its access log without the access token (the address
    ``run.py`` prints is the only place the token is shown)."""

    def log(self, type: str, message: str, *args: object) -> None:
        token = self.server.app.config.get("ACCESS_TOKEN", "")  # type: ignore[attr-defined]
        shown = tuple(hide_token(a, token) if isinstance(a, str) else a for a in args)
        super().log(type, message, *shown)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="run.py",
        description="Start the qb2gnucash wizard in your browser. "
        "(`run.py convert --help` for the command-line conversion.)",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    p.add_argument("--no-open", action="store_true", help="do not open the browser")
    p.add_argument("--debug", action="store_true", help="Flask debug mode (reloads on changes)")
    p.add_argument(
        "--instance",
        default=os.environ.get("QB2GNUCASH_INSTANCE"),
        help="folder for the migrations (default: instance/ beside the code; "
        "env QB2GNUCASH_INSTANCE)",
    )
    return p


def is_local(host: str) -> bool:
    if host in LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def served_hosts(host: str) -> list[str]:
    """The names a request's Host may carry when the server listens on ``host``: that address
    (a loopback one also as "localhost"); on every address ("0.0.0.0", "::"), any IP address
    ("*") and this machine's own names."""
    host = host.strip("[]").lower()
    if host in ("", "0.0.0.0", "::"):
        return ["*", "localhost", socket.gethostname().lower(), socket.getfqdn().lower()]
    if host == "localhost":
        return ["localhost", "127.0.0.1", "::1"]
    return [host, "localhost"] if is_local(host) else [host]


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(list(argv))
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    config: dict[str, object] = {"INSTANCE_PATH": args.instance} if args.instance else {}
    config["SERVED_HOSTS"] = served_hosts(args.host)
    config["ACCESS_TOKEN"] = os.environ.get(TOKEN_ENV, "")
    try:
        app = create_app(config)
    except NotWritten as exc:
        print(
            f"run.py: error: {exc.message}. Start it with --instance naming a folder you can "
            "write (or set QB2GNUCASH_INSTANCE).",
            file=sys.stderr,
        )
        return 2
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '::') else shown}:{args.port}/"
    url += f"?token={app.config['ACCESS_TOKEN']}"
    if not is_local(args.host):
        print(
            "\n" + "!" * 78 + f"\n  WARNING: listening on {args.host}, not only on this computer.\n"
            "  Its token is the only password and travels unencrypted (plain HTTP): anyone\n"
            "  on the network who sees it can read and change the company's books.\n"
            "  Use --host 127.0.0.1 unless you really mean it.\n" + "!" * 78 + "\n",
            file=sys.stderr,
        )
    if args.debug:  # Flask's reloader and debugger
        os.environ[TOKEN_ENV] = app.config["ACCESS_TOKEN"]  # the same token after a reload
        print(f"qb2gnucash (debug) at {url}", flush=True)
        app.run(
            host=args.host,
            port=args.port,
            debug=True,
            threaded=True,
            request_handler=QuietRequestHandler,
        )
        return 0
    # werkzeug's server without app.run()'s "development server, not for production" banner:
    # the person reading this terminal is a bookkeeper, and this server only ever serves them.
    # A port in use: werkzeug says so on stderr and exits with 1.
    server = make_server(
        args.host, args.port, app, threaded=True, request_handler=QuietRequestHandler
    )
    print(f"qb2gnucash is running at {url}  (Ctrl+C stops it)", flush=True)
    if not args.no_open:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    server.serve_forever()  # returns on Ctrl+C, socket closed
    return 0
