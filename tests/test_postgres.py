"""Books in PostgreSQL (issue 29): ``run.py convert -o postgres://USER@HOST:PORT/DB`` against a
real, throw-away PostgreSQL server (the ``pg`` fixture), each book reopened through GnuCash's
engine and compared with the generator's truth; the password only ever from PGPASSWORD or a
password file; a database holding a book refused without --force, replaced only on success;
nothing left behind by a write that fails."""

from __future__ import annotations

import os
import stat
import subprocess
from decimal import Decimal as D
from pathlib import Path

import pytest

from tests.support.cli import convert
from tests.support.pgserver import PASSWORD, USER


@pytest.fixture(scope="module")
def company(tmp_path_factory):
    from tests.support.companygen import make_company

    folder = tmp_path_factory.mktemp("pgco")
    comp = make_company(200, seed=29, documents=True)
    lists = comp.write_lists_iif(folder / "lists.iif")
    detail = comp.write_transaction_detail_csv(folder / "transaction_detail.csv")
    return comp, [lists, detail]


@pytest.fixture(scope="module")
def other(tmp_path_factory):
    from tests.support.companygen import make_company

    folder = tmp_path_factory.mktemp("pgother")
    comp = make_company(60, seed=5)
    return comp, [comp.write_lists_iif(folder / "l.iif"), comp.write_find_csv(folder / "f.csv")]


def _read(url: str, **kw):
    from app import gnc
    from app.postgres import engine_password, parse_address

    with engine_password():
        return gnc.read_book(parse_address(url), **kw)


def _balances(book) -> dict[str, D]:
    return {a.full_name: a.balance for a in book.accounts}


def _matches(comp, book, links: int = 0) -> None:
    """The generator's truth: every balance, every transaction (``links``: the lot links the
    documents pass adds, zero-sum)."""
    expected, got = comp.expected_balances(), _balances(book)
    assert {k: got.get(k, D(0)) for k in expected} == expected
    assert book.transactions == len(comp.transactions) + links


def _no_password(*runs) -> None:
    for run in runs:
        assert PASSWORD not in run.stdout + run.stderr


