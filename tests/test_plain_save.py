"""The XML book saved plain by the writer and compressed while GnuCash reads it back
(app/gnc/plain_save.py, docs/ENGINE.md "The save, compressed beside the read-back"): the book a
user gets is GnuCash's compressed XML holding what was proven; the preference is GnuCash's as
before outside the write; a compression that fails is said, and nothing partial is left."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from app import gnc, pipeline
from app.errors import BookWriteError
from app.gnc import plain_save
from app.plan import Plan
from tests.support.companygen import make_company
from tests.support.end_to_end import assert_known_answers


def _prepared(tmp: Path) -> pipeline.Prepared:
    company = make_company(300, seed=4, documents=True)
    files = company.write_all(tmp / "exports")
    plan = Plan()
    return pipeline.prepare(pipeline.read([files["lists"], files["transactions_iif"]], plan), plan)


def _compressing() -> int:
    prefs = plain_save._prefs()
    assert prefs is not None, "GnuCash's preference getter is not exported"
    return prefs[0]()


def test_the_book_written_and_proven_is_gnucash_compressed_xml(tmp_path):
    before = _compressing()
    book = tmp_path / "book.gnucash"
    outcome = pipeline.write(_prepared(tmp_path), book, Plan())
    assert outcome.report.ok
    data = book.read_bytes()
    assert data[:2] == b"\x1f\x8b" and gzip.decompress(data).startswith(b"<?xml")
    assert book.stat().st_mode & 0o777 == 0o600
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no partials
    assert _compressing() == before == 1  # GnuCash's own saves compress, as before
    # reopened by the bindings, it holds the generator's figures
    truth = make_company(300, seed=4, documents=True).trial_balance()
    again = gnc.read_book(book)
    assert again.transactions == outcome.snapshot.transactions
    assert_known_answers(outcome.report, truth)


def _plain_book(tmp: Path) -> Path:
    book = tmp / "plain.gnucash"
    with plain_save.plain():
        gnc.write_book(_prepared(tmp).ledger, book)
    assert book.read_bytes().startswith(b"<?xml")  # saved plain inside the block
    return book


def test_a_compression_that_fails_is_said_and_leaves_the_plain_book(tmp_path):
    import os

    book = _plain_book(tmp_path)
    blocked = book.with_name(f".{book.name}.partial-gz-{os.getpid()}")
    blocked.mkdir()  # where the compressed book would go: taken
    with pytest.raises(BookWriteError, match="could not be compressed beside"):
        with plain_save.compressed_after(book):
            gnc.read_book(book)
    assert book.read_bytes().startswith(b"<?xml") and blocked.is_dir()


def test_a_read_back_that_fails_leaves_no_partial(tmp_path):
    book = _plain_book(tmp_path)
    with pytest.raises(RuntimeError, match="read back failed"):
        with plain_save.compressed_after(book):
            raise RuntimeError("read back failed")
    assert book.read_bytes().startswith(b"<?xml")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_compressed_book_or_sqlite_is_left_as_it_is(tmp_path):
    prepared = _prepared(tmp_path)
    for name, fmt in (("gz.gnucash", "xml"), ("lite.gnucash", "sqlite")):
        book = tmp_path / name
        gnc.write_book(prepared.ledger, book, fmt=fmt)
        data = book.read_bytes()
        with plain_save.compressed_after(book):
            pass
        assert book.read_bytes() == data
