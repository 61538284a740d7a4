"""``run.py convert --update postgres://USER@HOST:PORT/DB``: a March book written to a real,
throw-away PostgreSQL server (the ``pg`` fixture) brought up to date with June's exports. The
copy is written, read back and proven in a database of its own on the same server, then renamed
into place; the previous book stays there as a database named by the time of the update. The
book reopened through GnuCash's engine and compared with the generator's truth."""

from __future__ import annotations

import pytest

from tests.support.cli import convert
from tests.support.companygen_later import Later, exports, later_company
from tests.support.end_to_end import assert_known_answers


@pytest.fixture(scope="module")
def later() -> Later:
    return later_company(300, seed=8)


def _read(url: str):
    from app import gnc
    from app.postgres import parse_address

    return gnc.read_book(parse_address(url))


def test_a_book_in_postgresql_is_brought_up_to_date(pg, later: Later, tmp_path) -> None:
    from app import gnc, update_run
    from app.postgres import parse_address

    url = pg.url("green")
    march = exports(later.first, tmp_path / "march")
    done = convert(*march, "-o", url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "NOTICE" not in done.stderr
    first = _read(url).transactions
    june = exports(later.second, tmp_path / "june")
    # the same update of the same book in a file, for comparison
    xml = tmp_path / "march.gnucash"
    assert convert(*march, "-o", xml).returncode == 0
    in_file = update_run.bring_up_to_date(june, xml)
    outcome = update_run.bring_up_to_date(june, parse_address(url))
    assert outcome.written and len(outcome.work.add) == len(later.added)
    # QuickBooks' June figures to the cent, but for exactly the changes held
    assert outcome.explained and outcome.as_taken is not None
    assert_known_answers(outcome.as_taken, later.second.trial_balance())
    backups = sorted(d for d in pg.databases() if d.startswith("green_before_update_"))
    assert len(backups) == 1 and outcome.backup == f"the database {backups[0]} on {pg.host}"
    assert not [d for d in pg.databases() if "qb2gnucash" in d]  # no staged copy left
    # reopened through the engine: the book as the same update made it in a file, every
    # balance and every count; the backup March's book
    book, file_book = _read(url), gnc.read_book(xml)
    assert book.transactions == file_book.transactions > first + len(outcome.work.add) - 1
    balances = {a.full_name: a.balance for a in book.accounts}
    assert balances == {a.full_name: a.balance for a in file_book.accounts}
    assert in_file.report is not None and outcome.report is not None
    assert outcome.report.summary_lines() == in_file.report.summary_lines()
    assert _read(pg.url(backups[0])).transactions == first
    assert pg.sql("SELECT count(*) FROM gnclock", "green") == [["0"]]  # unlocked
    # from the command line: nothing new, nothing written, no backup made; a decision taken
    again = convert(*june, "--update", url)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "0 transactions added" in again.stdout and "nothing added" in again.stdout
    assert sorted(d for d in pg.databases() if d.startswith("green_before")) == backups
    edited = next(line for line in again.stdout.splitlines() if "edited in QuickBooks" in line)
    key = edited.split("[", 1)[1].split("]", 1)[0]
    taken = convert(*june, "--update", url, "--take-quickbooks", key)
    assert taken.returncode == 0, taken.stdout + taken.stderr
    assert "1 replaced by QuickBooks' version" in taken.stdout
    assert f"Book brought up to date: {url}" in taken.stdout
    assert "The previous book is kept as the database green_before_update_" in taken.stdout
    assert len([d for d in pg.databases() if d.startswith("green_before")]) == 2
    assert "Traceback" not in taken.stderr + again.stderr
    assert "NOTICE" not in taken.stderr + again.stderr


def test_what_is_not_a_book_there_is_refused(pg, later: Later, tmp_path) -> None:
    june = exports(later.second, tmp_path / "june")
    done = convert(*june, "--update", pg.url("nothing_here"))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "no GnuCash book in the database nothing_here" in done.stderr
    assert "nothing_here" not in pg.databases()
    done = convert(*june, "--update", "postgres://someone:secret@localhost/acme")
    assert done.returncode == 2 and "must not hold the password" in done.stderr
    assert "secret" not in done.stderr


def test_a_book_open_elsewhere_is_left_as_it_was(pg, later: Later, tmp_path) -> None:
    """Another program connected to the book's database (GnuCash itself, psql): the proven
    copy cannot take its place; said, the copy dropped, the book as it was, no backup made."""
    from app import libpq, update_run
    from app.errors import BookWriteError
    from app.postgres import parse_address

    url = pg.url("blue")
    done = convert(*exports(later.first, tmp_path / "march"), "-o", url)
    assert done.returncode == 0, done.stdout + done.stderr
    before = _read(url).transactions
    june = exports(later.second, tmp_path / "june")
    address = parse_address(url)
    with libpq.connect(address.params()) as _other:  # (PGPASSWORD: the fixture's)
        with pytest.raises(BookWriteError, match="open in another program") as refused:
            update_run.bring_up_to_date(june, address)
    assert "the old book is left as it was" in refused.value.message
    assert _read(url).transactions == before
    assert not [d for d in pg.databases() if d.startswith("blue_") or "qb2gnucash" in d]


def test_a_copy_that_cannot_take_the_books_place_leaves_it_there(pg, later, tmp_path) -> None:
    """Both renames are one transaction: when the copy's cannot be made (here: no such copy),
    the book's own rename is undone, the book stays at its address, no backup is left."""
    from app import update_place
    from app.errors import BookWriteError
    from app.postgres import parse_address

    url = pg.url("violet")
    done = convert(*exports(later.first, tmp_path / "march"), "-o", url)
    assert done.returncode == 0, done.stdout + done.stderr
    before = _read(url).transactions
    address = parse_address(url)
    gone = parse_address(pg.url("violet_qb2gnucash_gone"))
    with pytest.raises(BookWriteError, match="the book is left as it was"):
        update_place.database_in_place(address, gone, "violet_before_update_x")
    assert "violet" in pg.databases() and "violet_before_update_x" not in pg.databases()
    assert _read(url).transactions == before


def test_a_user_who_may_not_create_databases_is_told_the_right_he_needs(pg, later, tmp_path):
    """A book in a database its user owns, the user without CREATEDB: updating it, or writing
    over it with --force, needs a database beside it; the message names that right (it said
    to create the book's own database, which exists), and the book is left as it was."""
    from tests.support.pgserver import PASSWORD

    pg.sql(f"CREATE ROLE clerk_nocreate LOGIN NOCREATEDB PASSWORD '{PASSWORD}'")
    pg.sql("CREATE DATABASE clerkbooks OWNER clerk_nocreate")
    url = pg.url("clerkbooks", user="clerk_nocreate")
    march = exports(later.first, tmp_path / "march")
    done = convert(*march, "-o", url)
    assert done.returncode == 0, done.stdout + done.stderr
    before = pg.databases()
    june = exports(later.second, tmp_path / "june")
    for args, code in ((("--update", url), 1), (("-o", url, "--force"), 2)):  # (2: before reading)
        run = convert(*june, *args)
        assert run.returncode == code, run.stdout + run.stderr
        said = run.stderr
        assert "ALTER ROLE clerk_nocreate CREATEDB" in said and "createdb -O" not in said, said
        assert "the book is left as it was" in said and "Traceback" not in said
        assert pg.databases() == before