def test_a_company_in_postgresql_opens_in_the_engine_and_matches_to_the_cent(pg, company, tmp_path):
    comp, files = company
    url = pg.url("acme")
    run = convert(*files, "-o", url, "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"Book written to {url} (postgres, USD)" in run.stdout
    assert "51 of 51 accounts match QuickBooks to the cent" in run.stdout
    _no_password(run)
    # GnuCash's own tables, owned by the book's user, unlocked after the write
    assert {"accounts", "transactions", "splits", "gnclock", "invoices"} <= pg.tables("acme")
    assert pg.sql("SELECT count(*) FROM gnclock", "acme") == [["0"]]
    assert pg.sql("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'acme'") == [
        [USER]
    ]
    assert not [d for d in pg.databases() if "qb2gnucash" in d]  # no staging database left
    book = _read(url, documents=True)
    xml = tmp_path / "acme.gnucash"  # the same company as a file: the same book
    assert convert(*files, "-o", xml).returncode == 0
    from app import gnc

    as_file = gnc.read_book(xml, documents=True)
    links = as_file.transactions - len(comp.transactions)
    assert links > 0
    _matches(comp, book, links)
    assert (book.splits, book.documents) == (as_file.splits, as_file.documents)
    owed = {"customer": D(0), "vendor": D(0)}  # what customers and vendors owe: A/R and A/P
    for (kind, _name), value in book.documents.owner_open.items():
        owed[kind] += value
    truth = comp.expected_balances()
    ar, ap = (next(a[0] for a in comp.accounts if a[1] == t) for t in ("AR", "AP"))
    assert owed == {"customer": truth[ar], "vendor": -truth[ap]}
    assert truth[ar] != 0 != truth[ap]


def test_a_database_holding_a_book_is_refused_then_replaced_with_force(pg, company, other):
    comp, files = company
    _small, small_files = other
    url = pg.url("replaced")
    assert convert(*small_files, "-o", url).returncode == 0
    before = pg.sql("SELECT count(*) FROM transactions", "replaced")
    refused = convert(*files, "-o", url)
    assert refused.returncode == 2
    assert (
        "error: the database replaced on 127.0.0.1 already holds a GnuCash book; "
        "add --force to replace it\n"
    ) in refused.stderr
    assert "Read " not in refused.stdout  # refused before anything was read
    assert pg.sql("SELECT count(*) FROM transactions", "replaced") == before
    forced = convert(*files, "-o", url, "--force", "--documents", "none")
    assert forced.returncode == 0, forced.stdout + forced.stderr
    _matches(comp, _read(url))
    assert not [d for d in pg.databases() if "qb2gnucash" in d]
    _no_password(refused, forced)


def test_force_leaves_the_old_book_when_it_is_open_elsewhere(pg, company, other):
    """The new book is written to a database of its own and swapped in only at the end: a
    book another program holds open stays as it was, and the new one is removed."""
    _comp, files = company
    small, small_files = other
    url = pg.url("held")
    assert convert(*small_files, "-o", url).returncode == 0
    holder = subprocess.Popen(  # another program with the book open (psql, idle)
        ["psql", "-X", "-h", str(pg.root), "-p", str(pg.port), "-U", "postgres", "-d", "held"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        held = convert(*files, "-o", url, "--force")
    finally:
        holder.communicate(b"\\q\n", timeout=30)
    assert held.returncode == 1
    assert "the database held is open in another program" in held.stderr
    assert "the old book is left as it was" in held.stderr
    _matches(small, _read(url))
    assert not [d for d in pg.databases() if "qb2gnucash" in d]


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("wrong", "the PostgreSQL server refused the password for bookkeeper at 127.0.0.1:"),
        ("none", "put the password in PGPASSWORD or ~/.pgpass"),
        ("user", "the PostgreSQL server refused the password for nobody_here at 127.0.0.1:"),
    ],
)
def test_an_unauthorised_user_is_one_clear_error_and_nothing_is_made(
    pg, company, how, message, tmp_path
):
    _comp, files = company
    env = {k: v for k, v in os.environ.items() if k not in ("PGPASSWORD", "PGPASSFILE")}
    if how == "wrong":
        env["PGPASSWORD"] = "not-the-password"
    elif how == "user":
        env["PGPASSWORD"] = PASSWORD
    env["HOME"] = str(tmp_path)  # no ~/.pgpass
    user = "nobody_here" if how == "user" else USER
    run = convert(*files, "-o", pg.url("unauthorised", user), env=env)
    assert run.returncode == 2, run.stdout + run.stderr
    assert message in run.stderr
    # the usage (its first line, then indented ones) and one error line: no traceback
    said = [line for line in run.stderr.splitlines() if not line.startswith(("usage:", " "))]
    assert len(said) == 1 and "Traceback" not in run.stderr, run.stderr
    assert "Traceback" not in run.stderr
    assert "unauthorised" not in pg.databases()
    _no_password(run)


def test_the_password_from_pgpass(pg, other, tmp_path):
    """~/.pgpass, PGPASSWORD unset: the engine's connections find it too."""
    comp, files = other
    home = tmp_path / "home"
    home.mkdir()
    escaped = PASSWORD.replace("\\", "\\\\").replace(":", "\\:")
    (home / ".pgpass").write_text(f"127.0.0.1:{pg.port}:*:{USER}:{escaped}\n")
    (home / ".pgpass").chmod(0o600)
    env = {k: v for k, v in os.environ.items() if k not in ("PGPASSWORD", "PGPASSFILE")}
    env["HOME"] = str(home)
    run = convert(*files, "-o", pg.url("frompgpass"), "--strict", env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    _matches(comp, _read(pg.url("frompgpass")))


def test_an_unreachable_server_and_a_password_in_the_address(pg, company):
    _comp, files = company
    from tests.support.browser import free_port

    port = free_port()  # nothing listens there
    run = convert(*files, "-o", f"postgres://{USER}@127.0.0.1:{port}/acme")
    assert run.returncode == 2
    assert f"cannot reach the PostgreSQL server at 127.0.0.1:{port} (is it running" in run.stderr
    leaked = convert(*files, "-o", f"postgres://{USER}:s3cret-in-url@127.0.0.1:{pg.port}/x")
    assert leaked.returncode == 2
    assert "the database address must not hold the password: put the password in" in leaked.stderr
    assert "s3cret-in-url" not in leaked.stdout + leaked.stderr
    assert "x" not in pg.databases()
    wrong = convert(*files, "-o", pg.url("acme"), "--format", "sqlite")
    assert wrong.returncode == 2
    assert "a database holds a postgres book, not sqlite (--format postgres)" in wrong.stderr
    file_ = convert(*files, "-o", "book.gnucash", "--format", "postgres")
    assert file_.returncode == 2
    assert "the postgres format writes to a database: -o postgres://USER@HOST" in file_.stderr


def _failing(phase: str, done: int):
    def progress(p: str, d: int, _t: int) -> None:
        if (p, d) == (phase, done):
            raise RuntimeError(f"stopped at {p} {d}")

    return progress


@pytest.mark.parametrize(
    ("existing", "phase", "done"),
    [("missing", "saving", 0), ("missing", "saving", 1), ("empty", "saving", 1)],
)
def test_a_failed_write_leaves_no_partial_book(pg, other, existing, phase, done):
    """Stopped before the save (nothing saved) or after it (tables written, not yet proven):
    a database the run created is dropped, an empty one given is left empty."""
    from app import pipeline
    from app.plan import Plan
    from app.postgres import parse_address

    _comp, files = other
    name = f"fail_{existing}_{done}"
    if existing == "empty":
        pg.sql(f"CREATE DATABASE {name} OWNER {USER}")
    plan = Plan(format="postgres")
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    with pytest.raises(RuntimeError, match="stopped at"):
        pipeline.write(prepared, parse_address(pg.url(name)), plan, _failing(phase, done))
    if existing == "missing":
        assert name not in pg.databases()
    else:
        assert name in pg.databases()
        assert pg.tables(name) == set()


def test_the_engine_gets_the_password_in_memory_only(monkeypatch):
    from app.postgres import engine_password

    monkeypatch.setenv("PGPASSWORD", PASSWORD)
    monkeypatch.setenv("PGPASSFILE", "/somewhere/pgpass")
    with engine_password():
        given = os.environ["PGPASSFILE"]
        assert given.startswith("/proc/self/fd/")
        assert os.readlink(given).startswith("/memfd:qb2gnucash-pgpass")  # not on any disk
        assert stat.S_IMODE(os.stat(given).st_mode) == 0o600  # libpq ignores a wider one
        escaped = PASSWORD.replace("\\", "\\\\").replace(":", "\\:")
        assert Path(given).read_text() == f"*:*:*:*:{escaped}\n"
    assert os.environ["PGPASSFILE"] == "/somewhere/pgpass"
    assert not Path(given).exists()


def test_two_threads_never_share_a_password_file(monkeypatch):
    """The wizard's threads (two updates of PostgreSQL books at once) take turns: inside each
    body the password file is its own, and the variable is restored at the end of both."""
    import threading
    import time

    from app.postgres import engine_password

    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", "/somewhere/pgpass")
    seen: dict[str, list[str]] = {"first": [], "second": []}

    def body(name: str) -> None:
        with engine_password(f"secret-{name}"):
            for _ in range(5):
                seen[name].append(Path(os.environ["PGPASSFILE"]).read_text())
                time.sleep(0.01)

    threads = [threading.Thread(target=body, args=(n,)) for n in seen]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for name, texts in seen.items():
        assert texts == [f"*:*:*:*:secret-{name}\n"] * 5
    assert os.environ["PGPASSFILE"] == "/somewhere/pgpass"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("postgres://h/db", "give the PostgreSQL user name"),
        ("postgres://u@/db", "give the server's name"),
        ("postgres://u@h", "give the database name"),
        ("postgres://u@h/a/b", "give the database name"),
        ("postgres://u@h:99999/db", "not a database address"),
        ("postgres://u:pw@h/db", "must not hold the password"),
        ("postgres://u@h/db?sslmode=require", "takes no options"),
    ],
)
def test_database_addresses(text, message):
    from app.errors import MappingError
    from app.postgres import parse_address

    with pytest.raises(MappingError, match=message) as exc:
        parse_address(text)
    assert "pw" not in exc.value.message
    got = parse_address("postgresql://Book.Keeper@db.example.com/ACME_2024")
    assert got.url == "postgres://Book.Keeper@db.example.com:5432/acme_2024"
